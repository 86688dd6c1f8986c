"""Self-checks of chapter 08 (performance): sizes that suit the hardware's matrix units.

>>> from mpteach.checks import ch08
>>> ch08.pad_for_tensor_cores(33280).passed, ch08.pad_for_tpu(1024).passed
(True, True)
>>> ch08.pad_for_tensor_cores(33278).passed
False
"""

from __future__ import annotations

import numbers
from typing import Any

from mpteach.checks import Feedback, failed, passed, unanswered

VOCABULARY = 33_278
"""Exercise 1: the output size (a vocabulary) to pad for Tensor Cores."""
TENSOR_CORE_MULTIPLE = 8
"""Tensor Cores want matrix dimensions that are multiples of 8 (float16)."""
UNITS = 1000
"""Exercise 2: the layer width to pad for a TPU."""
TPU_MULTIPLE = 128
"""TPUs want dimensions that are multiples of 128."""


def _padded(answer: Any, size: int, multiple: int, prefix: str) -> Feedback:
    if (reminder := unanswered(answer)) is not None:
        return reminder
    if isinstance(answer, bool) or not isinstance(answer, numbers.Integral):
        return failed("checks.ch08.need_int", actual=type(answer).__name__)
    best = -(-size // multiple) * multiple  # the smallest multiple >= size
    texts = {"answer": answer, "size": size, "multiple": multiple, "best": best}
    if answer < size:
        return failed("checks.ch08.too_small", **texts)
    if answer % multiple:
        return failed("checks.ch08.not_multiple", remainder=answer % multiple, **texts)
    if answer > best:
        return failed("checks.ch08.too_big", waste=answer - size, **texts)
    return passed(f"checks.ch08.{prefix}_ok", **texts)


def pad_for_tensor_cores(answer: Any) -> Feedback:
    """Exercise 1: the smallest output size >= :data:`VOCABULARY` that suits Tensor Cores."""
    return _padded(answer, VOCABULARY, TENSOR_CORE_MULTIPLE, "tensor_cores")


def pad_for_tpu(answer: Any) -> Feedback:
    """Exercise 2: the smallest layer width >= :data:`UNITS` that suits a TPU."""
    return _padded(answer, UNITS, TPU_MULTIPLE, "tpu")
