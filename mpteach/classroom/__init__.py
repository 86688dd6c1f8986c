"""An instructor's tools: student copies and answer keys, a headless grader, chapter timings.

From the repository's root::

    python -m mpteach.classroom copies --out _build/classroom   # student copies and answer keys
    python -m mpteach.classroom copies --nbgrader --out course  # nbgrader source notebooks
    python -m mpteach.classroom grade submissions/ --out grades.csv --limit 300
    python -m mpteach.classroom measure --out classroom/timings.json   # time every chapter here
    python -m mpteach.classroom plan --write                            # the guide's timing tables

An exercise of a chapter is the cells whose ids start with ``ex<N>-``: a task (markdown), one or more
code cells that end with a self-check (``mp.checks.chNN.…``), and a ``-solution`` (markdown).
``classroom/exercises.yml`` gives each exercise its expected time and its answer key.
"""

from __future__ import annotations

from mpteach.classroom.copies import (
    Exercise,
    answer_key,
    exercises,
    load_keys,
    nbgrader_source,
    student_copy,
)

__all__ = [
    "Exercise",
    "answer_key",
    "exercises",
    "load_keys",
    "nbgrader_source",
    "student_copy",
]
