"""The self-checks against the answers an expert reviewer tried (third review, 2026-12): each right
answer below must pass, each wrong one must fail and say why, in every chapter the review names."""

from __future__ import annotations

import numpy as np
import pytest

keras = pytest.importorskip("keras")
tf = pytest.importorskip("tensorflow")

from mpteach import i18n  # noqa: E402
from mpteach.checks import ch00, ch02, ch03, ch04, ch05, ch10, softmax_behaviour  # noqa: E402

# --- ch05 exercise 1 and ch02 exercise 2: a float32 softmax, judged by what it computes -----------

SOFTMAXES = {
    "Activation('softmax')": lambda **kw: keras.layers.Activation("softmax", **kw),
    "Softmax()": lambda **kw: keras.layers.Softmax(**kw),
    "Activation(tf.nn.softmax)": lambda **kw: keras.layers.Activation(tf.nn.softmax, **kw),
    "Activation(keras.ops.softmax)": lambda **kw: keras.layers.Activation(keras.ops.softmax, **kw),
}


@pytest.mark.parametrize("make", SOFTMAXES.values(), ids=SOFTMAXES.keys())
def test_every_float32_softmax_layer_passes(make):
    keras.config.set_dtype_policy("mixed_float16")
    assert ch05.float32_output(make(dtype="float32")).passed
    assert ch02.float32_layer(make(dtype="float32")).passed
    float16 = ch05.float32_output(make())  # the global mixed_float16 policy: the softmax in 16 bits
    assert not float16.passed and 'dtype="float32"' in float16.message


@pytest.mark.parametrize(
    "layer",
    [
        keras.layers.Dense(5, dtype="float32"),
        keras.layers.Activation("relu", dtype="float32"),
        keras.layers.Activation("sigmoid", dtype="float32"),
        keras.layers.Lambda(lambda x: x / keras.ops.sum(x), dtype="float32"),
    ],
    ids=["Dense", "relu", "sigmoid", "x/sum(x)"],
)
def test_a_float32_layer_that_is_no_softmax_fails(layer):
    keras.config.set_dtype_policy("mixed_float16")
    for check in (ch05.float32_output, ch02.float32_layer):
        feedback = check(layer)
        assert not feedback.passed and "softmax" in feedback.message, feedback


def test_a_dense_layer_with_a_softmax_activation_is_all_float32_not_only_its_softmax():
    keras.config.set_dtype_policy("mixed_float16")
    feedback = ch05.float32_output(keras.layers.Dense(5, activation="softmax", dtype="float32"))
    assert not feedback.passed and "matrix product" in feedback.message
    assert softmax_behaviour(keras.layers.Dense(5, activation="softmax")) == "distribution"


def test_softmax_behaviour_of_a_layer_that_raises():
    class Broken(keras.layers.Layer):
        def call(self, x):
            raise RuntimeError("no")

    assert softmax_behaviour(Broken()) == "error"
    assert not ch05.float32_output(Broken(dtype="float32")).passed


# --- ch02 exercise 3: the global policy must really be set ----------------------------------------


def test_the_modern_global_policy_must_be_set_not_only_made():
    keras.config.set_dtype_policy("float32")
    made = ch02.modern_global_policy(keras.DTypePolicy("mixed_float16"))
    assert not made.passed and "set_dtype_policy" in made.message and "'float32'" in made.message
    keras.config.set_dtype_policy("mixed_float16")
    assert ch02.modern_global_policy(keras.config.dtype_policy()).passed
    assert ch02.modern_global_policy(keras.DTypePolicy("mixed_float16")).passed  # same policy
    keras.config.set_dtype_policy("float16")
    assert "float16" in ch02.modern_global_policy(keras.config.dtype_policy()).message


# --- ch03 exercise 3: noise of standard deviation 0.1, in training ---------------------------------


def noise_class(stddev: float, training_only: bool = False) -> type:
    class AddNoise(keras.layers.Layer):
        def call(self, inputs, training=None):
            if training_only and not training:
                return inputs
            noise = keras.random.normal(keras.ops.shape(inputs), stddev=stddev, dtype=inputs.dtype)
            return inputs + noise

    return AddNoise


def test_noise_of_the_asked_size_passes_and_other_sizes_fail():
    assert ch03.noise_layer(noise_class(0.1)).passed
    for stddev in (1.0, 0.01):
        feedback = ch03.noise_layer(noise_class(stddev))
        assert not feedback.passed and "0.1" in feedback.message, feedback


def test_noise_added_only_in_training_passes_like_keras_gaussian_noise():
    assert ch03.noise_layer(noise_class(0.1, training_only=True)).passed

    class KerasNoise(keras.layers.GaussianNoise):
        def __init__(self, **kwargs):
            super().__init__(0.1, **kwargs)

    assert ch03.noise_layer(KerasNoise).passed


# --- ch04: the RMS norm on an input that is not constant; "no casts" only when true ----------------


def rms_class(formula) -> type:
    class Norm(keras.layers.Layer):
        def call(self, inputs):
            x = keras.ops.cast(inputs, "float32")
            return keras.ops.cast(formula(x), self.compute_dtype)

    return Norm


def test_only_a_root_mean_square_passes_the_rms_check():
    ops = keras.ops
    right = rms_class(lambda x: x / ops.sqrt(ops.mean(ops.square(x), axis=-1, keepdims=True)))
    assert ch04.rms_norm_layer(right).passed
    wrong = {
        "x / max|x|": lambda x: x / ops.max(ops.abs(x), axis=-1, keepdims=True),
        "x / mean(x)": lambda x: x / ops.mean(x, axis=-1, keepdims=True),
        "ones_like": ops.ones_like,
    }
    for name, formula in wrong.items():
        feedback = ch04.rms_norm_layer(rms_class(formula))
        assert not feedback.passed and "[1, -2, 3, -4]" in feedback.message, (name, feedback)


def test_the_dense_check_praises_no_casts_only_when_there_are_none():
    class Plain(keras.layers.Layer):
        def __init__(self, units, **kwargs):
            super().__init__(**kwargs)
            self.units = units

        def build(self, input_shape):
            self.kernel = self.add_weight(shape=(input_shape[-1], self.units))
            self.bias = self.add_weight(shape=(self.units,), initializer="zeros")

        def call(self, inputs):
            return inputs @ self.kernel + self.bias

    class Casting(Plain):
        def call(self, inputs):
            kernel = keras.ops.cast(self.kernel, self.compute_dtype)
            return keras.ops.cast(inputs, self.compute_dtype) @ kernel + self.bias

    assert ch04.dense_layer(Plain).message == i18n.t("checks.ch04.dense_ok")
    casting = ch04.dense_layer(Casting)
    assert casting.passed and casting.message == i18n.t("checks.ch04.dense_ok_with_casts")
    assert "no casts" not in casting.message


# --- ch00 exercise 1: NumPy dtypes are accepted, as its comment says --------------------------------


@pytest.mark.parametrize("answer", ["float32", np.float32, np.dtype("float32"), tf.float32])
def test_the_variable_dtype_in_any_spelling(answer):
    assert ch00.variable_dtype(answer).passed


@pytest.mark.parametrize("answer", ["float16", np.float16, tf.float16, "float64", np.float64])
def test_a_wrong_variable_dtype_in_any_spelling(answer):
    assert not ch00.variable_dtype(answer).passed


# --- ch10: a one-tape accumulation, and the capstone's numbering -----------------------------------


def one_tape(model, optimizer, loss_fn, batches):
    with tf.GradientTape() as tape:
        losses = [loss_fn(y, model(x, training=True)) for x, y in batches]
        scaled = optimizer.scale_loss(tf.add_n(losses) / len(batches))
    grads = tape.gradient(scaled, model.trainable_variables)
    optimizer.apply(grads, model.trainable_variables)


def skip_only_the_bad_micro_batch(model, optimizer, loss_fn, batches):
    total = [tf.zeros_like(v) for v in model.trainable_variables]
    for x, y in batches:
        with tf.GradientTape() as tape:
            scaled = optimizer.scale_loss(loss_fn(y, model(x, training=True)))
        grads = tape.gradient(scaled, model.trainable_variables)
        if all(bool(tf.reduce_all(tf.math.is_finite(g))) for g in grads):
            total = [t + g for t, g in zip(total, grads, strict=True)]
    optimizer.apply([t / len(batches) for t in total], model.trainable_variables)


def test_a_one_tape_accumulation_is_right_and_told_why_nothing_was_skipped():
    feedback = ch10.accumulate(one_tape)
    assert feedback.passed and feedback.message == i18n.t("checks.ch10.acc_one_tape_ok")


def test_skipping_only_the_overflowing_micro_batch_is_still_a_partial_update():
    feedback = ch10.accumulate(skip_only_the_bad_micro_batch)
    assert not feedback.passed and feedback.message == i18n.t("checks.ch10.acc_partial")


def test_numpy_dtype_types_are_accepted_wherever_a_dtype_is_asked():
    """One dtype_name for chapters 00, 02 and 03: np.float16 is a class whose .name is no string."""
    right = {"float16": (np.float16, np.float16), "mixed_float16": (np.float16, np.float32)}
    right["mixed_bfloat16"] = ("bfloat16", np.float32)
    assert ch02.policy_dtypes(right).passed
    assert ch03.read_dtypes(("bfloat16", np.float32)).passed
