"""Write the data the website's browser-drawn widgets load (mpteach/widgets/web/*.json).

    python tools/widget_data.py          # rewrite the files
    python tools/widget_data.py --check  # exit 1 if a file differs from what Python computes now

The data comes from the Python reference (numpy draws the gradients of the simulation); the book's
build venv has no numpy, so the files are stored with the package and tests/test_widgets_js.py
requires them to equal what this writes.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "mpteach" / "widgets" / "web"


def files() -> dict[Path, str]:
    """Each data file and the text it must hold."""
    sys.path.insert(0, str(ROOT))
    from mpteach import i18n
    from mpteach.widgets import loss_scale_dynamics, speedup_explorer

    def text(data: dict) -> str:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"

    out = {WEB / "dynamics-data.json": text(loss_scale_dynamics.browser_data())}
    for lang in i18n.LANGUAGES:
        out[WEB / f"speedup-{lang}.json"] = text(speedup_explorer.browser_data(lang))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    check = parser.parse_args(argv).check
    stale = []
    for path, text in files().items():
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(path)
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)} ({len(text.encode()) // 1024} KiB)")
    for path in stale:
        print(
            f"{path.relative_to(ROOT)} is stale: run python tools/widget_data.py", file=sys.stderr
        )
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
