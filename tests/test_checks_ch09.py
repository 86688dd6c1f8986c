"""Chapter 09's self-checks: right answers pass, each kind of wrong answer says what is wrong."""

from __future__ import annotations

import re

import pytest

from mpteach import i18n
from mpteach.checks import ch09

RIGHT_PATHS = ("mixed_float16", "float32", "mixed_bfloat16", "error")


@pytest.mark.parametrize("answer", ["float8_e5m2", "E5M2", " e5m2 "])
def test_e5m2_holds_the_span(answer):
    feedback = ch09.format_for_span(answer)
    assert feedback.passed
    assert "31.8 octaves" in feedback.message and "23.3" in feedback.message


@pytest.mark.parametrize("answer", ["float8_e4m3fn", "E4M3", "e4m3fn"])
def test_e4m3_is_too_narrow_and_says_where_the_smallest_lands(answer):
    feedback = ch09.format_for_span(answer)
    assert not feedback.passed
    assert "17.8 octaves" in feedback.message and "4.48e-05" in feedback.message
    assert "zero" in feedback.message


@pytest.mark.parametrize("answer", ["float16", "bfloat16", "fp8"])
def test_other_formats_are_named_with_the_choices(answer):
    feedback = ch09.format_for_span(answer)
    assert not feedback.passed
    assert "'float8_e4m3fn', 'float8_e5m2'" in feedback.message


def test_octaves_come_from_the_formats():
    assert ch09.octaves("float16") == pytest.approx(40.0, abs=0.01)
    assert ch09.octaves("float8_e5m2") > ch09.octaves("float8_e4m3fn")


def test_delayed_scale_takes_the_history_max_over_448():
    feedback = ch09.delayed_scale(2.0 / 448)
    assert feedback.passed and "0.004464" in feedback.message
    assert ch09.delayed_scale(0.004464).passed  # rounded as printed


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        (448 / 2.0, "reciprocal"),
        (0.7 / 448, "latest amax"),
        (2.0 / 57344, "float8_e5m2's maximum"),
        (1.2 / 448, "largest amax of the history"),
    ],
)
def test_delayed_scale_names_the_mistake(answer, words):
    feedback = ch09.delayed_scale(answer)
    assert not feedback.passed and words in feedback.message


def test_policies_by_path_accepts_names_and_policies():
    assert ch09.policies_by_path(RIGHT_PATHS).passed
    as_policies = (
        ch09.PolicyMap("mixed_float16").default_policy,
        "float32",
        "mixed_bfloat16",
        "error",
    )
    assert ch09.policies_by_path(list(as_policies)).passed


@pytest.mark.parametrize(
    ("position", "wrong", "words"),
    [
        (0, "float32", "matches 'encoder/.*' and nothing else, so it gets mixed_float16"),
        (1, "mixed_bfloat16", "matches '.*/norm' and nothing else, so it gets float32"),
        (2, "float32", "no prefix matching"),
        (3, "mixed_float16", "two keys, 'encoder/.*', '.*/norm'"),
    ],
)
def test_policies_by_path_explains_the_first_wrong_path(position, wrong, words):
    answer = list(RIGHT_PATHS)
    answer[position] = wrong
    feedback = ch09.policies_by_path(tuple(answer))
    assert not feedback.passed
    assert repr(ch09.PATHS[position]) in feedback.message and words in feedback.message


@pytest.mark.parametrize("check", [ch09.format_for_span, ch09.delayed_scale, ch09.policies_by_path])
def test_placeholder_and_wrong_types_are_explained(check):
    assert not check(...).passed and "..." in check(...).message
    wrong_type = check(True) if check is not ch09.format_for_span else check(5)
    assert not wrong_type.passed and "Expected" in wrong_type.message


def test_feedback_speaks_the_notebook_language():
    i18n.set_language("zh")
    assert "正确" in ch09.format_for_span("float8_e5m2").message
    i18n.set_language("ru")
    assert "обратная" in ch09.delayed_scale(224.0).message
    i18n.set_language("es")
    assert (
        "por defecto"
        in ch09.policies_by_path(("mixed_float16", "float32", "float32", "error")).message
    )
    i18n.set_language("ko")
    assert "정답" in ch09.policies_by_path(RIGHT_PATHS).message


@pytest.mark.parametrize("lang", ["zh", "es", "ko", "ru"])
def test_path_feedback_has_no_english_words(lang):
    """What the check builds into a message (which keys match, what type was expected) is in the
    notebook's language too, not only the message around it."""
    i18n.set_language(lang)
    messages = [ch09.policies_by_path(("float32",)).message]
    for position in range(len(RIGHT_PATHS)):
        answer = list(RIGHT_PATHS)
        answer[position] = "bfloat16"
        messages.append(ch09.policies_by_path(tuple(answer)).message)
    messages.append(ch09._why("head"))  # an exact key of the map
    english = {"exact", "key", "keys", "matches", "names", "path", "whole"}  # tuple: a type name
    for message in messages:
        words = {w.lower() for w in re.findall(r"[A-Za-z]+", message)}
        assert not words & english, message
