"""mpteach.AutoCastVariable / autocast_scope against keras.Variable + Keras 3's AutocastScope.

Covers Keras 3's ``variables_test.py`` autocast cases and the read/assign/operator cases of
Keras 2's ``autocast_variable_test.py``. mpteach wraps a variable, as Keras 2 did; Keras 3 flags
every ``keras.Variable`` instead. Reads are compared dtype for dtype and value for value.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")
keras = pytest.importorskip("keras")
from keras.src.backend import AutocastScope  # noqa: E402 - Keras 3's (private) scope

from mpteach.autocast import AutoCastVariable, autocast_scope  # noqa: E402

pytestmark = pytest.mark.keras

EPS16 = float(np.finfo(np.float16).eps)  # 2**-10
VALUES = [1.0, 2.5, -7.0, 1 + EPS16 / 2, 70000.0, 1e-8]  # the last two: float16 inf and 0


def pair(values=VALUES, dtype="float32"):
    """The same float variable as mpteach and as Keras 3 sees it."""
    return AutoCastVariable(tf.Variable(values, dtype=dtype)), keras.Variable(values, dtype=dtype)


READS = {
    "value()": lambda v: v.value() if isinstance(v, tf.Variable) else v.value,
    "read_value()": lambda v: v.read_value() if isinstance(v, tf.Variable) else v.value,
    "convert_to_tensor": tf.convert_to_tensor,
    "tf.identity": tf.identity,
    "v + 1": lambda v: v + 1,
    "1 - v": lambda v: 1 - v,
    "v * v": lambda v: v * v,
    "10.5 / v": lambda v: 10.5 / v,
    "v // 2": lambda v: v // 2,
    "v % 2": lambda v: v % 2,
    "v ** 2": lambda v: v**2,
    "-v": lambda v: -v,
    "abs(v)": abs,
    "v[1:3]": lambda v: v[1:3],
    "v < 2": lambda v: v < 2,
    "tf.reduce_sum": tf.reduce_sum,
    "v @ v": lambda v: tf.reshape(v, (1, -1)) @ tf.reshape(v, (-1, 1)),
    "numpy": lambda v: v.numpy(),
    "np.asarray": np.asarray,
}


def as_array(x):
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


@pytest.mark.parametrize("scope_dtype", ["float16", "bfloat16", "float64"])
@pytest.mark.parametrize("read", READS, ids=str)
def test_every_read_is_cast_inside_a_scope_like_keras(read, scope_dtype):
    ours, theirs = pair()
    with autocast_scope(scope_dtype), AutocastScope(scope_dtype):
        got, want = READS[read](ours), READS[read](theirs)
        assert ours.dtype == theirs.dtype == scope_dtype
    assert as_array(got).dtype == as_array(want).dtype
    np.testing.assert_array_equal(as_array(got), as_array(want))
    # Outside the scope the same read is float32 again.
    assert as_array(READS[read](ours)).dtype == as_array(READS[read](theirs)).dtype
    assert ours.dtype == "float32"


def test_float16_reads_round_overflow_and_underflow():
    ours, _ = pair()
    with autocast_scope("float16"):
        read = ours.numpy()
    assert read[3] == 1.0  # 1 + eps/2 rounds to even
    assert np.isinf(read[4]) and read[5] == 0.0


def test_sparse_reads_are_cast():
    ours, _ = pair()
    with autocast_scope("float16"):
        assert ours.sparse_read([0, 2]).dtype == tf.float16
        assert ours.gather_nd([[1]]).dtype == tf.float16
        np.testing.assert_array_equal(ours.sparse_read([0, 2]).numpy(), [1.0, -7.0])


def test_true_dtype_is_the_storage_dtype():
    ours, _ = pair()
    with autocast_scope("float16"):
        assert ours.true_dtype == tf.float32 and ours.dtype == tf.float16
    assert ours.dtype == ours.true_dtype == tf.float32


def test_nested_scopes_restore_like_keras():
    ours, theirs = pair()
    seen = []
    with autocast_scope("float16"), AutocastScope("float16"):
        seen.append((ours.value().dtype, theirs.value.dtype))
        with autocast_scope("bfloat16"), AutocastScope("bfloat16"):
            seen.append((ours.value().dtype, theirs.value.dtype))
            with autocast_scope(None), AutocastScope(None):  # None: no casting
                seen.append((ours.value().dtype, theirs.value.dtype))
            seen.append((ours.value().dtype, theirs.value.dtype))
        seen.append((ours.value().dtype, theirs.value.dtype))
    seen.append((ours.value().dtype, theirs.value.dtype))
    assert [a for a, _ in seen] == [b for _, b in seen]
    assert [a.name for a, _ in seen] == [
        "float16",
        "bfloat16",
        "float32",
        "bfloat16",
        "float16",
        "float32",
    ]


def test_scope_is_restored_after_an_error():
    ours, _ = pair()
    with pytest.raises(RuntimeError):
        with autocast_scope("float16"):
            raise RuntimeError
    assert ours.value().dtype == tf.float32


def test_scope_is_per_thread():
    ours, _ = pair()
    seen = []
    with autocast_scope("float16"):
        thread = threading.Thread(target=lambda: seen.append(ours.value().dtype))
        thread.start()
        thread.join()
        assert ours.value().dtype == tf.float16
    assert seen == [tf.float32]


def test_a_float64_variable_is_cast_too_like_keras():
    ours, theirs = pair(dtype="float64")
    with autocast_scope("float16"), AutocastScope("float16"):
        assert ours.value().dtype == theirs.value.dtype == tf.float16


@pytest.mark.parametrize("dtype", ["int32", "bool", "string", tf.int8, "complex64"])
def test_scope_needs_a_float_dtype_like_keras(dtype):
    with pytest.raises(ValueError):
        AutocastScope(dtype)
    with pytest.raises(ValueError, match="floating-point dtype"):
        autocast_scope(dtype)


def test_scope_rejects_unknown_names():
    with pytest.raises(ValueError, match="dtype='half-ish'"):
        autocast_scope("half-ish")


def test_scope_accepts_tensorflow_and_numpy_dtypes():
    ours, _ = pair()
    for dtype in (tf.float16, np.float16):
        with autocast_scope(dtype):
            assert ours.value().dtype == tf.float16


# ---- writes -----------------------------------------------------------------------------


@pytest.mark.parametrize("value_dtype", ["float16", "float32"])
def test_assign_inside_a_scope_keeps_full_precision_like_keras(value_dtype):
    # Keras 3 variables_test: test_autocasting_float_assign; Keras 2: 1 + eps16/2 survives.
    ours, theirs = pair(1.0)
    value = tf.constant(1 + EPS16 / 2 if value_dtype == "float32" else 3.0, dtype=value_dtype)
    with autocast_scope("float16"), AutocastScope("float16"):
        ours.assign(value)
        theirs.assign(value)
    assert ours.dtype == tf.float32
    assert ours.numpy() == theirs.numpy() == np.float32(value.numpy())


def test_assign_of_a_python_number_is_exact_and_large_values_survive():
    ours, theirs = pair(1.0)
    with autocast_scope("float16"), AutocastScope("float16"):
        ours.assign(70000.0)  # keras normalization tests: 70000 is inf in float16
        theirs.assign(70000.0)
    assert ours.numpy() == theirs.numpy() == 70000.0
    wide = AutoCastVariable(tf.Variable(0.0, dtype=tf.float64))
    wide.assign(0.1)
    assert wide.numpy() == 0.1  # all 53 bits, not float32's 0.1


def test_assign_add_and_sub_keep_full_precision_like_keras_2():
    # mpteach follows Keras 2 on purpose: assign_add/assign_sub add in the storage dtype. Keras 3
    # computes `self + delta` with the *cast* read, so inside a float16 scope its update is
    # rounded to float16 first (1 + 2**-11 + 2**-12 becomes 1.0).
    ours, theirs = pair(1 + EPS16 / 2)
    with autocast_scope("float16"), AutocastScope("float16"):
        ours.assign_add(EPS16 / 4)
        theirs.assign_add(EPS16 / 4)
    assert ours.numpy() == np.float32(1 + EPS16 / 2) + np.float32(EPS16 / 4)
    assert theirs.numpy() == 1.0
    with autocast_scope("float16"):
        ours.assign_sub(EPS16 / 4)
    assert ours.numpy() == np.float32(1 + EPS16 / 2)


def test_assign_returns_the_variable_or_an_op():
    ours, _ = pair(1.0)
    assert ours.assign(2.0) is ours
    assert ours.assign_add(1.0, read_value=False) is not ours
    assert ours.numpy() == 3.0


def test_scatter_updates_go_to_storage():
    ours = AutoCastVariable(tf.Variable([1.0, 2.0, 3.0]))
    with autocast_scope("float16"):
        ours.scatter_add(tf.IndexedSlices(tf.constant([1 + EPS16 / 2]), tf.constant([0])))
    assert ours.numpy()[0] == np.float32(2 + EPS16 / 2)


# ---- refused arguments ------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["int32", "int64", "bool", "complex64"])
def test_non_float_variables_are_refused(dtype):
    # Keras 3 simply never casts them (test_autocasting_int); a wrapper for one makes no sense.
    theirs = keras.Variable(1, dtype="int32")
    with AutocastScope("float16"):
        assert theirs.dtype == "int32"
    with pytest.raises(ValueError, match=f"floating-point tf.Variable.*{dtype}"):
        AutoCastVariable(tf.Variable(tf.zeros((2,), dtype)))


@pytest.mark.parametrize(
    "thing",
    [1.0, np.ones(2), "kernel", None],
)
def test_non_variables_are_refused(thing):
    with pytest.raises(TypeError, match="variable must be a tf.Variable"):
        AutoCastVariable(thing)


def test_tensors_keras_variables_and_autocast_variables_are_refused():
    with pytest.raises(TypeError, match="EagerTensor"):
        AutoCastVariable(tf.constant(1.0))
    with pytest.raises(TypeError, match="Variable"):
        AutoCastVariable(keras.Variable(1.0))  # wrap its .value instead
    ours, _ = pair()
    with pytest.raises(TypeError, match="not an AutoCastVariable"):
        AutoCastVariable(ours)


def test_an_opted_out_keras_variable_is_not_cast():
    # Keras 3 test_autocasting_float_with_autocast_off; in mpteach: do not wrap.
    theirs = keras.Variable(1.0, autocast=False)
    plain = tf.Variable(1.0)
    with autocast_scope("float16"), AutocastScope("float16"):
        assert plain.value().dtype == theirs.value.dtype == tf.float32


# ---- gradients, optimizers, tf.function, checkpoints ------------------------------------


def test_gradient_flows_to_the_float32_variable_like_keras():
    ours, theirs = pair([3.0, -2.0])
    with tf.GradientTape(persistent=True) as tape:
        with autocast_scope("float16"), AutocastScope("float16"):
            y_ours = tf.reduce_sum(ours * ours)
            y_theirs = tf.reduce_sum(theirs * theirs)
    assert y_ours.dtype == y_theirs.dtype == tf.float16
    g_ours, g_theirs = tape.gradient(y_ours, ours), tape.gradient(y_theirs, theirs)
    assert g_ours.dtype == g_theirs.dtype == tf.float32
    np.testing.assert_array_equal(g_ours.numpy(), g_theirs.numpy())
    np.testing.assert_array_equal(g_ours.numpy(), [6.0, -4.0])


@pytest.mark.parametrize(
    "make", [lambda: keras.optimizers.SGD(1.0), lambda: keras.optimizers.Adam(0.1)]
)
def test_keras_optimizers_update_it_like_a_plain_variable(make):
    ours = AutoCastVariable(tf.Variable([1.0, 2.0]))
    plain = tf.Variable([1.0, 2.0])
    opt_ours, opt_plain = make(), make()
    for grad in ([1.0, 0.5], [-2.0, 0.25], [0.1, 0.1]):
        opt_ours.apply([tf.constant(grad)], [ours])  # outside any scope, as in training
        opt_plain.apply([tf.constant(grad)], [plain])
    np.testing.assert_array_equal(ours.numpy(), plain.numpy())
    assert ours.true_dtype == tf.float32


def test_sgd_with_learning_rate_1_takes_1_to_0():
    # Keras 2 autocast_variable_test: an optimizer updates an AutoCastVariable as a variable.
    ours = AutoCastVariable(tf.Variable(1.0))
    keras.optimizers.SGD(1.0).apply([tf.constant(1.0)], [ours])
    assert ours.numpy() == 0.0


def test_in_tf_function_as_closure_and_as_argument():
    ours, _ = pair([1.0, 2.0])

    @tf.function
    def read_closure():
        with autocast_scope("bfloat16"):
            return ours * 2

    @tf.function
    def read_and_assign(variable):
        with autocast_scope("float16"):
            doubled = variable * 2
            variable.assign_add([EPS16 / 4, 0.0])
        return doubled

    assert read_closure().dtype == tf.bfloat16
    assert read_and_assign(ours).dtype == tf.float16
    assert ours.numpy()[0] == np.float32(1 + EPS16 / 4)


def test_checkpoint_is_that_of_the_plain_variable(tmp_path):
    ours = AutoCastVariable(tf.Variable([1.5, -2.0]))
    path = tf.train.Checkpoint(v=ours).save(str(tmp_path / "ckpt"))
    ours.assign([0.0, 0.0])
    tf.train.Checkpoint(v=ours).restore(path).assert_consumed()
    np.testing.assert_array_equal(ours.numpy(), [1.5, -2.0])
    # ... so a plain variable restores from it, and the other way round.
    plain = tf.Variable([0.0, 0.0])
    tf.train.Checkpoint(v=plain).restore(path).assert_consumed()
    np.testing.assert_array_equal(plain.numpy(), [1.5, -2.0])
    path = tf.train.Checkpoint(v=tf.Variable([7.0, 8.0])).save(str(tmp_path / "plain"))
    tf.train.Checkpoint(v=ours).restore(path).assert_consumed()
    np.testing.assert_array_equal(ours.numpy(), [7.0, 8.0])


def test_delegates_variable_attributes():
    inner = tf.Variable([1.0], name="w", trainable=False)
    ours = AutoCastVariable(inner)
    assert (ours.name, ours.shape, ours.trainable) == ("w:0", tf.TensorShape([1]), False)
    assert ours.handle is inner.handle and ours.device == inner.device
    assert isinstance(ours, tf.Variable)


def test_repr_shows_both_dtypes():
    ours = AutoCastVariable(tf.Variable([1.0], name="w"))
    with autocast_scope("float16"):
        text = repr(ours)
    assert text.startswith(
        "<AutoCastVariable 'w:0' shape=(1,) dtype=float32 dtype_to_cast_to=float16"
    )
    assert "numpy=array([1.], dtype=float16)" in text
