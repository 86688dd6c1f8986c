"""The instructor's kit: student copies, answer keys, nbgrader sources, the grader, the guide's
timings and translations, the JupyterHub recipe, and a class's own benchmark results."""

from __future__ import annotations

import ast
import csv
import json
import os
import re
import subprocess
from pathlib import Path

import nbformat
import pytest
import yaml

from mpteach.classroom import __main__ as cli
from mpteach.classroom import copies, grade

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
BOOK = yaml.safe_load((ROOT / "book.yml").read_text(encoding="utf-8"))
LANGS = [lang["code"] for lang in BOOK["languages"]]
CHAPTERS = list(BOOK["chapters"])
KEYS = copies.load_keys(ROOT / "classroom" / "exercises.yml")
PLAN = yaml.safe_load((ROOT / "classroom" / "plan.yml").read_text(encoding="utf-8"))
TIMINGS = json.loads((ROOT / "classroom" / "timings.json").read_text(encoding="utf-8"))
HUB = ROOT / "classroom" / "jupyterhub"
BOTH = [(lang, chapter) for lang in LANGS for chapter in CHAPTERS]
SERVER_MIB = 300  # the Jupyter server beside the kernel, as the guide and config.yaml say


def read(lang: str, chapter: str) -> dict:
    return nbformat.read(NOTEBOOKS / lang / f"{chapter}.ipynb", as_version=4)


# --- the exercises and their keys ------------------------------------------------------------


@pytest.mark.parametrize(("lang", "chapter"), BOTH)
def test_every_exercise_has_its_expected_time_and_key(lang, chapter):
    found = copies.exercises(read(lang, chapter))
    assert [e.name for e in found] == list(KEYS[chapter]), "exercises.yml and the notebook differ"
    assert found == copies.exercises(read("en", chapter)), "exercise cells differ from English"
    for exercise in found:
        entry = KEYS[chapter][exercise.name]
        assert isinstance(entry["minutes"], int) and 1 <= entry["minutes"] <= 60
        assert set(entry["key"]) <= set(exercise.cells), f"{exercise.name}: key edits other cells"
        assert exercise.solution is not None, f"{exercise.name} has no solution cell"


@pytest.mark.parametrize(("lang", "chapter"), BOTH)
def test_a_student_copy_drops_the_solutions_and_nothing_else(lang, chapter):
    nb = read(lang, chapter)
    student = copies.student_copy(nb)
    solutions = {e.solution for e in copies.exercises(nb)}
    kept = [c for c in nb.cells if c.get("id") not in solutions]
    assert student["cells"] == kept
    assert {k: v for k, v in student.items() if k != "cells"} == {
        k: v for k, v in nb.items() if k != "cells"
    }
    assert not [c["id"] for c in student["cells"] if c["id"].endswith("-solution")]
    assert all(e.graded in {c["id"] for c in student["cells"]} for e in copies.exercises(nb))
    nbformat.validate(nbformat.from_dict(student))


@pytest.mark.parametrize(("lang", "chapter"), BOTH)
def test_the_answer_key_changes_only_the_answers(lang, chapter):
    nb = read(lang, chapter)
    key = copies.answer_key(nb, KEYS[chapter])
    edited = {cell_id for entry in KEYS[chapter].values() for cell_id in entry["key"]}
    for before, after in zip(nb.cells, key["cells"], strict=True):
        if before["id"] in edited:
            assert before["source"] != after["source"]
            ast.parse(after["source"])  # still Python
        else:
            assert before == after


def test_a_stale_key_is_named():
    nb = read("en", "06_loss_scaling")
    stale = {"ex1": {"minutes": 1, "key": {"ex1-check": [{"find": "answer = 7", "put": "x"}]}}}
    with pytest.raises(ValueError, match="'answer = 7' occurs 0 times"):
        copies.answer_key(nb, stale)
    with pytest.raises(ValueError, match=r"lacks: \['ex9-check'\]"):
        copies.answer_key(nb, {"ex9": {"minutes": 1, "key": {"ex9-check": []}}})


def clear_solutions(source: str) -> str:
    """What ``nbgrader generate_assignment`` makes of a solution cell (its ClearSolutions)."""
    out, skipping = [], False
    for line in source.split("\n"):
        if line.strip() == copies.BEGIN:
            indent = line[: len(line) - len(line.lstrip())]
            out += [f"{indent}# YOUR CODE HERE", f"{indent}raise NotImplementedError()"]
            skipping = True
        elif line.strip() == copies.END:
            skipping = False
        elif not skipping:
            out.append(line)
    return "\n".join(out)


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_nbgrader_sources_mark_every_answer_and_test_every_exercise(chapter):
    nb = read("en", chapter)
    source = copies.nbgrader_source(nb, KEYS[chapter], chapter)
    meta = [c["metadata"].get("nbgrader") for c in source["cells"]]
    tests = [m for m in meta if m and m["grade"]]
    assert len(tests) == len(KEYS[chapter]) and all(m["points"] == 1 for m in tests)
    ids = [m["grade_id"] for m in meta if m]
    assert len(ids) == len(set(ids)), "nbgrader needs unique grade ids"
    assert not [c for c in source["cells"] if c["id"].endswith("-solution")]
    for cell in source["cells"]:
        if (cell["metadata"].get("nbgrader") or {}).get("solution"):
            text = cell["source"]
            assert text.count(copies.BEGIN) == text.count(copies.END) >= 1
            ast.parse(text)
            ast.parse(clear_solutions(text))  # the student's version is Python too
    nbformat.validate(nbformat.from_dict(source))


# --- the grader, on generated submissions ----------------------------------------------------

FAST = "01_float_formats"  # the quickest chapter with three exercises


def submission(folder: Path, student: str, nb: dict) -> Path:
    path = folder / student / f"{FAST}.ipynb"
    path.parent.mkdir(parents=True)
    nbformat.write(nbformat.from_dict(nb), path)
    return path


def with_cell(nb: dict, cell_id: str, source: str) -> dict:
    for cell in nb["cells"]:
        if cell.get("id") == cell_id:
            cell["source"] = source
    return nb


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Five students' submissions of chapter 01, graded once: the CSV's rows by student."""
    folder = tmp_path_factory.mktemp("submitted")
    student = copies.student_copy(read("en", FAST))
    key = copies.answer_key(student, KEYS[FAST])
    submission(folder, "right", key)
    wrong = copies.answer_key(student, KEYS[FAST])
    with_cell(wrong, "ex1-check", "answer = 65535\nmp.checks.ch01.largest_float16(answer)")
    with_cell(wrong, "ex3-check", "answer = 2**-11\nmp.checks.ch01.smallest_update(answer)")
    submission(folder, "wrong", wrong)
    raising = copies.answer_key(student, KEYS[FAST])
    with_cell(raising, "ex1-check", "raise RuntimeError('boom')")
    with_cell(
        raising,
        "ex2-check",
        "import urllib.request\nurllib.request.urlopen('http://192.0.2.1/', timeout=5)",
    )
    submission(folder, "raising", raising)
    hanging = copies.answer_key(student, KEYS[FAST])
    with_cell(hanging, "ex2-check", "import time\ntime.sleep(3600)")
    submission(folder, "hanging", hanging)
    missing = copies.answer_key(student, KEYS[FAST])
    missing["cells"] = [c for c in missing["cells"] if not c["id"].startswith("ex3-")]
    submission(folder, "missing", missing)
    teaching_error = copies.answer_key(student, KEYS[FAST])
    teaching = next(
        c for c in teaching_error["cells"] if c["cell_type"] == "code" and c["id"] != "setup"
    )
    teaching["source"] = "undefined_name_in_a_teaching_cell"
    submission(folder, "teaching-error", teaching_error)
    # a submission saved by a tool that writes nbformat 4.4: no cell ids
    old_format = copies.answer_key(student, KEYS[FAST])
    for cell in old_format["cells"]:
        del cell["id"]
    old_format["nbformat_minor"] = 4
    (folder / "old-format").mkdir()
    (folder / "old-format" / f"{FAST}.ipynb").write_text(json.dumps(old_format), encoding="utf-8")
    out = folder / "grades.csv"
    grade.grade_folder(folder, out, limit_s=45, keys=KEYS, jobs=2)
    with out.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    by_student: dict[str, dict[str, dict]] = {}
    for row in rows:
        by_student.setdefault(row["student"], {})[row["exercise"]] = row
    return rows, by_student


@pytest.mark.slow
@pytest.mark.notebooks
def test_the_grader_writes_one_row_per_student_and_exercise(graded):
    rows, by_student = graded
    assert list(rows[0]) == [
        "student",
        "notebook",
        "chapter",
        "exercise",
        "status",
        "message",
        "seconds",
        "other_errors",
    ]
    assert sorted(by_student) == [
        "hanging", "missing", "old-format", "raising", "right", "teaching-error", "wrong",
    ]  # fmt: skip
    assert all(list(ex) == ["ex1", "ex2", "ex3"] for ex in by_student.values())
    assert {row["chapter"] for row in rows} == {"01"}
    assert all(row["status"] in grade.STATUSES for row in rows)


@pytest.mark.slow
@pytest.mark.notebooks
def test_the_grader_passes_right_answers_and_says_why_wrong_ones_fail(graded):
    _, by_student = graded
    assert {n: r["status"] for n, r in by_student["right"].items()} == dict.fromkeys(
        ["ex1", "ex2", "ex3"], "passed"
    )
    wrong = by_student["wrong"]
    assert [wrong[n]["status"] for n in ("ex1", "ex2", "ex3")] == ["failed", "passed", "failed"]
    from mpteach.checks import ch01

    assert wrong["ex1"]["message"] == ch01.largest_float16(65535).message  # what the student saw
    assert wrong["ex3"]["message"] == ch01.smallest_update(2**-11).message


@pytest.mark.slow
@pytest.mark.notebooks
def test_the_grader_reports_errors_network_and_goes_on(graded):
    _, by_student = graded
    raising = by_student["raising"]
    assert raising["ex1"]["status"] == "error"
    assert raising["ex1"]["message"] == "RuntimeError: boom"
    assert raising["ex2"]["status"] == "error"
    assert "the grader allows no network connections" in raising["ex2"]["message"]
    assert raising["ex3"]["status"] == "passed"  # the cells after an error still run


@pytest.mark.slow
@pytest.mark.notebooks
def test_the_grader_stops_a_notebook_that_never_ends(graded):
    _, by_student = graded
    hanging = by_student["hanging"]
    assert hanging["ex1"]["status"] == "passed"
    assert hanging["ex2"]["status"] == hanging["ex3"]["status"] == "timeout"
    assert "limit of 45 s" in hanging["ex2"]["message"]
    assert float(hanging["ex2"]["seconds"]) < 45 + 30  # stopped near its limit, not after an hour


@pytest.mark.slow
@pytest.mark.notebooks
def test_the_grader_names_a_missing_exercise(graded):
    _, by_student = graded
    missing = by_student["missing"]
    assert [missing[n]["status"] for n in ("ex1", "ex2")] == ["passed", "passed"]
    assert missing["ex3"]["status"] == "missing"


def test_an_unreadable_submission_is_a_row_not_a_crash(tmp_path):
    (tmp_path / "ana").mkdir()
    (tmp_path / "ana" / "broken.ipynb").write_text("{ not json", encoding="utf-8")
    rows = grade.grade_folder(tmp_path, tmp_path / "g.csv")
    assert [(r.student, r.status) for r in rows] == [("ana", "error")]
    assert rows[0].message.startswith("unreadable notebook")


@pytest.mark.slow
@pytest.mark.notebooks
@pytest.mark.parametrize("chapter", CHAPTERS)
def test_every_answer_key_passes_and_every_student_copy_runs(chapter, tmp_path):
    """The keys are right (every self-check passes) and the student copies run top to bottom:
    each exercise still unanswered gets its reminder, and no cell raises."""
    nb = read("en", chapter)
    for name, made in (
        ("key", copies.answer_key(nb, KEYS[chapter])),
        ("student", copies.student_copy(nb)),
    ):
        path = tmp_path / name / f"{chapter}.ipynb"
        path.parent.mkdir()
        nbformat.write(nbformat.from_dict(made), path)
        rows = grade.grade_notebook(path, limit_s=240, keys=KEYS)
        statuses = {r.exercise: (r.status, r.message) for r in rows}
        if name == "key":
            assert all(s == "passed" for s, _ in statuses.values()), statuses
        else:
            assert all(s == "failed" for s, _ in statuses.values()), statuses


# --- times, tracks and the guide ---------------------------------------------------------------


def test_the_timings_name_their_machine_and_cover_every_chapter():
    machine = TIMINGS["measured_on"]
    assert machine["cpu"] and machine["cores"] and machine["python"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", TIMINGS["date"])
    assert set(TIMINGS["chapters"]) == set(CHAPTERS)
    for chapter, measured in TIMINGS["chapters"].items():
        assert 0 < measured["seconds"] < 60, f"{chapter}: a chapter runs in well under a minute"
        assert measured["peak_memory_mib"] > 100


def test_prerequisites_come_earlier_in_the_book():
    prerequisites = PLAN["prerequisites"]
    assert list(prerequisites) == CHAPTERS
    for chapter, needs in prerequisites.items():
        assert all(CHAPTERS.index(n) < CHAPTERS.index(chapter) for n in needs), chapter


@pytest.mark.parametrize("lang", LANGS)
def test_the_guide_table_is_what_the_records_say(lang):
    path = NOTEBOOKS / lang / cli.GUIDE
    assert path.read_text(encoding="utf-8") == cli.guide_text(ROOT, lang), (
        "run `python -m mpteach.classroom plan --write`"
    )


def guide(lang: str) -> str:
    return (NOTEBOOKS / lang / cli.GUIDE).read_text(encoding="utf-8")


def links(text: str) -> list[str]:
    return re.findall(r"\]\(([^)\s]+)\)", text)


@pytest.mark.parametrize("lang", LANGS)
def test_every_guide_keeps_the_anchors_links_and_commands_of_the_english_one(lang):
    english, translated = guide("en"), guide(lang)
    assert re.findall(r'<a id="([^"]+)"></a>', translated) == re.findall(
        r'<a id="([^"]+)"></a>', english
    )
    assert sorted(links(translated)) == sorted(links(english))
    fences = re.compile(r"```.*?```", re.S)
    assert fences.findall(translated) == fences.findall(english)
    code = set(re.findall(r"`([^`\n]+)`", english))
    assert code <= set(re.findall(r"`([^`\n]+)`", translated)), code - set(
        re.findall(r"`([^`\n]+)`", translated)
    )
    for target in links(translated):
        if not target.startswith(("http", "#")):
            assert (NOTEBOOKS / lang / target).exists(), target


@pytest.mark.parametrize("lang", [la for la in LANGS if la != "en"])
def test_every_guide_is_written_in_its_language_with_the_glossary(lang):
    import test_translations as tt

    english, translated = tt.prose(guide("en")), tt.prose(guide(lang))
    for term, forms in tt.GLOSSARY.items():
        if re.search(rf"\b{re.escape(term)}\w*", english, re.I):
            assert any(re.search(f, translated, re.I) for f in forms[lang]), (term, forms[lang])
    for pattern, instead in tt.CALQUES[lang].items():
        assert not re.search(pattern, guide(lang), re.I), f"{pattern!r}: write {instead}"
    if lang in tt.SCRIPTS:
        native = len(re.findall(tt.SCRIPTS[lang], translated))
        assert native >= len(re.findall(r"[A-Za-z]{2,}", translated))
    if lang == "zh":
        assert tt.stray_spaces(guide(lang)) == []


# --- a class on a JupyterHub -------------------------------------------------------------------


def mebibytes(size: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)([KMGT])i?", size).groups()
    return float(number) * 1024 ** "KMGT".index(unit) / 1024


def test_the_hub_gives_each_student_what_the_chapters_measured_need():
    config = yaml.safe_load((HUB / "config.yaml").read_text(encoding="utf-8"))
    memory = config["singleuser"]["memory"]
    peak = max(m["peak_memory_mib"] for m in TIMINGS["chapters"].values())
    assert mebibytes(memory["guarantee"]) >= peak + SERVER_MIB
    assert mebibytes(memory["limit"]) >= mebibytes(memory["guarantee"])
    gpu = [p for p in config["singleuser"]["profileList"] if "kubespawner_override" in p]
    assert gpu and gpu[0]["kubespawner_override"]["extra_resource_limits"] == {
        "nvidia.com/gpu": "1"
    }


def test_the_dockerfile_copies_what_exists_and_installs_extras_that_exist():
    dockerfile = (HUB / "Dockerfile").read_text(encoding="utf-8")
    for source in re.findall(r"^COPY (?:--\S+ )*(\S+) ", dockerfile, re.M):
        assert (ROOT / source).exists(), source
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    for extra in re.findall(r"mpteach\[(\w+)\]", dockerfile):
        assert re.search(rf"^{extra} = \[", pyproject, re.M), extra
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    assert {".venv*", "_build", ".git"} <= set(ignored)


def test_the_dockerfile_makes_the_student_copies_it_hands_out(tmp_path):
    """Its ``copies`` command, run here with the image's paths moved into ``tmp_path``, writes
    the folder that ``MPTEACH_NOTEBOOKS`` names: the student copies, without keys or solutions."""
    dockerfile = (HUB / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    lang = re.search(r"^ARG COURSE_LANG=(\w+)", dockerfile, re.M)[1]
    command = re.search(r"python -m mpteach\.classroom (copies [^&\n]+)", dockerfile)[1].split()
    args = [a.replace("${COURSE_LANG}", lang) for a in command]
    args[args.index("--root") + 1] = str(ROOT)
    args[args.index("--out") + 1] = str(tmp_path / "classroom")
    assert cli.main(args) == 0
    handed_out = re.search(r"^ENV MPTEACH_NOTEBOOKS=/opt/(\S+)", dockerfile, re.M)[1]
    folder = tmp_path / handed_out.replace("${COURSE_LANG}", lang)
    assert sorted(p.stem for p in folder.glob("*.ipynb")) == CHAPTERS
    for path in folder.glob("*.ipynb"):
        ids = [c["id"] for c in nbformat.read(path, as_version=4).cells]
        assert not [i for i in ids if i.endswith("-solution")], path.name


def test_the_start_script_copies_what_a_student_lacks_and_keeps_their_work(tmp_path):
    course = tmp_path / "course"
    (course / "sub").mkdir(parents=True)
    (course / "00.ipynb").write_text("course", encoding="utf-8")
    env = {**os.environ, "HOME": str(tmp_path / "home"), "MPTEACH_NOTEBOOKS": str(course)}
    (tmp_path / "home").mkdir()
    script = str(HUB / "start-course.sh")
    subprocess.run(["bash", script], env=env, check=True)
    copied = tmp_path / "home" / "mpteach" / "00.ipynb"
    assert copied.read_text(encoding="utf-8") == "course"
    copied.write_text("my work", encoding="utf-8")
    (course / "sub" / "11 new.ipynb").write_text("a new chapter", encoding="utf-8")
    subprocess.run(["bash", script], env=env, check=True)
    assert copied.read_text(encoding="utf-8") == "my work"
    new = tmp_path / "home" / "mpteach" / "sub" / "11 new.ipynb"
    assert new.read_text(encoding="utf-8") == "a new chapter"


def test_the_hub_shares_the_class_results_folder_the_guide_names():
    config = yaml.safe_load((HUB / "config.yaml").read_text(encoding="utf-8"))
    mounts = [m["mountPath"] for m in config["singleuser"]["storage"]["extraVolumeMounts"]]
    assert "/shared/class-results" in mounts
    assert all('class_results="/shared/class-results"' in guide(lang) for lang in LANGS)


# --- a class's own hardware table ----------------------------------------------------------------


def test_class_results_are_read_by_student_and_bad_files_named(tmp_path):
    from mpteach.bench.results import class_results, recorded_results

    doc = recorded_results()[0]
    (tmp_path / "ana.json").write_text(json.dumps(doc), encoding="utf-8")
    (tmp_path / "bo.json").write_text('{"schema": "x"}', encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a result", encoding="utf-8")
    found, skipped = class_results(tmp_path)
    assert found == [("ana", doc)]
    assert len(skipped) == 1 and skipped[0].startswith("bo.json (")
    with pytest.raises(ValueError, match="class_results='.*nowhere' is not a folder"):
        class_results(tmp_path / "nowhere")


def test_the_speedup_explorer_shows_a_class_group(tmp_path):
    import mpteach as mp
    from mpteach.bench.results import recorded_results

    recorded = recorded_results()
    (tmp_path / "ana.json").write_text(json.dumps(recorded[-1]), encoding="utf-8")
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    explorer = mp.widgets.SpeedupExplorer("dense", lang="en", class_results=str(tmp_path))
    labels = [label for label, _ in explorer.result_menu.options]
    assert len(labels) == len(recorded) + 1
    assert labels[-1].startswith(f"ana: {recorded[-1]['hardware']['label']}")
    assert labels[-1].endswith("measured by this class")
    assert "broken.json" in explorer.message.text
    explorer.result_menu.value = len(recorded)
    assert explorer.plot.figure.axes[0].get_title().endswith("measured by this class")
    empty = tmp_path / "empty"
    empty.mkdir()
    nothing = mp.widgets.SpeedupExplorer("dense", lang="es", class_results=str(empty))
    assert "aún no contiene" in nothing.message.text


def test_the_readme_names_the_two_hour_track_of_the_guide():
    english = guide("en")
    section = english[english.index('id="track-2h"') : english.index('id="track-1day"')]
    chapters = sorted({target[:2] for target in links(section) if target.endswith(".ipynb")})
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith("| 2 hours"))
    assert re.findall(r"\b\d\d\b", row) == chapters


@pytest.mark.slow
@pytest.mark.notebooks
def test_the_grader_names_errors_outside_the_exercises(graded):
    _, by_student = graded
    rows = list(by_student["teaching-error"].values())
    assert all(r["status"] == "passed" for r in rows)
    assert len({r["other_errors"] for r in rows}) == 1
    expected = "NameError: name 'undefined_name_in_a_teaching_cell' is not defined"
    assert expected in rows[0]["other_errors"]
    assert all(r["other_errors"] == "" for r in by_student["right"].values())


@pytest.mark.slow
@pytest.mark.notebooks
def test_the_grader_finds_exercises_by_their_check_when_ids_are_gone(graded):
    _, by_student = graded
    rows = by_student["old-format"]
    assert {n: r["status"] for n, r in rows.items()} == dict.fromkeys(
        ["ex1", "ex2", "ex3"], "passed"
    )
    assert {r["chapter"] for r in rows.values()} == {"01"}


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_each_exercise_names_the_check_its_graded_cell_calls(chapter):
    nb = read("en", chapter)
    cells = {c["id"]: c["source"] for c in nb.cells}
    for exercise in copies.exercises(nb):
        calls = grade.CHECK_CALL.findall(cells[exercise.graded])
        assert calls[-1] == (chapter[:2], KEYS[chapter][exercise.name]["check"])


def test_a_grade_without_the_exercise_list_says_so(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit, match="--keys 'nowhere.yml' does not exist"):
        cli.main(["grade", str(tmp_path), "--keys", "nowhere.yml"])
    cli.main(["grade", str(tmp_path), "--out", str(tmp_path / "g.csv")])
    assert "exercises a submission lacks are not reported" in capsys.readouterr().err


def test_the_chapter_comes_from_the_setup_the_checks_or_the_file_name():
    setup = {"cell_type": "code", "source": 'mp.course.setup(chapter="03", lang="en")'}
    check = {"cell_type": "code", "source": "answer = 1\nmp.checks.ch06.scale_after(answer)"}
    other = {"cell_type": "code", "source": "x = 1"}
    assert grade.chapter_of({"cells": [setup, check]}, "09_x.ipynb") == "03"
    assert grade.chapter_of({"cells": [other, check]}, "09_x.ipynb") == "06"
    assert grade.chapter_of({"cells": [other]}, "09_beyond_16_bits.ipynb") == "09"
    assert grade.chapter_of({"cells": [other]}, "homework.ipynb") is None
