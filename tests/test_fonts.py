"""The CJK font mpteach ships: it draws every Chinese and Korean message, and the tool remakes it."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from mpteach import figures, i18n

ROOT = Path(__file__).resolve().parents[1]
TOOL = ROOT / "tools" / "subset_font.py"


def test_the_packaged_font_has_every_character_the_messages_need():
    from matplotlib.ft2font import FT2Font

    charmap = FT2Font(str(figures.FONT_PATH)).get_charmap()
    missing = sorted(c for c in figures.needed_characters() if ord(c) not in charmap)
    assert not missing, (
        f"the packaged CJK font lacks {''.join(missing)!r}: run python tools/subset_font.py"
    )


def test_the_font_is_small_and_carries_its_licence():
    assert figures.FONT_PATH.stat().st_size < 2_000_000
    licence = figures.LICENSE_PATH.read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence and "Adobe" in licence


@pytest.mark.parametrize("lang", figures.FONT_LANGUAGES)
def test_every_message_draws_with_the_packaged_font_alone(lang):
    """Each message on a figure whose only fonts are DejaVu Sans and the packaged subset."""
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figures.use_packaged_font()
    texts = [texts[lang] for texts in i18n.catalogue().values()]
    with matplotlib.rc_context({"font.family": ["DejaVu Sans", figures.FONT_FAMILY]}):
        figure = Figure(figsize=(4, 2))
        FigureCanvasAgg(figure)
        for n, text in enumerate(texts):
            figure.text(0, (n % 50) / 50, text.replace("$", r"\$"), fontsize=6)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # "Glyph ... missing from font(s)" is a UserWarning
            figure.canvas.draw()


def test_the_tool_makes_the_same_bytes_again(tmp_path):
    source = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
    if not source.exists():
        pytest.skip("the source font comes from Debian's fonts-noto-cjk (scripts/site.sh)")
    subprocess.run([sys.executable, str(TOOL), "--out", str(tmp_path)], check=True, cwd=ROOT)
    assert (tmp_path / figures.FONT_PATH.name).read_bytes() == figures.FONT_PATH.read_bytes()
    assert (tmp_path / figures.LICENSE_PATH.name).read_text() == figures.LICENSE_PATH.read_text()


def test_a_missing_source_font_is_named():
    result = subprocess.run(
        [sys.executable, str(TOOL), "--source", "/nonexistent.ttc", "--out", "/tmp/unused"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2 and "--source: /nonexistent.ttc not found" in result.stderr
