"""Real traces of dynamic loss scaling: a small float16 model trained for a few dozen steps.

:func:`record_trace` trains the same small ``mixed_float16`` regression model (same weights,
same data) in a custom loop with ``mpteach.LossScaleOptimizer`` or with Keras's, and records
after every step the loss scale, the counter of finite steps and whether the step's gradients
were finite (a non-finite step is skipped). A high initial scale and a short growth interval make
a short run show everything: the first steps overflow and are skipped while the scale comes
down, then the scale grows, overflows once, halves, and grows again.

The two optimizers give the same trace, and :func:`mpteach.simulate.replay` of the recorded
finite/non-finite sequence gives it too (``tests/test_traces.py``)::

    trace = record_trace("keras", steps=40)  # a few seconds on a CPU
    trace.scale, trace.counter, trace.finite  # 41, 41 and 40 values
    scale, counter = mpteach.simulate.replay(trace.finite, trace.initial_scale, trace.growth_steps)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

OPTIMIZERS = ("mpteach", "keras")


@dataclass(frozen=True)
class Trace:
    """One recorded run. ``scale`` and ``counter`` hold ``steps + 1`` states (before the first
    step, then after each), like :func:`mpteach.simulate.replay`; ``finite`` and ``loss`` one
    value per step (``loss`` unscaled, as computed in float32 from the float16 model)."""

    optimizer: str
    initial_scale: float
    growth_steps: int
    scale: np.ndarray
    counter: np.ndarray
    finite: np.ndarray
    loss: np.ndarray

    @property
    def skipped(self) -> int:
        return int(np.count_nonzero(~self.finite))

    @property
    def grown(self) -> int:
        """How many times the scale doubled."""
        return int(np.count_nonzero(self.scale[1:] > self.scale[:-1]))


def _model(seed: int) -> Any:
    """20 inputs -> 64 -> 64 -> 1, float16 compute, float32 output; weights fixed by ``seed``."""
    import keras
    from keras import layers

    def dense(units: int, i: int, **kwargs: Any) -> Any:
        init = keras.initializers.GlorotUniform(seed=seed + i)
        return layers.Dense(units, kernel_initializer=init, dtype="mixed_float16", **kwargs)

    inputs = keras.Input((20,))
    x = dense(64, 1, activation="relu")(inputs)
    x = dense(64, 2, activation="relu")(x)
    x = dense(1, 3)(x)
    outputs = layers.Activation("linear", dtype="float32")(x)
    return keras.Model(inputs, outputs)


def _state(optimizer: Any) -> tuple[float, int]:
    """(loss scale, counter) of either optimizer; Keras creates its variables on the first step."""
    if hasattr(optimizer, "dynamic_counter"):  # mpteach
        return float(optimizer.loss_scale), int(optimizer.dynamic_counter)
    if not hasattr(optimizer, "dynamic_scale"):
        return float(optimizer.initial_scale), 0
    return float(optimizer.dynamic_scale.numpy()), int(optimizer.step_counter.numpy())


def record_trace(
    optimizer: str = "mpteach",
    steps: int = 40,
    initial_scale: float = 2.0**24,
    growth_steps: int = 5,
    seed: int = 0,
    batch_size: int = 64,
) -> Trace:
    """Train the small float16 model for ``steps`` steps and record the loss-scale state.

    ``optimizer`` is ``"mpteach"`` (:class:`mpteach.LossScaleOptimizer`) or ``"keras"``
    (``keras.optimizers.LossScaleOptimizer``), both around SGD(0.01). Runs on a CPU in a few
    seconds: the loop is a ``tf.function`` run with Grappler's remapper off (see
    :mod:`mpteach.bench.pitfall`).
    """
    if optimizer not in OPTIMIZERS:
        raise ValueError(
            f"optimizer={optimizer!r}: choose one of {', '.join(map(repr, OPTIMIZERS))}."
        )
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
        raise ValueError(f"steps={steps!r} must be a whole number >= 1.")
    import keras
    import tensorflow as tf

    from mpteach.bench.pitfall import remapping
    from mpteach.optimizer import LossScaleOptimizer

    rng = np.random.default_rng(seed)
    x = tf.constant(rng.standard_normal((steps, batch_size, 20)), tf.float32)
    y = tf.constant(rng.standard_normal((steps, batch_size, 1)), tf.float32)
    model = _model(seed)
    inner = keras.optimizers.SGD(0.01)
    wrapper = LossScaleOptimizer if optimizer == "mpteach" else keras.optimizers.LossScaleOptimizer
    opt = wrapper(inner, initial_scale=initial_scale, dynamic_growth_steps=growth_steps)

    @tf.function
    def train_step(x: tf.Tensor, y: tf.Tensor) -> tuple[tf.Tensor, tf.Tensor]:
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x, training=True) - y))
            scaled_loss = opt.scale_loss(loss)
        grads = tape.gradient(scaled_loss, model.trainable_variables)
        finite = tf.reduce_all([tf.reduce_all(tf.math.is_finite(g)) for g in grads])
        opt.apply(grads, model.trainable_variables)
        return loss, finite

    states, finite, losses = [_state(opt)], [], []
    with remapping(False):  # float16 MatMul+BiasAdd: avoid the slow fused CPU kernel
        for step in range(steps):
            loss, ok = train_step(x[step], y[step])
            states.append(_state(opt))
            finite.append(bool(ok))
            losses.append(float(loss))
    return Trace(
        optimizer=optimizer,
        initial_scale=float(initial_scale),
        growth_steps=growth_steps,
        scale=np.array([s for s, _ in states]),
        counter=np.array([c for _, c in states]),
        finite=np.array(finite),
        loss=np.array(losses),
    )
