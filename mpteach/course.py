"""The first code cell of every chapter: language, quiet logs, and what this machine means here.

>>> from mpteach import course
>>> course.chapter_note("01", "cpu", "en")  # chapters without a note of their own get the general one
'No GPU or TPU here: every example runs on the CPU. Dtypes and behaviour are the same on any hardware; speed differs, and so can the last digits of a result.'
>>> course.chapter_note("01", "fpga")
Traceback (most recent call last):
...
ValueError: kind='fpga' is not one of ('cpu', 'gpu', 'tpu')
"""

from __future__ import annotations

import importlib.util
import os
import sys

from mpteach import figures, i18n

KINDS = ("cpu", "gpu", "tpu")


def in_colab() -> bool:
    """True inside a Google Colab runtime (its kernel has imported ``google.colab``)."""
    return "google.colab" in sys.modules


def accelerator() -> str:
    """``'tpu'``, ``'gpu'`` or ``'cpu'``: the best accelerator this runtime offers."""
    from mpteach import hardware

    info = hardware.detect()
    if info.tpu:
        return "tpu"
    return "gpu" if info.gpus else "cpu"


def chapter_note(chapter: str, kind: str, lang: str | None = None) -> str:
    """What ``kind`` of hardware means for ``chapter``: the chapter's own note, else the general one."""
    if kind not in KINDS:
        raise ValueError(f"kind={kind!r} is not one of {KINDS}")
    key = f"course.ch{chapter}.{kind}"
    if key not in i18n.catalogue():
        key = f"course.general.{kind}"
    return i18n.t(key, lang)


def setup(chapter: str, lang: str = "en") -> None:
    """Set the notebook's language, keep TensorFlow's C++ logs quiet, and say what runs here.

    Figures drawn in Chinese or Korean get mpteach's packaged CJK font (no font to install).
    """
    i18n.set_language(lang)
    if lang in figures.FONT_LANGUAGES:
        figures.use_packaged_font()
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    from mpteach import hardware

    kind = accelerator()
    where = i18n.t("course.where_colab" if in_colab() else "course.where_local")
    print(f"{where} · {hardware.verdict(lang=lang)}")
    if importlib.util.find_spec("tensorflow") is None:
        print(i18n.t("course.no_tensorflow"))
    print(chapter_note(chapter, kind, lang))
