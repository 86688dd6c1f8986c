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
import re
import string
import unicodedata
from collections.abc import Sequence
from functools import cache

from mpteach.i18n.sources import NAMES

LANGUAGES: tuple[str, ...] = ("en", "zh", "es", "ko", "ru")
_state = {"language": "en"}
# How each language groups thousands in printed numbers (CONTRIBUTING, "Numbers"): Chinese does not.
THOUSANDS_SEPARATOR = {"en": ",", "zh": "", "es": " ", "ko": ",", "ru": " "}


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


@cache
def _data_patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    """The English text of every ``sources.*`` message as a pattern, ``{name}`` matching any text."""
    patterns = []
    for key, texts in catalogue().items():
        if key.startswith("sources."):
            parts = string.Formatter().parse(texts["en"])
            regex = "".join(re.escape(text) + (f"(?P<{name}>.+)" if name else "")
                            for text, name, _, _ in parts)  # fmt: skip
            patterns.append((re.compile(regex, re.DOTALL), key))
    return tuple(patterns)


@cache
def _data_message(text: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    matches = [(key, m) for pattern, key in _data_patterns() if (m := pattern.fullmatch(text))]
    if not matches:
        raise LookupError(
            f"{text!r} has no translation in mpteach/i18n/sources.py: add it there (or, if it is "
            "a name that stays as it is in every language, add it to NAMES there)"
        )
    if len(matches) > 1:
        keys = ", ".join(key for key, _ in matches)
        raise LookupError(f"{text!r} matches several messages ({keys}): make them distinct")
    key, match = matches[0]
    return key, tuple(match.groupdict().items())


def localized(text: str, lang: str | None = None) -> str:
    """A string of mpteach's data (published measurements, vendor claims) in ``lang`` (default:
    the current language), translated in ``mpteach/i18n/sources.py``: there a message's English
    text is the data string, ``{placeholders}`` standing for names and numbers that stay as they
    are. A name listed in ``NAMES`` there stays as it is; any other text is a ``LookupError``.

    >>> localized("pre-training, sequence length 512", "zh")
    '预训练，序列长度 512'
    >>> localized("NVIDIA V100 32GB (SXM3) (1 GPU; log folder x_TF2_2)", "es")
    'NVIDIA V100 32GB (SXM3) (1 GPU; carpeta de registros x_TF2_2)'
    >>> localized("ResNet-50", "ko")
    'ResNet-50'
    >>> localized("warm-up", "en")
    Traceback (most recent call last):
    ...
    LookupError: 'warm-up' has no translation in mpteach/i18n/sources.py: add it there (or, if it is a name that stays as it is in every language, add it to NAMES there)
    """
    lang = _check(lang or get_language())
    if text in NAMES:
        return text
    key, values = _data_message(text)
    return t(key, lang, **dict(values))


def width(text: str) -> int:
    """Columns ``text`` takes in a monospace font: Chinese and Korean characters take two.

    >>> width("loss"), width("损失"), width("손실")
    (4, 4, 4)
    """
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def number(value: int, lang: str | None = None) -> str:
    """An integer with its thousands grouped as ``lang`` writes them (none in Chinese).

    >>> number(20037642, "en"), number(20037642, "zh"), number(20037642, "ru")
    ('20,037,642', '20037642', '20 037 642')
    """
    return f"{value:,}".replace(",", THOUSANDS_SEPARATOR[_check(lang or get_language())])


def join(items: Sequence[object], lang: str | None = None) -> str:
    """Items of a list in running text: ``'a, b'``, in Chinese ``'a、b'``.

    >>> join(["AMX-BF16", "AVX512-BF16"], "zh")
    'AMX-BF16、AVX512-BF16'
    """
    return t("common.list_separator", lang).join(map(str, items))


def percent(value: float, lang: str | None = None, digits: int = 1) -> str:
    """``value`` (already times 100) as a percentage: ``'3.6 %'``, in Chinese and Korean ``'3.6%'``.

    >>> percent(3.6, "en"), percent(3.6, "ko")
    ('3.6 %', '3.6%')
    """
    return t("common.percent", lang, value=f"{value:.{digits}f}")


def sentences(parts: Sequence[str]) -> str:
    """Sentences joined into one paragraph: a space after each, none after a Chinese full stop.

    >>> sentences(["A.", "B."]), sentences(["甲。", "乙。"])
    ('A. B.', '甲。乙。')
    """
    return "".join(p if p.endswith("。") else p + " " for p in parts).rstrip()


_HAN = "\u3000-\u303f\u4e00-\u9fff\uff00-\uffef"  # CJK punctuation, ideographs, full-width forms
_NO_BREAK_BEFORE = set("，。、；：！？）」』》】,.;:!?)")
_NO_BREAK_AFTER = set("（「『《【(")


def wrap(text: str, columns: int, first: str = "", rest: str = "") -> str:
    """``text`` in lines at most ``columns`` wide as a monospace font shows them (see
    :func:`width`), the first line starting with ``first`` and the others with ``rest``.

    Lines break at spaces and, since Chinese puts none between words, between two Chinese
    characters, though never before a closing mark such as ``，`` or after an opening one.
    A word longer than a line stays whole.

    >>> print(wrap("Keep the variables in float32 so small updates survive.", 24, "- ", "  "))
    - Keep the variables in
      float32 so small
      updates survive.
    >>> print(wrap("变量保存为 float32，小的更新才不会丢失。", 20, "- ", "  "))
    - 变量保存为
      float32，小的更新
      才不会丢失。
    """
    units: list[str] = []
    for piece in re.findall(f"[{_HAN}]|[^\\s{_HAN}]+|\\s+", text):
        if piece.isspace():
            units[-1:] = [unit + " " for unit in units[-1:]]  # a space ends a unit
        elif units and (piece[0] in _NO_BREAK_BEFORE or units[-1][-1] in _NO_BREAK_AFTER):
            units[-1] += piece
        else:
            units.append(piece)
    lines, line = [], first
    for unit in units:
        if width(line + unit.rstrip()) > columns and line.strip():
            lines.append(line.rstrip())
            line = rest
        line += unit
    return "\n".join([*lines, line.rstrip()])


def pad(labels: Sequence[str], least: int = 0) -> list[str]:
    """``labels`` padded with spaces to one display width (at least ``least``; see :func:`width`),
    so that what follows them lines up in any language.

    >>> pad(["有限步", "inf 步"], 8)
    ['有限步  ', 'inf 步  ']
    """
    widest = max(least, *map(width, labels))
    return [label + " " * (widest - width(label)) for label in labels]


def lined_up(lines: Sequence[str]) -> str:
    """Lines ``label: value`` with their values lined up in any language: each label, with the
    separator that ends it (``': '``, or ``'：'`` in Chinese), is padded to the widest (see
    :func:`width`). A label is everything before the first separator.

    >>> print(lined_up(["policy: mixed_float16", "kernel dtype: float32"]))
    policy:       mixed_float16
    kernel dtype: float32
    >>> print(lined_up(["策略：mixed_float16", "kernel 的 dtype：float32"]))
    策略：           mixed_float16
    kernel 的 dtype：float32
    >>> lined_up(["no separator"])
    Traceback (most recent call last):
    ...
    ValueError: lines must each hold 'label: value' (or 'label：value'); 'no separator' has no separator
    """
    parts = []
    for line in lines:
        if not (match := re.match(r"(.*?(?:：|: ))(.*)", line, re.DOTALL)):
            raise ValueError(
                f"lines must each hold 'label: value' (or 'label：value'); {line!r} has no separator"
            )
        parts.append(match.groups())
    labels = pad([label for label, _ in parts])
    return "\n".join(label + value for label, (_, value) in zip(labels, parts, strict=True))


def aligned(
    rows: Sequence[Sequence[str]],
    least: Sequence[int],
    right: Sequence[bool],
    gaps: Sequence[int],
) -> list[str]:
    """Rows of cells as lines of a fixed-layout table, in any language (see :func:`width`):
    column ``i`` is at least ``least[i]`` wide, right-aligned where ``right[i]``, and followed by
    ``gaps[i]`` spaces (none after the last). Lines keep their trailing spaces.

    >>> aligned([["格式", "位"], ["float16", "16"]], least=(4, 3), right=(False, True), gaps=(2,))
    ['格式      位', 'float16   16']
    """
    widths = [max(w, *(width(row[i]) for row in rows)) for i, w in enumerate(least)]

    def cell(text: str, i: int) -> str:
        fill = " " * (widths[i] - width(text))
        return fill + text if right[i] else text + fill

    spaces = [" " * n for n in gaps] + [""]
    return ["".join(cell(c, i) + spaces[i] for i, c in enumerate(row)) for row in rows]


def columns(rows: Sequence[Sequence[object]], gap: int = 2) -> str:
    """Rows of values as aligned text columns, in any language (see :func:`width`).

    The first row is usually the header, from the catalogue, so its width depends on the language.

    >>> print(columns([["格式", "位"], ["float16", 16]]))
    格式     位
    float16  16
    """
    cells = [[str(value) for value in row] for row in rows]
    n = max(map(len, cells))
    full = [row + [""] * (n - len(row)) for row in cells]  # a short row ends early
    lines = aligned(full, least=[0] * n, right=[False] * n, gaps=[gap] * (n - 1))
    return "\n".join(line.rstrip() for line in lines)
