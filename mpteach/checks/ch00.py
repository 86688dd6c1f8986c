"""Self-checks of chapter 00 (start here).

Verdicts come from the package itself (:class:`mpteach.Policy`, :mod:`mpteach.hardware`), so a
check and the chapter can never disagree.

>>> from mpteach.checks import ch00
>>> ch00.variable_dtype("float32").passed, ch00.variable_dtype("float16").passed
(True, False)
>>> ch00.policy_for_hardware({"T4": "mixed_float16", "P100": "float32",
...                           "TPU": "mixed_bfloat16", "plain CPU": "float32"}).passed
True
>>> ch00.activation_megabytes(100).passed
True
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from mpteach import hardware, i18n
from mpteach.checks import Feedback, dtype_name, failed, passed, unanswered
from mpteach.policy import POLICY_NAMES, Policy

MIXED = "mixed_float16"
"""The policy exercise 1 asks about."""

EXAMPLE_HARDWARE = {
    "T4": hardware.HardwareInfo(gpus=(hardware.GPUInfo("Tesla T4", (7, 5)),)),
    "P100": hardware.HardwareInfo(gpus=(hardware.GPUInfo("Tesla P100", (6, 0)),)),
    "TPU": hardware.HardwareInfo(tpu=True),
    "plain CPU": hardware.HardwareInfo("CPU without AMX-BF16 or AVX512-BF16"),
}
"""The machines exercise 2 asks about: a name the learner types, and what the machine has."""

ACTIVATIONS = 50_000_000
"""Exercise 3: this many activation values, stored in float16 instead of float32."""


def variable_dtype(answer: Any) -> Feedback:
    """Exercise 1: the dtype of a layer's variables under ``mixed_float16``."""
    if (reminder := unanswered(answer)) is not None:
        return reminder
    name = dtype_name(answer)
    policy = Policy(MIXED)
    if name == policy.variable_dtype:
        return passed("checks.ch00.variable_ok", policy=MIXED, dtype=policy.variable_dtype)
    if name == policy.compute_dtype:
        return failed("checks.ch00.variable_is_compute", policy=MIXED, dtype=policy.compute_dtype)
    return failed("checks.ch00.variable_other", answer=str(name), policy=MIXED)


def policy_for_hardware(answer: Any) -> Feedback:
    """Exercise 2: the best policy for each machine of :data:`EXAMPLE_HARDWARE`."""
    if (reminder := unanswered(answer)) is not None:
        return reminder
    if not isinstance(answer, dict):
        return failed("checks.ch00.need_dict", actual=type(answer).__name__)
    if Ellipsis in answer.values():  # the exercise starts as {"T4": ..., ...}
        return unanswered(...)
    for machine, info in EXAMPLE_HARDWARE.items():
        if machine not in answer:
            return failed("checks.ch00.machine_missing", machine=machine)
        chosen = answer[machine]
        if chosen not in POLICY_NAMES:
            choices = ", ".join(repr(n) for n in POLICY_NAMES)
            return failed(
                "checks.ch00.policy_unknown", machine=machine, answer=chosen, choices=choices
            )
        best = hardware.best_policy(info)
        if chosen != best:
            return failed(
                "checks.ch00.policy_wrong",
                machine=machine,
                answer=chosen,
                why=hardware.verdict(info),
            )
    return passed("checks.ch00.policy_ok")


def activation_megabytes(answer: Any) -> Feedback:
    """Exercise 3: megabytes (10**6 bytes) taken by :data:`ACTIVATIONS` float16 values."""
    if (reminder := unanswered(answer)) is not None:
        return reminder
    if isinstance(answer, bool) or not isinstance(answer, numbers.Real):
        return failed("checks.ch00.need_number", actual=type(answer).__name__)
    megabytes = {d: ACTIVATIONS * np.dtype(d).itemsize / 1e6 for d in ("float16", "float32")}
    if answer == megabytes["float16"]:
        texts = {"mb": f"{megabytes['float16']:g}", "mb32": f"{megabytes['float32']:g}"}
        return passed("checks.ch00.memory_ok", **texts)
    if answer == megabytes["float32"]:
        return failed("checks.ch00.memory_float32", mb=f"{megabytes['float32']:g}")
    return failed("checks.ch00.memory_wrong", answer=f"{answer:g}", count=i18n.number(ACTIVATIONS))
