"""Self-checks of chapter 06 (loss scaling).

The verdicts are computed with the course's own tools: float16 facts from :mod:`mpteach.formats`
and loss-scale trajectories from :func:`mpteach.simulate.replay`, the rule the optimizer uses.

>>> from mpteach.checks import ch06
>>> ch06.smallest_scale(2**15)
✅ Right: 2e-09 × 32768 = 6.554e-05 is a normal float16 (the smallest normal is 6.104e-05), and 16384 would not be enough. 2**15 is also Keras's default initial scale.
>>> ch06.smallest_scale(1000).passed
False
>>> ch06.scale_after(1024).passed
True
>>> ch06.defaults_asymmetry((5, 10000)).passed
True
"""

from __future__ import annotations

import math

from mpteach import formats
from mpteach.checks import Feedback, failed, not_a_number, number, passed, unanswered
from mpteach.loss_scale import DEFAULT_GROWTH_STEPS, DEFAULT_INITIAL_SCALE
from mpteach.simulate import replay

GRADIENT = 2e-9
"""Exercise 1: a gradient that float16 would store as a bare subnormal."""

SEQUENCE = (True, True, True, False, True, True)
"""Exercise 2: finite (True) and non-finite (False) steps, from a scale of 1024, growth every 3."""
START, GROWTH = 1024.0, 3

LIMIT = 2.0**10
"""Exercise 3: the gradients overflow float16 at any scale above this."""


def _is_power_of_two(value: float) -> bool:
    return value > 0 and math.isfinite(value) and math.frexp(value)[0] == 0.5


def _normal_in_float16(value: float) -> bool:
    return abs(value) >= formats.float_format("float16").smallest_normal


def smallest_scale(answer: object) -> Feedback:
    """Exercise 1: the smallest power-of-two scale that lifts ``GRADIENT`` into float16's normal range."""
    if (reminder := unanswered(answer)) is not None:
        return reminder
    scale = number(answer)
    if scale is None:
        return not_a_number(answer)
    if not _is_power_of_two(scale):
        return failed("checks.ch06.scale_not_power", answer=f"{scale:g}")
    normal = formats.float_format("float16").smallest_normal
    texts = {"grad": f"{GRADIENT:g}", "answer": f"{scale:g}", "normal": f"{normal:.4g}"}
    product = GRADIENT * scale
    if not _normal_in_float16(product):
        stored = float(formats.cast(product, "float16"))
        return failed(
            "checks.ch06.scale_too_small", product=f"{product:.4g}", stored=f"{stored:.4g}", **texts
        )
    if _normal_in_float16(GRADIENT * scale / 2):
        return failed("checks.ch06.scale_not_smallest", half=f"{scale / 2:g}", **texts)
    return passed("checks.ch06.scale_ok", product=f"{product:.4g}", half=f"{scale / 2:g}", **texts)


def scale_after(answer: object) -> Feedback:
    """Exercise 2: the loss scale after the steps of ``SEQUENCE``."""
    if (reminder := unanswered(answer)) is not None:
        return reminder
    value = number(answer)
    if value is None:
        return not_a_number(answer)
    scale, _ = replay(SEQUENCE, initial_scale=START, growth_steps=GROWTH)
    expected = float(scale[-1])
    path = " → ".join(f"{s:g}" for s in scale)
    if value == expected:
        return passed("checks.ch06.after_ok", path=path)
    all_finite, _ = replay([True] * len(SEQUENCE), initial_scale=START, growth_steps=GROWTH)
    if value == float(all_finite[-1]):
        return failed("checks.ch06.after_ignored_inf", answer=f"{value:g}")
    return failed("checks.ch06.after_wrong", answer=f"{value:g}", growth=GROWTH)


def defaults_asymmetry(answer: object) -> Feedback:
    """Exercise 3: ``(skipped, climb)``: steps skipped from the default scale down to ``LIMIT``,
    and finite steps needed to climb back up with the default growth interval."""
    if (reminder := unanswered(answer)) is not None:
        return reminder
    try:
        skipped, climb = answer  # type: ignore[misc]
    except (TypeError, ValueError):
        return failed("checks.wrong_type", expected="(skipped, climb)", actual=repr(answer))
    octaves = round(math.log2(DEFAULT_INITIAL_SCALE / LIMIT))
    texts = {"start": f"{DEFAULT_INITIAL_SCALE:g}", "limit": f"{LIMIT:g}", "octaves": octaves}
    if skipped != octaves:
        return failed("checks.ch06.asym_skipped", answer=f"{skipped}", **texts)
    if climb != octaves * DEFAULT_GROWTH_STEPS:
        return failed(
            "checks.ch06.asym_climb", answer=f"{climb}", growth=DEFAULT_GROWTH_STEPS, **texts
        )
    return passed("checks.ch06.asym_ok", climb=octaves * DEFAULT_GROWTH_STEPS, **texts)
