"""What hardware is this, and which dtype policy pays off on it?

Mixed precision is fast only where the hardware has fast 16-bit matrix units:

* NVIDIA GPUs: Tensor Cores from compute capability 7.0 (V100, T4, ...) run float16;
  from 8.0 (A100, L4, H100, ...) they also run bfloat16 and TF32 (float32 inputs, rounded
  to a 10-bit mantissa inside the matrix unit, on by default in TensorFlow).
* TPUs compute in bfloat16 natively.
* x86 CPUs: AMX-BF16 and AVX512-BF16 speed up bfloat16. AVX512-FP16 and AMX-FP16 could speed up
  float16, but TensorFlow's float16 matrix products did not gain from them: 0.91 to 1.04 times
  float32 on our Intel Xeon that has both AVX512-FP16 and AMX (``mpteach/data/results/``), so no
  CPU counts as fast for float16 here (and see :func:`policy_advice` about its fused kernel).

:func:`detect` reads this from the operating system (``/proc/cpuinfo``, ``nvidia-smi``) without
importing TensorFlow; it asks TensorFlow (or JAX) only when it is already imported or when told to,
so it works where TensorFlow is not installed at all.

>>> cpu = HardwareInfo("Intel(R) Xeon(R) Processor", frozenset({"avx512_bf16", "amx_bf16"}))
>>> cpu.has_amx_bf16, cpu.device
(True, 'cpu')
>>> best_policy(cpu), is_fast("bfloat16", cpu), is_fast("float16", cpu)
('mixed_bfloat16', True, False)
>>> t4 = HardwareInfo(gpus=(GPUInfo("Tesla T4", (7, 5)),))
>>> best_policy(t4), t4.gpus[0].has_tensor_cores, t4.gpus[0].has_tf32
('mixed_float16', True, False)
>>> verdict(t4, lang="en").startswith("Tesla T4: use mixed_float16")
True
"""

from __future__ import annotations

import os
import platform
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Any

from mpteach.i18n import join, t

CPUINFO_PATH = "/proc/cpuinfo"
PROFILE_ENV = "MPTEACH_HARDWARE"  # run the course as another machine would: a name of PROFILES
TPU_DEVICE_PATH = "/dev/accel0"  # TPU VMs (Colab's TPU runtime) expose their chips here
TPU_ENV_VARS = ("COLAB_TPU_ADDR", "TPU_NAME", "TPU_ACCELERATOR_TYPE")

# CPU flags (as /proc/cpuinfo spells them) that decide 16-bit speed, with their usual names.
FEATURES = {
    "amx_bf16": "AMX-BF16",
    "amx_fp16": "AMX-FP16",
    "avx512_bf16": "AVX512-BF16",
    "avx512_fp16": "AVX512-FP16",
}
DTYPES = ("float16", "bfloat16")


@dataclass(frozen=True)
class GPUInfo:
    """One GPU: its name and CUDA compute capability ``(major, minor)``, ``None`` if unknown.

    >>> GPUInfo("NVIDIA A100-SXM4-40GB", (8, 0)).has_tf32
    True
    >>> GPUInfo("Tesla P100-PCIE-16GB", (6, 0)).has_tensor_cores
    False
    >>> GPUInfo("NVIDIA GeForce GTX 1660 SUPER", (7, 5)).has_tensor_cores  # TU116: none
    False
    """

    name: str
    compute_capability: tuple[int, int] | None = None

    @property
    def has_tensor_cores(self) -> bool:
        """Tensor Cores for float16: compute capability 7.0 and later, except the GeForce GTX 16xx
        (TU116/TU117 chips, compute capability 7.5 but no Tensor Cores)."""
        if self.compute_capability is None or self.compute_capability < (7, 0):
            return False
        return re.search(r"GTX\s*16\d\d", self.name) is None

    @property
    def has_tf32(self) -> bool:
        """TF32 and bfloat16 Tensor Cores (compute capability 8.0, Ampere, and later)."""
        return self.compute_capability is not None and self.compute_capability >= (8, 0)

    @property
    def label(self) -> str:
        cc = self.compute_capability
        return self.name if cc is None else f"{self.name} (compute capability {cc[0]}.{cc[1]})"


@dataclass(frozen=True)
class HardwareInfo:
    """The CPU, GPUs and TPU of this machine, as far as mixed precision cares.

    ``device`` is where TensorFlow runs a model by default: a TPU if there is one (Colab's TPU
    runtime), else the first GPU, else the CPU.
    """

    cpu_model: str = "unknown CPU"
    cpu_flags: frozenset[str] = field(default_factory=frozenset, repr=False)  # ~100 names
    cpu_count: int = 1
    gpus: tuple[GPUInfo, ...] = ()
    tpu: bool = False

    @property
    def has_amx_bf16(self) -> bool:
        return "amx_bf16" in self.cpu_flags

    @property
    def has_avx512_bf16(self) -> bool:
        return "avx512_bf16" in self.cpu_flags

    @property
    def has_avx512_fp16(self) -> bool:
        return "avx512_fp16" in self.cpu_flags

    @property
    def has_amx_fp16(self) -> bool:
        return "amx_fp16" in self.cpu_flags

    @property
    def cpu_features(self) -> tuple[str, ...]:
        """The 16-bit features this CPU has, by their usual names (``'AMX-BF16'``, ...)."""
        return tuple(name for flag, name in FEATURES.items() if flag in self.cpu_flags)

    @property
    def virtual(self) -> bool:
        """Running in a virtual machine (the CPU reports a hypervisor)."""
        return "hypervisor" in self.cpu_flags

    @property
    def device(self) -> str:
        return "tpu" if self.tpu else "gpu" if self.gpus else "cpu"

    @property
    def cpu_label(self) -> str:
        """E.g. ``'Intel(R) Xeon(R) Processor (2 vCPU, AMX-BF16, AVX512-BF16)'``."""
        cores = f"{self.cpu_count} {'vCPU' if self.virtual else 'cores'}"
        return f"{self.cpu_model} ({', '.join((cores, *self.cpu_features))})"

    @property
    def label(self) -> str:
        """The name of the device that runs the model, for titles and result files."""
        if self.tpu:
            return "TPU"
        return self.gpus[0].label if self.gpus else self.cpu_label

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (the provenance of benchmark results)."""
        return {
            "device": self.device,
            "label": self.label,
            "cpu_model": self.cpu_model,
            "cpu_count": self.cpu_count,
            "cpu_features": list(self.cpu_features),
            "virtual_machine": self.virtual,
            "gpus": [
                {"name": g.name, "compute_capability": list(g.compute_capability or ()) or None}
                for g in self.gpus
            ],
            "tpu": self.tpu,
        }


_AVX512 = frozenset({"avx", "avx2", "fma", "avx512f", "avx512bw", "avx512vl"})
_COLAB_CPU = HardwareInfo("Intel(R) Xeon(R) CPU @ 2.20GHz", _AVX512 | {"hypervisor"}, 2)

# Machines the course must read well on, described as detect() would see them. Setting the
# environment variable MPTEACH_HARDWARE to a name below makes detect() answer with it, so that
# the tests (and anyone curious) can run the course's hardware-dependent paths as that machine
# would, without owning it. The GPU and TPU profiles are Colab's runtimes.
PROFILES: dict[str, HardwareInfo] = {
    # Intel Xeon, 4th generation or later (Sapphire Rapids), in a VM: AMX and AVX512-BF16/FP16
    "intel-amx": HardwareInfo(
        "Intel(R) Xeon(R) Processor",
        _AVX512 | {"hypervisor", "avx512_bf16", "avx512_fp16", "amx_bf16", "amx_tile"},
        2,
    ),
    # AMD EPYC without AVX512 (Zen 2/3): no 16-bit matrix instructions at all
    "amd-avx2": HardwareInfo("AMD EPYC 7B12", frozenset({"avx", "avx2", "fma", "hypervisor"}), 2),
    # AMD EPYC Zen 4: AVX512-BF16, no AMX
    "amd-avx512-bf16": HardwareInfo("AMD EPYC 9B14", _AVX512 | {"hypervisor", "avx512_bf16"}, 2),
    # an Intel laptop without AVX512
    "laptop": HardwareInfo("Intel(R) Core(TM) i7-1165G7 CPU @ 2.80GHz", frozenset({"avx2"}), 8),
    "t4": HardwareInfo(
        _COLAB_CPU.cpu_model, _COLAB_CPU.cpu_flags, 2, (GPUInfo("Tesla T4", (7, 5)),)
    ),
    "l4": HardwareInfo(
        _COLAB_CPU.cpu_model, _COLAB_CPU.cpu_flags, 12, (GPUInfo("NVIDIA L4", (8, 9)),)
    ),
    "a100": HardwareInfo(
        _COLAB_CPU.cpu_model, _COLAB_CPU.cpu_flags, 12, (GPUInfo("NVIDIA A100-SXM4-40GB", (8, 0)),)
    ),
    "p100": HardwareInfo(
        _COLAB_CPU.cpu_model, _COLAB_CPU.cpu_flags, 2, (GPUInfo("Tesla P100-PCIE-16GB", (6, 0)),)
    ),
    "tpu": HardwareInfo(_COLAB_CPU.cpu_model, _COLAB_CPU.cpu_flags, 96, tpu=True),
}


def profile(name: str) -> HardwareInfo:
    """The hardware profile called ``name`` (see :data:`PROFILES`).

    >>> profile("t4").label
    'Tesla T4 (compute capability 7.5)'
    >>> profile("v100")
    Traceback (most recent call last):
    ...
    ValueError: MPTEACH_HARDWARE='v100' is not a hardware profile; choose one of 'intel-amx', 'amd-avx2', 'amd-avx512-bf16', 'laptop', 't4', 'l4', 'a100', 'p100', 'tpu'.
    """
    if name not in PROFILES:
        choices = ", ".join(repr(p) for p in PROFILES)
        raise ValueError(
            f"{PROFILE_ENV}={name!r} is not a hardware profile; choose one of {choices}."
        )
    return PROFILES[name]


def parse_cpuinfo(text: str) -> tuple[str, frozenset[str]]:
    """``(model name, flags)`` of the first processor in ``/proc/cpuinfo`` text.

    >>> model, flags = parse_cpuinfo("model name\\t: Intel(R) Xeon(R)\\nflags\\t: fpu amx_bf16\\n")
    >>> model, sorted(flags)
    ('Intel(R) Xeon(R)', ['amx_bf16', 'fpu'])
    """
    model, flags = "", frozenset()
    for line in text.splitlines():
        key, _, value = line.partition(":")
        key = key.strip().lower()
        if key in ("model name", "hardware", "cpu model") and not model:
            model = value.strip()
        elif key in ("flags", "features") and not flags:  # x86 says flags, Arm says Features
            flags = frozenset(value.split())
    return model or platform.processor() or platform.machine() or "unknown CPU", flags


def parse_nvidia_smi(text: str) -> tuple[GPUInfo, ...]:
    """GPUs from ``nvidia-smi --query-gpu=name,compute_cap --format=csv,noheader`` output.

    >>> parse_nvidia_smi("Tesla T4, 7.5\\nNVIDIA A100-SXM4-40GB, 8.0\\n")
    (GPUInfo(name='Tesla T4', compute_capability=(7, 5)), GPUInfo(name='NVIDIA A100-SXM4-40GB', compute_capability=(8, 0)))
    """
    gpus = []
    for line in text.strip().splitlines():
        name, _, cc = (part.strip() for part in line.rpartition(","))
        if not name:  # an old driver that does not know compute_cap prints only the name
            name, cc = cc, ""
        gpus.append(GPUInfo(name, _parse_compute_capability(cc)))
    return tuple(gpus)


def _parse_compute_capability(value: Any) -> tuple[int, int] | None:
    if isinstance(value, tuple | list) and len(value) == 2:
        return int(value[0]), int(value[1])
    major, dot, minor = str(value).strip().partition(".")
    return (int(major), int(minor)) if dot and major.isdigit() and minor.isdigit() else None


def _read_cpuinfo() -> str:
    try:
        with open(CPUINFO_PATH, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:  # not Linux
        return ""


def _run_nvidia_smi() -> str:
    if shutil.which("nvidia-smi") is None:
        return ""
    query = ["nvidia-smi", "--query-gpu=name,compute_cap", "--format=csv,noheader"]
    for command in (query, ["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"]):
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=10)
        except (OSError, subprocess.SubprocessError):
            return ""
        if done.returncode == 0:
            return done.stdout
    return ""


def nvidia_smi(*args: str, lang: str | None = None) -> str:
    """What ``nvidia-smi ARGS`` prints (``nvidia_smi("-L")`` lists the GPUs), or a note in the
    course's language that this machine has no ``nvidia-smi``. Under a hardware profile
    (``MPTEACH_HARDWARE``) it lists the profile's GPUs instead, marked as such.

    >>> import shutil
    >>> shutil.which("nvidia-smi") is not None or nvidia_smi("-L", lang="en").startswith("nvidia-smi is not here")
    True
    """
    name = os.environ.get(PROFILE_ENV)
    if name:  # a described machine: say what it has, and that nothing was run
        gpus = profile(name).gpus
        return "\n".join(
            f"GPU {i}: {gpu.name} ({PROFILE_ENV}={name}; nvidia-smi was not run)"
            for i, gpu in enumerate(gpus)
        ) or t("course.ch00.no_nvidia_smi", lang)
    if shutil.which("nvidia-smi") is None:
        return t("course.ch00.no_nvidia_smi", lang)
    try:
        done = subprocess.run(["nvidia-smi", *args], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as error:
        return f"nvidia-smi {' '.join(args)}: {error}"
    return (done.stdout + done.stderr).rstrip()


def _tpu_from_environment() -> bool:
    return any(os.environ.get(name) for name in TPU_ENV_VARS) or os.path.exists(TPU_DEVICE_PATH)


def _ask_tensorflow() -> tuple[tuple[GPUInfo, ...], bool] | None:
    """GPUs and TPU as TensorFlow sees them; ``None`` if TensorFlow cannot be imported."""
    try:
        import tensorflow as tf
    except ImportError:
        return None
    gpus = []
    for device in tf.config.list_physical_devices("GPU"):
        details = tf.config.experimental.get_device_details(device)
        cc = _parse_compute_capability(details.get("compute_capability"))
        gpus.append(GPUInfo(details.get("device_name", device.name), cc))
    return tuple(gpus), bool(tf.config.list_physical_devices("TPU"))


def _ask_jax() -> tuple[tuple[GPUInfo, ...], bool] | None:
    """GPUs and TPU as JAX sees them; ``None`` if JAX cannot be imported.

    A JAX GPU device names itself in ``device_kind`` (``'NVIDIA A100-SXM4-40GB'``) and, in
    recent jaxlib versions, gives ``compute_capability`` (``'8.0'``).
    """
    try:
        import jax
    except ImportError:
        return None
    gpus, tpu = [], False
    for device in jax.devices():
        if device.platform == "gpu":
            cc = _parse_compute_capability(getattr(device, "compute_capability", None))
            gpus.append(GPUInfo(str(device.device_kind), cc))
        tpu = tpu or device.platform == "tpu"
    return tuple(gpus), tpu


def detect(
    tensorflow: bool | None = None, *, use_profile: bool = True, jax: bool | None = None
) -> HardwareInfo:
    """Detect this machine's CPU, GPUs and TPU.

    GPUs come from TensorFlow when ``tensorflow`` is true, or when it is ``None`` (the default)
    and TensorFlow is already imported: that is what a model will really run on. Otherwise they
    come from ``nvidia-smi``, which costs no TensorFlow import. Where ``nvidia-smi`` finds none,
    JAX is asked when ``jax`` is true, or ``None`` and JAX is already imported (a benchmark run
    under Keras's JAX backend, where TensorFlow may not be installed).

    Where the environment variable ``MPTEACH_HARDWARE`` names a profile (:data:`PROFILES`), that
    profile is the answer, so the course can be run as another machine would run it.
    Benchmarks pass ``use_profile=False``: a measurement names the machine that really ran it.
    """
    if use_profile and os.environ.get(PROFILE_ENV):
        return profile(os.environ[PROFILE_ENV])
    model, flags = parse_cpuinfo(_read_cpuinfo())
    gpus, tpu = parse_nvidia_smi(_run_nvidia_smi()), _tpu_from_environment()
    if tensorflow or (tensorflow is None and "tensorflow" in sys.modules):
        seen = _ask_tensorflow()
        if seen is not None:
            gpus, tpu = seen[0], tpu or seen[1]
    if jax or (jax is None and "jax" in sys.modules):
        seen = _ask_jax()
        if seen is not None:
            gpus, tpu = gpus or seen[0], tpu or seen[1]
    return HardwareInfo(model, flags, os.cpu_count() or 1, gpus, tpu)


def _check_dtype(dtype: str) -> str:
    name = dtype.removeprefix("mixed_")
    if name not in DTYPES:
        choices = ", ".join(repr(d) for d in (*DTYPES, *(f"mixed_{d}" for d in DTYPES)))
        raise ValueError(f"dtype={dtype!r} is not a 16-bit compute dtype; choose one of {choices}.")
    return name


def is_fast(dtype: str, info: HardwareInfo | None = None) -> bool:
    """Whether ``dtype`` compute (``'float16'``/``'bfloat16'``, or a ``mixed_`` policy name)
    is faster than float32 on the device that runs the model.

    float16 on a CPU is never fast here: even with AVX512-FP16, TensorFlow's float16 matrix
    products ran at 0.91 to 1.04 times float32 (the recorded Intel Xeon results).

    >>> is_fast("mixed_bfloat16", HardwareInfo(tpu=True))
    True
    >>> is_fast("float8", HardwareInfo())
    Traceback (most recent call last):
    ...
    ValueError: dtype='float8' is not a 16-bit compute dtype; choose one of 'float16', 'bfloat16', 'mixed_float16', 'mixed_bfloat16'.
    """
    dtype = _check_dtype(dtype)
    info = info or detect()
    if info.device == "tpu":
        return dtype == "bfloat16"
    if info.device == "gpu":
        gpu = info.gpus[0]
        return gpu.has_tensor_cores if dtype == "float16" else gpu.has_tf32
    if dtype == "bfloat16":
        return info.has_amx_bf16 or info.has_avx512_bf16
    return False  # measured: no float16 gain on CPUs, AVX512-FP16 included (see above)


def float16_fusion_risk(info: HardwareInfo | None = None) -> bool:
    """True where TensorFlow's graph optimizer (Grappler's remapper) may fuse MatMul+BiasAdd into
    a slow float16 kernel: a CPU, except the AMD EPYC CPUs, where it was measured harmless.

    Recorded (``python -m mpteach.bench probe``, ``mpteach/data/results/``): the fused kernel ran
    74 times slower than float32 on our Intel Xeon, and 1.0 to 1.2 times on both AMD EPYC CPUs.
    A CPU not measured is treated as at risk; the probe measures it.

    >>> float16_fusion_risk(profile("intel-amx")), float16_fusion_risk(profile("amd-avx2"))
    (True, False)
    """
    info = info or detect()
    return info.device == "cpu" and "AMD EPYC" not in info.cpu_model


def best_policy(info: HardwareInfo | None = None) -> str:
    """The dtype policy that pays off here: ``'mixed_float16'``, ``'mixed_bfloat16'`` or ``'float32'``.

    From compute capability 8.0 the Tensor Cores run bfloat16 as well as float16 (NVIDIA's
    Transformer Engine support matrix: "BF16 requires compute capability 8.0 or higher"), so
    there the advice is ``mixed_bfloat16``: the same matrix units, float32's range, and no loss
    scaling to get wrong (no overflow, no skipped steps). ``mixed_float16`` runs on them too and
    keeps 3 more mantissa bits, for a model that needs them. Older Tensor Cores (7.x) run float16
    only. Without Tensor Cores the advice is float32: on a P100 (6.0) float16 arithmetic has twice
    the float32 rate, but TensorFlow's float16 matrix kernels accumulate in float32 and so run at
    the float32 rate (TensorFlow passes float32 as cuBLAS's compute type: tensorflow/tensorflow#15585);
    GTX 10xx cards (6.1) have very slow float16 arithmetic; the GTX 16xx (7.5) have no Tensor
    Cores (tensorflow/tensorflow#44191). Memory and bandwidth can still gain a little: measure.

    >>> best_policy(HardwareInfo(gpus=(GPUInfo("NVIDIA A100-SXM4-40GB", (8, 0)),)))
    'mixed_bfloat16'
    >>> best_policy(HardwareInfo(gpus=(GPUInfo("Tesla P100-PCIE-16GB", (6, 0)),)))
    'float32'
    """
    info = info or detect()
    if info.device == "gpu":
        gpu = info.gpus[0]
        return (
            "mixed_bfloat16"
            if gpu.has_tf32
            else "mixed_float16"
            if gpu.has_tensor_cores
            else "float32"
        )
    return "mixed_bfloat16" if is_fast("bfloat16", info) else "float32"


def verdict(info: HardwareInfo | None = None, lang: str | None = None) -> str:
    """One line: which policy to use on this hardware, and why (in the course's language)."""
    info = info or detect()
    if info.device == "tpu":
        return t("speed.verdict_tpu", lang)
    if info.device == "gpu":
        gpu = info.gpus[0]
        if gpu.compute_capability is None:
            return t("speed.verdict_gpu_unknown", lang, device=gpu.name)
        key = (
            "speed.verdict_gpu_tf32"
            if gpu.has_tf32
            else "speed.verdict_gpu_tensor_cores"
            if gpu.has_tensor_cores
            else "speed.verdict_gpu_old"
        )
        return t(key, lang, device=gpu.name, cc="{}.{}".format(*gpu.compute_capability))
    if is_fast("bfloat16", info):
        features = join([f for f in info.cpu_features if "BF16" in f], lang)
        return t("speed.verdict_cpu_bfloat16", lang, device=info.cpu_model, features=features)
    return t("speed.verdict_cpu_plain", lang, device=info.cpu_model)


def policy_advice(
    policy: str, info: HardwareInfo | None = None, lang: str | None = None
) -> str | None:
    """A warning when ``policy`` will be slow on this hardware, else ``None``.

    >>> print(policy_advice("mixed_bfloat16", HardwareInfo("Old CPU"), lang="en"))
    mixed_bfloat16 on Old CPU: no fast bfloat16 math here (no AMX-BF16 or AVX512-BF16), so expect it to be slower than float32.
    >>> policy_advice("float32", HardwareInfo()) is None
    True
    """
    name = policy.removeprefix("mixed_")
    if name not in DTYPES:
        return None  # float32/float64 are never "slow mixed precision"
    info = info or detect()
    if name == "float16":
        if info.device == "tpu":
            return t("speed.advice_float16_tpu", lang)
        if info.device == "cpu":
            return t("speed.advice_float16_cpu", lang)
        if not info.gpus[0].has_tensor_cores:
            return t("speed.advice_float16_gpu_old", lang, device=info.gpus[0].label)
        return None
    if is_fast("bfloat16", info):
        return None
    if info.device == "gpu":
        return t("speed.advice_bfloat16_gpu", lang, device=info.gpus[0].label)
    return t("speed.advice_bfloat16_cpu", lang, device=info.cpu_model)
