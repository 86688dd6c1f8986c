"""Chapter 07's self-checks: a real training step is run and its mistakes are named."""

from __future__ import annotations

import pytest

pytest.importorskip("tensorflow")
import keras  # noqa: E402
import tensorflow as tf  # noqa: E402

from mpteach import i18n  # noqa: E402
from mpteach.checks import ch07  # noqa: E402


def make_step(mistake: str = "none"):
    def step(model, optimizer, loss_fn, x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x))
            scaled = loss if mistake == "no scale" else optimizer.scale_loss(loss)
        grads = tape.gradient(scaled, model.trainable_variables)
        if mistake == "twice":
            grads = [g / optimizer.scale_loss(1.0) for g in grads]
        if mistake == "no apply":
            return loss
        target = optimizer.inner_optimizer if mistake == "inner" else optimizer
        target.apply(grads, model.trainable_variables)
        return scaled if mistake == "scaled loss" else loss

    return step


def test_a_correct_step_passes():
    assert ch07.train_step(make_step()).passed


@pytest.mark.parametrize(
    ("mistake", "words"),
    [
        ("no scale", "1024 times too small"),
        ("twice", "1024 times too small"),
        ("inner", "1024 times too large"),
        ("no apply", "did not change"),
        ("scaled loss", "unscaled loss"),
    ],
)
def test_each_mistake_is_named(mistake, words):
    feedback = ch07.train_step(make_step(mistake))
    assert not feedback.passed
    assert words in feedback.message


def test_a_step_that_raises_is_reported_not_raised():
    def broken(model, optimizer, loss_fn, x, y):
        raise KeyError("oops")

    feedback = ch07.train_step(broken)
    assert not feedback.passed and "KeyError" in feedback.message


def test_iterations_after():
    assert ch07.iterations_after(3).passed
    keras2 = ch07.iterations_after(5)
    assert not keras2.passed and "Keras 2" in keras2.message
    assert "applied" in ch07.iterations_after(2).message
    assert not ch07.iterations_after(3.0).passed  # not a whole number


def test_fixed_scale():
    assert ch07.fixed_scale(keras.optimizers.SGD(0.1, loss_scale_factor=128)).passed
    lso = keras.optimizers.LossScaleOptimizer(keras.optimizers.SGD(0.1), initial_scale=128)
    assert "always dynamic" in ch07.fixed_scale(lso).message
    assert "loss_scale_factor=128" in ch07.fixed_scale(keras.optimizers.SGD(0.1)).message
    assert "256" in ch07.fixed_scale(keras.optimizers.SGD(0.1, loss_scale_factor=256)).message
    assert "0.01" in ch07.fixed_scale(keras.optimizers.SGD(0.01, loss_scale_factor=128)).message
    assert "Adam" in ch07.fixed_scale(keras.optimizers.Adam(0.1, loss_scale_factor=128)).message
    assert not ch07.fixed_scale("SGD").passed


def test_placeholders_and_languages():
    for check in (ch07.train_step, ch07.iterations_after, ch07.fixed_scale):
        assert "..." in check(...).message
    i18n.set_language("zh")
    assert (
        "Keras 2" in ch07.iterations_after(5).message and "跳过" in ch07.iterations_after(5).message
    )
    i18n.set_language("ru")
    message = ch07.train_step(make_step("twice")).message
    assert "1024" in message and "масштаб" in message
