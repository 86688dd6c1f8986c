"""Per-step time of mpteach.LossScaleOptimizer against Keras's, measured in one run.

Two copies of the same model (the MLP of :func:`mpteach.bench.build_model`, same initial
weights, same data) train in a custom loop compiled with ``tf.function``: one with
``mpteach.LossScaleOptimizer(Adam)``, one with ``keras.optimizers.LossScaleOptimizer(Adam)``.
Blocks of steps alternate between the two (:func:`mpteach.bench.timing.interleaved`), and the
script prints the median time per step of each and their ratio (mpteach / Keras; the target is
<= 1.05). Nothing is asserted: speed depends on the machine, which the output names.

    .venv/bin/python benchmarks/bench_loss_scale_optimizer.py [--policy float32] [--rounds 15]

The default policy is ``mixed_bfloat16`` (fast on CPUs with AVX512-BF16/AMX); float16 graphs
on a CPU hit a slow fused kernel (see ``mpteach.bench.pitfall``) and are not offered here.
"""

from __future__ import annotations

import argparse
import statistics

import numpy as np


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--policy", choices=["mixed_bfloat16", "float32"], default="mixed_bfloat16")
    parser.add_argument("--batch-size", type=int, default=128)
    parser.add_argument("--steps", type=int, default=10, help="training steps per timed block")
    parser.add_argument("--rounds", type=int, default=40, help="timed blocks per optimizer")
    args = parser.parse_args()

    import keras
    import tensorflow as tf

    from mpteach.bench import build_model
    from mpteach.bench.timing import interleaved
    from mpteach.hardware import detect
    from mpteach.optimizer import LossScaleOptimizer

    rng = np.random.default_rng(0)
    x = tf.constant(rng.normal(size=(args.batch_size, 784)).astype("float32"))
    y = tf.constant(rng.integers(0, 10, size=args.batch_size))
    loss_fn = keras.losses.SparseCategoricalCrossentropy()

    def trainer(optimizer):
        model = build_model("dense", args.policy)
        model.set_weights(reference.get_weights())
        optimizer.build(model.trainable_variables)

        @tf.function
        def train_step():
            with tf.GradientTape() as tape:
                loss = loss_fn(y, model(x, training=True))
                scaled_loss = optimizer.scale_loss(loss)
            grads = tape.gradient(scaled_loss, model.trainable_variables)
            optimizer.apply(grads, model.trainable_variables)
            return loss

        def block():
            for _ in range(args.steps):
                loss = train_step()
            return float(loss)  # waits for the last step

        return block

    reference = build_model("dense", args.policy)
    variants = {
        "mpteach": trainer(LossScaleOptimizer(keras.optimizers.Adam(1e-3))),
        "keras": trainer(keras.optimizers.LossScaleOptimizer(keras.optimizers.Adam(1e-3))),
    }
    # Same model, weights, data and rule: both must train to the same loss.
    losses = {name: block() for name, block in variants.items()}
    seconds = interleaved(variants, repeats=args.rounds, warmup=1)

    per_step = {name: [t / args.steps for t in times] for name, times in seconds.items()}
    median = {name: statistics.median(times) for name, times in per_step.items()}
    round_ratios = [a / b for a, b in zip(per_step["mpteach"], per_step["keras"], strict=True)]
    info = detect(tensorflow=True)
    print(f"hardware: {info.label}")
    print(f"TensorFlow {tf.__version__}, Keras {keras.__version__}")
    print(
        f"model: 784-1024-1024-10 MLP, {args.policy}, Adam, batch {args.batch_size}, "
        f"{args.rounds} interleaved blocks of {args.steps} steps each"
    )
    print(
        f"loss after the first block: mpteach {losses['mpteach']:.6f}, keras {losses['keras']:.6f}"
    )
    for name in variants:
        print(f"{name:>8}: {median[name] * 1e3:8.3f} ms/step (median)")
    # Each block of mpteach runs right before one of Keras: the ratio of the pair cancels the
    # drift of a shared machine; its median over the blocks is the headline number.
    quartiles = statistics.quantiles(round_ratios, n=4)
    print(
        f"ratio mpteach/keras: {statistics.median(round_ratios):.3f} per step (median of the "
        f"{args.rounds} paired blocks; quartiles {quartiles[0]:.3f}-{quartiles[2]:.3f}; "
        f"ratio of the medians {median['mpteach'] / median['keras']:.3f}). Target: <= 1.05."
    )


if __name__ == "__main__":
    main()
