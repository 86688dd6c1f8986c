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


def dtype_name(value: object) -> object:
    """A dtype's name from ``"float32"``, ``np.float32``, ``np.dtype(...)`` or ``tf.float32``;
    anything else unchanged.

    >>> import numpy as np
    >>> [dtype_name(a) for a in ("float32", np.float32, np.dtype("float16"), 3)]
    ['float32', 'float32', 'float16', 3]
    """
    import numpy as np

    name = getattr(value, "name", None)  # tf.float32, np.dtype
    if isinstance(name, str):
        return name
    if isinstance(value, type):  # np.float32, whose .name is no string
        try:
            return np.dtype(value).name
        except TypeError:
            return value
    return value


LOGITS = ((-2.0, -0.5, 0.0, 1.0, 3.0), (4.0, 1.0, -1.0, 0.5, 2.0))
"""The logits :func:`softmax_behaviour` feeds a layer: two rows, no two values alike."""


def softmax_behaviour(layer: object) -> str:
    """What ``layer`` computes, judged by its output on :data:`LOGITS`, not by its class.

    ``"softmax"``: the softmax of its inputs, with no weights of its own (``Activation("softmax")``,
    ``Softmax()``, ``Activation(keras.ops.softmax)``); ``"distribution"``: rows of probabilities
    that are not the softmax of its inputs (a ``Dense`` with a softmax activation); ``"other"``;
    ``"error"`` when calling it raises.

    >>> import keras
    >>> softmax_behaviour(keras.layers.Softmax(dtype="float32"))
    'softmax'
    >>> softmax_behaviour(keras.layers.Dense(5, activation="softmax"))
    'distribution'
    >>> softmax_behaviour(keras.layers.Activation("relu"))
    'other'
    """
    import keras
    import numpy as np

    logits = np.array(LOGITS, dtype="float32")
    try:
        outputs = np.asarray(keras.ops.convert_to_numpy(layer(logits)), dtype="float64")
    except Exception:  # the learner's layer: any error means it is not the layer asked for
        return "error"
    exact = np.exp(logits - logits.max(axis=-1, keepdims=True))
    exact = exact / exact.sum(axis=-1, keepdims=True)
    if outputs.ndim != 2 or not np.all(np.isfinite(outputs)):
        return "other"
    # float16 keeps about 3 significant digits, bfloat16 about 2: a tolerance that fits both
    same = outputs.shape == exact.shape and np.allclose(outputs, exact, rtol=2e-2, atol=2e-3)
    if same and not layer.weights:
        return "softmax"
    rows_of_probabilities = np.all(outputs >= 0) and np.allclose(outputs.sum(axis=-1), 1, atol=2e-2)
    return "distribution" if rows_of_probabilities else "other"


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
