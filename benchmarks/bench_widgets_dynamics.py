"""Update latency of LossScaleDynamics and SpeedupExplorer, and the simulator's speed.

Each control is moved back and forth a few times; the script prints the median time from the
change to the new picture (simulation, comparison table, drawing, PNG). The target is well under
100 ms per move. Nothing is asserted: speed depends on the machine, which the output names.

    .venv/bin/python benchmarks/bench_widgets_dynamics.py [--moves 5]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable


def median_ms(action: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=5, help="moves per control (default 5)")
    args = parser.parse_args()

    from mpteach.hardware import detect
    from mpteach.simulate import simulate
    from mpteach.widgets import LossScaleDynamics, SpeedupExplorer

    print(detect().label)
    for steps in (20_000, 100_000):
        print(f"simulate({steps} steps): {median_ms(lambda s=steps: simulate(steps=s), 5):.1f} ms")

    widget = LossScaleDynamics()
    moves = {
        "initial scale": (widget.scale_slider, [10, 20]),
        "growth steps": (widget.growth_slider, [20, 2000]),
        "fixed scale": (widget.fixed_box, [True, False]),
        "gradient spread": (widget.spread_slider, [20, 30]),
        "spike rate": (widget.spike_slider, [1e-3, 1e-4]),
    }
    print("LossScaleDynamics (20 000 steps), median per move:")
    for name, (control, values) in moves.items():
        state = iter(values * args.moves)

        def move(control=control, state=state) -> None:
            control.value = next(state)

        print(f"  {name:16} {median_ms(move, 2 * args.moves):6.1f} ms")

    explorer = SpeedupExplorer()
    workloads = iter(["dense", "cnn", "matmul"] * args.moves)

    def switch() -> None:
        explorer.workload_menu.value = next(workloads)

    print(f"SpeedupExplorer, workload switch: {median_ms(switch, 3 * args.moves):.1f} ms")


if __name__ == "__main__":
    main()
