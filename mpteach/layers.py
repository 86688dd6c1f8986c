"""Layers that follow a dtype policy: what ``keras.layers.Layer`` does for mixed precision, in a page.

A :class:`Layer` has a policy (its ``dtype`` argument, else the global policy). Three things make
it mixed precision:

1. ``add_weight`` creates variables in ``variable_dtype`` and, when that differs from
   ``compute_dtype``, wraps them in an :class:`~mpteach.autocast.AutoCastVariable`;
2. ``__call__`` casts floating-point inputs to ``compute_dtype``;
3. ``__call__`` runs ``call`` inside ``autocast_scope(compute_dtype)``, so the weights are read
   in the compute dtype there, and only there.

Which inputs are cast is the one thing Keras changed: Keras 3 casts every floating-point tensor
in the arguments (``cast_inputs="all"``, the default); Keras 2 cast only the first argument
(``cast_inputs="first"``).

>>> import tensorflow as tf
>>> dense = Dense(2, dtype="mixed_float16")
>>> y = dense(tf.ones((1, 3)))
>>> y.dtype, dense.kernel.dtype
(tf.float16, tf.float32)
"""

from __future__ import annotations

from typing import Any

import keras
import numpy as np
import tensorflow as tf

from mpteach import policy as policies
from mpteach.autocast import AutoCastVariable, autocast_scope

CAST_INPUTS = ("all", "first")


class Layer(tf.Module):
    """Base class: subclasses define ``build(input_shape)`` (optional) and ``call(...)``.

    Args:
        dtype: a :class:`~mpteach.policy.Policy`, a policy name, a
            :class:`~mpteach.policy.PolicyMap` (looked up by the layer's name) or ``None`` (the
            global policy when the layer is made).
        autocast: ``False`` switches off input casting and the autocast scope.
        cast_inputs: ``"all"`` (Keras 3) or ``"first"`` (Keras 2: only the first argument).

    >>> class AddOne(Layer):
    ...     def call(self, a, b):
    ...         return a + 1.0, b + 1.0
    >>> a = b = tf.constant(1.0)
    >>> [y.dtype.name for y in AddOne(dtype="float64")(a, b)]
    ['float64', 'float64']
    >>> [y.dtype.name for y in AddOne(dtype="float64", cast_inputs="first")(a, b)]
    ['float64', 'float32']
    """

    cast_inputs = "all"

    def __init__(
        self,
        dtype: policies.Policy | policies.PolicyMap | str | None = None,
        name: str | None = None,
        autocast: bool = True,
        cast_inputs: str | None = None,
    ) -> None:
        super().__init__(name=name)
        self.dtype_policy = dtype
        self.autocast = autocast
        if cast_inputs is not None:
            self.cast_inputs = cast_inputs
        if self.cast_inputs not in CAST_INPUTS:
            raise ValueError(f"cast_inputs must be 'all' or 'first'; got {self.cast_inputs!r}.")
        self.built = False

    @property
    def dtype_policy(self) -> policies.Policy:
        """The layer's policy; assigning a name, a Policy or a PolicyMap converts it, as in Keras.

        >>> layer = Layer(name="head")
        >>> layer.dtype_policy = "mixed_bfloat16"
        >>> layer.dtype_policy, layer.compute_dtype
        (<Policy "mixed_bfloat16">, 'bfloat16')
        """
        return self._dtype_policy

    @dtype_policy.setter
    def dtype_policy(self, value: policies.Policy | policies.PolicyMap | str | None) -> None:
        if isinstance(value, policies.PolicyMap):
            self._dtype_policy = value[self.name]
        else:
            self._dtype_policy = policies.get(value)

    @property
    def compute_dtype(self) -> str:
        return self.dtype_policy.compute_dtype

    @property
    def variable_dtype(self) -> str:
        return self.dtype_policy.variable_dtype

    @property
    def dtype(self) -> str:
        """The variable dtype, as ``keras.layers.Layer.dtype``."""
        return self.variable_dtype

    def add_weight(
        self,
        shape: Any = (),
        initializer: Any = None,
        dtype: Any = None,
        trainable: bool = True,
        autocast: bool = True,
        name: str | None = None,
    ) -> tf.Variable:
        """A variable in ``variable_dtype`` (or ``dtype``); an AutoCastVariable when the layer is mixed.

        The arguments are those of ``keras.layers.Layer.add_weight``. ``initializer`` is anything
        ``keras.initializers.get`` takes; the default is ``'glorot_uniform'`` for floats and
        ``'zeros'`` otherwise, as in Keras. ``autocast=False`` opts a weight out of casting.
        """
        dtype = tf.as_dtype(dtype or self.variable_dtype)
        if initializer is None:
            initializer = "glorot_uniform" if dtype.is_floating else "zeros"
        initializer = keras.initializers.get(initializer)
        with tf.init_scope():  # a weight made during the first call of a tf.function is eager
            variable = tf.Variable(
                initializer(shape, dtype=dtype.name), trainable=trainable, name=name
            )
        mixed = self.compute_dtype != self.variable_dtype
        if autocast and mixed and dtype.is_floating:
            variable = AutoCastVariable(variable)
        return variable

    def build(self, input_shape: Any) -> None:
        """Create the weights, knowing the shape of the first input. Nothing by default."""

    def call(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__} must define call().")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.autocast:
            if self.cast_inputs == "all":
                args, kwargs = tf.nest.map_structure(self._cast_input, (args, kwargs))
            elif args:
                args = (tf.nest.map_structure(self._cast_input, args[0]), *args[1:])
        if not self.built:
            self.build(tf.nest.map_structure(_shape, args[0]) if args else None)
            self.built = True
        with autocast_scope(self.compute_dtype if self.autocast else None):
            return self.call(*args, **kwargs)

    def _cast_input(self, x: Any) -> Any:
        if isinstance(x, np.ndarray):  # NumPy arrays become tensors first, as in Keras 3
            x = tf.convert_to_tensor(x)
        if tf.is_tensor(x) and x.dtype.is_floating and x.dtype != self.compute_dtype:
            return tf.cast(x, self.compute_dtype)
        return x  # ints, bools, complex numbers, Python scalars and None are left alone

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r} dtype_policy={self.dtype_policy}>"


def _shape(x: Any) -> Any:
    return x.shape if hasattr(x, "shape") else None


class Dense(Layer):
    """``activation(inputs @ kernel + bias)``, as ``keras.layers.Dense``.

    >>> layer = Dense(3, activation="relu", dtype="mixed_bfloat16")
    >>> layer(tf.ones((2, 4))).dtype
    tf.bfloat16
    >>> [w.name for w in layer.trainable_variables], layer.kernel.true_dtype
    (['bias:0', 'kernel:0'], tf.float32)
    """

    def __init__(
        self,
        units: int,
        activation: Any = None,
        use_bias: bool = True,
        kernel_initializer: Any = "glorot_uniform",
        bias_initializer: Any = "zeros",
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        if isinstance(units, bool) or not isinstance(units, int) or units < 1:
            raise ValueError(f"units must be a positive integer; got units={units!r}.")
        self.units = units
        self.activation = keras.activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = kernel_initializer
        self.bias_initializer = bias_initializer
        self.kernel = self.bias = None

    def build(self, input_shape: Any) -> None:
        self.kernel = self.add_weight(
            shape=(input_shape[-1], self.units), initializer=self.kernel_initializer, name="kernel"
        )
        if self.use_bias:
            self.bias = self.add_weight(
                shape=(self.units,), initializer=self.bias_initializer, name="bias"
            )

    def call(self, inputs: tf.Tensor) -> tf.Tensor:
        # As keras.ops.matmul: a matmul for a batch of vectors, a tensordot for more dimensions.
        if inputs.shape.rank == 2:
            outputs = tf.matmul(inputs, self.kernel)
        else:
            outputs = tf.tensordot(inputs, self.kernel, axes=1)
        if self.bias is not None:
            outputs = tf.nn.bias_add(outputs, self.bias)  # what Keras does: the same gradients
        return self.activation(outputs)


class Activation(Layer):
    """An activation function as a layer, e.g. ``Activation("softmax", dtype="float32")``.

    >>> Activation("softmax", dtype="float32")(tf.zeros((1, 2), tf.float16))
    <tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[0.5, 0.5]], dtype=float32)>
    """

    def __init__(self, activation: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.activation = keras.activations.get(activation)

    def call(self, inputs: tf.Tensor) -> tf.Tensor:
        return self.activation(inputs)
