"""``python -m mpteach.bench``: measure speedups on this machine, or show recorded ones.

Examples::

    python -m mpteach.bench all --out result.json          # what mpteach/data/results/ holds
    python -m mpteach.bench matmul --sizes 1024 1023 --repeats 5
    python -m mpteach.bench train --workloads dense --xla off
    python -m mpteach.bench train --backend jax            # Keras on JAX, in a new process
    python -m mpteach.bench probe --lang es                # the CPU float16 pitfalls, explained
    python -m mpteach.bench show [FILE ...]                # default: the shipped results
    python -m mpteach.bench check FILE ...                 # schema check
    python -m mpteach.bench published [--gpu A100]         # measurements published by others
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from mpteach.bench.keras_backend import BACKENDS
from mpteach.bench.published import format_published, published_measurements, select_published
from mpteach.bench.results import (
    format_table,
    load_result,
    merge_results,
    recorded_results,
    save_result,
)
from mpteach.bench.workloads import BATCH_SIZES, DTYPES, MATMUL_SIZES, POLICIES


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m mpteach.bench",
        description="Measure float32 against float16/bfloat16 here (interleaved, one process).",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    measure = argparse.ArgumentParser(add_help=False)
    measure.add_argument("--repeats", type=int, default=10, help="timed rounds (default 10)")
    measure.add_argument("--warmup", type=int, default=2, help="untimed calls first (default 2)")
    measure.add_argument("--out", help="save the result as JSON")
    measure.add_argument("--quiet", action="store_true", help="no progress on stderr")
    measure.add_argument(
        "--backend", choices=BACKENDS, default="tensorflow",
        help="Keras backend (default tensorflow; jax runs in a new process with KERAS_BACKEND=jax)",
    )  # fmt: skip
    matmul = argparse.ArgumentParser(add_help=False)
    matmul.add_argument("--sizes", type=int, nargs="+", default=list(MATMUL_SIZES))
    matmul.add_argument("--dtypes", nargs="+", choices=DTYPES, default=list(DTYPES))
    train = argparse.ArgumentParser(add_help=False)
    train.add_argument(
        "--workloads", nargs="+", choices=tuple(BATCH_SIZES), default=["dense", "cnn"]
    )
    train.add_argument("--policies", nargs="+", choices=POLICIES, default=list(POLICIES))
    train.add_argument("--batch-size", type=int, help="default: 256 (dense), 64 (cnn)")
    train.add_argument(
        "--xla", choices=("off", "on", "both"),
        help="jit_compile of the train step (default: both on TensorFlow, on under JAX)",
    )  # fmt: skip
    train.add_argument(
        "--no-workaround", action="store_true", help="measure the CPU float16 pitfalls themselves"
    )
    commands.add_parser("matmul", parents=[measure, matmul], help="matrix-product throughput")
    commands.add_parser("train", parents=[measure, train], help="training steps of Keras models")
    commands.add_parser("all", parents=[measure, matmul, train], help="matmul and train")
    probe = commands.add_parser("probe", help="the CPU float16 pitfalls, measured and explained")
    probe.add_argument("--lang", help="en, zh, es, ko or ru")
    show = commands.add_parser("show", help="print results (default: the shipped ones)")
    show.add_argument("files", nargs="*")
    check = commands.add_parser("check", help="check result files against the schema")
    check.add_argument("files", nargs="+")
    published = commands.add_parser(
        "published", help="training speedups measured and published by others, with sources"
    )
    published.add_argument("--gpu", help="only hardware whose name contains this (e.g. A100)")
    published.add_argument("--model", help="only models whose name contains this (e.g. BERT)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command in ("show", "check"):
        docs = [load_result(f) for f in args.files] if args.files else recorded_results()
        for path, doc in zip(args.files or [None] * len(docs), docs, strict=True):
            print(
                f"{path}: OK ({len(doc['rows'])} rows)"
                if args.command == "check"
                else format_table(doc)
            )
        return 0
    if args.command == "published":
        rows = select_published(published_measurements(), gpu=args.gpu, model=args.model)
        print(format_published(rows))
        return 0
    from mpteach.bench import pitfall, workloads  # imports TensorFlow when they run

    if args.command == "probe":
        for probe in (pitfall.float16_fusion_probe(), pitfall.float16_conv_probe()):
            print(pitfall.explain_probe(probe, args.lang), end="\n\n")
        return 0
    if args.out:  # before measuring, so that a run is never lost to a missing folder
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    progress = not args.quiet
    docs = []
    if args.command in ("matmul", "all"):
        docs.append(
            workloads.matmul_throughput(
                args.sizes, args.dtypes, args.repeats, args.warmup, progress, args.backend
            )
        )
    if args.command in ("train", "all"):
        default = "both" if args.backend == "tensorflow" else "on"
        xla = {"off": (False,), "on": (True,), "both": (False, True)}[args.xla or default]
        docs.append(
            workloads.training_step(
                args.workloads, args.policies, xla, args.batch_size, args.repeats, args.warmup,
                not args.no_workaround, progress, args.backend,
            )
        )  # fmt: skip
    doc = merge_results(docs)
    doc["settings"]["command"] = "python -m mpteach.bench " + " ".join(
        sys.argv[1:] if argv is None else argv
    )
    print(format_table(doc))
    if args.out:
        print(f"saved {save_result(doc, args.out)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
