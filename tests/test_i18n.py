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
