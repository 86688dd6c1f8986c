"""Self-checks of chapter 02 (dtype policies).

>>> from mpteach.checks import ch02
>>> ch02.policy_dtypes({"float16": ("float16", "float16"),
...                     "mixed_float16": ("float16", "float32"),
...                     "mixed_bfloat16": ("bfloat16", "float32")})
✅ Right: only the "mixed_" policies keep their variables in float32.
>>> ch02.policy_dtypes(...)
❌ Replace the ... with your answer, then run the cell again.
"""

from __future__ import annotations

from typing import Any

from mpteach.checks import Feedback, dtype_name, failed, passed, softmax_behaviour, unanswered
from mpteach.policy import Policy

POLICIES = ("float16", "mixed_float16", "mixed_bfloat16")


def policy_dtypes(answer: Any) -> Feedback:
    """``answer`` maps each policy name of :data:`POLICIES` to ``(compute_dtype, variable_dtype)``."""
    if (reminder := unanswered(answer)) is not None:
        return reminder
    if not isinstance(answer, dict):
        return failed("checks.wrong_type", expected="dict", actual=type(answer).__name__)
    for name in POLICIES:
        if name not in answer:
            return failed("checks.ch02.policy_missing", name=name)
        pair = answer[name]
        if not isinstance(pair, tuple | list) or len(pair) != 2:
            return failed("checks.ch02.policy_not_pair", name=name, value=pair)
        compute, variable = (dtype_name(d) for d in pair)
        policy = Policy(name)
        mixed = policy.compute_dtype != policy.variable_dtype
        if mixed and (variable, compute) == (policy.compute_dtype, policy.variable_dtype):
            return failed("checks.ch02.policy_swapped", name=name)
        if compute != policy.compute_dtype:
            return failed("checks.ch02.policy_compute", name=name, answer=compute)
        if variable != policy.variable_dtype:
            key = (
                "checks.ch02.policy_variable_mixed"
                if name.startswith("mixed_")
                else "checks.ch02.policy_variable_pure"
            )
            return failed(key, name=name, answer=variable)
    return passed("checks.ch02.policy_dtypes_ok")


def float32_layer(answer: Any) -> Feedback:
    """``answer`` is a Keras layer that computes in float32 while the global policy is mixed."""
    if (reminder := unanswered(answer)) is not None:
        return reminder
    if isinstance(answer, type):
        return failed("checks.ch02.layer_is_class", name=answer.__name__)
    policy = getattr(answer, "dtype_policy", None)
    if policy is None or not hasattr(policy, "compute_dtype"):
        return failed(
            "checks.wrong_type", expected="keras.layers.Layer", actual=type(answer).__name__
        )
    compute, variable = policy.compute_dtype, policy.variable_dtype
    if softmax_behaviour(answer) != "softmax":  # the task asks for the classifier's softmax
        return failed("checks.not_softmax", layer=type(answer).__name__)
    if compute == "float32" and variable == "float32":
        return passed("checks.ch02.float32_layer_ok")
    if compute in ("float16", "bfloat16") and variable == "float32":
        return failed("checks.ch02.float32_layer_mixed", name=policy.name)
    return failed("checks.ch02.float32_layer_other", name=policy.name, compute=compute)


def modern_global_policy(answer: Any) -> Feedback:
    """``answer`` is ``keras.config.dtype_policy()`` after setting mixed_float16 the modern way."""
    if (reminder := unanswered(answer)) is not None:
        return reminder
    if isinstance(answer, str):
        return failed("checks.ch02.global_is_name", answer=answer)
    if isinstance(answer, Policy):
        return failed("checks.ch02.global_is_mpteach")
    name = getattr(answer, "name", None)
    if not isinstance(name, str) or not hasattr(answer, "compute_dtype"):
        return failed(
            "checks.wrong_type", expected="keras.DTypePolicy", actual=type(answer).__name__
        )
    import keras

    current = keras.config.dtype_policy().name
    if name != current:  # a policy made, but never set as the global one
        return failed("checks.ch02.global_not_set", name=name, current=current)
    if name == "mixed_float16":
        return passed("checks.ch02.global_ok")
    if name == "float16":
        return failed("checks.ch02.global_pure_float16")
    return failed("checks.ch02.global_other", name=name)
