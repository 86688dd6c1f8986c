"""Shared test set-up: quiet TensorFlow, and global state restored after every test.

MPLBACKEND is left alone: nbval kernels inherit this environment, and the notebooks' stored
figures come from the inline backend.
"""

from __future__ import annotations

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _restore_global_state():
    """Each test starts with float32 policies (mpteach and Keras) and English messages."""
    yield
    if "mpteach.policy" in sys.modules:
        sys.modules["mpteach.policy"].set_global_policy("float32")
    if "keras" in sys.modules:
        sys.modules["keras"].config.set_dtype_policy("float32")
    if "mpteach.i18n" in sys.modules:
        sys.modules["mpteach.i18n"].set_language("en")


@pytest.fixture
def hide_module(tmp_path, monkeypatch):
    """``hide_module("jax")``: make ``import jax`` fail in child processes (a package that
    raises ImportError shadows the installed one through PYTHONPATH)."""

    def hide(module: str) -> None:
        folder = tmp_path / f"no-{module}"
        (folder / module).mkdir(parents=True)
        (folder / module / "__init__.py").write_text(
            f'raise ImportError("No module named {module!r} (hidden for this test)")\n'
        )
        monkeypatch.setenv(
            "PYTHONPATH", os.pathsep.join([str(folder), os.environ.get("PYTHONPATH", "")])
        )

    return hide
