"""Chapter 03's self-checks: right answers pass, each kind of wrong answer says what is wrong."""

from __future__ import annotations

import pytest

from mpteach import i18n
from mpteach.checks import ch03


def test_unanswered_gets_a_reminder_not_a_verdict():
    for check in (ch03.read_dtypes, ch03.cast_arguments, ch03.noise_layer):
        feedback = check(...)
        assert not feedback.passed and feedback.message == i18n.t("checks.unanswered")


def test_read_dtypes():
    assert ch03.read_dtypes(("bfloat16", "float32")).passed
    assert ch03.read_dtypes(["bfloat16", "float32"]).passed
    swapped = ch03.read_dtypes(("float32", "bfloat16"))
    assert not swapped.passed and "(inside call, outside call)" in swapped.message
    inside = ch03.read_dtypes(("float16", "float32"))
    assert not inside.passed and "'float16'" in inside.message and "compute dtype" in inside.message
    outside = ch03.read_dtypes(("bfloat16", "bfloat16"))
    assert not outside.passed and "(float32)" in outside.message
    assert not ch03.read_dtypes("bfloat16").passed


def test_cast_arguments():
    right = {"keras2": ("float64", "float32"), "keras3": ("float64", "float64")}
    assert ch03.cast_arguments(right).passed
    keras2 = ch03.cast_arguments({**right, "keras2": ("float64", "float64")})
    assert not keras2.passed and "first argument" in keras2.message
    keras3 = ch03.cast_arguments({**right, "keras3": ("float64", "float32")})
    assert not keras3.passed and "every floating-point argument" in keras3.message
    missing = ch03.cast_arguments({"keras2": right["keras2"]})
    assert not missing.passed and "'keras3'" in missing.message
    assert "dict" in ch03.cast_arguments([1, 2]).message


def test_messages_follow_the_language():
    i18n.set_language("ko")
    assert "정답" in ch03.read_dtypes(("bfloat16", "float32")).message
    i18n.set_language("es")
    wrong = ch03.cast_arguments(
        {"keras2": ("float64", "float64"), "keras3": ("float64", "float64")}
    )
    assert "primer argumento" in wrong.message


@pytest.mark.keras
def test_noise_layer_runs_the_learners_class():
    keras = pytest.importorskip("keras")
    tf = pytest.importorskip("tensorflow")

    class Fixed(keras.layers.Layer):
        def call(self, inputs):
            return inputs + keras.random.normal(keras.ops.shape(inputs), 0.0, 0.1, inputs.dtype)

    class Float32Noise(keras.layers.Layer):
        def call(self, inputs):
            return inputs + tf.random.normal(tf.shape(inputs), stddev=0.1)

    class CastsToFloat32(keras.layers.Layer):
        def call(self, inputs):
            return tf.cast(inputs, "float32") + tf.random.normal(tf.shape(inputs))

    class NoNoise(keras.layers.Layer):
        def call(self, inputs):
            return inputs

    assert ch03.noise_layer(Fixed).passed
    broken = ch03.noise_layer(Float32Noise)
    assert not broken.passed and "'mixed_float16'" in broken.message
    assert "InvalidArgumentError" in broken.message and "dtype=inputs.dtype" in broken.message
    upcast = ch03.noise_layer(CastsToFloat32)
    assert not upcast.passed and "float32" in upcast.message and "float16" in upcast.message
    assert not ch03.noise_layer(NoNoise).passed
    instance = ch03.noise_layer(Fixed())
    assert not instance.passed and "Fixed" in instance.message
