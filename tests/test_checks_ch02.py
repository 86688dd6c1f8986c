"""Chapter 02's self-checks: right answers pass, each kind of wrong answer says what is wrong."""

from __future__ import annotations

import pytest

from mpteach import i18n
from mpteach.checks import ch02

RIGHT = {
    "float16": ("float16", "float16"),
    "mixed_float16": ("float16", "float32"),
    "mixed_bfloat16": ("bfloat16", "float32"),
}


def test_unanswered_gets_a_reminder_not_a_verdict():
    for check in (ch02.policy_dtypes, ch02.float32_layer, ch02.modern_global_policy):
        feedback = check(...)
        assert not feedback.passed and feedback.message == i18n.t("checks.unanswered")


def test_policy_dtypes_right_answer_passes():
    assert ch02.policy_dtypes(RIGHT).passed
    as_lists = {name: list(pair) for name, pair in RIGHT.items()}
    assert ch02.policy_dtypes(as_lists).passed


def test_policy_dtypes_accepts_tensorflow_dtypes():
    tf = pytest.importorskip("tensorflow")
    answer = {**RIGHT, "mixed_float16": (tf.float16, tf.float32)}
    assert ch02.policy_dtypes(answer).passed


@pytest.mark.parametrize(
    "name, pair, key",
    [
        ("mixed_float16", ("float32", "float16"), "checks.ch02.policy_swapped"),
        ("mixed_bfloat16", ("float16", "float32"), "checks.ch02.policy_compute"),
        ("mixed_float16", ("float16", "float16"), "checks.ch02.policy_variable_mixed"),
        ("float16", ("float16", "float32"), "checks.ch02.policy_variable_pure"),
    ],
)
def test_policy_dtypes_names_the_mistake(name, pair, key):
    feedback = ch02.policy_dtypes({**RIGHT, name: pair})
    assert not feedback.passed
    assert feedback.message == i18n.t(
        key, name=name, answer=pair[0] if "compute" in key else pair[1]
    )
    assert repr(name) in feedback.message


def test_policy_dtypes_shape_errors():
    missing = ch02.policy_dtypes({"float16": ("float16", "float16")})
    assert not missing.passed and "'mixed_float16'" in missing.message
    not_pair = ch02.policy_dtypes({**RIGHT, "float16": "float16"})
    assert not not_pair.passed and "(compute_dtype, variable_dtype)" in not_pair.message
    wrong_type = ch02.policy_dtypes([("float16", "float16")])
    assert not wrong_type.passed and "dict" in wrong_type.message and "list" in wrong_type.message


def test_policy_dtypes_speaks_the_language():
    i18n.set_language("zh")
    assert "顺序" in ch02.policy_dtypes({**RIGHT, "mixed_float16": ("float32", "float16")}).message
    i18n.set_language("ru")
    assert "float32" in ch02.policy_dtypes(RIGHT).message
    assert "Верно" in ch02.policy_dtypes(RIGHT).message


@pytest.mark.keras
def test_float32_layer_with_real_keras_layers():
    keras = pytest.importorskip("keras")
    keras.config.set_dtype_policy("mixed_float16")
    assert ch02.float32_layer(keras.layers.Activation("softmax", dtype="float32")).passed
    follows_global = ch02.float32_layer(keras.layers.Activation("softmax"))
    assert not follows_global.passed and "mixed_float16" in follows_global.message
    assert 'dtype="float32"' in follows_global.message
    bf16 = ch02.float32_layer(keras.layers.Activation("softmax", dtype="bfloat16"))
    assert not bf16.passed and "bfloat16" in bf16.message
    a_class = ch02.float32_layer(keras.layers.Activation)
    assert not a_class.passed and "Activation(...)" in a_class.message
    assert not ch02.float32_layer("float32").passed


@pytest.mark.keras
def test_modern_global_policy_with_real_keras():
    keras = pytest.importorskip("keras")
    import mpteach as mp

    keras.config.set_dtype_policy("mixed_float16")
    right = ch02.modern_global_policy(keras.config.dtype_policy())
    assert right.passed and "LossScaleOptimizer" in right.message
    keras.config.set_dtype_policy("float16")
    pure = ch02.modern_global_policy(keras.config.dtype_policy())
    assert not pure.passed and '"float16"' in pure.message
    keras.config.set_dtype_policy("float32")
    other = ch02.modern_global_policy(keras.config.dtype_policy())
    assert not other.passed and "'float32'" in other.message
    ours = ch02.modern_global_policy(mp.Policy("mixed_float16"))
    assert not ours.passed and "keras.config.set_dtype_policy" in ours.message
    i18n.set_language("es")
    name = ch02.modern_global_policy("mixed_float16")
    assert not name.passed and "cadena" in name.message
