"""Chapter 05's self-checks: right answers pass, each kind of wrong answer says what is wrong."""

from __future__ import annotations

import pytest

keras = pytest.importorskip("keras")

from mpteach import i18n  # noqa: E402
from mpteach.checks import ch05  # noqa: E402

RIGHT_WRAPS = {"mixed_float16": True, "mixed_bfloat16": False, "float32": False}


def test_unanswered_gets_a_reminder_not_a_verdict():
    for check in (ch05.float32_output, ch05.compile_wraps):
        assert check(...).message == i18n.t("checks.unanswered")
    assert ch05.compile_wraps(RIGHT_WRAPS | {"float32": ...}).message == i18n.t("checks.unanswered")


def test_float32_output():
    keras.config.set_dtype_policy("mixed_float16")
    assert ch05.float32_output(keras.layers.Activation("softmax", dtype="float32")).passed
    policy = keras.DTypePolicy("float32")
    assert ch05.float32_output(keras.layers.Activation("softmax", dtype=policy)).passed
    float16 = ch05.float32_output(keras.layers.Activation("softmax"))
    assert (
        not float16.passed
        and "mixed_float16" in float16.message
        and 'dtype="float32"' in float16.message
    )
    whole = ch05.float32_output(keras.layers.Dense(10, activation="softmax", dtype="float32"))
    assert not whole.passed and "Split" in whole.message
    relu = ch05.float32_output(keras.layers.Activation("relu", dtype="float32"))
    assert not relu.passed and "softmax" in relu.message
    assert "str" in ch05.float32_output("softmax").message


def test_wrapped_by_compile_asks_keras_and_restores_the_global_policy():
    keras.config.set_dtype_policy("mixed_bfloat16")
    assert ch05.wrapped_by_compile("mixed_float16") is True
    assert ch05.wrapped_by_compile("mixed_bfloat16") is False
    assert keras.config.dtype_policy().name == "mixed_bfloat16"


def test_compile_wraps():
    assert ch05.compile_wraps(RIGHT_WRAPS).passed
    bf16 = ch05.compile_wraps(RIGHT_WRAPS | {"mixed_bfloat16": True})
    assert not bf16.passed and "exponent" in bf16.message
    f16 = ch05.compile_wraps(RIGHT_WRAPS | {"mixed_float16": False})
    assert not f16.passed and "auto_scale_loss=False" in f16.message
    f32 = ch05.compile_wraps(RIGHT_WRAPS | {"float32": True})
    assert not f32.passed and f32.message.startswith("float32")
    assert "'yes'" in ch05.compile_wraps(RIGHT_WRAPS | {"float32": "yes"}).message
    assert "mixed_bfloat16" in ch05.compile_wraps({"mixed_float16": True}).message


@pytest.mark.parametrize("lang", ["zh", "ko"])
def test_feedback_speaks_the_notebook_language(lang):
    english = ch05.compile_wraps(RIGHT_WRAPS | {"mixed_bfloat16": True}).message
    i18n.set_language(lang)
    translated = ch05.compile_wraps(RIGHT_WRAPS | {"mixed_bfloat16": True}).message
    assert translated != english
    assert translated == i18n.t("checks.ch05.no_wrap_bfloat16", policy="mixed_bfloat16")
