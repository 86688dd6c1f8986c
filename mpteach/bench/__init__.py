"""Measured speedups: matrix products and training steps, float32 against float16/bfloat16.

Every run measures the float32 baseline and the 16-bit variants in one process, interleaved,
and returns a JSON-ready result with its provenance (hardware, versions, date, settings)::

    python -m mpteach.bench all --out result.json   # matmul + training, a few minutes on a CPU
    python -m mpteach.bench probe                   # the CPU float16 fused-kernel pitfall
    python -m mpteach.bench show                    # the results shipped with mpteach
    python -m mpteach.bench train --backend jax     # Keras on JAX (no TensorFlow needed)
    python -m mpteach.bench published               # GPU speedups measured by others, sourced

Speed is measured, never assumed: the ratios depend on the hardware (:mod:`mpteach.hardware`).
TensorFlow is imported only by the functions that measure. Three kinds of evidence are kept
apart: what :mod:`mpteach.bench` measures (here, now, or recorded in ``mpteach/data/results/``),
measurements published by others (:func:`published_measurements`, each with its source), and
vendor claims (:func:`vendor_claims`).

>>> rows = published_measurements()
>>> all(row["source"]["commit"] in row["source"]["url"] for row in rows)
True
"""

from __future__ import annotations

from mpteach.bench.keras_backend import BACKENDS, run_in_backend
from mpteach.bench.pitfall import (
    explain_probe,
    float16_conv_probe,
    float16_fusion_probe,
    remapping,
)
from mpteach.bench.published import (
    check_published,
    format_published,
    published_document,
    published_groups,
    published_measurements,
    published_speedup,
    select_published,
)
from mpteach.bench.results import (
    check_result,
    format_claims,
    format_table,
    load_result,
    merge_results,
    recorded_results,
    save_result,
    vendor_claims,
)
from mpteach.bench.workloads import build_model, matmul_throughput, training_step

__all__ = [
    "BACKENDS",
    "build_model",
    "check_published",
    "check_result",
    "explain_probe",
    "float16_conv_probe",
    "float16_fusion_probe",
    "format_claims",
    "format_published",
    "format_table",
    "load_result",
    "matmul_throughput",
    "merge_results",
    "published_document",
    "published_groups",
    "published_measurements",
    "published_speedup",
    "recorded_results",
    "remapping",
    "run_in_backend",
    "save_result",
    "select_published",
    "training_step",
    "vendor_claims",
]
