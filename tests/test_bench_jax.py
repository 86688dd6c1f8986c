"""The benchmarks under Keras's JAX backend (CPU here; tiny sizes, few rounds: seconds each).

They run in a new process with KERAS_BACKEND=jax and must write the same result document as the
TensorFlow path, and run where TensorFlow cannot be imported at all.
"""

from __future__ import annotations

import json
from importlib import metadata

import pytest

pytest.importorskip("jax")

from mpteach import bench  # noqa: E402
from mpteach.bench import results  # noqa: E402
from mpteach.bench.__main__ import main  # noqa: E402

TINY_TRAIN = ["--workloads", "dense", "--batch-size", "4", "--repeats", "2", "--warmup", "1",
              "--quiet", "--xla", "on"]  # fmt: skip


def test_matmul_under_jax_runs_without_tensorflow(hide_module):
    hide_module("tensorflow")
    reports = []
    doc = bench.matmul_throughput(
        sizes=[16], dtypes=["float32", "bfloat16"], repeats=2, warmup=1,
        progress=lambda *a: reports.append(a), backend="jax",
    )  # fmt: skip
    assert results.check_result(doc) is doc
    assert [(r["variant"], r["xla"], r["tf32"], r["remapping"]) for r in doc["rows"]] == [
        ("float32", True, None, None), ("bfloat16", True, None, None)
    ]  # fmt: skip
    assert all(r["tflops"] > 0 and len(r["times_s"]) == 2 for r in doc["rows"])
    software = doc["software"]
    assert software["keras_backend"] == "jax"
    assert software["jax"] == metadata.version("jax") and software["jaxlib"] == metadata.version(
        "jaxlib"
    )
    assert doc["settings"]["backend"] == "jax" and len(doc["settings"]["not_applicable"]) == 3
    assert doc["hardware"]["device"] in results.DEVICES and doc["hardware"]["label"]
    assert [done for done, _, _ in reports] == list(range(1, 7)) and reports[-1][1] == 6


def test_train_cli_under_jax_writes_a_checked_result(tmp_path, capsys):
    path = tmp_path / "jax.json"
    argv = ["train", "--backend", "jax", "--policies", "float32", "mixed_bfloat16", *TINY_TRAIN]
    assert main([*argv, "--out", str(path)]) == 0
    doc = results.load_result(path)
    assert [(r["variant"], r["xla"], r["baseline"]) for r in doc["rows"]] == [
        ("float32", True, True), ("mixed_bfloat16", True, False)
    ]  # fmt: skip
    assert doc["settings"]["command"].startswith("python -m mpteach.bench train --backend jax")
    assert "JAX" in capsys.readouterr().out


@pytest.mark.keras
def test_jax_result_has_the_same_shape_as_the_tensorflow_result(tmp_path):
    docs = {}
    for backend in ("tensorflow", "jax"):
        path = tmp_path / f"{backend}.json"
        assert main(["train", "--backend", backend, *TINY_TRAIN, "--out", str(path)]) == 0
        docs[backend] = json.loads(path.read_text())
        results.check_result(docs[backend])
    tf, jax = docs["tensorflow"], docs["jax"]
    assert set(tf) == set(jax)
    for part in ("hardware", "software", "settings"):
        assert set(tf[part]) == set(jax[part]), part
    assert [set(r) for r in tf["rows"]] == [set(r) for r in jax["rows"]]
    key = [(r["workload"], r["size"], r["variant"], r["xla"]) for r in tf["rows"]]
    assert key == [(r["workload"], r["size"], r["variant"], r["xla"]) for r in jax["rows"]]
    assert {r["variant"] for r in jax["rows"]} == set(bench.workloads.POLICIES)
    assert tf["software"]["keras_backend"] == "tensorflow" and tf["software"]["jax"] is None
    assert tf["settings"]["not_applicable"] == [] and jax["settings"]["not_applicable"]
    assert all(r["remapping"] is None and r["tf32"] is None for r in jax["rows"])
    assert jax["hardware"] == tf["hardware"]  # the same machine, seen without TensorFlow too
