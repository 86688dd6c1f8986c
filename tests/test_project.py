"""The project's own promises: installable, one dependency list, one book definition."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~\[ ;]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_environment_yml_lists_the_same_dependencies_as_pyproject():
    project = _pyproject()["project"]
    wanted = {
        _name(r)
        for r in project["dependencies"]
        + project["optional-dependencies"]["tf-cpu"]
        + project["optional-dependencies"]["jax"]
        + project["optional-dependencies"]["course"]
    }
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    pip_section = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    listed = {_name(r) for r in pip_section if not r.startswith("-")}
    assert listed == wanted, (
        f"environment.yml has {sorted(listed)}, pyproject.toml {sorted(wanted)}"
    )
    assert any(r.startswith("-e .") for r in pip_section), "environment.yml must install this repo"


def test_dependencies_are_lower_bounds_only():
    project = _pyproject()["project"]
    every = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        every += extra
    pinned = [r for r in every if "==" in r or "<" in r]
    assert not pinned, f"exact pins or upper bounds break Colab: {pinned}"


def test_tensorflow_and_ipywidgets_are_never_pulled_in_by_default():
    deps = [_name(r) for r in _pyproject()["project"]["dependencies"]]
    assert "tensorflow" not in deps and "tensorflow-cpu" not in deps
    (widgets,) = [r for r in _pyproject()["project"]["dependencies"] if _name(r) == "ipywidgets"]
    assert widgets.replace(" ", "") == "ipywidgets>=7.6", "Colab ships ipywidgets 7.7.1"


def test_book_yml_defines_languages_and_chapters():
    book = yaml.safe_load((ROOT / "book.yml").read_text())
    assert [lang["code"] for lang in book["languages"]] == ["en", "zh", "es", "ko", "ru"]
    assert len(book["chapters"]) == 11
    assert [c[:2] for c in book["chapters"]] == [f"{i:02d}" for i in range(11)]
    assert book["repository"]["url"].startswith("https://github.com/")


def test_readme_names_the_two_commands_and_ci_calls_the_test_command():
    readme = (ROOT / "README.md").read_text()
    assert "bash scripts/course.sh" in readme
    assert "bash scripts/test.sh" in readme
    assert "bash scripts/test.sh" in (ROOT / ".ci" / "run").read_text()


def test_every_speedup_in_the_readme_is_a_recorded_one():
    """The README quotes numbers only from the results shipped with mpteach (which name their
    hardware): each ``N.NN×`` must be the speedup of some recorded row."""
    from mpteach.bench import recorded_results

    readme = (ROOT / "README.md").read_text()
    quoted = set(re.findall(r"\b(\d+\.\d\d)×", readme))
    recorded = {f"{row['speedup']:.2f}" for doc in recorded_results() for row in doc["rows"]}
    assert quoted, "the README quotes no measured speedup"
    assert quoted <= recorded, f"not in any recorded result: {sorted(quoted - recorded)}"
