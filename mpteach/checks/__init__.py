"""Self-checks for the exercises: tell the learner what is wrong, not just ``False``.

Each chapter has a module here (``mpteach.checks.ch01`` ...) whose functions take the learner's
answer and return a :class:`Feedback`. Its text comes from the message catalogue, so it speaks
the notebook's language. An answer still left as ``...`` gets a reminder, not a verdict.

>>> from mpteach.checks import Feedback
>>> Feedback(True, "65504 is float16's largest finite value.")
✅ 65504 is float16's largest finite value.
>>> Feedback(False, "Try again.").passed
False
"""

from __future__ import annotations

import html
import numbers
from dataclasses import dataclass

from mpteach.i18n import t


@dataclass(frozen=True)
class Feedback:
    """The result of a self-check: whether it passed and a message for the learner."""

    passed: bool
    message: str

    def __bool__(self) -> bool:
        return self.passed

    def __repr__(self) -> str:
        return f"{'✅' if self.passed else '❌'} {self.message}"

    def _repr_html_(self) -> str:
        colour = "#1a7f37" if self.passed else "#b35900"
        mark = "✅" if self.passed else "❌"
        return f'<div style="color:{colour}">{mark} {html.escape(self.message)}</div>'


def passed(key: str, **values: object) -> Feedback:
    """A passing :class:`Feedback` with the catalogue message ``key``."""
    return Feedback(True, t(key, **values))


def failed(key: str, **values: object) -> Feedback:
    """A failing :class:`Feedback` with the catalogue message ``key``."""
    return Feedback(False, t(key, **values))


def unanswered(answer: object) -> Feedback | None:
    """A reminder if ``answer`` is still ``...`` (the placeholder the exercises start with)."""
    if answer is Ellipsis:
        return failed("checks.unanswered")
    return None


def number(answer: object) -> float | None:
    """``answer`` as a float if it is a real number (``True`` is not), else ``None``.

    >>> number(2**-8), number("0.5"), number(True)
    (0.00390625, None, None)
    """
    if isinstance(answer, bool) or not isinstance(answer, numbers.Real):
        return None
    return float(answer)


def not_a_number(answer: object) -> Feedback:
    """The feedback for an answer that should have been a number."""
    return failed("checks.need_number", actual=type(answer).__name__)


def __getattr__(name: str) -> object:
    """Chapter modules load on first use, so ``mp.checks.ch02.check(...)`` needs no import."""
    if name.startswith("ch") and name[2:].isdigit():
        import importlib

        try:
            return importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"{__name__}.{name}":
                raise
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
