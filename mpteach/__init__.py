"""mpteach: mixed precision, small enough to read and proven equal to Keras.

Import cost matters (a Colab CPU runtime, ``import mpteach.formats`` without TensorFlow),
so every public name is loaded on first use. ``import mpteach`` itself imports nothing heavy.

>>> import mpteach as mp
>>> mp.Policy("mixed_float16").compute_dtype
'float16'
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

# public name -> module that defines it
_LAZY = {
    # dtype policies (no TensorFlow)
    "Policy": "mpteach.policy",
    "PolicyMap": "mpteach.policy",
    "set_global_policy": "mpteach.policy",
    "global_policy": "mpteach.policy",
    "policy_scope": "mpteach.policy",
    # autocasting (TensorFlow)
    "AutoCastVariable": "mpteach.autocast",
    "autocast_scope": "mpteach.autocast",
    "Layer": "mpteach.layers",
    # loss scaling
    "update_loss_scale": "mpteach.loss_scale",
    "LossScaleOptimizer": "mpteach.optimizer",
    # languages
    "t": "mpteach.i18n",
    "set_language": "mpteach.i18n",
    "get_language": "mpteach.i18n",
    "columns": "mpteach.i18n",
    "lined_up": "mpteach.i18n",
}
_SUBMODULES = {
    "layers",
    "formats",
    "i18n",
    "figures",
    "doctor",
    "debug",
    "widgets",
    "simulate",
    "traces",
    "hardware",
    "bench",
    "checks",
    "course",
    "policy",
    "autocast",
    "loss_scale",
    "optimizer",
}

__all__ = sorted(_LAZY) + sorted(_SUBMODULES)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
    elif name in _SUBMODULES:
        value = importlib.import_module(f"mpteach.{name}")
    else:
        raise AttributeError(f"module 'mpteach' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
