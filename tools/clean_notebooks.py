"""Keep stored notebooks clean: no stderr outputs, no execution timing or stray metadata.

python tools/clean_notebooks.py notebooks/en/*.ipynb      # clean in place
python tools/clean_notebooks.py --check notebooks/**/*.ipynb   # fail if any is not clean
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

KEEP_CELL_METADATA = {"tags", "mpteach", "editable", "deletable", "jupyter"}
KEEP_NOTEBOOK_METADATA = {"kernelspec", "language_info", "mpteach", "widgets", "colab"}


def clean(nb: dict) -> dict:
    """Return ``nb`` without stderr streams, timing metadata or unknown metadata keys."""
    for cell in nb.get("cells", []):
        cell["metadata"] = {
            k: v for k, v in cell.get("metadata", {}).items() if k in KEEP_CELL_METADATA
        }
        if cell.get("cell_type") == "code":
            cell["outputs"] = [
                o
                for o in cell.get("outputs", [])
                if not (o.get("output_type") == "stream" and o.get("name") == "stderr")
            ]
    nb["metadata"] = {
        k: v for k, v in nb.get("metadata", {}).items() if k in KEEP_NOTEBOOK_METADATA
    }
    return nb


def dumps(nb: dict) -> str:
    return json.dumps(nb, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--check", action="store_true", help="only report notebooks that are not clean"
    )
    parser.add_argument("paths", nargs="+", type=Path)
    args = parser.parse_args(argv)
    dirty = []
    for path in args.paths:
        text = path.read_text(encoding="utf-8")
        cleaned = dumps(clean(json.loads(text)))
        if cleaned != text:
            dirty.append(path)
            if not args.check:
                path.write_text(cleaned, encoding="utf-8")
    for path in dirty:
        print(f"{'not clean' if args.check else 'cleaned'}: {path}")
    return 1 if (args.check and dirty) else 0


if __name__ == "__main__":
    sys.exit(main())
