"""mpteach.LossScaleOptimizer under tf.distribute.MirroredStrategy on two logical CPU devices.

Logical devices must be configured before TensorFlow initialises, so the scenarios run in a fresh
Python process (this file, run as a script) and the test reads what it prints.

Keras 3 checks the gradients of replica 0 only and then all-reduces, so a NaN on replica 1 alone
reaches the variables there; mpteach all-reduces "is every gradient finite?" first, so one bad
replica skips the step on all of them.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.keras


def run_scenarios() -> dict:
    import tensorflow as tf

    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    import keras

    from mpteach.optimizer import LossScaleOptimizer

    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    results = {"replicas": strategy.num_replicas_in_sync}
    for mode in ("eager", "tf.function"):
        with strategy.scope():
            w = tf.Variable([1.0, 2.0])
            optimizer = LossScaleOptimizer(
                keras.optimizers.SGD(0.5, momentum=0.5), initial_scale=8.0, dynamic_growth_steps=2
            )
            # Slots (momentum) must exist before a tf.function runs under the strategy: a Keras
            # optimizer alone fails the same way if it is first built inside the function.
            optimizer.build([w])

        def replica_step(bad_replica, w=w, optimizer=optimizer):
            replica = tf.distribute.get_replica_context().replica_id_in_sync_group
            # Replica r's gradient is (r + 1) * [1, 2], scaled; one replica may hold a NaN.
            grad = tf.cast(replica + 1, tf.float32) * tf.constant([1.0, 2.0]) * optimizer.loss_scale
            grad = tf.where(replica == bad_replica, tf.constant([math.nan, 0.0]), grad)
            optimizer.apply([grad], [w])

        def step(bad_replica, replica_step=replica_step):
            strategy.run(replica_step, args=(bad_replica,))

        if mode == "tf.function":
            step = tf.function(step)
        trajectory = []
        for bad_replica in (-1, 1, 0, -1, -1, 1):
            step(tf.constant(bad_replica))
            trajectory.append(
                {
                    "bad_replica": bad_replica,
                    "w": [r.numpy().tolist() for r in strategy.experimental_local_results(w)],
                    "iterations": int(optimizer.iterations.numpy()),
                    "scale": float(optimizer.loss_scale),
                    "counter": int(optimizer.dynamic_counter),
                }
            )
        results[mode] = trajectory
    return results


def test_one_bad_replica_skips_the_step_on_all_replicas():
    # The mpteach of this checkout, even where an installed copy exists (the Colab-like env).
    root = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([root, os.environ.get("PYTHONPATH", "")])}
    result = subprocess.run(
        [sys.executable, __file__],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    results = json.loads(result.stdout.strip().splitlines()[-1])
    assert results["replicas"] == 2
    # Reference: one device, summed gradient 3 * [1, 2] (all-reduced), SGD(0.5, momentum=0.5).
    w, velocity, expected = [1.0, 2.0], [0.0, 0.0], []
    scale, counter, iterations = 8.0, 0, 0
    for bad_replica in (-1, 1, 0, -1, -1, 1):
        if bad_replica < 0:
            velocity = [0.5 * v - 0.5 * 3 * g for v, g in zip(velocity, [1.0, 2.0], strict=True)]
            w = [a + v for a, v in zip(w, velocity, strict=True)]
            iterations += 1
            scale, counter = (scale * 2, 0) if counter == 1 else (scale, counter + 1)
        else:
            scale, counter = scale / 2, 0
        expected.append({"w": w, "iterations": iterations, "scale": scale, "counter": counter})
    for mode in ("eager", "tf.function"):
        for got, want in zip(results[mode], expected, strict=True):
            assert got["w"][0] == got["w"][1], "replicas disagree"
            assert got["w"][0] == pytest.approx(want["w"], rel=1e-6), (mode, got)
            assert (got["iterations"], got["scale"], got["counter"]) == (
                want["iterations"],
                want["scale"],
                want["counter"],
            ), (mode, got)


if __name__ == "__main__":
    print(json.dumps(run_scenarios()))
