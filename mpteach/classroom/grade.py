"""A headless grader: run submitted notebooks, collect their self-checks, write one CSV row per
student and exercise.

Each notebook runs in a fresh kernel (nbclient) in its own folder, with a time limit for the whole
notebook. Before the student's first cell, the grader runs one cell of its own that

- records what each cell's self-check returned (an IPython ``post_run_cell`` hook that displays a
  :class:`~mpteach.checks.Feedback` as JSON beside the cell's other outputs), and
- refuses network connections other than to this machine, so that a submission cannot download
  anything (a guard for honest mistakes, such as a stray ``%pip install``; not a sandbox).

The verdict of an exercise is its graded cell's self-check, the same one the student saw.

Statuses: ``passed``, ``failed`` (the self-check's message says why), ``error`` (the cell raised; the
error is the message), ``no-check`` (the cell ran but returned no self-check), ``timeout`` (the
notebook ran past its limit in or before this exercise), ``missing`` (the submission has no such
cell).
"""

from __future__ import annotations

import csv
import json
import re
import subprocess
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from mpteach.classroom.copies import ChapterKeys, exercises

FEEDBACK_MIME = "application/vnd.mpteach.feedback+json"
STATUSES = ("passed", "failed", "error", "no-check", "timeout", "missing")

GRADER_CELL = f"""\
def _mpteach_grader_hook(result):
    from IPython.display import display

    from mpteach.checks import Feedback

    if isinstance(result.result, Feedback):
        verdict = {{"passed": result.result.passed, "message": result.result.message}}
        display({{{FEEDBACK_MIME!r}: verdict}}, raw=True)


get_ipython().events.register("post_run_cell", _mpteach_grader_hook)

import socket as _socket

_mpteach_connect = _socket.socket.connect


def _mpteach_local_only(sock, address):
    host = address[0] if isinstance(address, tuple) else address
    if sock.family == getattr(_socket, "AF_UNIX", None) or host in ("127.0.0.1", "::1", "localhost"):
        return _mpteach_connect(sock, address)
    raise OSError("the grader allows no network connections")


_socket.socket.connect = _mpteach_local_only
"""

CHECK_CALL = re.compile(r"mp\.checks\.ch(\d\d)\.(\w+)\(")
SETUP_CHAPTER = re.compile(r"""setup\(\s*chapter\s*=\s*["'](\d\d)["']""")


@dataclass(frozen=True)
class Row:
    """One line of the grades CSV."""

    student: str
    notebook: str
    chapter: str
    exercise: str
    status: str
    message: str
    seconds: float
    other_errors: str = ""
    """The first error of a cell outside the exercises (the notebook's own cells), if any."""


def chapter_of(nb: dict[str, Any], path: str | Path | None = None) -> str | None:
    """The chapter number (``"06"``) from the notebook's setup cell, ``mp.course.setup(chapter=…)``,
    else from its self-checks (``mp.checks.ch06.…``), else from its file name (``06_….ipynb``).

    >>> chapter_of({"cells": [{"cell_type": "code", "source": 'mp.course.setup(chapter="06", lang="ko")'}]})
    '06'
    """
    for cell in nb["cells"]:
        if cell["cell_type"] == "code" and (match := SETUP_CHAPTER.search(_text(cell["source"]))):
            return match[1]
    for cell in nb["cells"]:
        if cell["cell_type"] == "code" and (calls := CHECK_CALL.findall(_text(cell["source"]))):
            return calls[-1][0]
    if path is not None and (match := re.match(r"(\d\d)_", Path(path).name)):
        return match[1]
    return None


def _text(source: str | list[str]) -> str:
    return source if isinstance(source, str) else "".join(source)


def _verdict(cell: dict[str, Any]) -> tuple[str, str]:
    """Status and message of a graded cell that ran."""
    error = next((o for o in cell.get("outputs", []) if o.get("output_type") == "error"), None)
    if error is not None:
        return "error", f"{error.get('ename', 'Error')}: {error.get('evalue', '')}"
    for output in cell.get("outputs", []):
        if FEEDBACK_MIME in output.get("data", {}):
            verdict = output["data"][FEEDBACK_MIME]
            if isinstance(verdict, str):
                verdict = json.loads(verdict)
            return ("passed" if verdict["passed"] else "failed"), verdict["message"]
    return "no-check", "the cell ran, but its last line returned no self-check"


def _chapter_keys(chapter: str | None, keys: dict[str, ChapterKeys] | None) -> ChapterKeys:
    if chapter is None or not keys:
        return {}
    return next((v for k, v in keys.items() if k.startswith(f"{chapter}_")), {})


def expected_exercises(chapter: str | None, keys: dict[str, ChapterKeys] | None) -> list[str]:
    """The exercise names the course's chapter has (from ``classroom/exercises.yml``), if known."""
    return list(_chapter_keys(chapter, keys))


def graded_cells(
    nb: dict[str, Any], chapter: str | None, keys: dict[str, ChapterKeys] | None
) -> dict[int, str]:
    """The graded cells of ``nb``, by index, with their exercise: by cell id (``ex2-check``) and,
    for an exercise whose cells lost their ids, by the self-check its cell calls last (the
    ``check`` of ``classroom/exercises.yml``)."""
    ids = {e.graded: e.name for e in exercises(nb)}
    found = {i: ids[c.get("id")] for i, c in enumerate(nb["cells"]) if c.get("id") in ids}
    entry = _chapter_keys(chapter, keys)
    by_check = {v["check"]: n for n, v in entry.items() if "check" in v and n not in ids.values()}
    for i, cell in enumerate(nb["cells"]):
        if i in found or cell["cell_type"] != "code":
            continue
        calls = CHECK_CALL.findall(_text(cell["source"]))
        if calls and calls[-1][0] == chapter and calls[-1][1] in by_check:
            found[i] = by_check.pop(calls[-1][1])
    return dict(sorted(found.items()))


def grade_notebook(
    path: str | Path,
    limit_s: float = 300,
    student: str | None = None,
    keys: dict[str, ChapterKeys] | None = None,
    kernel_name: str = "python3",
) -> list[Row]:
    """Run the notebook at ``path`` with a limit of ``limit_s`` seconds in all; one row per exercise."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    path = Path(path)
    student = student or path.stem
    started = time.monotonic()
    chapter: str | None = None
    elsewhere: list[str] = []  # errors of cells outside the exercises

    def rows_for(status_of: dict[str, tuple[str, str]], names: Iterable[str]) -> list[Row]:
        seconds = round(time.monotonic() - started, 1)
        other = (
            ""
            if not elsewhere
            else elsewhere[0] + (f" (and {len(elsewhere) - 1} more)" if len(elsewhere) > 1 else "")
        )
        return [
            Row(student, path.name, chapter or "", n, *status_of[n], seconds, other) for n in names
        ]

    try:
        nb = nbformat.read(path, as_version=4)
    except Exception as error:  # any unreadable file is the student's, reported, not raised
        return rows_for({"-": ("error", f"unreadable notebook: {error}")}, ["-"])
    chapter = chapter_of(nb, path)
    graded = graded_cells(nb, chapter, keys)
    names = list(dict.fromkeys([*graded.values(), *expected_exercises(chapter, keys)]))
    status = {n: ("missing", "the submission has no such exercise") for n in names}
    in_exercises = {c.get("id") for e in exercises(nb) for c in nb.cells if c.get("id") in e.cells}

    nb.cells.insert(0, nbformat.v4.new_code_cell(GRADER_CELL))
    graded = {i + 1: name for i, name in graded.items()}  # after the grader's own cell
    client = NotebookClient(
        nb,
        timeout=max(1, int(limit_s)),
        kernel_name=kernel_name,
        allow_errors=True,
        shutdown_kernel="immediate",
        resources={"metadata": {"path": str(path.parent)}},
    )
    deadline = started + limit_s
    stopped: str | None = None
    # the kernel's own log lines (TensorFlow's, the transport's) would drown the grader's output
    with client.setup_kernel(stderr=subprocess.DEVNULL):
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                stopped = f"the notebook ran past its limit of {limit_s:g} s"
                break
            client.timeout = max(1, int(remaining))
            try:
                client.execute_cell(cell, index)
            except CellTimeoutError:
                stopped = f"the notebook ran past its limit of {limit_s:g} s"
                break
            except DeadKernelError as error:
                stopped = f"the kernel died: {error}"
                break
            if index in graded:
                status[graded[index]] = _verdict(cell)
            elif index > 0 and cell.get("id") not in in_exercises:
                verdict, message = _verdict(cell)
                if verdict == "error":
                    elsewhere.append(f"cell {index} ({cell.get('id', 'no id')}): {message}")
    if stopped is not None:
        reached = {n for n, (s, _) in status.items() if s != "missing"}
        for name in dict.fromkeys(graded.values()):
            if name not in reached:
                status[name] = ("timeout" if "limit" in stopped else "error", stopped)
    return rows_for(status, names)


def _grade_one(job: tuple[Path, str, float, dict | None]) -> list[Row]:
    path, student, limit_s, keys = job
    return grade_notebook(path, limit_s=limit_s, student=student, keys=keys)


def submissions(folder: str | Path) -> list[tuple[Path, str]]:
    """Every notebook under ``folder`` with its student: ``folder/<student>/…/x.ipynb`` (nbgrader's
    ``submitted/<student>/<assignment>/``) or, for notebooks directly in ``folder``, the file's name."""
    folder = Path(folder)
    found = []
    for path in sorted(folder.rglob("*.ipynb")):
        if ".ipynb_checkpoints" in path.parts:
            continue
        parts = path.relative_to(folder).parts
        found.append((path, parts[0] if len(parts) > 1 else path.stem))
    return found


def grade_folder(
    folder: str | Path,
    out: str | Path,
    limit_s: float = 300,
    keys: dict[str, ChapterKeys] | None = None,
    jobs: int = 1,
) -> list[Row]:
    """Grade every submission under ``folder`` (``jobs`` at a time) and write the CSV ``out``."""
    todo = [(path, student, limit_s, keys) for path, student in submissions(folder)]
    if jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(jobs) as pool:
            rows = [row for result in pool.map(_grade_one, todo) for row in result]
    else:
        rows = [row for job in todo for row in _grade_one(job)]
    write_csv(rows, out)
    return rows


def write_csv(rows: Iterable[Row], out: str | Path) -> None:
    """The grades as CSV (UTF-8, a header row), one row per student and exercise."""
    with Path(out).open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=[f.name for f in fields(Row)])
        writer.writeheader()
        writer.writerows(asdict(row) for row in rows)
