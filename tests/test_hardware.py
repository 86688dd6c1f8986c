"""Hardware detection and the policy verdict, on fake /proc/cpuinfo texts and fake GPU lists."""

from __future__ import annotations

import subprocess
import sys

import pytest

from mpteach import hardware, i18n
from mpteach.hardware import GPUInfo, HardwareInfo

SAPPHIRE_RAPIDS_VM = """\
processor\t: 0
vendor_id\t: GenuineIntel
model name\t: Intel(R) Xeon(R) Processor
flags\t\t: fpu sse2 avx2 avx512f hypervisor avx512_bf16 amx_bf16 avx512_fp16 amx_tile amx_int8

processor\t: 1
vendor_id\t: GenuineIntel
model name\t: Intel(R) Xeon(R) Processor
flags\t\t: fpu sse2 avx2 avx512f hypervisor avx512_bf16 amx_bf16 avx512_fp16 amx_tile amx_int8
"""
SKYLAKE = "model name\t: Intel(R) Xeon(R) Gold 6148 CPU @ 2.40GHz\nflags\t\t: fpu avx2 avx512f\n"
ZEN4 = "model name\t: AMD EPYC 9654 96-Core Processor\nflags\t\t: fpu avx2 avx512f avx512_bf16\n"
ARM = "processor\t: 0\nFeatures\t: fp asimd bf16 i8mm\nCPU implementer\t: 0x41\n"


@pytest.fixture
def machine(monkeypatch, tmp_path):
    """A fake machine: write its /proc/cpuinfo and nvidia-smi output, then call hardware.detect()."""
    for name in hardware.TPU_ENV_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(hardware, "TPU_DEVICE_PATH", str(tmp_path / "no-accel"))

    def make(cpuinfo: str, nvidia_smi: str = "") -> HardwareInfo:
        path = tmp_path / "cpuinfo"
        path.write_text(cpuinfo)
        monkeypatch.setattr(hardware, "CPUINFO_PATH", str(path))
        monkeypatch.setattr(hardware, "_run_nvidia_smi", lambda: nvidia_smi)
        return hardware.detect(tensorflow=False)

    return make


def test_amx_cpu_in_a_vm_is_detected_with_its_16_bit_features(machine):
    info = machine(SAPPHIRE_RAPIDS_VM)
    assert info.cpu_model == "Intel(R) Xeon(R) Processor"
    assert (info.has_amx_bf16, info.has_avx512_bf16, info.has_avx512_fp16) == (True, True, True)
    assert info.has_amx_fp16 is False
    assert info.virtual and info.device == "cpu" and info.gpus == () and not info.tpu
    assert info.cpu_features == ("AMX-BF16", "AVX512-BF16", "AVX512-FP16")
    assert "vCPU" in info.label and "AMX-BF16" in info.label
    assert hardware.best_policy(info) == "mixed_bfloat16"
    assert hardware.is_fast("bfloat16", info)
    # AVX512-FP16 is there, but TensorFlow's float16 matmuls measured 0.91-1.04x float32 on it
    assert not hardware.is_fast("mixed_float16", info)


@pytest.mark.parametrize(
    ("cpuinfo", "bf16_fast", "policy"),
    [(SKYLAKE, False, "float32"), (ZEN4, True, "mixed_bfloat16"), (ARM, False, "float32")],
)
def test_cpus_without_and_with_bfloat16_units(machine, cpuinfo, bf16_fast, policy):
    info = machine(cpuinfo)
    assert hardware.is_fast("bfloat16", info) is bf16_fast
    assert hardware.is_fast("float16", info) is False
    assert hardware.best_policy(info) == policy
    assert info.cpu_model  # Arm's cpuinfo has no model name: a fallback, never empty


def test_arm_features_line_is_read_as_flags():
    _, flags = hardware.parse_cpuinfo(ARM)
    assert {"asimd", "bf16"} <= flags


@pytest.mark.parametrize(
    ("cc", "tensor_cores", "tf32"),
    [((6, 0), False, False), ((7, 0), True, False), ((7, 5), True, False), ((8, 0), True, True),
     ((9, 0), True, True), (None, False, False)],
)  # fmt: skip
def test_gpu_generations(cc, tensor_cores, tf32):
    gpu = GPUInfo("GPU", cc)
    assert (gpu.has_tensor_cores, gpu.has_tf32) == (tensor_cores, tf32)


def test_gpus_from_nvidia_smi_new_and_old_drivers(machine):
    info = machine(SKYLAKE, "Tesla T4, 7.5\nNVIDIA A100-SXM4-40GB, 8.0\n")
    assert info.gpus == (GPUInfo("Tesla T4", (7, 5)), GPUInfo("NVIDIA A100-SXM4-40GB", (8, 0)))
    assert info.device == "gpu" and info.label == "Tesla T4 (compute capability 7.5)"
    assert hardware.parse_nvidia_smi("Tesla K80\n") == (GPUInfo("Tesla K80", None),)
    assert hardware.parse_nvidia_smi("") == ()


@pytest.mark.parametrize(
    ("smi", "policy", "f16", "bf16"),
    [("Tesla P100-PCIE-16GB, 6.0", "float32", False, False),
     ("Tesla T4, 7.5", "mixed_float16", True, False),
     ("NVIDIA L4, 8.9", "mixed_bfloat16", True, True)],  # bfloat16 Tensor Cores: no loss scaling
)  # fmt: skip
def test_policy_follows_the_gpu_not_the_cpu(machine, smi, policy, f16, bf16):
    info = machine(SAPPHIRE_RAPIDS_VM, smi)  # an AMX host CPU must not make bfloat16 "fast"
    assert hardware.best_policy(info) == policy
    assert (hardware.is_fast("float16", info), hardware.is_fast("bfloat16", info)) == (f16, bf16)


def test_tpu_from_environment_wins(machine, monkeypatch):
    monkeypatch.setenv("TPU_ACCELERATOR_TYPE", "v2-8")
    info = machine(SKYLAKE)
    assert info.tpu and info.device == "tpu" and info.label == "TPU"
    assert hardware.best_policy(info) == "mixed_bfloat16"
    assert not hardware.is_fast("float16", info)


def test_tensorflow_is_asked_only_when_wanted(machine, monkeypatch):
    calls = []

    def fake_tensorflow():
        calls.append(1)
        return (GPUInfo("NVIDIA H100 80GB HBM3", (9, 0)),), False

    monkeypatch.setattr(hardware, "_ask_tensorflow", fake_tensorflow)
    assert machine(SKYLAKE).gpus == () and calls == []
    info = hardware.detect(tensorflow=True)
    assert calls == [1] and info.gpus[0].compute_capability == (9, 0)


def test_detect_does_not_import_tensorflow():
    code = "import sys, mpteach.hardware as h; h.detect(); print('tensorflow' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize(
    "info",
    [HardwareInfo("Xeon", frozenset({"amx_bf16"})), HardwareInfo("Old CPU"), HardwareInfo(tpu=True),
     HardwareInfo(gpus=(GPUInfo("Tesla P100", (6, 0)),)), HardwareInfo(gpus=(GPUInfo("Tesla T4", (7, 5)),)),
     HardwareInfo(gpus=(GPUInfo("NVIDIA A100", (8, 0)),)), HardwareInfo(gpus=(GPUInfo("Mystery GPU"),))],
)  # fmt: skip
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_verdict_is_one_line_naming_the_policy_in_every_language(info, lang):
    line = hardware.verdict(info, lang=lang)
    assert "\n" not in line
    policy = hardware.best_policy(info)
    if info.gpus and info.gpus[0].compute_capability is None:
        assert "mixed_float16" in line and "float32" in line  # says how to decide
    else:
        assert policy in line


def test_verdict_follows_the_current_language():
    info = HardwareInfo(tpu=True)
    i18n.set_language("ru")
    assert (
        hardware.verdict(info) == hardware.verdict(info, lang="ru") != hardware.verdict(info, "en")
    )


def test_policy_advice_warns_where_the_model_checker_needs_it():
    cpu_amx = HardwareInfo("Xeon", frozenset({"amx_bf16", "avx512_fp16"}))
    old_cpu = HardwareInfo("Old CPU")
    t4 = HardwareInfo(gpus=(GPUInfo("Tesla T4", (7, 5)),))
    assert "remapping" in hardware.policy_advice("mixed_float16", cpu_amx, lang="en")
    assert hardware.float16_fusion_risk(cpu_amx) and not hardware.float16_fusion_risk(t4)
    assert hardware.policy_advice("mixed_bfloat16", cpu_amx) is None
    assert "slower than float32" in hardware.policy_advice("mixed_bfloat16", old_cpu, lang="en")
    assert "8.0" in hardware.policy_advice("mixed_bfloat16", t4, lang="en")
    assert hardware.policy_advice("mixed_float16", t4) is None
    assert "7.0" in hardware.policy_advice(
        "mixed_float16", HardwareInfo(gpus=(GPUInfo("P100", (6, 0)),))
    )
    assert "mixed_bfloat16" in hardware.policy_advice("mixed_float16", HardwareInfo(tpu=True))
    assert hardware.policy_advice("float32", old_cpu) is None


def test_bad_dtype_names_the_argument_and_the_choices():
    with pytest.raises(ValueError, match=r"dtype='int8'.*'float16', 'bfloat16'"):
        hardware.is_fast("int8", HardwareInfo())


def test_to_dict_is_json_ready():
    import json

    info = HardwareInfo("Xeon", frozenset({"amx_bf16", "hypervisor"}), 2, (GPUInfo("T4", (7, 5)),))
    data = json.loads(json.dumps(info.to_dict()))
    assert data["gpus"] == [{"name": "T4", "compute_capability": [7, 5]}]
    assert data["cpu_features"] == ["AMX-BF16"] and data["virtual_machine"] is True


def test_nvidia_smi_runs_it_or_says_there_is_none(monkeypatch, tmp_path):
    monkeypatch.delenv(hardware.PROFILE_ENV, raising=False)
    fake = tmp_path / "nvidia-smi"
    fake.write_text('#!/bin/sh\necho "GPU 0: Tesla T4 (UUID: GPU-1) $*"\n')
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert hardware.nvidia_smi("-L") == "GPU 0: Tesla T4 (UUID: GPU-1) -L"
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    for lang in i18n.LANGUAGES:
        assert hardware.nvidia_smi("-L", lang=lang) == i18n.t("course.ch00.no_nvidia_smi", lang)


def test_nvidia_smi_under_a_profile_names_its_gpus_and_runs_nothing(monkeypatch):
    monkeypatch.setenv(hardware.PROFILE_ENV, "a100")
    assert hardware.nvidia_smi("-L") == (
        "GPU 0: NVIDIA A100-SXM4-40GB (MPTEACH_HARDWARE=a100; nvidia-smi was not run)"
    )
    monkeypatch.setenv(hardware.PROFILE_ENV, "tpu")
    assert hardware.nvidia_smi("-L", lang="en") == i18n.t("course.ch00.no_nvidia_smi", "en")


def test_geforce_gtx_16xx_have_no_tensor_cores_despite_compute_capability_7_5():
    """TU116/TU117 (tensorflow/tensorflow#44191: mixed_float16 2-4 times slower on one)."""
    for name in ("NVIDIA GeForce GTX 1660 Ti", "NVIDIA GeForce GTX 1650", "GeForce GTX 1660 SUPER"):
        gpu = GPUInfo(name, (7, 5))
        info = HardwareInfo(gpus=(gpu,))
        assert not gpu.has_tensor_cores and not hardware.is_fast("float16", info)
        assert hardware.best_policy(info) == "float32"
        assert "GTX 16xx" in hardware.verdict(info, lang="en")
    rtx = HardwareInfo(gpus=(GPUInfo("NVIDIA GeForce RTX 2060", (7, 5)),))
    assert rtx.gpus[0].has_tensor_cores and hardware.best_policy(rtx) == "mixed_float16"


def test_old_gpu_verdict_tells_the_p100_from_the_gtx_10xx():
    p100 = hardware.verdict(
        HardwareInfo(gpus=(GPUInfo("Tesla P100-PCIE-16GB", (6, 0)),)), lang="en"
    )
    assert "twice its float32 rate" in p100 and "accumulate in float32" in p100
    assert "no faster math" not in p100


def test_the_fused_float16_kernel_risk_follows_the_measured_cpus():
    """74x on the Intel Xeon, 1.0-1.2x on both AMD EPYC CPUs (the recorded probes)."""
    assert hardware.float16_fusion_risk(hardware.profile("intel-amx"))
    assert not hardware.float16_fusion_risk(hardware.profile("amd-avx2"))
    assert not hardware.float16_fusion_risk(hardware.profile("amd-avx512-bf16"))
    assert hardware.float16_fusion_risk(HardwareInfo("Some other CPU"))  # not measured: at risk
    advice = hardware.policy_advice("mixed_float16", hardware.profile("amd-avx2"), lang="en")
    assert "74 times" in advice and "1.0 to 1.2" in advice
