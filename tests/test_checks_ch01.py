"""Chapter 01's self-checks: right answers pass, each kind of wrong answer says what is wrong."""

from __future__ import annotations

import pytest

from mpteach import i18n
from mpteach.checks import ch01


def test_unanswered_gets_a_reminder_not_a_verdict():
    for check in (ch01.largest_float16, ch01.formats_keeping_square, ch01.smallest_update):
        feedback = check(...)
        assert not feedback.passed
        assert feedback.message == i18n.t("checks.unanswered")


def test_largest_float16():
    assert ch01.largest_float16(65504).passed
    assert ch01.largest_float16(65504.0).passed
    overflow = ch01.largest_float16(65520)
    assert not overflow.passed and "inf" in overflow.message and "65504" in overflow.message
    rounded = ch01.largest_float16(65000)
    assert not rounded.passed and "64992" in rounded.message  # what float16 really stores
    small = ch01.largest_float16(32768)
    assert not small.passed and "32800" in small.message  # the next float16 above 32768


@pytest.mark.parametrize("answer", ["65504", None, True, [65504]])
def test_largest_float16_wants_a_number(answer):
    feedback = ch01.largest_float16(answer)
    assert not feedback.passed and type(answer).__name__ in feedback.message


def test_formats_keeping_square():
    assert ch01.formats_keeping_square(["bfloat16", "float32"]).passed
    assert ch01.formats_keeping_square(("float32", "bfloat16")).passed
    flushed = ch01.formats_keeping_square(["float32", "bfloat16", "float16"])
    assert not flushed.passed and "float16" in flushed.message and "5.96e-08" in flushed.message
    missed = ch01.formats_keeping_square(["float32"])
    assert not missed.passed and missed.message.startswith("bfloat16")
    unknown = ch01.formats_keeping_square(["float32", "bfloat16", "fp8"])
    assert not unknown.passed and "fp8" in unknown.message and "float16" in unknown.message
    assert not ch01.formats_keeping_square(3).passed


def test_smallest_update():
    assert ch01.smallest_update(2**-10).passed
    lost = ch01.smallest_update(2**-11)
    assert not lost.passed and "2**-11" in lost.message
    too_big = ch01.smallest_update(2**-9)
    assert not too_big.passed and "2**-10" in too_big.message
    assert "2**-8" in ch01.smallest_update(0.001).message  # not a power of two: shows the form
    assert not ch01.smallest_update(-(2**-10)).passed


@pytest.mark.parametrize("lang", ["zh", "es", "ko", "ru"])
def test_feedback_speaks_the_notebook_language(lang):
    english = ch01.largest_float16(65520).message
    i18n.set_language(lang)
    translated = ch01.largest_float16(65520).message
    assert translated != english
    assert "65504" in translated and "65520" in translated
    right = ch01.smallest_update(2**-10)
    assert right.passed and right.message != i18n.t(
        "checks.ch01.update_ok", "en", answer="2**-10", lost="2**-11"
    )
    assert ch01.formats_keeping_square(["float16"]).message == i18n.t(
        "checks.ch01.square_flushed", fmt="float16", tiny="5.96e-08"
    )
