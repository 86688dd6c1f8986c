"""Real training traces: mpteach's and Keras's LossScaleOptimizer agree, and so does the simulator."""

from __future__ import annotations

import numpy as np
import pytest

from mpteach.simulate import replay

pytestmark = pytest.mark.keras


@pytest.fixture(scope="module")
def traces():
    from mpteach.traces import record_trace

    return {name: record_trace(name, steps=40) for name in ("mpteach", "keras")}


def test_a_short_run_shows_skips_and_growth(traces):
    trace = traces["mpteach"]
    assert trace.scale.shape == trace.counter.shape == (41,) and trace.finite.shape == (40,)
    assert not trace.finite[0] and trace.scale[1] == trace.scale[0] / 2  # 2**24 overflows float16
    assert trace.skipped >= 5 and trace.grown >= 2
    assert np.all(np.isfinite(trace.loss))  # skipped steps never touch the weights


def test_mpteach_and_keras_traces_agree(traces):
    ours, keras_ = traces["mpteach"], traces["keras"]
    np.testing.assert_array_equal(ours.scale, keras_.scale)
    np.testing.assert_array_equal(ours.counter, keras_.counter)
    np.testing.assert_array_equal(ours.finite, keras_.finite)
    np.testing.assert_allclose(ours.loss, keras_.loss, rtol=1e-6)


def test_the_simulator_replays_the_real_trace(traces):
    trace = traces["keras"]
    scale, counter = replay(trace.finite, trace.initial_scale, trace.growth_steps)
    np.testing.assert_array_equal(scale, trace.scale)
    np.testing.assert_array_equal(counter, trace.counter)


def test_bad_arguments_name_themselves():
    from mpteach.traces import record_trace

    with pytest.raises(ValueError, match="optimizer='torch'"):
        record_trace("torch")
    with pytest.raises(ValueError, match="steps=0"):
        record_trace(steps=0)
