"""mpteach.policy against keras.DTypePolicy / keras.dtype_policies.DTypePolicyMap (Keras 3).

Covers the float cases of Keras's ``dtype_policy_test.py`` and ``dtype_policy_map_test.py``.
Where mpteach differs on purpose, the test says so.
"""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys
import threading

import pytest

import mpteach as mp
from mpteach.policy import POLICY_NAMES, Policy, PolicyMap, get, global_policy, policy_scope

keras = pytest.importorskip("keras")
pytestmark = pytest.mark.keras


def keras_error(fn, *args):
    """The exception type Keras raises for fn(*args), or None."""
    try:
        fn(*args)
    except Exception as error:  # noqa: BLE001 - we want the type, whatever it is
        return type(error)
    return None


@pytest.mark.parametrize("name", POLICY_NAMES)
def test_attributes_equal_keras(name):
    ours, theirs = Policy(name), keras.DTypePolicy(name)
    assert (ours.name, ours.compute_dtype, ours.variable_dtype) == (
        theirs.name,
        theirs.compute_dtype,
        theirs.variable_dtype,
    )
    assert repr(ours) == repr(theirs).replace("DTypePolicy", "Policy")
    assert ours.get_config() == theirs.get_config()
    assert Policy.from_config(theirs.get_config()) == ours


def test_mixed_policies_keep_variables_in_float32():
    assert (Policy("mixed_float16").compute_dtype, Policy("mixed_float16").variable_dtype) == (
        "float16",
        "float32",
    )
    assert Policy("mixed_bfloat16").compute_dtype == "bfloat16"


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "invalid_name",
        "mixed_float15",
        "mixed_bfloat15",
        "@mixed_float16!",
        "mixed_float16" * 100,
        "float",
        "half",
    ],
)
def test_bad_names_raise_value_error_like_keras(bad):
    assert keras_error(keras.DTypePolicy, bad) is ValueError
    with pytest.raises(ValueError, match="Valid names: 'float16', 'bfloat16', 'float32'") as info:
        Policy(bad)
    assert repr(bad) in str(info.value)


@pytest.mark.parametrize("bad", [123, 1.5, ["float32"], b"float32"])
def test_non_strings_raise_type_error_like_keras(bad):
    assert keras_error(keras.DTypePolicy, bad) is TypeError
    with pytest.raises(TypeError, match="must be a string"):
        Policy(bad)


def test_a_tensorflow_dtype_is_not_a_name_either():
    tf = pytest.importorskip("tensorflow")
    assert keras_error(keras.DTypePolicy, tf.float16) is TypeError
    with pytest.raises(TypeError, match="name=tf.float16"):
        Policy(tf.float16)


@pytest.mark.parametrize("name", ["uint8", "int32", "bool", "float8_e4m3fn", "complex64"])
def test_mpteach_is_stricter_than_keras_about_non_float_names(name):
    # Keras 3 accepts any dtype name (its test: DTypePolicy("uint8") computes in uint8); a layer
    # computing in integers is not a mixed-precision policy, so mpteach refuses it.
    assert keras.DTypePolicy(name).compute_dtype == name
    with pytest.raises(ValueError, match="Valid names"):
        Policy(name)


@pytest.mark.parametrize(
    "name", ["float32", "float16", "bfloat16", "mixed_float16", "mixed_bfloat16"]
)
def test_policy_without_name_copies_the_global_policy_like_keras(name):
    mp.set_global_policy(name)
    keras.config.set_dtype_policy(name)
    assert Policy().name == keras.DTypePolicy().name == name
    assert Policy().compute_dtype == keras.DTypePolicy().compute_dtype


def test_equality_and_hash():
    assert Policy("mixed_float16") == Policy("mixed_float16")
    assert Policy("mixed_float16") != Policy("float16")
    # Like Keras: a policy never equals its name.
    assert Policy("mixed_float16") != "mixed_float16"
    assert keras.DTypePolicy("mixed_float16") != "mixed_float16"
    # Keras's DTypePolicy defines __eq__ without __hash__ (unhashable); mpteach's is immutable
    # and hashable, so policies can be dict keys.
    assert len({Policy("float32"), Policy("float32"), Policy("float16")}) == 2
    with pytest.raises(TypeError):
        hash(keras.DTypePolicy("float32"))


@pytest.mark.parametrize(
    "clone", [copy.copy, copy.deepcopy, lambda p: pickle.loads(pickle.dumps(p))]
)
def test_copy_and_pickle_keep_the_policy(clone):
    policy = Policy("mixed_bfloat16")
    assert clone(policy) == policy
    assert repr(clone(policy)) == '<Policy "mixed_bfloat16">'


def test_get_accepts_policies_names_and_none():
    policy = Policy("bfloat16")
    assert get(policy) is policy
    assert get("float64") == Policy("float64")
    assert get(None) is global_policy()
    with pytest.raises(TypeError):
        get(16)


# ---- the global policy ------------------------------------------------------------------


def test_global_policy_defaults_to_float32_like_keras():
    assert global_policy() == Policy("float32")
    assert keras.config.dtype_policy().name == "float32"


@pytest.mark.parametrize("value", ["mixed_float16", Policy("mixed_bfloat16")])
def test_set_global_policy_by_name_or_object(value):
    mp.set_global_policy(value)
    keras.config.set_dtype_policy(value if isinstance(value, str) else value.name)
    assert mp.global_policy().name == keras.config.dtype_policy().name


def test_setting_twice_the_last_one_wins():
    mp.set_global_policy("float16")
    mp.set_global_policy("mixed_bfloat16")
    assert mp.global_policy().name == "mixed_bfloat16"


def test_set_global_policy_none_resets_like_keras_2():
    # Follows Keras 2 (tf.keras.mixed_precision.set_global_policy(None) resets to float32) on
    # purpose; Keras 3's set_dtype_policy(None) raises ValueError.
    assert keras_error(keras.config.set_dtype_policy, None) is ValueError
    mp.set_global_policy("mixed_float16")
    mp.set_global_policy(None)
    assert mp.global_policy() == Policy("float32")


def test_set_global_policy_rejects_other_types_with_value_error_like_keras():
    assert keras_error(keras.config.set_dtype_policy, 12345) is ValueError
    with pytest.raises(ValueError, match="policy=12345"):
        mp.set_global_policy(12345)
    with pytest.raises(ValueError, match="Valid names"):
        mp.set_global_policy("int8")


def test_global_policy_is_per_thread_like_keras():
    mp.set_global_policy("mixed_float16")
    keras.config.set_dtype_policy("mixed_float16")
    seen = {}

    def worker():
        seen["default"] = (mp.global_policy().name, keras.config.dtype_policy().name)
        mp.set_global_policy("bfloat16")

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert seen["default"] == ("float32", "float32")
    assert mp.global_policy().name == "mixed_float16"


def test_policy_scope_nests_and_restores_after_an_error():
    with policy_scope("mixed_float16") as outer:
        assert outer == mp.global_policy() == Policy("mixed_float16")
        with pytest.raises(RuntimeError):
            with policy_scope("bfloat16"):
                assert mp.global_policy().name == "bfloat16"
                raise RuntimeError
        assert mp.global_policy().name == "mixed_float16"
    assert mp.global_policy().name == "float32"


def test_policy_module_needs_no_tensorflow():
    code = (
        "import sys, mpteach as mp; p = mp.Policy('mixed_float16'); mp.PolicyMap(p); "
        "assert 'tensorflow' not in sys.modules and 'keras' not in sys.modules; print(p)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == '<Policy "mixed_float16">'


# ---- PolicyMap (keras/src/dtype_policies/dtype_policy_map_test.py) ----------------------


def both_maps(default, mapping):
    # Keras stores the values of its initial dict unchecked, so give it policies, not names.
    theirs = {path: keras.DTypePolicy(name) for path, name in mapping.items()}
    return PolicyMap(default, dict(mapping)), keras.dtype_policies.DTypePolicyMap(default, theirs)


MAPPING = {
    "model/encoder/layer_0/dense": "mixed_float16",
    "model/encoder/attention/query": "mixed_bfloat16",
    "model/decoder/.*": "float16",
    "model/decoder/attention/.*": "float64",
}


@pytest.mark.parametrize(
    "path",
    [
        "model/encoder/layer_0/dense",  # exact key
        "model/encoder/attention/query",
        "model/decoder/layer_0",  # one regex
        "model/encoder/attention/query_norm",  # no partial match: the default
        "model/decoder",  # "model/decoder/.*" does not match its parent
        "unknown",
    ],
)
def test_lookup_equals_keras(path):
    ours, theirs = both_maps("float32", MAPPING)
    assert ours[path].name == theirs[path].name


def test_two_matching_keys_are_an_error_like_keras():
    ours, theirs = both_maps("float32", MAPPING)
    path = "model/decoder/attention/output"
    with pytest.raises(ValueError, match="matches multiple"):
        theirs[path]
    with pytest.raises(ValueError, match="matches multiple policy keys") as info:
        ours[path]
    assert "model/decoder/.*" in str(info.value) and "model/decoder/attention/.*" in str(info.value)


def test_an_exact_key_wins_over_matching_regexes():
    ours, theirs = both_maps("float32", {**MAPPING, "model/decoder/attention/output": "bfloat16"})
    assert (
        ours["model/decoder/attention/output"].name
        == theirs["model/decoder/attention/output"].name
        == "bfloat16"
    )


def test_add_delete_len_iter_in_like_keras():
    ours, theirs = both_maps("mixed_bfloat16", {})
    for policies in (ours, theirs):
        policies["layer/dense_0"] = "mixed_bfloat16"
        policies["layer/dense_1"] = "float16"
        policies["layer/dense_2"] = "float32"
    assert list(ours) == list(theirs) and len(ours) == len(theirs) == 3
    assert [p.name for p in ours.values()] == [p.name for p in theirs.values()]
    assert ("layer/dense_0" in ours) == ("layer/dense_0" in theirs) is True
    assert ("layer/.*" in ours) == ("layer/.*" in theirs) is False  # exact keys only
    for policies in (ours, theirs):
        with pytest.raises(ValueError, match="already exist"):
            policies["layer/dense_0"] = "float64"
        assert policies.pop("layer/dense_0").name == "mixed_bfloat16"
        with pytest.raises(KeyError):
            policies.pop("layer/dense_0")
        del policies["layer/dense_1"]
        assert policies["layer/dense_1"].name == "mixed_bfloat16"  # the default again
    assert len(ours) == len(theirs) == 1


@pytest.mark.parametrize("value", [123, "mixed_float15", ["float16"]])
def test_setting_a_bad_value_is_a_value_error_like_keras(value):
    ours, theirs = both_maps("float32", {})
    with pytest.raises(ValueError):
        theirs["layer"] = value
    with pytest.raises(ValueError, match="Cannot set PolicyMap"):
        ours["layer"] = value


def test_a_key_must_be_a_valid_regex():
    with pytest.raises(ValueError, match="Cannot set PolicyMap"):
        PolicyMap("float32", {"layer/(": "float16"})


def test_map_takes_its_dtypes_from_the_default_policy_like_keras():
    ours, theirs = both_maps("mixed_float16", MAPPING)
    assert (ours.name, ours.compute_dtype, ours.variable_dtype) == (
        theirs.name,
        theirs.compute_dtype,
        theirs.variable_dtype,
    )


def test_default_none_freezes_the_global_policy_of_that_moment():
    with policy_scope("bfloat16"):
        policies = PolicyMap()
    assert policies.default_policy == Policy("bfloat16")
    assert policies["anything"] == Policy("bfloat16")


def test_config_round_trip():
    policies = PolicyMap("mixed_bfloat16", MAPPING)
    config = policies.get_config()
    assert config == {"default_policy": "mixed_bfloat16", "policy_map": MAPPING}
    again = PolicyMap.from_config(config)
    assert again == policies and list(again) == list(policies)
    assert config == {"default_policy": "mixed_bfloat16", "policy_map": MAPPING}  # not mutated
    # Keras re-resolves a default of None at load time (and rewrites the stored policies);
    # mpteach stores the name the map was made with.
    saved = PolicyMap(None, {"layer": "float16"}).get_config()  # the global policy is float32
    with policy_scope("bfloat16"):
        assert PolicyMap.from_config(saved).default_policy.name == "float32"


def test_repr_like_keras():
    ours, theirs = both_maps("mixed_bfloat16", {"layer/dense_0": "mixed_bfloat16"})
    for text in (repr(ours), repr(theirs)):
        assert "default_policy=mixed_bfloat16" in text
        assert "mapping=[('layer/dense_0', 'mixed_bfloat16')]" in text


@pytest.mark.parametrize("bad", [123, "policy", Policy("float32")])
def test_policy_map_must_be_a_dict_like_keras(bad):
    bad_for_keras = keras.DTypePolicy("float32") if isinstance(bad, Policy) else bad
    assert keras_error(keras.dtype_policies.DTypePolicyMap, None, bad_for_keras) is TypeError
    with pytest.raises(TypeError, match="policy_map must be a dict"):
        PolicyMap(None, bad)


def test_default_policy_cannot_be_a_map_like_keras():
    inner = keras.dtype_policies.DTypePolicyMap()
    assert keras_error(keras.dtype_policies.DTypePolicyMap, inner) is ValueError
    with pytest.raises(ValueError, match="default_policy cannot be a PolicyMap"):
        PolicyMap(PolicyMap())


@pytest.mark.parametrize("name", POLICY_NAMES)
def test_a_float_policy_has_no_quantization_mode_as_in_keras(name):
    keras = pytest.importorskip("keras")
    assert Policy(name).quantization_mode is None is keras.DTypePolicy(name).quantization_mode
