"""mpteach.debug: the float32 table is measured on the installed Keras, the first non-finite
layer is found, and the loss-scale history of a real fit is recorded."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("tensorflow")
import keras  # noqa: E402
from keras import ops  # noqa: E402

from mpteach import debug, i18n  # noqa: E402

pytestmark = pytest.mark.keras


@pytest.fixture(scope="module")
def table():
    return {row.name: row for row in debug.float32_table()}


def test_the_probe_overflows_float16_where_the_table_says(table):
    x = debug.probe_input()
    assert np.array_equal(x.astype("float16").astype("float32"), x)  # float16 holds the inputs
    with np.errstate(over="ignore"):
        assert np.isinf(np.float16(x) * np.float16(x)).all()  # ... but not one of their squares
        for row in table.values():
            assert row.fits_float16 == (row.peak < 65520) == np.isfinite(np.float16(row.peak))


@pytest.mark.parametrize(
    "name",
    [
        "BatchNormalization",
        "LayerNormalization",
        "GroupNormalization",
        "RMSNormalization",
        "losses.MeanSquaredError",
    ],
)
def test_keras_computes_these_statistics_in_float32(table, name):
    row = table[name]
    assert not row.fits_float16 and row.finite and row.same
    assert row.float32_inside == "yes"


@pytest.mark.parametrize(
    ("name", "finite"),
    [
        ("UnitNormalization", True),
        ("MultiHeadAttention", False),
        ("metrics.MeanSquaredError", False),
    ],
)
def test_these_overflow_in_float16(table, name, finite):
    row = table[name]
    assert not row.fits_float16 and not row.same and row.finite == finite
    assert row.float32_inside == "no"


def test_dense_and_softmax_fit_float16_so_the_probe_cannot_tell(table):
    for name in ("Dense", "Softmax"):
        row = table[name]
        assert row.fits_float16 and row.same and row.float32_inside == "-"


def test_dtypes_are_what_keras_reports(table):
    assert (
        table["LayerNormalization"].compute_dtype,
        table["LayerNormalization"].output_dtype,
    ) == (
        "float16",
        "float16",
    )
    # a loss and a metric follow floatx, not the policy: both report float32
    for name in ("losses.MeanSquaredError", "metrics.MeanSquaredError"):
        assert (table[name].compute_dtype, table[name].output_dtype) == ("float32", "float32")


def test_the_verdict_follows_the_numbers():
    row = debug.Float32Row("X", "float16", "float16", "x²", 1e5, finite=True, same=True)
    assert row.float32_inside == "yes"
    assert (
        debug.Float32Row("X", "float16", "float16", "x²", 1e5, False, False).float32_inside == "no"
    )
    assert debug.Float32Row("X", "float16", "float16", "x²", 10.0, True, True).float32_inside == "-"
    assert (
        debug.Float32Row("X", "float16", "float16", "x²", 10.0, True, False).float32_inside == "no"
    )


def test_the_global_policy_is_left_alone_and_bad_arguments_are_refused():
    keras.config.set_dtype_policy("mixed_bfloat16")
    try:
        rows = debug.float32_table(["Softmax"])
        assert [r.name for r in rows] == ["Softmax"]
        assert keras.config.dtype_policy().name == "mixed_bfloat16"
    finally:
        keras.config.set_dtype_policy("float32")
    with pytest.raises(ValueError, match="'Conv9D' is not probed; choose from 'Dense'"):
        debug.float32_table(["Conv9D"])
    with pytest.raises(ValueError, match="policy='mixed_bfloat16'"):
        debug.float32_table(policy="mixed_bfloat16")


def test_the_text_table_is_aligned_in_every_language(table):
    rows = list(table.values())
    english = debug.format_float32_table(rows, "en").splitlines()
    assert english[0].startswith("layer, loss or metric")
    assert "LayerNormalization" in english[5] and english[5].endswith("yes")
    assert "1.02e+05" in english[7]  # RMSNormalization: 320² = 102400, to 3 digits
    chinese = debug.format_float32_table(rows, "zh").splitlines()
    assert "内部用 float32" in chinese[0] and chinese[5].endswith("是")
    starts = {i18n.width(line[: line.index("float16")]) for line in chinese[1:9]}
    assert len(starts) == 1  # the dtype column starts at the same place on every row


class NaiveStandardize(keras.layers.Layer):
    """Variance as E[x²] − E[x]²: fine in float32, inf − inf in float16."""

    def call(self, x):
        mean = ops.mean(x, axis=-1, keepdims=True)
        mean_square = ops.mean(ops.square(x), axis=-1, keepdims=True)
        return (x - mean) * ops.rsqrt(mean_square - ops.square(mean) + 1e-3)


def sensor_model(standardize_dtype=None):
    keras.config.set_dtype_policy("mixed_float16")
    try:
        extra = {"dtype": standardize_dtype} if standardize_dtype else {}
        return keras.Sequential(
            [
                keras.Input((8,)),
                NaiveStandardize(name="standardize", **extra),
                keras.layers.Dense(4, activation="relu", name="hidden"),
                keras.layers.Dense(1, name="head"),
                keras.layers.Activation("linear", dtype="float32", name="out"),
            ],
            name="sensors",
        )
    finally:
        keras.config.set_dtype_policy("float32")


SENSORS = np.random.default_rng(0).uniform(200, 400, size=(16, 8)).astype("float32")


def test_first_non_finite_names_the_layer_where_inf_starts():
    model = sensor_model()
    assert np.isnan(np.asarray(model(SENSORS))).all()
    found = debug.first_non_finite(model, SENSORS)
    assert found is not None
    assert (found.path, found.name, found.layer) == (
        "sensors/standardize",
        "standardize",
        "NaiveStandardize",
    )
    assert found.compute_dtype == "float16" and found.nan == SENSORS.size and found.inf == 0
    assert found.input_peak == float(np.float16(SENSORS.max()))
    assert "sensors/standardize" in str(found) and "NaN" in str(found)
    assert "sensors/standardize" in found.describe("ru")


def test_one_layer_in_float32_fixes_it_and_nothing_is_reported():
    model = sensor_model("float32")
    assert np.isfinite(np.asarray(model(SENSORS))).all()
    assert debug.first_non_finite(model, SENSORS) is None


def test_non_finite_inputs_are_not_blamed_on_a_layer():
    bad = SENSORS.copy()
    bad[0, 0] = np.inf
    assert debug.first_non_finite(sensor_model("float32"), bad) is None
    with pytest.raises(TypeError, match="Keras model or layer"):
        debug.first_non_finite("model", SENSORS)


def test_loss_scale_history_of_a_nan_run_halves_every_step():
    model = sensor_model()
    model.compile(keras.optimizers.SGD(0.01), "mse")
    history = debug.LossScaleHistory()
    y = np.zeros((16, 1), "float32")
    model.fit(SENSORS, y, batch_size=4, epochs=1, verbose=0, callbacks=[history])
    assert history.log2_scale == [15, 14, 13, 12, 11]
    assert history.iterations == [0, 0, 0, 0, 0] and history.skipped == 4
    assert history.counter == [0, 0, 0, 0, 0]


def test_loss_scale_history_of_a_healthy_run_counts_steps():
    model = sensor_model("float32")
    model.compile(
        keras.optimizers.LossScaleOptimizer(keras.optimizers.SGD(0.01), initial_scale=8.0), "mse"
    )
    history = debug.LossScaleHistory()
    y = np.zeros((16, 1), "float32")
    model.fit(SENSORS, y, batch_size=4, epochs=1, verbose=0, callbacks=[history])
    assert history.scale == [8.0] * 5 and history.counter == [0, 1, 2, 3, 4]
    assert history.iterations == [0, 1, 2, 3, 4] and history.skipped == 0


def test_loss_scale_state_of_other_optimizers():
    assert debug.loss_scale_state(keras.optimizers.SGD(loss_scale_factor=128.0)) == (128.0, 0, 0)
    assert debug.loss_scale_state(keras.optimizers.Adam()) == (1.0, 0, 0)
    fresh = keras.optimizers.LossScaleOptimizer(keras.optimizers.SGD())
    assert debug.loss_scale_state(fresh) == (32768.0, 0, 0)
