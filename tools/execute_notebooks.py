"""Execute notebooks in a fresh kernel and store their outputs, clean (what nbval compares).

    .venv/bin/python tools/execute_notebooks.py notebooks/en/*.ipynb
    .venv/bin/python tools/execute_notebooks.py --time-only notebooks/en/*.ipynb   # a benchmark: print times only

Outputs and widget state are stored; stderr streams (TensorFlow's oneDNN log lines, which nbval
does not capture) and timing metadata are dropped. Prints each notebook's execution time.
"""

from __future__ import annotations

import argparse
import copy
import os
import sys
import time
from pathlib import Path

import nbclient
import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parent))
from clean_notebooks import clean, dumps  # noqa: E402


def execute(path: Path, timeout: int = 600) -> tuple[nbformat.NotebookNode, float]:
    """Run ``path`` top to bottom in a fresh kernel; return the executed notebook and seconds taken."""
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    os.environ.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    client = nbclient.NotebookClient(
        nb,
        timeout=timeout,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
        store_widget_state=True,
    )
    start = time.perf_counter()
    client.execute()
    return nb, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--time-only", action="store_true", help="do not write the notebooks back")
    parser.add_argument("paths", nargs="+", type=Path)
    args = parser.parse_args(argv)
    total = 0.0
    for path in args.paths:
        nb, seconds = execute(path)
        total += seconds
        print(f"{seconds:6.1f} s  {path}", flush=True)
        if not args.time_only:
            path.write_text(dumps(clean(copy.deepcopy(dict(nb)))), encoding="utf-8")
    print(f"{total:6.1f} s  total for {len(args.paths)} notebook(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
