""" "Run All" twice in the same kernel works: no chapter leaves state that breaks a second run."""

from __future__ import annotations

from pathlib import Path

import nbclient
import nbformat
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = yaml.safe_load((ROOT / "book.yml").read_text())["chapters"]
ENGLISH = [p for c in CHAPTERS if (p := ROOT / "notebooks" / "en" / f"{c}.ipynb").exists()]


@pytest.mark.slow
@pytest.mark.parametrize("path", ENGLISH, ids=[p.stem for p in ENGLISH])
def test_run_all_twice_in_one_kernel(path):
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    )
    with client.setup_kernel():
        for run in (1, 2):
            for index, cell in enumerate(nb.cells):
                try:
                    client.execute_cell(cell, index)
                except nbclient.exceptions.CellExecutionError as error:
                    pytest.fail(f"run {run}, cell {index} ({cell.get('id')}): {error}")
