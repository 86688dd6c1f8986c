"""The dynamic loss-scale update rule: one pure function for the optimizer and the simulator.

Keras 3 (``keras/src/optimizers/loss_scale_optimizer.py``) updates its state after every step:

* finite gradients: count the step; after ``growth_steps`` finite steps in a row, double the
  scale and restart the count;
* a non-finite gradient (inf or NaN): the step is skipped, the scale is halved and the count
  restarts.

There is no upper or lower bound (Keras 2 floored the scale at 1; Keras 3 does not).

The function is written with a ``select(cond, a, b)`` argument so that the very same lines run on
Python numbers, NumPy arrays (the simulator) and TensorFlow tensors (``tf.where``, the optimizer).

>>> update_loss_scale(32768.0, 0, True, growth_steps=2000)
(32768.0, 1)
>>> update_loss_scale(32768.0, 1999, True, growth_steps=2000)
(65536.0, 0)
>>> update_loss_scale(32768.0, 5, False, growth_steps=2000)
(16384.0, 0)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

DEFAULT_INITIAL_SCALE = 2.0**15
DEFAULT_GROWTH_STEPS = 2000


def _select(cond: Any, a: Any, b: Any) -> Any:
    if isinstance(cond, (bool, np.bool_)):
        return a if cond else b
    return np.where(cond, a, b)


def update_loss_scale(
    scale: Any,
    counter: Any,
    finite: Any,
    growth_steps: Any,
    select: Callable[[Any, Any, Any], Any] = _select,
) -> tuple[Any, Any]:
    """Return ``(new_scale, new_counter)`` after one step whose gradients were ``finite`` or not.

    ``counter`` counts the finite steps since the scale last changed, as Keras's
    ``step_counter`` does. ``select`` is ``np.where`` for arrays and ``tf.where`` for tensors.

    >>> import numpy as np
    >>> update_loss_scale(np.array([8.0, 8.0]), np.array([1, 1]), np.array([True, False]), 2)
    (array([16.,  4.]), array([0, 0]))
    """
    grow = finite & (counter == growth_steps - 1)
    zero = counter * 0  # keeps the counter's dtype for tf.where
    new_scale = select(finite, select(grow, scale * 2.0, scale), scale * 0.5)
    new_counter = select(finite, select(grow, zero, counter + 1), zero)
    return new_scale, new_counter
