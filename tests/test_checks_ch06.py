"""Chapter 06's self-checks: right answers pass, each kind of wrong answer says what is wrong."""

from __future__ import annotations

import pytest

from mpteach import i18n
from mpteach.checks import ch06


def test_smallest_scale_accepts_two_to_the_fifteen():
    feedback = ch06.smallest_scale(2**15)
    assert feedback.passed
    assert "6.554e-05" in feedback.message and "16384" in feedback.message


@pytest.mark.parametrize("answer", [2**14, 1024, 1])
def test_smallest_scale_too_small_names_the_subnormal_result(answer):
    feedback = ch06.smallest_scale(answer)
    assert not feedback.passed
    assert "Too small" in feedback.message and "6.104e-05" in feedback.message


def test_smallest_scale_larger_than_needed_is_not_the_smallest():
    feedback = ch06.smallest_scale(2**16)
    assert not feedback.passed
    assert "32768" in feedback.message  # the half that already works


@pytest.mark.parametrize("answer", [30000, 3.0, -32768, float("inf")])
def test_smallest_scale_wants_a_power_of_two(answer):
    feedback = ch06.smallest_scale(answer)
    assert not feedback.passed and "power of two" in feedback.message


def test_scale_after_follows_the_rule():
    assert ch06.scale_after(1024).passed
    assert "1024 → 1024 → 1024 → 2048 → 1024" in ch06.scale_after(1024).message


def test_scale_after_spots_an_ignored_inf_step():
    feedback = ch06.scale_after(4096)  # six finite steps: two doublings
    assert not feedback.passed and "halves" in feedback.message


@pytest.mark.parametrize("answer", [2048, 512])
def test_scale_after_other_wrong_answers_get_the_rule(answer):
    feedback = ch06.scale_after(answer)
    assert not feedback.passed
    assert "3 finite steps in a row the scale doubles" in feedback.message


def test_defaults_asymmetry():
    assert ch06.defaults_asymmetry((5, 10000)).passed
    skipped = ch06.defaults_asymmetry((4, 10000))
    assert not skipped.passed and "halv" in skipped.message
    climb = ch06.defaults_asymmetry((5, 2000))
    assert not climb.passed and "2000 finite steps" in climb.message


@pytest.mark.parametrize("check", [ch06.smallest_scale, ch06.scale_after, ch06.defaults_asymmetry])
def test_placeholder_and_wrong_types_are_explained(check):
    assert not check(...).passed and "..." in check(...).message
    assert not check("big").passed


def test_feedback_speaks_the_notebook_language():
    i18n.set_language("ru")
    assert "Верно" in ch06.smallest_scale(2**15).message
    i18n.set_language("zh")
    assert "跳过" in ch06.defaults_asymmetry((4, 10000)).message
    i18n.set_language("ko")
    assert "정답" in ch06.scale_after(1024).message
    i18n.set_language("es")
    assert "potencia de dos" in ch06.smallest_scale(3).message
