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
    extra = casts_or_policy_lookups(answer)
    if extra is None:
        return passed("checks.ch04.dense_ok_plain")
    return passed("checks.ch04.dense_ok_with_casts" if extra else "checks.ch04.dense_ok")


LOOKUPS = {"cast", "compute_dtype", "variable_dtype", "dtype_policy", "global_policy"}
"""Names whose use in ``call`` is a cast or a policy lookup that autocasting makes unneeded."""


def casts_or_policy_lookups(layer_class: type) -> bool | None:
    """Whether the ``call`` that ``layer_class`` defines casts or looks up a policy, read from its
    source (``None`` when it defines none or its source cannot be read).

    >>> import keras
    >>> class Plain(keras.layers.Layer):
    ...     def call(self, x):
    ...         return x * 2
    >>> class Casting(Plain):
    ...     def call(self, x):
    ...         return keras.ops.cast(x, self.compute_dtype) * 2
    >>> class Inherits(Plain):  # defines no call of its own
    ...     pass
    >>> casts_or_policy_lookups(Plain), casts_or_policy_lookups(Casting), casts_or_policy_lookups(Inherits)
    (False, True, None)
    """
    import ast
    import inspect
    import textwrap

    call = vars(layer_class).get("call")
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(call)))
    except (OSError, TypeError, SyntaxError):
        return None
    names = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    names |= {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    return bool(names & LOOKUPS)


def rms_norm_layer(answer: Any) -> Feedback:
    """``answer()`` divides its inputs by their root mean square, without overflow in float16."""
    if (problem := _layer_class(answer)) is not None:
        return problem
    import keras
    import numpy as np

    # Row 1 overflows float16 when squared (300² = 90000 > 65504) and must give 1 everywhere;
    # row 2 tells a root mean square from other ways to make row 1 equal to 1 (x / max|x|, ...).
    inputs = np.array([[300.0, 300.0, 300.0, 300.0], [1.0, -2.0, 3.0, -4.0]], dtype="float32")
    wide = inputs.astype("float64")
    expected = wide / np.sqrt(np.mean(wide**2, axis=-1, keepdims=True))
    for policy in POLICIES:
        layer = answer(dtype=policy)
        outputs, problem = _run(layer, inputs, policy)
        if problem is not None:
            return problem
        if (problem := _output_dtype(layer, outputs, policy)) is not None:
            return problem
        got = np.asarray(keras.ops.convert_to_numpy(outputs), "float64")
        if got.shape != inputs.shape:
            return failed("checks.ch04.rms_shape", shape=tuple(got.shape))
        if not np.all(np.isfinite(got[0])) or not np.allclose(got[0], 1.0, atol=1e-2):
            return failed("checks.ch04.rms_overflow", policy=policy, value=float(got[0, 0]))
        if not np.allclose(got[1], expected[1], rtol=2e-2, atol=1e-2):
            rounded = [np.round(row, 3).tolist() for row in (got[1], expected[1])]
            return failed(
                "checks.ch04.rms_values", policy=policy, got=rounded[0], expected=rounded[1]
            )
    return passed("checks.ch04.rms_ok")
