"""Self-checks of chapter 09 (beyond 16 bits: float8, quantized policies, policy maps).

The verdicts are computed with the course's own tools: float8 facts from :mod:`mpteach.formats`
and policy lookups from :class:`mpteach.PolicyMap`, which follows ``keras.dtype_policies.DTypePolicyMap``.

>>> from mpteach.checks import ch09
>>> ch09.format_for_span("float8_e5m2")
✅ Right: float8_e5m2 covers 31.8 octaves (1.526e-05 to 5.734e+04), enough for the tensor's 23.3; one scale factor moves the tensor's range onto it.
>>> ch09.format_for_span("float8_e4m3fn").passed
False
>>> ch09.delayed_scale(2.0 / 448).passed
True
>>> ch09.policies_by_path(("mixed_float16", "float32", "mixed_bfloat16", "error")).passed
True
"""

from __future__ import annotations

import math
import re
from typing import Any

from mpteach import formats
from mpteach.checks import Feedback, failed, not_a_number, number, passed, unanswered
from mpteach.i18n import join, t
from mpteach.policy import PolicyMap

SPAN = (1e-6, 10.0)
"""Exercise 1: the smallest and the largest non-zero magnitude of a gradient tensor."""
FLOAT8 = ("float8_e4m3fn", "float8_e5m2")

AMAX_HISTORY = (0.5, 2.0, 1.2, 0.7)
"""Exercise 2: the amax history of a layer's inputs, oldest first."""
INPUTS_FORMAT = "float8_e4m3fn"

POLICY_MAP = {"head": "float32", "encoder/.*": "mixed_float16", ".*/norm": "float32"}
DEFAULT_POLICY = "mixed_bfloat16"
PATHS = ("encoder/dense", "decoder/norm", "head/dense", "encoder/norm")
"""Exercise 3: the policy each path gets from ``PolicyMap(DEFAULT_POLICY, POLICY_MAP)``."""


def octaves(fmt: str) -> float:
    """How many powers of two a format spans, from its smallest subnormal to its largest value.

    >>> round(octaves("float8_e4m3fn"), 1), round(octaves("float8_e5m2"), 1)
    (17.8, 31.8)
    """
    f = formats.float_format(fmt)
    return math.log2(f.max / f.smallest_subnormal)


def _format_name(answer: str) -> str:
    """'E5M2', 'e5m2' and 'float8_e5m2' all name float8_e5m2 (same for E4M3)."""
    name = answer.strip().lower()
    for full in FLOAT8:
        if name in (
            full,
            full.removeprefix("float8_"),
            full.removeprefix("float8_").removesuffix("fn"),
        ):
            return full
    return name


def format_for_span(answer: object) -> Feedback:
    """Exercise 1: the float8 format that holds every magnitude of :data:`SPAN` with one scale."""
    if (reminder := unanswered(answer)) is not None:
        return reminder
    if not isinstance(answer, str):
        return failed("checks.wrong_type", expected="str", actual=repr(answer))
    name = _format_name(answer)
    if name not in FLOAT8:
        choices = ", ".join(repr(n) for n in FLOAT8)
        return failed("checks.ch09.span_not_float8", answer=answer, choices=choices)
    need = math.log2(SPAN[1] / SPAN[0])
    f = formats.float_format(name)
    texts = {
        "fmt": name,
        "have": f"{octaves(name):.1f}",
        "need": f"{need:.1f}",
        "low": f"{f.smallest_subnormal:.4g}",
        "high": f"{f.max:.4g}",
    }
    if octaves(name) < need:
        # Scaled so that the largest value lands on max, the smallest is 2**need below it.
        smallest = f.max / 2**need
        return failed("checks.ch09.span_too_narrow", smallest=f"{smallest:.3g}", **texts)
    return passed("checks.ch09.span_ok", **texts)


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-3)


def delayed_scale(answer: object) -> Feedback:
    """Exercise 2: the scale Keras's delayed scaling gives the inputs after :data:`AMAX_HISTORY`."""
    if (reminder := unanswered(answer)) is not None:
        return reminder
    value = number(answer)
    if value is None:
        return not_a_number(answer)
    fmt_max = formats.float_format(INPUTS_FORMAT).max
    amax = max(AMAX_HISTORY)
    expected = amax / fmt_max
    texts = {"amax": f"{amax:g}", "max": f"{fmt_max:g}", "expected": f"{expected:.4g}"}
    if _close(value, expected):
        return passed("checks.ch09.scale_ok", **texts)
    if _close(value, fmt_max / amax):
        return failed("checks.ch09.scale_inverted", answer=f"{value:.4g}", **texts)
    if _close(value, AMAX_HISTORY[-1] / fmt_max):
        return failed("checks.ch09.scale_latest", latest=f"{AMAX_HISTORY[-1]:g}", **texts)
    e5m2_max = formats.float_format("float8_e5m2").max
    if _close(value, amax / e5m2_max):
        return failed("checks.ch09.scale_e5m2", e5m2=f"{e5m2_max:g}", **texts)
    return failed("checks.ch09.scale_wrong", answer=f"{value:.4g}", **texts)


def _lookup(policies: PolicyMap, path: str) -> str:
    try:
        return policies[path].name
    except ValueError:
        return "error"


def _why(path: str) -> str:
    """The keys that match ``path``, in the reader's language (empty when none does)."""
    if path in POLICY_MAP:
        return t("checks.ch09.exact_key", key=path)
    return join([repr(key) for key in POLICY_MAP if re.fullmatch(key, path)])


def policies_by_path(answer: Any) -> Feedback:
    """Exercise 3: a tuple with the policy name (or ``"error"``) of each path of :data:`PATHS`."""
    if (reminder := unanswered(answer)) is not None:
        return reminder
    if not isinstance(answer, tuple | list) or len(answer) != len(PATHS):
        return failed(
            "checks.wrong_type",
            expected=t("checks.ch09.tuple_of_names", count=len(PATHS)),
            actual=repr(answer),
        )
    policies = PolicyMap(DEFAULT_POLICY, POLICY_MAP)
    for path, given in zip(PATHS, answer, strict=True):
        name = getattr(given, "name", given)  # a Policy is fine too
        expected = _lookup(policies, path)
        if name == expected:
            continue
        texts = {"path": path, "answer": f"{name}", "why": _why(path), "default": DEFAULT_POLICY}
        if expected == "error":
            return failed("checks.ch09.path_two_keys", **texts)
        if expected == DEFAULT_POLICY:
            return failed("checks.ch09.path_default", **texts)
        return failed("checks.ch09.path_key", expected=expected, **texts)
    return passed("checks.ch09.paths_ok")
