"""RangeChart: the magnitudes each format can represent, on one log axis, with a marker for x.

Each format is a bar from its smallest subnormal to its largest value: a light part for the
subnormal numbers, a solid part for the normal numbers. A vertical line marks ``|x|`` and each
bar says what happens to ``x`` in that format. Facts come from :class:`mpteach.formats.FloatFormat`.

>>> rows = range_rows(1e-5, ("float32", "float16", "float8_e4m3fn"))
>>> [(row.fmt, row.status) for row in rows]
[('float32', 'normal'), ('float16', 'subnormal'), ('float8_e4m3fn', 'underflow_to_zero')]
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import ipywidgets as widgets
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from mpteach import formats as float_formats
from mpteach import i18n
from mpteach.widgets._common import FigureView, NumberInput, figure_text, new_figure
from mpteach.widgets.float_explorer import STATUS_COLOURS

DEFAULT_FORMATS = ("float32", "bfloat16", "float16", "float8_e5m2", "float8_e4m3fn")
"""float64 is left out by default: its range (1e-324 to 1e308) would squeeze the others."""


@dataclass(frozen=True)
class RangeRow:
    """One format's representable magnitudes, and what happens to ``x`` in it."""

    fmt: str
    smallest_subnormal: float
    smallest_normal: float
    max: float
    status: str  # of x, one of mpteach.formats.STATUSES


def range_rows(x: float, formats: tuple[str, ...] = DEFAULT_FORMATS) -> list[RangeRow]:
    """The numbers behind the chart, one row per format."""
    rows = []
    for name in formats:
        f = float_formats.float_format(name)
        status = str(float_formats.classify(x, f))
        rows.append(RangeRow(f.name, f.smallest_subnormal, f.smallest_normal, f.max, status))
    return rows


def on_axis(x: float, rows: list[RangeRow]) -> bool:
    """Whether ``|x|`` can be marked on the chart's log axis (not 0, inf, NaN or off the end)."""
    low, high = _limits(rows)
    return math.isfinite(x) and low <= abs(x) <= high


def _limits(rows: list[RangeRow]) -> tuple[float, float]:
    return min(r.smallest_subnormal for r in rows) / 1e3, max(r.max for r in rows) * 1e3


class RangePlot:
    """The chart; :meth:`update` moves the marker and the statuses to a new ``x``.

    >>> plot = RangePlot(range_rows(0.1), "en")
    >>> plot.update(range_rows(1e5))
    >>> plot.status_texts()[2]
    'overflow → inf'
    """

    def __init__(self, rows: list[RangeRow], lang: str | None = None) -> None:
        with figure_text(lang) as self.lang:
            self.figure = new_figure(10, 0.6 * len(rows) + 1.6)
            self._draw(rows)

    def _draw(self, rows: list[RangeRow]) -> None:
        t = self._t
        axes = self.axes = self.figure.add_axes((0.13, 0.2, 0.58, 0.7))
        axes.set_xscale("log")
        names = [r.fmt for r in rows][::-1]  # widest on top
        for y, r in enumerate(rows[::-1]):
            axes.barh(y, r.smallest_normal - r.smallest_subnormal, left=r.smallest_subnormal,
                      color=STATUS_COLOURS["subnormal"], alpha=0.45, height=0.6)  # fmt: skip
            axes.barh(y, r.max - r.smallest_normal, left=r.smallest_normal,
                      color=STATUS_COLOURS["normal"], height=0.6)  # fmt: skip
        axes.set_yticks(range(len(rows)), names, family="monospace")
        axes.set_xlim(*_limits(rows))
        axes.set_xlabel(t("axis"))
        axes.set_title(t("title"), fontsize=11)
        self.marker = axes.axvline(1.0, color="#de2d26", linewidth=1.5)
        self.marker_text = axes.text(1.0, len(rows) - 0.5, "", color="#de2d26", fontsize=8)
        axes.set_ylim(-0.6, len(rows) - 0.2)
        right_of_bars = axes.get_yaxis_transform()  # x: axes fraction, y: data
        self.statuses = [  # one per format, top to bottom
            axes.text(1.02, len(rows) - 1 - i, "", va="center", fontsize=9, transform=right_of_bars)
            for i in range(len(rows))
        ]
        handles = [
            Patch(color=STATUS_COLOURS["normal"]),
            Patch(color=STATUS_COLOURS["subnormal"], alpha=0.45),
        ]
        labels = [t("normal"), t("subnormal")]
        self.figure.legend(handles, labels, loc="lower center", ncol=2, fontsize=8, frameon=False)
        self.update(rows)

    def _t(self, name: str, **values: object) -> str:
        return i18n.t(f"formats.range.{name}", self.lang, **values)

    def update(self, rows: list[RangeRow], x: float | None = None) -> None:
        """Mark ``x`` (default: keep the marker) and show the statuses of ``rows``."""
        if x is not None:
            visible = on_axis(x, rows)
            self.marker.set_visible(visible)
            self.marker_text.set_visible(visible)
            if visible:
                self.marker.set_xdata([abs(x), abs(x)])
                self.marker_text.set_x(abs(x) * 1.5)
                self.marker_text.set_text(self._t("marker", x=f"{abs(x):.4g}"))
        for text, row in zip(self.statuses, rows, strict=True):
            text.set_text(i18n.t(f"formats.status.{row.status}", self.lang))
            text.set_color(STATUS_COLOURS[row.status])

    def changing(self) -> list:
        """The artists :meth:`update` touches (what a :class:`FigureView` redraws)."""
        return [self.marker, self.marker_text, *self.statuses]

    def status_texts(self) -> list[str]:
        return [text.get_text() for text in self.statuses]


def draw_range_chart(
    x: float, formats: tuple[str, ...] = DEFAULT_FORMATS, lang: str | None = None
) -> Figure:
    """The static chart with ``x`` marked."""
    rows = range_rows(x, formats)
    plot = RangePlot(rows, lang)
    plot.update(rows, x)
    return plot.figure


class RangeChart(widgets.VBox):
    """The representable range of each format, with a marker for a number you type or slide.

    ``result`` holds the last :class:`RangeRow` list; :meth:`figure` draws it statically.

    >>> chart = RangeChart(1e-5, lang="en")
    >>> chart.value_text.value = "1e6"
    >>> [row.status for row in chart.result]
    ['normal', 'normal', 'overflow_inf', 'overflow_inf', 'overflow_nan']
    """

    def __init__(
        self,
        x: float = 1e-5,
        formats: tuple[str, ...] = DEFAULT_FORMATS,
        lang: str | None = None,
    ) -> None:
        self.lang = lang or i18n.get_language()
        self.formats = tuple(float_formats.float_format(f).name for f in formats)
        self.input = NumberInput(
            x,
            self._update,
            self.lang,
            i18n.t("formats.explorer.number", self.lang),
            i18n.t("formats.explorer.magnitude", self.lang),
        )
        self.value_text, self.slider, self.message = (
            self.input.text,
            self.input.slider,
            self.input.message,
        )
        self.result = range_rows(x, self.formats)
        self.plot = RangePlot(self.result, self.lang)
        self.view = FigureView(self.plot.figure, self.plot.changing())
        super().__init__(children=[self.input, self.view])
        self._update(x)

    @property
    def x(self) -> float:
        return self.input.number

    def _update(self, x: float) -> None:
        self.result = range_rows(x, self.formats)
        self.plot.update(self.result, x)
        self.view.redraw()
        if not on_axis(x, self.result):
            self.message.show(i18n.t("formats.range.off_axis", self.lang, x=repr(x)), "note")

    def figure(self) -> Figure:
        """The static figure of the current number."""
        return draw_range_chart(self.x, self.formats, self.lang)
