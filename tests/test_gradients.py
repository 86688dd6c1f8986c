"""The real gradients behind GradientUnderflow: what the docstrings say about them holds."""

from __future__ import annotations

import numpy as np
import pytest

from mpteach import gradients
from mpteach.widgets.gradient_underflow import GradientUnderflow, underflow_report

pytestmark = pytest.mark.keras


@pytest.fixture(scope="module")
def sample():
    return gradients.sample_gradients()


def test_gradients_are_float32_read_only_and_cached(sample):
    assert set(sample) == {"activations", "weights"}
    weights = 16 * 64 + 5 * 64 * 64 + 64 * 4 + 6 * 64 + 4  # kernels and biases
    assert sample["weights"].size == weights
    assert sample["activations"].size == gradients.BATCH * gradients.DEPTH * gradients.WIDTH
    for values in sample.values():
        assert values.dtype == np.float32 and np.isfinite(values).all()
        assert not values.flags.writeable
    assert gradients.sample_gradients() is sample


def test_activation_gradients_underflow_in_float16_and_loss_scaling_recovers_them(sample):
    values = sample["activations"]
    plain, scaled = underflow_report(values, 1.0), underflow_report(values, 2.0**15)
    assert plain.fraction("zero") > 0.3  # ReLU: many exact zeros, as in the 2018 figure
    nonzero = 1 - plain.fraction("zero")
    assert plain.fraction("underflow_to_zero") > 0.2 * nonzero  # mass below 2**-24
    assert scaled.fraction("underflow_to_zero") < plain.fraction("underflow_to_zero") / 2
    assert scaled.totals["overflow"] == 0
    assert underflow_report(values, 2.0**24).totals["overflow"] > 0
    assert underflow_report(values, 1.0, "bfloat16").totals["underflow_to_zero"] == 0


def test_the_model_stays_float32_under_a_mixed_policy():
    import keras

    keras.config.set_dtype_policy("mixed_float16")  # conftest restores float32 afterwards
    other = gradients.sample_gradients(seed=1)
    assert all(values.dtype == np.float32 for values in other.values())
    assert not np.array_equal(other["weights"], gradients.sample_gradients()["weights"])


def test_widget_uses_the_real_gradients_by_default(sample):
    w = GradientUnderflow(lang="ru", scale_exponent=15)
    assert w.result.size == sample["activations"].size
    assert str(gradients.STEPS) in w.caption.value and "ReLU" in w.caption.value
    w.kind_menu.value = "weights"
    assert w.result.size == sample["weights"].size
