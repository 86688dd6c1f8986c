"""What the course now says where a review found it wrong, each checked against the thing it is
about: Keras, NumPy, scikit-learn's data, or the recorded measurements the text quotes. If an
upstream release changes one of these facts, the test that fails names the sentence to revisit."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mpteach import hardware, i18n

RESULTS = Path(__file__).resolve().parents[1] / "mpteach" / "data" / "results"


def recorded(name: str) -> dict:
    return json.loads((RESULTS / f"{name}.json").read_text(encoding="utf-8"))


INTEL, AMD_BF16, AMD_AVX2 = (
    recorded(n)
    for n in (
        "cpu-intel-xeon-amx-2vcpu",
        "cpu-amd-epyc-avx512bf16-2vcpu",
        "cpu-amd-epyc-avx2-2vcpu",
    )
)


def speedups(result: dict, workload: str, variant: str, xla: bool | None = None) -> list[float]:
    return [
        r["speedup"]
        for r in result["rows"]
        if r["workload"] == workload
        and r["variant"] == variant
        and (xla is None or r["xla"] == xla)
    ]


def test_float16_underflows_at_half_the_smallest_subnormal_and_rounds_up_above_it():
    """06 title and window-md, doctor.vanishing-gradient.why: 0 at or below 2**-25, 6e-8 above."""
    assert np.float16(2.0**-25) == 0 and np.float16(np.nextafter(2.0**-25, 1)) == 2.0**-24
    assert np.float16(4e-8) == np.float16(2.0**-24)  # between 3e-8 and 6e-8: up to 6e-8


def test_gradients_below_2_fit_in_float16_once_scaled_by_2_to_the_15():
    """dynamics.why_defaults: 2 x 2**15 = 65536 is inf; 1.999 x 2**15 still fits."""
    with np.errstate(over="ignore"):
        assert np.isinf(np.float16(2.0 * 2**15)) and np.isinf(np.float16(1.9996 * 2**15))
    assert np.isfinite(np.float16(1.999 * 2**15))
    assert "up to 1.999" in i18n.t("dynamics.why_defaults", "en")


def test_adam_epsilon_dominates_a_tiny_gradient():
    """06 train-md: ten Adam steps at 0.01 move w by 0.0998 for g = 1e-3, 7.1e-5 for g = 1e-9."""
    keras = pytest.importorskip("keras")
    moved = {}
    for gradient in (1e-3, 1e-9):
        w = keras.Variable(0.0)
        optimizer = keras.optimizers.Adam(0.01)
        for _ in range(10):
            optimizer.apply([keras.ops.convert_to_tensor(gradient)], [w])
        moved[gradient] = abs(float(keras.ops.convert_to_numpy(w)))
    assert round(moved[1e-3], 4) == 0.0998 and f"{moved[1e-9]:.2g}" == "7.1e-05"


def test_load_digits_is_the_uci_test_set_of_13_writers():
    """05 real-intro."""
    datasets = pytest.importorskip("sklearn.datasets")
    digits = datasets.load_digits()
    assert digits.data.shape == (1797, 64)
    assert "30 contributed to the training set and different 13" in " ".join(digits.DESCR.split())


def test_a_layer_without_autocast_reads_float32_variables_inside_a_mixed_model_only():
    """03 autocast-layer-md: alone, its variables are read in the compute dtype; inside a model
    whose own policy is mixed, Keras clears the autocast scope and they are read in float32."""
    keras = pytest.importorskip("keras")
    tf = pytest.importorskip("tensorflow")

    class Probe(keras.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight(shape=(), initializer="ones")

        def call(self, inputs):
            self.read = keras.backend.standardize_dtype(tf.convert_to_tensor(self.w).dtype)
            return inputs

    alone = Probe(dtype="mixed_float16", autocast=False)
    alone(np.ones((1, 1), "float32"))
    keras.config.set_dtype_policy("mixed_float16")
    inside = Probe(autocast=False)
    keras.Sequential([keras.Input((1,)), keras.layers.Dense(1), inside])(np.ones((1, 1), "float32"))
    keras.config.set_dtype_policy("float32")
    assert (alone.read, inside.read) == ("float16", "float32")


def test_no_cpu_gains_from_float16_in_the_recorded_results():
    """README, 08 recorded-read, hardware.is_fast: the Intel Xeon has AVX512-FP16, yet its float16
    matrix products ran at 0.91-1.04x float32; the AVX2-only AMD gains with neither format."""
    assert "avx512_fp16" in {f.lower().replace("-", "_") for f in INTEL["hardware"]["cpu_features"]}
    intel = speedups(INTEL, "matmul", "float16")
    assert (round(min(intel), 2), round(max(intel), 2)) == (0.91, 1.04)
    avx2 = speedups(AMD_AVX2, "matmul", "float16") + speedups(AMD_AVX2, "matmul", "bfloat16")
    assert 0.895 <= min(avx2) and max(avx2) < 1.115  # "0.9x to 1.1x" (08 matmul-read)
    assert not hardware.is_fast("float16", hardware.profile("intel-amx"))


def test_the_fused_float16_kernel_was_slow_on_the_intel_xeon_only():
    """doctor.cpu-float16.why and speed.advice_float16_cpu: 74x on the Intel Xeon, 1.0-1.2x on
    both AMD EPYC CPUs."""
    probes = [
        r["settings"]["float16_fusion_probe"]["slowdown"] for r in (INTEL, AMD_BF16, AMD_AVX2)
    ]
    assert round(probes[0]) == 74 and all(1.0 <= p <= 1.2 for p in probes[1:])
    assert "74 times" in i18n.t("doctor.cpu-float16.why", "en")


def test_float16_cnn_steps_on_the_amd_cpus_without_xla():
    """speed.conv_slower: whole float16 CNN steps at 0.15 to 0.28 times float32 on the AMD CPUs."""
    cnn = speedups(AMD_BF16, "cnn", "mixed_float16", xla=False)
    cnn += speedups(AMD_AVX2, "cnn", "mixed_float16", xla=False)
    assert sorted(round(s, 2) for s in cnn) == [0.15, 0.28]
