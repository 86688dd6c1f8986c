"""SpeedupExplorer: speedups against float32, each labelled with the kind of evidence it is.

* *measured here, now* and *recorded with mpteach*: benchmark results of :mod:`mpteach.bench`
  (a run on this machine, or the ones shipped in ``mpteach/data/results/``).
  :func:`speedup_bars` picks the bars of one workload and :class:`SpeedupPlot` draws them with
  the hardware's name and the kind of result in the title.
* *published measurements*: training throughput measured by others on GPUs
  (:mod:`mpteach.bench.published`), one group (hardware, model, workload) at a time:
  :func:`published_bars`, :class:`PublishedPlot`, and :func:`published_html` for their sources.
* *vendor claims*: :func:`claims_html` lists them apart, labelled as claims.

Everything is shown in the reader's language, the data's descriptions too
(:func:`mpteach.bench.published.localized_row`, :func:`mpteach.i18n.localized`).

>>> from mpteach.bench.results import new_result
>>> rows = [{"workload": "matmul", "size": 512, "variant": v, "xla": False, "tf32": None,
...          "remapping": True, "baseline": v == "float32", "times_s": [t]}
...         for v, t in (("float32", 0.004), ("float16", 0.004), ("bfloat16", 0.001))]
>>> doc = new_result(rows, {"repeats": 1}, {"device": "cpu", "label": "Some CPU"})
>>> [(bar.group, bar.variant, bar.speedup) for bar in speedup_bars(doc, "matmul", "en")]
[('n = 512', 'float16', 1.0), ('n = 512', 'bfloat16', 4.0)]
"""

from __future__ import annotations

import html
import time
from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets
import numpy as np
from matplotlib.figure import Figure

from mpteach import i18n
from mpteach.bench.published import (
    batch_label,
    localized_row,
    published_document,
    published_groups,
    published_speedup,
)
from mpteach.bench.results import (
    claim_quote,
    recorded_results,
    software_label,
    variant_label,
    vendor_claims,
)
from mpteach.bench.results import class_results as results_of_class
from mpteach.widgets._common import FigureView, Message, figure_text, new_figure

WORKLOADS = ("matmul", "dense", "cnn")
TYPES = ("float16", "bfloat16")
LIVE_SIZES = {"matmul": "256 512 511", "dense": "64", "cnn": "16"}
LIVE_LIMITS = {"matmul": 2048, "dense": 1024, "cnn": 128}  # live runs stay fast
COLOURS = {"float16": "#1565c0", "bfloat16": "#2e7d32", "float32": "#9e9e9e"}


def _t(name: str, lang: str | None, **values: object) -> str:
    return i18n.t(f"speed.explorer.{name}", lang, **values)


@dataclass(frozen=True)
class Bar:
    group: str  # "n = 1024" or "batch 256, XLA on"
    variant: str  # "bfloat16", "mixed_float16 (remapping off)", "float32 (TF32 off)", localized
    speedup: float
    median_ms: float
    slot: str = ""  # its place in the group: the variant without the remapping note
    type: str = "float32"  # the 16-bit type it computes in ("float32" for a TF32-off baseline)
    unfused: bool = False  # measured with remapping off, the CPU float16 work-around


def _type_of(variant: str) -> str:
    return "bfloat16" if "bfloat16" in variant else "float16" if "float16" in variant else "float32"


def speedup_bars(
    doc: dict[str, Any], workload: str, lang: str | None = None, types: tuple[str, ...] = TYPES
) -> list[Bar]:
    """The non-baseline rows of ``workload`` whose 16-bit type is in ``types`` (float32 with TF32
    off is always kept), in the result's order."""
    if workload not in WORKLOADS:
        raise ValueError(f"workload={workload!r}: choose one of {', '.join(map(repr, WORKLOADS))}.")
    bars = []
    for row in doc["rows"]:
        kind = _type_of(row["variant"])
        if (
            row["workload"] != workload
            or row["baseline"]
            or (kind != "float32" and kind not in types)
        ):
            continue
        if workload == "matmul":
            group = _t("group_matmul", lang, size=row["size"])
        else:
            xla = _t("xla_on" if row["xla"] else "xla_off", lang)
            group = _t("group_training", lang, size=row["size"], xla=xla)
        # Slot, type and work-around come from the row, not from the label, which is localized.
        slot = variant_label({**row, "remapping": None}, lang)
        label, unfused = variant_label(row, lang), row["remapping"] is False
        bars.append(Bar(group, label, row["speedup"], row["median_s"] * 1e3, slot, kind, unfused))
    return bars


KINDS = ("recorded", "here", "class")


def result_title(
    doc: dict[str, Any], workload: str, lang: str | None = None, kind: str = "recorded"
) -> str:
    """The hardware's name, then ``'<workload> (TensorFlow 2.21.0, 2026-11-22) — <kind>'``,
    where ``kind`` is ``'recorded'`` (shipped with mpteach), ``'here'`` (measured here, now) or
    ``'class'`` (measured by this class: :func:`mpteach.bench.results.class_results`)."""
    if kind not in KINDS:
        raise ValueError(f"kind={kind!r}: choose one of {', '.join(map(repr, KINDS))}.")
    workload_line = _t(
        "title", lang, workload=_t("workload." + workload, lang), software=software_label(doc),
        date=doc["created"][:10], kind=_t("kind_" + kind, lang),
    )  # fmt: skip
    return f"{doc['hardware']['label']}\n{workload_line}"


class SpeedupPlot:
    """Grouped bars of speedup against float32 (a dashed line at 1x); :meth:`update` redraws.

    >>> from mpteach.bench.results import recorded_results
    >>> doc = recorded_results()[0]
    >>> plot = SpeedupPlot(doc, "matmul", "en")
    >>> plot.axes.get_title().splitlines()[0] == doc["hardware"]["label"]
    True
    """

    def __init__(self, doc: dict[str, Any], workload: str, lang: str | None = None,
                 types: tuple[str, ...] = TYPES, kind: str = "recorded") -> None:  # fmt: skip
        with figure_text(lang) as self.lang:
            self.figure = new_figure(10, 4.4)
            self.axes = self.figure.add_axes((0.07, 0.1, 0.91, 0.76))
            self.update(doc, workload, types, kind)

    def update(self, doc: dict[str, Any], workload: str, types: tuple[str, ...] = TYPES,
               kind: str = "recorded") -> None:  # fmt: skip
        axes, lang = self.axes, self.lang
        axes.clear()
        self.bars = speedup_bars(doc, workload, lang, types)
        groups = list(dict.fromkeys(bar.group for bar in self.bars))
        # One slot per type in every group; work-arounds and TF32 off are marked on the bar.
        type_of = {bar.slot: bar.type for bar in self.bars}
        slots = sorted(
            type_of, key=lambda slot: ("float16", "bfloat16", "float32").index(type_of[slot])
        )
        width = 0.8 / max(len(slots), 1)
        for i, slot in enumerate(slots):
            mine = [bar for bar in self.bars if bar.slot == slot]
            offset = (i - (len(slots) - 1) / 2) * width
            x = np.array([groups.index(bar.group) for bar in mine]) + offset
            heights = [bar.speedup for bar in mine]
            drawn = axes.bar(x, heights, width * 0.92, label=slot, color=COLOURS[type_of[slot]])
            for patch, bar in zip(drawn, mine, strict=True):
                if bar.unfused:
                    patch.set_hatch("//")
            axes.bar_label(drawn, labels=[f"{h:.2f}×" for h in heights], fontsize=7, padding=2)
        axes.axhline(1.0, color=COLOURS["float32"], ls="--", lw=1, label=_t("baseline", lang))
        if any(bar.unfused for bar in self.bars):
            axes.bar(
                [0], [0], color="white", edgecolor="#555", hatch="//", label=_t("unfused", lang)
            )
        axes.set_xticks(range(len(groups)), groups, fontsize=8)
        top = max([bar.speedup for bar in self.bars] + [1.0])
        axes.set_ylim(0, top * 1.3)
        axes.set_ylabel(_t("ylabel", lang))
        axes.set_title(result_title(doc, workload, lang, kind), fontsize=9)
        if not self.bars:
            axes.text(0.5, 0.5, _t("no_rows", lang), transform=axes.transAxes, ha="center")
        axes.legend(fontsize=8, loc="upper right", framealpha=0.85, ncol=2)


def draw_speedups(doc: dict[str, Any], workload: str, lang: str | None = None,
                  types: tuple[str, ...] = TYPES) -> Figure:  # fmt: skip
    """The static bar chart of one workload of a result."""
    return SpeedupPlot(doc, workload, lang, types).figure


@dataclass(frozen=True)
class PublishedBar:
    label: str  # "8 GPU(s)\nbatch 32/60"
    speedup: float  # mixed / baseline throughput, computed from the two figures
    stated: float | None  # as the source prints it
    note: str | None  # where the source contradicts itself


def published_bars(rows: list[dict[str, Any]], lang: str | None = None) -> list[PublishedBar]:
    """One bar per row of a published group: its GPUs and batch size, and the ratio of its
    throughputs.

    >>> from mpteach.bench.published import published_measurements, select_published
    >>> rows = select_published(published_measurements(), gpu="A100 80GB", model="Mask R-CNN")
    >>> [(bar.label.replace("\\n", " "), round(bar.speedup, 2)) for bar in published_bars(rows, "en")]
    [('1 GPU(s) batch 2', 1.36), ('1 GPU(s) batch 4', 1.55), ('8 GPU(s) batch 2', 1.04), ('8 GPU(s) batch 4', 1.1)]
    """
    bars = []
    for row in rows:
        label = _t("published_bar", lang, gpus=row["gpus"], batch=batch_label(row))
        if row["xla"] is not None:
            label += "\n" + _t("xla_on" if row["xla"] else "xla_off", lang)
        stated = None if row["speedup_stated"] is None else float(row["speedup_stated"])
        bars.append(PublishedBar(label, published_speedup(row), stated, row["speedup_note"]))
    return bars


class PublishedPlot:
    """Bars of one published group (same hardware, model and workload): mixed-precision
    throughput over FP32/TF32 throughput, the source's own figure marked beside each bar.
    ``rows`` are the data's rows (in English) and ``label`` the group's label in ``lang``
    (:func:`published_groups`).

    >>> from mpteach.bench.published import published_measurements, published_groups
    >>> label, rows = next(iter(published_groups(published_measurements()).items()))
    >>> plot = PublishedPlot(rows, label, "en")
    >>> plot.axes.get_title().splitlines()[0] == label
    True
    """

    def __init__(self, rows: list[dict[str, Any]], label: str, lang: str | None = None) -> None:
        with figure_text(lang) as self.lang:
            self.figure = new_figure(10, 4.0)
            self.axes = self.figure.add_axes((0.07, 0.16, 0.91, 0.7))
            self.update(rows, label)

    def update(self, rows: list[dict[str, Any]], label: str) -> None:
        axes, lang = self.axes, self.lang
        axes.clear()
        self.rows, self.bars = rows, published_bars(rows, lang)
        first = localized_row(rows[0], lang)
        x = np.arange(len(self.bars))
        heights = [bar.speedup for bar in self.bars]
        drawn = axes.bar(
            x, heights, 0.6, color=COLOURS["float16"], label=first["precision"]["mixed"]
        )
        for patch, bar in zip(drawn, self.bars, strict=True):
            if bar.note:
                patch.set_hatch("xx")
        if any(bar.note for bar in self.bars):
            axes.bar([0], [0], color="white", edgecolor="#555", hatch="xx",
                     label=_t("inconsistent", lang))  # fmt: skip
        axes.bar_label(drawn, labels=[f"{h:.2f}×" for h in heights], fontsize=7, padding=2)
        stated = [(i, bar.stated) for i, bar in enumerate(self.bars) if bar.stated is not None]
        if stated:
            axes.plot([i + 0.38 for i, _ in stated], [v for _, v in stated], "k<", ms=5,
                      label=_t("stated", lang))  # fmt: skip
        base = first["precision"]["baseline"]
        axes.axhline(1.0, color=COLOURS["float32"], ls="--", lw=1, label=f"{base} = 1×")
        axes.set_xticks(x, [bar.label for bar in self.bars], fontsize=7)
        axes.set_ylim(0, max(heights + [1.0]) * 1.3)
        axes.set_ylabel(_t("published_ylabel", lang), fontsize=8)
        axes.set_title(
            f"{label}\n{first['system']} | {first['framework']} — {_t('kind_published', lang)}",
            fontsize=8,
        )
        axes.legend(fontsize=7, loc="upper right", framealpha=0.85)


def published_html(rows: list[dict[str, Any]] | None = None, lang: str | None = None) -> str:
    """The sources of the published measurements (of ``rows``; default all) as links, each
    with repository, file, commit and table, and what was found for TPUs."""
    document = published_document()
    rows = document["rows"] if rows is None else rows
    seen: dict[tuple, dict[str, Any]] = {}
    for row in rows:
        seen.setdefault((row["source"]["url"], row["source"]["table"]), row)
    items = []
    for (url, table), row in seen.items():
        source = row["source"]
        more = len(source["paths"]) - 1
        name = f"{source['repository']}: {source['paths'][0]}" + (f" (+{more})" if more else "")
        items.append(
            f"<li><a href='{html.escape(url)}' target='_blank'>{html.escape(name)}</a> "
            f"@{source['commit'][:8]} ({html.escape(source['date'])}) — "
            f"{html.escape(i18n.t('speed.published.title_quote', lang, title=i18n.localized(table, lang)))}</li>"
        )
    tpu = (
        ""
        if document["tpu"]["found"]
        else f"<br><small>{html.escape(_t('tpu_none', lang))}</small>"
    )
    return (
        f"<div style='border-left:3px solid #1565c0;padding-left:8px'>"
        f"<b>{html.escape(_t('sources_title', lang))}</b><ul>{''.join(items)}</ul>{tpu}</div>"
    )


def claims_html(lang: str | None = None) -> str:
    """The published speedup claims, apart from the measurements and labelled as claims: each
    translated, its English words beside it (:func:`mpteach.bench.results.claim_quote`)."""
    items = "".join(
        f"<li><b>{c['speedup']:g}×</b> ({html.escape(i18n.localized(c['kind'], lang))}) — "
        f"{html.escape(claim_quote(c, lang))} — {html.escape(i18n.localized(c['hardware'], lang))}"
        f" — <a href='{html.escape(c['url'])}' target='_blank'>"
        f"{html.escape(i18n.localized(c['source'], lang))}</a></li>"
        for c in vendor_claims()
    )
    return (
        f"<div style='border-left:3px solid #999;padding-left:8px'><b>{_t('claims_title', lang)}</b>"
        f"<br><small>{_t('claims_note', lang)}</small><ul>{items}</ul></div>"
    )


def parse_sizes(text: str, workload: str, lang: str | None = None) -> tuple[list[int] | None, str]:
    """``([sizes], "")`` from ``"256 512"``, or ``(None, message)`` naming the allowed range.

    >>> parse_sizes("256, 511", "matmul")
    ([256, 511], '')
    >>> parse_sizes("4096", "matmul")[1]
    "Sizes must be whole numbers from 1 to 2048, separated by spaces; got '4096'."
    """
    high = LIVE_LIMITS[workload]
    parts = text.replace(",", " ").split()
    if parts and all(p.isdigit() and 1 <= int(p) <= high for p in parts):
        return [int(p) for p in parts], ""
    return None, _t("bad_sizes", lang, low=1, high=high, text=text)


def run_live(
    workload: str, sizes: list[int], types: tuple[str, ...] = TYPES, progress: Any = None
) -> dict[str, Any]:
    """A small benchmark on this machine (5 timed rounds after one warm-up per variant)."""
    from mpteach import bench

    if workload == "matmul":
        return bench.matmul_throughput(sizes, ("float32", *types), 5, 1, progress)
    policies = ("float32", *(f"mixed_{t}" for t in types))
    docs = [bench.training_step((workload,), policies, (False, True), size, 5, 1, True, progress)
            for size in sizes]  # fmt: skip
    return bench.merge_results(docs)


def browser_data(lang: str) -> dict[str, Any]:
    """What the website's SpeedupExplorer (``web/speedup.js``) shows, in ``lang``: for each
    recorded result its menu entry and, per workload, its title, the notes on skipped rows and
    its bars (:func:`speedup_bars`, with each bar's type and place in its group); each published
    group with its title, bars (:func:`published_bars`) and sources; the vendor claims. Measuring
    here needs a kernel, so the site has no Run button.

    >>> data = browser_data("en")
    >>> data["results"][0]["workloads"]["matmul"]["bars"][0]["type"] in TYPES
    True
    """
    results = []
    for doc in recorded_results():
        workloads = {}
        for workload in WORKLOADS:
            skipped = [s for s in doc["settings"].get("skipped", []) if s.startswith(workload)]
            bars = [
                {"group": bar.group, "variant": bar.variant, "slot": bar.slot,
                 "type": bar.type, "speedup": bar.speedup, "unfused": bar.unfused}
                for bar in speedup_bars(doc, workload, lang)
            ]  # fmt: skip
            workloads[workload] = {
                "title": result_title(doc, workload, lang),
                "notes": [_t("skipped", lang, items="; ".join(skipped))] if skipped else [],
                "bars": bars,
            }
        menu = f"{doc['hardware']['label']} — {doc['created'][:10]} — {_t('kind_recorded', lang)}"
        results.append({"menu": menu, "workloads": workloads})
    published = []
    for label, rows in published_groups(published_document()["rows"], lang).items():
        first = localized_row(rows[0], lang)
        published.append({
            "label": label,
            "title": f"{label}\n{first['system']} | {first['framework']} — "
                     f"{_t('kind_published', lang)}",
            "mixed": first["precision"]["mixed"],
            "baseline": f"{first['precision']['baseline']} = 1×",
            "bars": [
                {"label": bar.label, "speedup": bar.speedup, "stated": bar.stated,
                 "inconsistent": bar.note is not None}
                for bar in published_bars(rows, lang)
            ],
            "sources": published_html(rows, lang),
        })  # fmt: skip
    words = ("result", "workload", "types", "published", "published_title", "published_note")
    words += ("published_ylabel", "stated", "inconsistent", "unfused", "baseline", "ylabel")
    words += ("no_rows", "needs_kernel")
    return {
        "lang": lang,
        "workloads": {w: _t("workload." + w, lang) for w in WORKLOADS},
        "types": list(TYPES),
        "colours": COLOURS,
        "labels": {w: _t(w, lang) for w in words},
        "results": results,
        "published": published,
        "claims": claims_html(lang),
    }


class SpeedupExplorer(widgets.VBox):
    """Speedups against float32: a recorded result or a live run, one workload at a time.

    ``result`` is the result document shown; :meth:`figure` draws it statically. ``results``
    holds the recorded results and the live runs made with the Run button, and, with
    ``class_results`` (a folder where each student saved ``python -m mpteach.bench all --out
    <name>.json``), a class's own: each labelled with its file's name and "measured by this class".
    """

    def __init__(
        self, workload: str = "matmul", lang: str | None = None, class_results: str | None = None
    ) -> None:
        self.lang = lang or i18n.get_language()
        if workload not in WORKLOADS:
            raise ValueError(
                f"workload={workload!r}: choose one of {', '.join(map(repr, WORKLOADS))}."
            )
        self.results: list[dict[str, Any]] = recorded_results()
        self.live: set[int] = set()  # indices of self.results measured here, now
        self.by_class: dict[int, str] = {}  # indices of self.results a class measured: file names
        skipped: list[str] = []
        if class_results is not None:
            found, skipped = results_of_class(class_results)
            for name, doc in found:
                self.by_class[len(self.results)] = name
                self.results.append(doc)
        style = {"description_width": "initial"}
        self.result_menu = widgets.Dropdown(
            options=self._result_options(), value=0, description=_t("result", self.lang),
            style=style, layout=widgets.Layout(width="620px"),
        )  # fmt: skip
        self.workload_menu = widgets.Dropdown(
            options=[(_t("workload." + w, self.lang), w) for w in WORKLOADS], value=workload,
            description=_t("workload", self.lang), style=style,
        )  # fmt: skip
        self.types_box = widgets.SelectMultiple(
            options=list(TYPES), value=list(TYPES), rows=2, description=_t("types", self.lang),
            style=style,
        )  # fmt: skip
        self.sizes_text = widgets.Text(
            value=LIVE_SIZES[workload], description=_t("sizes", self.lang), style=style
        )
        self.run_button = widgets.Button(description=_t("run", self.lang), button_style="primary")
        self.progress = widgets.IntProgress(
            value=0, min=0, max=1, layout=widgets.Layout(width="300px")
        )
        self.status = widgets.HTML()
        self.message = Message()
        self.claims = widgets.HTML(claims_html(self.lang))
        self.result = self.results[0]
        self.plot: SpeedupPlot | None = None
        self.view: FigureView | None = None
        self.groups = published_groups(published_document()["rows"], self.lang)
        self.published_menu = widgets.Dropdown(
            options=[(label, i) for i, label in enumerate(self.groups)], value=0,
            description=_t("published", self.lang), style=style,
            layout=widgets.Layout(width="820px"),
        )  # fmt: skip
        label, rows = self._group()
        self.published_plot = PublishedPlot(rows, label, self.lang)
        self.published_view = FigureView(self.published_plot.figure)
        self.published_sources = widgets.HTML(published_html(rows, self.lang))
        self.published = widgets.VBox([
            widgets.HTML(
                f"<b>{html.escape(_t('published_title', self.lang))}</b><br>"
                f"<small>{html.escape(_t('published_note', self.lang))}</small>"
            ),
            self.published_menu, self.published_view, self.published_sources,
        ])  # fmt: skip
        self.result_menu.observe(lambda _: self.update(), names="value")
        self.types_box.observe(lambda _: self.update(), names="value")
        self.workload_menu.observe(self._workload_changed, names="value")
        self.published_menu.observe(lambda _: self.update_published(), names="value")
        self.run_button.on_click(lambda _: self.run())
        self.controls = widgets.VBox([
            self.result_menu,
            widgets.HBox([self.workload_menu, self.types_box]),
            widgets.HBox([self.sizes_text, self.run_button, self.progress]),
        ])  # fmt: skip
        super().__init__(
            children=[self.controls, self.status, self.message, self.published, self.claims]
        )
        self.update()
        if class_results is not None and not self.by_class:
            self.message.show(_t("class_none", self.lang, folder=str(class_results)))
        elif skipped:
            self.message.show(_t("class_skipped", self.lang, files="; ".join(skipped)))

    def _group(self) -> tuple[str, list[dict[str, Any]]]:
        label = list(self.groups)[self.published_menu.value]
        return label, self.groups[label]

    def update_published(self) -> None:
        """Show the chosen published group and its sources."""
        label, rows = self._group()
        self.published_plot.update(rows, label)
        self.published_view.redraw(full=True)
        self.published_sources.value = published_html(rows, self.lang)

    def _kind(self, index: int | None = None) -> str:
        index = self.result_menu.value if index is None else index
        return "here" if index in self.live else "class" if index in self.by_class else "recorded"

    def _result_options(self) -> list[tuple[str, int]]:
        options = []
        for i, d in enumerate(self.results):
            who = f"{self.by_class[i]}: " if i in self.by_class else ""
            kind = _t("kind_" + self._kind(i), self.lang)
            options.append((f"{who}{d['hardware']['label']} — {d['created'][:10]} — {kind}", i))
        return options

    def _types(self) -> tuple[str, ...]:
        return tuple(self.types_box.value)

    def _workload_changed(self, change: dict) -> None:
        self.sizes_text.value = LIVE_SIZES[change["new"]]
        self.update()

    def update(self) -> None:
        """Show the chosen result and workload."""
        self.result = self.results[self.result_menu.value]
        workload = self.workload_menu.value
        skipped = [s for s in self.result["settings"].get("skipped", []) if s.startswith(workload)]
        notes = [_t("skipped", self.lang, items="; ".join(skipped))] if skipped else []
        self.status.value = "<br>".join(html.escape(n) for n in notes)
        if self.plot is None:
            self.plot = SpeedupPlot(self.result, workload, self.lang, self._types(), self._kind())
            self.view = FigureView(self.plot.figure)
            self.children = [self.controls, self.status, self.message, self.view, self.published,
                             self.claims]  # fmt: skip
        else:
            self.plot.update(self.result, workload, self._types(), self._kind())
            self.view.redraw(full=True)

    def _report(self, done: int, total: int, label: str) -> None:
        self.progress.max, self.progress.value = total, done
        self.status.value = html.escape(label)

    def run(self) -> None:
        """Measure the chosen workload and sizes here, then show the new result."""
        workload = self.workload_menu.value
        sizes, problem = parse_sizes(self.sizes_text.value, workload, self.lang)
        if sizes is None:
            self.message.show(problem)
            return
        self.message.clear()
        self.run_button.disabled = True
        start = time.perf_counter()
        try:
            doc = run_live(workload, sizes, self._types(), self._report)
        except ImportError as missing:
            self.message.show(_t("needs_tensorflow", self.lang, error=str(missing)))
            return
        finally:
            self.run_button.disabled = False
        self.results.append(doc)
        self.live.add(len(self.results) - 1)
        self.result_menu.options = self._result_options()
        self.result_menu.value = len(self.results) - 1  # its observer shows it
        done = _t("done", self.lang, seconds=f"{time.perf_counter() - start:.0f}")
        self.status.value = html.escape(done) + (
            "<br>" + self.status.value if self.status.value else ""
        )

    def figure(self) -> Figure:
        """The static figure of the current state."""
        return SpeedupPlot(
            self.result, self.workload_menu.value, self.lang, self._types(), self._kind()
        ).figure

    def published_figure(self) -> Figure:
        """The static figure of the chosen published group."""
        label, rows = self._group()
        return PublishedPlot(rows, label, self.lang).figure
