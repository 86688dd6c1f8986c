"""Speedups of float16/bfloat16 against float32 on this machine, measured in one run.

A thin front to :mod:`mpteach.bench`: matrix products over sizes (with and without the
multiple-of-8 shape), then training steps of a Dense model and a small CNN under float32,
mixed_float16 and mixed_bfloat16, XLA off and on (and TF32 off on Ampere+ GPUs). Every variant is
measured in this process, interleaved with its float32 baseline; the script prints the ratios.
Nothing is asserted: speed depends on the machine, which the output names.

    .venv/bin/python benchmarks/bench_speedups.py [--quick] [--out result.json]

``--out`` writes the result with its provenance; a result measured on new hardware goes in
``mpteach/data/results/`` (the SpeedupExplorer and ``python -m mpteach.bench show`` list it).
"""

from __future__ import annotations

import argparse
import sys


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, 5 rounds (~1 min)")
    parser.add_argument("--out", help="save the result as JSON")
    args = parser.parse_args()

    from mpteach.bench import __main__ as cli
    from mpteach.hardware import detect, verdict

    print(verdict(detect()), file=sys.stderr)
    argv = ["all"]
    if args.quick:
        argv += "--sizes 256 512 511 --repeats 5 --warmup 1 --batch-size 32".split()
    if args.out:
        argv += ["--out", args.out]
    cli.main(argv)


if __name__ == "__main__":
    main()
