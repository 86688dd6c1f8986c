"""``check_layer``: run a layer under float32 and the mixed policies, and compare.

For each policy a fresh layer is made (a layer keeps the policy it was created with), called on
the same inputs and differentiated along a fixed random direction. The float32 run is the
reference: its weights are copied into the 16-bit layers, so that any difference in the numbers
comes from the dtype alone. Its outputs on the inputs rounded to the compute dtype are what the
16-bit layer should give up to rounding (``numeric-divergence``); whole numbers that rounding
changes and that the layer uses as indices are ``float-indices``. A layer with a training
branch (``training`` in its or a sublayer's ``call``) is also run with ``training=True``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import keras
import numpy as np
import tensorflow as tf

from mpteach.doctor.diagnose import (
    MIXED_POLICIES,
    Path,
    Probe,
    argument_names,
    cast_findings,
    casts_inputs,
    divergence_finding,
    error_finding,
    float_index_finding,
    float_leaves,
    keras2_effect,
    keras_policy,
    numeric_findings,
    output_findings,
    recording,
    rounded,
    run_probe,
    same,
    short_message,
    to_tensors,
    variable_findings,
    variable_path,
    variable_update_findings,
)
from mpteach.doctor.report import Finding, Report, check_language


def check_layer(
    layer_factory: Callable[[], keras.layers.Layer],
    inputs: Any,
    *,
    call_kwargs: dict[str, Any] | None = None,
    policies: Iterable[str] = MIXED_POLICIES,
    lang: str | None = None,
) -> Report:
    """Check a Keras 3 layer for mixed-precision mistakes.

    ``layer_factory`` makes a new layer: the class itself, or a function such as
    ``lambda: MyLayer(8)``. ``inputs`` is what the layer is called on (NumPy arrays or tensors;
    a ``tuple`` is passed as several positional arguments, anything else as the first one);
    ``call_kwargs`` are keyword arguments for the call (``{"training": True}``). Each of
    ``policies`` (``"mixed_float16"``, ``"mixed_bfloat16"``) is compared with float32.
    The global policy is left as it was.

    >>> import numpy as np
    >>> from mpteach.doctor import gallery
    >>> x = np.ones((2, 4), "float32")
    >>> check_layer(gallery.SimpleDense, x).ok
    True
    >>> report = check_layer(gallery.AddRandom, x)
    >>> report.codes, report[0].policies
    (('uncast-tensor-creation',), ('mixed_float16', 'mixed_bfloat16'))
    >>> print(report[0].snippet.splitlines()[0])
    noise = tf.random.normal(tf.shape(inputs), dtype=inputs.dtype)
    """
    make = _factory(layer_factory)
    args = _arguments(inputs)
    kwargs = to_tensors(_keyword_arguments(call_kwargs))
    policies = _policies(policies)
    check_language(lang)
    with keras_policy("float32"):
        reference = _make(make)
        ref_path = _namer(reference, reference)
        ref_probe = _reference_probe(reference, args, kwargs, ref_path)
        training = _training_kwargs(reference, args, kwargs)
    ref_probe.exact = _float64_gradients(make, reference, args, kwargs, ref_path)
    findings = cast_findings(reference, ref_path)
    for policy in policies:
        with keras_policy(policy):
            layer = _make(make)
            called, found = _check_under(policy, layer, reference, ref_probe, args, kwargs)
            findings += found
            if called and training is not None:
                findings += _check_training(policy, layer, reference, args, training)
    return Report(type(reference).__name__, findings, ("float32", *policies), lang)


@contextmanager
def _kept_state(layer: keras.layers.Layer) -> Iterator[None]:
    """Put every variable of ``layer`` (moving statistics too) back as it was after the block."""
    saved = [(v, v.numpy()) for v in layer.weights]
    try:
        yield
    finally:
        for v, value in saved:
            v.assign(value)


def _training_kwargs(
    reference: keras.layers.Layer, args: tuple, kwargs: dict
) -> dict[str, Any] | None:
    """``kwargs`` with ``training=True`` when the layer (or a sublayer) has a training branch
    that the float32 reference runs; ``None`` when there is none, or the caller chose."""
    if "training" in kwargs or not any(
        getattr(sub, "_call_has_training_arg", False) for sub in reference._flatten_layers()
    ):
        return None
    training = {**kwargs, "training": True}
    with _kept_state(reference):
        try:
            reference(*args, **training)
        except Exception:  # it does not train on these inputs even in float32: not our concern
            return None
    return training


def _check_under(
    policy: str,
    layer: keras.layers.Layer,
    reference: keras.layers.Layer,
    ref_probe: Probe,
    args: tuple,
    kwargs: dict,
) -> tuple[bool, list[Finding]]:
    """Whether the call succeeded, and the findings of ``layer`` under ``policy``."""
    path = _namer(layer, reference)

    def call() -> Any:
        return layer(*args, **kwargs)

    with recording(layer) as seen:
        try:
            outputs = call()  # builds the layer
        except Exception as error:
            return False, [error_finding(error, layer=layer, path=path, policy=policy, rerun=call)]
    findings = variable_findings(layer, path, policy)
    findings += output_findings(layer, outputs, path, policy, call, seen)
    copied = _copy_weights(reference, layer)
    try:
        probe = run_probe(call, layer.trainable_weights, _float_inputs(layer, args, kwargs), path)
    except Exception as error:  # e.g. an operation with no 16-bit gradient kernel
        finding = error_finding(error, layer=layer, path=path, policy=policy, rerun=call)
        if _weights_differentiate(call, layer, path):
            # Only the gradient with respect to the inputs fails: it is needed only when
            # trainable layers come before this one (not for an augmentation layer at the
            # start of a model), so it is a note.
            finding = dataclasses.replace(finding, severity="info")
        return True, [*findings, finding]
    compute = layer.compute_dtype
    # Wrong indices explain every other difference (a gradient lands on another embedding row),
    # so they are looked for first.
    numeric = _float_indices(policy, layer, reference, args, kwargs, path) if copied else []
    numeric = numeric or numeric_findings(
        path(layer), policy, compute, ref_probe, probe, compare_zeros=ref_probe.deterministic
    )
    if not numeric and copied and ref_probe.deterministic:
        numeric = _divergence(policy, layer, reference, args, kwargs, path)
    findings += numeric
    uncast, effect = keras2_effect(layer, args, kwargs)
    if effect is not None:
        values = {"arguments": tuple(uncast), "effect": effect}
        findings.append(Finding("keras2-uncast-argument", path(layer), (policy,), values))
    if copied:
        compute_args, compute_kwargs = rounded(args, compute), rounded(kwargs, compute)
        findings += variable_update_findings(
            reference,
            layer,
            lambda: reference(*compute_args, **compute_kwargs),
            call,
            path,
            policy,
        )
    return True, findings


def _run_reference(reference: keras.layers.Layer) -> Callable[[tuple, dict], Any]:
    def run(args: tuple, kwargs: dict) -> Any:
        with _kept_state(reference):
            return reference(*args, **kwargs)

    return run


def _float_indices(
    policy: str,
    layer: keras.layers.Layer,
    reference: keras.layers.Layer,
    args: tuple,
    kwargs: dict,
    path: Path,
) -> list[Finding]:
    finding = float_index_finding(
        layer, args, kwargs, _run_reference(reference), path(layer), policy
    )
    return [] if finding is None else [finding]


def _weights_differentiate(call: Callable[[], Any], layer: keras.layers.Layer, path: Path) -> bool:
    """Whether the gradients with respect to the layer's own weights (if any) work."""
    try:
        run_probe(call, layer.trainable_weights, [], path)
    except Exception:
        return False
    return True


def _divergence(
    policy: str,
    layer: keras.layers.Layer,
    reference: keras.layers.Layer,
    args: tuple,
    kwargs: dict,
    path: Path,
) -> list[Finding]:
    """``numeric-divergence``: the 16-bit outputs against the float32 reference on the inputs
    rounded to the compute dtype, from the same state."""
    compute = layer.compute_dtype
    if casts_inputs(layer):  # the reference gets the inputs as the 16-bit layer sees them
        args, kwargs = rounded(args, compute), rounded(kwargs, compute)
    expected = _run_reference(reference)(args, kwargs)
    with _kept_state(layer):
        outputs = layer(*args, **kwargs)
    finding = divergence_finding(path(layer), policy, compute, outputs, expected)
    return [] if finding is None else [finding]


def _check_training(
    policy: str,
    layer: keras.layers.Layer,
    reference: keras.layers.Layer,
    args: tuple,
    training: dict,
) -> list[Finding]:
    """The training branch (``training=True``) under ``policy``: what fails or silently goes
    wrong only there, such as noise made in float32 for stochastic depth, or moving averages
    updated in 16 bits."""
    path = _namer(layer, reference)

    def call() -> Any:
        return layer(*args, **training)

    with _kept_state(layer), recording(layer) as seen:
        try:
            outputs = call()
        except Exception as error:
            finding = error_finding(
                error, layer=layer, path=path, policy=policy, rerun=call, phase="training"
            )
            return [finding]
    findings = output_findings(layer, outputs, path, policy, call, seen, phase="training")
    compute = layer.compute_dtype
    compute_args, compute_kwargs = rounded(args, compute), rounded(training, compute)
    findings += variable_update_findings(
        reference,
        layer,
        lambda: reference(*compute_args, **compute_kwargs),
        call,
        path,
        policy,
        phase="training",
    )
    return findings


def _reference_probe(layer: keras.layers.Layer, args: tuple, kwargs: dict, path: Path) -> Probe:
    def call() -> Any:
        return layer(*args, **kwargs)

    try:
        call()
        inputs = _float_inputs(layer, args, kwargs)
        probe = run_probe(call, layer.trainable_weights, inputs, path)
        probe.deterministic = same(probe, run_probe(call, layer.trainable_weights, inputs, path))
        return probe
    except Exception as error:
        raise ValueError(
            f"{type(layer).__name__} cannot be called on `inputs` under the float32 policy, so "
            f"there is nothing to compare the mixed policies with: {short_message(error)}. "
            "`inputs` is passed as the first argument of call (a tuple as several arguments), "
            "`call_kwargs` as keyword arguments."
        ) from error


def _float64_gradients(
    make: Callable[[], Any], reference: keras.layers.Layer, args: tuple, kwargs: dict, path: Path
) -> list[np.ndarray | None] | None:
    """The reference's gradients computed by a float64 twin with the same weights, or ``None``
    where the layer does not run in float64 (then float32's zeros are taken as they are)."""
    try:
        with keras_policy("float64"):
            twin = _make(make)

            def call() -> Any:
                return twin(*args, **kwargs)

            call()
            if not _copy_weights(reference, twin):
                return None
            probe = run_probe(call, twin.trainable_weights, _float_inputs(twin, args, kwargs), path)
    except Exception:  # no float64 kernel, a dtype check in the layer: nothing to confirm with
        return None
    return [g for _, g in probe.grads]


def _float_inputs(layer: keras.layers.Layer, args: tuple, kwargs: dict) -> list[tuple[str, Any]]:
    """Named floating input tensors, to differentiate with respect to."""
    named = []
    for name, value in argument_names(layer, args, kwargs):
        leaves = float_leaves(value)
        if len(leaves) == 1 and leaves[0] is value:
            named.append((name, value))
        else:
            named += [(f"{name}[{i}]", leaf) for i, leaf in enumerate(leaves)]
    return named


def _copy_weights(source: keras.layers.Layer, target: keras.layers.Layer) -> bool:
    """Give ``target`` the reference's weights (when both have the same variables); whether
    they now hold the same values."""
    pairs = list(zip(source.weights, target.weights, strict=False))
    if len(source.weights) != len(target.weights) or any(
        tuple(a.shape) != tuple(b.shape) for a, b in pairs
    ):
        return False
    for a, b in pairs:
        b.assign(tf.cast(a.value, b.dtype))
    return True


def _namer(layer: keras.layers.Layer, reference: keras.layers.Layer) -> Path:
    """Report paths that do not depend on Keras's automatic names (``dense_7``): the checked
    layer is called by its class name, and its sublayers by the reference's names, matched by
    position (the same code makes the same sublayers in the same order)."""
    root = type(reference).__name__

    def relative(path: str, top: keras.layers.Layer) -> str:
        top_path = top.path or top.name
        if path == top_path:
            return root
        if path.startswith(top_path + "/"):
            return root + path[len(top_path) :]
        return f"{root}/{path}"

    def layer_path(obj: keras.layers.Layer) -> str:
        mine, theirs = layer._flatten_layers(), reference._flatten_layers()
        for a, b in zip(mine, theirs, strict=False):
            if a is obj and len(mine) == len(theirs):
                return relative(b.path or b.name, reference)
        return relative(obj.path or obj.name, layer)

    def path(obj: Any) -> str:
        if isinstance(obj, keras.layers.Layer):
            return layer_path(obj)
        found = variable_path(obj, layer, layer_path)
        return found if found != obj.path else relative(obj.path, layer)

    return path


def _factory(layer_factory: Any) -> Callable[[], keras.layers.Layer]:
    if isinstance(layer_factory, keras.layers.Layer):
        raise TypeError(
            f"layer_factory must make a new layer, but got the layer {layer_factory.name!r} "
            "itself: a layer keeps the policy it was created with, and each policy needs its own. "
            f"Pass the class ({type(layer_factory).__name__}) or a function such as "
            f"`lambda: {type(layer_factory).__name__}(...)`."
        )
    if not callable(layer_factory):
        raise TypeError(
            "layer_factory must be a callable that returns a keras.layers.Layer (a Layer class, "
            f"or a function such as `lambda: MyLayer(8)`); got {type(layer_factory).__name__}."
        )
    return layer_factory


def _make(make: Callable[[], Any]) -> keras.layers.Layer:
    try:
        layer = make()
    except Exception as error:
        raise ValueError(f"layer_factory() raised {short_message(error)}") from error
    if not isinstance(layer, keras.layers.Layer):
        raise TypeError(
            f"layer_factory() must return a keras.layers.Layer; it returned {type(layer).__name__}."
        )
    return layer


def _arguments(inputs: Any) -> tuple:
    if inputs is None:
        raise ValueError(
            "inputs is required: the tensors or NumPy arrays to call the layer on "
            "(a tuple for several positional arguments)."
        )
    args = inputs if isinstance(inputs, tuple) else (inputs,)
    converted = to_tensors(args)
    if not any(isinstance(x, tf.Tensor) for x in tf.nest.flatten(converted)):
        raise TypeError(
            f"inputs must contain at least one tensor or NumPy array; got {type(inputs).__name__}."
        )
    return tuple(converted)


def _keyword_arguments(call_kwargs: Any) -> dict[str, Any]:
    if call_kwargs is None:
        return {}
    if not isinstance(call_kwargs, dict) or not all(isinstance(k, str) for k in call_kwargs):
        raise TypeError(
            "call_kwargs must be a dict of keyword arguments for call, such as "
            f"{{'training': True}}; got {type(call_kwargs).__name__}."
        )
    return dict(call_kwargs)


def _policies(policies: Iterable[str] | str) -> tuple[str, ...]:
    chosen = (policies,) if isinstance(policies, str) else tuple(policies)
    if not chosen or any(p not in MIXED_POLICIES for p in chosen):
        choices = ", ".join(repr(p) for p in MIXED_POLICIES)
        raise ValueError(f"policies={policies!r}: choose one or more of {choices}.")
    return tuple(dict.fromkeys(chosen))
