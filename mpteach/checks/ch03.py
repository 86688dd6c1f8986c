"""Self-checks of chapter 03 (autocasting).

>>> from mpteach.checks import ch03
>>> ch03.read_dtypes(("bfloat16", "float32"))
✅ Right: inside call the float32 kernel is read as bfloat16; outside it is float32 again.
>>> ch03.read_dtypes(("float32", "bfloat16")).passed
False
"""

from __future__ import annotations

from typing import Any

from mpteach.checks import Feedback, dtype_name, failed, passed, unanswered

NOISE_STDDEV = 0.1
"""The standard deviation exercise 3 asks for."""
NOISE_POLICIES = ("mixed_float16", "mixed_bfloat16", "float64")


def _pair(answer: Any) -> tuple[Any, Any] | None:
    if isinstance(answer, tuple | list) and len(answer) == 2:
        return dtype_name(answer[0]), dtype_name(answer[1])
    return None


def read_dtypes(answer: Any) -> Feedback:
    """``answer`` is ``(inside, outside)``: the dtype of a ``mixed_bfloat16`` kernel read in and out of ``call``."""
    if (reminder := unanswered(answer)) is not None:
        return reminder
    pair = _pair(answer)
    if pair is None:
        return failed("checks.ch03.not_pair", value=answer)
    inside, outside = pair
    if (inside, outside) == ("bfloat16", "float32"):
        return passed("checks.ch03.read_ok")
    if (inside, outside) == ("float32", "bfloat16"):
        return failed("checks.ch03.read_swapped")
    if inside != "bfloat16":
        return failed("checks.ch03.read_inside", answer=inside)
    return failed("checks.ch03.read_outside", answer=outside)


def cast_arguments(answer: Any) -> Feedback:
    """``answer`` maps ``"keras2"`` and ``"keras3"`` to the output dtypes of ``MyLayer(dtype="float64")(a, b)``."""
    if (reminder := unanswered(answer)) is not None:
        return reminder
    if not isinstance(answer, dict):
        return failed("checks.wrong_type", expected="dict", actual=type(answer).__name__)
    right = {"keras2": ("float64", "float32"), "keras3": ("float64", "float64")}
    for version, expected in right.items():
        if version not in answer:
            return failed("checks.ch03.version_missing", version=version)
        pair = _pair(answer[version])
        if pair is None:
            return failed("checks.ch03.not_pair", value=answer[version])
        if pair != expected:
            return failed(f"checks.ch03.cast_{version}", answer=pair)
    return passed("checks.ch03.cast_ok")


def noise_layer(answer: Any) -> Feedback:
    """``answer`` is a Keras layer class that adds Gaussian noise and works under every policy."""
    if (reminder := unanswered(answer)) is not None:
        return reminder
    import keras
    import numpy as np

    if not (isinstance(answer, type) and issubclass(answer, keras.layers.Layer)):
        return failed("checks.ch03.noise_not_class", actual=type(answer).__name__)
    inputs = np.ones((200, 50), dtype="float32")  # 10 000 draws: the spread is measured
    for policy in NOISE_POLICIES:
        layer = answer(dtype=policy)
        try:  # in training, as fit calls it: keras.layers.GaussianNoise adds noise only then
            outputs = layer(inputs, training=True)
        except Exception as error:  # the learner's code: any error is the lesson
            return failed("checks.ch03.noise_error", policy=policy, error=type(error).__name__)
        dtype = keras.backend.standardize_dtype(outputs.dtype)
        if dtype != layer.compute_dtype:
            return failed(
                "checks.ch03.noise_dtype", policy=policy, dtype=dtype, compute=layer.compute_dtype
            )
        noise = keras.ops.convert_to_numpy(outputs).astype("float64") - inputs
        if not np.any(noise):
            return failed("checks.ch03.noise_none", policy=policy)
        spread = float(np.std(noise))
        if not NOISE_STDDEV * 0.9 <= spread <= NOISE_STDDEV * 1.1:
            return failed("checks.ch03.noise_stddev", policy=policy, std=f"{spread:.3g}")
    return passed("checks.ch03.noise_ok")
