"""LossScaleDynamics and SpeedupExplorer, driven as a learner would, without a browser."""

from __future__ import annotations

import numpy as np
import pytest

from mpteach import i18n
from mpteach.bench.published import (
    published_groups,
    published_measurements,
    published_speedup,
    select_published,
)
from mpteach.bench.results import recorded_results, vendor_claims
from mpteach.simulate import SETTINGS, GradientModel, compare, simulate
from mpteach.widgets import LossScaleDynamics, SpeedupExplorer
from mpteach.widgets import loss_scale_dynamics as dyn
from mpteach.widgets import speedup_explorer as spx

STEPS = 4000  # short runs keep the tests quick; the widget's default is 20 000


@pytest.fixture
def widget():
    return LossScaleDynamics(steps=STEPS)


def test_widget_shows_exactly_what_the_simulator_computes(widget):
    expected = simulate(GradientModel(), STEPS, 2.0**15, 2000, seed=0)
    np.testing.assert_array_equal(widget.simulation.scale, expected.scale)
    assert widget.summary == expected.summary()
    assert widget.summary_text.value == dyn.describe(expected.summary(), "en")
    assert bytes(widget.view.value[:4]) == b"\x89PNG"


def test_a_fixed_scale_too_high_skips_every_step(widget):
    before = bytes(widget.view.value)
    widget.fixed_box.value = True
    widget.scale_slider.value = 24
    assert widget.growth_slider.disabled
    assert widget.simulation.growth_steps is None and widget.summary["skipped"] == STEPS
    assert "No step was applied" in widget.summary_text.value
    assert widget.plot.title.get_text() == "Loss scale fixed at 2²⁴"
    assert bytes(widget.view.value) != before  # the picture was redrawn
    assert len(widget.plot.skips.get_xdata()) <= dyn.MAX_MARKERS
    assert not widget.plot.settle_line.get_visible()


def test_presets_set_the_controls_and_a_control_clears_the_preset(widget):
    widget.preset_menu.value = "fixed_low"
    assert (widget.scale_slider.value, widget.fixed_box.value) == (0, True)
    assert widget.summary["underflow"] > 0.2
    widget.preset_menu.value = "fast_growth"
    assert (widget.scale_slider.value, widget.growth_slider.value) == (15, 20)
    assert not widget.fixed_box.value and widget.summary["skipped"] > 50
    widget.spread_slider.value = 10
    assert widget.preset_menu.value == ""


def test_spread_and_spikes_change_the_model(widget):
    widget.spike_slider.value = 1e-2
    assert widget.model.spike_rate == 1e-2
    spikes = np.flatnonzero(widget.simulation.spikes)
    assert spikes.size > 10 and widget.summary["skipped"] > 10
    assert not widget.simulation.finite[spikes[0]]  # a spike at a high scale overflows
    widget.spread_slider.value = 45  # wider than float16: some gradients always underflow
    assert widget.summary["underflow"] > 0


def test_comparison_table_explains_the_defaults(widget):
    rows = dyn.comparison(widget.model, STEPS, 0)
    assert rows == compare(widget.model, STEPS, 0)  # the cache changes nothing
    widget.spread_slider.value = 12  # the cached paths, with another spread: still the same
    assert dyn.comparison(widget.model, STEPS, 0) == compare(widget.model, STEPS, 0)
    assert widget.summary == simulate(widget.model, STEPS, 2.0**15, 2000).summary()
    table = widget.table.value
    for name in SETTINGS:
        assert i18n.t(f"dynamics.preset.{name}", "en") in table
    assert "<tr style='font-weight:bold'><td style='padding:0 8px'>Keras defaults" in table
    assert "Why 2^15 and 2000" in table


@pytest.mark.parametrize("lang", ["zh", "es", "ko", "ru"])
def test_widget_speaks_the_language(lang):
    w = LossScaleDynamics(steps=1000, lang=lang)
    assert w.scale_slider.description == i18n.t("dynamics.control.scale", lang)
    assert w.summary_text.value.startswith(i18n.catalogue()["dynamics.skipped"][lang].split("{")[0])
    assert i18n.t("dynamics.preset.defaults", lang) in w.table.value


def test_describe_handles_never_and_nothing_applied():
    summary = {"steps": 10, "skipped": 10, "skipped_fraction": 1.0, "settle_step": None,
               "underflow": None, "final_scale": 2.0**24}  # fmt: skip
    text = dyn.describe(summary, "en")
    assert "never reached" in text and "No step was applied" in text


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [({"initial_scale": 3.0}, "initial_scale=3.0"), ({"growth_steps": 7}, "growth_steps=7"),
     ({"spike_rate": 0.5}, "spike_rate=0.5"), ({"spread": 99.0}, "spread=99.0"),
     ({"initial_scale": 0.0}, "initial_scale=0.0"), ({"steps": 0}, "steps=0")],
)  # fmt: skip
def test_bad_arguments_name_themselves(kwargs, match):
    with pytest.raises(ValueError, match=match):
        LossScaleDynamics(**{"steps": 100, **kwargs})


def test_static_figure_matches_the_state(widget):
    figure = widget.figure()
    assert figure.axes[0].get_title() == widget.plot.title.get_text()


# ---- SpeedupExplorer ----------------------------------------------------------------------------


@pytest.fixture
def explorer():
    return SpeedupExplorer()


def test_explorer_shows_recorded_bars_with_the_hardware_name(explorer):
    doc = recorded_results()[0]
    assert explorer.result == doc
    expected = [
        row["speedup"] for row in doc["rows"] if row["workload"] == "matmul" and not row["baseline"]
    ]
    assert [bar.speedup for bar in explorer.plot.bars] == expected
    heights = [p.get_height() for p in explorer.plot.axes.patches if p.get_height() > 0]
    assert sorted(heights) == pytest.approx(sorted(expected))
    assert explorer.plot.axes.get_title().splitlines()[0] == doc["hardware"]["label"]


def test_explorer_workload_and_types(explorer):
    explorer.workload_menu.value = "dense"
    assert "Dense" in explorer.plot.axes.get_title()
    assert {bar.group for bar in explorer.plot.bars} >= {"batch 256, XLA off", "batch 256, XLA on"}
    explorer.types_box.value = ("bfloat16",)
    assert explorer.plot.bars and all("bfloat16" in bar.variant for bar in explorer.plot.bars)
    assert explorer.sizes_text.value == spx.LIVE_SIZES["dense"]


@pytest.mark.parametrize("lang", ["en", "zh", "ru"])
def test_the_remapping_work_around_is_marked_in_every_language(lang):
    """A bar measured with remapping off shares its type's slot and is hatched, whatever language
    its label is in (the Intel result has one, on the Dense workload)."""
    intel = next(d for d in recorded_results() if "Intel" in d["hardware"]["label"])
    rows = [r for r in intel["rows"] if r["workload"] == "dense" and not r["baseline"]]
    assert any(r["remapping"] is False for r in rows)
    plot = spx.SpeedupPlot(intel, "dense", lang)
    assert [bar.unfused for bar in plot.bars] == [r["remapping"] is False for r in rows]
    assert {bar.slot for bar in plot.bars} == {r["variant"] for r in rows}
    unfused = next(bar for bar in plot.bars if bar.unfused)
    assert unfused.variant == spx.variant_label(
        {"variant": unfused.slot, "tf32": None, "remapping": False}, lang
    )
    assert (unfused.variant == "mixed_float16 (remapping off)") == (lang == "en")
    hatched = [p for p in plot.axes.patches if p.get_height() > 0 and p.get_hatch()]
    assert len(hatched) == sum(bar.unfused for bar in plot.bars)
    assert len(plot.axes.get_legend().get_texts()) == len({b.slot for b in plot.bars}) + 2


def test_explorer_notes_what_was_not_timed(explorer):
    explorer.workload_menu.value = "cnn"
    skipped = [s for s in explorer.result["settings"].get("skipped", []) if s.startswith("cnn")]
    assert (skipped != []) == ("Not timed" in explorer.status.value)


def test_claims_are_shown_apart_and_labelled(explorer):
    assert explorer.claims is not explorer.view and explorer.claims in explorer.children
    text = explorer.claims.value
    assert "Published claims — not measured here" in text
    assert all(claim["source"] in text and claim["url"] in text for claim in vendor_claims())
    assert "claims" not in " ".join(bar.variant for bar in explorer.plot.bars)


def test_bad_sizes_get_a_message_and_run_nothing(explorer):
    before = len(explorer.results)
    explorer.sizes_text.value = "4096"
    explorer.run()
    assert "from 1 to 2048" in explorer.message.text and len(explorer.results) == before


@pytest.mark.keras
def test_live_run_adds_a_result_of_this_machine(explorer):
    from mpteach.hardware import detect

    explorer.sizes_text.value = "16"
    explorer.run()
    assert explorer.message.text == "" and explorer.result_menu.value == len(explorer.results) - 1
    assert explorer.result["hardware"]["label"] == detect().label
    assert [bar.group for bar in explorer.plot.bars] == ["n = 16", "n = 16"]
    assert "Measured on this machine" in explorer.status.value
    assert "measured here, now" in explorer.plot.axes.get_title()
    assert "measured here, now" in explorer.result_menu.options[-1][0]
    assert explorer.progress.value == explorer.progress.max > 0


def test_explorer_language_and_bad_workload():
    w = SpeedupExplorer(workload="dense", lang="ru")
    assert w.run_button.description == "Замерить здесь"
    assert "Опубликованные заявления" in w.claims.value
    with pytest.raises(ValueError, match="workload='lstm'"):
        SpeedupExplorer(workload="lstm")


# ---- SpeedupExplorer: the kinds of evidence, published measurements --------------------------------


def test_each_kind_of_evidence_is_labelled_and_kept_apart(explorer):
    assert "recorded with mpteach" in explorer.plot.axes.get_title()
    assert all("recorded with mpteach" in label for label, _ in explorer.result_menu.options)
    parts = explorer.children
    assert explorer.view in parts and explorer.published in parts and explorer.claims in parts
    assert (
        parts.index(explorer.view) < parts.index(explorer.published) < parts.index(explorer.claims)
    )
    assert "Published measurements — measured by others" in explorer.published.children[0].value
    assert "published measurement, not run here" in explorer.published_plot.axes.get_title()
    assert "Published claims — not measured here" in explorer.claims.value


def test_published_groups_are_selectable_and_drawn_from_the_data(explorer):
    groups = published_groups(published_measurements())
    assert [label for label, _ in explorer.published_menu.options] == list(groups)
    labels = list(groups)
    index = next(i for i, label in enumerate(labels) if "V100" in label and "Mask R-CNN" in label)
    before = bytes(explorer.published_view.value)
    explorer.published_menu.value = index
    rows = groups[labels[index]]
    plot = explorer.published_plot
    assert plot.axes.get_title().splitlines()[0] == labels[index]
    assert [bar.speedup for bar in plot.bars] == [published_speedup(r) for r in rows]
    heights = [p.get_height() for p in plot.axes.patches if p.get_height() > 0]
    assert heights == pytest.approx([published_speedup(r) for r in rows])
    hatched = [p for p in plot.axes.patches if p.get_height() > 0 and p.get_hatch()]
    assert len(hatched) == sum(1 for r in rows if r["speedup_note"]) == 1  # the source's slip
    assert bytes(explorer.published_view.value) != before
    assert all(r["source"]["url"] in explorer.published_sources.value for r in rows)
    assert "@" + rows[0]["source"]["commit"][:8] in explorer.published_sources.value


def test_published_sources_list_every_source_once_and_the_tpu_finding():
    rows = published_measurements()
    text = spx.published_html(lang="en")
    urls = {r["source"]["url"] for r in rows}
    assert all(text.count(f"href='{url}'") >= 1 for url in urls)
    assert text.count("<li>") == len({(r["source"]["url"], r["source"]["table"]) for r in rows})
    assert "TPU: no published measurement" in text


def test_published_source_titles_use_the_languages_quotation_marks():
    for lang, (left, right) in {
        "en": "\u201c\u201d",
        "ru": "\u00ab\u00bb",
        "es": "\u00ab\u00bb",
    }.items():
        text = spx.published_html(lang=lang)
        items = text.count("<li>")
        assert text.count(f"\u2014 {left}") == text.count(right + "</li>") == items > 0, lang


def test_published_bars_show_gpus_batch_and_xla():
    rows = select_published(published_measurements(), gpu="A100 80GB", model="Wide & Deep")
    bars = spx.published_bars(rows, "es")
    assert [bar.speedup for bar in bars] == [published_speedup(r) for r in rows]
    assert all("lote" in bar.label and "XLA" in bar.label for bar in bars)
    batch = rows[0]["batch_per_gpu"]["mixed"]
    assert f"lote {batch}" in bars[0].label


def test_published_part_in_another_language():
    w = SpeedupExplorer(lang="ko")
    assert "공개된 측정값" in w.published.children[0].value
    assert w.published_menu.description == "공개된 측정값"
    assert "출처" in w.published_sources.value
    assert w.published_figure().axes[0].get_title() == w.published_plot.axes.get_title()


def test_result_title_refuses_an_unknown_kind():
    with pytest.raises(ValueError, match=r"kind='claim': choose one of 'recorded', 'here'"):
        spx.result_title(recorded_results()[0], "matmul", "en", kind="claim")
