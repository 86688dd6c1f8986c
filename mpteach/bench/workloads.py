"""The measured workloads: a matrix product, and a training step of a Dense model or a small CNN.

Each function measures float32 and the 16-bit variants in this process, interleaved
(:func:`mpteach.bench.timing.interleaved`), and returns a checked result document
(:mod:`mpteach.bench.results`) whose rows carry the speedup against float32.

``backend='jax'`` runs the same measurement under Keras's JAX backend in a new process
(:mod:`mpteach.bench.keras_backend`); ``'tensorflow'`` (the default) runs it here.

Where a probe of :mod:`mpteach.bench.pitfall` finds a slow float16 CPU kernel, the work-around
is applied and recorded: float16 graphs without XLA run with Grappler's remapping off (their rows
say ``"remapping": false``), and the float16 CNN without XLA, whose convolution gradients would
take seconds per step, is listed under ``settings["skipped"]`` instead of being timed. On GPUs
with TF32 (compute capability 8.0+), a ``float32`` variant with TF32 off is measured too
(``"tf32": false``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from mpteach.bench.keras_backend import check_backend, run_in_backend
from mpteach.bench.pitfall import float16_conv_probe, float16_fusion_probe, remapping
from mpteach.bench.results import new_result, variant_label
from mpteach.bench.timing import Progress, interleaved
from mpteach.hardware import detect

DTYPES = ("float32", "float16", "bfloat16")
POLICIES = ("float32", "mixed_float16", "mixed_bfloat16")
MATMUL_SIZES = (512, 1024, 1023, 2048, 2047)  # with and without the multiple-of-8 shape
BATCH_SIZES = {"dense": 256, "cnn": 64}


def _choices(name: str, values: Sequence[Any], valid: Sequence[Any]) -> list[Any]:
    values = list(values)
    bad = [v for v in values if v not in valid]
    if bad or not values:
        raise ValueError(f"{name}={values!r}: choose from {', '.join(map(repr, valid))}.")
    return values


def _check_sizes(sizes: Sequence[int]) -> list[int]:
    if not sizes or not all(isinstance(n, int) and 1 <= n <= 16384 for n in sizes):
        raise ValueError(f"sizes={list(sizes)!r}: choose whole numbers in [1, 16384].")
    return list(sizes)


def _tf32_off(run: Callable[[], Any]) -> Callable[[], Any]:
    """``run`` with TensorFlow's TF32 switched off during the call (it is a global switch)."""
    import tensorflow as tf

    def without_tf32() -> Any:
        tf.config.experimental.enable_tensor_float_32_execution(False)
        try:
            return run()
        finally:
            tf.config.experimental.enable_tensor_float_32_execution(True)

    return without_tf32


def _remapping_off(run: Callable[[], Any]) -> Callable[[], Any]:
    """``run`` with Grappler's remapper off during every call (read at each call of a Keras
    train function, so it must hold for the whole run, not only while tracing)."""

    def unfused() -> Any:
        with remapping(False):
            return run()

    return unfused


def _settings(repeats: int, warmup: int, **more: Any) -> dict[str, Any]:
    load = list(os.getloadavg()) if hasattr(os, "getloadavg") else None
    return {"repeats": repeats, "warmup": warmup, "load_average_at_start": load,
            "backend": "tensorflow", "not_applicable": [], **more}  # fmt: skip


def _tf32_note(measure_tf32: bool) -> str:
    if measure_tf32:
        return "TF32 on (TensorFlow's default) for float32; a float32 variant with TF32 off is measured too"
    return "not applicable: no GPU with TF32 (compute capability 8.0+)"


def _specs(
    names: Sequence[str], baseline: str, measure_tf32: bool
) -> list[tuple[str, bool | None]]:
    """``(variant, tf32)`` pairs: the baseline first; on TF32 GPUs also the baseline with TF32 off."""
    names = [baseline] + [n for n in names if n != baseline]
    specs = [(n, True if measure_tf32 and n == baseline else None) for n in names]
    return specs + ([(baseline, False)] if measure_tf32 else [])


def _row(workload: str, size: int, variant: str, xla: bool, tf32: bool | None, remap: bool) -> dict:
    baseline = variant == "float32" and tf32 is not False
    return {"workload": workload, "size": size, "variant": variant, "xla": xla, "tf32": tf32,
            "remapping": remap, "baseline": baseline}  # fmt: skip


def _label(row: dict[str, Any]) -> str:
    return (
        f"{row['workload']} {row['size']} xla={'on' if row['xla'] else 'off'} {variant_label(row)}"
    )


def matmul_throughput(
    sizes: Sequence[int] = MATMUL_SIZES,
    dtypes: Sequence[str] = DTYPES,
    repeats: int = 10,
    warmup: int = 2,
    progress: bool | Progress | None = None,
    backend: str = "tensorflow",
) -> dict[str, Any]:
    """Time ``n x n @ n x n`` products for each size and dtype (float32 is always included:
    it is the baseline). Rows also get ``tflops``. Sizes that are not multiples of 8 show what
    Tensor Cores and AMX tiles think of ragged shapes. ``backend='jax'`` measures
    ``keras.ops.matmul`` under JAX in a new process."""
    dtypes = _choices("dtypes", dtypes, DTYPES)
    sizes = _check_sizes(sizes)
    if check_backend(backend) != "tensorflow":
        options = {"sizes": sizes, "dtypes": dtypes, "repeats": repeats, "warmup": warmup}
        return run_in_backend(backend, "matmul", options, progress)
    import tensorflow as tf

    info = detect(tensorflow=True, use_profile=False)
    measure_tf32 = info.device == "gpu" and info.gpus[0].has_tf32
    matmul = tf.function(tf.matmul)
    rng = np.random.default_rng(0)
    variants, rows = {}, []
    for n in sizes:
        a32, b32 = (tf.constant(rng.standard_normal((n, n)), tf.float32) for _ in range(2))
        for dtype, tf32 in _specs(dtypes, "float32", measure_tf32):
            a, b = tf.cast(a32, dtype), tf.cast(b32, dtype)
            product = matmul.get_concrete_function(a, b)  # the graph for this shape and dtype

            def run(product=product, a=a, b=b) -> Any:
                return product(a, b)[0, 0].numpy()  # fetching one element waits for all of it

            rows.append(_row("matmul", n, dtype, False, tf32, True))
            variants[_label(rows[-1])] = _tf32_off(run) if tf32 is False else run
    times = interleaved(variants, repeats, warmup, progress)
    for row in rows:
        row["times_s"] = times[_label(row)]
    settings = _settings(
        repeats, warmup, matmul="tf.matmul in a tf.function, n x n by n x n, one element fetched",
        tf32=_tf32_note(measure_tf32),
    )  # fmt: skip
    doc = new_result(rows, settings, info.to_dict())
    for row in doc["rows"]:
        row["tflops"] = 2 * row["size"] ** 3 / row["median_s"] / 1e12
    return doc


def build_model(workload: str, policy: str) -> Any:
    """The Keras model of a workload, every layer under ``policy`` except the float32 softmax.

    ``dense``: 784 -> 1024 -> 1024 -> 10 (an MNIST-sized MLP); ``cnn``: three 3x3 convolutions
    (32, 64, 64 filters) on 32x32x3 images, global pooling, 10 classes.
    """
    import keras
    from keras import layers

    _choices("workload", [workload], tuple(BATCH_SIZES))
    if workload == "dense":
        inputs = keras.Input((784,))
        x = layers.Dense(1024, activation="relu", dtype=policy)(inputs)
        x = layers.Dense(1024, activation="relu", dtype=policy)(x)
    else:
        inputs = keras.Input((32, 32, 3))
        x = layers.Conv2D(32, 3, padding="same", activation="relu", dtype=policy)(inputs)
        x = layers.Conv2D(64, 3, padding="same", activation="relu", dtype=policy)(x)
        x = layers.MaxPooling2D(dtype=policy)(x)
        x = layers.Conv2D(64, 3, padding="same", activation="relu", dtype=policy)(x)
        x = layers.GlobalAveragePooling2D(dtype=policy)(x)
    x = layers.Dense(10, dtype=policy)(x)
    outputs = layers.Activation("softmax", dtype="float32")(x)  # outputs in float32
    return keras.Model(inputs, outputs)


def compiled_model(workload: str, policy: str, jit_compile: bool) -> Any:
    """:func:`build_model`, compiled as every benchmark trains it: Adam and sparse cross-entropy,
    and for ``mixed_float16`` the ``LossScaleOptimizer`` that ``compile`` adds under that global
    policy (here the policy is per layer, so it is added by hand)."""
    import keras

    model = build_model(workload, policy)
    optimizer = keras.optimizers.Adam(1e-3)
    if policy == "mixed_float16":
        optimizer = keras.optimizers.LossScaleOptimizer(optimizer)
    model.compile(optimizer, "sparse_categorical_crossentropy", jit_compile=jit_compile)
    return model


def training_step(
    workloads: Sequence[str] = ("dense", "cnn"),
    policies: Sequence[str] = POLICIES,
    xla: Sequence[bool] = (False, True),
    batch_size: int | None = None,
    repeats: int = 10,
    warmup: int = 2,
    float16_workaround: bool = True,
    progress: bool | Progress | None = None,
    backend: str = "tensorflow",
) -> dict[str, Any]:
    """Time one ``train_on_batch`` step (Adam, sparse cross-entropy; mixed_float16 wrapped in
    Keras's ``LossScaleOptimizer``) per workload, policy and XLA setting.

    ``batch_size`` defaults to 256 for ``dense`` and 64 for ``cnn``. With
    ``float16_workaround`` (the default), the probes of :mod:`mpteach.bench.pitfall` run first;
    where they find a slow float16 kernel, float16 Dense graphs without XLA run with remapping
    off, and the float16 CNN without XLA is not timed (listed under ``settings["skipped"]``).
    Turning it off measures the pitfalls themselves: seconds per step on such CPUs.

    ``backend='jax'`` runs the same steps under Keras's JAX backend in a new process
    (:mod:`mpteach.bench.keras_backend`), where ``xla`` is ``jit_compile`` of the train step and
    the TensorFlow-only probes and work-arounds do not apply.
    """
    workloads = _choices("workloads", workloads, tuple(BATCH_SIZES))
    policies = _choices("policies", policies, POLICIES)
    xla = _choices("xla", xla, (False, True))
    if check_backend(backend) != "tensorflow":
        options = {"workloads": workloads, "policies": policies, "xla": xla,
                   "batch_size": batch_size, "repeats": repeats, "warmup": warmup}  # fmt: skip
        return run_in_backend(backend, "train", options, progress)
    import tensorflow as tf

    info = detect(tensorflow=True, use_profile=False)
    measure_tf32 = info.device == "gpu" and info.gpus[0].has_tf32
    f16_graphs = "mixed_float16" in policies and False in xla and float16_workaround
    fusion = float16_fusion_probe() if f16_graphs else None  # the CNN has a Dense head too
    conv = float16_conv_probe() if f16_graphs and "cnn" in workloads else None
    remap_now = tf.config.optimizer.get_experimental_options().get("remapping", True)
    unfuse = bool(fusion and fusion["slow"] and remap_now)
    skipped = []
    rng = np.random.default_rng(0)
    variants, rows = {}, []
    for workload in workloads:
        batch = batch_size or BATCH_SIZES[workload]
        shape = (784,) if workload == "dense" else (32, 32, 3)
        x = tf.constant(rng.standard_normal((batch, *shape)), tf.float32)
        y = tf.constant(rng.integers(0, 10, batch))
        for use_xla in xla:
            for policy, tf32 in _specs(policies, "float32", measure_tf32):
                f16_graph = policy == "mixed_float16" and not use_xla
                row = _row(
                    workload, batch, policy, use_xla, tf32, remap_now and not (f16_graph and unfuse)
                )
                if f16_graph and workload == "cnn" and conv and conv["slow"]:
                    skipped.append(_label(row))  # seconds per step: measured by the probe instead
                    continue
                model = compiled_model(workload, policy, use_xla)

                def run(model=model, x=x, y=y) -> Any:
                    return model.train_on_batch(x, y)  # returns the loss as NumPy: waits

                run = _tf32_off(run) if tf32 is False else run
                rows.append(row)
                variants[_label(row)] = (
                    run if row["remapping"] == remap_now else _remapping_off(run)
                )
    times = interleaved(variants, repeats, warmup, progress)
    for row in rows:
        row["times_s"] = times[_label(row)]
    workaround = []
    if unfuse:
        workaround.append("float16 Dense graphs without XLA run with Grappler remapping off")
    if skipped:
        workaround.append(
            "float16 CNN without XLA not timed (slow Conv2DBackpropFilter, see probe)"
        )
    settings = _settings(
        repeats, warmup, training="keras Model.train_on_batch, Adam, float32 softmax output",
        float16_fusion_probe=fusion, float16_conv_probe=conv,
        float16_workaround="; ".join(workaround) or "none needed", skipped=skipped,
        tf32=_tf32_note(measure_tf32),
    )  # fmt: skip
    return new_result(rows, settings, info.to_dict())
