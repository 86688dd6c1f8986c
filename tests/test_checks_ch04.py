"""Chapter 04's self-checks: they run the learner's layer class and say what is wrong with it."""

from __future__ import annotations

import pytest

from mpteach import i18n
from mpteach.checks import ch04

keras = pytest.importorskip("keras")
tf = pytest.importorskip("tensorflow")
pytestmark = pytest.mark.keras


class MyDense(keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], self.units), name="kernel")
        self.bias = self.add_weight(shape=(self.units,), initializer="ones", name="bias")

    def call(self, inputs):
        return inputs @ self.kernel + self.bias


class CastsToLayerDtype(MyDense):
    def call(self, inputs):
        return inputs @ tf.cast(self.kernel, self.dtype) + self.bias


class Float32Weights(MyDense):
    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], self.units), dtype="float32")
        self.bias = self.add_weight(shape=(self.units,), initializer="ones", dtype="float32")


class NoBias(MyDense):
    def call(self, inputs):
        return inputs @ self.kernel


class SafeRMSNorm(keras.layers.Layer):
    def call(self, inputs):
        x32 = keras.ops.cast(inputs, "float32")
        normed = x32 / keras.ops.sqrt(keras.ops.mean(x32 * x32, axis=-1, keepdims=True))
        return keras.ops.cast(normed, self.compute_dtype)


class NaiveRMSNorm(keras.layers.Layer):
    def call(self, inputs):
        return inputs / keras.ops.sqrt(keras.ops.mean(inputs * inputs, axis=-1, keepdims=True))


class ForgetsToCastBack(keras.layers.Layer):
    def call(self, inputs):
        x32 = keras.ops.cast(inputs, "float32")
        return x32 / keras.ops.sqrt(keras.ops.mean(x32 * x32, axis=-1, keepdims=True))


def test_unanswered_and_not_a_class():
    for check in (ch04.dense_layer, ch04.rms_norm_layer):
        assert check(...).message == i18n.t("checks.unanswered")
        not_class = check(MyDense(3))
        assert not not_class.passed and "MyDense" in not_class.message


def test_dense_layer():
    assert ch04.dense_layer(MyDense).passed
    trap = ch04.dense_layer(CastsToLayerDtype)
    assert not trap.passed and "'mixed_float16'" in trap.message
    assert "InvalidArgumentError" in trap.message and "self.compute_dtype" in trap.message
    float32_weights = ch04.dense_layer(Float32Weights)
    assert not float32_weights.passed and "'float64'" in float32_weights.message
    assert "add_weight" in float32_weights.message
    no_bias = ch04.dense_layer(NoBias)
    assert not no_bias.passed and "inputs @ kernel + bias" in no_bias.message


def test_rms_norm_layer():
    assert ch04.rms_norm_layer(SafeRMSNorm).passed
    naive = ch04.rms_norm_layer(NaiveRMSNorm)
    assert not naive.passed and "65504" in naive.message and "'mixed_float16'" in naive.message
    float32_out = ch04.rms_norm_layer(ForgetsToCastBack)
    assert not float32_out.passed and "self.compute_dtype" in float32_out.message


def test_messages_follow_the_language():
    i18n.set_language("ru")
    assert "65 504" in ch04.rms_norm_layer(NaiveRMSNorm).message  # grouped as Russian prose does
    assert "Верно" in ch04.rms_norm_layer(SafeRMSNorm).message
    i18n.set_language("zh")
    assert "正确" in ch04.dense_layer(MyDense).message
