"""mpteach.debug's tools for a live run: LossScaleAlarm warns, stops and names the culprit on real
fits; headroom measures each layer's values against float16's and bfloat16's ranges, checked
against Keras's own outputs and gradients."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("tensorflow")
import keras  # noqa: E402
import tensorflow as tf  # noqa: E402
from sklearn.datasets import load_digits  # noqa: E402

from mpteach import debug, i18n  # noqa: E402

pytestmark = pytest.mark.keras
X, Y = load_digits(return_X_y=True)
X = (X / 16).astype("float32")  # the real digits, 1797 images of 8×8 pixels


def digits_model(policy: str, kernel_gain: float = 1.0) -> keras.Model:
    """A small classifier of the digits under ``policy``, trained one epoch in float32 first (so
    its weights are real), its first kernel then multiplied by ``kernel_gain``."""
    keras.utils.set_random_seed(0)
    previous = keras.config.dtype_policy()
    keras.config.set_dtype_policy(policy)
    model = keras.Sequential(
        [
            keras.Input((64,)),
            keras.layers.Dense(64, activation="relu", name="wide"),
            keras.layers.Dense(10, name="logits"),
            keras.layers.Activation("softmax", dtype="float32", name="probs"),
        ]
    )
    keras.config.set_dtype_policy(previous)
    trained = keras.Sequential(
        [keras.Input((64,)), keras.layers.Dense(64, activation="relu"), keras.layers.Dense(10)]
    )
    trained.compile(keras.optimizers.Adam(1e-2), keras.losses.SparseCategoricalCrossentropy(True))
    trained.fit(X, Y, epochs=1, verbose=0)
    weights = trained.get_weights()
    weights[0] = weights[0] * kernel_gain
    model.set_weights(weights)
    return model


def fit_with(alarm, model, loss="sparse_categorical_crossentropy", learning_rate=0.01):
    """One epoch of ``fit`` with ``alarm``, in order; the alarm's warnings."""
    model.compile(keras.optimizers.SGD(learning_rate), loss)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model.fit(X, Y, batch_size=32, epochs=1, verbose=0, shuffle=False, callbacks=[alarm])
    return [str(w.message) for w in caught if issubclass(w.category, debug.LossScaleWarning)]


def test_a_model_that_overflows_at_every_scale_sounds_the_alarm_and_names_the_layer():
    """A first kernel 60000 times too large: float16 overflows in `wide` whatever the scale."""
    alarm = debug.LossScaleAlarm(x=X, batch_size=32)
    messages = fit_with(alarm, digits_model("mixed_float16", kernel_gain=60000.0))
    kinds = [kind for _, kind, _ in alarm.alarms]
    assert kinds[:2] == ["halvings", "below"], kinds  # 2^15 → 2^10, then below 1 at batch 15
    assert alarm.alarms[0][0] == 4  # the fifth halving in a row
    assert len(messages) == len(alarm.alarms) == len(set(kinds))  # each alarm once
    assert "wide (Dense, computing in float16)" in messages[0]
    assert "On batch 0 of x" in messages[0]
    assert alarm.scale[-1] < 1 and alarm.skipped == len(alarm.iterations) - 1


def test_stop_ends_fit_at_the_first_alarm():
    alarm = debug.LossScaleAlarm(stop=True)
    messages = fit_with(alarm, digits_model("mixed_float16", kernel_gain=60000.0))
    assert len(alarm.iterations) == 1 + 5  # begin, then batches 0 to 4: stopped at the alarm
    assert "Give the alarm the training inputs" in messages[0]


def test_an_overflow_in_the_backward_pass_is_told_apart():
    """A loss 10^6 times too large: every output is finite, the gradients overflow float16 (no
    update is applied, so that the weights stay those of a model whose outputs fit)."""
    alarm = debug.LossScaleAlarm(x=X, batch_size=32, max_halvings=3)

    def huge(y, p):
        return 1e6 * keras.losses.sparse_categorical_crossentropy(y, p)

    messages = fit_with(alarm, digits_model("mixed_float16"), loss=huge, learning_rate=0.0)
    assert alarm.alarms and "the inf or NaN arises in the backward pass" in messages[0]
    assert debug.first_non_finite(alarm.model, X[:32]) is None


def test_a_healthy_run_is_quiet_and_a_skip_rate_is_counted():
    alarm = debug.LossScaleAlarm(x=X)
    assert fit_with(alarm, digits_model("mixed_float16")) == []
    assert alarm.alarms == [] and alarm.skipped == 0
    strict = debug.LossScaleAlarm(max_skip_rate=0.0, window=4, max_halvings=99, min_scale=1e-30)
    fit_with(strict, digits_model("mixed_float16", kernel_gain=60000.0))
    assert [kind for _, kind, _ in strict.alarms] == ["skips"]
    assert strict.alarms[0][0] == 3  # batches 0 to 3: the first full window of four
    assert "100% of the last 4 batches were skipped" in strict.alarms[0][2]


@pytest.mark.parametrize(
    ("argument", "value", "says"),
    [
        ("max_halvings", 0, "max_halvings must be a whole number of at least 1"),
        ("window", 2.5, "window must be a whole number"),
        ("max_skip_rate", 1.0, "max_skip_rate must be at least 0 and below 1"),
        ("min_scale", 0, "min_scale must be above 0"),
    ],
)
def test_bad_alarm_settings_are_named(argument, value, says):
    with pytest.raises(ValueError, match=says):
        debug.LossScaleAlarm(**{argument: value})


def test_headroom_sees_a_bfloat16_model_overflow_float16_before_a_step():
    model = digits_model("mixed_bfloat16", kernel_gain=60000.0)
    before = [w.copy() for w in model.get_weights()]
    model.compile("sgd", "sparse_categorical_crossentropy")
    rows = {row.path.rsplit("/", 1)[-1]: row for row in debug.headroom(model, X[:64], Y[:64])}
    assert all(np.array_equal(a, b) for a, b in zip(before, model.get_weights(), strict=True))
    assert rows["wide"].overflows("float16") and not rows["wide"].overflows("bfloat16")
    assert rows["wide"].headroom_octaves("bfloat16") > 100
    # the same peaks as Keras's own outputs of each layer
    for name in ("wide", "logits"):
        probe = keras.Model(model.inputs, model.get_layer(name).output)
        peak = float(np.max(np.abs(np.asarray(probe(X[:64]), dtype="float64"))))
        assert rows[name].activation == peak
    assert rows["probs"].gradient is None  # Keras's cross-entropy reads the softmax's logits
    table = debug.format_headroom(rows.values(), "ko")
    assert i18n.t("debug.headroom.overflow", "ko") in table


def test_headroom_gradients_follow_the_loss_scale_and_keras():
    model = digits_model("float32")
    x, y = X[:64], Y[:64]

    def loss(y_true, y_pred):
        return keras.losses.sparse_categorical_crossentropy(y_true, y_pred, from_logits=False)

    plain = {r.path: r for r in debug.headroom(model, x, y, loss=loss)}
    scaled = {r.path: r for r in debug.headroom(model, x, y, loss=loss, loss_scale=2.0**10)}
    for path, row in plain.items():
        if row.gradient is not None:
            assert scaled[path].gradient == pytest.approx(row.gradient * 2**10, rel=1e-6)
            assert all(scaled[path].lost[f] <= row.lost[f] for f in debug.HEADROOM_FORMATS)
    # Keras itself: the gradient of the same loss with respect to the hidden layer's output
    hidden = keras.Model(model.inputs, model.get_layer("wide").output)
    head = keras.Sequential([model.get_layer("logits"), model.get_layer("probs")])
    activations = tf.convert_to_tensor(hidden(x))
    with tf.GradientTape() as tape:
        tape.watch(activations)
        value = tf.reduce_mean(loss(y, head(activations)))
    expected = float(np.max(np.abs(tape.gradient(value, activations).numpy())))
    wide = next(r for p, r in plain.items() if p.endswith("wide"))
    assert wide.gradient == pytest.approx(expected, rel=1e-5)


def test_headroom_refuses_what_it_cannot_measure():
    with pytest.raises(TypeError, match="must be a Keras model or layer"):
        debug.headroom(lambda x: x, X[:4])
    with pytest.raises(ValueError, match="loss_scale must be above 0"):
        debug.headroom(digits_model("float32"), X[:4], loss_scale=0)
