"""Self-checks of chapter 05 (a first mixed-precision model).

The verdicts ask Keras itself: the layer's own dtype policy, and what ``Model.compile`` does
under each global policy.

>>> import keras
>>> from mpteach.checks import ch05
>>> ch05.float32_output(keras.layers.Activation("softmax", dtype="float32")).passed
True
>>> ch05.compile_wraps({"mixed_float16": True, "mixed_bfloat16": False, "float32": False}).passed
True
"""

from __future__ import annotations

from typing import Any

from mpteach.checks import Feedback, failed, passed, softmax_behaviour, unanswered

POLICIES = ("mixed_float16", "mixed_bfloat16", "float32")
"""The global policies exercise 2 asks about."""


def float32_output(answer: Any) -> Feedback:
    """Exercise 1: a last layer that computes the softmax, and only the softmax, in float32.

    What the layer computes is asked of the layer itself (:func:`softmax_behaviour`), so that
    ``Softmax(dtype="float32")`` and ``Activation(keras.ops.softmax, dtype="float32")`` pass too.
    """
    import keras

    if (reminder := unanswered(answer)) is not None:
        return reminder
    if not isinstance(answer, keras.layers.Layer):
        return failed("checks.ch05.need_layer", actual=type(answer).__name__)
    policy = answer.dtype_policy
    behaviour = softmax_behaviour(answer)
    if behaviour in ("other", "error"):
        return failed("checks.not_softmax", layer=type(answer).__name__)
    if policy.compute_dtype != "float32":
        return failed("checks.ch05.not_float32", policy=policy.name, dtype=policy.compute_dtype)
    if behaviour == "distribution":  # a softmax activation on a layer with weights
        return failed("checks.ch05.whole_layer_float32", layer=type(answer).__name__)
    return passed("checks.ch05.output_ok")


def wrapped_by_compile(policy: str) -> bool:
    """Whether ``Model.compile`` wraps the optimizer in a ``LossScaleOptimizer`` when a model is
    built under the global ``policy`` (asked of Keras; the global policy is restored)."""
    import keras

    before = keras.config.dtype_policy()
    try:
        keras.config.set_dtype_policy(policy)
        model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
        model.compile(optimizer=keras.optimizers.SGD(), loss="mse")
    finally:
        keras.config.set_dtype_policy(before)
    return isinstance(model.optimizer, keras.optimizers.LossScaleOptimizer)


def compile_wraps(answer: Any) -> Feedback:
    """Exercise 2: for each policy of :data:`POLICIES`, does ``compile`` add loss scaling?"""
    if (reminder := unanswered(answer)) is not None:
        return reminder
    if not isinstance(answer, dict):
        return failed("checks.ch05.need_dict", actual=type(answer).__name__)
    if Ellipsis in answer.values():
        return unanswered(...)
    for policy in POLICIES:
        if policy not in answer:
            return failed("checks.ch05.policy_missing", policy=policy)
        if not isinstance(answer[policy], bool):
            return failed("checks.ch05.need_bool", policy=policy, answer=repr(answer[policy]))
        wrapped = wrapped_by_compile(policy)
        if answer[policy] != wrapped:
            if wrapped:
                return failed("checks.ch05.wraps_missed", policy=policy)
            key = "bfloat16" if "bfloat16" in policy else "float32"
            return failed(f"checks.ch05.no_wrap_{key}", policy=policy)
    return passed("checks.ch05.wraps_ok")
