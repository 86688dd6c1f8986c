"""LossScaleDynamics: dynamic loss scaling over thousands of steps, against the band of good scales.

The numbers come from :func:`mpteach.simulate.simulate` (Keras's rule, a model of gradient
magnitudes); :class:`DynamicsPlot` draws the scale over the steps, on a log2 axis, with the
band where the gradients neither underflow nor overflow, the skipped steps and the step at which
the scale settled. :func:`comparison` runs the same gradients under the default settings and
under the usual mistakes (a scale fixed too low or too high, growth too fast or too slow, a low
start), which is why 2**15 and 2000 are the defaults.

>>> sim = simulate(GradientModel(spike_rate=0.0, noise=0.0, drift=0.0), steps=500, growth_steps=100)
>>> describe(sim.summary(), "en")
'Skipped steps: 3 of 500 (0.60 %). The scale reached the top of the band at step 200. Gradient range lost to underflow: 0.0 %.'
"""

from __future__ import annotations

import base64
import html
import inspect
import math
from dataclasses import replace
from functools import lru_cache
from typing import Any

import ipywidgets as widgets
import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from mpteach import i18n
from mpteach.simulate import (
    FLOAT16_MAX,
    FLOAT16_MAX_LOG2,
    SETTINGS,
    GradientModel,
    Simulation,
    simulate,
)
from mpteach.widgets._common import FigureView, Message, figure_text, new_figure
from mpteach.widgets.gradient_underflow import scale_text

GROWTH_STEPS = (1, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 50_000)
SPIKE_RATES = (0.0, 1e-5, 1e-4, 1e-3, 1e-2)
Y_RANGE = (2.0**-8, 2.0**36)  # fixed, so that moving the scale redraws only the scale
SCALE_EXPONENTS = (0, 30)  # initial scales offered: 2**0 .. 2**30
SPREAD_MAX = 45  # octaves: a little more than float16's 40, to show an empty band
MAX_MARKERS = 1000  # skipped steps drawn at most (all are counted)
COLOURS = {"band": "#2e7d32", "over": "#c62828", "under": "#1565c0", "scale": "#212121"}


def _t(name: str, lang: str | None, **values: object) -> str:
    return i18n.t(f"dynamics.{name}", lang, **values)


def describe(summary: dict[str, Any], lang: str | None = None) -> str:
    """One paragraph with the numbers of :meth:`mpteach.simulate.Simulation.summary`."""
    settle = summary["settle_step"]
    underflow = summary["underflow"]
    parts = [
        _t("skipped", lang, skipped=i18n.number(summary["skipped"], lang),
           steps=i18n.number(summary["steps"], lang),
           percent=f"{summary['skipped_fraction'] * 100:.2f}"),
        _t("settled", lang, step=settle) if settle is not None else _t("never_settled", lang),
        _t("underflow", lang, percent=f"{underflow * 100:.1f}") if underflow is not None
        else _t("no_step_applied", lang),
    ]  # fmt: skip
    return i18n.sentences(parts)


@lru_cache(maxsize=32)  # ~0.5 MB per 20 000-step path
def _trajectory(
    model: GradientModel, steps: int, scale: float, growth: int | None, seed: int
) -> Simulation:
    return simulate(model, steps, scale, growth, seed)


def cached_simulate(
    model: GradientModel, steps: int, initial_scale: float, growth_steps: int | None, seed: int
) -> Simulation:
    """:func:`mpteach.simulate.simulate`, remembered: the scale's path does not depend on the
    gradients' ``spread`` (only the band and the underflow do), so moving the spread slider
    reuses the path and only swaps the model."""
    path = _trajectory(replace(model, spread=0.0), steps, initial_scale, growth_steps, seed)
    return replace(path, model=model)


def comparison(model: GradientModel, steps: int, seed: int) -> dict[str, dict[str, Any]]:
    """:func:`mpteach.simulate.compare` of :data:`mpteach.simulate.SETTINGS` (the same numbers,
    from :func:`cached_simulate`)."""
    return {
        name: cached_simulate(model, steps, scale, growth, seed).summary()
        for name, (scale, growth) in SETTINGS.items()
    }


def title_text(initial_scale: float, growth_steps: int | None, lang: str | None = None) -> str:
    """The chart's title: where the scale starts and its rule (a count of 1 has its own wording).

    >>> title_text(2.0**15, 2000)
    'Dynamic loss scale: starts at 2¹⁵, doubles after 2000 finite steps in a row, halves on inf/NaN'
    >>> title_text(2.0**15, 1)
    'Dynamic loss scale: starts at 2¹⁵, doubles after every finite step, halves on inf/NaN'
    >>> title_text(1.0, None, "ru")
    'Масштаб потерь зафиксирован на 2⁰'
    """
    start = scale_text(initial_scale).split(" =")[0]
    if growth_steps is None:
        return _t("title_fixed", lang, scale=start)
    if growth_steps == 1:
        return _t("title_every_step", lang, scale=start)
    return _t("title", lang, scale=start, growth=growth_steps)


def _setting_text(name: str, lang: str | None) -> str:
    scale, growth = SETTINGS[name]
    rule = _t("fixed", lang) if growth is None else _t("every", lang, steps=growth)
    return f"{_t('preset.' + name, lang)} ({scale_text(scale).split(' =')[0]}, {rule})"


def comparison_html(rows: dict[str, dict[str, Any]], lang: str | None = None) -> str:
    """The comparison as an HTML table, with why the defaults win under it."""
    head = "".join(
        f"<th style='padding:0 8px'>{_t('col.' + c, lang)}</th>"
        for c in ("setting", "skipped", "settled", "underflow", "final")
    )
    body = []
    for name, row in rows.items():
        settle = row["settle_step"]
        underflow = row["underflow"]
        cells = [
            html.escape(_setting_text(name, lang)),
            f"{row['skipped_fraction'] * 100:.2f} %",
            "—" if settle is None else f"{settle}",
            "—" if underflow is None else f"{underflow * 100:.1f} %",
            scale_text(row["final_scale"]).split(" =")[0],
        ]
        style = " style='font-weight:bold'" if name == "defaults" else ""
        body.append(
            f"<tr{style}>" + "".join(f"<td style='padding:0 8px'>{c}</td>" for c in cells) + "</tr>"
        )
    why = html.escape(_t("why_defaults", lang))
    return f"<table><tr>{head}</tr>{''.join(body)}</table><p><small>{why}</small></p>"


def _largest_finite_exponent(top: np.ndarray) -> np.ndarray:
    """Per step, the largest whole ``k`` whose scale ``2**k`` keeps the step finite, by the test
    :attr:`mpteach.simulate.Simulation.finite` makes (``2**k * 2**top <= 65504``)."""
    k = np.floor(FLOAT16_MAX_LOG2 - top)
    for _ in range(2):  # the floor of a rounded log2 can be one off either way
        k = np.where(np.exp2(k) * np.exp2(top) > FLOAT16_MAX, k - 1, k)
        k = np.where(np.exp2(k + 1) * np.exp2(top) <= FLOAT16_MAX, k + 1, k)
    return k.astype(np.int8)


def browser_data(steps: int = 20_000, seed: int = 0) -> dict[str, Any]:
    """What the website's LossScaleDynamics (``web/dynamics.js``) needs to run
    :func:`mpteach.simulate.simulate` on the same gradients as the notebook: the model's fixed
    parameters, log2 of the largest gradient at each step (no spike) and the largest finite scale
    exponent there, and the steps that spike at the highest spike rate offered, with their random
    draw and their own largest exponent. Arrays travel as base64 of little-endian bytes.

    >>> data = browser_data(steps=1000)
    >>> data["steps"], data["spikeSize"], len(data["spikes"]) < 30
    (1000, 20.0, True)
    """
    model = GradientModel(spike_rate=0.0)
    top, _ = model.sample(steps, seed)
    draws = np.random.default_rng(seed).random(steps)  # the draws model.sample compares to the rate
    spiking = np.flatnonzero(draws < max(SPIKE_RATES))
    spiked_limit = _largest_finite_exponent(top[spiking] + model.spike_size)

    def encode(array: np.ndarray) -> str:
        return base64.b64encode(array.astype(array.dtype.newbyteorder("<")).tobytes()).decode()

    defaults = inspect.signature(LossScaleDynamics).parameters
    return {
        "steps": steps,
        "seed": seed,
        # the widget's controls and defaults, as LossScaleDynamics has them
        "widget": {
            "settings": {name: list(setting) for name, setting in SETTINGS.items()},
            "growthOptions": list(GROWTH_STEPS),
            "spikeRates": list(SPIKE_RATES),
            "scaleRange": list(SCALE_EXPONENTS),
            "spreadMax": SPREAD_MAX,
            "yRange": list(Y_RANGE),
            "maxMarkers": MAX_MARKERS,
            "defaults": {
                "initialScale": defaults["initial_scale"].default,
                "growthSteps": defaults["growth_steps"].default,
                "spread": defaults["spread"].default,
                "spikeRate": defaults["spike_rate"].default,
            },
        },
        "top": model.top,
        "drift": model.drift,
        "spikeSize": model.spike_size,
        "rates": list(SPIKE_RATES),
        "topLog2": encode(top),
        "limit": encode(_largest_finite_exponent(top)),
        "spikes": [
            [int(t), float(draws[t]), int(k)] for t, k in zip(spiking, spiked_limit, strict=True)
        ],
    }


class DynamicsPlot:
    """The figure of one simulation; :meth:`update` moves it to another.

    >>> plot = DynamicsPlot(simulate(steps=1000), "en")
    >>> plot.update(simulate(steps=1000, initial_scale=2.0**24, growth_steps=None))  # same band
    False
    >>> plot.title.get_text()
    'Loss scale fixed at 2²⁴'
    """

    def __init__(self, sim: Simulation, lang: str | None = None) -> None:
        with figure_text(lang) as self.lang:
            self.figure = new_figure(10, 4.8)
            axes = self.axes = self.figure.add_axes((0.08, 0.22, 0.9, 0.7))
            axes.set_yscale("log", base=2)
            axes.set_xlabel(_t("xlabel", self.lang))
            axes.set_ylabel(_t("ylabel", self.lang))
            (self.scale_line,) = axes.plot([], [], color=COLOURS["scale"], lw=1.4,
                                           drawstyle="steps-post", label=_t("legend.scale", self.lang))  # fmt: skip
            (self.skips,) = axes.plot([], [], "x", color=COLOURS["over"], ms=5,
                                      label=_t("legend.skipped", self.lang))  # fmt: skip
            self.settle_line = axes.axvline(0, color="#6a1b9a", ls="--", lw=1,
                                            label=_t("legend.settled", self.lang))  # fmt: skip
            self.title = axes.set_title("", fontsize=10)
            self.fills: list[Any] = []
            band = Patch(color=COLOURS["band"], alpha=0.3, label=_t("legend.band", self.lang))
            handles = [self.scale_line, self.skips, self.settle_line, band]
            # below the axes, where the moving scale line never covers it
            self.figure.legend(
                handles=handles, loc="lower center", ncol=4, fontsize=8, frameon=False
            )
            self.over_text = axes.text(0.01, 0.97, _t("region.over", self.lang), transform=axes.transAxes,
                                       va="top", fontsize=8, color=COLOURS["over"])  # fmt: skip
            self.under_text = axes.text(0.01, 0.03, _t("region.under", self.lang), transform=axes.transAxes,
                                        va="bottom", fontsize=8, color=COLOURS["under"])  # fmt: skip
            axes.set_ylim(*Y_RANGE)
            self.band_of: tuple | None = None
            # What a move of the scale or growth controls changes; the rest is background.
            self.changing = [self.scale_line, self.skips, self.settle_line, self.title]
            self.update(sim)

    def update(self, sim: Simulation) -> bool:
        """Show ``sim``: band, scale, skipped steps, settling step, title. Returns whether the
        background (the band, the step axis) changed too."""
        steps = sim.steps
        model = sim.model
        band_of = (steps, model.top, model.drift, model.spread)
        background_changed = band_of != self.band_of
        if background_changed:
            self._draw_band(sim)
            self.band_of = band_of
        changes = np.flatnonzero(np.diff(sim.scale)) + 1  # the scale only moves at a few steps
        at = np.concatenate(([0], changes, [steps]))
        self.scale_line.set_data(at, sim.scale[at])
        skipped = np.flatnonzero(~sim.finite)
        shown = skipped[:: max(1, math.ceil(skipped.size / MAX_MARKERS))]
        self.skips.set_data(shown, sim.scale[shown])
        settle = sim.settle_step
        self.settle_line.set_xdata([settle or 0, settle or 0])
        self.settle_line.set_visible(settle is not None)
        self.title.set_text(title_text(sim.initial_scale, sim.growth_steps, self.lang))
        return background_changed

    def _draw_band(self, sim: Simulation) -> None:
        axes, steps = self.axes, sim.steps
        for fill in self.fills:
            fill.remove()
        # The band's edges are straight lines in log2 space: two points draw them exactly.
        low, high = sim.model.band(steps)
        x = [0, steps - 1] if steps > 1 else [0, 1]
        ends = [0, -1]
        bottom, top = Y_RANGE
        self.fills = [
            axes.fill_between(x, low[ends], high[ends], color=COLOURS["band"], alpha=0.15, lw=0),
            axes.fill_between(x, high[ends], top, color=COLOURS["over"], alpha=0.07, lw=0),
            axes.fill_between(x, bottom, low[ends], color=COLOURS["under"], alpha=0.07, lw=0),
        ]  # fmt: skip
        axes.set_xlim(0, steps)


def draw_dynamics(sim: Simulation, lang: str | None = None) -> Figure:
    """The static figure of ``sim``."""
    return DynamicsPlot(sim, lang).figure


class LossScaleDynamics(widgets.VBox):
    """Dynamic loss scaling over many steps: initial scale, growth steps, gradient spread and
    spike rate as controls; the scale against the band of good scales as a figure; skipped
    steps, settling and underflow as numbers; the default settings against the usual mistakes.

    ``simulation`` holds the last :class:`mpteach.simulate.Simulation`, ``summary`` its
    numbers; :meth:`figure` draws it statically.
    """

    def __init__(
        self,
        initial_scale: float = 2.0**15,
        growth_steps: int | None = 2000,
        spread: float = 30.0,
        spike_rate: float = 1e-4,
        steps: int = 20_000,
        seed: int = 0,
        lang: str | None = None,
    ) -> None:
        self.lang = lang or i18n.get_language()
        exponent = math.log2(initial_scale) if 0 < initial_scale < math.inf else -1.0
        lowest, highest = SCALE_EXPONENTS
        if not (exponent.is_integer() and lowest <= exponent <= highest):
            raise ValueError(
                f"initial_scale={initial_scale!r} must be a power of two "
                f"from 2**{lowest} to 2**{highest}."
            )
        if growth_steps is not None and growth_steps not in GROWTH_STEPS:
            raise ValueError(
                f"growth_steps={growth_steps!r}: choose None (fixed) or one of {GROWTH_STEPS}."
            )
        if spike_rate not in SPIKE_RATES:
            raise ValueError(f"spike_rate={spike_rate!r}: choose one of {SPIKE_RATES}.")
        if not 0 <= spread <= SPREAD_MAX:
            raise ValueError(
                f"spread={spread!r} is out of range; choose a value in [0, {SPREAD_MAX}]."
            )
        self.base_model = GradientModel(spread=spread)
        self.steps, self.seed = steps, seed
        style = {"description_width": "initial"}
        self.scale_slider = widgets.IntSlider(
            value=int(exponent), min=lowest, max=highest, description=_t("control.scale", self.lang),
            style=style, continuous_update=False,
        )  # fmt: skip
        self.growth_slider = widgets.SelectionSlider(
            options=list(GROWTH_STEPS), value=growth_steps or 2000,
            description=_t("control.growth", self.lang), style=style, continuous_update=False,
        )  # fmt: skip
        self.fixed_box = widgets.Checkbox(
            value=growth_steps is None, description=_t("control.fixed", self.lang), indent=False
        )
        self.spread_slider = widgets.IntSlider(
            value=int(spread), min=0, max=SPREAD_MAX, description=_t("control.spread", self.lang),
            style=style, continuous_update=False,
        )  # fmt: skip
        self.spike_slider = widgets.SelectionSlider(
            options=[(f"{r:g}", r) for r in SPIKE_RATES], value=spike_rate,
            description=_t("control.spikes", self.lang), style=style, continuous_update=False,
        )  # fmt: skip
        self.preset_menu = widgets.Dropdown(
            options=[(_t("preset.custom", self.lang), "")]
            + [(_setting_text(name, self.lang), name) for name in SETTINGS],
            value="", description=_t("control.preset", self.lang), style=style,
        )  # fmt: skip
        self.summary_text = widgets.HTML()
        self.message = Message()
        self.table = widgets.HTML()
        self.simulation: Simulation | None = None
        self.summary: dict[str, Any] = {}
        self.plot: DynamicsPlot | None = None
        self.view: FigureView | None = None
        self._quiet = False
        for control in (self.scale_slider, self.growth_slider, self.fixed_box, self.spread_slider,
                        self.spike_slider):  # fmt: skip
            control.observe(self._changed, names="value")
        self.preset_menu.observe(self._preset, names="value")
        controls = widgets.VBox([
            widgets.HBox([self.preset_menu, self.fixed_box]),
            widgets.HBox([self.scale_slider, self.growth_slider]),
            widgets.HBox([self.spread_slider, self.spike_slider]),
        ])  # fmt: skip
        super().__init__(children=[controls, self.message, self.summary_text, self.table])
        self.update()

    @property
    def model(self) -> GradientModel:
        return GradientModel(
            top=self.base_model.top, drift=self.base_model.drift, noise=self.base_model.noise,
            spread=float(self.spread_slider.value), spike_rate=float(self.spike_slider.value),
            spike_size=self.base_model.spike_size,
        )  # fmt: skip

    def _changed(self, _change: dict) -> None:
        if self._quiet:
            return
        self.preset_menu.value = ""  # the controls no longer match a preset
        self.update()

    def _preset(self, change: dict) -> None:
        if not change["new"]:
            return
        scale, growth = SETTINGS[change["new"]]
        self._quiet = True
        try:
            self.scale_slider.value = int(math.log2(scale))
            self.fixed_box.value = growth is None
            if growth is not None:
                self.growth_slider.value = growth
        finally:
            self._quiet = False
        self.update()

    def update(self) -> None:
        """Simulate with the current controls and redraw (never raises: problems are shown)."""
        growth = None if self.fixed_box.value else int(self.growth_slider.value)
        self.growth_slider.disabled = growth is None
        try:
            model = self.model
            self.simulation = cached_simulate(
                model, self.steps, 2.0**self.scale_slider.value, growth, self.seed
            )
            rows = comparison(model, self.steps, self.seed)
        except ValueError as problem:
            if self.plot is None:  # a bad constructor argument (steps, seed): refuse it
                raise
            self.message.show(str(problem))
            return
        self.message.clear()
        self.summary = self.simulation.summary()
        self.summary_text.value = html.escape(describe(self.summary, self.lang))
        self.table.value = comparison_html(rows, self.lang)
        if self.plot is None:
            self.plot = DynamicsPlot(self.simulation, self.lang)
            self.view = FigureView(self.plot.figure, changing=self.plot.changing)
            self.children = [*self.children[:3], self.view, self.table]
        else:
            self.view.redraw(full=self.plot.update(self.simulation))

    def figure(self) -> Figure:
        """The static figure of the current state."""
        return draw_dynamics(self.simulation, self.lang)
