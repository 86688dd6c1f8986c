"""Dynamic loss scaling over many steps, simulated in a blink.

Loss scaling cares about the two ends of the gradient distribution: the **largest** gradient,
which overflows float16 (above 65504) when it is scaled too much, and the **smallest gradients
that matter**, which underflow to zero (below 2**-24) when they are scaled too little. So the
simulator models just those two numbers per step, in octaves (log2 of the magnitude):

* the largest gradient: ``top[t] = top + drift * t / (steps - 1) + noise * N(0, 1)``, plus
  ``spike_size`` octaves on the rare *spike* steps (a bad batch, a loss spike), which happen
  with probability ``spike_rate`` each;
* the smallest gradient that matters: ``top[t] - spread``.

A step at scale ``S`` overflows, so its gradients are non-finite and the step is skipped, when
``S * 2**top[t] > 65504``. The *band* of good scales at step ``t`` is where neither end is lost:
``2**-24 / 2**(top[t] - spread) <= S <= 65504 / 2**top[t]``. It is empty once ``spread`` exceeds
the 40 octaves float16 spans (``2**-24 .. 2**16``): then some gradients are lost at any scale.

The scale itself follows exactly the rule of :func:`mpteach.loss_scale.update_loss_scale`, the
function the optimizer uses, so :func:`replay` of a finite/non-finite sequence gives the very
trajectory that ``mpteach.LossScaleOptimizer`` (and Keras's) goes through. The rule runs on plain
Python numbers, one call per step (about 50 ms for 100 000 steps); everything else is NumPy.

>>> flat = GradientModel(top=0.0, drift=0.0, noise=0.0, spike_rate=0.0)  # largest gradient 1.0
>>> sim = simulate(flat, steps=100, initial_scale=2**15, growth_steps=10)
>>> sim.scale[:12].tolist()  # 2**16 * 1.0 overflows float16: every growth is undone at once
[32768.0, 32768.0, 32768.0, 32768.0, 32768.0, 32768.0, 32768.0, 32768.0, 32768.0, 32768.0, 65536.0, 32768.0]
>>> sim.skipped, sim.settle_step
(9, 10)
>>> scale, counter = replay([True, True, False, True], initial_scale=8.0, growth_steps=2)
>>> scale.tolist(), counter.tolist()
([8.0, 8.0, 16.0, 8.0, 8.0], [0, 1, 0, 0, 1])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from mpteach.loss_scale import DEFAULT_GROWTH_STEPS, DEFAULT_INITIAL_SCALE, update_loss_scale

FLOAT16_MAX = 65504.0
FLOAT16_SMALLEST_LOG2 = -24  # the smallest float16 subnormal is 2**-24; below it is zero
FLOAT16_MAX_LOG2 = float(np.log2(FLOAT16_MAX))


def _check(name: str, value: float, low: float, high: float = np.inf) -> None:
    if not (low <= value <= high):  # also refuses NaN
        raise ValueError(f"{name}={value!r} is out of range; choose a value in [{low}, {high}].")


@dataclass(frozen=True)
class GradientModel:
    """Magnitudes of a network's gradients over training, in octaves (see the module docstring).

    The defaults describe a run whose largest gradients start near ``2**-1`` and slowly shrink
    (``drift=-4`` octaves over the run) as training converges, spanning 30 octaves down to the
    smallest gradients that matter: the band of good scales starts at ``[2**7, 2**17]`` and
    ends at ``[2**11, 2**21]``; about one step in 10 000 spikes 20 octaves.
    """

    top: float = -1.0
    spread: float = 30.0
    drift: float = -4.0
    noise: float = 0.5
    spike_rate: float = 1e-4
    spike_size: float = 20.0

    def __post_init__(self) -> None:
        _check("top", self.top, -200.0, 200.0)
        _check("drift", self.drift, -200.0, 200.0)
        _check("spread", self.spread, 0.0, 200.0)
        _check("noise", self.noise, 0.0, 50.0)
        _check("spike_rate", self.spike_rate, 0.0, 1.0)
        _check("spike_size", self.spike_size, 0.0, 200.0)

    def trend(self, steps: int) -> np.ndarray:
        """log2 of the largest gradient at each step, without noise and spikes."""
        return self.top + self.drift * np.arange(steps) / max(steps - 1, 1)

    def sample(self, steps: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """``(top, spikes)``: log2 of the largest gradient at each step, and which steps spiked.

        The random draws do not depend on the parameters, so a larger ``spike_rate`` adds spikes
        and keeps the old ones, and the noise stays the same when other settings change.
        """
        rng = np.random.default_rng(seed)
        spikes = rng.random(steps) < self.spike_rate
        top = self.trend(steps) + self.noise * rng.standard_normal(steps) + self.spike_size * spikes
        return top, spikes

    def band(self, steps: int) -> tuple[np.ndarray, np.ndarray]:
        """``(lowest, highest)`` good scale at each step, from the trend: below the lowest, the
        smallest gradients that matter underflow; above the highest, the largest overflows."""
        trend = self.trend(steps)
        return (
            np.exp2(FLOAT16_SMALLEST_LOG2 - (trend - self.spread)),
            FLOAT16_MAX / np.exp2(trend),
        )


def _trajectory(
    max_scale: Sequence[float], initial_scale: float, growth_steps: int
) -> tuple[np.ndarray, np.ndarray]:
    """Scale and counter before the first step and after every step; a step is finite when
    its scale is at most ``max_scale[t]``. This loop is the only place the rule is applied."""
    scale, counter = float(initial_scale), 0
    scales, counters = [scale], [counter]
    for limit in max_scale:
        scale, counter = update_loss_scale(
            scale, counter, scale <= limit, growth_steps, _python_select
        )
        scales.append(scale)
        counters.append(counter)
    return np.array(scales), np.array(counters)


def _python_select(cond: bool, a: float, b: float) -> float:
    """``select`` for plain Python numbers: twice as fast as the default, which checks types."""
    return a if cond else b


def _check_rule(initial_scale: float, growth_steps: int) -> None:
    _check(
        "initial_scale", initial_scale, np.finfo(np.float32).tiny, float(np.finfo(np.float32).max)
    )
    if isinstance(growth_steps, bool) or not isinstance(growth_steps, int | np.integer):
        raise ValueError(f"growth_steps={growth_steps!r} must be a whole number >= 1.")
    _check("growth_steps", growth_steps, 1)


def replay(
    finite: Sequence[bool] | np.ndarray,
    initial_scale: float = DEFAULT_INITIAL_SCALE,
    growth_steps: int = DEFAULT_GROWTH_STEPS,
) -> tuple[np.ndarray, np.ndarray]:
    """``(scale, counter)`` of a dynamic loss scale over a given finite/non-finite sequence.

    Both arrays have ``len(finite) + 1`` entries: the state before the first step, then after
    each step, as ``LossScaleOptimizer.loss_scale`` and ``.dynamic_counter`` read then.
    """
    _check_rule(initial_scale, growth_steps)
    finite = np.asarray(finite, dtype=bool)
    # A finite step has no limit; a non-finite one a limit no positive scale meets.
    return _trajectory(np.where(finite, np.inf, -1.0).tolist(), initial_scale, growth_steps)


@dataclass(frozen=True)
class Simulation:
    """One simulated run. ``scale`` and ``counter`` hold ``steps + 1`` states (before the first
    step, then after each); ``scale[t]`` is the scale step ``t`` used. ``growth_steps`` is
    ``None`` for a fixed scale."""

    model: GradientModel
    initial_scale: float
    growth_steps: int | None
    top: np.ndarray = field(repr=False)
    spikes: np.ndarray = field(repr=False)
    scale: np.ndarray = field(repr=False)
    counter: np.ndarray = field(repr=False)

    @property
    def steps(self) -> int:
        return len(self.top)

    @property
    def finite(self) -> np.ndarray:
        """Whether each step's scaled gradients stayed finite (non-finite steps are skipped)."""
        return self.scale[:-1] * np.exp2(self.top) <= FLOAT16_MAX

    @property
    def skipped(self) -> int:
        return int(np.count_nonzero(~self.finite))

    @property
    def settle_step(self) -> int | None:
        """The step at which the scale first reached the top of the band: the first applied step
        when it started too high, else its first overflow that was not a spike. ``None``: never."""
        finite, spikes = self.finite, self.spikes
        started_too_high = not finite[0] and not spikes[0]
        hits = np.flatnonzero(finite if started_too_high else ~finite & ~spikes)
        return int(hits[0]) if hits.size else None

    @property
    def underflow(self) -> np.ndarray:
        """Share of each step's gradient range (in octaves) that falls below float16's smallest
        subnormal and becomes zero: 0 inside the band, 1 when even the largest gradient is lost."""
        bottom = self.top - self.model.spread + np.log2(self.scale[:-1])  # scaled, in octaves
        lost = FLOAT16_SMALLEST_LOG2 - bottom
        if self.model.spread == 0:
            return (lost > 0).astype(float)
        return np.clip(lost / self.model.spread, 0.0, 1.0)

    def summary(self) -> dict[str, float | int | None]:
        """The numbers a reader compares: skipped steps, settling, the mean :attr:`underflow` of
        the applied steps (``None`` if every step was skipped), the final scale."""
        applied = self.finite
        return {
            "steps": self.steps,
            "skipped": self.skipped,
            "skipped_fraction": self.skipped / self.steps,
            "settle_step": self.settle_step,
            "underflow": float(self.underflow[applied].mean()) if applied.any() else None,
            "final_scale": float(self.scale[-1]),
        }


def simulate(
    model: GradientModel | None = None,
    steps: int = 20_000,
    initial_scale: float = DEFAULT_INITIAL_SCALE,
    growth_steps: int | None = DEFAULT_GROWTH_STEPS,
    seed: int = 0,
) -> Simulation:
    """Simulate ``steps`` training steps of dynamic loss scaling on gradients from ``model``.

    ``growth_steps=None`` keeps the scale fixed at ``initial_scale`` (no rule at all): then every
    overflowing step is a lost step, and nothing lowers the scale.
    """
    model = model or GradientModel()
    if isinstance(steps, bool) or not isinstance(steps, int | np.integer):
        raise ValueError(f"steps={steps!r} must be a whole number >= 1.")
    _check("steps", steps, 1, 10_000_000)
    top, spikes = model.sample(steps, seed)
    if growth_steps is None:
        _check("initial_scale", initial_scale, np.finfo(np.float32).tiny)
        scale, counter = np.full(steps + 1, float(initial_scale)), np.zeros(steps + 1, int)
    else:
        _check_rule(initial_scale, growth_steps)
        max_scale = (FLOAT16_MAX / np.exp2(top)).tolist()
        scale, counter = _trajectory(max_scale, initial_scale, growth_steps)
    return Simulation(model, float(initial_scale), growth_steps, top, spikes, scale, counter)


# Settings that show why the defaults are what they are (name -> initial scale, growth steps).
SETTINGS: dict[str, tuple[float, int | None]] = {
    "defaults": (DEFAULT_INITIAL_SCALE, DEFAULT_GROWTH_STEPS),
    "fast_growth": (DEFAULT_INITIAL_SCALE, 20),
    "slow_growth": (DEFAULT_INITIAL_SCALE, 50_000),
    "low_start": (1.0, DEFAULT_GROWTH_STEPS),
    "fixed_low": (1.0, None),
    "fixed_high": (2.0**24, None),
}


def compare(
    model: GradientModel | None = None,
    steps: int = 20_000,
    seed: int = 0,
    settings: dict[str, tuple[float, int | None]] | None = None,
) -> dict[str, dict[str, float | int | None]]:
    """:meth:`Simulation.summary` for each named ``(initial_scale, growth_steps)`` setting, on
    the same gradients (default: :data:`SETTINGS`)."""
    return {
        name: simulate(model, steps, scale, growth, seed).summary()
        for name, (scale, growth) in (settings or SETTINGS).items()
    }
