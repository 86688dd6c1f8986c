"""Measured speedups: matrix products and training steps, float32 against float16/bfloat16.

Every run measures the float32 baseline and the 16-bit variants in one process, interleaved,
and returns a JSON-ready result with its provenance (hardware, versions, date, settings)::

    python -m mpteach.bench all --out result.json   # matmul + training, a few minutes on a CPU
    python -m mpteach.bench probe                   # the CPU float16 fused-kernel pitfall
    python -m mpteach.bench show                    # the results shipped with mpteach

Speed is measured, never assumed: the ratios depend on the hardware (:mod:`mpteach.hardware`).
TensorFlow is imported only by the functions that measure.
"""

from __future__ import annotations

from mpteach.bench.pitfall import (
    explain_probe,
    float16_conv_probe,
    float16_fusion_probe,
    remapping,
)
from mpteach.bench.results import (
    check_result,
    format_table,
    load_result,
    merge_results,
    recorded_results,
    save_result,
    vendor_claims,
)
from mpteach.bench.workloads import build_model, matmul_throughput, training_step

__all__ = [
    "build_model",
    "check_result",
    "explain_probe",
    "float16_conv_probe",
    "float16_fusion_probe",
    "format_table",
    "load_result",
    "matmul_throughput",
    "merge_results",
    "recorded_results",
    "remapping",
    "save_result",
    "training_step",
    "vendor_claims",
]
