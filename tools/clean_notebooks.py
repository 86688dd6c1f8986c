"""Keep stored notebooks clean: no stderr outputs, no execution timing or stray metadata, and one
output per run of printed text (a kernel may send a line in several pieces, which some viewers,
GitHub's among them, show as separate blocks).

python tools/clean_notebooks.py notebooks/en/*.ipynb      # clean in place
python tools/clean_notebooks.py --check notebooks/**/*.ipynb   # fail if any is not clean
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
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
            cell["outputs"] = merged_streams(
                o
                for o in cell.get("outputs", [])
                if not (o.get("output_type") == "stream" and o.get("name") == "stderr")
            )
    nb["metadata"] = {
        k: v for k, v in nb.get("metadata", {}).items() if k in KEEP_NOTEBOOK_METADATA
    }
    return nb


def merged_streams(outputs: Iterable[dict]) -> list[dict]:
    """``outputs`` with each run of consecutive stream outputs of one name made one output.

    >>> merged_streams([{"output_type": "stream", "name": "stdout", "text": "[nan]"},
    ...                 {"output_type": "stream", "name": "stdout", "text": " [448]\\n"}])
    [{'output_type': 'stream', 'name': 'stdout', 'text': '[nan] [448]\\n'}]
    """
    merged: list[dict] = []
    for output in outputs:
        last = merged[-1] if merged else {}
        if output.get("output_type") == last.get("output_type") == "stream" and (
            output.get("name") == last.get("name")
        ):
            text = "".join(last["text"]) + "".join(output["text"])
            merged[-1] = {**last, "text": text}
        else:
            merged.append(output)
    return merged


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
