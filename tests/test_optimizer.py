"""mpteach.LossScaleOptimizer against keras.optimizers.LossScaleOptimizer (Keras 3).

The heart: random sequences of finite and non-finite gradients go through both optimizers, step
by step, eagerly and in ``tf.function``, and the loss scale, the counter, the skipped steps, the
variables, the inner optimizer's slots and ``iterations`` must agree exactly. Then the cases of
Keras's own ``loss_scale_optimizer_test.py``, Keras 2's legacy API (as the TensorFlow 2.x mixed precision guide and LossScaleOptimizer page used it), checkpoints
and bad arguments. The MirroredStrategy test lives in ``test_core_distribution.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

tf = pytest.importorskip("tensorflow")
keras = pytest.importorskip("keras")

from mpteach.loss_scale import update_loss_scale  # noqa: E402
from mpteach.optimizer import LossScaleOptimizer  # noqa: E402

pytestmark = pytest.mark.keras

SHAPES = [(3,), (2, 2)]


class Pair:
    """An mpteach and a Keras LossScaleOptimizer with identical variables, stepped together.

    Built once per (growth steps, eager or tf.function) and reset between examples, so that
    hypothesis does not pay for a new trace per example.
    """

    def __init__(self, growth_steps: int, function: bool):
        def inner():
            return keras.optimizers.SGD(0.01, momentum=0.9)

        self.ours = LossScaleOptimizer(inner(), dynamic_growth_steps=growth_steps)
        self.theirs = keras.optimizers.LossScaleOptimizer(
            inner(), dynamic_growth_steps=growth_steps
        )
        self.start = [np.linspace(-1, 1, np.prod(s), dtype="float32").reshape(s) for s in SHAPES]
        self.vars_ours = [tf.Variable(v) for v in self.start]
        self.vars_theirs = [tf.Variable(v) for v in self.start]
        self.ours.build(self.vars_ours)
        self.theirs.build(self.vars_theirs)
        self.inner_start = [v.numpy() for v in self.theirs.inner_optimizer.variables]

        def step(grads):
            self.ours.apply(grads, self.vars_ours)
            self.theirs.apply(grads, self.vars_theirs)

        self.step = tf.function(step) if function else step

    def reset(self, scale: float) -> None:
        for ours, theirs, start in zip(self.vars_ours, self.vars_theirs, self.start, strict=True):
            ours.assign(start)
            theirs.assign(start)
        for optimizer in (self.ours.inner_optimizer, self.theirs.inner_optimizer):
            for variable, start in zip(optimizer.variables, self.inner_start, strict=True):
                variable.assign(start)
        self.ours._scale.assign(scale)
        self.ours._counter.assign(0)
        self.theirs.dynamic_scale.assign(scale)
        self.theirs.step_counter.assign(0)

    def state(self, optimizer, variables):
        return {
            "scale": float(optimizer.scale_loss(1.0)),
            "counter": int(
                optimizer.dynamic_counter
                if isinstance(optimizer, LossScaleOptimizer)
                else optimizer.step_counter
            ),
            "iterations": int(optimizer.iterations),
            "variables": [v.numpy() for v in variables],
            "slots": [v.numpy() for v in optimizer.inner_optimizer.variables],
        }

    def assert_equal(self) -> dict:
        ours = self.state(self.ours, self.vars_ours)
        theirs = self.state(self.theirs, self.vars_theirs)
        assert ours["scale"] == theirs["scale"]
        assert ours["counter"] == theirs["counter"]
        assert ours["iterations"] == theirs["iterations"]
        for a, b in zip(
            ours["variables"] + ours["slots"], theirs["variables"] + theirs["slots"], strict=True
        ):
            np.testing.assert_array_equal(a, b)
        return ours


PAIRS: dict = {}


def get_pair(growth_steps: int, function: bool) -> Pair:
    if (growth_steps, function) not in PAIRS:
        PAIRS[growth_steps, function] = Pair(growth_steps, function)
    return PAIRS[growth_steps, function]


BAD = [np.inf, -np.inf, np.nan]
step_kinds = st.sampled_from(["finite"] * 3 + ["inf", "-inf", "nan"])


def gradients(kind: str, rng: np.random.Generator, scale: float) -> list:
    grads = [
        (rng.normal(size=s) * scale * 10.0 ** rng.integers(-6, 2)).astype("float32") for s in SHAPES
    ]
    if kind != "finite":
        where = rng.integers(len(SHAPES))
        grads[where].flat[rng.integers(grads[where].size)] = {
            "inf": np.inf,
            "-inf": -np.inf,
            "nan": np.nan,
        }[kind]
    return [tf.constant(g) for g in grads]


@pytest.mark.parametrize("function", [False, True], ids=["eager", "tf.function"])
@settings(
    max_examples=120,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    growth_steps=st.sampled_from([1, 2, 3, 5]),
    initial_scale=st.sampled_from([2.0**15, 400.0, 3.0, 1.0, 2.0**-3, 2.0**100]),
    kinds=st.lists(step_kinds, min_size=1, max_size=14),
    seed=st.integers(0, 2**16),
)
def test_trajectories_equal_keras(function, growth_steps, initial_scale, kinds, seed):
    pair = get_pair(growth_steps, function)
    pair.reset(initial_scale)
    rng = np.random.default_rng(seed)
    before = pair.assert_equal()
    for kind in kinds:
        pair.step(gradients(kind, rng, before["scale"]))
        after = pair.assert_equal()
        skipped = after["iterations"] == before["iterations"]
        assert skipped == (kind != "finite")
        if skipped:  # a skipped step changes nothing but the scale and the counter
            for a, b in zip(
                before["variables"] + before["slots"],
                after["variables"] + after["slots"],
                strict=True,
            ):
                np.testing.assert_array_equal(a, b)
        # ... and the state follows the one rule, mpteach.loss_scale.update_loss_scale.
        assert (after["scale"], after["counter"]) == update_loss_scale(
            before["scale"], before["counter"], kind == "finite", growth_steps
        )
        before = after


# ---- Keras's loss_scale_optimizer_test.py -----------------------------------------------


def sgd(**kwargs):
    return keras.optimizers.SGD(learning_rate=0.5, **kwargs)


GRADS = [1.0, 6.0, 7.0, 2.0]
EXPECTED = [0.5, -1.0, -0.5, 3.0]


@pytest.fixture(params=[False, True], ids=["eager", "tf.function"])
def run(request):
    return tf.function if request.param else (lambda fn: fn)


def test_finite_step(run):
    optimizer = LossScaleOptimizer(sgd())
    variables = [tf.Variable([1.0, 2.0, 3.0, 4.0])]
    run(optimizer.apply)([tf.constant(GRADS) * optimizer.initial_scale], variables)
    np.testing.assert_allclose(variables[0].numpy(), EXPECTED, rtol=1e-6)


def test_apply_with_no_vars_after_build():
    optimizer = LossScaleOptimizer(sgd())
    variables = [tf.Variable([1.0, 2.0, 3.0, 4.0])]
    optimizer.build(variables)
    optimizer.apply([tf.constant(GRADS) * optimizer.initial_scale])
    np.testing.assert_allclose(variables[0].numpy(), EXPECTED, rtol=1e-6)


def test_apply_with_no_vars_before_build_is_an_error():
    with pytest.raises(ValueError, match="needs build"):
        LossScaleOptimizer(sgd()).apply([tf.constant(GRADS)])


def test_finite_step_with_inner_loss_scale(run):
    # The inner optimizer's own loss_scale_factor is switched off, as in Keras.
    inner = sgd(loss_scale_factor=100)
    optimizer = LossScaleOptimizer(inner)
    assert inner.loss_scale_factor is None
    variables = [tf.Variable([1.0, 2.0, 3.0, 4.0])]
    run(optimizer.apply)([tf.constant(GRADS) * optimizer.initial_scale], variables)
    np.testing.assert_allclose(variables[0].numpy(), EXPECTED, rtol=1e-6)


def test_infinite_step(run):
    optimizer = LossScaleOptimizer(sgd())
    variables = [tf.Variable([1.0, 2.0, 3.0, 4.0])]
    run(optimizer.apply)([tf.constant([np.inf] * 4)], variables)
    np.testing.assert_array_equal(variables[0].numpy(), [1.0, 2.0, 3.0, 4.0])
    assert int(optimizer.iterations) == 0  # Keras 3: a skipped step is not counted


def test_finite_step_with_overwrite(run):
    variables = [tf.Variable([1.0, 2.0, 3.0, 4.0])]
    variables[0].overwrite_with_gradient = True
    optimizer = LossScaleOptimizer(sgd())
    run(optimizer.apply)([tf.constant(GRADS)], variables)
    np.testing.assert_array_equal(variables[0].numpy(), GRADS)  # no unscaling


def test_downscaling(run):
    optimizer = LossScaleOptimizer(sgd(), initial_scale=400.0)
    variables = [tf.Variable([1.0, 2.0, 3.0, 4.0])]
    apply = run(optimizer.apply)
    for _ in range(4):
        apply([tf.constant([np.inf] * 4)], variables)
    assert float(optimizer.scale_loss(1.0)) == 25.0


def test_upscaling(run):
    optimizer = LossScaleOptimizer(sgd(), initial_scale=2.0, dynamic_growth_steps=2)
    variables = [tf.Variable([1.0, 2.0, 3.0, 4.0])]
    apply = run(optimizer.apply)
    for _ in range(8):
        apply([tf.constant([1.0, 6.0, 7.0, 2.0])], variables)
    assert float(optimizer.scale_loss(1.0)) == 32.0


def test_iterations_update(run):
    optimizer = LossScaleOptimizer(sgd())
    variables = [tf.Variable([1.0, 2.0, 3.0, 4.0])]
    apply = run(optimizer.apply)
    assert int(optimizer.iterations) == 0
    for expected in (1, 2, 3):
        apply([tf.constant(GRADS)], variables)
        assert int(optimizer.iterations) == expected


def test_serialization_like_keras():
    inner = sgd()
    ours = LossScaleOptimizer(inner, initial_scale=3.0, dynamic_growth_steps=2, name="test_opt")
    theirs = keras.optimizers.LossScaleOptimizer(
        inner, initial_scale=3.0, dynamic_growth_steps=2, name="test_opt"
    )
    config = ours.get_config()
    assert config == theirs.get_config()
    assert len(config) == 4
    assert (config["name"], config["initial_scale"], config["dynamic_growth_steps"]) == (
        "test_opt",
        3.0,
        2,
    )
    again = LossScaleOptimizer.from_config(config)
    assert again.get_config() == config
    assert isinstance(again.inner_optimizer, keras.optimizers.SGD)
    # The configs are the same, so each class loads the other's.
    assert keras.optimizers.LossScaleOptimizer.from_config(dict(config)).initial_scale == 3.0


def test_config_of_inner_optimizer_round_trips():
    # Keras test_config: SGD(0.5, momentum=0.06, nesterov=True, weight_decay=0.004).
    inner = keras.optimizers.SGD(0.5, momentum=0.06, nesterov=True, weight_decay=0.004)
    again = LossScaleOptimizer.from_config(LossScaleOptimizer(inner).get_config())
    assert again.inner_optimizer.get_config() == inner.get_config()


def test_defaults_are_keras_defaults():
    ours, theirs = LossScaleOptimizer(sgd()), keras.optimizers.LossScaleOptimizer(sgd())
    assert (ours.initial_scale, ours.dynamic_growth_steps) == (
        theirs.initial_scale,
        theirs.dynamic_growth_steps,
    )
    assert (ours.initial_scale, ours.dynamic_growth_steps) == (2.0**15, 2000)
    assert float(ours.loss_scale) == 32768.0 and int(ours.dynamic_counter) == 0


def test_scale_loss_like_keras():
    ours, theirs = LossScaleOptimizer(sgd()), keras.optimizers.LossScaleOptimizer(sgd())
    # Before its first apply, Keras multiplies by a Python float and keeps a float16 loss's dtype:
    # 2 * 2**15 overflows to inf. Once built, it multiplies by a float32 variable (float32 result).
    assert np.isinf(theirs.scale_loss(tf.constant(2.0, tf.float16)).numpy())
    theirs.build([tf.Variable(1.0)])
    for loss in (
        2.0,
        tf.constant(2.0, tf.float16),
        tf.constant(3.0, tf.bfloat16),
        tf.constant(1.0, tf.float64),
    ):
        got, want = ours.scale_loss(loss), theirs.scale_loss(loss)
        assert got.dtype == want.dtype
        assert float(got) == float(want)
    assert ours.scale_loss(tf.constant(4.0, tf.float16)).dtype == tf.float32  # mpteach: always
    assert float(ours.scale_loss(tf.constant(4.0, tf.float16))) == 131072.0  # > float16's 65504


def test_learning_rate_and_iterations_are_the_inner_optimizers():
    optimizer = LossScaleOptimizer(sgd())
    optimizer.learning_rate = 0.25
    assert float(optimizer.inner_optimizer.learning_rate) == 0.25 == float(optimizer.learning_rate)
    assert optimizer.iterations is optimizer.inner_optimizer.iterations


def test_apply_gradients_takes_pairs():
    optimizer = LossScaleOptimizer(sgd(), initial_scale=2.0)
    w = tf.Variable([1.0, 2.0])
    optimizer.apply_gradients(zip([tf.constant([2.0, 4.0])], [w], strict=True))
    np.testing.assert_array_equal(w.numpy(), [0.5, 1.0])


@pytest.mark.filterwarnings("ignore:Gradients do not exist")  # Keras's note on the None
def test_none_gradients_are_allowed():
    optimizer = LossScaleOptimizer(sgd(), initial_scale=2.0)
    w, unused = tf.Variable([1.0]), tf.Variable([5.0])
    optimizer.apply([tf.constant([2.0]), None], [w, unused])
    assert w.numpy()[0] == 0.5 and unused.numpy()[0] == 5.0


def test_sparse_gradients_are_unscaled_and_checked():
    optimizer = LossScaleOptimizer(sgd(), initial_scale=2.0)
    table = tf.Variable([[1.0, 1.0], [2.0, 2.0]])
    optimizer.apply(
        [tf.IndexedSlices(tf.constant([[2.0, 2.0]]), tf.constant([1]), tf.constant([2, 2]))],
        [table],
    )
    np.testing.assert_array_equal(table.numpy(), [[1.0, 1.0], [1.5, 1.5]])
    optimizer.apply(
        [tf.IndexedSlices(tf.constant([[np.nan, 2.0]]), tf.constant([0]), tf.constant([2, 2]))],
        [table],
    )
    np.testing.assert_array_equal(table.numpy(), [[1.0, 1.0], [1.5, 1.5]])
    assert float(optimizer.loss_scale) == 1.0


def test_float16_gradients_are_unscaled_in_float32_like_keras():
    # 2**-20 * 2**15 is a normal float16; divided back in float16 it would be a subnormal.
    ours = LossScaleOptimizer(keras.optimizers.SGD(1.0), initial_scale=2.0**15)
    theirs = keras.optimizers.LossScaleOptimizer(keras.optimizers.SGD(1.0), initial_scale=2.0**15)
    grad = tf.constant([2.0**-20 * 2.0**15, 3.0], tf.float16)
    w_ours, w_theirs = tf.Variable([0.0, 0.0]), tf.Variable([0.0, 0.0])
    ours.apply([grad], [w_ours])
    theirs.apply([grad], [w_theirs])
    np.testing.assert_array_equal(w_ours.numpy(), w_theirs.numpy())
    assert w_ours.numpy()[0] == -(2.0**-20)


def test_skipped_step_leaves_every_slot_and_iterations_bit_identical():
    optimizer = LossScaleOptimizer(keras.optimizers.Adam(0.1))
    w = tf.Variable([1.0, -2.0])
    optimizer.apply([tf.constant([1.0, 1.0]) * optimizer.initial_scale], [w])
    before = [v.numpy().tobytes() for v in [w, *optimizer.inner_optimizer.variables]]
    optimizer.apply([tf.constant([np.nan, 1.0])], [w])
    after = [v.numpy().tobytes() for v in [w, *optimizer.inner_optimizer.variables]]
    assert before == after
    assert float(optimizer.loss_scale) == 2.0**14 and int(optimizer.dynamic_counter) == 0


def test_scale_has_no_bounds_like_keras():
    # Keras 3 has no floor (Keras 2 stopped at 1) and no overflow check when growing.
    optimizer = LossScaleOptimizer(sgd(), initial_scale=1.0, dynamic_growth_steps=1)
    w = tf.Variable([1.0])
    optimizer.apply([tf.constant([np.inf])], [w])
    assert float(optimizer.loss_scale) == 0.5
    optimizer._scale.assign(2.0**127)
    optimizer.apply([tf.constant([1.0])], [w])
    assert np.isinf(float(optimizer.loss_scale))


def test_apply_in_cross_replica_context_is_an_error():
    optimizer = LossScaleOptimizer(sgd())
    strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
    with strategy.scope():
        w = tf.Variable([1.0])
        with pytest.raises(ValueError, match="replica context"):
            optimizer.apply([tf.constant([1.0])], [w])


def test_checkpoint_saves_and_restores_the_state(tmp_path):
    def make():
        return LossScaleOptimizer(
            keras.optimizers.SGD(0.1, momentum=0.9), initial_scale=8.0, dynamic_growth_steps=3
        )

    optimizer, w = make(), tf.Variable([1.0, 2.0])
    for grad in ([8.0, 8.0], [np.inf, 0.0], [4.0, 4.0], [4.0, 4.0]):
        optimizer.apply([tf.constant(grad)], [w])
    saved = (
        float(optimizer.loss_scale),
        int(optimizer.dynamic_counter),
        int(optimizer.iterations),
        w.numpy(),
    )
    saved_slots = [v.numpy() for v in optimizer.inner_optimizer.variables]
    assert saved[:3] == (4.0, 2, 3)
    path = tf.train.Checkpoint(optimizer=optimizer, w=w).save(str(tmp_path / "ckpt"))

    for grad in ([np.nan, 0.0], [4.0, 4.0], [4.0, 4.0]):  # change everything
        optimizer.apply([tf.constant(grad)], [w])
    tf.train.Checkpoint(optimizer=optimizer, w=w).restore(path).assert_consumed()
    assert (
        float(optimizer.loss_scale),
        int(optimizer.dynamic_counter),
        int(optimizer.iterations),
    ) == saved[:3]

    # A fresh optimizer (built on the variables) gets the same state back.
    fresh, w2 = make(), tf.Variable([0.0, 0.0])
    fresh.build([w2])
    tf.train.Checkpoint(optimizer=fresh, w=w2).restore(path).assert_consumed()
    assert (float(fresh.loss_scale), int(fresh.dynamic_counter), int(fresh.iterations)) == saved[:3]
    np.testing.assert_array_equal(w2.numpy(), saved[3])
    for a, b in zip(saved_slots, fresh.inner_optimizer.variables, strict=True):
        np.testing.assert_array_equal(a, b.numpy())


# ---- Keras 2's legacy API (the TensorFlow 2.x guide's custom loop) -----------------------


def test_keras_2_custom_loop_with_get_scaled_loss_and_get_unscaled_gradients():
    opt = LossScaleOptimizer(keras.optimizers.SGD(0.25))
    var = tf.Variable(1.0)
    for expected in (0.5, 0.25):
        with tf.GradientTape() as tape:
            loss = var**2
            scaled_loss = opt.get_scaled_loss(loss)
        scaled_grad = tape.gradient(scaled_loss, var)
        (grad,) = opt.get_unscaled_gradients([scaled_grad])
        opt.apply_gradients([(grad, var)])  # must not unscale a second time
        assert var.numpy() == expected


def test_legacy_and_keras_3_loops_give_the_same_variables(run):
    def train(legacy):
        opt, var = (
            LossScaleOptimizer(
                keras.optimizers.SGD(0.1), initial_scale=4.0, dynamic_growth_steps=2
            ),
            tf.Variable([1.0, -1.0]),
        )

        def step(x):
            with tf.GradientTape() as tape:
                scaled = (
                    opt.get_scaled_loss(tf.reduce_sum(var * x))
                    if legacy
                    else opt.scale_loss(tf.reduce_sum(var * x))
                )
            grads = tape.gradient(scaled, [var])
            if legacy:
                grads = opt.get_unscaled_gradients(grads)
            opt.apply_gradients(zip(grads, [var], strict=True))

        step = run(step)
        for x in ([1.0, 2.0], [np.inf, 1.0], [3.0, -1.0], [0.5, 0.5], [2.0, 2.0]):
            step(tf.constant(x))
        return var.numpy(), float(opt.loss_scale), int(opt.iterations)

    legacy, modern = train(True), train(False)
    np.testing.assert_array_equal(legacy[0], modern[0])
    assert legacy[1:] == modern[1:] == (4.0, 4)


def test_get_unscaled_gradients_keeps_none_and_divides_by_the_scale():
    # Keras 2 loss_scale_optimizer_test: scale 2, [3, None, -4 (float16)] -> [1.5, None, -2].
    opt = LossScaleOptimizer(sgd(), initial_scale=2.0)
    grads = opt.get_unscaled_gradients([tf.constant(3.0), None, tf.constant(-4.0, tf.float16)])
    assert float(grads[0]) == 1.5 and grads[1] is None and float(grads[2]) == -2.0
    # Keras 2 returned float16 for a float16 gradient; mpteach unscales in float32, as Keras 3 does.
    assert grads[2].dtype == tf.float32


def test_get_unscaled_gradients_after_apply_would_unscale_twice_and_is_refused():
    opt, w = LossScaleOptimizer(sgd(), initial_scale=2.0), tf.Variable([1.0])
    opt.apply([tf.constant([2.0])], [w])  # Keras 3 style: apply unscales
    with pytest.raises(RuntimeError, match="twice"):
        opt.get_unscaled_gradients([tf.constant([2.0])])


def test_unscaling_the_same_gradients_twice_is_refused():
    opt = LossScaleOptimizer(sgd(), initial_scale=2.0)
    grads = opt.get_unscaled_gradients([tf.constant([2.0])])
    with pytest.raises(RuntimeError, match="already unscaled"):
        opt.get_unscaled_gradients(grads)


def test_legacy_loop_still_skips_non_finite_steps():
    opt, w = LossScaleOptimizer(sgd(), initial_scale=2.0), tf.Variable([1.0])
    grads = opt.get_unscaled_gradients([tf.constant([np.inf])])
    opt.apply_gradients(zip(grads, [w], strict=True))
    assert w.numpy()[0] == 1.0 and float(opt.loss_scale) == 1.0


def test_fixed_loss_scale_like_keras_2():
    # Keras 2 test: a fixed scale of 10; loss = var (gradient 1), lr 2: 5 -> 3.
    opt = LossScaleOptimizer(keras.optimizers.SGD(2.0), initial_scale=10.0, dynamic=False)
    var = tf.Variable(5.0)
    with tf.GradientTape() as tape:
        scaled = opt.get_scaled_loss(var * 1.0)
    assert float(scaled) == 50.0
    grad = tape.gradient(scaled, var)
    assert float(grad) == 10.0
    opt.apply([grad], [var])
    assert var.numpy() == 3.0
    assert opt.dynamic_counter is None and opt.dynamic_growth_steps is None and not opt.dynamic
    # As in Keras 2 (and Keras 3's loss_scale_factor), a fixed scale checks nothing: an inf
    # gradient is applied and the scale never changes.
    opt.apply([tf.constant(np.inf)], [var])
    assert np.isinf(var.numpy()) and float(opt.loss_scale) == 10.0
    assert opt.get_config()["dynamic"] is False
    assert LossScaleOptimizer.from_config(opt.get_config()).initial_scale == 10.0


# ---- bad arguments ------------------------------------------------------------------------


@pytest.mark.parametrize("inner", [1, "sgd", None, keras.layers.Dense(1)])
def test_inner_must_be_a_keras_optimizer(inner):
    with pytest.raises(TypeError, match="inner_optimizer must be a keras.optimizers.Optimizer"):
        LossScaleOptimizer(inner)


def test_cannot_wrap_a_loss_scale_optimizer():
    with pytest.raises(TypeError, match="cannot wrap another"):
        LossScaleOptimizer(LossScaleOptimizer(sgd()))
    with pytest.raises(TypeError, match="cannot wrap another"):
        LossScaleOptimizer(keras.optimizers.LossScaleOptimizer(sgd()))


@pytest.mark.parametrize("scale", [0, -1.0, np.inf, -np.inf, np.nan, "big", True, None])
def test_initial_scale_must_be_positive_and_finite(scale):
    with pytest.raises(
        ValueError, match=f"initial_scale must be a positive finite number.*{scale!r}"
    ):
        LossScaleOptimizer(sgd(), initial_scale=scale)


@pytest.mark.parametrize("steps", [0, -3, 1.5, 2.0, "2", True, None])
def test_growth_steps_must_be_a_positive_integer(steps):
    with pytest.raises(ValueError, match="dynamic_growth_steps must be an integer >= 1"):
        LossScaleOptimizer(sgd(), dynamic_growth_steps=steps)


def test_numpy_integers_are_fine():
    assert (
        LossScaleOptimizer(
            sgd(), initial_scale=np.float32(8), dynamic_growth_steps=np.int64(3)
        ).dynamic_growth_steps
        == 3
    )


@pytest.mark.parametrize("dynamic", ["yes", 1, None])
def test_dynamic_must_be_a_bool(dynamic):
    with pytest.raises(TypeError, match="dynamic must be True or False"):
        LossScaleOptimizer(sgd(), dynamic=dynamic)


def test_unknown_arguments_are_named():
    # Keras 3: "does not support arguments: `foo`"; mpteach has no **kwargs to swallow them.
    with pytest.raises(TypeError, match="unexpected keyword argument 'foo'"):
        LossScaleOptimizer(sgd(), foo=True)


def test_fixed_scale_takes_no_growth_steps():
    with pytest.raises(ValueError, match="must be None when dynamic=False"):
        LossScaleOptimizer(sgd(), dynamic=False, dynamic_growth_steps=5)


def test_gradients_and_variables_must_pair_up():
    with pytest.raises(ValueError, match="2 gradients for 1 variables"):
        LossScaleOptimizer(sgd()).apply([tf.constant(1.0), tf.constant(1.0)], [tf.Variable(1.0)])


@pytest.mark.parametrize("legacy", [False, True])
def test_minimize_is_the_tape_step_of_keras(legacy):
    """Keras 2's ``minimize`` scaled and unscaled by itself; ours equals a Keras 3 tape step."""
    x = tf.constant([[1.0, -2.0], [0.5, 3.0]])
    ours_w, theirs_w = tf.Variable([[0.3], [-0.2]]), tf.Variable([[0.3], [-0.2]])
    ours = LossScaleOptimizer(keras.optimizers.Adam(0.1), initial_scale=1024.0)
    theirs = keras.optimizers.LossScaleOptimizer(keras.optimizers.Adam(0.1), initial_scale=1024.0)
    if legacy:  # a Keras 2 style optimizer must still unscale exactly once
        ours.get_unscaled_gradients([tf.constant(1.0)])
    for _ in range(3):
        loss = ours.minimize(lambda: tf.reduce_sum((x @ ours_w) ** 2), [ours_w])
        with tf.GradientTape() as tape:
            expected = tf.reduce_sum((x @ theirs_w) ** 2)
            scaled = theirs.scale_loss(expected)
        theirs.apply(tape.gradient(scaled, [theirs_w]), [theirs_w])
        assert float(loss) == float(expected)
        np.testing.assert_array_equal(ours_w.numpy(), theirs_w.numpy())
    assert float(ours.loss_scale) == float(theirs.dynamic_scale) == 1024.0


def test_minimize_skips_an_overflowing_step():
    w = tf.Variable(1.0)
    optimizer = LossScaleOptimizer(keras.optimizers.SGD(0.1), initial_scale=2.0)
    optimizer.minimize(lambda: w * float("inf"), [w])
    assert w.numpy() == 1.0 and float(optimizer.loss_scale) == 1.0
