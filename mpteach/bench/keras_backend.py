"""The benchmarks under another Keras 3 backend (JAX), in a fresh process.

Keras picks its backend once, when it is first imported (the environment variable
``KERAS_BACKEND``), so a process that has imported Keras on TensorFlow cannot time a JAX model.
:func:`run_in_backend` therefore starts ``python -m mpteach.bench.keras_backend`` with
``KERAS_BACKEND`` set. That process measures the same model (:func:`~mpteach.bench.build_model`),
the same policies (``mixed_float16`` with Keras's ``LossScaleOptimizer``, ``mixed_bfloat16``,
``float32``), timed the same way (:func:`~mpteach.bench.timing.interleaved`, the outlier rule
of :mod:`mpteach.bench.results`), and writes the same result document, whose ``software`` names
the backend and the JAX versions.

What exists only in TensorFlow is not measured and is said so: Grappler's remapping (rows say
``"remapping": null``), the TF32 switch (``"tf32": null``) and the CPU float16 probes with their
work-arounds; ``settings["not_applicable"]`` lists them. Under JAX every operation is compiled
by XLA, so matrix-product rows say ``"xla": true``; training rows say whether the train step
was compiled as a whole (``jit_compile``).

>>> check_backend("jax")
'jax'
>>> check_backend("mxnet")
Traceback (most recent call last):
...
ValueError: backend='mxnet': choose one of 'tensorflow', 'jax'.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mpteach.bench.results import check_result, new_result, save_result, variant_label
from mpteach.bench.timing import Progress, interleaved, progress_function

BACKENDS = ("tensorflow", "jax")
KINDS = ("matmul", "train")
PROGRESS_PREFIX = "mpteach-progress "


def check_backend(backend: str) -> str:
    """``backend`` if Keras can run the benchmarks on it here, else a ``ValueError``."""
    if backend not in BACKENDS:
        raise ValueError(f"backend={backend!r}: choose one of {', '.join(map(repr, BACKENDS))}.")
    return backend


def run_in_backend(
    backend: str,
    kind: str,
    options: dict[str, Any],
    progress: bool | Progress | None = None,
    timeout: float | None = None,
) -> dict[str, Any]:
    """Run :func:`keras_matmul` (``kind='matmul'``) or :func:`keras_training` (``'train'``) with
    ``options`` in a new Python process whose Keras runs on ``backend``; return its checked
    result. ``progress`` is reported as the child measures. A failure in the child raises
    ``RuntimeError`` with the end of its error output (``ImportError`` where the backend's
    package is missing)."""
    if check_backend(backend) == "tensorflow":
        raise ValueError(
            "backend='tensorflow' runs in this process: call mpteach.bench.matmul_throughput or "
            "training_step; run_in_backend is for the other backends: "
            + ", ".join(repr(b) for b in BACKENDS if b != "tensorflow")
            + "."
        )
    if kind not in KINDS:
        raise ValueError(f"kind={kind!r}: choose one of {', '.join(map(repr, KINDS))}.")
    report = progress_function(progress)
    package_root = str(Path(__file__).resolve().parents[2])  # this mpteach, not another
    path = [package_root, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    env = {**os.environ, "KERAS_BACKEND": backend, "PYTHONPATH": os.pathsep.join(path)}
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "result.json"
        spec = json.dumps({"backend": backend, "kind": kind, "options": options})
        command = [sys.executable, "-m", "mpteach.bench.keras_backend", spec, str(out)]
        child = subprocess.Popen(
            command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )
        other: list[str] = []
        try:
            for line in child.stderr:
                if line.startswith(PROGRESS_PREFIX):
                    done, total, label = line[len(PROGRESS_PREFIX) :].rstrip("\n").split(" ", 2)
                    report(int(done), int(total), label)
                else:
                    other.append(line)
            code = child.wait(timeout)
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
        if code != 0:
            tail = "".join(other[-30:])
            kind_of_error = ImportError if "No module named" in tail else RuntimeError
            raise kind_of_error(
                f"the {kind} benchmark under Keras's {backend} backend failed (exit code {code}):\n"
                + tail
            )
        return check_result(json.loads(out.read_text(encoding="utf-8")))


def _keras_on(backend: str) -> Any:
    import keras

    if keras.backend.backend() != backend:
        raise RuntimeError(
            f"Keras runs on {keras.backend.backend()!r}, not {backend!r}: set KERAS_BACKEND before "
            "Keras is first imported (mpteach.bench.run_in_backend does)."
        )
    return keras


def _not_applicable(backend: str) -> tuple[list[str], str]:
    """What this backend does not have, and the TF32 note."""
    precision = None
    if backend == "jax":
        import jax

        precision = jax.config.jax_default_matmul_precision
    not_applicable = [
        "Grappler remapping (TensorFlow's graph optimizer): rows say remapping null",
        "the TF32 switch (tf.config.experimental.enable_tensor_float_32_execution): rows say "
        f"tf32 null; JAX's default matmul precision applies (jax_default_matmul_precision={precision!r})",
        "the CPU float16 probes and their work-arounds (they concern TensorFlow kernels)",
    ]
    return not_applicable, f"not applicable under the {backend} backend: no TF32 switch"


def _settings(repeats: int, warmup: int, backend: str, **more: Any) -> dict[str, Any]:
    load = list(os.getloadavg()) if hasattr(os, "getloadavg") else None
    not_applicable, tf32 = _not_applicable(backend)
    return {"repeats": repeats, "warmup": warmup, "load_average_at_start": load,
            "backend": backend, "not_applicable": not_applicable, "tf32": tf32, **more}  # fmt: skip


def _row(workload: str, size: int, variant: str, xla: bool) -> dict[str, Any]:
    return {"workload": workload, "size": size, "variant": variant, "xla": xla, "tf32": None,
            "remapping": None, "baseline": variant == "float32"}  # fmt: skip


def _label(row: dict[str, Any]) -> str:
    return (
        f"{row['workload']} {row['size']} xla={'on' if row['xla'] else 'off'} {variant_label(row)}"
    )


def _hardware(backend: str) -> dict[str, Any]:
    from mpteach.hardware import detect

    return detect(
        tensorflow=backend == "tensorflow", use_profile=False, jax=backend == "jax"
    ).to_dict()


def keras_matmul(
    sizes: Sequence[int],
    dtypes: Sequence[str],
    repeats: int = 10,
    warmup: int = 2,
    progress: bool | Progress | None = None,
) -> dict[str, Any]:
    """``n x n @ n x n`` with ``keras.ops.matmul`` on the backend Keras runs on (call it in the
    process that :func:`run_in_backend` starts); rows as :func:`mpteach.bench.matmul_throughput`
    gives them, with ``tflops``."""
    from mpteach.bench.workloads import DTYPES, _check_sizes, _choices

    dtypes = _choices("dtypes", dtypes, DTYPES)
    sizes = _check_sizes(sizes)
    backend = os.environ.get("KERAS_BACKEND", "tensorflow")
    keras = _keras_on(backend)
    ops = keras.ops
    rng = np.random.default_rng(0)
    variants: dict[str, Callable[[], Any]] = {}
    rows = []
    for n in sizes:
        a32, b32 = (rng.standard_normal((n, n)).astype(np.float32) for _ in range(2))
        for dtype in ["float32", *(d for d in dtypes if d != "float32")]:
            a, b = ops.convert_to_tensor(a32, dtype), ops.convert_to_tensor(b32, dtype)

            def run(a=a, b=b) -> Any:
                return ops.convert_to_numpy(ops.matmul(a, b)[0, 0])  # waits for the product

            rows.append(_row("matmul", n, dtype, backend == "jax"))
            variants[_label(rows[-1])] = run
    times = interleaved(variants, repeats, warmup, progress)
    for row in rows:
        row["times_s"] = times[_label(row)]
    settings = _settings(
        repeats, warmup, backend,
        matmul=f"keras.ops.matmul on the {backend} backend (under JAX each operation runs as an "
        "XLA computation), n x n by n x n, one element fetched",
    )  # fmt: skip
    doc = new_result(rows, settings, _hardware(backend), backend)
    for row in doc["rows"]:
        row["tflops"] = 2 * row["size"] ** 3 / row["median_s"] / 1e12
    return doc


def keras_training(
    workloads: Sequence[str],
    policies: Sequence[str],
    xla: Sequence[bool],
    batch_size: int | None = None,
    repeats: int = 10,
    warmup: int = 2,
    progress: bool | Progress | None = None,
) -> dict[str, Any]:
    """One ``train_on_batch`` step per workload, policy and ``jit_compile`` setting (``xla``),
    on the backend Keras runs on: Adam, sparse cross-entropy, ``mixed_float16`` wrapped in
    Keras's ``LossScaleOptimizer``, as :func:`mpteach.bench.training_step` does."""
    from mpteach.bench.workloads import BATCH_SIZES, POLICIES, _choices, compiled_model

    workloads = _choices("workloads", workloads, tuple(BATCH_SIZES))
    policies = _choices("policies", policies, POLICIES)
    xla = _choices("xla", xla, (False, True))
    backend = os.environ.get("KERAS_BACKEND", "tensorflow")
    keras = _keras_on(backend)
    rng = np.random.default_rng(0)
    variants: dict[str, Callable[[], Any]] = {}
    rows = []
    for workload in workloads:
        batch = batch_size or BATCH_SIZES[workload]
        shape = (784,) if workload == "dense" else (32, 32, 3)
        x = keras.ops.convert_to_tensor(rng.standard_normal((batch, *shape)), "float32")
        y = keras.ops.convert_to_tensor(rng.integers(0, 10, batch), "int32")
        for use_xla in xla:
            for policy in ["float32", *(p for p in policies if p != "float32")]:
                model = compiled_model(workload, policy, use_xla)

                def run(model=model, x=x, y=y) -> Any:
                    return model.train_on_batch(x, y)  # returns the loss on the host: waits

                rows.append(_row(workload, batch, policy, use_xla))
                variants[_label(rows[-1])] = run
    times = interleaved(variants, repeats, warmup, progress)
    for row in rows:
        row["times_s"] = times[_label(row)]
    settings = _settings(
        repeats, warmup, backend,
        training=f"keras Model.train_on_batch on the {backend} backend, Adam, float32 softmax "
        "output; xla = jit_compile of the train step",
        float16_fusion_probe=None, float16_conv_probe=None,
        float16_workaround=f"not applicable under the {backend} backend", skipped=[],
    )  # fmt: skip
    return new_result(rows, settings, _hardware(backend), backend)


def _child_progress(done: int, total: int, label: str) -> None:
    sys.stderr.write(f"{PROGRESS_PREFIX}{done} {total} {label}\n")
    sys.stderr.flush()


def _main(argv: Sequence[str]) -> int:
    spec, out = json.loads(argv[0]), argv[1]
    _keras_on(spec["backend"])
    measure = keras_matmul if spec["kind"] == "matmul" else keras_training
    save_result(measure(**spec["options"], progress=_child_progress), out)
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
