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
