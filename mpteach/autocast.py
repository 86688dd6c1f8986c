"""Autocast variables: stored in float32, read in float16 (or bfloat16) inside a layer's ``call``.

An :class:`AutoCastVariable` wraps a floating-point ``tf.Variable``. Outside an
:class:`autocast_scope` it behaves exactly like the variable. Inside ``autocast_scope('float16')``
every *read* is cast to float16 (``value()``, ``read_value()``, operators, ``tf.convert_to_tensor``,
any TensorFlow op), while every *write* (``assign``, ``assign_add``, ``assign_sub``) goes to the
float32 storage at full precision. A layer enters the scope around ``call``, so its math runs in
16 bits and its weights keep 32.

This is Keras 2's design (``tf_keras/mixed_precision/autocast_variable.py``: a wrapper made when the
layer creates the weight). Keras 3 gets the same reads from a flag on every ``keras.Variable``
instead (``autocast=True``) and a private ``AutocastScope``.

>>> import tensorflow as tf
>>> v = AutoCastVariable(tf.Variable(1.0))
>>> with autocast_scope("float16"):
...     (v + 1).dtype, v.dtype, v.true_dtype
(tf.float16, tf.float16, tf.float32)
>>> (v + 1).dtype
tf.float32
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import tensorflow as tf

# The dtype that AutoCastVariables are read as in this thread, or None (no casting).
_scope = threading.local()


def _autocast_dtype() -> tf.DType | None:
    return getattr(_scope, "dtype", None)


class autocast_scope:  # noqa: N801 - used like a function: ``with autocast_scope("float16"):``
    """Inside ``with autocast_scope(dtype):`` autocast variables are read as ``dtype``.

    ``dtype`` is a floating-point dtype (``'float16'``, ``'bfloat16'``, ``tf.float16``, ...) or
    ``None``, which turns casting off inside the block. Scopes nest; each restores the previous one.

    >>> with autocast_scope("int32"):
    ...     pass
    Traceback (most recent call last):
    ...
    ValueError: autocast_scope needs a floating-point dtype such as 'float16' or 'bfloat16', or None; got dtype='int32'.
    """

    def __init__(self, dtype: Any) -> None:
        self.dtype = None if dtype is None else _floating_dtype(dtype)

    def __enter__(self) -> autocast_scope:
        self._previous = _autocast_dtype()
        _scope.dtype = self.dtype
        return self

    def __exit__(self, *exc_info: object) -> None:
        _scope.dtype = self._previous


def _floating_dtype(dtype: Any) -> tf.DType:
    try:
        as_dtype = tf.as_dtype(dtype)
    except TypeError:
        as_dtype = None
    if as_dtype is None or not as_dtype.is_floating:
        raise ValueError(
            "autocast_scope needs a floating-point dtype such as 'float16' or 'bfloat16', "
            f"or None; got dtype={dtype!r}."
        )
    return as_dtype


class AutoCastVariable(tf.Variable):
    """A float variable that reads as the :class:`autocast_scope` dtype; writes keep its own dtype.

    ``true_dtype`` is the storage dtype. ``dtype`` is the dtype a read gives *now* (the scope's
    inside a scope, as Keras 3's ``Variable.dtype`` reports). Everything else is delegated to the
    wrapped variable, so ``tf.GradientTape``, Keras optimizers, ``tf.function`` and
    ``tf.train.Checkpoint`` see an ordinary variable.

    >>> import tensorflow as tf
    >>> v = AutoCastVariable(tf.Variable(1.0))
    >>> with autocast_scope("float16"):
    ...     _ = v.assign(70000.0)  # more than float16's largest number, 65504
    ...     v.numpy()
    np.float16(inf)
    >>> v.numpy()  # the float32 storage kept it
    np.float32(70000.0)
    """

    def __init__(self, variable: tf.Variable) -> None:
        if not isinstance(variable, tf.Variable) or isinstance(variable, AutoCastVariable):
            raise TypeError(
                "variable must be a tf.Variable (not an AutoCastVariable); got a "
                f"{type(variable).__name__}."
            )
        if not variable.dtype.is_floating:
            raise ValueError(
                "variable must be a floating-point tf.Variable (float16, bfloat16, float32 or "
                f"float64); got variable of dtype {variable.dtype.name}."
            )
        self._variable = variable

    # ---- reads: cast inside a scope -------------------------------------------------------
    def _read_dtype(self) -> tf.DType:
        return _autocast_dtype() or self._variable.dtype

    def _cast(self, value: tf.Tensor) -> tf.Tensor:
        dtype = self._read_dtype()
        return value if value.dtype == dtype else tf.cast(value, dtype)

    @property
    def dtype(self) -> tf.DType:
        return self._read_dtype()

    @property
    def true_dtype(self) -> tf.DType:
        return self._variable.dtype

    def value(self) -> tf.Tensor:
        # tf.Variable's operators (+, *, @, [], ...) all read through value().
        return self._cast(self._variable.value())

    def read_value(self) -> tf.Tensor:
        return self._cast(self._variable.read_value())

    def sparse_read(self, indices: Any, name: str | None = None) -> tf.Tensor:
        return self._cast(self._variable.sparse_read(indices, name=name))

    def gather_nd(self, indices: Any, name: str | None = None) -> tf.Tensor:
        return self._cast(self._variable.gather_nd(indices, name=name))

    def numpy(self) -> Any:
        return self.read_value().numpy()

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        return np.asarray(self.numpy(), dtype=dtype)

    def _dense_var_to_tensor(self, dtype=None, name=None, as_ref=False):
        # tf.convert_to_tensor(v) and every op that takes v as an input come here.
        if as_ref:
            raise ValueError("An AutoCastVariable cannot be converted to a reference tensor.")
        value = self.value()
        if dtype is not None and not tf.as_dtype(dtype).is_compatible_with(value.dtype):
            raise ValueError(
                f"Cannot convert an AutoCastVariable read as {value.dtype.name} to dtype "
                f"{tf.as_dtype(dtype).name}."
            )
        return value

    def __tf_tensor__(self, dtype=None, name=None):
        return self._dense_var_to_tensor(dtype=dtype, name=name)

    # ---- writes: always in the true dtype -------------------------------------------------
    def assign(self, value, use_locking=False, name=None, read_value=True):
        return self._update(self._variable.assign, value, use_locking, name, read_value)

    def assign_add(self, delta, use_locking=False, name=None, read_value=True):
        return self._update(self._variable.assign_add, delta, use_locking, name, read_value)

    def assign_sub(self, delta, use_locking=False, name=None, read_value=True):
        return self._update(self._variable.assign_sub, delta, use_locking, name, read_value)

    def _update(self, update, value, use_locking, name, read_value):
        # Widen a value read inside a scope (float16) to the storage dtype; Python numbers are
        # converted straight to it, so a float64 variable gets all 53 bits of 0.1.
        value = tf.cast(tf.convert_to_tensor(value, dtype_hint=self.true_dtype), self.true_dtype)
        op = update(value, use_locking=use_locking, name=name, read_value=False)
        return self if read_value else op

    def scatter_update(self, sparse_delta, use_locking=False, name=None):
        self._variable.scatter_update(sparse_delta, use_locking=use_locking, name=name)
        return self

    def scatter_add(self, sparse_delta, use_locking=False, name=None):
        self._variable.scatter_add(sparse_delta, use_locking=use_locking, name=name)
        return self

    def scatter_sub(self, sparse_delta, use_locking=False, name=None):
        self._variable.scatter_sub(sparse_delta, use_locking=use_locking, name=name)
        return self

    # ---- everything else is the wrapped variable's ----------------------------------------
    def __getattr__(self, name: str) -> Any:
        if name == "_variable":  # not set yet: avoid endless recursion
            raise AttributeError(name)
        return getattr(self._variable, name)

    # tf.Variable declares these abstract, so __getattr__ would never be asked for them.
    name = property(lambda self: self._variable.name)
    shape = property(lambda self: self._variable.shape)
    trainable = property(lambda self: self._variable.trainable)
    synchronization = property(lambda self: self._variable.synchronization)
    aggregation = property(lambda self: self._variable.aggregation)
    constraint = property(lambda self: self._variable.constraint)
    initializer = property(lambda self: self._variable.initializer)
    initial_value = property(lambda self: self._variable.initial_value)
    device = property(lambda self: self._variable.device)
    graph = property(lambda self: self._variable.graph)
    op = property(lambda self: self._variable.op)

    def get_shape(self) -> tf.TensorShape:
        return self._variable.get_shape()

    def set_shape(self, shape: Any) -> None:
        self._variable.set_shape(shape)

    def _should_act_as_resource_variable(self) -> None:
        """Makes ``resource_variable_ops.is_resource_variable(v)`` true (tapes, optimizers)."""

    def __tf_tracing_type__(self, context: Any) -> tf.types.experimental.TraceType:
        # Passed to a tf.function, the argument stays this wrapper (the wrapped variable would
        # not autocast).
        return _TracedAs(self)

    def _gather_saveables_for_checkpoint(self):
        # A checkpoint of an AutoCastVariable is the checkpoint of the plain variable.
        return self._variable._gather_saveables_for_checkpoint()

    def __repr__(self) -> str:
        text = (
            f"<AutoCastVariable '{self.name}' shape={self.shape} dtype={self.true_dtype.name} "
            f"dtype_to_cast_to={self._read_dtype().name}"
        )
        if tf.executing_eagerly():
            text += f", numpy={self.read_value().numpy()!r}"
        return text + ">"


class _TracedAs(tf.types.experimental.TraceType):
    """tf.function's view of an AutoCastVariable argument: that very object (one trace each)."""

    def __init__(self, variable: AutoCastVariable) -> None:
        self._variable = variable

    def is_subtype_of(self, other: Any) -> bool:
        return self == other

    def most_specific_common_supertype(self, others: Any) -> Any:
        return self if all(self == other for other in others) else None

    def placeholder_value(self, placeholder_context: Any = None) -> AutoCastVariable:
        return self._variable

    def cast(self, value: Any, cast_context: Any) -> Any:
        return value

    def to_tensors(self, value: Any) -> list:
        return []  # read inside the function body, which captures the variable

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _TracedAs) and other._variable is self._variable

    def __hash__(self) -> int:
        return id(self._variable)


tf.register_tensor_conversion_function(AutoCastVariable, AutoCastVariable._dense_var_to_tensor)
