"""Two CPU float16 pitfalls of TensorFlow, measured here: slow kernels, and their work-arounds.

1. **The fused MatMul+BiasAdd kernel.** In graph mode (``model.fit``, ``tf.function``)
   TensorFlow's graph optimizer, Grappler, runs a *remapper* that fuses ``MatMul + BiasAdd
   (+ ReLU)`` into one ``_FusedMatMul`` kernel. On GPUs that is a win. On many CPUs its float16
   version is extremely slow (about 0.1 GFLOP/s on a Xeon whose plain float16 MatMul runs at
   over 1 TFLOP/s), so a ``mixed_float16`` Dense model trains hundreds of times slower than in
   float32. Eager mode, layers without a bias, bfloat16 and XLA are not affected. Work-arounds:
   ``tf.config.optimizer.set_experimental_options({"remapping": False})`` (it must be in force
   while the model runs), or ``jit_compile=True``. :func:`float16_fusion_probe` measures it.
2. **The float16 filter gradient of a convolution** (``Conv2DBackpropFilter``) has no fast CPU
   kernel either, so a ``mixed_float16`` CNN trains very slowly without XLA (the forward pass
   and bfloat16 are fine). Work-around: ``jit_compile=True``, or ``mixed_bfloat16``.
   :func:`float16_conv_probe` measures it.

:func:`explain_probe` turns a probe's numbers into a paragraph for the chapter.
"""

from __future__ import annotations

import contextlib
import statistics
import time
from collections.abc import Iterator
from typing import Any

from mpteach.i18n import t

SLOW_FACTOR = 3.0  # "slow" when the fused kernel takes this many times longer than unfused
SLOWER_FACTOR = 1.2  # below SLOW_FACTOR but above this: slower, and the explanation says so


@contextlib.contextmanager
def remapping(enabled: bool) -> Iterator[None]:
    """Run the block with Grappler's remapper on or off, then restore the previous setting.

    Run the calls themselves inside the block, not only the first one: a Keras train function
    picks the setting up again when it is called (measured: traced with remapping off, then
    called with it on, it is slow again).
    """
    import tensorflow as tf

    before = tf.config.optimizer.get_experimental_options().get("remapping", True)
    tf.config.optimizer.set_experimental_options({"remapping": enabled})
    try:
        yield
    finally:
        tf.config.optimizer.set_experimental_options({"remapping": before})


def _median_ms(function: Any, args: tuple, repeats: int) -> float:
    tf_nest_fetch(function(*args))  # trace, optimize, compile: not timed
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        tf_nest_fetch(function(*args))
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def tf_nest_fetch(result: Any) -> None:
    """Wait for a result by copying its tensors to the host."""
    import tensorflow as tf

    for tensor in tf.nest.flatten(result):
        tensor.numpy()


def _check_size(size: Any, low: int, high: int) -> None:
    if isinstance(size, bool) or not isinstance(size, int) or not low <= size <= high:
        raise ValueError(f"size={size!r} must be a whole number in [{low}, {high}].")


def _verdict(
    kind: str, size: int, slow_ms: float, fast_ms: float, **times: float
) -> dict[str, Any]:
    slowdown = slow_ms / fast_ms
    return {
        "kind": kind,
        "size": size,
        **times,
        "slowdown": slowdown,
        "slow": slowdown > SLOW_FACTOR,
    }


def float16_fusion_probe(size: int = 128, repeats: int = 5) -> dict[str, Any]:
    """Time one float16 Dense layer (``relu(x @ w + b)``, ``size`` x ``size``) in graph mode:
    as TensorFlow optimizes it by default, with remapping off, and with XLA.

    Returns the medians in milliseconds (``default_ms``, ``remapping_off_ms``, ``xla_ms``),
    ``slowdown`` (default / remapping off) and ``slow`` (``slowdown > SLOW_FACTOR``).
    """
    import tensorflow as tf

    _check_size(size, 8, 4096)
    x = tf.random.stateless_normal((size, size), seed=(1, 2), dtype=tf.float16)
    w = tf.random.stateless_normal((size, size), seed=(3, 4), dtype=tf.float16)
    b = tf.zeros((size,), tf.float16)

    def dense(x, w, b):
        return tf.nn.relu(tf.nn.bias_add(tf.matmul(x, w), b))

    with remapping(True):
        default_ms = _median_ms(tf.function(dense), (x, w, b), repeats)
    with remapping(False):
        unfused_ms = _median_ms(tf.function(dense), (x, w, b), repeats)
    xla_ms = _median_ms(tf.function(dense, jit_compile=True), (x, w, b), repeats)
    return _verdict(
        "fusion", size, default_ms, unfused_ms,
        default_ms=default_ms, remapping_off_ms=unfused_ms, xla_ms=xla_ms,
    )  # fmt: skip


def float16_conv_probe(size: int = 16, repeats: int = 5) -> dict[str, Any]:
    """Time the filter gradient of a 3x3 convolution (batch 8, ``size`` x ``size`` images,
    ``size`` channels in and out) in float32, in float16, and in float16 with XLA.

    Returns ``float32_ms``, ``float16_ms``, ``xla_ms``, ``slowdown`` (float16 / float32) and
    ``slow``.
    """
    import tensorflow as tf

    _check_size(size, 4, 256)

    def filter_gradient(x, w):
        with tf.GradientTape() as tape:
            tape.watch(w)
            y = tf.nn.conv2d(x, w, 1, "SAME")
        return tape.gradient(y, w)

    times = {}
    for name, dtype, xla in (("float32_ms", tf.float32, False), ("float16_ms", tf.float16, False),
                             ("xla_ms", tf.float16, True)):  # fmt: skip
        x = tf.random.stateless_normal((8, size, size, size), seed=(1, 2), dtype=dtype)
        w = tf.random.stateless_normal((3, 3, size, size), seed=(3, 4), dtype=dtype)
        times[name] = _median_ms(tf.function(filter_gradient, jit_compile=xla), (x, w), repeats)
    return _verdict("conv", size, times["float16_ms"], times["float32_ms"], **times)


def explain_probe(probe: dict[str, Any], lang: str | None = None) -> str:
    """What a probe measured here and what to do about it, in the course's language.

    >>> probe = {"kind": "conv", "size": 16, "float32_ms": 1.3, "float16_ms": 47.2,
    ...          "xla_ms": 0.9, "slowdown": 36.3, "slow": True}
    >>> print(explain_probe(probe, lang="en"))  # doctest: +ELLIPSIS
    TensorFlow has no fast CPU kernel ... 47.20 ms ... 1.30 ms in float32 ... 36 times slower...
    >>> slower = probe | {"float16_ms": 2.9, "slowdown": 2.2, "slow": False}
    >>> print(explain_probe(slower, lang="en"))  # doctest: +ELLIPSIS
    Here the float16 filter gradient of a convolution is 2.2 times slower than in float32: ...
    """
    kinds = {"fusion": "speed.fusion", "conv": "speed.conv"}
    if probe.get("kind") not in kinds:
        raise ValueError(f"probe kind={probe.get('kind')!r}: choose one of 'fusion', 'conv'.")
    level = "slow" if probe["slow"] else "slower" if probe["slowdown"] > SLOWER_FACTOR else "fine"
    key = f"{kinds[probe['kind']]}_{level}"
    return t(key, lang, **{k: v for k, v in probe.items() if k not in ("kind", "slow")})
