"""GradientUnderflow: the gradient histogram of Micikevicius et al. (2018), made interactive.

Real float32 gradients (by default from :func:`mpteach.gradients.sample_gradients`) are
multiplied by a loss scale and stored in float16 (or another format). A histogram over log2 bins,
plus a separate bin for exact zeros, shows which of them float16 rounds to zero, keeps as
subnormals, keeps as normal numbers, or overflows; the loss-scale slider shifts them all.

The numbers come from :func:`underflow_report` (casts and classification by
:func:`mpteach.formats.classify`); :class:`UnderflowPlot` draws them.

>>> values = [0.0, 2.0**-30, 2.0**-20, 2.0**-10, 1.0]
>>> report = underflow_report(values, scale=1.0)
>>> report.totals
{'zero': 1, 'underflow_to_zero': 1, 'subnormal': 1, 'normal': 2, 'overflow': 0}
>>> underflow_report(values, scale=2.0**16).totals
{'zero': 1, 'underflow_to_zero': 0, 'subnormal': 0, 'normal': 3, 'overflow': 1}
"""

from __future__ import annotations

import base64
import math
from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets
import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from mpteach import formats as float_formats
from mpteach import i18n
from mpteach.widgets._common import WEB_DATA_MIME, FigureView, figure_text, new_figure
from mpteach.widgets.float_explorer import STATUS_COLOURS

BANDS: tuple[str, ...] = ("zero", "underflow_to_zero", "subnormal", "normal", "overflow")
"""Where a scaled gradient ends up: exactly zero already, lost to zero, subnormal, normal, overflow."""

_BAND_OF_STATUS = {
    "zero": "zero",
    "underflow_to_zero": "underflow_to_zero",
    "subnormal": "subnormal",
    "normal": "normal",
    "overflow_inf": "overflow",
    "overflow_nan": "overflow",
    "saturated": "overflow",  # (not produced: the casts here do not saturate)
    "inf": "overflow",  # a non-finite input is as useless as an overflow
    "nan": "overflow",
}
_BAND_INDEX = np.array([BANDS.index(_BAND_OF_STATUS[s]) for s in float_formats.STATUSES])
BAND_COLOURS = {band: STATUS_COLOURS[band] for band in BANDS[:-1]}
BAND_COLOURS["overflow"] = STATUS_COLOURS["overflow_inf"]

FORMATS = ("float16", "bfloat16", "float8_e5m2", "float8_e4m3fn")
"""The formats the widget offers (float16 first: it is the one that needs loss scaling)."""


@dataclass(frozen=True)
class UnderflowReport:
    """How a set of values lands in a format once multiplied by ``scale``."""

    fmt: str
    scale: float
    exponents: (
        np.ndarray
    )  # bin k holds magnitudes in [2**k, 2**(k+1)) (end bins also hold the rest)
    counts: dict[str, np.ndarray]  # values per bin, for each band but "zero"
    totals: dict[str, int]  # values per band, "zero" included

    @property
    def size(self) -> int:
        return sum(self.totals.values())

    def fraction(self, band: str) -> float:
        """The share of all values in ``band`` (0 to 1)."""
        return self.totals[band] / self.size if self.size else 0.0


def _exponents_of(magnitudes: np.ndarray) -> np.ndarray:
    """floor(log2 m) for m > 0, exactly (frexp reads the exponent; no logarithm rounds)."""
    return np.frexp(magnitudes)[1].astype(np.int64) - 1


def exponent_range(values: Any, max_scale_exponent: int = 24) -> tuple[int, int]:
    """Bins that hold ``values`` at every loss scale from 2**0 to 2**max_scale_exponent."""
    magnitudes = np.abs(np.asarray(values, dtype=np.float64).ravel())
    magnitudes = magnitudes[np.isfinite(magnitudes) & (magnitudes > 0)]
    if magnitudes.size == 0:
        return (-1, 1)
    exponents = _exponents_of(magnitudes)
    return int(exponents.min()), int(exponents.max()) + max_scale_exponent


def underflow_report(
    values: Any,
    scale: float = 1.0,
    fmt: str = "float16",
    exponents: tuple[int, int] | None = None,
) -> UnderflowReport:
    """Multiply ``values`` by ``scale`` (in float64, exact for powers of two), store them in
    ``fmt`` and count where they land, per band and per log2 bin (``exponents``: first and last
    bin, default: the range of the scaled values).

    >>> r = underflow_report([2.0**-26, 2.0**-26, 3.0], scale=8.0)
    >>> r.totals["subnormal"], r.totals["normal"], r.fraction("normal")
    (2, 1, 0.3333333333333333)
    >>> underflow_report([1.0], scale=0)
    Traceback (most recent call last):
    ...
    ValueError: scale=0 is not valid; choose a positive, finite loss scale such as 2**15.
    """
    try:
        factor = float(scale)
    except (TypeError, ValueError):
        factor = math.nan
    if not (math.isfinite(factor) and factor > 0):
        raise ValueError(
            f"scale={scale!r} is not valid; choose a positive, finite loss scale such as 2**15."
        )
    scaled = np.asarray(values, dtype=np.float64).ravel() * factor
    bands = _BAND_INDEX[float_formats.status_codes(scaled, fmt)]
    low, high = exponents or exponent_range(scaled, 0)
    magnitudes = np.abs(scaled)
    usable = np.isfinite(magnitudes) & (magnitudes > 0)
    bins = np.full(scaled.shape, high - low, dtype=np.int64)  # inf and NaN go to the last bin
    bins[usable] = np.clip(_exponents_of(magnitudes[usable]) - low, 0, high - low)
    width = high - low + 1
    table = np.bincount(bands * width + bins, minlength=len(BANDS) * width).reshape(-1, width)
    counts = {band: table[i] for i, band in enumerate(BANDS) if band != "zero"}
    totals = dict(zip(BANDS, table.sum(axis=1).tolist(), strict=True))
    return UnderflowReport(
        fmt=float_formats.float_format(fmt).name,
        scale=factor,
        exponents=np.arange(low, high + 1),
        counts=counts,
        totals=totals,
    )


def band_limits(fmt: str = "float16") -> dict[str, tuple[float, float]]:
    """Each band's span on the log2 axis: where a cast to ``fmt`` flushes, keeps or overflows.

    >>> band_limits("float16")["subnormal"]
    (-25.0, -14.0)
    """
    f = float_formats.float_format(fmt)
    flush, normal = math.log2(f.underflow_threshold), math.log2(f.smallest_normal)
    overflow = math.log2(f.overflow_threshold)
    return {
        "underflow_to_zero": (-math.inf, flush),
        "subnormal": (flush, normal),
        "normal": (normal, overflow),
        "overflow": (overflow, math.inf),
    }


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def scale_text(scale: float) -> str:
    """A loss scale as a power of two where it is one.

    >>> scale_text(32768.0), scale_text(0.5), scale_text(1000.0)
    ('2¹⁵ = 32768', '2⁻¹ = 0.5', '1000')
    """
    mantissa, exponent = math.frexp(scale)
    if mantissa != 0.5:
        return f"{scale:g}"
    return f"2{str(exponent - 1).translate(_SUPERSCRIPT)} = {scale:.17g}"


def _percent(value: float, lang: str | None = None) -> str:
    return i18n.percent(value * 100, lang)


def kind_label(kind: str, lang: str | None = None) -> str:
    """The name of a set of values (``"activations"``, ``"weights"``, ...) in ``lang``."""
    key = f"formats.grad.kind.{kind}"
    return i18n.t(key, lang) if key in i18n.catalogue() else kind


class UnderflowPlot:
    """The histogram figure; :meth:`update` moves it to a new report with the same bins.

    >>> plot = UnderflowPlot(underflow_report([0.0, 1e-9, 1e-3], exponents=(-40, 0)), "en")
    >>> plot.update(underflow_report([0.0, 1e-9, 1e-3], scale=2.0**10, exponents=(-40, 0)))
    >>> plot.legend_texts()[1]
    'lost: rounded to zero: 0.0 %'
    """

    def __init__(
        self, report: UnderflowReport, lang: str | None = None, kind: str = "values"
    ) -> None:
        self.kind = kind
        with figure_text(lang) as self.lang:
            self.figure = new_figure(10, 4.6)
            self._draw(report)
        self.update(report)

    def _draw(self, report: UnderflowReport) -> None:
        t = self._t
        axes = self.axes = self.figure.add_axes((0.07, 0.25, 0.91, 0.67))
        low, high = int(report.exponents[0]), int(report.exponents[-1])
        for band, (start, end) in band_limits(report.fmt).items():
            axes.axvspan(max(start, low), min(end, high + 1), color=BAND_COLOURS[band], alpha=0.12)
        self.edges = np.arange(low, high + 2, dtype=float)
        self.bars = {  # one stacked step outline per band: one artist each, quick to redraw
            band: axes.stairs(np.zeros(self.edges.size - 1), self.edges, fill=True, color=colour)
            for band, colour in BAND_COLOURS.items()
            if band != "zero"
        }
        self.zero_x = low - 6  # the zero bin stands apart, left of the log2 bins
        (self.zero_bar,) = axes.bar([self.zero_x], [0.0], width=2.0, color=BAND_COLOURS["zero"])
        # the bins' total shape only moves with the scale, so one height fits every scale
        shares = sum(report.counts.values()) * (100.0 / max(report.size, 1))
        self.top = max(float(shares.max()) * 1.3 if shares.size else 1.0, 1.0)
        self.zero_text = axes.text(self.zero_x, self.top * 0.87, "", ha="left", fontsize=8)
        axes.set_xlim(self.zero_x - 1, high + 2)
        axes.set_ylim(0, self.top)
        ticks = [k for k in range(low, high + 2) if k % 8 == 0]
        zero = i18n.t("formats.status.zero", self.lang)
        axes.set_xticks([self.zero_x] + ticks, [zero] + [str(k) for k in ticks])
        axes.set_xlabel(t("xlabel"))
        axes.set_ylabel(t("ylabel"))
        self.title = axes.set_title("", fontsize=10)
        handles = [Patch(color=BAND_COLOURS[b]) for b in BANDS]
        self.legend = self.figure.legend(
            handles, [" " * 40] * len(BANDS), loc="lower center", ncol=3, fontsize=8, frameon=False
        )

    def _t(self, name: str, **values: object) -> str:
        return i18n.t(f"formats.grad.{name}", self.lang, **values)

    def update(self, report: UnderflowReport) -> None:
        """Show ``report`` (same format and bins as the first one)."""
        share = 100.0 / max(report.size, 1)
        bottom = np.zeros(report.exponents.size)
        for band, steps in self.bars.items():
            top = bottom + report.counts[band] * share
            steps.set_data(top, self.edges, baseline=bottom)
            bottom = top
        zero_share = report.fraction("zero") * 100
        self.zero_bar.set_height(min(zero_share, self.top * 0.85))  # a tall zero bin is cut
        self.zero_text.set_text(i18n.percent(zero_share, self.lang))
        kind = kind_label(self.kind, self.lang)
        title = self._t("title", kind=kind, scale=scale_text(report.scale), fmt=report.fmt)
        self.title.set_text(title)
        for text, band in zip(self.legend.get_texts(), BANDS, strict=True):
            text.set_text(
                f"{self._t('band.' + band)}: {_percent(report.fraction(band), self.lang)}"
            )

    def changing(self) -> list:
        """The artists :meth:`update` touches (what a :class:`FigureView` redraws)."""
        return [*self.bars.values(), self.zero_bar, self.zero_text, self.title, self.legend]

    def legend_texts(self) -> list[str]:
        return [text.get_text() for text in self.legend.get_texts()]


def draw_underflow(
    report: UnderflowReport, lang: str | None = None, kind: str = "values"
) -> Figure:
    """The static figure of ``report``."""
    return UnderflowPlot(report, lang, kind).figure


def summary(report: UnderflowReport, lang: str | None = None) -> str:
    """One sentence with the shares lost to zero, kept as subnormals, normal and overflowing.

    >>> summary(underflow_report([0.0, 1e-9, 1e-3, 1.0]), "en")
    'Loss scale 2⁰ = 1: 25.0 % of all values lost to zero, 0.0 % kept as subnormals, 50.0 % normal, 0.0 % overflowing; 25.0 % were exactly zero already.'
    """
    shares = {
        name: _percent(report.fraction(band), lang)
        for name, band in [
            ("zero", "zero"),
            ("flushed", "underflow_to_zero"),
            ("subnormal", "subnormal"),
            ("normal", "normal"),
            ("overflow", "overflow"),
        ]
    }
    return i18n.t("formats.grad.summary", lang, scale=scale_text(report.scale), **shares)


class GradientUnderflow(widgets.VBox):
    """Real gradients against float16's range, with a loss-scale slider (powers of two).

    ``gradients``: ``None`` for :func:`mpteach.gradients.sample_gradients` (TensorFlow, a few
    seconds the first time), a dict of named arrays, or one array. ``result`` holds the last
    :class:`UnderflowReport`; :meth:`figure` draws it statically.
    """

    def __init__(
        self,
        gradients: Any = None,
        scale_exponent: int = 0,
        fmt: str = "float16",
        lang: str | None = None,
        max_scale_exponent: int = 24,
    ) -> None:
        self.lang = lang or i18n.get_language()
        self.source = ""
        if gradients is None:
            from mpteach import gradients as model

            gradients = model.sample_gradients()
            self.source = i18n.t(
                "formats.grad.source",
                self.lang,
                batch=model.BATCH,
                depth=model.DEPTH,
                width=model.WIDTH,
                steps=model.STEPS,
            )
        if not isinstance(gradients, dict):
            gradients = {"values": gradients}
        self.gradients = {
            name: np.asarray(v, dtype=np.float64).ravel() for name, v in gradients.items()
        }
        self.bins = {  # fixed per set of values, so that the bars move and the axis stays
            name: exponent_range(v, max_scale_exponent) for name, v in self.gradients.items()
        }
        if fmt not in FORMATS:
            choices = ", ".join(repr(f) for f in FORMATS)
            raise ValueError(f"fmt={fmt!r} is not offered here; choose one of {choices}.")
        self.slider = widgets.IntSlider(
            value=scale_exponent,
            min=0,
            max=max_scale_exponent,
            description=self._t("scale"),
            continuous_update=True,
            style={"description_width": "initial"},
        )
        self.kind_menu = widgets.Dropdown(
            options=[(kind_label(name, self.lang), name) for name in self.gradients],
            description=self._t("kind"),
        )
        self.format_menu = widgets.Dropdown(
            options=list(FORMATS), value=fmt, description=self._t("format")
        )
        self.summary = widgets.HTML()
        self.caption = widgets.HTML(f"<small>{self.source}</small>")
        self.result: UnderflowReport | None = None
        self.plot: UnderflowPlot | None = None
        self.view: FigureView | None = None
        self.slider.observe(lambda _: self._update(rebuild=False), names="value")
        self.kind_menu.observe(lambda _: self._update(rebuild=True), names="value")
        self.format_menu.observe(lambda _: self._update(rebuild=True), names="value")
        controls = widgets.HBox([self.slider, self.kind_menu, self.format_menu])
        super().__init__(children=[controls, self.summary, self.caption])
        self._update(rebuild=True)

    def _t(self, name: str, **values: object) -> str:
        return i18n.t(f"formats.grad.{name}", self.lang, **values)

    def browser_data(self) -> dict[str, Any]:
        """What the website's GradientUnderflow (``web/underflow.js``) needs to be this widget
        with no kernel: the values (float64, base64 of little-endian bytes: a few KB for the
        course's models), their bins, and the initial settings. The notebook's output carries it
        (:data:`WEB_DATA_MIME`), so the site is built from the very gradients the notebook computed.

        >>> data = GradientUnderflow({"g": [0.0, 1e-9, 1e-3]}, lang="en").browser_data()
        >>> data["kinds"], data["bins"], data["scaleExponent"], data["formats"][0]
        (['g'], {'g': [-30, 14]}, 0, 'float16')
        """
        return {
            "kinds": list(self.gradients),
            "values": {
                name: base64.b64encode(v.astype("<f8").tobytes()).decode()
                for name, v in self.gradients.items()
            },
            "bins": {name: list(bins) for name, bins in self.bins.items()},
            "scaleExponent": int(self.slider.value),
            "maxScaleExponent": int(self.slider.max),
            "format": self.format_menu.value,
            "formats": list(FORMATS),
            "source": self.source,
        }

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any] | None:
        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle is not None:  # ipywidgets 8; 7.x displays itself and has no web data
            bundle = {**bundle, WEB_DATA_MIME: self.browser_data()}
        return bundle

    def _update(self, rebuild: bool) -> None:
        kind = self.kind_menu.value
        self.result = underflow_report(
            self.gradients[kind], 2.0**self.slider.value, self.format_menu.value, self.bins[kind]
        )
        self.summary.value = (
            summary(self.result, self.lang) if self.result.size else self._t("no_values")
        )
        if rebuild or self.plot is None:
            self.plot = UnderflowPlot(self.result, self.lang, self.kind_menu.value)
            self.view = FigureView(self.plot.figure, self.plot.changing())
            self.children = [self.children[0], self.summary, self.view, self.caption]
        else:
            self.plot.update(self.result)
            self.view.redraw()

    def figure(self) -> Figure:
        """The static figure of the current state."""
        return draw_underflow(self.result, self.lang, self.kind_menu.value)
