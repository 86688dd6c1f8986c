"""FloatExplorer, RangeChart and GradientUnderflow driven like a learner would, in every language."""

from __future__ import annotations

import math

import numpy as np
import pytest
from matplotlib.figure import Figure

from mpteach import formats, i18n
from mpteach.widgets import FloatExplorer, GradientUnderflow, RangeChart
from mpteach.widgets._common import Message, parse_number
from mpteach.widgets.gradient_underflow import BANDS, band_limits, underflow_report

LANGUAGES = i18n.LANGUAGES


def _statuses(widget) -> dict[str, str]:
    return {r.fmt: r.status for r in widget.result}


def _synthetic_gradients(seed: int = 0, n: int = 20_000) -> np.ndarray:
    """Half exact zeros, the rest log-normal around 2**-30: mass below float16's 2**-24."""
    rng = np.random.default_rng(seed)
    values = rng.choice([-1.0, 1.0], n) * 2.0 ** rng.normal(-30, 8, n)
    return np.where(rng.random(n) < 0.5, 0.0, values).astype(np.float32)


# --- typed numbers --------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_parse_number_explains_bad_entries_in_the_language(lang):
    assert parse_number("1e-5", lang) == (1e-5, "")
    assert parse_number("2**-24", lang) == (2.0**-24, "")
    assert parse_number("−3", lang) == (-3.0, "")  # a typographic minus sign
    value, message = parse_number("twelve", lang)
    assert value is None and message == i18n.t("common.invalid_number", lang, text="twelve")
    value, message = parse_number("1e-400", lang)
    assert value is None and "1e-400" in message and "4.941e-324" in message
    value, message = parse_number("5", lang, low=1, high=4)
    assert value is None and message == i18n.t(
        "common.number_out_of_range", lang, text="5", low="1", high="4"
    )
    assert parse_number("nan", lang, finite=True)[0] is None
    assert math.isnan(parse_number("nan", lang)[0])


def test_figures_are_drawn_in_the_language_with_the_packaged_font(monkeypatch):
    import matplotlib

    from mpteach import figures
    from mpteach.widgets import _common

    monkeypatch.setitem(matplotlib.rcParams, "font.family", ["sans-serif"])
    with _common.figure_text("ru") as lang:
        assert lang == "ru"  # the default font has Cyrillic: no fallback needed
    assert matplotlib.rcParams["font.family"] == ["sans-serif"]
    with _common.figure_text("ko") as lang:
        assert lang == "ko"
    # The font stays a fallback after the block: figures are drawn later, when shown.
    assert matplotlib.rcParams["font.family"] == ["sans-serif", figures.FONT_FAMILY]


def test_a_figure_in_chinese_draws_every_glyph_with_no_cjk_font_installed(monkeypatch):
    import warnings

    import matplotlib
    from matplotlib import font_manager

    from mpteach import figures, formats
    from mpteach.widgets.float_explorer import draw_bits

    # Only matplotlib's own fonts and the packaged one, as in Colab.
    own = str(matplotlib.get_data_path())
    monkeypatch.setattr(
        font_manager.fontManager,
        "ttflist",
        [e for e in font_manager.fontManager.ttflist if e.fname.startswith(own)],
    )
    monkeypatch.setitem(matplotlib.rcParams, "font.family", ["sans-serif"])
    font_manager.fontManager._findfont_cached.cache_clear()
    try:
        figure = draw_bits(formats.represent_all(0.1, ("float16",)), lang="zh")
        assert any(e.name == figures.FONT_FAMILY for e in font_manager.fontManager.ttflist)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # "Glyph ... missing from font(s)" is a UserWarning
            figure.canvas.draw()
    finally:
        font_manager.fontManager._findfont_cached.cache_clear()
    assert any("二进制" in t.get_text() for t in figure.findobj(matplotlib.text.Text))


def test_message_line():
    m = Message()
    m.show("<b>careful</b>", "note")
    assert m.text == "<b>careful</b>" and "&lt;b&gt;" in m.value
    with pytest.raises(ValueError, match="kind='loud'.*'error', 'note'"):
        m.show("x", "loud")


# --- FloatExplorer --------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_float_explorer_in_every_language(lang):
    w = FloatExplorer(0.1, lang=lang)
    w.value_text.value = "1e-5"
    assert w.x == 1e-5
    assert _statuses(w) == {
        name: str(formats.classify(1e-5, name)) for name in formats.FORMAT_NAMES
    }
    assert _statuses(w)["float16"] == "subnormal"
    for text in (i18n.t("formats.status.subnormal", lang), i18n.t("formats.column.stored", lang)):
        assert text in w.table.value

    w.value_text.value = "not a number"
    assert w.x == 1e-5 and w.message.text.startswith(
        i18n.t("common.invalid_number", lang, text="not a number")[:8]
    )
    w.value_text.value = "1e400"
    assert w.x == 1e-5 and "1e400" in w.message.text
    w.value_text.value = "70000"
    assert w.message.text == "" and _statuses(w)["float16"] == "overflow_inf"
    assert i18n.t("formats.status.overflow_inf", lang) in w.table.value


def test_float_explorer_steps_by_one_ulp_of_the_chosen_format():
    w = FloatExplorer(1.0, lang="en")
    w.up_button.click()
    assert w.x == 1.0 + 2**-10  # float16's ULP at 1
    assert w.value_text.value == repr(1.0 + 2**-10) and w.slider.value == w.x
    w.step_format.value = "bfloat16"
    w.down_button.click()
    w.down_button.click()
    assert w.x == 1.0 - 2**-8  # 1.0009765625 -> 1.0 -> the bfloat16 below 1
    w.set_x(65504.0)
    w.step_format.value = "float16"
    w.step(+1)
    assert w.x == math.inf and _statuses(w)["float16"] == "inf"
    w.step(-1)
    assert w.x == 65504.0


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_float_explorer_step_buttons_say_which_way_they_go(lang):
    w = FloatExplorer(1.0, lang=lang)
    assert w.down_button.tooltip == i18n.t("formats.explorer.step_down_tooltip", lang)
    assert w.up_button.tooltip == i18n.t("formats.explorer.step_up_tooltip", lang)
    assert w.down_button.tooltip != w.up_button.tooltip
    with pytest.raises(ValueError, match="direction=2"):
        w.step(2)


def test_float_explorer_flips_bits_of_the_chosen_format():
    w = FloatExplorer(1.0, lang="en")
    assert "".join(b.description for b in w.bits.children) == "0011110000000000"  # float16 1.0
    w.flip(0)
    assert w.x == -1.0
    w.bits.children[15].click()  # the last mantissa bit: one ULP further from zero
    assert w.x == -(1.0 + 2**-10)
    w.step_format.value = "float8_e4m3fn"
    assert len(w.bits.children) == 8
    w.set_x(448.0)
    w.flip(7)  # 0 1111 110 -> 0 1111 111: the NaN pattern
    assert math.isnan(w.x) and _statuses(w)["float8_e4m3fn"] == "nan"
    with pytest.raises(ValueError, match="position=8 is not valid; choose 0 to 7"):
        w.flip(8)


def test_float_explorer_slider_keeps_the_sign_and_tables_follow():
    w = FloatExplorer(-2.0, lang="en")
    w.slider.value = 0.001
    assert w.x == -0.001 and w.value_text.value == "-0.001"
    assert [r.x for r in w.result] == [-0.001] * len(formats.FORMAT_NAMES)
    stored = {r.fmt: r.stored for r in w.result}
    assert stored["float16"] == float(formats.cast(-0.001, "float16"))


def test_float_explorer_saturating_cast():
    w = FloatExplorer(1000.0, lang="en")
    assert _statuses(w)["float8_e4m3fn"] == "overflow_nan"
    w.saturate.value = True
    assert _statuses(w)["float8_e4m3fn"] == "saturated"
    assert {r.fmt: r.stored for r in w.result}["float8_e4m3fn"] == 448.0


def test_float_explorer_figure_and_bad_arguments():
    w = FloatExplorer(0.1, formats=("float16", "bfloat16"), lang="es")
    figure = w.figure()
    assert isinstance(figure, Figure)
    texts = [t.get_text() for t in figure.axes[0].texts]
    assert "float16" in texts and i18n.t("formats.status.normal", "es") in " ".join(texts)
    with pytest.raises(ValueError, match="fmt='float12'"):
        FloatExplorer(formats=("float12",))
    with pytest.raises(ValueError, match="fmt='int8'"):
        FloatExplorer(step_format="int8")


def test_widgets_follow_the_current_language():
    i18n.set_language("ko")
    w = FloatExplorer(1e-8)
    assert i18n.t("formats.status.underflow_to_zero", "ko") in w.table.value


# --- RangeChart -----------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_range_chart_in_every_language(lang):
    chart = RangeChart(1e-5, lang=lang)
    before = bytes(chart.view.value)
    chart.value_text.value = "1e6"
    assert [r.status for r in chart.result] == [
        str(formats.classify(1e6, r.fmt)) for r in chart.result
    ]
    figure_lang = chart.plot.lang  # English where no installed font shows the language
    assert chart.plot.status_texts()[2] == i18n.t("formats.status.overflow_inf", figure_lang)
    assert bytes(chart.view.value) != before and chart.plot.marker.get_visible()
    chart.value_text.value = "0"
    assert not chart.plot.marker.get_visible()
    assert chart.message.text == i18n.t("formats.range.off_axis", lang, x="0.0")
    chart.value_text.value = "x"
    assert chart.x == 0.0 and chart.message.text


def test_range_chart_bars_are_the_formats_facts():
    chart = RangeChart(1.0, formats=("float16", "float8_e5m2"), lang="en")
    spans = [(p.get_x(), p.get_x() + p.get_width()) for p in chart.figure().axes[0].patches]
    for name in ("float16", "float8_e5m2"):
        f = formats.FloatFormat(name)
        for band in [(f.smallest_normal, f.max), (f.smallest_subnormal, f.smallest_normal)]:
            assert any(span == pytest.approx(band, rel=1e-12) for span in spans), (name, band)


# --- GradientUnderflow ----------------------------------------------------------------------


def test_underflow_report_counts_every_value_once():
    values = _synthetic_gradients()
    report = underflow_report(values, 2.0**8)
    assert report.size == values.size
    assert sum(int(c.sum()) for c in report.counts.values()) + report.totals["zero"] == values.size
    assert sum(report.fraction(b) for b in BANDS) == pytest.approx(1.0)
    status = formats.classify(values.astype(np.float64) * 2.0**8, "float16")
    assert report.totals["underflow_to_zero"] == np.count_nonzero(status == "underflow_to_zero")
    assert report.totals["subnormal"] == np.count_nonzero(status == "subnormal")


def test_loss_scale_trades_underflow_for_overflow():
    values = _synthetic_gradients()
    reports = [underflow_report(values, 2.0**k) for k in range(0, 41, 4)]
    flushed = [r.totals["underflow_to_zero"] for r in reports]
    overflow = [r.totals["overflow"] for r in reports]
    assert flushed == sorted(flushed, reverse=True) and flushed[0] > flushed[-1]
    assert overflow == sorted(overflow) and overflow[0] == 0 < overflow[-1]
    assert all(r.totals["zero"] == reports[0].totals["zero"] for r in reports)


def test_band_limits_match_the_casts():
    for name in ("float16", "bfloat16", "float8_e5m2", "float8_e4m3fn"):
        limits = band_limits(name)
        for band, (low, high) in limits.items():
            inside = 2.0 ** np.linspace(max(low, -200), min(high, 200), 9)[1:-1]
            status = formats.classify(inside, name)
            expected = {"overflow": {"overflow_inf", "overflow_nan"}}.get(band, {band})
            assert set(status) <= expected, (name, band, set(status))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_gradient_underflow_in_every_language(lang):
    values = _synthetic_gradients()
    w = GradientUnderflow({"activations": values, "mine": -values}, lang=lang)
    flushed_at_1 = w.result.fraction("underflow_to_zero")
    picture = bytes(w.view.value)
    w.slider.value = 15
    assert w.result.scale == 2.0**15
    assert w.result.fraction("underflow_to_zero") < flushed_at_1
    assert bytes(w.view.value) != picture
    assert i18n.percent(w.result.fraction("subnormal") * 100, lang) in w.summary.value
    assert i18n.t("formats.grad.kind.activations", lang) in [o[0] for o in w.kind_menu.options]
    legend = w.plot.legend_texts()
    if w.plot.lang == lang:  # a figure falls back to English where no font shows the language
        assert legend[1].startswith(i18n.t("formats.grad.band.underflow_to_zero", lang))
    w.format_menu.value = "bfloat16"
    assert w.result.fmt == "bfloat16" and w.result.totals["underflow_to_zero"] == 0
    w.kind_menu.value = "mine"
    assert w.result.totals == underflow_report(-values, 2.0**15, "bfloat16").totals
    assert isinstance(w.figure(), Figure)


def test_gradient_underflow_refuses_bad_arguments():
    with pytest.raises(ValueError, match="fmt='float32' is not offered here"):
        GradientUnderflow(np.ones(3), fmt="float32")
    with pytest.raises(ValueError, match=r"scale=-1\.0 is not valid"):
        underflow_report(np.ones(3), -1.0)
    with pytest.raises(ValueError, match="scale='big' is not valid"):
        underflow_report(np.ones(3), "big")
    empty = GradientUnderflow(np.zeros(0), lang="es")
    assert empty.result.size == 0 and empty.summary.value == i18n.t("formats.grad.no_values", "es")
