"""The course's widgets: thin ipywidgets shells over plain, tested functions.

Each widget module has plain functions that compute the numbers and draw a static matplotlib
figure (what a page without a kernel shows) and one widget class built on them. Widgets work with
ipywidgets 7.7 (Colab) and 8 (JupyterLab) and speak the language set by
:func:`mpteach.i18n.set_language`. Classes are imported on first use.
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "FloatExplorer": "mpteach.widgets.float_explorer",
    "RangeChart": "mpteach.widgets.range_chart",
    "GradientUnderflow": "mpteach.widgets.gradient_underflow",
    "LossScaleDynamics": "mpteach.widgets.loss_scale_dynamics",
    "SpeedupExplorer": "mpteach.widgets.speedup_explorer",
}
__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'mpteach.widgets' has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name]), name)
    globals()[name] = value
    return value
