"""Chapter 08's self-checks: right answers pass, each kind of wrong answer says what is wrong."""

from __future__ import annotations

import pytest

from mpteach import i18n
from mpteach.checks import ch08


def test_unanswered_gets_a_reminder_not_a_verdict():
    for check in (ch08.pad_for_tensor_cores, ch08.pad_for_tpu):
        assert check(...).message == i18n.t("checks.unanswered")


def test_pad_for_tensor_cores():
    assert ch08.pad_for_tensor_cores(33_280).passed
    unpadded = ch08.pad_for_tensor_cores(33_278)
    assert not unpadded.passed and "remainder is 6" in unpadded.message
    assert "smaller than 33278" in ch08.pad_for_tensor_cores(33_272).message
    wasteful = ch08.pad_for_tensor_cores(33_792)
    assert not wasteful.passed and "514" in wasteful.message
    assert not ch08.pad_for_tensor_cores(33_280.0).passed  # a size is a whole number
    assert not ch08.pad_for_tensor_cores(True).passed


def test_pad_for_tpu():
    assert ch08.pad_for_tpu(1024).passed
    assert "multiple of 128" in ch08.pad_for_tpu(1000).message
    assert "multiple of 128" in ch08.pad_for_tpu(1008).message  # fine for a GPU, not for a TPU
    assert not ch08.pad_for_tpu(1152).passed


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_feedback_speaks_the_notebook_language(lang):
    english = ch08.pad_for_tpu(1000).message
    i18n.set_language(lang)
    translated = ch08.pad_for_tpu(1000).message
    assert translated != english and "1000" in translated and "128" in translated
    assert ch08.pad_for_tensor_cores(33_280).message == i18n.t(
        "checks.ch08.tensor_cores_ok", best=33_280, multiple=8, size=33_278, answer=33_280
    )
