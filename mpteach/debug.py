"""When mixed precision goes wrong: what Keras keeps in float32, where inf/NaN starts, the loss scale.

* :func:`float32_table` asks the *installed* Keras which layers, losses and metrics protect
  themselves under ``mixed_float16``. Each one gets float16 inputs chosen so that a quantity it
  computes on the way (a variance, a sum of squares, the attention logits ``q·k``) is far beyond
  float16's 65504, and its result is compared with the same object run in float32. Same result:
  that quantity was computed in float32. inf, NaN or a wrong result: it was computed in float16.
* :func:`first_non_finite` runs a model once and names the first layer whose output holds inf
  or NaN while its inputs were finite: where a NaN hunt starts.
* :class:`LossScaleHistory` is a Keras callback that records the loss scale, its counter of
  finite steps and ``iterations`` before training and after every batch of ``fit``;
  :class:`LossScaleAlarm` also warns (or stops ``fit``) when the scale falls below 1, halves
  batch after batch, or too many steps are skipped, and names the first layer whose output is
  inf or NaN.
* :func:`headroom` measures, for a model and a batch, each layer's largest |output| and
  |gradient| against float16's and bfloat16's ranges, and the share of gradients each would
  lose, before one training step runs (:func:`format_headroom` prints it).

>>> rows = {row.name: row for row in float32_table()}
>>> rows["LayerNormalization"].float32_inside, rows["UnitNormalization"].float32_inside
('yes', 'no')
>>> rows["losses.MeanSquaredError"].output_dtype
'float32'
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import keras
import numpy as np
import tensorflow as tf

from mpteach import formats
from mpteach.doctor.diagnose import float_leaves, keras_policy, recording
from mpteach.i18n import columns, t

POLICY = "mixed_float16"


# --- what Keras keeps in float32 ----------------------------------------------------------------


@dataclass(frozen=True)
class Float32Row:
    """One probed layer, loss or metric.

    ``peak`` is the largest value of ``intermediate`` on the probe, computed exactly from the
    inputs (and, for attention, the layer's projections); ``same`` says whether the
    ``mixed_float16`` result equals the float32 one (to float16's precision); ``finite`` whether
    it is free of inf and NaN.
    """

    name: str
    compute_dtype: str
    output_dtype: str
    intermediate: str
    peak: float
    finite: bool
    same: bool

    @property
    def fits_float16(self) -> bool:
        """Whether float16 can hold the intermediate at all (else it rounds to inf: anything
        from 65520 on, halfway between 65504 and the next step, 65536)."""
        with np.errstate(over="ignore"):
            return bool(np.isfinite(np.float16(self.peak)))

    @property
    def float32_inside(self) -> str:
        """``'yes'``: float16 could not hold the intermediate, yet the result is right, so it was
        computed in float32. ``'no'``: the result is wrong, so it was computed in float16.
        ``'-'``: float16 holds the intermediate, so the probe cannot tell."""
        if not self.same:
            return "no"
        return "-" if self.fits_float16 else "yes"


@dataclass(frozen=True)
class _Candidate:
    name: str
    make: Callable[[], Any]
    run: Callable[[Any, Any], Any]
    intermediate: str
    peak: Callable[[np.ndarray, Any], float]
    positive: bool = False  # the probe's signs: all positive, or random


def _deviation_squared(axes: tuple[int, ...]) -> Callable[[np.ndarray, Any], float]:
    def peak(x: np.ndarray, _: Any) -> float:
        x64 = x.astype(np.float64)
        return float(np.max((x64 - x64.mean(axis=axes, keepdims=True)) ** 2))

    return peak


def _grouped_deviation(groups: int) -> Callable[[np.ndarray, Any], float]:
    def peak(x: np.ndarray, _: Any) -> float:
        x64 = x.astype(np.float64).reshape(x.shape[0], groups, -1)
        return float(np.max((x64 - x64.mean(axis=-1, keepdims=True)) ** 2))

    return peak


def _squares(x: np.ndarray, _: Any) -> float:
    return float(np.max(x.astype(np.float64) ** 2))


def _sum_of_squares(x: np.ndarray, _: Any) -> float:
    return float(np.max(np.sum(x.astype(np.float64) ** 2, axis=-1)))


def _dense_output(x: np.ndarray, layer: Any) -> float:
    kernel, bias = (np.asarray(w, np.float64) for w in layer.get_weights())
    return float(np.max(np.abs(x.astype(np.float64) @ kernel + bias)))


def _softmax_sum(x: np.ndarray, _: Any) -> float:
    x64 = x.astype(np.float64)
    return float(np.max(np.sum(np.exp(x64 - x64.max(axis=-1, keepdims=True)), axis=-1)))


def _attention_logits(x: np.ndarray, layer: Any) -> float:
    sequence = x[None]
    query = np.asarray(layer.query_dense(sequence), np.float64)  # (batch, seq, heads, key_dim)
    key = np.asarray(layer.key_dense(sequence), np.float64)
    return float(np.max(np.abs(np.einsum("bqhd,bkhd->bhqk", query, key))))


def _metric_result(metric: Any, x: Any) -> Any:
    metric.update_state(np.zeros(x.shape, np.float32), x)
    return metric.result()


_CANDIDATES = (
    _Candidate(
        "Dense",
        lambda: keras.layers.Dense(8, kernel_initializer=keras.initializers.GlorotUniform(0)),
        lambda layer, x: layer(x),
        "x·W + b",
        _dense_output,
    ),
    _Candidate(
        "Softmax",
        lambda: keras.layers.Softmax(),
        lambda layer, x: layer(x),
        "Σ exp(x − max)",
        _softmax_sum,
    ),
    _Candidate(
        "MultiHeadAttention",
        lambda: keras.layers.MultiHeadAttention(2, 4, kernel_initializer="ones"),
        lambda layer, x: layer(x[None], x[None]),
        "q·k",
        _attention_logits,
        positive=True,
    ),
    _Candidate(
        "BatchNormalization",
        lambda: keras.layers.BatchNormalization(),
        lambda layer, x: layer(x, training=True),
        "(x − mean)²",
        _deviation_squared((0,)),
    ),
    _Candidate(
        "LayerNormalization",
        lambda: keras.layers.LayerNormalization(),
        lambda layer, x: layer(x),
        "(x − mean)²",
        _deviation_squared((-1,)),
    ),
    _Candidate(
        "GroupNormalization",
        lambda: keras.layers.GroupNormalization(groups=2),
        lambda layer, x: layer(x),
        "(x − mean)²",
        _grouped_deviation(2),
    ),
    _Candidate(
        "RMSNormalization",
        lambda: keras.layers.RMSNormalization(),
        lambda layer, x: layer(x),
        "x²",
        _squares,
    ),
    _Candidate(
        "UnitNormalization",
        lambda: keras.layers.UnitNormalization(),
        lambda layer, x: layer(x),
        "Σ x²",
        _sum_of_squares,
    ),
    _Candidate(
        "losses.MeanSquaredError",
        lambda: keras.losses.MeanSquaredError(),
        lambda loss, x: loss(np.zeros(x.shape, np.float32), x),
        "(y − ŷ)²",
        _squares,
    ),
    _Candidate(
        "metrics.MeanSquaredError",
        lambda: keras.metrics.MeanSquaredError(),
        _metric_result,
        "(y − ŷ)²",
        _squares,
    ),
)

CANDIDATES: tuple[str, ...] = tuple(c.name for c in _CANDIDATES)
"""The names :func:`float32_table` probes, in its order."""


def probe_input(positive: bool = False, seed: int = 0) -> np.ndarray:
    """A 4×8 float32 probe whose values are ±256, ±288 or ±320: multiples of 32, so float16
    holds them exactly, and big enough that their squares (≥ 65536) do not fit in float16.

    >>> x = probe_input()
    >>> sorted({abs(v) for v in x.ravel().tolist()}), bool(np.all(x.astype("float16") == x))
    ([256.0, 288.0, 320.0], True)
    """
    rng = np.random.default_rng(seed)
    magnitude = rng.choice([256.0, 288.0, 320.0], size=(4, 8))
    sign = np.ones((4, 8)) if positive else rng.choice([-1.0, 1.0], size=(4, 8))
    return (magnitude * sign).astype(np.float32)


def _dtype_of(obj: Any) -> str:
    dtype = getattr(obj, "compute_dtype", None) or getattr(obj, "dtype", None)
    return keras.backend.standardize_dtype(dtype)


def _probe(candidate: _Candidate, policy: str) -> Float32Row:
    x = probe_input(candidate.positive)
    with keras_policy("float32"):
        reference_obj = candidate.make()
    reference = np.asarray(candidate.run(reference_obj, tf.constant(x)), np.float64)
    with keras_policy(policy):
        obj = candidate.make()
    compute = keras.backend.standardize_dtype(keras.DTypePolicy(policy).compute_dtype)
    output = candidate.run(obj, tf.constant(x, compute))  # same initial weights as the twin
    values = np.asarray(tf.cast(output, tf.float64))
    finite = bool(np.all(np.isfinite(values)))
    scale = max(1.0, float(np.max(np.abs(reference))))
    same = finite and bool(np.allclose(values, reference, rtol=0.02, atol=0.02 * scale))
    return Float32Row(
        name=candidate.name,
        compute_dtype=_dtype_of(obj),
        output_dtype=keras.backend.standardize_dtype(output.dtype),
        intermediate=candidate.intermediate,
        peak=candidate.peak(x, reference_obj),
        finite=finite,
        same=same,
    )


def float32_table(names: Iterable[str] | None = None, policy: str = POLICY) -> list[Float32Row]:
    """Probe the layers, loss and metric of :data:`CANDIDATES` (or ``names``) under ``policy``
    with the installed Keras, and return one :class:`Float32Row` each.

    The global Keras policy is left as it was. A name not in :data:`CANDIDATES` is refused:

    >>> float32_table(["Dense", "Conv9D"])
    Traceback (most recent call last):
    ...
    ValueError: names: 'Conv9D' is not probed; choose from 'Dense', 'Softmax', 'MultiHeadAttention', 'BatchNormalization', 'LayerNormalization', 'GroupNormalization', 'RMSNormalization', 'UnitNormalization', 'losses.MeanSquaredError', 'metrics.MeanSquaredError'.
    """
    wanted = CANDIDATES if names is None else tuple(names)
    unknown = [n for n in wanted if n not in CANDIDATES]
    if unknown:
        choices = ", ".join(map(repr, CANDIDATES))
        raise ValueError(f"names: {unknown[0]!r} is not probed; choose from {choices}.")
    if policy not in ("mixed_float16", "float16"):
        raise ValueError(
            f"policy={policy!r}: the probe needs float16 compute; use 'mixed_float16'."
        )
    return [_probe(c, policy) for c in _CANDIDATES if c.name in wanted]


def format_float32_table(rows: Iterable[Float32Row], lang: str | None = None) -> str:
    """The rows as a fixed-width text table, headed in the course's language.

    Numbers are printed to 3 significant digits, which every machine reproduces.
    """
    header = [
        t("debug.table.name", lang),
        t("debug.table.compute", lang),
        t("debug.table.output", lang),
        t("debug.table.intermediate", lang),
        t("debug.table.fits", lang),
        t("debug.table.result", lang),
        t("debug.table.inside", lang),
    ]
    lines = []
    for row in rows:
        if not row.finite:
            result = t("debug.table.nonfinite", lang)
        else:
            result = t("debug.table.same" if row.same else "debug.table.wrong", lang)
        inside = {"yes": "debug.table.yes", "no": "debug.table.no", "-": "debug.table.unknown"}
        lines.append(
            [
                row.name,
                row.compute_dtype,
                row.output_dtype,
                f"{row.intermediate} ≤ {row.peak:.3g}",
                t("debug.table.yes" if row.fits_float16 else "debug.table.no", lang),
                result,
                t(inside[row.float32_inside], lang),
            ]
        )
    return columns([header, *lines])


# --- where inf/NaN starts -----------------------------------------------------------------------


@dataclass(frozen=True)
class NonFinite:
    """The first layer whose output holds inf or NaN while its floating inputs were finite."""

    path: str
    layer: str  # the class name
    compute_dtype: str
    input_peak: float  # the largest |value| among its inputs
    inf: int
    nan: int

    @property
    def name(self) -> str:
        """The layer's own name (the last part of its path)."""
        return self.path.rsplit("/", 1)[-1]

    def describe(self, lang: str | None = None) -> str:
        return t(
            "debug.non_finite",
            lang,
            path=self.path,
            layer=self.layer,
            dtype=self.compute_dtype,
            peak=f"{self.input_peak:.3g}",
            inf=self.inf,
            nan=self.nan,
        )

    def __str__(self) -> str:
        return self.describe()


def _arrays(structure: Any) -> list[np.ndarray]:
    return [np.asarray(tf.cast(x, tf.float64)) for x in float_leaves(structure)]


def first_non_finite(model: keras.Model, x: Any, training: bool = False) -> NonFinite | None:
    """Call ``model(x)`` once and return the first layer (in call order, innermost first) whose
    output holds inf or NaN while all its floating inputs were finite; ``None`` if every
    layer's output is finite. Nothing in the model changes (``training=False`` by default).
    """
    if not isinstance(model, keras.layers.Layer):
        raise TypeError(f"model must be a Keras model or layer; got {type(model).__name__}.")
    x = tf.nest.map_structure(
        lambda v: tf.convert_to_tensor(v) if isinstance(v, np.ndarray | np.generic) else v, x
    )
    with recording(model) as seen:
        model(x, training=training)
    for layer, args, kwargs, outputs in seen:
        inputs = _arrays((args, kwargs))
        produced = _arrays(outputs)
        if not all(np.all(np.isfinite(a)) for a in inputs):
            continue
        inf = sum(int(np.count_nonzero(np.isinf(a))) for a in produced)
        nan = sum(int(np.count_nonzero(np.isnan(a))) for a in produced)
        if inf or nan:
            peak = max((float(np.max(np.abs(a))) for a in inputs if a.size), default=0.0)
            return NonFinite(
                path=layer.path or layer.name,
                layer=type(layer).__name__,
                compute_dtype=layer.compute_dtype,
                input_peak=peak,
                inf=inf,
                nan=nan,
            )
    return None


# --- the loss scale over a run ------------------------------------------------------------------


def loss_scale_state(optimizer: Any) -> tuple[float, int, int]:
    """``(scale, counter, iterations)`` of a Keras ``LossScaleOptimizer`` (before its first
    step: its initial scale and 0), or of any other optimizer (its ``loss_scale_factor`` or 1,
    and 0)."""
    iterations = int(np.asarray(optimizer.iterations))
    if isinstance(optimizer, keras.optimizers.LossScaleOptimizer):
        if getattr(optimizer, "built", False) and hasattr(optimizer, "dynamic_scale"):
            scale = float(np.asarray(optimizer.dynamic_scale))
            return scale, int(np.asarray(optimizer.step_counter)), iterations
        return float(optimizer.initial_scale), 0, iterations
    return float(getattr(optimizer, "loss_scale_factor", None) or 1.0), 0, iterations


class LossScaleHistory(keras.callbacks.Callback):
    """Records the loss scale, its counter and ``iterations`` of ``model.optimizer`` when
    ``fit`` begins and after every batch: ``steps + 1`` values each, as in
    :mod:`mpteach.traces`. A batch after which ``iterations`` did not grow was skipped."""

    def __init__(self) -> None:
        super().__init__()
        self.scale: list[float] = []
        self.counter: list[int] = []
        self.iterations: list[int] = []

    def _record(self) -> None:
        scale, counter, iterations = loss_scale_state(self.model.optimizer)
        self.scale.append(scale)
        self.counter.append(counter)
        self.iterations.append(iterations)

    def on_train_begin(self, logs: Any = None) -> None:
        self.scale, self.counter, self.iterations = [], [], []
        self._record()

    def on_train_batch_end(self, batch: int, logs: Any = None) -> None:
        self._record()

    @property
    def skipped(self) -> int:
        """Batches whose update was skipped (``iterations`` did not grow)."""
        return int(np.count_nonzero(np.diff(self.iterations) == 0))

    @property
    def log2_scale(self) -> list[int]:
        """The recorded scales as powers of two (a dynamic scale always is one)."""
        return [int(np.log2(s)) for s in self.scale]


class LossScaleWarning(UserWarning):
    """What :class:`LossScaleAlarm` warns with: the loss scale of a run is in trouble."""


class LossScaleAlarm(LossScaleHistory):
    """A :class:`LossScaleHistory` that warns (or stops ``fit``, with ``stop=True``) when the
    loss scale is in trouble:

    - ``"below"``: the scale fell below ``min_scale`` (gradients are scaled *down*: something
      overflows at any scale, which loss scaling cannot fix);
    - ``"halvings"``: it halved ``max_halvings`` batches in a row;
    - ``"skips"``: more than ``max_skip_rate`` of the last ``window`` batches were skipped.

    Each alarm sounds once per ``fit``. With the training inputs ``x`` (and ``batch_size``), it
    then names the first layer whose output is inf or NaN on a batch of ``x``
    (:func:`first_non_finite`), or says that every output is finite, so the overflow is in the
    backward pass. ``alarms`` lists ``(batch, kind, message)``.
    """

    KINDS = ("below", "halvings", "skips")

    def __init__(
        self,
        min_scale: float = 1.0,
        max_halvings: int = 5,
        max_skip_rate: float = 0.05,
        window: int = 100,
        stop: bool = False,
        x: Any = None,
        batch_size: int = 32,
    ) -> None:
        super().__init__()
        for name, value, low in (("max_halvings", max_halvings, 1), ("window", window, 1),
                                 ("batch_size", batch_size, 1)):  # fmt: skip
            if not isinstance(value, int) or value < low:
                raise ValueError(f"{name} must be a whole number of at least {low}, not {value!r}")
        if not 0 <= max_skip_rate < 1:
            raise ValueError(f"max_skip_rate must be at least 0 and below 1, not {max_skip_rate!r}")
        if not min_scale > 0:
            raise ValueError(f"min_scale must be above 0, not {min_scale!r}")
        self.min_scale, self.max_halvings, self.max_skip_rate = (
            min_scale,
            max_halvings,
            max_skip_rate,
        )
        self.window, self.stop, self.x, self.batch_size = window, stop, x, batch_size
        self.alarms: list[tuple[int, str, str]] = []

    def on_train_begin(self, logs: Any = None) -> None:
        super().on_train_begin(logs)
        self.alarms = []

    def _halvings(self) -> int:
        """How many of the latest batches in a row halved the scale."""
        count = 0
        for before, after in zip(self.scale[-2::-1], self.scale[::-1], strict=False):
            if after != before / 2:
                break
            count += 1
        return count

    def _skip_rate(self) -> float | None:
        if len(self.iterations) <= self.window:
            return None
        recent = np.diff(self.iterations[-self.window - 1 :])
        return float(np.count_nonzero(recent == 0)) / self.window

    def _culprit(self, lang: str | None) -> str:
        if self.x is None:
            return t("debug.alarm.no_data", lang)
        for start in range(0, len(self.x), self.batch_size):
            found = first_non_finite(self.model, self.x[start : start + self.batch_size])
            if found is not None:
                return t("debug.alarm.culprit", lang, batch=start // self.batch_size,
                         where=found.describe(lang))  # fmt: skip
        return t("debug.alarm.all_finite", lang)

    def on_train_batch_end(self, batch: int, logs: Any = None) -> None:
        super().on_train_batch_end(batch, logs)
        found = []
        if self.scale[-1] < self.min_scale:
            found.append(
                ("below", {"scale": f"{self.scale[-1]:g}", "limit": f"{self.min_scale:g}"})
            )
        if (halvings := self._halvings()) >= self.max_halvings:
            found.append(("halvings", {"count": halvings, "scale": f"{self.scale[-1]:g}"}))
        rate = self._skip_rate()
        if rate is not None and rate > self.max_skip_rate:
            found.append(("skips", {"percent": f"{rate:.0%}", "window": self.window,
                                    "limit": f"{self.max_skip_rate:.0%}"}))  # fmt: skip
        sounded = {kind for _, kind, _ in self.alarms}
        for kind, values in found:
            if kind in sounded:
                continue
            message = t(f"debug.alarm.{kind}", None, batch=batch, **values)
            message += " " + self._culprit(None)
            self.alarms.append((batch, kind, message))
            warnings.warn(message, LossScaleWarning, stacklevel=2)
            if self.stop:
                self.model.stop_training = True


# --- headroom: how far each layer's values are from a 16-bit format's limits ---------------------

HEADROOM_FORMATS = ("float16", "bfloat16")


@dataclass(frozen=True)
class HeadroomRow:
    """One layer's largest |output| and |gradient of the loss with respect to its output| on a
    batch, and, per 16-bit format, the share of its nonzero output gradients that the format
    would store as 0 (at the given loss scale)."""

    path: str
    layer: str
    activation: float
    gradient: float | None  # None: the loss does not depend on this output itself
    lost: dict[str, float]

    @property
    def peak(self) -> float:
        return max(self.activation, self.gradient or 0.0)

    def overflows(self, fmt: str) -> bool:
        """Whether the layer's output or its gradient passes ``fmt``'s largest finite value."""
        return self.peak > formats.float_format(fmt).max

    def headroom_octaves(self, fmt: str) -> float:
        """log2 of ``fmt``'s largest value over the layer's largest |value| (negative: overflow)."""
        peak = self.peak
        return math.inf if peak == 0 else math.log2(formats.float_format(fmt).max / peak)


def headroom(
    model: keras.Model,
    x: Any,
    y: Any = None,
    loss: Callable[[Any, Any], Any] | None = None,
    loss_scale: float = 1.0,
) -> list[HeadroomRow]:
    """Run ``model`` once on ``x`` (nothing changes: no update) and return, per layer in call
    order, its largest |output| and |output gradient|, against float16's and bfloat16's ranges.

    The loss is ``loss(y, model(x))`` (averaged over the batch), or the compiled loss with ``y``,
    or, without ``y``, half the sum of squared outputs; gradients are of the loss times ``loss_scale``. A model trained in
    bfloat16 shows here, before one step runs, whether its values fit float16.
    """
    if not isinstance(model, keras.layers.Layer):
        raise TypeError(f"model must be a Keras model or layer; got {type(model).__name__}.")
    if not loss_scale > 0:
        raise ValueError(f"loss_scale must be above 0, not {loss_scale!r}")
    x = tf.nest.map_structure(
        lambda v: tf.convert_to_tensor(v) if isinstance(v, np.ndarray | np.generic) else v, x
    )
    with tf.GradientTape(persistent=True) as tape, recording(model) as seen:
        predictions = model(x, training=False)
        if loss is not None:  # a loss function's per-sample values are averaged, as fit does
            value = tf.reduce_mean(loss(y, predictions))
        elif y is not None and getattr(model, "compiled", False):
            value = model.compute_loss(x=x, y=y, y_pred=predictions)
        else:
            value = 0.5 * tf.add_n([tf.reduce_sum(tf.square(tf.cast(p, "float32")))
                                    for p in tf.nest.flatten(predictions)])  # fmt: skip
        value = tf.cast(value, "float32") * loss_scale
    rows = []
    final = [p for p in tf.nest.flatten(predictions) if tf.is_tensor(p) and p.dtype.is_floating]
    for index, (layer, _, _, outputs) in enumerate(seen):
        leaves = [o for o in tf.nest.flatten(outputs) if tf.is_tensor(o) and o.dtype.is_floating]
        if not leaves:
            continue
        acts = [np.abs(np.asarray(tf.cast(o, tf.float64))) for o in leaves]
        grads = tape.gradient(value, leaves)
        if index == len(seen) - 1 and all(g is None for g in grads):
            # the model's output: Keras may hand back a new tensor for the last layer's result
            grads = tape.gradient(value, final)
        # None: the loss does not read this output (Keras's cross-entropy reads a softmax's logits)
        known = [np.abs(np.asarray(tf.cast(g, tf.float64))).ravel() for g in grads if g is not None]
        gs = np.concatenate(known) if known else np.zeros(0)
        nonzero = gs[gs > 0]
        lost = {
            fmt: float(np.mean(nonzero < formats.float_format(fmt).underflow_threshold))
            if nonzero.size else 0.0
            for fmt in HEADROOM_FORMATS
        }  # fmt: skip
        rows.append(HeadroomRow(
            path=layer.path or layer.name, layer=type(layer).__name__,
            activation=max(float(a.max()) if a.size else 0.0 for a in acts),
            gradient=float(gs.max()) if gs.size else None, lost=lost,
        ))  # fmt: skip
    del tape
    return rows


def format_headroom(rows: Iterable[HeadroomRow], lang: str | None = None) -> str:
    """:func:`headroom`'s rows as a table: per format, ``overflow`` or the headroom in powers of
    two, and the share of nonzero gradients the format would lose."""
    header = [t("debug.headroom.layer", lang), t("debug.headroom.activation", lang),
              t("debug.headroom.gradient", lang), *HEADROOM_FORMATS]  # fmt: skip
    lines = []
    for row in rows:
        cells = []
        for fmt in HEADROOM_FORMATS:
            if row.overflows(fmt):
                room = t("debug.headroom.overflow", lang)
            else:
                room = t("debug.headroom.room", lang, octaves=math.floor(row.headroom_octaves(fmt)))
            cells.append(f"{room}; " + t("debug.headroom.lost", lang, share=f"{row.lost[fmt]:.0%}"))
        gradient = "—" if row.gradient is None else f"{row.gradient:.3g}"
        lines.append([row.path, f"{row.activation:.3g}", gradient, *cells])
    return columns([header, *lines])
