"""The loss-scale simulator: Keras's rule over many steps, and a documented model of gradients."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mpteach import simulate as sim_module
from mpteach.simulate import SETTINGS, GradientModel, compare, replay, simulate

FLAT = GradientModel(top=0.0, drift=0.0, noise=0.0, spike_rate=0.0)  # largest gradient is 1.0


@settings(max_examples=60, deadline=None)
@given(
    finite=st.lists(st.booleans(), min_size=1, max_size=300),
    growth_steps=st.integers(1, 12),
    log2_initial=st.integers(-10, 30),
)
def test_replay_follows_keras_rule_step_by_step(finite, growth_steps, log2_initial):
    """Checked against the rule as Keras's docs state it, written out independently here."""
    scale, counter = replay(finite, 2.0**log2_initial, growth_steps)
    assert len(scale) == len(counter) == len(finite) + 1
    assert (scale[0], counter[0]) == (2.0**log2_initial, 0)
    for t, ok in enumerate(finite):
        if not ok:  # skipped: halve, restart the count
            assert (scale[t + 1], counter[t + 1]) == (scale[t] / 2, 0)
        elif counter[t] == growth_steps - 1:  # growth_steps finite steps in a row: double
            assert (scale[t + 1], counter[t + 1]) == (scale[t] * 2, 0)
        else:
            assert (scale[t + 1], counter[t + 1]) == (scale[t], counter[t] + 1)


def test_simulator_applies_the_shared_rule_once_per_step(monkeypatch):
    calls = []
    rule = sim_module.update_loss_scale

    def counting_rule(*args, **kwargs):
        calls.append(args)
        return rule(*args, **kwargs)

    monkeypatch.setattr(sim_module, "update_loss_scale", counting_rule)
    simulate(steps=500, growth_steps=7)
    assert len(calls) == 500 and all(args[3] == 7 for args in calls)


def test_simulation_is_a_replay_of_its_own_overflows():
    sim = simulate(GradientModel(spike_rate=0.01), steps=5000, growth_steps=50, seed=3)
    scaled_top = sim.scale[:-1] * np.exp2(sim.top)
    np.testing.assert_array_equal(sim.finite, scaled_top <= 65504.0)
    scale, counter = replay(sim.finite, sim.initial_scale, 50)
    np.testing.assert_array_equal(scale, sim.scale)
    np.testing.assert_array_equal(counter, sim.counter)
    assert sim.skipped == np.count_nonzero(~sim.finite) > 0


def test_100k_steps_run():
    sim = simulate(steps=100_000)  # the rule runs in plain Python: ~0.1 s (timed in benchmarks/)
    assert sim.scale.shape == (100_001,) and sim.top.shape == (100_000,)


def test_sawtooth_at_the_top_of_the_band():
    sim = simulate(FLAT, steps=100, initial_scale=2**15, growth_steps=10)
    # 2**16 * 1.0 > 65504: every growth overflows once, and is undone
    assert np.flatnonzero(~sim.finite).tolist() == [10, 21, 32, 43, 54, 65, 76, 87, 98]
    assert set(sim.scale.tolist()) == {2.0**15, 2.0**16}
    assert sim.settle_step == 10
    assert sim.summary()["underflow"] == 0.0


def test_too_high_a_start_costs_one_skipped_step_per_halving():
    sim = simulate(FLAT, steps=40, initial_scale=2**30, growth_steps=2000)
    assert np.flatnonzero(~sim.finite).tolist() == list(range(15))  # 2**30 down to 2**15
    assert sim.settle_step == 15 and sim.scale[15] == 2**15


def test_too_low_a_start_costs_growth_steps_per_doubling():
    sim = simulate(FLAT, steps=200, initial_scale=1.0, growth_steps=10)
    assert sim.settle_step == 160  # 15 doublings x 10 steps, then 2**16 overflows
    assert np.flatnonzero(~sim.finite).tolist() == [160, 171, 182, 193]
    assert sim.underflow[0] > 0 and sim.underflow[150] == 0  # scale 1: the smallest grads are lost


def test_band_edges_and_underflow():
    model = GradientModel(top=-2.0, spread=30.0, drift=0.0, noise=0.0, spike_rate=0.0)
    low, high = model.band(3)
    np.testing.assert_allclose(low, 2.0 ** (-24 + 32))  # 2**-24 / 2**(-2 - 30)
    np.testing.assert_allclose(high, 65504 * 4)
    inside = simulate(model, steps=3, initial_scale=2**10, growth_steps=None)
    below = simulate(model, steps=3, initial_scale=2**2, growth_steps=None)
    assert inside.underflow.tolist() == [0.0, 0.0, 0.0]
    np.testing.assert_allclose(below.underflow, 6 / 30)  # 6 of the 30 octaves lost
    wide = GradientModel(spread=45.0)
    assert np.all(wide.band(10)[0] > wide.band(10)[1])  # wider than float16: no good scale


def test_fixed_scale_never_changes_and_skips_what_overflows():
    too_high = simulate(steps=1000, initial_scale=2.0**24, growth_steps=None)
    assert np.all(too_high.scale == 2.0**24) and np.all(too_high.counter == 0)
    assert too_high.skipped == 1000 and too_high.summary()["underflow"] is None
    too_low = simulate(steps=1000, initial_scale=1.0, growth_steps=None)
    assert too_low.summary()["underflow"] > 0.2


def test_spikes_are_skipped_steps_and_halve_the_scale():
    model = GradientModel(noise=0.0, drift=0.0, spike_rate=0.01, spike_size=60.0)
    sim = simulate(model, steps=3000, initial_scale=2**10, growth_steps=100_000)
    spikes = np.flatnonzero(sim.spikes)
    assert spikes.size > 10
    np.testing.assert_array_equal(np.flatnonzero(~sim.finite), spikes)
    assert sim.scale[-1] == 2.0 ** (10 - spikes.size)  # never grows back with such slow growth


def test_gradient_model_draws_are_reproducible_and_nested():
    a_top, a_spikes = GradientModel(spike_rate=0.01).sample(2000, seed=5)
    b_top, b_spikes = GradientModel(spike_rate=0.01).sample(2000, seed=5)
    np.testing.assert_array_equal(a_top, b_top)
    _, more = GradientModel(spike_rate=0.05).sample(2000, seed=5)
    assert np.all(more[a_spikes]) and more.sum() > a_spikes.sum()  # more spikes, the old kept


def test_why_the_defaults():
    rows = compare(steps=20_000, seed=0)
    assert set(rows) == set(SETTINGS)
    defaults = rows["defaults"]
    # frequent growth attempts: many steps lost to overflow probing
    assert rows["fast_growth"]["skipped"] > 20 * defaults["skipped"]
    # a fixed scale too high: every step overflows, training never moves
    assert rows["fixed_high"]["skipped_fraction"] == 1.0
    # a scale too low (fixed, or a low start that grows one octave per 2000 steps): underflow
    assert rows["fixed_low"]["underflow"] > 0.2 and rows["low_start"]["underflow"] > 0.05
    assert defaults["underflow"] < 0.01 and defaults["skipped_fraction"] < 0.005
    assert defaults["settle_step"] is not None and rows["low_start"]["settle_step"] is None


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [({"steps": 0}, "steps=0"), ({"steps": 2.5}, "steps=2.5"),
     ({"growth_steps": 0}, "growth_steps=0"), ({"growth_steps": 1.5}, "growth_steps=1.5"),
     ({"initial_scale": -1.0}, "initial_scale=-1.0"), ({"initial_scale": float("nan")}, "initial_scale=nan")],
)  # fmt: skip
def test_bad_arguments_name_themselves(kwargs, match):
    with pytest.raises(ValueError, match=match):
        simulate(**kwargs)


@pytest.mark.parametrize("kwargs", [{"spike_rate": 1.5}, {"spread": -1.0}, {"noise": -0.1}])
def test_bad_model_parameters_name_themselves(kwargs):
    (name,) = kwargs
    with pytest.raises(ValueError, match=rf"{name}=.*choose a value in"):
        GradientModel(**kwargs)


@pytest.mark.keras
def test_simulator_reproduces_the_optimizers_exactly():
    """Feed a simulated run's finite/non-finite sequence to mpteach's and Keras's
    LossScaleOptimizer as real gradients: all three trajectories are the same, step by step."""
    import keras
    import tensorflow as tf

    from mpteach.optimizer import LossScaleOptimizer

    model = GradientModel(noise=1.0, spike_rate=0.05)
    sim = simulate(model, steps=160, initial_scale=2.0**20, growth_steps=4, seed=11)
    assert 20 < sim.skipped < 140 and np.any(sim.scale[1:] > sim.scale[:-1])  # skips, growth

    def trajectory(optimizer, read):
        w = tf.Variable([1.0, -2.0])
        step = tf.function(lambda g: optimizer.apply([g], [w]))
        good, bad = tf.constant([0.5, 0.25]), tf.constant([0.5, np.inf])
        states = [(2.0**20, 0)]
        for finite in sim.finite:
            step(good if finite else bad)
            states.append(read(optimizer))
        return np.array([s for s, _ in states]), np.array([c for _, c in states])

    ours = trajectory(
        LossScaleOptimizer(keras.optimizers.SGD(0.1), 2.0**20, 4),
        lambda o: (float(o.loss_scale), int(o.dynamic_counter)),
    )
    theirs = trajectory(
        keras.optimizers.LossScaleOptimizer(keras.optimizers.SGD(0.1), 2.0**20, 4),
        lambda o: (float(o.dynamic_scale.numpy()), int(o.step_counter.numpy())),
    )
    for scale, counter in (ours, theirs):
        np.testing.assert_array_equal(scale, sim.scale)
        np.testing.assert_array_equal(counter, sim.counter)
