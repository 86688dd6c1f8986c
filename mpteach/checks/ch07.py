"""Self-checks of chapter 07 (custom training loops with loss scaling).

:func:`train_step` runs the learner's step function once, with a real Keras
``LossScaleOptimizer``, and compares the update with plain SGD on the same data: scaling
mistakes show up as an update that is ``scale`` times too small or too large.

>>> from mpteach.checks import ch07
>>> ch07.iterations_after(3).passed
True
>>> ch07.iterations_after(5).passed
False
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from typing import Any

import numpy as np

from mpteach.checks import Feedback, failed, passed, unanswered
from mpteach.simulate import replay

SCALE = 1024.0
"""The loss scale of the optimizer handed to the learner's ``train_step``."""
LEARNING_RATE = 0.1

STEPS = (True, False, True, False, True)
"""Exercise 2: finite (True) and non-finite (False) steps given to a Keras 3 ``LossScaleOptimizer``."""

FIXED_SCALE = 128.0
"""Exercise 3: the fixed loss scale to express in Keras 3."""


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-3, abs_tol=1e-9)


def _update_ratio(step: Callable[..., Any]) -> tuple[float, float, float]:
    """``(ratio, returned_loss, true_loss)``: the learner's update over plain SGD's, on one batch."""
    import keras
    import tensorflow as tf

    rng = np.random.default_rng(0)
    x = rng.normal(size=(8, 4)).astype("float32")
    y = rng.normal(size=(8, 1)).astype("float32")
    loss_fn = keras.losses.MeanSquaredError()

    def fresh_model() -> keras.Model:
        dense = keras.layers.Dense(1, kernel_initializer="ones", dtype="float32")
        return keras.Sequential([keras.Input((4,)), dense])

    reference = fresh_model()
    with tf.GradientTape() as tape:
        true_loss = loss_fn(y, reference(x))
    grads = tape.gradient(true_loss, reference.trainable_variables)
    before = [v.numpy().copy() for v in reference.trainable_variables]
    keras.optimizers.SGD(LEARNING_RATE).apply(grads, reference.trainable_variables)
    expected = np.concatenate(
        [
            (v.numpy() - b).ravel()
            for v, b in zip(reference.trainable_variables, before, strict=True)
        ]
    )

    model = fresh_model()
    optimizer = keras.optimizers.LossScaleOptimizer(
        keras.optimizers.SGD(LEARNING_RATE), initial_scale=SCALE
    )
    returned = step(model, optimizer, loss_fn, x, y)
    actual = np.concatenate(
        [(v.numpy() - b).ravel() for v, b in zip(model.trainable_variables, before, strict=True)]
    )
    ratio = float(np.dot(actual, expected) / np.dot(expected, expected))
    returned_loss = float(np.asarray(returned)) if returned is not None else math.nan
    return ratio, returned_loss, float(true_loss)


def train_step(step: object) -> Feedback:
    """Exercise 1: ``step(model, optimizer, loss_fn, x, y)`` does one loss-scaled update and returns the loss."""
    if (reminder := unanswered(step)) is not None:
        return reminder
    if not callable(step):
        return failed("checks.wrong_type", expected="callable", actual=type(step).__name__)
    try:
        ratio, returned, true_loss = _update_ratio(step)
    except Exception as error:  # the learner's code: report, don't crash the notebook
        return failed("checks.ch07.step_raised", error=f"{type(error).__name__}: {error}")
    scale = f"{SCALE:g}"
    if _close(ratio, 0.0):
        return failed("checks.ch07.step_no_update")
    if _close(ratio, 1 / SCALE):
        return failed("checks.ch07.step_too_small", scale=scale)
    if _close(ratio, SCALE):
        return failed("checks.ch07.step_too_large", scale=scale)
    if not _close(ratio, 1.0):
        return failed("checks.ch07.step_other", ratio=f"{ratio:.4g}")
    if not _close(returned, true_loss):
        return failed(
            "checks.ch07.step_wrong_loss", returned=f"{returned:.6g}", loss=f"{true_loss:.6g}"
        )
    return passed("checks.ch07.step_ok")


def iterations_after(answer: object) -> Feedback:
    """Exercise 2: Keras 3 ``optimizer.iterations`` after the steps of ``STEPS``."""
    if (reminder := unanswered(answer)) is not None:
        return reminder
    if isinstance(answer, bool) or not isinstance(answer, numbers.Integral):
        return failed("checks.wrong_type", expected="int", actual=type(answer).__name__)
    applied = sum(STEPS)
    scale, _ = replay(STEPS, initial_scale=SCALE, growth_steps=2000)
    texts = {"applied": applied, "skipped": len(STEPS) - applied, "scale": f"{scale[-1]:g}"}
    if answer == applied:
        return passed("checks.ch07.iterations_ok", **texts)
    if answer == len(STEPS):
        return failed("checks.ch07.iterations_keras2", answer=answer, **texts)
    return failed("checks.ch07.iterations_wrong", answer=answer, **texts)


def fixed_scale(answer: object) -> Feedback:
    """Exercise 3: Keras 3's equivalent of Keras 2's
    ``LossScaleOptimizer(SGD(0.1), dynamic=False, initial_scale=128)``."""
    if (reminder := unanswered(answer)) is not None:
        return reminder
    import keras

    if isinstance(answer, keras.optimizers.LossScaleOptimizer) or type(answer).__name__ == (
        "LossScaleOptimizer"
    ):
        return failed("checks.ch07.fixed_is_lso")
    if not isinstance(answer, keras.optimizers.Optimizer):
        return failed(
            "checks.wrong_type", expected="keras.optimizers.Optimizer", actual=type(answer).__name__
        )
    if not isinstance(answer, keras.optimizers.SGD):
        return failed("checks.ch07.fixed_not_sgd", name=type(answer).__name__)
    factor = answer.loss_scale_factor
    if factor is None:
        return failed("checks.ch07.fixed_no_factor", scale=f"{FIXED_SCALE:g}")
    if not _close(float(factor), FIXED_SCALE):
        return failed(
            "checks.ch07.fixed_wrong_factor", factor=f"{factor:g}", scale=f"{FIXED_SCALE:g}"
        )
    rate = float(np.asarray(answer.learning_rate))
    if not _close(rate, LEARNING_RATE):
        return failed("checks.ch07.fixed_wrong_rate", rate=f"{rate:g}", want=f"{LEARNING_RATE:g}")
    return passed("checks.ch07.fixed_ok", scale=f"{FIXED_SCALE:g}")
