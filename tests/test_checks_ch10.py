"""Chapter 10's self-checks: each passes the right answer and names each mistake it was written for."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("tensorflow")
import keras  # noqa: E402
import tensorflow as tf  # noqa: E402
from keras import ops  # noqa: E402

from mpteach import i18n  # noqa: E402
from mpteach.checks import ch10  # noqa: E402

pytestmark = pytest.mark.keras

# --- exercise 1 ---------------------------------------------------------------------------------


def test_the_suspect_model_really_gives_nan_and_leaves_the_policy_alone():
    model, x = ch10.suspect()
    assert np.isnan(np.asarray(model(x))).any()
    assert keras.config.dtype_policy().name == "float32"
    assert [layer.name for layer in model.layers] == ["embed", "rate", "norm", "logits", "probs"]


def test_first_nan_accepts_the_layer_or_its_name():
    assert ch10.first_nan("rate").passed
    model, _ = ch10.suspect()
    assert ch10.first_nan(model.get_layer("rate")).passed


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        ("norm", "so did its input"),
        ("probs", "so did its input"),
        ("embed", "output is finite"),
        ("dense", "no layer named dense"),
    ],
)
def test_first_nan_names_each_mistake(answer, words):
    feedback = ch10.first_nan(answer)
    assert not feedback.passed and words in feedback.message


def test_first_nan_needs_a_name():
    assert "Replace the ..." in ch10.first_nan(...).message
    assert "Expected str" in ch10.first_nan(1).message


# --- exercise 2 ---------------------------------------------------------------------------------


def make_accumulate(mistake: str = "none"):
    def accumulate(model, optimizer, loss_fn, batches):
        scale = optimizer.scale_loss(1.0)
        total = [tf.zeros_like(v) for v in model.trainable_variables]
        for x, y in batches:
            with tf.GradientTape() as tape:
                loss = loss_fn(y, model(x))
                scaled = loss if mistake == "no scale" else optimizer.scale_loss(loss)
            grads = tape.gradient(scaled, model.trainable_variables)
            if mistake == "every batch":
                optimizer.apply(grads, model.trainable_variables)
                continue
            if mistake == "drop non-finite":
                if not all(bool(tf.reduce_all(tf.math.is_finite(g))) for g in grads):
                    continue
            total = [a + g for a, g in zip(total, grads, strict=True)]
        if mistake == "every batch":
            return
        n = 1 if mistake == "sum" else len(batches)
        mean = [a / n for a in total]
        if mistake == "twice":
            mean = [g / scale for g in mean]
        if mistake == "by hand":  # unscale, no finiteness check, inner optimizer
            optimizer.inner_optimizer.apply([g / scale for g in mean], model.trainable_variables)
        elif mistake == "skip by hand":  # checks, but the optimizer never hears of the overflow
            if all(bool(tf.reduce_all(tf.math.is_finite(g))) for g in mean):
                optimizer.apply(mean, model.trainable_variables)
        elif mistake == "inner":
            optimizer.inner_optimizer.apply(mean, model.trainable_variables)
        elif mistake != "nothing":
            optimizer.apply(mean, model.trainable_variables)

    return accumulate


def test_a_correct_accumulation_passes_and_skips_the_overflowing_window():
    feedback = ch10.accumulate(make_accumulate())
    assert feedback.passed, feedback.message
    assert "fell to 512" in feedback.message


@pytest.mark.parametrize(
    ("mistake", "words"),
    [
        ("every batch", "4 updates for 4 micro-batches"),
        ("sum", "4 times too large"),
        ("no scale", "1024 times too small"),
        ("twice", "1024 times too small"),
        ("inner", "1024 times too large"),
        ("nothing", "did not change"),
        ("by hand", "inf or NaN reached the weights"),
        ("drop non-finite", "part of the update was applied"),
        ("skip by hand", "stayed at 1024"),
    ],
)
def test_each_accumulation_mistake_is_named(mistake, words):
    feedback = ch10.accumulate(make_accumulate(mistake))
    assert not feedback.passed
    assert words in feedback.message


def test_the_overflow_micro_batch_overflows_only_when_scaled():
    x, y = ch10._micro_batches(overflow=True)[2]
    loss = keras.losses.MeanSquaredError()(y, x.sum(axis=1, keepdims=True))
    with np.errstate(over="ignore"):
        assert np.isfinite(float(loss)) and np.isinf(np.float32(float(loss)) * np.float32(1024))


def test_accumulate_reports_errors_and_types():
    def broken(model, optimizer, loss_fn, batches):
        raise KeyError("oops")

    assert "KeyError" in ch10.accumulate(broken).message
    assert "Expected callable" in ch10.accumulate(3).message


# --- exercise 3: the capstone -------------------------------------------------------------------

X, _ = ch10.capstone_data()
MEAN, STD = X.mean(axis=0), X.std(axis=0)


class Standardize(keras.layers.Layer):
    def __init__(self, mistake: bool = True, **kwargs):
        super().__init__(**kwargs)
        self.mistake = mistake

    def call(self, x):
        dtype = None if self.mistake else self.compute_dtype
        mean = ops.convert_to_tensor(MEAN, dtype=dtype)
        std = ops.convert_to_tensor(STD, dtype=dtype)
        return ops.divide(ops.subtract(x, mean), std)


def make_build(half_output=False, float32_tensors=False, standardize_float32=False, policy=None):
    def build_model():
        keras.config.set_dtype_policy(policy or "mixed_float16")
        extra = {"dtype": "float32"} if standardize_float32 else {}
        head = (
            [keras.layers.Dense(3, activation="softmax", name="probs")]
            if half_output
            else [
                keras.layers.Dense(3, name="logits"),
                keras.layers.Activation("softmax", dtype="float32", name="probs"),
            ]
        )
        model = keras.Sequential(
            [
                keras.Input((8,)),
                Standardize(float32_tensors, name="standardize", **extra),
                keras.layers.Dense(32, activation="relu", name="hidden"),
                *head,
            ]
        )
        keras.config.set_dtype_policy("float32")
        return model

    return build_model


def make_step(scale_loss=True):
    def train_step(model, optimizer, loss_fn, x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
            scaled = optimizer.scale_loss(loss) if scale_loss else loss
        grads = tape.gradient(scaled, model.trainable_variables)
        optimizer.apply(grads, model.trainable_variables)
        return loss

    return train_step


def make_compile(auto_scale_loss=False, factor=1024.0):
    def compile_model(model):
        model.compile(
            optimizer=keras.optimizers.SGD(0.1, loss_scale_factor=factor),
            loss="sparse_categorical_crossentropy",
            auto_scale_loss=auto_scale_loss,
        )

    return compile_model


def test_the_fixed_script_passes():
    feedback = ch10.capstone(make_build(), make_step(), make_compile())
    assert feedback.passed, feedback.message
    assert keras.config.dtype_policy().name == "float32"


def test_a_float32_standardize_layer_on_purpose_also_passes():
    assert ch10.capstone(make_build(standardize_float32=True), make_step(), make_compile()).passed


def test_the_broken_script_gets_all_four_mistakes_named():
    feedback = ch10.capstone(
        make_build(half_output=True, float32_tensors=True),
        make_step(scale_loss=False),
        make_compile(auto_scale_loss=True),
    )
    assert not feedback.passed
    assert feedback.message.startswith("Still wrong (4): (1) The model's output is float16")
    numbered = (  # as the solution numbers them
        "(2) train_step's update is 1024 times too small",
        "(3) Layer standardize computes in float16 but returns float32",
        "(4) compile wrapped the optimizer in a LossScaleOptimizer",
    )
    positions = [feedback.message.index(words) for words in numbered]
    assert positions == sorted(positions) and "starting at 32768" in feedback.message


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        ({"build": make_build(half_output=True)}, "output is float16"),
        ({"build": make_build(float32_tensors=True)}, "Layer standardize computes in float16"),
        ({"step": make_step(scale_loss=False)}, "1024 times too small"),
        ({"compile": make_compile(auto_scale_loss=True)}, "auto_scale_loss=False"),
        ({"compile": make_compile(factor=None)}, "loss_scale_factor=None"),
        ({"compile": make_compile(factor=128.0)}, "loss_scale_factor=128"),
        ({"build": make_build(policy="float32")}, "No layer of the model computes in float16"),
        ({"compile": lambda model: None}, "has no optimizer"),
    ],
)
def test_each_capstone_mistake_alone_is_named_alone(arguments, words):
    feedback = ch10.capstone(
        arguments.get("build", make_build()),
        arguments.get("step", make_step()),
        arguments.get("compile", make_compile()),
    )
    assert not feedback.passed
    assert feedback.message.startswith("Still wrong (1): ") and words in feedback.message


def test_capstone_reports_errors_and_placeholders():
    def raises():
        raise RuntimeError("no model")

    assert "RuntimeError: no model" in ch10.capstone(raises, make_step(), make_compile()).message
    assert "Replace the ..." in ch10.capstone(make_build(), ..., make_compile()).message
    assert "Expected callable" in ch10.capstone(make_build(), make_step(), 3).message
    assert "Expected keras.Model" in ch10.capstone(lambda: 3, make_step(), make_compile()).message


def test_messages_follow_the_language():
    i18n.set_language("zh")
    try:
        assert (
            "还有 1 处错误" in ch10.capstone(make_build(), make_step(False), make_compile()).message
        )
        assert "正确" in ch10.first_nan("rate").message
    finally:
        i18n.set_language("en")
