"""Self-checks of chapter 01 (floating-point formats).

Every verdict is computed with :mod:`mpteach.formats` (NumPy/ml_dtypes casts), so the check and
the chapter can never disagree about a number.

>>> from mpteach.checks import ch01
>>> ch01.largest_float16(65504)
✅ Right: 65504 is the largest finite float16. From 65520 up, values round to inf.
>>> ch01.largest_float16(65535).passed
False
>>> ch01.formats_keeping_square(["float32", "bfloat16"]).passed
True
>>> ch01.smallest_update(2**-10).passed
True
"""

from __future__ import annotations

import math

from mpteach import formats
from mpteach.checks import Feedback, failed, not_a_number, number, passed, unanswered

SQUARE_FORMATS = ("float32", "bfloat16", "float16")
"""The formats exercise 2 asks about."""


def largest_float16(answer: object) -> Feedback:
    """Exercise 1: the largest finite float16 value."""
    if (reminder := unanswered(answer)) is not None:
        return reminder
    value = number(answer)
    if value is None:
        return not_a_number(answer)
    float16 = formats.float_format("float16")
    largest, threshold = float16.max, float16.overflow_threshold  # 65504; inf from 65520
    stored = float(formats.cast(value, "float16"))
    texts = {"largest": f"{largest:g}", "threshold": f"{threshold:g}"}
    if value == largest:
        return passed("checks.ch01.largest_ok", **texts)
    if math.isinf(stored):
        return failed("checks.ch01.largest_overflows", answer=f"{value:g}", **texts)
    if stored != value:
        return failed("checks.ch01.largest_not_stored", answer=f"{value:g}", stored=f"{stored:g}")
    return failed(
        "checks.ch01.largest_too_small",
        answer=f"{value:g}",
        above=f"{float(formats.next_up(value, 'float16')):g}",
    )


def formats_keeping_square(answer: object) -> Feedback:
    """Exercise 2: which of float32, bfloat16, float16 keep ``(1e-5)**2`` above zero."""
    if (reminder := unanswered(answer)) is not None:
        return reminder
    if isinstance(answer, str):
        answer = [answer]
    try:
        chosen = set(answer)
    except TypeError:
        return failed("checks.ch01.need_names", actual=type(answer).__name__)
    unknown = sorted(str(name) for name in chosen - set(SQUARE_FORMATS))
    if unknown:
        return failed(
            "checks.ch01.square_unknown",
            names=", ".join(unknown),
            choices=", ".join(SQUARE_FORMATS),
        )
    keep = {name for name in SQUARE_FORMATS if formats.square(1e-5, name) != 0}
    for name in SQUARE_FORMATS:  # a wrong pick first, then a missed one
        if name in chosen and name not in keep:
            tiny = formats.float_format(name).smallest_subnormal
            return failed("checks.ch01.square_flushed", fmt=name, tiny=f"{tiny:.3g}")
    for name in SQUARE_FORMATS:
        if name in keep and name not in chosen:
            result = formats.square(1e-5, name)
            return failed("checks.ch01.square_missed", fmt=name, result=f"{result:.3g}")
    return passed("checks.ch01.square_ok", kept=", ".join(sorted(keep)))


def smallest_update(answer: object) -> Feedback:
    """Exercise 3: the smallest power-of-two update that still changes a float16 weight of 1.0."""
    if (reminder := unanswered(answer)) is not None:
        return reminder
    value = number(answer)
    if value is None:
        return not_a_number(answer)
    if value <= 0 or math.frexp(value)[0] != 0.5:  # powers of two have mantissa exactly 0.5
        return failed("checks.ch01.update_not_power", answer=f"{value:g}")
    step = weight_update_changes(value)
    if not step:
        return failed("checks.ch01.update_lost", answer=f"2**{_log2(value)}")
    if weight_update_changes(value / 2):
        return failed(
            "checks.ch01.update_too_big", answer=f"2**{_log2(value)}", half=f"2**{_log2(value / 2)}"
        )
    return passed(
        "checks.ch01.update_ok", answer=f"2**{_log2(value)}", lost=f"2**{_log2(value / 2)}"
    )


def weight_update_changes(update: float) -> bool:
    """Whether ``1.0 + update`` in float16 differs from 1.0."""
    return not formats.weight_update(1.0, update, "float16").lost


def _log2(value: float) -> int:
    return math.frexp(value)[1] - 1
