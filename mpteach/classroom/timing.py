"""How long each chapter takes: run here (measured), to read (a stated rule), its exercises (estimated).

>>> reading_minutes({"cells": [
...     {"cell_type": "markdown", "source": "word " * 400},
...     {"cell_type": "code", "source": "x = 1\\n" * 20},
... ]})
3
"""

from __future__ import annotations

import json
import math
import platform
import time
from pathlib import Path
from typing import Any

WORDS_PER_MINUTE = 200
"""Reading speed for the English prose of a technical text (the guide states this rule)."""
CODE_LINES_PER_MINUTE = 20
"""Reading speed for code: a line every three seconds, its output included."""

TIMINGS_START, TIMINGS_END = (
    "<!-- timings: made by `python -m mpteach.classroom plan --write` -->",
    ("<!-- /timings -->"),
)


def _text(source: str | list[str]) -> str:
    return source if isinstance(source, str) else "".join(source)


def reading_minutes(nb: dict[str, Any]) -> int:
    """Minutes to read ``nb``: its prose at :data:`WORDS_PER_MINUTE`, its code at
    :data:`CODE_LINES_PER_MINUTE`, rounded up."""
    words = sum(
        len(_text(c["source"]).split()) for c in nb["cells"] if c["cell_type"] == "markdown"
    )
    lines = sum(
        len([line for line in _text(c["source"]).splitlines() if line.strip()])
        for c in nb["cells"]
        if c["cell_type"] == "code"
    )
    return math.ceil(words / WORDS_PER_MINUTE + lines / CODE_LINES_PER_MINUTE)


def _peak_rss_mib(pid: int) -> float | None:
    """A process's peak resident memory (Linux's VmHWM), in MiB; None where /proc has no answer."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return round(int(line.split()[1]) / 1024, 1)
    return None


def measure_notebook(path: str | Path, timeout_s: int = 600) -> dict[str, float | None]:
    """Run the notebook at ``path`` top to bottom in a fresh kernel: wall-clock seconds from the first
    cell to the last (kernel start excluded) and the kernel's peak memory."""
    import nbformat
    from nbclient import NotebookClient

    path = Path(path)
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        timeout=timeout_s,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
    )
    with client.setup_kernel():
        started = time.perf_counter()
        for index, cell in enumerate(nb.cells):
            if cell.cell_type == "code":
                client.execute_cell(cell, index)
        seconds = time.perf_counter() - started
        pid = getattr(client.km.provisioner, "pid", None)
        peak = _peak_rss_mib(pid) if pid else None
    return {"seconds": round(seconds, 1), "peak_memory_mib": peak}


def machine() -> dict[str, Any]:
    """What a measurement ran on: CPU model, cores, Python and the libraries that set the pace."""
    from importlib import metadata

    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import os

    versions = {}
    for name in ("tensorflow", "tensorflow-cpu", "keras", "numpy", "mpteach"):
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return {"cpu": model, "cores": os.cpu_count(), "python": platform.python_version()} | versions


def measure(notebooks: list[Path], out: str | Path) -> dict[str, Any]:
    """Measure every notebook and write the record ``out`` (JSON, with the machine and the date)."""
    record = {
        "measured_on": machine(),
        "date": time.strftime("%Y-%m-%d"),
        "how": "python -m mpteach.classroom measure: each notebook in a fresh kernel, one at a time, "
        "on an otherwise idle machine; seconds from the first cell to the last; peak memory is "
        "the kernel's VmHWM",
        "chapters": {},
    }
    for path in notebooks:
        record["chapters"][Path(path).stem] = measure_notebook(path)
        Path(out).write_text(
            json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    return record


def chapter_title(nb: dict[str, Any]) -> str:
    """The chapter's title from its first heading, without its number (``"Loss scaling"``)."""
    first = _text(nb["cells"][0]["source"]).splitlines()[0]
    return first.lstrip("# ").split("·", 1)[-1].strip()


def timings_rows(
    lang: str,
    chapters: list[str],
    notebooks: Path,
    timings: dict[str, Any],
    keys: dict[str, Any],
    prerequisites: dict[str, list[str]],
) -> list[str]:
    """The rows of the guide's table of chapters in ``lang``: the title (a link), seconds to run
    and the kernel's peak MiB (measured), minutes to read (the rule), the number of exercises and
    each one's minutes (estimated), prerequisites (links); a last row ``Σ`` adds them up (memory:
    the largest)."""
    rows, totals = [], []
    for chapter in chapters:
        nb = json.loads((notebooks / lang / f"{chapter}.ipynb").read_text(encoding="utf-8"))
        english = json.loads((notebooks / "en" / f"{chapter}.ipynb").read_text(encoding="utf-8"))
        measured = timings["chapters"].get(chapter, {})
        seconds, memory = measured.get("seconds"), measured.get("peak_memory_mib")
        exercises = keys.get(chapter, {})
        minutes = sum(e["minutes"] for e in exercises.values())
        needs = ", ".join(f"[{p[:2]}]({p}.ipynb)" for p in prerequisites.get(chapter, [])) or "—"
        cells = [
            f"[{chapter[:2]} · {chapter_title(nb)}]({chapter}.ipynb)",
            "—" if seconds is None else f"{seconds:.0f}",
            "—" if memory is None else f"{memory:.0f}",
            str(reading_minutes(english)),
            str(len(exercises)),
            "+".join(str(e["minutes"]) for e in exercises.values()) or "—",
            needs,
        ]
        rows.append("| " + " | ".join(cells) + " |")
        totals.append(
            (seconds or 0, memory or 0, reading_minutes(english), len(exercises), minutes)
        )
    runs, memory, reading, count, minutes = zip(*totals, strict=True)
    last = [
        "Σ",
        f"{sum(runs):.0f}",
        f"{max(memory):.0f}",
        *map(str, map(sum, (reading, count, minutes))),
    ]
    rows.append("| " + " | ".join([*last, ""]) + " |")
    return rows


COLUMNS = 7


def with_rows(guide: str, rows: list[str]) -> str:
    """``guide`` with the table between its timings markers given ``rows``; the table's header line
    (the first line after the start marker, in the guide's language) is kept."""
    start = guide.index(TIMINGS_START) + len(TIMINGS_START)
    end = guide.index(TIMINGS_END, start)
    header = guide[start:end].strip().splitlines()[0]
    if header.count("|") != COLUMNS + 1:
        raise ValueError(f"the timings table's header must have {COLUMNS} columns: {header!r}")
    table = [header, "|" + "---|" * COLUMNS, *rows]
    return guide[:start] + "\n" + "\n".join(table) + "\n" + guide[end:]
