"""A chapter's exercises, and the three copies an instructor hands out: student, key, nbgrader.

The notebooks are plain dictionaries as ``nbformat`` or ``json`` reads them; nothing here runs them.

>>> nb = {"cells": [
...     {"id": "ex1-task", "cell_type": "markdown", "source": "**1.** What is 2 + 2?"},
...     {"id": "ex1-check", "cell_type": "code", "source": "answer = ...\\nmp.checks.demo.add(answer)"},
...     {"id": "ex1-solution", "cell_type": "markdown", "source": "`answer = 4`"},
... ]}
>>> exercises(nb)
[Exercise(name='ex1', cells=('ex1-task', 'ex1-check', 'ex1-solution'), graded='ex1-check', solution='ex1-solution')]
>>> [c["id"] for c in student_copy(nb)["cells"]]
['ex1-task', 'ex1-check']
>>> keys = {"ex1": {"minutes": 1, "key": {"ex1-check": [{"find": "answer = ...", "put": "answer = 4"}]}}}
>>> answer_key(nb, keys)["cells"][1]["source"]
'answer = 4\\nmp.checks.demo.add(answer)'
>>> print(nbgrader_source(nb, keys, "demo")["cells"][2]["source"])
result = mp.checks.demo.add(answer)
assert result.passed, result.message
"""

from __future__ import annotations

import ast
import copy
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

Notebook = dict[str, Any]
ChapterKeys = dict[str, dict[str, Any]]
"""One chapter's entry of ``classroom/exercises.yml``: ``{"ex1": {"minutes": 5, "key": {cell id: edits}}}``."""

EXERCISE_CELL = re.compile(r"^(ex\d+)-(.+)$")
BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"  # nbgrader's markers
NBGRADER_SCHEMA = 3


@dataclass(frozen=True)
class Exercise:
    """One exercise: its name (``"ex2"``), its cells' ids in notebook order, the code cell whose
    self-check grades it (the exercise's last code cell) and its solution cell, if any."""

    name: str
    cells: tuple[str, ...]
    graded: str
    solution: str | None


def _source(cell: dict[str, Any]) -> str:
    source = cell.get("source", "")
    return source if isinstance(source, str) else "".join(source)


def exercises(nb: Notebook) -> list[Exercise]:
    """The exercises of ``nb``, in order, from its cell ids (``ex<N>-task``, ``-check``, ``-solution`` …)."""
    found: dict[str, list[dict[str, Any]]] = {}
    for cell in nb["cells"]:
        if match := EXERCISE_CELL.match(cell.get("id") or ""):
            found.setdefault(match[1], []).append(cell)
    result = []
    for name, cells in found.items():
        code = [c["id"] for c in cells if c["cell_type"] == "code"]
        if not code:
            raise ValueError(f"exercise {name} has no code cell with a self-check")
        solutions = [c["id"] for c in cells if c["id"] == f"{name}-solution"]
        result.append(
            Exercise(
                name, tuple(c["id"] for c in cells), code[-1], solutions[0] if solutions else None
            )
        )
    return result


def load_keys(path: str | Path) -> dict[str, ChapterKeys]:
    """``classroom/exercises.yml``: every chapter's exercises with their minutes and answer keys."""
    import yaml  # every Jupyter installation has PyYAML (jupyter_events needs it)

    return yaml.safe_load(Path(path).read_text(encoding="utf-8"))


def student_copy(nb: Notebook) -> Notebook:
    """``nb`` without its solutions; the tasks and their self-checks stay, nothing else changes."""
    solutions = {e.solution for e in exercises(nb)} - {None}
    copied = copy.deepcopy(nb)
    copied["cells"] = [c for c in copied["cells"] if c.get("id") not in solutions]
    return copied


def _edited(source: str, edits: list[dict[str, str]], cell_id: str, mark: str = "") -> str:
    """``source`` with every ``find`` replaced by its ``put`` (each ``find`` must occur once);
    ``mark`` wraps each ``put`` so that its lines can be found afterwards."""
    for edit in edits:
        count = source.count(edit["find"])
        if count != 1:
            raise ValueError(
                f"answer key of cell {cell_id!r}: {edit['find']!r} occurs {count} times, not once"
            )
        source = source.replace(edit["find"], f"{mark}{edit['put']}{mark}")
    return source


def _cells_by_id(nb: Notebook, keys: ChapterKeys) -> dict[str, list[dict[str, str]]]:
    edits = {cell_id: e for entry in keys.values() for cell_id, e in entry["key"].items()}
    missing = set(edits) - {c.get("id") for c in nb["cells"]}
    if missing:
        raise ValueError(f"answer key names cells this notebook lacks: {sorted(missing)}")
    return edits


def answer_key(nb: Notebook, keys: ChapterKeys) -> Notebook:
    """``nb`` with every exercise answered as ``keys`` says (solutions kept, the answered cells'
    stale outputs cleared): run it, and every self-check passes."""
    edits = _cells_by_id(nb, keys)
    answered = copy.deepcopy(nb)
    for cell in answered["cells"]:
        if cell.get("id") in edits:
            cell["source"] = _edited(_source(cell), edits[cell["id"]], cell["id"])
            cell["outputs"], cell["execution_count"] = [], None  # the unanswered ones are stale
    return answered


def _with_solution_markers(source: str, mark: str) -> str:
    """Wrap in nbgrader's BEGIN/END SOLUTION lines every whole statement that holds marked text
    (an answer inside a list or a call takes its whole statement along, so that the student's
    version, the region replaced by ``raise NotImplementedError()``, is still Python)."""
    lines = source.split("\n")
    marked = [i for i, line in enumerate(lines) for _ in range(line.count(mark))]  # open, close…
    clean = [line.replace(mark, "") for line in lines]
    spans = [
        (node.lineno - 1, node.end_lineno - 1)
        for node in ast.walk(ast.parse("\n".join(clean)))
        if isinstance(node, ast.stmt)
    ]

    def statement(line: int) -> tuple[int, int]:  # the innermost statement that holds ``line``
        return min((s for s in spans if s[0] <= line <= s[1]), key=lambda s: s[1] - s[0])

    regions: list[list[int]] = []
    for first, last in zip(marked[::2], marked[1::2], strict=True):
        start, end = statement(first)[0], statement(last)[1]
        if regions and start <= regions[-1][1]:
            regions[-1][1] = max(regions[-1][1], end)
        else:
            regions.append([start, end])
    out, index = [], 0
    for start, end in regions:
        indent = clean[start][: len(clean[start]) - len(clean[start].lstrip())]
        out += [*clean[index:start], indent + BEGIN, *clean[start : end + 1], indent + END]
        index = end + 1
    return "\n".join(out + clean[index:])


def _last_expression(source: str) -> str:
    """The source of the cell's last statement, which must be an expression (the self-check)."""
    tree = ast.parse(source)
    last = tree.body[-1] if tree.body else None
    if not isinstance(last, ast.Expr):
        raise ValueError("a graded cell must end with its self-check, an expression")
    return ast.get_source_segment(source, last)


def _answers_and_check(
    source: str, edits: list[dict[str, str]], graded: bool
) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    """A graded cell's edits split into answers (the student's part) and those in its last line,
    the self-check's call (``mp.checks.ch07.train_step(train_step)``), which the student keeps."""
    if not graded:
        return edits, []
    last_line = source.rstrip().rsplit("\n", 1)[-1]
    answers = [e for e in edits if e["find"] not in last_line]
    return answers, [e for e in edits if e["find"] in last_line]


def nbgrader_source(nb: Notebook, keys: ChapterKeys, chapter: str) -> Notebook:
    """``nb`` as an nbgrader *source* notebook: the key's answers inside ``### BEGIN/END SOLUTION``
    (``nbgrader generate_assignment`` replaces them), the solution cells removed, and after each
    graded cell an autograder test cell (one point) that asserts its self-check passes."""
    edits = _cells_by_id(nb, keys)
    graded = {e.graded: e for e in exercises(nb)}
    solutions = {e.solution for e in graded.values()}
    mark = "\x00"
    cells = []
    for original in nb["cells"]:
        if original.get("id") in solutions:
            continue
        cell = copy.deepcopy(original)
        cell_id = cell.get("id")
        meta = {"schema_version": NBGRADER_SCHEMA, "task": False}
        if cell_id in edits:
            answers, checks = _answers_and_check(_source(cell), edits[cell_id], cell_id in graded)
            source = _edited(_edited(_source(cell), answers, cell_id, mark), checks, cell_id)
            cell["source"] = _with_solution_markers(source, mark)
            meta |= {"grade": False, "solution": True, "locked": False, "grade_id": cell_id}
            cell.setdefault("metadata", {})["nbgrader"] = meta
        elif cell_id in graded:
            meta |= {"grade": False, "solution": False, "locked": True, "grade_id": cell_id}
            cell.setdefault("metadata", {})["nbgrader"] = meta
        cells.append(cell)
        if cell_id in graded:
            check = _last_expression(_source(cell).replace(BEGIN, "").replace(END, ""))
            name = graded[cell_id].name
            cells.append(
                {
                    "id": f"{name}-test",
                    "cell_type": "code",
                    "execution_count": None,
                    "outputs": [],
                    "source": f"result = {check}\nassert result.passed, result.message",
                    "metadata": {
                        "nbgrader": {
                            "schema_version": NBGRADER_SCHEMA,
                            "task": False,
                            "grade": True,
                            "solution": False,
                            "locked": True,
                            "points": 1,
                            "grade_id": f"{chapter}-{name}-test",
                        }
                    },
                }
            )
    copied = copy.deepcopy({k: v for k, v in nb.items() if k != "cells"})
    copied["cells"] = cells
    return copied
