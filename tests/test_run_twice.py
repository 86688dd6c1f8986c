""" "Run All" twice in one kernel (``tools/nbval_run_twice.py``): a notebook that breaks
its own second run fails, one that does not passes, and nbval's comparison still runs first."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]


def notebook(folder: Path, name: str, *sources: str) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source) for source in sources]
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    path = folder / f"{name}.ipynb"
    nbformat.write(nb, path)
    return path


def run(folder: Path, *args: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q"]
    command += ["--rootdir", str(ROOT), "-c", str(ROOT / "pyproject.toml")]
    command += ["-p", "tools.nbval_run_twice", "--nbval-lax", "--nbval-current-env"]
    command += [*args, str(folder)]
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT)


@pytest.mark.notebooks
def test_a_second_run_in_the_same_kernel_finds_left_over_state(tmp_path):
    notebook(tmp_path, "fine", "x = 1", "x += 1\nassert x == 2 or x == 3")
    notebook(
        tmp_path, "breaks", "import sys", "assert 'ran' not in globals(), 'ran before'\nran = True"
    )
    done = run(tmp_path, "--run-twice", str(tmp_path))
    assert done.returncode == 1, done.stdout
    assert "breaks.ipynb::second run FAILED" in done.stdout or "1 failed" in done.stdout
    assert "second run, Cell 1 (" in done.stdout and "AssertionError: ran before" in done.stdout
    assert "1 failed, 5 passed" in done.stdout, done.stdout  # 4 cells and the fine notebook's run
    without = run(tmp_path)  # no --run-twice: nbval alone, both pass
    assert without.returncode == 0 and "4 passed" in without.stdout, without.stdout
