"""Dtype policies: the dtype a layer computes in, and the dtype it keeps its variables in.

A policy is only a name and the two dtypes that name stands for:

==================  ===============  ================
name                compute_dtype    variable_dtype
==================  ===============  ================
``float32``         float32          float32
``float64``         float64          float64
``float16``         float16          float16
``bfloat16``        bfloat16         bfloat16
``mixed_float16``   float16          float32
``mixed_bfloat16``  bfloat16         float32
==================  ===============  ================

"Mixed" precision is the last two rows: compute in 16 bits (fast, small), keep the variables in
32 bits (so that small updates are not rounded away). Keras 3 calls this class
``keras.DTypePolicy``; this module needs no TensorFlow.

>>> policy = Policy("mixed_float16")
>>> policy
<Policy "mixed_float16">
>>> policy.compute_dtype, policy.variable_dtype
('float16', 'float32')
>>> global_policy()
<Policy "float32">
>>> with policy_scope("mixed_bfloat16"):
...     global_policy().compute_dtype
'bfloat16'
>>> global_policy().name
'float32'
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator, MutableMapping
from contextlib import contextmanager
from typing import Any

from mpteach import i18n

POLICY_NAMES: tuple[str, ...] = (
    "float16",
    "bfloat16",
    "float32",
    "float64",
    "mixed_float16",
    "mixed_bfloat16",
)
_CHOICES = ", ".join(repr(name) for name in POLICY_NAMES)


class Policy:
    """A dtype policy: ``compute_dtype`` for a layer's math, ``variable_dtype`` for its weights.

    ``Policy()`` without a name copies the current global policy, as ``keras.DTypePolicy()`` does.
    Unlike Keras, only the six names of :data:`POLICY_NAMES` are accepted (Keras also takes
    non-float names such as ``'uint8'``, which make no sense for a layer's weights).

    >>> Policy("mixed_bfloat16").variable_dtype
    'float32'
    >>> Policy("float16") == Policy("float16"), Policy("float16") == "float16"
    (True, False)
    >>> Policy.from_config(Policy("float64").get_config())
    <Policy "float64">
    >>> Policy("half")
    Traceback (most recent call last):
    ...
    ValueError: Unknown policy name='half'. Valid names: 'float16', 'bfloat16', 'float32', 'float64', 'mixed_float16', 'mixed_bfloat16'.
    """

    def __init__(self, name: str | None = None) -> None:
        if name is None:
            name = global_policy().name
        if not isinstance(name, str):
            raise TypeError(
                f"A policy name must be a string such as 'mixed_float16'; got "
                f"name={name!r} of type {type(name).__name__}. Valid names: {_CHOICES}."
            )
        if name not in POLICY_NAMES:
            raise ValueError(f"Unknown policy name={name!r}. Valid names: {_CHOICES}.")
        self._name = name
        mixed = name.startswith("mixed_")
        self._compute_dtype = name.removeprefix("mixed_")
        self._variable_dtype = "float32" if mixed else name

    @property
    def name(self) -> str:
        return self._name

    @property
    def compute_dtype(self) -> str:
        """The dtype of a layer's inputs, math and outputs."""
        return self._compute_dtype

    @property
    def variable_dtype(self) -> str:
        """The dtype in which a layer creates (stores) its variables."""
        return self._variable_dtype

    @property
    def quantization_mode(self) -> None:
        """``None``: a float policy quantizes nothing (Keras's quantized policies, made by
        ``model.quantize(...)``, say ``'int8'``, ``'float8'``, ...; chapter 09).

        >>> Policy("mixed_float16").quantization_mode is None
        True
        """
        return None

    def get_config(self) -> dict[str, Any]:
        return {"name": self._name}

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> Policy:
        return cls(**config)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Policy):
            return NotImplemented
        return self._name == other._name

    def __hash__(self) -> int:
        return hash(self._name)

    def __repr__(self) -> str:
        return f'<Policy "{self._name}">'


def get(identifier: Policy | str | None) -> Policy:
    """A policy from a policy, a name, or ``None`` (the global policy), like ``keras.dtype_policies.get``.

    >>> get("bfloat16")
    <Policy "bfloat16">
    >>> get(None) is global_policy()
    True
    """
    if identifier is None:
        return global_policy()
    if isinstance(identifier, Policy):
        return identifier
    return Policy(identifier)


# The global policy is per thread, as in Keras 3 (keras/src/backend/common/global_state.py).
_state = threading.local()


def global_policy() -> Policy:
    """The policy that layers built without a ``dtype`` take (``float32`` unless set)."""
    policy = getattr(_state, "policy", None)
    if policy is None:
        policy = _state.policy = Policy("float32")
    return policy


def set_global_policy(policy: Policy | str | None) -> None:
    """Set the global policy (of this thread); ``None`` resets it to ``'float32'``.

    ``None`` follows Keras 2 (``tf.keras.mixed_precision.set_global_policy(None)``); Keras 3's
    ``keras.config.set_dtype_policy(None)`` raises instead.

    >>> set_global_policy("mixed_float16"); global_policy()
    <Policy "mixed_float16">
    >>> set_global_policy(None); global_policy()
    <Policy "float32">
    """
    if policy is None:
        policy = Policy("float32")
    elif isinstance(policy, str):
        policy = Policy(policy)
    elif not isinstance(policy, Policy):
        # Keras 3 raises ValueError here too (not TypeError).
        raise ValueError(
            f"policy must be a Policy, a policy name or None; got policy={policy!r} of type "
            f"{type(policy).__name__}. Valid names: {_CHOICES}."
        )
    _state.policy = policy


@contextmanager
def policy_scope(policy: Policy | str | None) -> Iterator[Policy]:
    """Use ``policy`` as the global policy inside a ``with`` block, then restore the previous one."""
    previous = global_policy()
    set_global_policy(policy)
    try:
        yield global_policy()
    finally:
        set_global_policy(previous)


class PolicyMap(MutableMapping):
    """Policies by layer path, as ``keras.dtype_policies.DTypePolicyMap``.

    A lookup tries the exact key first; otherwise every key is a regular expression that must
    match the *whole* path. Two matching keys are an error; no match gives ``default_policy``
    (``None`` means the global policy at the time the map is made).

    >>> policies = PolicyMap("mixed_bfloat16", {"decoder/.*": "float32"})
    >>> policies["decoder/dense"], policies["encoder/dense"]
    (<Policy "float32">, <Policy "mixed_bfloat16">)
    >>> policies["decoder"]  # no prefix matching: "decoder/.*" needs a "/"
    <Policy "mixed_bfloat16">
    """

    def __init__(
        self,
        default_policy: Policy | str | None = None,
        policy_map: dict[str, Policy | str] | None = None,
    ) -> None:
        if isinstance(default_policy, PolicyMap):
            raise ValueError("default_policy cannot be a PolicyMap; give a Policy or a name.")
        if policy_map is not None and not isinstance(policy_map, dict):
            raise TypeError(
                f"policy_map must be a dict of path -> policy; got policy_map={policy_map!r} "
                f"of type {type(policy_map).__name__}."
            )
        self.default_policy = get(default_policy)
        self._policies: dict[str, Policy] = {}
        for path, policy in (policy_map or {}).items():
            self[path] = policy

    # What a layer reads when it is given a map instead of a policy: the default's dtypes.
    @property
    def name(self) -> str:
        return f"map_{self.default_policy.name}"

    @property
    def compute_dtype(self) -> str:
        return self.default_policy.compute_dtype

    @property
    def variable_dtype(self) -> str:
        return self.default_policy.variable_dtype

    def __getitem__(self, path: str) -> Policy:
        if path in self._policies:
            return self._policies[path]
        matches = [key for key in self._policies if re.fullmatch(key, path)]
        if len(matches) > 1:
            raise ValueError(i18n.t("policy.map_ambiguous", path=path, matches=matches))
        return self._policies[matches[0]] if matches else self.default_policy

    def __setitem__(self, path: str, policy: Policy | str) -> None:
        if not isinstance(path, str):
            raise TypeError(f"PolicyMap keys are layer paths (strings); got {path!r}.")
        if path in self._policies:
            raise ValueError(
                f"{path!r} already exists in the PolicyMap with value {self._policies[path]}; "
                "keys must not be repeated."
            )
        try:
            re.compile(path)
            self._policies[path] = get(policy)
        except (TypeError, ValueError, re.error) as error:
            raise ValueError(f"Cannot set PolicyMap[{path!r}] = {policy!r}: {error}") from None

    def __delitem__(self, path: str) -> None:
        del self._policies[path]

    def __contains__(self, path: object) -> bool:
        return path in self._policies  # exact keys only, as Keras

    def __iter__(self) -> Iterator[str]:
        return iter(self._policies)

    def __len__(self) -> int:
        return len(self._policies)

    def get_config(self) -> dict[str, Any]:
        return {
            "default_policy": self.default_policy.name,
            "policy_map": {path: policy.name for path, policy in self._policies.items()},
        }

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> PolicyMap:
        return cls(**config)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PolicyMap):
            return NotImplemented
        return self.get_config() == other.get_config()

    __hash__ = None  # mutable

    def __repr__(self) -> str:
        mapping = [(path, policy.name) for path, policy in self._policies.items()]
        return f"<PolicyMap default_policy={self.default_policy.name}, mapping={mapping}>"
