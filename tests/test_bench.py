"""Benchmarks: the result schema, the shipped results and claims, fair timing, the CPU probes.

Speed is never asserted here: only that things are measured, recorded and labelled correctly.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

import pytest

from mpteach import bench, i18n
from mpteach.bench import results, timing
from mpteach.bench.__main__ import main


def _rows(times: dict[str, float], workload: str = "matmul", size: int = 64) -> list[dict]:
    return [
        {"workload": workload, "size": size, "variant": v, "xla": False, "tf32": None,
         "remapping": True, "baseline": v == "float32", "times_s": [t, t * 2, t / 2]}
        for v, t in times.items()
    ]  # fmt: skip


@pytest.fixture
def doc():
    rows = _rows({"float32": 0.004, "float16": 0.002, "bfloat16": 0.001})
    rows += _rows({"float32": 0.03, "mixed_bfloat16": 0.02}, workload="dense", size=256)
    hardware = {"device": "cpu", "label": "Test CPU (2 cores)"}
    return results.new_result(rows, {"repeats": 3}, hardware)


def test_new_result_has_provenance_and_ratios(doc):
    assert doc["schema"] == results.SCHEMA and doc["created"].endswith("+00:00")
    assert doc["software"]["python"] and doc["hardware"]["label"] == "Test CPU (2 cores)"
    speedups = {(r["workload"], r["variant"]): r["speedup"] for r in doc["rows"]}
    assert speedups == {("matmul", "float32"): 1.0, ("matmul", "float16"): 2.0,
                        ("matmul", "bfloat16"): 4.0, ("dense", "float32"): 1.0,
                        ("dense", "mixed_bfloat16"): 1.5}  # fmt: skip
    assert json.loads(json.dumps(doc)) == doc


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda d: d.update(schema="other/9"), "'schema' is 'other/9'"),
        (lambda d: d.pop("hardware"), "'hardware' is missing"),
        (lambda d: d["hardware"].update(device="fpga"), "hardware.device"),
        (lambda d: d.update(created="yesterday"), "not an ISO 8601 date"),
        (lambda d: d.update(rows=[]), "'rows' is empty"),
        (lambda d: d["rows"][1].update(workload="lstm"), r"rows\[1\].workload"),
        (lambda d: d["rows"][1].update(size=True), r"rows\[1\].size"),
        (lambda d: d["rows"][1].update(times_s=[0.1, -1.0]), r"rows\[1\].times_s"),
        (lambda d: d["rows"][1].update(median_s=9.0), r"rows\[1\].median_s"),
        (lambda d: d["rows"][1].update(speedup=99.0), r"rows\[1\].speedup"),
        (lambda d: d["rows"][1].update(baseline=True), "two baseline rows"),
        (lambda d: d["rows"][0].update(baseline=False), "no baseline row"),
        (lambda d: d["rows"][2].pop("tf32"), r"rows\[2\].tf32"),
    ],
)
def test_schema_check_says_what_is_wrong(doc, damage, message):
    broken = copy.deepcopy(doc)
    damage(broken)
    with pytest.raises(ValueError, match=message):
        results.check_result(broken)


def test_speedup_is_the_median_of_per_round_ratios(doc):
    # the machine slowed down for everyone by 1.5x in round 2: the ratio within each round is unharmed
    rows = _rows({"float32": 0.004, "bfloat16": 0.001})
    rows[0]["times_s"], rows[1]["times_s"] = [0.004, 0.006, 0.004], [0.001, 0.0015, 0.002]
    fresh = results.new_result(rows, {"repeats": 3}, doc["hardware"])
    assert fresh["rows"][1]["speedup"] == 4.0 and fresh["rows"][1]["dropped_rounds"] == []
    fresh["rows"][1]["times_s"] = [0.001, 0.010]
    fresh["rows"][1]["median_s"] = 0.0055
    with pytest.raises(ValueError, match="one time per round"):
        results.check_result(fresh)


def test_outlier_rounds_are_dropped_by_the_stated_rule(doc):
    # round 1: bfloat16 alone was hit by another process (10x its median): the whole round goes
    rows = _rows({"float32": 0.004, "bfloat16": 0.001})
    rows[0]["times_s"] = [0.004] * 5
    rows[1]["times_s"] = [0.001, 0.010, 0.002, 0.001, 0.001]
    fresh = results.new_result(rows, {"repeats": 5}, doc["hardware"])
    assert [r["dropped_rounds"] for r in fresh["rows"]] == [[1], [1]]
    assert fresh["rows"][1]["speedup"] == 4.0 and fresh["rows"][1]["median_s"] == 0.001
    assert fresh["rows"][1]["times_s"][1] == 0.010  # every time is kept in the file
    assert "2x" in fresh["settings"]["outlier_rule"]
    assert "1 of 5 rounds dropped" in results.format_table(fresh)
    tampered = copy.deepcopy(fresh)
    for row in tampered["rows"]:
        row["dropped_rounds"] = [0, 1]
    with pytest.raises(ValueError, match="outlier rule"):
        results.check_result(tampered)
    # a machine busy in most rounds: nothing is dropped, the ratios within rounds carry it
    assert results.outlier_rounds([[1.0, 5.0, 5.0, 5.0], [1.0, 1.0, 1.0, 1.0]]) == []


def test_save_and_load_round_trip(doc, tmp_path):
    path = results.save_result(doc, tmp_path / "r.json")
    assert results.load_result(path) == doc
    with pytest.raises(ValueError, match="benchmark result"):
        results.save_result({**doc, "rows": []}, tmp_path / "bad.json")


def test_merge_keeps_rows_and_refuses_other_hardware(doc):
    other = copy.deepcopy(doc)
    other["rows"] = [r for r in other["rows"] if r["workload"] == "dense"]
    for row in other["rows"]:
        row["size"] = 512
    merged = results.merge_results([doc, other])
    assert len(merged["rows"]) == len(doc["rows"]) + 2
    other["hardware"] = {"device": "gpu", "label": "Tesla T4"}
    with pytest.raises(ValueError, match="different hardware"):
        results.merge_results([doc, other])


def test_table_names_the_hardware_and_the_ratios(doc):
    table = results.format_table(doc)
    assert "Test CPU (2 cores)" in table and "4.00x" in table and "1.50x" in table
    row = {**doc["rows"][0], "tf32": False, "remapping": False}
    assert results.variant_label(row) == "float32 (TF32 off, remapping off)"


def test_shipped_results_are_real_measurements_labelled_with_their_hardware():
    shipped = results.recorded_results()
    assert shipped, "mpteach/data/results/ must hold at least one measured result"
    for doc in shipped:
        hw = doc["hardware"]
        assert hw["label"] and hw["device"] in results.DEVICES
        assert doc["software"]["tensorflow"] and doc["settings"]["repeats"] >= 3
        for row in doc["rows"]:
            assert len(row["times_s"]) == doc["settings"]["repeats"]
    assert {row["workload"] for doc in shipped for row in doc["rows"]} == set(results.WORKLOADS)


def test_vendor_claims_are_sourced_and_kept_apart_from_measurements():
    claims = results.vendor_claims()
    assert {c["device"] for c in claims} == {"gpu", "tpu", "cpu"}
    for claim in claims:
        assert claim["url"].startswith("https://") and claim["quote"] and claim["source"]
        assert claim["speedup"] > 1
    from importlib import resources

    claims_file = resources.files("mpteach") / "data" / "vendor_claims.json"
    with pytest.raises(ValueError, match="benchmark result"):  # claims are no measurement
        results.check_result(json.loads(claims_file.read_text()))


def test_interleaved_rounds_and_progress():
    order, reports = [], []
    variants = {name: (lambda name=name: order.append(name)) for name in ("f32", "bf16", "f16")}
    times = timing.interleaved(variants, repeats=3, warmup=2, progress=lambda *a: reports.append(a))
    assert order == ["f32"] * 2 + ["bf16"] * 2 + ["f16"] * 2 + ["f32", "bf16", "f16"] * 3
    assert {k: len(v) for k, v in times.items()} == {"f32": 3, "bf16": 3, "f16": 3}
    assert [done for done, _, _ in reports] == list(range(1, 16)) and reports[-1][1] == 15
    with pytest.raises(ValueError, match="repeats=0"):
        timing.interleaved(variants, repeats=0)


def test_text_progress_writes_one_line(capsys):
    timing.text_progress(1, 2, "matmul 1024 float32")
    timing.text_progress(2, 2, "matmul 1024 bfloat16")
    err = capsys.readouterr().err
    assert "[1/2] matmul 1024 float32" in err and err.endswith("\n") and err.count("\n") == 1


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("slow", [True, False])
def test_probe_explanations_in_every_language(lang, slow):
    fusion = {"kind": "fusion", "size": 128, "default_ms": 25.6, "remapping_off_ms": 0.32,
              "xla_ms": 0.21, "slowdown": 80.0, "slow": slow}  # fmt: skip
    conv = {"kind": "conv", "size": 16, "float32_ms": 1.3, "float16_ms": 47.2, "xla_ms": 0.9,
            "slowdown": 36.3, "slow": slow}  # fmt: skip
    fusion_text, conv_text = bench.explain_probe(fusion, lang), bench.explain_probe(conv, lang)
    assert "25.60" in fusion_text and "0.32" in fusion_text and "47.20" in conv_text
    assert ("remapping" in fusion_text) and ("XLA" in conv_text)
    with pytest.raises(ValueError, match="kind='lstm'"):
        bench.explain_probe({**conv, "kind": "lstm"}, lang)


def test_cli_show_and_check(tmp_path, doc, capsys):
    path = results.save_result(doc, tmp_path / "r.json")
    assert main(["check", str(path)]) == 0
    assert "OK (5 rows)" in capsys.readouterr().out
    assert main(["show"]) == 0
    out = capsys.readouterr().out
    assert all(d["hardware"]["label"] in out for d in results.recorded_results())


# ---- measuring, with TensorFlow (tiny sizes: seconds) ------------------------------------------


@pytest.mark.keras
def test_matmul_measures_every_dtype_against_float32(tmp_path, capsys):
    path = tmp_path / "m.json"
    argv = ["matmul", "--sizes", "16", "15", "--repeats", "2", "--warmup", "1", "--quiet"]
    assert main([*argv, "--out", str(path)]) == 0
    doc = results.load_result(path)
    assert [(r["size"], r["variant"]) for r in doc["rows"]] == [
        (n, d) for n in (16, 15) for d in ("float32", "float16", "bfloat16")
    ]
    assert all(r["tflops"] > 0 and len(r["times_s"]) == 2 for r in doc["rows"])
    assert doc["settings"]["command"].startswith("python -m mpteach.bench matmul")
    assert "float16" in capsys.readouterr().out


@pytest.mark.keras
def test_training_step_records_probes_and_work_arounds():
    import tensorflow as tf

    before = tf.config.optimizer.get_experimental_options().get("remapping", True)
    policies = ("float32", "mixed_float16")
    doc = bench.training_step(
        ("dense", "cnn"), policies, (False,), batch_size=4, repeats=1, warmup=0
    )
    settings = doc["settings"]
    fusion, conv = settings["float16_fusion_probe"], settings["float16_conv_probe"]
    assert fusion["kind"] == "fusion" and conv["kind"] == "conv"
    rows = {(r["workload"], r["variant"]): r for r in doc["rows"]}
    assert rows[("dense", "float32")]["baseline"] and rows[("cnn", "float32")]["baseline"]
    # the float16 Dense graph is unfused exactly when the probe found the fused kernel slow
    assert rows[("dense", "mixed_float16")]["remapping"] is (not fusion["slow"])
    assert (("cnn", "mixed_float16") in rows) is (not conv["slow"])
    assert bool(settings["skipped"]) is conv["slow"]
    assert tf.config.optimizer.get_experimental_options().get("remapping", True) == before


@pytest.mark.keras
def test_remapping_context_restores_the_setting():
    import tensorflow as tf

    before = tf.config.optimizer.get_experimental_options().get("remapping", True)
    with bench.remapping(False):
        assert tf.config.optimizer.get_experimental_options()["remapping"] is False
    assert tf.config.optimizer.get_experimental_options().get("remapping", True) == before


@pytest.mark.keras
def test_probes_report_their_measurements():
    fusion = bench.float16_fusion_probe(size=16, repeats=1)
    assert fusion["slowdown"] == pytest.approx(fusion["default_ms"] / fusion["remapping_off_ms"])
    assert fusion["slow"] is (fusion["slowdown"] > 3.0)
    conv = bench.float16_conv_probe(size=4, repeats=1)
    assert conv["slowdown"] == pytest.approx(conv["float16_ms"] / conv["float32_ms"])
    with pytest.raises(ValueError, match="size=2"):
        bench.float16_conv_probe(size=2)


def test_bad_choices_name_the_argument():
    with pytest.raises(ValueError, match=r"dtypes=\['float8'\].*'float32', 'float16', 'bfloat16'"):
        bench.matmul_throughput(dtypes=["float8"])
    with pytest.raises(ValueError, match=r"workloads=\['lstm'\]"):
        bench.training_step(workloads=["lstm"])


@pytest.mark.keras
def test_tf32_variant_is_measured_on_ampere_gpus(monkeypatch):
    """The TF32 code path, exercised on a CPU under a fake A100 (TensorFlow accepts the switch
    everywhere; only the labels are checked, never a speed)."""
    import tensorflow as tf

    from mpteach.bench import workloads
    from mpteach.hardware import GPUInfo, HardwareInfo

    a100 = HardwareInfo(gpus=(GPUInfo("NVIDIA A100-SXM4-40GB", (8, 0)),))
    monkeypatch.setattr(workloads, "detect", lambda tensorflow=None, use_profile=True: a100)
    doc = bench.matmul_throughput(sizes=(16,), dtypes=("float32", "bfloat16"), repeats=1, warmup=0)
    labels = [(results.variant_label(r), r["tf32"], r["baseline"]) for r in doc["rows"]]
    assert labels == [("float32", True, True), ("bfloat16", None, False),
                      ("float32 (TF32 off)", False, False)]  # fmt: skip
    assert "TF32 off is measured" in doc["settings"]["tf32"]
    assert tf.config.experimental.tensor_float_32_execution_enabled()  # switched back on


def test_recorded_results_and_widgets_need_no_tensorflow():
    """A Colab TPU runtime has no TensorFlow: the recorded results must still show."""
    import subprocess
    import sys

    code = (
        "import sys, mpteach.bench, mpteach.simulate\n"
        "from mpteach.widgets import LossScaleDynamics, SpeedupExplorer\n"
        "SpeedupExplorer(); LossScaleDynamics(steps=1000)\n"
        "print('tensorflow' in sys.modules, 'keras' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


# ---- backends and hardware detection without TensorFlow ------------------------------------------


def test_bad_backend_names_the_choices():
    from mpteach.bench import keras_backend

    with pytest.raises(ValueError, match=r"backend='torch': choose one of 'tensorflow', 'jax'"):
        bench.training_step(("dense",), backend="torch")
    with pytest.raises(ValueError, match=r"backend='tensorflow' runs in this process"):
        keras_backend.run_in_backend("tensorflow", "train", {})
    with pytest.raises(ValueError, match=r"kind='probe': choose one of 'matmul', 'train'"):
        keras_backend.run_in_backend("jax", "probe", {})
    with pytest.raises(SystemExit):
        main(["train", "--backend", "torch"])


def test_a_missing_backend_package_is_a_clear_import_error(hide_module):
    hide_module("jax")
    with pytest.raises(ImportError, match=r"(?s)jax backend failed.*No module named 'jax'") as e:
        bench.training_step(("dense",), ("float32",), (True,), 2, 1, 0, backend="jax")
    assert "SyntaxError" not in str(e.value)


def test_hardware_detection_needs_no_tensorflow(hide_module):
    import os
    import subprocess

    hide_module("tensorflow")
    code = (
        "import json, sys\n"
        "from mpteach.hardware import detect\n"
        "info = detect(tensorflow=True, use_profile=False)\n"
        "print(json.dumps([info.device, info.label, 'tensorflow' in sys.modules]))"
    )
    root = str(Path(__file__).resolve().parents[1])  # this mpteach
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([os.environ["PYTHONPATH"], root])}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    device, label, imported = json.loads(out.stdout)
    assert device in results.DEVICES and label and imported is False


def test_gpus_and_tpus_are_read_from_jax_devices(monkeypatch):
    """Under Keras's JAX backend, where nvidia-smi is missing, JAX's devices name the GPUs
    (a stand-in ``jax`` module with the attributes jaxlib's devices have)."""
    import types

    from mpteach import hardware

    def devices(kinds):
        return lambda: [types.SimpleNamespace(**kind) for kind in kinds]

    gpu = {"platform": "gpu", "device_kind": "NVIDIA A100-SXM4-40GB", "compute_capability": "8.0"}
    fake = types.ModuleType("jax")
    fake.devices = devices([gpu, gpu])
    monkeypatch.setitem(sys.modules, "jax", fake)
    monkeypatch.setattr(hardware, "_run_nvidia_smi", lambda: "")
    info = hardware.detect(tensorflow=False, use_profile=False, jax=True)
    assert info.device == "gpu" and info.label == "NVIDIA A100-SXM4-40GB (compute capability 8.0)"
    assert info.gpus[0].has_tf32 and len(info.gpus) == 2
    fake.devices = devices([{"platform": "tpu", "device_kind": "TPU v4"}])
    assert hardware.detect(tensorflow=False, use_profile=False, jax=True).device == "tpu"
    fake.devices = devices([{"platform": "cpu", "device_kind": "cpu"}])
    assert hardware.detect(tensorflow=False, use_profile=False, jax=True).gpus == ()
    # nvidia-smi, where present, names the GPUs first
    monkeypatch.setattr(hardware, "_run_nvidia_smi", lambda: "Tesla T4, 7.5\n")
    assert hardware.detect(tensorflow=False, use_profile=False, jax=True).gpus[0].name == "Tesla T4"


def test_software_names_the_backend(doc):
    assert doc["software"]["keras_backend"] == "tensorflow" and doc["software"]["jax"] is None
    assert results.software_label(doc).startswith("TensorFlow ")
    row = {**doc["rows"][0], "remapping": None, "tf32": None}
    assert results.variant_label(row) == row["variant"]  # not applicable: no note
    jax_doc = copy.deepcopy(doc)
    for r in jax_doc["rows"]:
        r["remapping"] = r["tf32"] = None
    assert results.check_result(jax_doc) is jax_doc
