"""Update latency of the float-format widgets, and the import time of ``mpteach.formats``.

Targets, printed beside the numbers and never asserted (speed depends on the machine, which the
output names): FloatExplorer < 50 ms per slider move, GradientUnderflow < 200 ms, RangeChart
< 100 ms, and ``import mpteach.formats`` < 0.5 s in a fresh process, without TensorFlow.

The widgets run without a browser here: a move's time is the Python side (computing the numbers,
building the HTML, drawing the PNG), not the transfer to the page or the page's own drawing.

    .venv/bin/python benchmarks/bench_widgets_formats.py [--moves 40] [--synthetic]

``--synthetic`` feeds GradientUnderflow generated values instead of the Keras model's gradients
(no TensorFlow needed).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

import numpy as np

IMPORT_PROBE = (
    "import sys, time; start = time.perf_counter(); import mpteach.formats; "
    "print(time.perf_counter() - start, 'tensorflow' in sys.modules)"
)


def import_time(repeats: int = 5) -> tuple[list[float], list[float], bool]:
    """In-process import times, whole-process times (interpreter start included), TF seen."""
    inside, whole, tensorflow = [], [], False
    for _ in range(repeats):
        start = time.perf_counter()
        out = subprocess.run(
            [sys.executable, "-c", IMPORT_PROBE], capture_output=True, text=True, check=True
        )
        whole.append(time.perf_counter() - start)
        seconds, imported = out.stdout.split()
        inside.append(float(seconds))
        tensorflow |= imported == "True"
    return inside, whole, tensorflow


def latencies(moves: list[Callable[[], None]]) -> list[float]:
    times = []
    for move in moves:
        start = time.perf_counter()
        move()
        times.append(time.perf_counter() - start)
    return times


def report(name: str, times: list[float], target: float) -> None:
    median, worst = statistics.median(times), max(times)
    p90 = sorted(times)[int(0.9 * (len(times) - 1))]
    verdict = "within" if median < target else "ABOVE"
    print(
        f"{name:<38} median {median * 1e3:7.1f} ms   p90 {p90 * 1e3:7.1f} ms   "
        f"max {worst * 1e3:7.1f} ms   ({verdict} the {target * 1e3:.0f} ms target, n={len(times)})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40, help="slider moves per widget")
    parser.add_argument("--synthetic", action="store_true", help="no TensorFlow: generated values")
    args = parser.parse_args()

    import ipywidgets
    import matplotlib

    from mpteach.hardware import detect

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"machine: {detect(tensorflow=False).cpu_label}, load average {load:.2f}")
    print(
        f"Python {sys.version.split()[0]}, ipywidgets {ipywidgets.__version__}, "
        f"matplotlib {matplotlib.__version__}, numpy {np.__version__}\n"
    )

    inside, whole, tensorflow = import_time()
    print(
        f"{'import mpteach.formats (fresh process)':<38} median {statistics.median(inside):.3f} s "
        f"(whole process {statistics.median(whole):.3f} s; target < 0.5 s); "
        f"TensorFlow imported: {'yes' if tensorflow else 'no'}"
    )

    from mpteach.widgets import FloatExplorer, GradientUnderflow, RangeChart

    magnitudes = np.geomspace(1e-9, 1e6, args.moves)
    explorer = FloatExplorer(0.1, lang="en")
    report(
        "FloatExplorer: slider move",
        latencies([lambda m=m: setattr(explorer.slider, "value", float(m)) for m in magnitudes]),
        0.050,
    )
    report(
        "FloatExplorer: typed number",
        latencies(
            [lambda m=m: setattr(explorer.value_text, "value", f"{-m:.6g}") for m in magnitudes]
        ),
        0.050,
    )
    report(
        "FloatExplorer: +1 ULP button", latencies([explorer.up_button.click] * args.moves), 0.050
    )

    chart = RangeChart(1e-5, lang="en")
    report(
        "RangeChart: slider move",
        latencies([lambda m=m: setattr(chart.slider, "value", float(m)) for m in magnitudes]),
        0.100,
    )

    if args.synthetic:
        rng = np.random.default_rng(0)
        n = 120_000
        values = np.where(rng.random(n) < 0.5, 0.0, 2.0 ** rng.normal(-30, 8, n))
        gradients, source = {"values": values}, f"{n} generated values"
    else:
        from mpteach.gradients import sample_gradients

        start = time.perf_counter()
        gradients = sample_gradients()
        first = time.perf_counter() - start
        sizes = ", ".join(f"{k} {v.size}" for k, v in gradients.items())
        source = f"Keras model gradients ({sizes}); TF import + training took {first:.1f} s"
    print(f"\nGradientUnderflow on {source}")
    underflow = GradientUnderflow(gradients, lang="en")
    exponents = [k % (underflow.slider.max + 1) for k in range(1, args.moves + 1)]
    report(
        "GradientUnderflow: slider move",
        latencies([lambda k=k: setattr(underflow.slider, "value", k) for k in exponents]),
        0.200,
    )


if __name__ == "__main__":
    main()
