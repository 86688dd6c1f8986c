"""Real gradients for the GradientUnderflow widget, from a small Keras model (TensorFlow backend).

The model is a classifier that has mostly learned its task, where gradients get small:
``DEPTH`` hidden ``Dense`` layers of ``WIDTH`` units with ReLU, ``INPUTS`` inputs and ``CLASSES``
logits, all float32. It is trained for ``STEPS`` Adam steps (learning rate 0.01, batches of
``BATCH``) on ``EXAMPLES`` generated points labelled by a random linear teacher; it then
classifies about 95 % of them correctly (training loss about 0.2 for seed 0). Then the gradients
of the mean cross-entropy of one batch are taken:

* ``"weights"``: with respect to every weight and bias;
* ``"activations"``: with respect to the pre-activations of the hidden layers, the kind of
  values Micikevicius et al. (2018, fig. 3) plot. ReLU makes most of them exactly zero, and a
  large part of the rest lies below 2**-24, float16's smallest subnormal.

Nothing is downloaded; TensorFlow is imported only when :func:`sample_gradients` first runs
(a few seconds), and its result is kept for the rest of the session.
"""

from __future__ import annotations

from functools import cache

import numpy as np

INPUTS, CLASSES, DEPTH, WIDTH = 16, 4, 6, 64
EXAMPLES, BATCH, STEPS, LEARNING_RATE = 2048, 256, 50, 1e-2


@cache
def sample_gradients(seed: int = 0) -> dict[str, np.ndarray]:
    """``{"activations": ..., "weights": ...}``: float32 gradients of the model described above.

    The arrays are read-only (they are shared by every caller). The same seed gives the same
    data, initial weights and training run.
    """
    import keras
    import tensorflow as tf

    rng = np.random.default_rng(seed)
    x = rng.normal(size=(EXAMPLES, INPUTS)).astype("float32")
    teacher = rng.normal(size=(INPUTS, CLASSES)).astype("float32")
    y = np.argmax(x @ teacher, axis=1)

    def dense(units: int, index: int) -> keras.layers.Dense:
        # float32 always: a global mixed policy set in the notebook must not change the model
        init = keras.initializers.GlorotUniform(seed=seed * 1000 + index)
        return keras.layers.Dense(units, kernel_initializer=init, dtype="float32")

    hidden = [dense(WIDTH, i) for i in range(DEPTH)]
    output = dense(CLASSES, DEPTH)
    model = keras.Sequential([keras.Input((INPUTS,)), *hidden, output])  # builds the weights
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    optimizer = keras.optimizers.Adam(LEARNING_RATE)

    def forward(inputs: tf.Tensor) -> tuple[tf.Tensor, list[tf.Tensor]]:
        pre_activations = []
        h = inputs
        for layer in hidden:
            z = layer(h)
            pre_activations.append(z)
            h = tf.nn.relu(z)
        return output(h), pre_activations

    @tf.function
    def train_step(xb: tf.Tensor, yb: tf.Tensor) -> None:
        with tf.GradientTape() as tape:
            loss = loss_fn(yb, forward(xb)[0])
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply(grads, model.trainable_variables)

    for step in range(STEPS):
        start = step * BATCH % EXAMPLES
        train_step(x[start : start + BATCH], y[start : start + BATCH])

    with tf.GradientTape() as tape:
        logits, pre_activations = forward(tf.constant(x[:BATCH]))
        loss = loss_fn(y[:BATCH], logits)
    weights = model.trainable_variables
    grads = tape.gradient(loss, weights + pre_activations)
    result = {
        "activations": np.concatenate([g.numpy().ravel() for g in grads[len(weights) :]]),
        "weights": np.concatenate([g.numpy().ravel() for g in grads[: len(weights)]]),
    }
    for values in result.values():
        values.flags.writeable = False
    return result
