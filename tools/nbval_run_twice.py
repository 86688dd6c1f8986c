"""A pytest plugin for nbval: ``-p tools.nbval_run_twice --run-twice DIR``. After nbval has run a
notebook of DIR (and compared its outputs), "Run All" again in the same kernel, so that no chapter
leaves state that breaks a second run (``scripts/test.sh`` gives ``--run-twice notebooks/en``).

The second run reuses nbval's kernel instead of starting a notebook of its own: each chapter runs
once for the comparison and once more for this check, not three times.
"""

from __future__ import annotations

from pathlib import Path

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--run-twice",
        metavar="DIR",
        type=Path,
        help="with --nbval: run every notebook of DIR a second time in its kernel",
    )


class SecondRun(pytest.Item):
    """Every code cell of the notebook again, in the kernel nbval ran it in; fails on an error."""

    def runtest(self) -> None:
        kernel = self.parent.kernel
        if kernel is None or not kernel.is_alive():
            pytest.fail("the notebook's kernel is not running (an earlier cell failed)")
        timeout = self.config.option.nbval_cell_timeout
        code = [cell for cell in self.parent.nb.cells if cell.cell_type == "code"]
        for index, cell in enumerate(code):
            msg_id = kernel.execute_cell_input(cell.source, allow_stdin=False)
            kernel.await_reply(msg_id, timeout=timeout)
            while True:  # this cell's messages, up to the kernel's return to idle
                msg = kernel.get_message(stream="iopub", timeout=timeout)
                if msg["parent_header"].get("msg_id") != msg_id:
                    continue
                if msg["msg_type"] == "error":
                    content = msg["content"]
                    pytest.fail(
                        f"second run, Cell {index} ({cell.get('id')}): "
                        f"{content['ename']}: {content['evalue']}"
                    )
                if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                    break

    def reportinfo(self):
        return self.path, None, f"{self.path.name}: Run All a second time in the same kernel"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    folder = config.getoption("run_twice")
    if folder is None or not (config.getoption("nbval") or config.getoption("nbval_lax")):
        return
    folder = folder.resolve()
    last = {}  # each notebook's last collected cell
    for position, item in enumerate(items):
        if Path(item.path).resolve().parent == folder and type(item).__name__ == "IPyNbCell":
            last[item.parent] = position
    for notebook, position in sorted(last.items(), key=lambda pair: -pair[1]):
        items.insert(position + 1, SecondRun.from_parent(notebook, name="second run"))
