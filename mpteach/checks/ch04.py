"""Self-checks of chapter 04 (custom layers). Each check builds the learner's layer class and runs it."""

from __future__ import annotations

from typing import Any

from mpteach.checks import Feedback, failed, passed, unanswered

POLICIES = ("mixed_float16", "mixed_bfloat16", "float64")


def _layer_class(answer: Any) -> Feedback | None:
    import keras

    if (reminder := unanswered(answer)) is not None:
        return reminder
    if not (isinstance(answer, type) and issubclass(answer, keras.layers.Layer)):
        return failed("checks.ch04.not_class", actual=type(answer).__name__)
    return None


def _run(layer: Any, inputs: Any, policy: str) -> tuple[Any, Feedback | None]:
    try:
        return layer(inputs), None
    except Exception as error:  # the learner's code: any error is the lesson
        return None, failed("checks.ch04.raised", policy=policy, error=type(error).__name__)


def _output_dtype(layer: Any, outputs: Any, policy: str) -> Feedback | None:
    import keras

    dtype = keras.backend.standardize_dtype(outputs.dtype)
    if dtype != layer.compute_dtype:
        return failed(
            "checks.ch04.output_dtype", policy=policy, dtype=dtype, compute=layer.compute_dtype
        )
    return None


def dense_layer(answer: Any) -> Feedback:
    """``answer(units)`` is a Dense-like layer: ``inputs @ kernel + bias`` under every policy."""
    if (problem := _layer_class(answer)) is not None:
        return problem
    import keras
    import numpy as np

    inputs = np.linspace(-1, 1, 6, dtype="float32").reshape(2, 3)
    for policy in POLICIES:
        layer = answer(4, dtype=policy)
        outputs, problem = _run(layer, inputs, policy)
        # Wrongly typed weights explain an error too, so they are reported first.
        stored = sorted({keras.backend.standardize_dtype(w.dtype) for w in layer.weights})
        if stored and stored != [layer.variable_dtype]:
            return failed(
                "checks.ch04.weights_dtype",
                policy=policy,
                stored=stored,
                right=layer.variable_dtype,
            )
        if problem is not None:
            return problem
        if (problem := _output_dtype(layer, outputs, policy)) is not None:
            return problem
        if tuple(outputs.shape) != (2, 4) or len(layer.weights) != 2:
            return failed("checks.ch04.dense_shape", shape=tuple(outputs.shape))
        kernel, bias = sorted(
            (np.asarray(w.numpy(), "float64") for w in layer.weights), key=np.ndim
        )[::-1]
        expected = inputs.astype("float64") @ kernel + bias
        got = np.asarray(keras.ops.convert_to_numpy(outputs), "float64")
        if not np.allclose(got, expected, rtol=2e-2, atol=2e-2):
            return failed("checks.ch04.dense_values", policy=policy)
    return passed("checks.ch04.dense_ok")


def rms_norm_layer(answer: Any) -> Feedback:
    """``answer()`` divides its inputs by their root mean square, without overflow in float16."""
    if (problem := _layer_class(answer)) is not None:
        return problem
    import keras
    import numpy as np

    inputs = np.full((2, 4), 300.0, dtype="float32")  # 300² = 90000 > 65504, float16's largest
    for policy in POLICIES:
        layer = answer(dtype=policy)
        outputs, problem = _run(layer, inputs, policy)
        if problem is not None:
            return problem
        if (problem := _output_dtype(layer, outputs, policy)) is not None:
            return problem
        got = np.asarray(keras.ops.convert_to_numpy(outputs), "float64")
        if not np.all(np.isfinite(got)) or not np.allclose(got, 1.0, atol=1e-2):
            return failed("checks.ch04.rms_overflow", policy=policy, value=float(got.flat[0]))
    return passed("checks.ch04.rms_ok")
