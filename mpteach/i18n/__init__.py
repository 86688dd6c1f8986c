"""One message catalogue for every language of the course.

Messages live in domain modules beside this file (``formats.py``, ``doctor.py``, ...), each a
``MESSAGES`` dict ``{key: {"en": ..., "zh": ..., "es": ..., "ko": ..., "ru": ...}}``, so that a
missing translation is visible next to the English text. Keys are ``"<domain>.<name>"``.

>>> from mpteach import i18n
>>> i18n.set_language("es")
>>> i18n.t("common.language_name")
'Español'
>>> i18n.set_language("en")
>>> i18n.set_language("fr")
Traceback (most recent call last):
...
ValueError: language='fr' is not available; choose one of 'en', 'zh', 'es', 'ko', 'ru'.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

LANGUAGES: tuple[str, ...] = ("en", "zh", "es", "ko", "ru")
_state = {"language": "en"}


def _check(lang: str) -> str:
    if lang not in LANGUAGES:
        choices = ", ".join(repr(x) for x in LANGUAGES)
        raise ValueError(f"language={lang!r} is not available; choose one of {choices}.")
    return lang


def set_language(lang: str) -> None:
    """Set the language of widget labels, checks and reports (one of ``LANGUAGES``)."""
    _state["language"] = _check(lang)


def get_language() -> str:
    """The current language code, ``'en'`` unless :func:`set_language` chose another."""
    return _state["language"]


@cache
def catalogue() -> dict[str, dict[str, str]]:
    """Every message of every domain module, merged; a key defined twice is an error."""
    merged: dict[str, dict[str, str]] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for key, texts in module.MESSAGES.items():
            if key in merged:
                raise RuntimeError(f"message key {key!r} is defined twice (in {info.name})")
            merged[key] = texts
    return merged


def t(key: str, lang: str | None = None, /, **values: object) -> str:
    """The message ``key`` in ``lang`` (default: the current language), formatted with ``values``."""
    texts = catalogue()[key]
    return texts[_check(lang or get_language())].format(**values)
