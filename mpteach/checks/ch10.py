"""Self-checks of chapter 10 (when mixed precision goes wrong, and real training loops).

* :func:`first_nan`: the layer where a NaN hunt in :func:`suspect`'s model ends, found again
  here with :func:`mpteach.debug.first_non_finite` (nothing is hard-coded).
* :func:`accumulate`: the learner's gradient-accumulation step, run with a real Keras
  ``LossScaleOptimizer`` on micro-batches and compared with plain SGD on their mean gradient,
  then run again with a micro-batch whose scaled gradients overflow.
* :func:`capstone`: the fixed training script of the capstone (model, custom step, ``compile``)
  is run, and everything still wrong is named.

>>> from mpteach.checks import ch10
>>> model, x = ch10.suspect()
>>> ch10.first_nan("rate").passed, ch10.first_nan("norm").passed
(True, False)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from mpteach.checks import Feedback, failed, passed, unanswered
from mpteach.i18n import sentences, t

POLICY = "mixed_float16"

# --- exercise 1: the first non-finite layer ------------------------------------------------------


def suspect() -> tuple[Any, np.ndarray]:
    """Exercise 1: a small ``mixed_float16`` model whose predictions are NaN on ``x``, and ``x``.

    A new model each call, with the same weights; the global Keras policy is left as it was.
    """
    import keras

    from mpteach.doctor.diagnose import keras_policy

    init = keras.initializers.GlorotUniform
    rng = np.random.default_rng(23)
    x = (rng.normal(size=(16, 6)) * 10).astype("float32")
    with keras_policy(POLICY):
        model = keras.Sequential(
            [
                keras.Input((6,)),
                keras.layers.Dense(16, activation="relu", kernel_initializer=init(1), name="embed"),
                keras.layers.Dense(
                    8, activation="exponential", kernel_initializer=init(2), name="rate"
                ),
                keras.layers.LayerNormalization(name="norm"),
                keras.layers.Dense(3, kernel_initializer=init(3), name="logits"),
                keras.layers.Activation("softmax", dtype="float32", name="probs"),
            ],
            name="suspect",
        )
    return model, x


def first_nan(answer: object) -> Feedback:
    """Exercise 1: the name of the first layer of :func:`suspect`'s model whose output holds
    inf or NaN (a layer object is accepted too)."""
    if (reminder := unanswered(answer)) is not None:
        return reminder
    import keras

    from mpteach.debug import first_non_finite

    if isinstance(answer, keras.layers.Layer):
        answer = answer.name
    if not isinstance(answer, str):
        return failed("checks.wrong_type", expected="str", actual=type(answer).__name__)
    model, x = suspect()
    culprit = first_non_finite(model, x)
    names = [layer.name for layer in model.layers]
    if culprit is None:  # the model is finite on this machine: nothing to find
        return failed("checks.ch10.nan_none")
    if answer not in names:
        return failed("checks.ch10.nan_unknown", answer=answer, layers=", ".join(names))
    first = names.index(culprit.name)
    texts = {"answer": answer, "inf": culprit.inf, "nan": culprit.nan, "layer": culprit.name}
    if names.index(answer) > first:
        return failed("checks.ch10.nan_later", **texts)
    if names.index(answer) < first:
        return failed("checks.ch10.nan_earlier", **texts)
    return passed("checks.ch10.nan_ok", **texts)


# --- exercise 2: gradient accumulation with loss scaling -------------------------------------------

ACCUMULATION_SCALE = 1024.0
"""The loss scale of the optimizer handed to the learner's ``accumulate``."""
ACCUMULATION_RATE = 0.1
MICRO_BATCHES = 4


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-3, abs_tol=1e-9)


def _micro_batches(overflow: bool) -> list[tuple[np.ndarray, np.ndarray]]:
    """Four micro-batches of 8; with ``overflow`` the third one has inputs so large (3e17) that
    its loss is finite but the loss times the scale is not."""
    rng = np.random.default_rng(1)
    batches = [
        (rng.normal(size=(8, 4)).astype("float32"), rng.normal(size=(8, 1)).astype("float32"))
        for _ in range(MICRO_BATCHES)
    ]
    if overflow:
        batches[2] = (np.full((8, 4), 3e17, "float32"), np.zeros((8, 1), "float32"))
    return batches


def _fresh_model() -> Any:
    import keras

    from mpteach.doctor.diagnose import keras_policy

    with keras_policy("float32"):
        dense = keras.layers.Dense(1, kernel_initializer="ones")
        return keras.Sequential([keras.Input((4,)), dense])


def _weights(model: Any) -> np.ndarray:
    return np.concatenate([np.asarray(v).ravel() for v in model.trainable_variables])


def _reference_update(overflow: bool = False) -> np.ndarray:
    """Plain SGD on the mean of the micro-batches' gradients, in float32, without scaling."""
    import keras
    import tensorflow as tf

    model, loss_fn = _fresh_model(), keras.losses.MeanSquaredError()
    total = None
    for x, y in _micro_batches(overflow):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x))
        grads = [np.asarray(g) for g in tape.gradient(loss, model.trainable_variables)]
        total = grads if total is None else [a + b for a, b in zip(total, grads, strict=True)]
    return -ACCUMULATION_RATE * np.concatenate([g.ravel() / MICRO_BATCHES for g in total])


def _run_accumulate(step: Callable[..., Any], overflow: bool) -> tuple[np.ndarray, int, float]:
    """``(update, iterations, scale)`` after ``step(model, optimizer, loss_fn, batches)``."""
    import keras

    from mpteach.debug import loss_scale_state

    model = _fresh_model()
    optimizer = keras.optimizers.LossScaleOptimizer(
        keras.optimizers.SGD(ACCUMULATION_RATE), initial_scale=ACCUMULATION_SCALE
    )
    before = _weights(model)
    step(model, optimizer, keras.losses.MeanSquaredError(), _micro_batches(overflow))
    scale, _, iterations = loss_scale_state(optimizer)
    return _weights(model) - before, iterations, scale


def accumulate(step: object) -> Feedback:
    """Exercise 2: ``step(model, optimizer, loss_fn, batches)`` makes **one** update from the
    mean gradient of the micro-batches ``batches`` (a list of ``(x, y)``), with loss scaling,
    and skips it if any scaled gradient is not finite."""
    if (reminder := unanswered(step)) is not None:
        return reminder
    if not callable(step):
        return failed("checks.wrong_type", expected="callable", actual=type(step).__name__)
    scale = f"{ACCUMULATION_SCALE:g}"
    try:
        update, iterations, _ = _run_accumulate(step, overflow=False)
    except Exception as error:  # the learner's code: report, don't crash the notebook
        return failed("checks.ch10.acc_raised", error=f"{type(error).__name__}: {error}")
    expected = _reference_update()
    if iterations == 0 or not np.any(update):
        return failed("checks.ch10.acc_no_update")
    if iterations > 1:
        return failed("checks.ch10.acc_every_batch", iterations=iterations, micro=MICRO_BATCHES)
    if not np.all(np.isfinite(update)):
        return failed("checks.ch10.acc_inf_weights")
    ratio = float(np.dot(update, expected) / np.dot(expected, expected))
    if _close(ratio, MICRO_BATCHES):
        return failed("checks.ch10.acc_summed", micro=MICRO_BATCHES)
    if _close(ratio, 1 / ACCUMULATION_SCALE) or _close(ratio, 1 / ACCUMULATION_SCALE**2):
        return failed("checks.ch10.acc_too_small", scale=scale)
    if _close(ratio, ACCUMULATION_SCALE) or _close(ratio, ACCUMULATION_SCALE * MICRO_BATCHES):
        return failed("checks.ch10.acc_too_large", scale=scale)
    if not _close(ratio, 1.0):
        return failed("checks.ch10.acc_other", ratio=f"{ratio:.4g}")
    try:
        update, _, new_scale = _run_accumulate(step, overflow=True)
    except Exception as error:
        return failed("checks.ch10.acc_raised", error=f"{type(error).__name__}: {error}")
    if not np.all(np.isfinite(update)):
        return failed("checks.ch10.acc_inf_weights")
    if np.any(update):
        # Right only if nothing the step scaled overflowed: one tape over the mean loss scales
        # the average, which stays finite, and makes the full float32 update without a skip.
        unskipped = not new_scale < ACCUMULATION_SCALE
        if unskipped and np.allclose(update, _reference_update(overflow=True), rtol=1e-3):
            return passed("checks.ch10.acc_one_tape_ok")
        return failed("checks.ch10.acc_partial")
    if not new_scale < ACCUMULATION_SCALE:
        return failed("checks.ch10.acc_scale_kept", scale=scale)
    return passed("checks.ch10.acc_ok", half=f"{new_scale:g}")


# --- exercise 3: the capstone -------------------------------------------------------------------

FIXED_SCALE = 1024.0
"""The fixed loss scale the capstone's ``fit`` must use."""
N_FEATURES, N_CLASSES = 8, 3


def capstone_data(n: int = 256) -> tuple[np.ndarray, np.ndarray]:
    """The capstone's data: ``n`` rows of 8 raw sensor readings (200 to 400) and 3 classes."""
    rng = np.random.default_rng(0)
    x = rng.uniform(200.0, 400.0, size=(n, N_FEATURES)).astype("float32")
    teacher = rng.normal(size=(N_FEATURES, N_CLASSES))
    y = np.argmax((x - 300.0) @ teacher, axis=1).astype("int64")
    return x, y


def _build(build_model: Callable[[], Any]) -> Any:
    """Call the learner's ``build_model`` and put the global Keras policy back afterwards."""
    import keras

    previous = keras.config.dtype_policy()
    try:
        return build_model()
    finally:
        keras.config.set_dtype_policy(previous)


Problem = tuple[int, str]
"""A mistake still there: its number in the solution (1 to 4; 0 for no mistake of the four, such
as an error), and what the learner is told."""


def _model_problems(model: Any, x: np.ndarray) -> list[Problem]:
    """Mistakes 1 and 3: a 16-bit output, and a 16-bit layer that returns float32."""
    import keras

    from mpteach.doctor.diagnose import HALF_DTYPES, float_leaves, recording

    layers = [
        layer
        for layer in model._flatten_layers(include_self=False)
        if not isinstance(layer, keras.layers.InputLayer)
    ]
    if not any(layer.compute_dtype == "float16" for layer in layers):
        return [(0, t("checks.ch10.capstone_not_mixed"))]
    problems = []
    with recording(model) as seen:
        try:
            outputs = model(x, training=True)
        except Exception as error:
            error = f"{type(error).__name__}: {error}"
            return [(0, t("checks.ch10.capstone_call_raised", error=error))]
    half_outputs = [o.dtype.name for o in float_leaves(outputs) if o.dtype.name in HALF_DTYPES]
    if half_outputs:
        problems.append((1, t("checks.ch10.capstone_half_output", dtype=half_outputs[0])))
    on_purpose = {
        id(leaf)
        for layer, _, _, out in seen
        if layer.compute_dtype not in HALF_DTYPES
        for leaf in float_leaves(out)
    }
    for layer, _, _, out in seen:
        leaves = [o for o in float_leaves(out) if id(o) not in on_purpose]
        if layer.compute_dtype in HALF_DTYPES and any(o.dtype.name == "float32" for o in leaves):
            problems.append((3, t("checks.ch10.capstone_float32_layer", layer=layer.name)))
            break
    return problems


def _step_problems(train_step: Callable[..., Any]) -> list[Problem]:
    """Mistake 2: the custom step's update compared with plain SGD's (chapter 07's test)."""
    from mpteach.checks.ch07 import SCALE, _update_ratio

    try:
        ratio, _, _ = _update_ratio(train_step)
    except Exception as error:
        return [
            (0, t("checks.ch10.capstone_step_raised", error=f"{type(error).__name__}: {error}"))
        ]
    scale = f"{SCALE:g}"
    if _close(ratio, 1 / SCALE):
        return [(2, t("checks.ch10.capstone_no_scale_loss", scale=scale))]
    if _close(ratio, SCALE):
        return [(2, t("checks.ch10.capstone_inner_apply", scale=scale))]
    if not _close(ratio, 1.0):
        return [(2, t("checks.ch10.capstone_step_other", ratio=f"{ratio:.4g}"))]
    return []


def _fit_problems(model: Any, compile_model: Callable[[Any], Any]) -> list[Problem]:
    """Mistake 4: ``compile`` replaced the fixed scale with a dynamic LossScaleOptimizer."""
    import keras

    try:
        compile_model(model)
    except Exception as error:
        error = f"{type(error).__name__}: {error}"
        return [(0, t("checks.ch10.capstone_compile_raised", error=error))]
    optimizer = getattr(model, "optimizer", None)
    wanted = f"{FIXED_SCALE:g}"
    if optimizer is None:
        return [(4, t("checks.ch10.capstone_not_compiled"))]
    if isinstance(optimizer, keras.optimizers.LossScaleOptimizer):
        initial = f"{float(optimizer.initial_scale):g}"
        return [(4, t("checks.ch10.capstone_scale_replaced", scale=initial, wanted=wanted))]
    factor = getattr(optimizer, "loss_scale_factor", None)
    if factor is None or not _close(float(factor), FIXED_SCALE):
        shown = "None" if factor is None else f"{float(factor):g}"
        return [(4, t("checks.ch10.capstone_scale_wrong", factor=shown, wanted=wanted))]
    return []


def capstone(build_model: object, train_step: object, compile_model: object) -> Feedback:
    """Exercise 3 (the capstone): the fixed script's three functions.

    ``build_model()`` returns the ``mixed_float16`` model for :func:`capstone_data`;
    ``train_step(model, optimizer, loss_fn, x, y)`` does one loss-scaled update (as in chapter
    07) and returns the loss; ``compile_model(model)`` compiles the model for ``fit`` with a
    fixed loss scale of :data:`FIXED_SCALE`. Every mistake still there is named.
    """
    for answer in (build_model, train_step, compile_model):
        if (reminder := unanswered(answer)) is not None:
            return reminder
        if not callable(answer):
            return failed("checks.wrong_type", expected="callable", actual=type(answer).__name__)
    import keras

    x, _ = capstone_data(32)
    try:
        model = _build(build_model)
        fresh = _build(build_model)
    except Exception as error:
        return failed("checks.ch10.capstone_build_raised", error=f"{type(error).__name__}: {error}")
    if not isinstance(model, keras.Model):
        return failed("checks.wrong_type", expected="keras.Model", actual=type(model).__name__)
    problems = _model_problems(model, x)
    problems += _step_problems(train_step)
    problems += _fit_problems(fresh, compile_model)
    if problems:  # numbered as the solution numbers the four mistakes
        listed = sentences([f"({n}) {text}" if n else text for n, text in sorted(problems)])
        return failed("checks.ch10.capstone_left", count=len(problems), problems=listed)
    return passed("checks.ch10.capstone_ok", scale=f"{FIXED_SCALE:g}")
