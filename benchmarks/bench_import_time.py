"""What importing costs a learner: NumPy, ml_dtypes, ``mpteach``, a chapter's setup cell, and
``mpteach.formats`` before and after its first bfloat16 value, each in a new interpreter.

ml_dtypes 0.7 takes several times longer to import than 0.6 (its extension module's start-up), so
``mpteach.formats`` imports it only when a format that NumPy lacks is first used. Run it once per
ml_dtypes release to compare them; nothing is asserted, and the output names the machine.

    .venv/bin/python benchmarks/bench_import_time.py [--rounds 5]
    PYTHONPATH=.venv-ml_dtypes/0.6.0 .venv/bin/python benchmarks/bench_import_time.py
"""

from __future__ import annotations

import argparse
import platform
import statistics
import subprocess
import sys

CASES = {
    "import numpy": "import numpy",
    "import ml_dtypes": "import ml_dtypes",
    "import mpteach": "import mpteach",
    "setup cell": "import mpteach as mp; mp.course.setup(chapter='01', lang='en')",
    "import mpteach.formats": "import mpteach.formats",
    "+ first bfloat16 cast": "import mpteach.formats as f; f.cast(0.1, 'bfloat16')",
}


def seconds(statement: str) -> float:
    """Wall time of ``statement`` in a new interpreter, timed inside it (start-up excluded)."""
    code = (
        "import time, io, contextlib\n"
        "start = time.perf_counter()\n"
        f"with contextlib.redirect_stdout(io.StringIO()):\n    {statement}\n"
        "print(time.perf_counter() - start)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(done.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    import ml_dtypes
    import numpy

    cpu = next(
        (line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if "model name" in line),
        platform.processor() or platform.machine(),
    )
    print(f"{cpu} · Python {platform.python_version()} · NumPy {numpy.__version__}", end="")
    print(f" · ml_dtypes {ml_dtypes.__version__} · median of {args.rounds} new interpreters")
    for name, statement in CASES.items():
        times = [seconds(statement) for _ in range(args.rounds)]
        print(f"  {name:24} {statistics.median(times):6.3f} s")


if __name__ == "__main__":
    main()
