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
