"""The course notebooks keep their shape, their promises and their compared outputs.

nbval (run by scripts/test.sh with ``--nbval``) re-executes every notebook and compares outputs;
these tests check what nbval cannot: the shape every chapter shares, the Colab badge and setup
cell, reasons for every ignored output, and that most text outputs really are compared.
"""

from __future__ import annotations

import itertools
import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import book  # noqa: E402  (the one place launch URLs come from)

BOOK = book.load()
LANGS = list(BOOK.codes)
IGNORE_TAG = "nbval-ignore-output"
IGNORE_REASONS = {"timing", "widget", "random", "hardware"}
# Calls whose output describes or times the machine that runs the notebook: a stored output of
# such a cell is one machine's, so nbval must not compare it (tests/test_course_profiles.py
# checks these cells under every hardware profile instead).
ABOUT_THE_MACHINE = re.compile(
    r"course\.setup\(|hardware\.detect\(|best_policy\(\)|verdict\(\)"
    r"|bench\.(training_step|matmul_throughput|float16_\w+_probe)\("
)


def notebooks(lang: str) -> list[Path]:
    return [ROOT / "notebooks" / lang / f"{chapter}.ipynb" for chapter in BOOK.chapters]


EXISTING = [p for lang in LANGS for p in notebooks(lang) if p.exists()]


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def source(cell: dict) -> str:
    return "".join(cell["source"])


def role(cell: dict) -> str | None:
    return cell.get("metadata", {}).get("mpteach", {}).get("role")


def text_outputs(cell: dict) -> list[dict]:
    return [
        o
        for o in cell.get("outputs", [])
        if o["output_type"] in ("stream", "execute_result", "display_data", "error")
        and (
            o["output_type"] == "stream"
            or "text/plain" in o.get("data", {})
            or "text/html" in o.get("data", {})
        )
        and "application/vnd.jupyter.widget-view+json" not in o.get("data", {})
        and "image/png" not in o.get("data", {})
    ]


def ids(paths):
    return [f"{p.parent.name}/{p.stem}" for p in paths]


def test_every_english_chapter_exists():
    missing = [p.name for p in notebooks("en") if not p.exists()]
    assert not missing, f"chapters missing from notebooks/en: {missing}"


@pytest.mark.parametrize("path", EXISTING, ids=ids(EXISTING))
def test_top_cells_are_the_badge_and_the_setup(path):
    nb = load(path)
    lang, chapter = path.parent.name, path.stem
    title, setup = nb["cells"][0], nb["cells"][1]
    assert title["cell_type"] == "markdown" and source(title).startswith(f"# {chapter[:2]} ")
    # The Colab badge itself: tests/test_site.py holds it to tools/book.py's colab_badge().
    assert setup["cell_type"] == "code" and role(setup) == "setup"
    code = source(setup)
    (install,) = re.findall(r"%pip install[^\n]*", code)
    assert f"git+{BOOK.repository_url}" in install
    assert "tensorflow" not in install and "ipywidgets" not in install, (
        "never reinstall Colab's stack"
    )
    assert f'mp.course.setup(chapter="{chapter[:2]}", lang="{lang}")' in code


@pytest.mark.parametrize("path", EXISTING, ids=ids(EXISTING))
def test_every_chapter_has_goals_exercises_and_a_summary(path):
    cells = load(path)["cells"]
    roles = [role(c) for c in cells]
    for wanted in ("goals", "exercises", "summary"):
        assert wanted in roles, f"no cell with role {wanted!r}"
    assert roles.index("goals") < roles.index("exercises") < roles.index("summary")
    checks = [c for c in cells if c["cell_type"] == "code" and "mp.checks." in source(c)]
    assert 2 <= len(checks) <= 4, f"{len(checks)} self-checked exercises (want 2-4)"


@pytest.mark.parametrize("path", EXISTING, ids=ids(EXISTING))
def test_every_chapter_shows_a_widget_or_a_plot(path):
    outputs = [o for c in load(path)["cells"] if c["cell_type"] == "code" for o in c["outputs"]]
    kinds = {k for o in outputs for k in o.get("data", {})}
    assert kinds & {"image/png", "application/vnd.jupyter.widget-view+json"}


@pytest.mark.parametrize("path", EXISTING, ids=ids(EXISTING))
def test_stored_outputs_are_clean_and_complete(path):
    for n, cell in enumerate(load(path)["cells"]):
        if cell["cell_type"] != "code":
            continue
        assert cell["execution_count"] is not None, f"cell {n} was not executed before saving"
        for out in cell["outputs"]:
            assert out.get("name") != "stderr", f"cell {n} stores stderr"
            assert out["output_type"] != "error", f"cell {n} stores an error"
        # one output per run of printed text: GitHub shows each piece as a block of its own
        kinds = [(o["output_type"], o.get("name")) for o in cell["outputs"]]
        assert all(a != b or a[0] != "stream" for a, b in itertools.pairwise(kinds)), (
            f"cell {n} ({cell.get('id')}) splits its printed text; run tools/clean_notebooks.py"
        )


@pytest.mark.parametrize("path", EXISTING, ids=ids(EXISTING))
def test_ignored_outputs_each_have_a_reason(path):
    for n, cell in enumerate(load(path)["cells"]):
        tags = cell.get("metadata", {}).get("tags", [])
        reason = cell.get("metadata", {}).get("mpteach", {}).get("ignore_reason")
        if IGNORE_TAG in tags:
            assert reason in IGNORE_REASONS, f"cell {n} ignored without a reason ({reason!r})"
        else:
            assert reason is None, f"cell {n} has an ignore_reason but is compared"


@pytest.mark.parametrize("path", EXISTING, ids=ids(EXISTING))
def test_what_a_cell_prints_about_the_machine_is_not_compared(path):
    for n, cell in enumerate(load(path)["cells"]):
        if cell["cell_type"] == "code" and ABOUT_THE_MACHINE.search(source(cell)):
            reason = cell.get("metadata", {}).get("mpteach", {}).get("ignore_reason")
            assert IGNORE_TAG in cell.get("metadata", {}).get("tags", []), (
                f"cell {n} ({cell.get('id')}) prints about this machine but is compared by nbval"
            )
            assert reason in ("hardware", "timing"), f"cell {n}: reason {reason!r}"


@pytest.mark.parametrize("path", EXISTING, ids=ids(EXISTING))
def test_at_least_half_of_the_text_outputs_are_compared(path):
    cells = [c for c in load(path)["cells"] if c["cell_type"] == "code" and text_outputs(c)]
    compared = [c for c in cells if IGNORE_TAG not in c.get("metadata", {}).get("tags", [])]
    print(
        f"{path.parent.name}/{path.name}: {len(compared)} of {len(cells)} text-output cells compared"
    )
    assert cells, "no cell prints anything to compare"
    assert 2 * len(compared) >= len(cells), f"only {len(compared)} of {len(cells)} compared"
