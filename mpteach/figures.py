"""Figures in the learner's language, on any machine: mpteach ships the CJK glyphs it draws.

Matplotlib draws text with the fonts installed on the machine; Colab has no Chinese or Korean font,
so labels would come out as empty boxes. ``mpteach/data/fonts/`` holds a subset of Noto Sans CJK SC
(SIL Open Font License 1.1, ``OFL.txt`` beside it) with every character of the zh and ko messages
that matplotlib's own DejaVu Sans lacks. :func:`use_packaged_font` registers it and makes it
matplotlib's fallback font, glyph by glyph: Latin text keeps DejaVu Sans. ``mp.course.setup`` calls
it, and so do the widgets.

>>> family = use_packaged_font()
>>> family
'mpteach CJK'
>>> import matplotlib
>>> matplotlib.rcParams["font.family"][-1] == family
True
>>> {"格", "式", "형", "식"} <= needed_characters()  # "format" in Chinese and in Korean
True
>>> "é" in needed_characters()  # DejaVu Sans draws Latin, Cyrillic and Greek itself
False
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

FONT_FAMILY = "mpteach CJK"
_FONTS = Path(str(resources.files("mpteach") / "data" / "fonts"))
FONT_PATH = _FONTS / "mpteach-cjk-subset.otf"
LICENSE_PATH = _FONTS / "OFL.txt"
FONT_LANGUAGES = ("zh", "ko")
"""The languages whose letters matplotlib's default font cannot draw."""


@cache
def _default_font_characters() -> frozenset[int]:
    import matplotlib
    from matplotlib.ft2font import FT2Font

    path = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
    return frozenset(FT2Font(str(path)).get_charmap())


def needed_characters() -> set[str]:
    """Every character of a zh or ko catalogue message that DejaVu Sans cannot draw."""
    from mpteach import i18n

    default = _default_font_characters()
    return {
        c
        for texts in i18n.catalogue().values()
        for lang in FONT_LANGUAGES
        for c in texts[lang]
        if ord(c) not in default and not c.isspace()
    }


def use_packaged_font() -> str:
    """Register the packaged CJK font with matplotlib and append it to the font fallbacks.

    Returns its family name. Calling it again changes nothing.
    """
    import matplotlib
    from matplotlib import font_manager

    if not any(entry.name == FONT_FAMILY for entry in font_manager.fontManager.ttflist):
        font_manager.fontManager.addfont(str(FONT_PATH))
    families = matplotlib.rcParams["font.family"]
    if FONT_FAMILY not in families:
        # Last in the list: matplotlib falls back to it only for glyphs the others lack.
        matplotlib.rcParams["font.family"] = [*families, FONT_FAMILY]
    return FONT_FAMILY
