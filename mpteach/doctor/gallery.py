"""A gallery of custom layers, written right and wrong, with the inputs that show the difference.

Chapter 04 imports them, and the tests check that the doctor finds exactly what each broken
layer gets wrong and nothing in the correct ones. :data:`EXAMPLES` maps a name to an
:class:`Example`: the layer class, how to make its inputs, and the finding codes it must produce.
"The Policy page" below is TensorFlow's API page of ``tf.keras.mixed_precision.Policy``, which
describes Keras 2; "the Stack Overflow question" is *How to support mixed precision in custom
Tensorflow layers?*, the question chapter 04 answers.

>>> EXAMPLES["AddRandom"].expected
('uncast-tensor-creation',)
>>> sorted(name for name, example in EXAMPLES.items() if not example.expected)[:3]
['AddNoise', 'DropPath', 'FFTMagnitude']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import keras
import numpy as np
import tensorflow as tf
from keras import ops


def _normal(*shape: int, scale: float = 1.0, shift: float = 0.0, seed: int = 0) -> np.ndarray:
    values = np.random.default_rng(seed).standard_normal(shape) * scale + shift
    return values.astype("float32")


# --- written right ------------------------------------------------------------------------------


class SimpleDense(keras.layers.Layer):
    """The Policy page's ``SimpleDense`` in Keras 3: ``add_weight`` makes float32 variables, and
    Keras reads them in the compute dtype inside ``call``; no cast anywhere."""

    def __init__(self, units: int = 8, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape: tuple) -> None:
        self.kernel = self.add_weight(shape=(input_shape[-1], self.units))
        self.bias = self.add_weight(shape=(self.units,), initializer="zeros")

    def call(self, inputs: Any) -> Any:
        return ops.matmul(inputs, self.kernel) + self.bias


class AddNoise(keras.layers.Layer):
    """The Policy page's ``AddRandom`` done right: the new tensor is made in the inputs' dtype."""

    def call(self, inputs: Any) -> Any:
        noise = tf.random.normal(tf.shape(inputs), dtype=inputs.dtype)
        return inputs + noise


class ScaledSum(keras.layers.Layer):
    """Two tensor arguments, ready for Keras 2 too: the second one is cast by hand (Keras 3
    casts both already, so the cast costs nothing there)."""

    def call(self, a: Any, b: Any) -> Any:
        b = ops.cast(b, self.compute_dtype)
        return a + 0.5 * b


class RMSNorm(keras.layers.Layer):
    """A statistic computed in float32, the result cast back: the way Keras's own
    normalization layers do it. The scale stays float32 (``autocast=False``) on purpose."""

    def build(self, input_shape: tuple) -> None:
        self.scale = self.add_weight(shape=(input_shape[-1],), initializer="ones", autocast=False)

    def call(self, inputs: Any) -> Any:
        x = ops.cast(inputs, "float32")
        x = x * ops.rsqrt(ops.mean(ops.square(x), axis=-1, keepdims=True) + 1e-6)
        return ops.cast(x * self.scale, self.compute_dtype)


class StableSoftmax(keras.layers.Layer):
    """Softmax by Keras, which subtracts the maximum first: no overflow in float16."""

    def call(self, inputs: Any) -> Any:
        return ops.softmax(inputs, axis=-1)


class L2Norm(keras.layers.Layer):
    """Euclidean norm of each row, computed in float32 (small squares underflow in float16)."""

    def call(self, inputs: Any) -> Any:
        x = ops.cast(inputs, "float32")
        norm = ops.sqrt(ops.sum(ops.square(x), axis=-1, keepdims=True))
        return ops.cast(norm, self.compute_dtype)


class FFTMagnitude(keras.layers.Layer):
    """An FFT in float32 (TensorFlow has no 16-bit FFT), the magnitudes cast back."""

    def call(self, inputs: Any) -> Any:
        spectrum = tf.signal.rfft(tf.cast(inputs, tf.float32))
        return tf.cast(tf.abs(spectrum), self.compute_dtype)


class DropPath(keras.layers.Layer):
    """Stochastic depth: in training, drop each sample's whole residual branch with probability
    ``rate``. The random mask is made in the compute dtype."""

    def __init__(self, rate: float = 0.5, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rate = rate

    def call(self, inputs: Any, training: bool = False) -> Any:
        if not training:
            return inputs
        shape = (ops.shape(inputs)[0],) + (1,) * (len(inputs.shape) - 1)
        keep = ops.floor(1 - self.rate + keras.random.uniform(shape, dtype=self.compute_dtype))
        return inputs / (1 - self.rate) * keep


class SinePositions(keras.layers.Layer):
    """Sinusoidal position encodings, computed in float32 and cast back: positions beyond 2048
    (256 in bfloat16) and the angles made from them need float32's digits."""

    def call(self, inputs: Any) -> Any:
        length, width = ops.shape(inputs)[1], ops.shape(inputs)[2]
        positions = ops.cast(ops.arange(length), "float32")[:, None]
        rates = 1.0 / 10000 ** (ops.cast(ops.arange(0, width, 2), "float32") / width)
        angles = positions * rates[None, :]
        encoding = ops.concatenate([ops.sin(angles), ops.cos(angles)], axis=-1)
        return ops.broadcast_to(ops.cast(encoding, self.compute_dtype), ops.shape(inputs))


class RunningRMS(keras.layers.Layer):
    """Scales by a running mean of squares, kept and updated in float32 (``autocast=False``,
    the update computed from float32 operands), the way BatchNormalization keeps its moving
    statistics."""

    def __init__(self, momentum: float = 0.99, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.momentum = momentum

    def build(self, input_shape: tuple) -> None:
        self.mean_square = self.add_weight(
            shape=(input_shape[-1],), initializer="ones", trainable=False, autocast=False
        )

    def call(self, inputs: Any, training: bool = False) -> Any:
        if training:
            batch = ops.mean(ops.square(ops.cast(inputs, "float32")), axis=0)
            self.mean_square.assign(self.momentum * self.mean_square + (1 - self.momentum) * batch)
        return inputs * ops.cast(ops.rsqrt(self.mean_square + 1e-6), self.compute_dtype)


class TokenEmbedding(keras.layers.Layer):
    """Token ids to vectors through an Embedding inside a custom layer, as in a Transformer's
    input block. Given int32 ids it is right; float ids are cast to the compute dtype on the
    way in, and ids above 2048 (float16) or 256 (bfloat16) read the wrong rows."""

    def __init__(self, vocabulary: int = 5000, width: int = 8, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.embedding = keras.layers.Embedding(vocabulary, width)

    def call(self, token_ids: Any) -> Any:
        return self.embedding(token_ids)


# --- written wrong ------------------------------------------------------------------------------


class AddRandom(keras.layers.Layer):
    """The Policy page's ``AddRandom`` without ``dtype=``: a float32 tensor meets float16 inputs."""

    def call(self, inputs: Any) -> Any:
        noise = tf.random.normal(tf.shape(inputs))
        return inputs + noise


class KerasOpsNoise(keras.layers.Layer):
    """The same mistake with keras.ops: no error, because keras.ops promotes float16 + float32
    to float32, so the layer silently computes in float32."""

    def call(self, inputs: Any) -> Any:
        noise = keras.random.normal(ops.shape(inputs))
        return ops.add(inputs, noise)


class ManualCastDense(keras.layers.Layer):
    """The Stack Overflow question's pattern in Keras 3 spelling: casting the weights in ``call``
    with the layer's policy. It works, but Keras already did it."""

    def __init__(self, units: int = 8, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape: tuple) -> None:
        self.kernel = self.add_weight(shape=(input_shape[-1], self.units))
        self.bias = self.add_weight(shape=(self.units,), initializer="zeros")

    def call(self, inputs: Any) -> Any:
        policy = self.dtype_policy
        kernel = tf.cast(self.kernel, policy.compute_dtype)
        bias = tf.cast(self.bias, policy.compute_dtype)
        return tf.nn.bias_add(tf.matmul(inputs, kernel), bias)


class HalfWeights(keras.layers.Layer):
    """Variables created in the compute dtype: float16 weights lose small updates."""

    def build(self, input_shape: tuple) -> None:
        self.kernel = self.add_weight(shape=(input_shape[-1], 8), dtype=self.compute_dtype)

    def call(self, inputs: Any) -> Any:
        return ops.matmul(inputs, self.kernel)


class AutocastOffScale(keras.layers.Layer):
    """A weight with ``autocast=False`` used as if Keras cast it: float32 meets float16."""

    def build(self, input_shape: tuple) -> None:
        self.scale = self.add_weight(shape=(input_shape[-1],), initializer="ones", autocast=False)

    def call(self, inputs: Any) -> Any:
        return inputs * self.scale


class Float32Residual(keras.layers.Layer):
    """A float32 sublayer's output added to the float16 stream without a cast."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.norm = keras.layers.LayerNormalization(dtype="float32")

    def call(self, inputs: Any) -> Any:
        return inputs + self.norm(inputs)


class ForgotCastBack(keras.layers.Layer):
    """:class:`RMSNorm` without the last cast: the layer returns float32 under every policy."""

    def build(self, input_shape: tuple) -> None:
        self.scale = self.add_weight(shape=(input_shape[-1],), initializer="ones", autocast=False)

    def call(self, inputs: Any) -> Any:
        x = ops.cast(inputs, "float32")
        x = x * ops.rsqrt(ops.mean(ops.square(x), axis=-1, keepdims=True) + 1e-6)
        return x * self.scale


class MyLayer(keras.layers.Layer):
    """The Policy page's two-argument layer: Keras 3 casts ``b`` too, Keras 2 cast only ``a``."""

    def call(self, a: Any, b: Any) -> Any:
        return a + 1.0, b + 1.0


class NaiveSoftmax(keras.layers.Layer):
    """``exp(x) / sum(exp(x))``: exp(12) is 162755, beyond float16's 65504, so inf / inf = NaN."""

    def call(self, inputs: Any) -> Any:
        e = ops.exp(inputs)
        return e / ops.sum(e, axis=-1, keepdims=True)


class EuclideanNorm(keras.layers.Layer):
    """``sqrt(sum(x**2))`` in float16: squares of 1e-5 underflow to 0, and the gradient of
    sqrt at 0 is infinite."""

    def call(self, inputs: Any) -> Any:
        return ops.sqrt(ops.sum(ops.square(inputs), axis=-1, keepdims=True))


class GaussianRBF(keras.layers.Layer):
    """Radial basis functions ``exp(-gamma * |x - c|**2)``: for far inputs exp(-25) is 1e-11,
    below float16's smallest subnormal (6e-8): outputs and gradients become 0."""

    def __init__(self, centers: int = 8, gamma: float = 0.2, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.n_centers, self.gamma = centers, gamma

    def build(self, input_shape: tuple) -> None:
        shape = (self.n_centers, input_shape[-1])
        self.centers = self.add_weight(shape=shape, initializer="zeros")

    def call(self, inputs: Any) -> Any:
        d2 = ops.sum(ops.square(inputs[:, None, :] - self.centers), axis=-1)
        return ops.exp(-self.gamma * d2)


class SpectrumNoCast(keras.layers.Layer):
    """:class:`FFTMagnitude` without the float32 island: no FFT kernel takes 16-bit inputs."""

    def call(self, inputs: Any) -> Any:
        return tf.abs(tf.signal.rfft(inputs))


class Float32Only(keras.layers.Layer):
    """A hard-coded dtype check: fine in float32, fails under every mixed policy."""

    def call(self, inputs: Any) -> Any:
        tf.debugging.assert_type(inputs, tf.float32)
        return inputs * 2.0


class DropPathUncast(keras.layers.Layer):
    """:class:`DropPath` with the random tensor made in float32, as many stochastic-depth layers
    do: fine in inference, a dtype error in the first training step."""

    def __init__(self, rate: float = 0.5, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rate = rate

    def call(self, inputs: Any, training: bool = False) -> Any:
        if not training:
            return inputs
        shape = (tf.shape(inputs)[0],) + (1,) * (len(inputs.shape) - 1)
        keep = tf.floor(1 - self.rate + tf.random.uniform(shape, 0, 1))
        return inputs / (1 - self.rate) * keep


class SinePositionsHalf(keras.layers.Layer):
    """:class:`SinePositions` computed in the compute dtype: float16 holds whole numbers only up
    to 2048 and rounds the angles, so sin and cos of long sequences are wrong, silently."""

    def call(self, inputs: Any) -> Any:
        length, width = ops.shape(inputs)[1], ops.shape(inputs)[2]
        positions = ops.cast(ops.arange(length), self.compute_dtype)[:, None]
        exponents = ops.cast(ops.arange(0, width, 2), self.compute_dtype) / width
        rates = ops.cast(1.0 / 10000**exponents, self.compute_dtype)
        angles = positions * rates[None, :]
        encoding = ops.concatenate([ops.sin(angles), ops.cos(angles)], axis=-1)
        return ops.broadcast_to(encoding, ops.shape(inputs))


class RunningRMSHalf(keras.layers.Layer):
    """:class:`RunningRMS` with an ordinary (autocast) variable: inside ``call`` it is read in
    float16, so the new value is computed in float16 and rounded before it is stored in float32;
    updates smaller than float16's spacing are lost."""

    def __init__(self, momentum: float = 0.99, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.momentum = momentum

    def build(self, input_shape: tuple) -> None:
        self.mean_square = self.add_weight(
            shape=(input_shape[-1],), initializer="ones", trainable=False
        )

    def call(self, inputs: Any, training: bool = False) -> Any:
        if training:
            batch = ops.mean(ops.square(inputs), axis=0)
            self.mean_square.assign(self.momentum * self.mean_square + (1 - self.momentum) * batch)
        return inputs * ops.rsqrt(self.mean_square + 1e-6)


class ScheduleTable(keras.layers.Layer):
    """Scales its inputs by a fixed float32 table made once (a schedule): Keras casts inputs
    and variables, not constants, so float16 inputs meet a float32 tensor."""

    def __init__(self, width: int = 8, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rates = tf.constant(np.linspace(0.1, 1.0, width, dtype="float32"))

    def call(self, inputs: Any) -> Any:
        return inputs * self.rates


class MaskedDense(keras.layers.Layer):
    """Masks its kernel in ``call`` as PixelCNN's masked convolution does: the kernel is read
    in the compute dtype, so the product stored back is rounded to 16 bits on every call and a
    small update to the kernel is lost."""

    def build(self, input_shape: Any) -> None:
        units = input_shape[-1]
        self.kernel = self.add_weight(shape=(units, units), initializer="glorot_uniform")
        self.mask = np.tril(np.ones((units, units), dtype="float32"))

    def call(self, inputs: Any) -> Any:
        self.kernel.assign(self.kernel * self.mask)
        return ops.matmul(inputs, self.kernel)


# --- the catalogue ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Example:
    """A gallery layer, its inputs, and the finding codes ``check_layer`` must report."""

    layer: type[keras.layers.Layer]
    make_inputs: Callable[[], Any]
    expected: tuple[str, ...] = ()

    def inputs(self) -> Any:
        return self.make_inputs()


def _x() -> np.ndarray:
    return _normal(4, 8)


def _token_ids(dtype: str) -> np.ndarray:
    return np.random.default_rng(0).integers(0, 5000, (2, 6)).astype(dtype)


def _long_sequence() -> np.ndarray:
    return _normal(1, 4096, 8)


EXAMPLES: dict[str, Example] = {
    # written right: no findings at all
    "SimpleDense": Example(SimpleDense, _x),
    "AddNoise": Example(AddNoise, _x),
    "ScaledSum": Example(ScaledSum, lambda: (_x(), _normal(4, 8, seed=1))),
    "RMSNorm": Example(RMSNorm, lambda: _normal(4, 8, scale=300.0)),
    "StableSoftmax": Example(StableSoftmax, lambda: _normal(4, 8, scale=3.0, shift=10.0)),
    "L2Norm": Example(L2Norm, lambda: _normal(4, 8, scale=1e-5)),
    "FFTMagnitude": Example(FFTMagnitude, _x),
    "DropPath": Example(DropPath, _x),
    "SinePositions": Example(SinePositions, _long_sequence),
    "RunningRMS": Example(RunningRMS, _x),
    "TokenEmbedding": Example(TokenEmbedding, lambda: _token_ids("int32")),
    # written wrong: exactly these findings
    "AddRandom": Example(AddRandom, _x, ("uncast-tensor-creation",)),
    "KerasOpsNoise": Example(KerasOpsNoise, _x, ("uncast-tensor-creation",)),
    "ManualCastDense": Example(ManualCastDense, _x, ("manual-cast",)),
    "HalfWeights": Example(HalfWeights, _x, ("float16-variable",)),
    "AutocastOffScale": Example(AutocastOffScale, _x, ("autocast-off-variable",)),
    "Float32Residual": Example(Float32Residual, _x, ("dtype-mismatch",)),
    "ForgotCastBack": Example(ForgotCastBack, _x, ("float32-output",)),
    "MyLayer": Example(MyLayer, lambda: (_x(), _normal(4, 8, seed=1)), ("keras2-uncast-argument",)),
    "NaiveSoftmax": Example(
        NaiveSoftmax, lambda: _normal(4, 8, scale=3.0, shift=10.0), ("non-finite-output",)
    ),
    "EuclideanNorm": Example(
        EuclideanNorm, lambda: _normal(4, 8, scale=1e-5), ("non-finite-gradient",)
    ),
    "GaussianRBF": Example(
        GaussianRBF, lambda: _normal(4, 8, scale=0.1, shift=4.0), ("vanishing-gradient",)
    ),
    "SpectrumNoCast": Example(SpectrumNoCast, _x, ("unsupported-half-op",)),
    "Float32Only": Example(Float32Only, _x, ("call-fails",)),
    "DropPathUncast": Example(DropPathUncast, _x, ("uncast-tensor-creation",)),
    "SinePositionsHalf": Example(SinePositionsHalf, _long_sequence, ("numeric-divergence",)),
    "RunningRMSHalf": Example(RunningRMSHalf, _x, ("rounded-variable-update",)),
    "MaskedDense": Example(MaskedDense, _x, ("rounded-variable-update",)),
    "ScheduleTable": Example(ScheduleTable, _x, ("float32-tensor",)),
    "TokenEmbeddingFloatIds": Example(
        TokenEmbedding, lambda: _token_ids("float32"), ("float-indices",)
    ),
}

# Keras's own layers, with inputs they accept: the doctor must find nothing in them.
BUILTINS: dict[str, tuple[Callable[[], keras.layers.Layer], Callable[[], Any], dict]] = {
    "Dense": (lambda: keras.layers.Dense(8), _x, {}),
    "Conv2D": (lambda: keras.layers.Conv2D(8, 3), lambda: _normal(2, 6, 6, 3), {}),
    "LayerNormalization": (keras.layers.LayerNormalization, _x, {}),
    "BatchNormalization": (keras.layers.BatchNormalization, _x, {"training": True}),
    "MultiHeadAttention": (
        lambda: keras.layers.MultiHeadAttention(num_heads=2, key_dim=8),
        lambda: (_normal(2, 5, 8), _normal(2, 5, 8, seed=1)),
        {},
    ),
    "Embedding": (lambda: keras.layers.Embedding(16, 8), lambda: np.arange(12).reshape(2, 6), {}),
    "LSTM": (lambda: keras.layers.LSTM(8), lambda: _normal(2, 5, 8), {}),
}


def classifier(
    softmax_dtype: str | None = "float32", hidden: int = 64, classes: int = 16, features: int = 32
) -> keras.Model:
    """A small functional classifier, built under the current global policy.

    ``softmax_dtype="float32"``: a separate float32 softmax, as the TensorFlow guide says;
    ``"float16"``: the softmax inside the last Dense layer (computed in the compute dtype);
    ``None``: no softmax, the logits are the output (in the compute dtype).
    """
    inputs = keras.Input((features,), name="features")
    x = keras.layers.Dense(hidden, activation="relu", name="hidden")(inputs)
    if softmax_dtype == "float32":
        x = keras.layers.Dense(classes, name="logits")(x)
        outputs = keras.layers.Activation("softmax", dtype="float32", name="probabilities")(x)
    elif softmax_dtype == "float16":
        outputs = keras.layers.Dense(classes, activation="softmax", name="probabilities")(x)
    elif softmax_dtype is None:
        outputs = keras.layers.Dense(classes, name="logits")(x)
    else:
        raise ValueError(f"softmax_dtype={softmax_dtype!r}: choose 'float32', 'float16' or None.")
    return keras.Model(inputs, outputs, name="classifier")
