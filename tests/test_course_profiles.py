"""The course's hardware-dependent paths, run as other machines would run them.

Whatever a chapter prints about the machine is ignored by nbval (it differs between our own
machines), so these tests check it instead: with ``MPTEACH_HARDWARE`` set to each profile of
:data:`mpteach.hardware.PROFILES`, every chapter's setup cell and every cell marked
``ignore_reason: hardware`` runs, and what it prints must fit that machine, in every language.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

import mpteach as mp
from mpteach import course, hardware, i18n

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = sorted(p.stem for p in (ROOT / "notebooks" / "en").glob("*.ipynb"))
PROFILES = tuple(hardware.PROFILES)


@pytest.fixture
def as_machine(monkeypatch):
    def use(name: str) -> hardware.HardwareInfo:
        monkeypatch.setenv(hardware.PROFILE_ENV, name)
        return hardware.PROFILES[name]

    return use


def _setup_output(chapter: str, lang: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        course.setup(chapter=chapter[:2], lang=lang)
    return out.getvalue()


def _notes(chapter: str, lang: str) -> dict[str, str]:
    return {kind: course.chapter_note(chapter[:2], kind, lang) for kind in course.KINDS}


def test_profiles_are_what_detect_returns_and_benchmarks_ignore_them(as_machine):
    info = as_machine("t4")
    assert hardware.detect() is info and course.accelerator() == "gpu"
    assert hardware.detect(use_profile=False) is not info  # benchmarks name the real machine


def test_unknown_profile_names_the_choices(monkeypatch):
    monkeypatch.setenv(hardware.PROFILE_ENV, "v100")
    with pytest.raises(ValueError, match="MPTEACH_HARDWARE='v100'.*'intel-amx'.*'tpu'"):
        hardware.detect()


def test_profiles_cover_every_kind_of_machine_the_course_names():
    kinds = {(info.device, hardware.best_policy(info)) for info in hardware.PROFILES.values()}
    assert kinds >= {
        ("cpu", "mixed_bfloat16"),  # Intel AMX, AMD Zen 4
        ("cpu", "float32"),  # no 16-bit units
        ("gpu", "mixed_float16"),  # T4
        ("gpu", "mixed_bfloat16"),  # A100, L4: bfloat16 Tensor Cores
        ("gpu", "float32"),  # P100
        ("tpu", "mixed_bfloat16"),
    }


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("name", PROFILES)
def test_setup_cell_of_every_chapter_fits_the_machine(as_machine, name, lang):
    info = as_machine(name)
    kind = info.device
    for chapter in CHAPTERS:
        text = _setup_output(chapter, lang)
        verdict, note = text.splitlines()[0], text.splitlines()[-1]
        assert hardware.best_policy(info) in verdict, (chapter, text)
        assert verdict.endswith(hardware.verdict(info, lang)), (chapter, text)
        notes = _notes(chapter, lang)
        assert note == notes[kind], (chapter, text)
        # never a remark meant for another kind of machine
        assert all(notes[k] not in text for k in course.KINDS if notes[k] != notes[kind])


def _hardware_cells(chapter: str) -> list[str]:
    nb = json.loads((ROOT / "notebooks" / "en" / f"{chapter}.ipynb").read_text("utf-8"))
    return [
        "".join(cell["source"])
        for cell in nb["cells"]
        if cell["cell_type"] == "code"
        and cell["metadata"].get("mpteach", {}).get("ignore_reason") == "hardware"
        and cell["metadata"].get("mpteach", {}).get("role") != "setup"
        and "import tensorflow" not in "".join(cell["source"])
        and "mp.bench." not in "".join(cell["source"])  # timing cells run TensorFlow models
    ]


def test_the_hardware_cells_are_found():
    assert len(_hardware_cells("00_start_here")) == 3


@pytest.mark.parametrize("name", PROFILES)
def test_hardware_cells_of_chapter_00_describe_the_machine(as_machine, name):
    info = as_machine(name)
    namespace: dict = {"mp": mp}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for source in _hardware_cells("00_start_here"):
            exec(compile(source, "<cell>", "exec"), namespace)
    text = out.getvalue()
    assert i18n.t("out.device", "en", value=info.device) + "\n" in text
    assert i18n.t("out.runs_on", "en", value=info.label) + "\n" in text
    assert i18n.t("out.best_policy", "en", value=hardware.best_policy(info)) + "\n" in text
    best = hardware.best_policy(info)
    if best != "float32":  # the policy the verdict recommends draws no warning
        assert f"{best}: no warning" in text
    if info.device == "cpu":  # float16 on a CPU always warns about the fused kernel
        assert "mixed_float16: no warning" not in text
    for gpu in info.gpus:  # nvidia-smi -L names the profile's GPU, never "no GPU here"
        assert f"GPU 0: {gpu.name} (MPTEACH_HARDWARE={name}" in text
    if not info.gpus:
        assert i18n.t("course.ch00.no_nvidia_smi", "en") in text


def test_setup_cell_says_what_runs_without_tensorflow():
    """A runtime with no TensorFlow (Colab's TPU runtimes): the setup cell of every chapter runs,
    imports no TensorFlow, and says in one line which cells will stop and what still runs."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "sys.modules['tensorflow'] = None  # as if not installed: find_spec is None, import fails\n"
        "import mpteach as mp\n"
        f"for chapter in {[c[:2] for c in CHAPTERS]!r}:\n"
        f"    for lang in {list(i18n.LANGUAGES)!r}:\n"
        "        mp.course.setup(chapter=chapter, lang=lang)\n"
        "print('keras' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == "False"
    for lang in i18n.LANGUAGES:
        line = i18n.t("course.no_tensorflow", lang)
        assert "\n" not in line and "No module named 'tensorflow'" in line
        assert "%pip install tensorflow" not in line  # it would break a TPU runtime's JAX
        assert lines.count(line) == len(CHAPTERS)
