"""Fair timing: every variant measured in one process, round-robin, with progress.

Measuring float32 now and bfloat16 a minute later compares two machine states (another
process, a turbo clock, a cold cache). Interleaving the variants, one call each per round, gives
each the same conditions; the median of the rounds ignores the odd slow call.

>>> calls = []
>>> times = interleaved({"a": lambda: calls.append("a"), "b": lambda: calls.append("b")},
...                     repeats=2, warmup=1)
>>> calls
['a', 'b', 'a', 'b', 'a', 'b']
>>> sorted(times), len(times["a"])
(['a', 'b'], 2)
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Hashable
from typing import Any

Progress = Callable[[int, int, str], None]


def text_progress(done: int, total: int, label: str) -> None:
    """Progress on one stderr line: ``[ 3/12] matmul 1024 bfloat16``."""
    width = len(str(total))
    end = "\n" if done == total else ""
    sys.stderr.write(f"\r[{done:>{width}}/{total}] {label:<60}{end}")
    sys.stderr.flush()


def progress_function(progress: bool | Progress | None) -> Progress:
    """``True``: :func:`text_progress`; a callable: itself; ``False``/``None``: silence."""
    if progress is True:
        return text_progress
    if callable(progress):
        return progress
    return lambda done, total, label: None


def interleaved(
    variants: dict[Hashable, Callable[[], Any]],
    repeats: int,
    warmup: int = 1,
    progress: bool | Progress | None = None,
) -> dict[Hashable, list[float]]:
    """Seconds per call of each variant: ``warmup`` untimed calls each (tracing, compiling),
    then ``repeats`` rounds calling every variant once. Each callable must block until its work
    is done (fetch a value to the host)."""
    if repeats < 1 or warmup < 0:
        raise ValueError(f"repeats={repeats!r} must be >= 1 and warmup={warmup!r} >= 0.")
    report = progress_function(progress)
    total, done = len(variants) * (warmup + repeats), 0
    for name, run in variants.items():  # warm-up first, so that rounds time steady state
        for _ in range(warmup):
            run()
            done += 1
            report(done, total, f"{name} (warm-up)")
    times: dict[Hashable, list[float]] = {name: [] for name in variants}
    for round_ in range(repeats):
        for name, run in variants.items():
            start = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - start)
            done += 1
            report(done, total, f"{name} (round {round_ + 1}/{repeats})")
    return times
