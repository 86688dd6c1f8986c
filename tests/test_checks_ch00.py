"""Chapter 00's self-checks: right answers pass, each kind of wrong answer says what is wrong."""

from __future__ import annotations

import numpy as np
import pytest

from mpteach import hardware, i18n
from mpteach.checks import ch00

RIGHT_POLICIES = {
    "T4": "mixed_float16",
    "P100": "float32",
    "TPU": "mixed_bfloat16",
    "plain CPU": "float32",
}


def test_unanswered_gets_a_reminder_not_a_verdict():
    for check in (ch00.variable_dtype, ch00.policy_for_hardware, ch00.activation_megabytes):
        feedback = check(...)
        assert not feedback.passed and feedback.message == i18n.t("checks.unanswered")
    half_done = ch00.policy_for_hardware(RIGHT_POLICIES | {"TPU": ...})
    assert half_done.message == i18n.t("checks.unanswered")


def test_variable_dtype():
    assert ch00.variable_dtype("float32").passed
    assert ch00.variable_dtype(np.dtype("float32")).passed  # a dtype object is read by its name
    compute = ch00.variable_dtype("float16")
    assert not compute.passed and "compute dtype" in compute.message
    other = ch00.variable_dtype("int8")
    assert not other.passed and other.message.startswith("int8")


def test_policy_for_hardware():
    assert ch00.policy_for_hardware(RIGHT_POLICIES).passed
    wrong_gpu = ch00.policy_for_hardware(RIGHT_POLICIES | {"P100": "mixed_float16"})
    assert not wrong_gpu.passed and "P100" in wrong_gpu.message and "6.0" in wrong_gpu.message
    wrong_tpu = ch00.policy_for_hardware(RIGHT_POLICIES | {"TPU": "mixed_float16"})
    assert not wrong_tpu.passed and "bfloat16" in wrong_tpu.message
    unknown = ch00.policy_for_hardware(RIGHT_POLICIES | {"T4": "fp16"})
    assert (
        not unknown.passed and "'fp16'" in unknown.message and "'mixed_float16'" in unknown.message
    )
    missing = ch00.policy_for_hardware({"T4": "mixed_float16"})
    assert not missing.passed and "P100" in missing.message
    assert not ch00.policy_for_hardware(["mixed_float16"]).passed


def test_the_right_policies_are_what_the_hardware_module_recommends():
    for machine, info in ch00.EXAMPLE_HARDWARE.items():
        assert hardware.best_policy(info) == RIGHT_POLICIES[machine]


def test_activation_megabytes():
    assert ch00.activation_megabytes(100).passed
    assert ch00.activation_megabytes(100.0).passed
    as_float32 = ch00.activation_megabytes(200)
    assert not as_float32.passed and "float32" in as_float32.message
    other = ch00.activation_megabytes(50)
    assert not other.passed and "50,000,000" in other.message
    assert not ch00.activation_megabytes("100").passed


@pytest.mark.parametrize("lang", ["zh", "es", "ko", "ru"])
def test_feedback_speaks_the_notebook_language(lang):
    english = ch00.policy_for_hardware(RIGHT_POLICIES | {"TPU": "float32"}).message
    i18n.set_language(lang)
    translated = ch00.policy_for_hardware(RIGHT_POLICIES | {"TPU": "float32"}).message
    assert translated != english and translated.startswith("TPU")
    assert i18n.t("speed.verdict_tpu") in translated  # the reason, in the same language
    assert ch00.activation_megabytes(100).message == i18n.t(
        "checks.ch00.memory_ok", mb="100", mb32="200"
    )
