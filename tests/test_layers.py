"""mpteach.layers against keras.layers: same weights, same inputs -> same dtypes and values.

Covers Keras 3's ``layer_test.py`` mixed-precision cases (test_mixed_precision, test_autocast,
test_autocast_with_np_array, complex inputs) and the two-argument example of TensorFlow's
``tf.keras.mixed_precision.Policy`` API page (Keras 2's first-argument-only casting).
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")
keras = pytest.importorskip("keras")

import mpteach as mp  # noqa: E402
from mpteach import layers  # noqa: E402
from mpteach.autocast import AutoCastVariable  # noqa: E402
from mpteach.policy import POLICY_NAMES, Policy, PolicyMap, policy_scope  # noqa: E402

pytestmark = pytest.mark.keras


def same_tensor(ours, theirs, ulps=0):
    """Equal to the bit (``ulps=0``: the same op ran), or within ``ulps`` units in the last place
    of the dtype, relative to the largest value (the same products summed in another order)."""
    assert ours.dtype == theirs.dtype, (ours.dtype, theirs.dtype)
    a, b = (np.asarray(tf.cast(t, tf.float64)) for t in (ours, theirs))
    eps = float(ml_dtypes.finfo(tf.as_dtype(ours.dtype).as_numpy_dtype).eps)
    np.testing.assert_allclose(a, b, rtol=ulps * eps, atol=ulps * eps * float(np.abs(b).max()))


# Keras 3.15 multiplies inputs of rank > 2 with tf.tensordot, as mpteach does; Keras 3.13 (Colab)
# used tf.matmul: the same products summed in another order, which may differ in the last bits.
KERAS_TENSORDOT = tuple(int(part) for part in keras.__version__.split(".")[:2]) >= (3, 15)


def dense_pair(policy, activation=None, units=3, input_shape=(4, 5), seed=0):
    """An mpteach Dense and a Keras Dense with the same weights (a non-zero bias too)."""
    theirs = keras.layers.Dense(units, activation=activation, dtype=policy)
    ours = layers.Dense(units, activation=activation, dtype=policy)
    x = np.random.default_rng(seed).normal(size=input_shape).astype("float32")
    theirs(x), ours(x)  # build both
    theirs.bias.assign(np.linspace(-1, 1, units))
    ours.kernel.assign(theirs.kernel.numpy())
    ours.bias.assign(theirs.bias.numpy())
    return ours, theirs, x


@pytest.mark.parametrize("policy", POLICY_NAMES)
@pytest.mark.parametrize("activation", [None, "relu", "softmax"])
@pytest.mark.parametrize("input_shape", [(4, 5), (2, 3, 5)])
def test_dense_equals_keras_dense(policy, activation, input_shape):
    ours, theirs, x = dense_pair(policy, activation, input_shape=input_shape)
    same_op = KERAS_TENSORDOT or len(input_shape) == 2
    same_tensor(ours(x), theirs(x), ulps=0 if same_op else 4)
    assert (
        tf.as_dtype(ours.kernel.dtype).name == theirs.kernel.dtype == Policy(policy).variable_dtype
    )


@pytest.mark.parametrize("policy", ["float32", "bfloat16", "mixed_float16", "mixed_bfloat16"])
def test_dense_equals_keras_dense_in_tf_function(policy):
    # Small shapes: the slow CPU float16 MatMul+BiasAdd kernel costs nothing here.
    ours, theirs, x = dense_pair(policy, "relu")
    same_tensor(tf.function(ours)(tf.constant(x)), tf.function(theirs)(tf.constant(x)))


@pytest.mark.parametrize("policy", ["mixed_float16", "mixed_bfloat16", "float32"])
def test_dense_gradients_equal_keras(policy):
    ours, theirs, x = dense_pair(policy, "relu")
    grads = []
    for layer, weights in (
        (ours, [ours.kernel, ours.bias]),
        (theirs, [theirs.kernel, theirs.bias]),
    ):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.cast(layer(x), tf.float32) ** 2)
        grads.append(tape.gradient(loss, weights))
    for g_ours, g_theirs in zip(*grads, strict=True):
        assert g_ours.dtype == tf.float32  # gradients arrive in the variables' dtype
        same_tensor(g_ours, g_theirs)


@pytest.mark.parametrize("policy", POLICY_NAMES)
@pytest.mark.parametrize("activation", ["softmax", "sigmoid", "linear"])
@pytest.mark.parametrize("input_dtype", ["float16", "float32"])
def test_activation_equals_keras_activation(policy, activation, input_dtype):
    x = tf.constant(np.linspace(-3, 3, 12).reshape(3, 4), dtype=input_dtype)
    theirs = keras.layers.Activation(activation, dtype=policy)(x)
    same_tensor(layers.Activation(activation, dtype=policy)(x), theirs)


def test_float32_softmax_after_a_mixed_dense_like_the_tensorflow_guide():
    x = np.ones((2, 4), "float32")
    dense = layers.Dense(3, dtype="mixed_float16")
    outputs = layers.Activation("softmax", dtype="float32")(dense(x))
    assert dense(x).dtype == tf.float16 and outputs.dtype == tf.float32


def test_mixed_precision_like_keras_layer_test():
    # layer_test.py test_mixed_precision
    x = np.ones((4, 4))
    for policy, variable in (("float16", "float16"), ("mixed_float16", "float32")):
        ours, theirs = layers.Dense(2, dtype=policy), keras.layers.Dense(2, dtype=policy)
        y_ours, y_theirs = ours(x), theirs(x)
        assert y_ours.dtype == y_theirs.dtype == tf.float16
        assert ours.compute_dtype == theirs.compute_dtype == "float16"
        assert ours.variable_dtype == theirs.variable_dtype == variable
        assert ours.kernel.dtype == theirs.kernel.dtype == variable  # read outside call


def nested_layers(base):
    """Keras's test_autocast, written once for keras.layers.Layer and for mp.Layer.

    A mixed_float16 layer adds its weight ``v`` and calls three inner layers; each inner layer
    records the dtypes it sees for the outer ``v``, its own weight and its input.
    """
    seen = []

    class Inner(base):
        def __init__(self, outer, weight_autocast=True, **kwargs):
            super().__init__(**kwargs)
            self.outer_v = lambda: outer.v  # a lambda: Keras would track `outer` as a sublayer
            self.weight_autocast = weight_autocast

        def build(self, input_shape):
            self.w = self.add_weight(shape=(), initializer="ones", autocast=self.weight_autocast)

        def call(self, x):
            seen.append((self.name, dtype_name(self.outer_v()), dtype_name(self.w), dtype_name(x)))
            return tf.cast(x, tf.float32) + tf.cast(self.w, tf.float32)

    class Outer(base):
        def __init__(self):
            super().__init__(dtype="mixed_float16", name="outer")
            self.inner = [
                Inner(self, name="no_autocast", autocast=False, dtype="mixed_float16"),
                Inner(self, name="full_precision", dtype="float32"),
                Inner(self, name="weight_opted_out", weight_autocast=False, dtype="mixed_float16"),
            ]

        def build(self, input_shape):
            self.v = self.add_weight(shape=(), initializer="ones")

        def call(self, x):
            seen.append((self.name, dtype_name(self.v), dtype_name(self.v), dtype_name(x)))
            y = x + self.v
            for layer in self.inner:
                y = layer(y)
            return y

    return Outer(), seen


def dtype_name(x):
    return tf.as_dtype(x.dtype).name


def test_autocast_of_nested_layers_equals_keras():
    ours, seen_ours = nested_layers(mp.Layer)
    theirs, seen_theirs = nested_layers(keras.layers.Layer)
    y_ours, y_theirs = ours(np.array(0.0)), theirs(np.array(0.0))
    assert float(y_ours) == float(y_theirs) == 4.0
    assert seen_ours == seen_theirs
    assert seen_ours == [
        ("outer", "float16", "float16", "float16"),  # inside a mixed layer: read in float16
        ("no_autocast", "float32", "float32", "float16"),  # autocast=False: no scope, no cast
        ("full_precision", "float32", "float32", "float32"),  # a float32 layer reads float32
        ("weight_opted_out", "float16", "float32", "float16"),  # add_weight(autocast=False)
    ]
    assert dtype_name(ours.v) == "float32"  # outside call


class MyLayer(mp.Layer):
    """TensorFlow's ``tf.keras.mixed_precision.Policy`` API page: "Bug! `b` will not be casted."
    (Keras 2)."""

    def call(self, a, b):
        return a + 1.0, b + 1.0


class KerasMyLayer(keras.layers.Layer):
    def call(self, a, b):
        return a + 1.0, b + 1.0


def test_policy_page_keras_2_casts_only_the_first_argument():
    a = tf.constant(1.0, dtype="float32")
    b = tf.constant(1.0, dtype="float32")
    x, y = MyLayer(dtype="float64", cast_inputs="first")(a, b)
    assert (x.dtype, y.dtype) == (tf.float64, tf.float32)


def test_policy_page_keras_3_casts_every_argument_like_keras():
    a = tf.constant(1.0, dtype="float32")
    b = tf.constant(1.0, dtype="float32")
    x, y = MyLayer(dtype="float64")(a, b)
    kx, ky = KerasMyLayer(dtype="float64")(a, b)
    assert (x.dtype, y.dtype) == (kx.dtype, ky.dtype) == (tf.float64, tf.float64)


def test_cast_inputs_can_be_a_class_attribute():
    class Keras2Layer(MyLayer):
        cast_inputs = "first"

    x, y = Keras2Layer(dtype="float16")(tf.constant(1.0), tf.constant(1.0))
    assert (x.dtype, y.dtype) == (tf.float16, tf.float32)


class Record(mp.Layer):
    def call(self, *args, **kwargs):
        return args, kwargs


class KerasRecord(keras.layers.Layer):
    def call(self, x, y=None, z=None):
        return x, y, z


def test_keras_3_casts_nested_args_and_kwargs_like_keras():
    f32 = tf.constant([1.0])
    inputs = ([f32, {"k": f32}],)
    args, kwargs = Record(dtype="bfloat16")(*inputs, y=f32, z=(f32, tf.constant([1])))
    x, y, z = KerasRecord(dtype="bfloat16")(*inputs, y=f32, z=(f32, tf.constant([1])))
    ours = tf.nest.flatten((args, kwargs["y"], kwargs["z"]))
    theirs = tf.nest.flatten(((x,), y, z))
    assert [t.dtype for t in ours] == [t.dtype for t in theirs]
    assert [t.dtype.name for t in ours] == ["bfloat16", "bfloat16", "bfloat16", "bfloat16", "int32"]


def test_numpy_inputs_become_tensors_and_ints_are_untouched_like_keras():
    # layer_test.py test_autocast_with_np_array
    x = [np.zeros(1, dtype="float64"), np.zeros(1, dtype="int32")]
    (got,), _ = Record()(x)
    assert [t.dtype for t in got] == [tf.float32, tf.int32]


def test_complex_bool_and_python_values_are_not_cast():
    complex_x = tf.constant([1 + 2j], dtype=tf.complex64)
    args, _ = Record(dtype="float16")(complex_x, tf.constant([True]), 2.5, None)
    assert args[0].dtype == tf.complex64 and args[1].dtype == tf.bool
    assert args[2] == 2.5 and args[3] is None
    assert KerasRecord(dtype="float16")(complex_x)[0].dtype == tf.complex64


def test_autocast_false_layer_does_not_cast_inputs_like_keras():
    x = tf.constant([1.0])
    (ours,), _ = Record(dtype="float16", autocast=False)(x)
    theirs = KerasRecord(dtype="float16", autocast=False)(x)[0]
    assert ours.dtype == theirs.dtype == tf.float32


@pytest.mark.parametrize("policy", POLICY_NAMES)
def test_add_weight_wraps_only_when_compute_and_variable_dtypes_differ(policy):
    layer = mp.Layer(dtype=policy)
    mixed = Policy(policy).compute_dtype != Policy(policy).variable_dtype
    weight = layer.add_weight(shape=(2,))
    assert isinstance(weight, AutoCastVariable) == mixed
    assert tf.as_dtype(weight.dtype).name == Policy(policy).variable_dtype
    assert not isinstance(layer.add_weight(shape=(2,), autocast=False), AutoCastVariable)
    counter = layer.add_weight(shape=(), dtype="int64")
    assert not isinstance(counter, AutoCastVariable) and counter.numpy() == 0  # zeros for ints


def test_add_weight_initializers_like_keras():
    weight = mp.Layer().add_weight(shape=(3,), initializer="ones", name="w")
    np.testing.assert_array_equal(weight.numpy(), [1.0, 1.0, 1.0])
    assert weight.name == "w:0"


def test_layer_takes_the_global_policy_when_made():
    with policy_scope("mixed_bfloat16"):
        layer = layers.Dense(2)
    assert layer.dtype_policy == Policy("mixed_bfloat16")
    assert layer(tf.ones((1, 2))).dtype == tf.bfloat16  # the policy stays the layer's own


def test_a_policy_map_gives_the_policy_of_the_layer_name():
    policies = PolicyMap("mixed_float16", {"head.*": "float32"})
    assert layers.Dense(2, dtype=policies, name="head_out").dtype_policy == Policy("float32")
    assert layers.Dense(2, dtype=policies, name="body").dtype_policy == Policy("mixed_float16")


def test_trainable_variables_and_checkpoint(tmp_path):
    dense = layers.Dense(2, dtype="mixed_float16")
    dense(tf.ones((1, 3)))
    assert {v.name for v in dense.trainable_variables} == {"kernel:0", "bias:0"}
    path = tf.train.Checkpoint(layer=dense).save(str(tmp_path / "ckpt"))
    saved = dense.kernel.numpy()
    dense.kernel.assign(tf.zeros_like(saved))
    tf.train.Checkpoint(layer=dense).restore(path)
    np.testing.assert_array_equal(dense.kernel.numpy(), saved)


def test_builds_inside_tf_function():
    dense = layers.Dense(2, dtype="mixed_bfloat16")
    assert tf.function(dense)(tf.ones((1, 3))).dtype == tf.bfloat16
    assert isinstance(dense.kernel, AutoCastVariable)


@pytest.mark.parametrize("bad", ["some", "First", "none"])
def test_bad_cast_inputs(bad):
    with pytest.raises(ValueError, match="cast_inputs must be 'all' or 'first'"):
        mp.Layer(cast_inputs=bad)


@pytest.mark.parametrize("units", [0, -1, 2.5, True, "3"])
def test_bad_units(units):
    with pytest.raises(ValueError, match="units must be a positive integer"):
        layers.Dense(units)


def test_bad_dtype():
    with pytest.raises(ValueError, match="Valid names"):
        layers.Dense(2, dtype="int8")


def test_layer_without_call():
    with pytest.raises(NotImplementedError, match="Layer must define call"):
        mp.Layer()(tf.ones(1))


@pytest.mark.parametrize("policy", ["mixed_bfloat16", "float64"])
def test_assigning_a_policy_name_converts_it_as_keras_does(policy):
    """Keras's own layer_test does ``layer.dtype_policy = "mixed_bfloat16"``; the name becomes a
    policy, so compute_dtype and variable_dtype follow."""
    ours, theirs = mp.layers.Dense(2), keras.layers.Dense(2)
    ours.dtype_policy = theirs.dtype_policy = policy
    assert (ours.dtype_policy.name, ours.compute_dtype, ours.variable_dtype) == (
        theirs.dtype_policy.name,
        theirs.compute_dtype,
        theirs.variable_dtype,
    )
