"""The message catalogue: every key in every language, same placeholders, really translated."""

from __future__ import annotations

import re
import string

import pytest

from mpteach import i18n

SCRIPT = {  # a translated message must contain letters of its language's script
    "zh": re.compile(r"[\u4e00-\u9fff]"),
    "ko": re.compile(r"[\uac00-\ud7af]"),
    "ru": re.compile(r"[\u0400-\u04ff]"),
}


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("key", sorted(i18n.catalogue()))
def test_every_language_has_the_message_with_the_same_placeholders(key):
    texts = i18n.catalogue()[key]
    assert set(texts) == set(i18n.LANGUAGES), f"{key}: languages {sorted(texts)}"
    for lang, text in texts.items():
        assert text.strip(), f"{key}[{lang}] is empty"
        assert _fields(text) == _fields(texts["en"]), (
            f"{key}[{lang}] placeholders differ from English"
        )


@pytest.mark.parametrize("key", sorted(i18n.catalogue()))
def test_messages_with_words_are_written_in_their_language(key):
    texts = i18n.catalogue()[key]
    english_words = re.sub(r"\{[^}]*\}", "", texts["en"])
    if len(re.findall(r"[A-Za-z]{3,}", english_words)) < 2:
        return  # a symbol, a unit or a code name: nothing to translate
    for lang, script in SCRIPT.items():
        assert script.search(texts[lang]), (
            f"{key}[{lang}] is not written in its language: {texts[lang]!r}"
        )
    assert texts["es"] != texts["en"], f"{key}[es] is the English text"


def test_unknown_language_is_refused_with_the_choices():
    with pytest.raises(ValueError, match=r"language='de'.*'en', 'zh', 'es', 'ko', 'ru'"):
        i18n.set_language("de")
    with pytest.raises(ValueError, match="language='xx'"):
        i18n.t("common.language_name", "xx")


def test_language_switch_changes_the_text():
    assert i18n.t("common.language_name") == "English"
    i18n.set_language("ko")
    assert i18n.t("common.language_name") == "한국어"
    assert i18n.t("common.language_name", "ru") == "Русский"


# Korean particles that change with the last sound of the word before them (가/이, 는/은, …).
KO_PARTICLE_AFTER_VALUE = re.compile(
    r"(1/)?\{(\w+)[^}]*\}(이|가|은|는|을|를|와|과|으로|로)(?![가-힣])"
)
# Values whose Korean reading always ends the same way: percentages (…퍼센트) and 1/N (…분의 일).
KO_KNOWN_ENDINGS = {"percent", "flushed", "subnormal", "normal", "overflow", "zero"}


@pytest.mark.parametrize("key", sorted(i18n.catalogue()))
def test_no_korean_particle_depends_on_an_unknown_value(key):
    """A Korean particle after a placeholder must suit every value: the value is read aloud
    (float16 = 플로트십육), so 가 or 이 depends on it. Name what it is instead (``{compute} dtype이``),
    or put the value in parentheses after a noun (``입력한 값({answer})은``)."""
    for fraction, name, particle in KO_PARTICLE_AFTER_VALUE.findall(i18n.catalogue()[key]["ko"]):
        known = name in KO_KNOWN_ENDINGS or (fraction and particle == "로")
        assert known, f"{key}[ko]: a particle {particle!r} follows {{{name}}}"


# A Russian noun after a number takes the form the number asks for (1 шаг, 2 шага, 5 шагов; after
# «после», «из»: 1 шага, 2 шагов). The nouns the catalogue counts, in those forms:
RU_COUNT_NOUN = re.compile(
    r"\{(\w+)\} (?:[а-яё]+(?:ых|их) )?"
    r"(?:шагов|шага|строк|значений|раундов|каналов|канала|имён|нейронов|нейрона|выходов|"
    r"примеров|батчей|удвоений)\b"
)
# Messages whose counts the course itself sets, so the form was chosen for those values.
RU_COUNTS_THE_COURSE_SETS = {
    "checks.ch00.memory_wrong": "the exercise model's parameter count",
    "checks.ch06.asym_climb": "the exercise's scales and DEFAULT_GROWTH_STEPS (2000)",
    "checks.ch06.asym_ok": "the exercise's scales and DEFAULT_GROWTH_STEPS (2000)",
    "checks.ch08.tensor_cores_ok": "VOCABULARY (33 278)",
    "checks.ch08.tpu_ok": "UNITS (1000)",
    "checks.ch09.tuple_of_names": "len(PATHS) (4)",
    "checks.ch10.nan_ok": "the exercise model's output",
    "dynamics.every": "the growth steps of SETTINGS (test below)",
    "dynamics.title": "GROWTH_STEPS; 1 has its own message (test below)",
    "formats.grad.source": "the constants of the gradient model",
    "out.ch05.weights_memory": "the chapter's model",
    "out.ch07.after_steps": "the chapter's loop",
    "out.ch10.more_steps": "the chapter's loop",
    "out.skipped_doubled": "the chapter's simulation",
    "out.units_weights": "the chapter's layers",
    "sources.notes.tf_cnn_fp16": "the source's 100 batches",
}


@pytest.mark.parametrize("key", sorted(i18n.catalogue()))
def test_no_russian_noun_agrees_with_an_unknown_count(key):
    """A count that a learner, a benchmark option or a model can set goes after the noun
    (``число лишних строк — {waste}``, ``значений inf: {inf}``), which reads right for any value."""
    for name in RU_COUNT_NOUN.findall(i18n.catalogue()[key]["ru"]):
        assert key in RU_COUNTS_THE_COURSE_SETS, f"{key}[ru]: a counted noun follows {{{name}}}"


def test_every_growth_choice_reads_right_in_russian():
    """«после {growth} конечных шагов» and «каждые {steps} шагов» suit the counts whose plural
    form is «many» (5, 10, 2000, 50 000), not 21 (после 21 шага) or 22 (каждые 22 шага); a growth
    of 1 has its own title."""
    from mpteach.simulate import SETTINGS
    from mpteach.widgets.loss_scale_dynamics import GROWTH_STEPS, title_text

    counts = {n for n in GROWTH_STEPS if n != 1} | {g for _, g in SETTINGS.values() if g}
    assert all(n % 10 in (0, 5, 6, 7, 8, 9) or 11 <= n % 100 <= 14 for n in counts), sorted(counts)
    assert "каждого конечного шага" in title_text(1.0, 1, "ru")
    assert "2000 конечных шагов" in title_text(1.0, 2000, "ru")
