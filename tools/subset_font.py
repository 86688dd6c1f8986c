"""Regenerate mpteach's CJK font: the glyphs its Chinese and Korean figure text needs, nothing more.

Matplotlib draws figure text with the fonts installed on the machine, and Colab has no CJK font, so
Chinese and Korean labels would come out as empty boxes. mpteach ships a subset of Noto Sans CJK SC
(SIL Open Font License 1.1) holding every character of the zh and ko catalogue messages that
matplotlib's own DejaVu Sans lacks, under its own family name so that it never clashes with a full
Noto Sans CJK installed on the machine.

    apt-get install fonts-noto-cjk          # the source font (Debian)
    python tools/subset_font.py             # writes mpteach/data/fonts/

The same source font and catalogue give the same bytes. tests/test_fonts.py fails when a message
needs a character the packaged subset lacks: run this tool again then.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mpteach.figures import FONT_FAMILY, FONT_PATH, LICENSE_PATH, needed_characters  # noqa: E402

SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
SOURCE_FACE = "Noto Sans CJK SC"  # one face draws both scripts: every Noto Sans CJK face has Hangul
DEBIAN_COPYRIGHT = Path("/usr/share/doc/fonts-noto-cjk/copyright")


def licence_text(copyright_line: str) -> str:
    """The OFL 1.1 text as Debian's package carries it, under the font's own copyright line."""
    text = DEBIAN_COPYRIGHT.read_text(encoding="utf-8")
    body = text.split("\nLicense: SIL-1.1\n")[-1].split("\nLicense:")[0]
    lines = [line[1:] if line.startswith(" ") else line for line in body.splitlines()]
    lines = ["" if line == "." else line for line in lines]
    return (
        f"{copyright_line}\n\nSubset made by tools/subset_font.py.\n\n"
        + "\n".join(lines).strip()
        + "\n"
    )


def rename(font, family: str) -> None:
    """Give the subset its own family name (a modified font; the OFL asks for no reserved name)."""
    names = font["name"]
    postscript = re.sub(r"[^A-Za-z0-9-]", "", family.replace(" ", "-"))
    for record in names.names:
        if record.nameID in (1, 16):
            record.string = family
        elif record.nameID in (3, 4):
            record.string = f"{family} Regular" if record.nameID == 4 else f"{postscript}-Regular"
        elif record.nameID == 6:
            record.string = f"{postscript}-Regular"
    if "CFF " in font:
        cff = font["CFF "].cff
        cff.fontNames = [f"{postscript}-Regular"]
        cff[0].FamilyName = family
        cff[0].FullName = f"{family} Regular"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source", type=Path, default=SOURCE, help="NotoSansCJK-Regular.ttc")
    parser.add_argument("--out", type=Path, default=FONT_PATH.parent, help="folder to write to")
    args = parser.parse_args(argv)
    if not args.source.exists():
        parser.error(f"--source: {args.source} not found (apt-get install fonts-noto-cjk)")
    collection = TTCollection(str(args.source))
    faces = {f["name"].getDebugName(1): f for f in collection.fonts}
    if SOURCE_FACE not in faces:
        parser.error(f"--source: no face {SOURCE_FACE!r} in {args.source} (has {sorted(faces)})")
    font = faces[SOURCE_FACE]
    font.recalcTimestamp = False  # keep the source's dates: the same input gives the same bytes
    characters = needed_characters()
    missing = sorted(c for c in characters if ord(c) not in font.getBestCmap())
    if missing:
        parser.error(f"{SOURCE_FACE} has no glyph for {''.join(missing)!r}")
    options = subset.Options()
    options.hinting = False  # figures are drawn at high resolution; hints only add bytes
    options.layout_features = []  # plain horizontal text: no ligatures or vertical forms
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14, 16, 17]
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(c) for c in characters])
    subsetter.subset(font)
    rename(font, FONT_FAMILY)
    args.out.mkdir(parents=True, exist_ok=True)
    font_path, licence_path = args.out / FONT_PATH.name, args.out / LICENSE_PATH.name
    font.save(str(font_path))
    licence_path.write_text(licence_text(font["name"].getDebugName(0)), encoding="utf-8")
    print(f"{font_path}: {len(characters)} characters, {font_path.stat().st_size / 1024:.0f} KiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
