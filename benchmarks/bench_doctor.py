"""What ``mp.doctor`` costs, and what its float32 twin and training step add, measured in one run.

For a few layers of :mod:`mpteach.doctor.gallery` and two small models, the script times the
whole check and the check with one part switched off (patched to find nothing), interleaved
round-robin (:func:`mpteach.bench.timing.interleaved`), and prints the medians:

* ``check_layer``: all; without the training branch (``training=True``); without the float32
  comparisons (``float-indices``, ``numeric-divergence``, ``rounded-variable-update``);
* ``check_model``: all; without the per-layer float32 twin; without the training step.

The difference to "all" is what that part costs. Nothing is asserted: times depend on the
machine, which the output names.

    .venv/bin/python benchmarks/bench_doctor.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any
from unittest import mock

import numpy as np


def _layer_variants(name: str, check_layer: Callable, gallery: Any) -> dict[str, Callable]:
    example = gallery.EXAMPLES[name]
    inputs = example.inputs()

    def run(*patches: str) -> Callable[[], Any]:
        def check() -> Any:
            with ExitStack() as stack:
                for target in patches:
                    stack.enter_context(mock.patch(target, lambda *a, **k: []))
                return check_layer(example.layer, inputs)

        return check

    return {
        "all": run(),
        "no training branch": run("mpteach.doctor.layer._check_training"),
        "no float32 comparisons": run(
            "mpteach.doctor.layer._float_indices",
            "mpteach.doctor.layer._divergence",
            "mpteach.doctor.layer.variable_update_findings",
        ),
    }


def _transformer(keras: Any, policy: str) -> Any:
    """A small text classifier: int32 ids, embeddings, one attention block, logits into a
    from_logits loss."""
    from mpteach.doctor.diagnose import keras_policy

    with keras_policy(policy):
        ids = keras.Input((32,), dtype="int32")
        x = keras.layers.Embedding(1000, 32)(ids)
        attention = keras.layers.MultiHeadAttention(num_heads=2, key_dim=16)(x, x)
        x = keras.layers.LayerNormalization()(x + keras.layers.Dropout(0.1)(attention))
        x = keras.layers.LayerNormalization()(x + keras.layers.Dense(32, activation="relu")(x))
        x = keras.layers.GlobalAveragePooling1D()(x)
        model = keras.Model(ids, keras.layers.Dense(4)(x), name="transformer")
        model.compile("adam", keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    return model


def _model_variants(model: Any, batch: Any, check_model: Callable, hw: Any) -> dict:
    def run(*patches: str) -> Callable[[], Any]:
        def check() -> Any:
            with ExitStack() as stack:
                for target in patches:
                    stack.enter_context(mock.patch(target, lambda *a, **k: []))
                return check_model(model, sample_batch=batch, hardware=hw)

        return check

    return {
        "all": run(),
        "no float32 twin": run("mpteach.doctor.model._twin_findings"),
        "no training step": run("mpteach.doctor.model._training_findings"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="timed calls per variant")
    args = parser.parse_args()

    import keras
    import tensorflow as tf

    from mpteach import hardware
    from mpteach.bench.timing import interleaved
    from mpteach.doctor import check_layer, check_model, gallery
    from mpteach.doctor.diagnose import keras_policy

    gpu = hardware.HardwareInfo("A100", frozenset(), 8, (hardware.GPUInfo("A100", (8, 0)),))
    rng = np.random.default_rng(0)
    cases: dict[str, dict[str, Callable]] = {}
    for name in ("SimpleDense", "DropPath", "RunningRMS", "SinePositions", "TokenEmbedding"):
        cases[f"check_layer({name})"] = _layer_variants(name, check_layer, gallery)
    classifier_x = rng.standard_normal((32, 32)).astype("float32")
    for policy in ("mixed_float16", "mixed_bfloat16"):
        keras.utils.set_random_seed(0)
        with keras_policy(policy):
            classifier = gallery.classifier(softmax_dtype=None)
        classifier.compile("adam", keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        batch = (classifier_x, np.arange(32) % 16)
        cases[f"check_model(classifier, {policy})"] = _model_variants(
            classifier, batch, check_model, gpu
        )
        tokens = rng.integers(0, 1000, (16, 32)).astype("int32")
        transformer = _transformer(keras, policy)
        cases[f"check_model(transformer, {policy})"] = _model_variants(
            transformer, (tokens, np.arange(16) % 4), check_model, gpu
        )

    info = hardware.detect(tensorflow=True)
    print(f"hardware: {info.label}")
    print(f"TensorFlow {tf.__version__}, Keras {keras.__version__}")
    print(f"median of {args.rounds} interleaved calls per variant (one warm-up call each)")
    for case, variants in cases.items():
        seconds = interleaved(variants, repeats=args.rounds, warmup=1)
        median = {name: statistics.median(times) for name, times in seconds.items()}
        parts = "  ".join(f"{name} {median[name]:.3f} s" for name in variants)
        costs = "  ".join(
            f"{name.removeprefix('no ')} +{median['all'] - median[name]:.3f} s"
            for name in variants
            if name != "all"
        )
        print(f"{case}\n    {parts}\n    cost: {costs}")


if __name__ == "__main__":
    main()
