"""How long a browser-drawn widget of the website takes from a control change to the next frame.

On the built site (``bash scripts/site.sh --screenshots``), headless Chromium opens the pages
with browser-drawn widgets and moves each control to ``--moves`` positions: the log slider and the
number box of the RangeChart and the FloatExplorer (chapter 01); the initial scale and growth steps
(one 20 000-step simulation each), gradient spread and spike rate (new gradients: seven simulations,
the comparison table's too) of LossScaleDynamics (chapter 06); the recorded result, workload and
published group of SpeedupExplorer (chapter 08); the loss scale and format of GradientUnderflow
(chapter 06). Each sample is measured in the page:
``performance.now()`` before the change event; *work* ends when the widget's handler has run and
the page's layout is done (forced), *frame* in the next ``requestAnimationFrame`` callback, so it
adds the wait for the frame (at most 16.7 ms at 60 Hz). The target is work under one frame
(16 ms). The script prints medians and 95th percentiles per widget and control, the machine and its
load average. Nothing is asserted: times depend on the machine.

    .venv/bin/python benchmarks/bench_widgets_browser.py [--lang en] [--moves 60]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import browser  # noqa: E402
import build_site  # noqa: E402


def p95(times: list[float]) -> float:
    return statistics.quantiles(times, n=20)[-1]


MEASURE = """async ([selector, control, values]) => {
  const widget = document.querySelector(selector);
  const input = widget.querySelector(control);
  const work = [], frame = [];
  for (const value of values) {
    await new Promise((done) => requestAnimationFrame(() => done())); // start on a fresh frame
    const start = performance.now();
    input.value = value;
    input.dispatchEvent(new Event(input.type === "range" ? "input" : "change"));
    void widget.offsetHeight; // the redraw's layout, forced now
    work.push(performance.now() - start);
    await new Promise((done) => requestAnimationFrame(() => done()));
    frame.push(performance.now() - start);
  }
  return [work, frame];
}"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lang", default="en", help="the site language to measure (default en)")
    parser.add_argument("--moves", type=int, default=60, help="samples per control (default 60)")
    args = parser.parse_args(argv)
    for chapter in ("01_float_formats", "06_loss_scaling", "08_performance"):
        if not (build_site.SITE / args.lang / f"{chapter}.html").exists():
            parser.error(f"--lang: {args.lang}/{chapter}.html not built (bash scripts/site.sh)")
    from playwright.sync_api import sync_playwright

    cpu = next(
        (line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
         if line.startswith("model name")),
        platform.processor(),
    )  # fmt: skip
    slider_values = [f"{-40 + 75 * i / args.moves:.2f}" for i in range(args.moves)]
    typed_values = [f"{(-1) ** i * 10 ** (-30 + i % 60)}" for i in range(args.moves)]

    def positions(count: int) -> list[str]:  # back and forth over a range slider's positions
        return [str(abs((i % (2 * count - 2)) - (count - 1))) for i in range(args.moves)]

    number = [("slider", "input.mpteach-magnitude", slider_values)]
    number.append(("typed", "input.mpteach-number", typed_values))
    pages = {
        "01_float_formats": (
            ".mpteach-floatexplorer .mpteach-badge",
            [("rangechart", number), ("floatexplorer", number)],
        ),
        "08_performance": (
            ".mpteach-speedup .mpteach-chart svg",
            [("speedup", [
                ("result", "select.mpteach-result", [str(i % 3) for i in range(args.moves)]),
                ("workload", "select.mpteach-workload",
                 [("matmul", "dense", "cnn")[i % 3] for i in range(args.moves)]),
                ("published", "select.mpteach-published-group",
                 [str(i % 39) for i in range(args.moves)]),
            ])],
        ),
        "06_loss_scaling": (
            ".mpteach-dynamics .mpteach-summary",
            [("underflow", [
                ("scale", "input.mpteach-scale", positions(25)),
                ("format", "select.mpteach-format",
                 [("float16", "bfloat16", "float8_e5m2", "float8_e4m3fn")[i % 4]
                  for i in range(args.moves)]),
             ]),
             ("dynamics", [
                (name, f"input[data-control='{name}']", positions(count))
                for name, count in (("scale", 31), ("growth", 12), ("spread", 46), ("spikes", 5))
            ])],
        ),
    }  # fmt: skip
    with browser.serve(build_site.SITE) as base, sync_playwright() as p:
        chromium = browser.launch(p)
        page = chromium.new_page(base_url=base)
        load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
        print(f"{cpu}, Chromium {chromium.version} headless, load average {load}")
        print(f"{args.moves} samples each; work = handler + layout, frame = until the next frame")
        print(
            f"{'widget':14} {'control':8} {'work median':>12} {'p95':>6} {'frame median':>13} {'p95':>6}"
        )
        for chapter, (ready, widgets) in pages.items():
            page.goto(f"/{args.lang}/{chapter}.html", wait_until="load")
            page.locator(ready).first.wait_for()
            for widget, controls in widgets:
                for name, control, values in controls:
                    work, frame = page.evaluate(MEASURE, [f".mpteach-{widget}", control, values])
                    cells = [f(times) for times in (work, frame) for f in (statistics.median, p95)]
                    print(
                        f"{widget:14} {name:8} {cells[0]:12.1f} {cells[1]:6.1f} {cells[2]:13.1f} {cells[3]:6.1f}"
                    )
        chromium.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
