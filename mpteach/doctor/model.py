"""``check_model``: a whole model as it is, with its policy, optimizer, loss and hardware.

Unlike :func:`~mpteach.doctor.check_layer`, nothing is rebuilt: the model is run once (eagerly,
``training=False``, so nothing in it changes) on ``sample_batch`` or, for a functional or
Sequential model, on a made-up batch of its input shape, while each layer's outputs are
recorded. There is no float32 twin to compare with, so inf/NaN checks run only on the learner's
own batch, where they say something about real data.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import keras
import numpy as np
import tensorflow as tf

from mpteach import hardware as hardware_module
from mpteach.doctor.diagnose import (
    HALF_DTYPES,
    cast_findings,
    compute_dtypes,
    error_finding,
    error_kind,
    failing_frame,
    float_leaves,
    numeric_findings,
    output_findings,
    probe_loss,
    recording,
    run_probe,
    short_message,
    tensor_core_findings,
    variable_findings,
    variable_path,
)
from mpteach.doctor.report import Finding, Phrase, Report, check_language


def check_model(
    model: keras.Model,
    optimizer: Any = None,
    sample_batch: Any = None,
    *,
    loss: Callable[[Any, Any], Any] | None = None,
    hardware: hardware_module.HardwareInfo | None = None,
    lang: str | None = None,
) -> Report:
    """Check a Keras 3 model for mixed-precision mistakes, layer by layer (by layer path).

    ``optimizer`` is the optimizer of a custom training loop (default: the one ``compile``
    set, if any); ``sample_batch`` is ``x``, ``(x, y)`` or ``(x, y, sample_weight)`` as for
    ``fit`` (needed for subclassed models, optional for functional ones); ``loss`` is the loss
    function of a custom loop, ``loss(y_true, y_pred)``. ``hardware`` (default:
    :func:`mpteach.hardware.detect`) decides the speed findings.

    >>> import keras
    >>> from mpteach import hardware
    >>> from mpteach.doctor import gallery
    >>> gpu = hardware.HardwareInfo(gpus=(hardware.GPUInfo("Tesla T4", (7, 5)),))
    >>> keras.config.set_dtype_policy("mixed_float16")
    >>> model = gallery.classifier(softmax_dtype="float16")
    >>> keras.config.set_dtype_policy("float32")
    >>> report = check_model(model, optimizer=keras.optimizers.SGD(), hardware=gpu)
    >>> report.codes
    ('no-loss-scaling', 'half-softmax')
    >>> print(report[1].what("es"))
    La softmax final se calcula en float16.
    """
    hw = _check_arguments(model, optimizer, loss, hardware)
    check_language(lang)
    x, y, sample_weight = _unpack(model, sample_batch)
    policy = model.dtype_policy.name

    def path(obj: Any) -> str:
        if isinstance(obj, keras.layers.Layer):
            return obj.path or obj.name
        return variable_path(obj, model, path)

    y_pred, seen, findings = _run(model, x, path, policy, given=sample_batch is not None)
    half = compute_dtypes(model) & set(HALF_DTYPES)
    findings += variable_findings(model, path, policy)
    findings += cast_findings(model, path)
    if half:
        findings += tensor_core_findings(model, path)
    if y_pred is not None:
        for layer, args, kwargs, outputs in seen:
            rerun = functools.partial(layer, *args, **kwargs)
            findings += output_findings(layer, outputs, path, policy, rerun, seen)
        findings += _output_dtype_findings(model, y_pred, seen, path, policy)
        findings += _loss_findings(model, loss, y, y_pred, policy)
        if sample_batch is not None:  # inf/NaN only on real data
            objective = _objective(model, loss, x, y, sample_weight) or probe_loss
            forward = functools.partial(model, x, training=False)
            probe = run_probe(forward, model.trainable_weights, [], path, objective)
            compute = "/".join(sorted(half)) or "float32"
            findings += numeric_findings(model.name, policy, compute, None, probe)
    findings += _optimizer_findings(model, optimizer, half, policy)
    findings += _hardware_findings(model, hw, half, policy)
    return Report(model.name, findings, (policy,), lang)


def _check_arguments(model: Any, optimizer: Any, loss: Any, hardware: Any) -> Any:
    """Refuse what is not a model, an optimizer, a loss or hardware; return the hardware."""
    if not isinstance(model, keras.Model):
        single = isinstance(model, keras.layers.Layer)
        hint = " (for a single layer use check_layer)" if single else ""
        raise TypeError(f"model must be a keras.Model{hint}; got {type(model).__name__}.")
    if optimizer is not None and not hasattr(optimizer, "apply_gradients"):
        raise TypeError(
            "optimizer must be a Keras optimizer (with apply_gradients), or None to use the one "
            f"set by compile; got {type(optimizer).__name__}."
        )
    if loss is not None and not callable(loss):
        raise TypeError(
            f"loss must be callable as loss(y_true, y_pred); got {type(loss).__name__}."
        )
    hw = hardware_module.detect() if hardware is None else hardware
    if not hasattr(hw, "device"):
        raise TypeError(
            "hardware must be a mpteach.hardware.HardwareInfo (from mpteach.hardware.detect()); "
            f"got {type(hardware).__name__}."
        )
    return hw


def _run(
    model: keras.Model, x: Any, path: Callable[[Any], str], policy: str, given: bool
) -> tuple[Any, list[tuple], list[Finding]]:
    """Call the model once, recording every layer; a dtype error becomes a finding, any other
    error means the batch does not fit the model (a ``ValueError`` naming it)."""
    with recording(model) as seen:
        try:
            return model(x, training=False), seen, []
        except Exception as error:
            if error_kind(error) == "other" or failing_frame(error)[0] is None:
                batch = "sample_batch" if given else "a batch of its input shape"
                raise ValueError(
                    f"model {model.name!r} cannot be called on {batch}: {short_message(error)}"
                ) from error
            rerun = functools.partial(model, x, training=False)
            finding = error_finding(error, layer=model, path=path, policy=policy, rerun=rerun)
            return None, seen, [finding]


def _unpack(model: keras.Model, sample_batch: Any) -> tuple[Any, Any, Any]:
    """``(x, y, sample_weight)``: from ``sample_batch``, or a made-up ``x`` for a model with inputs."""
    if not model.layers:
        raise ValueError(f"model {model.name!r} has no layers: there is nothing to check.")
    if sample_batch is not None:
        if isinstance(sample_batch, tuple):
            if not 1 <= len(sample_batch) <= 3:
                raise ValueError(
                    "sample_batch must be x, (x, y) or (x, y, sample_weight), as for fit; "
                    f"got a tuple of {len(sample_batch)} items."
                )
            x, y, sample_weight = (*sample_batch, None, None)[:3]
        else:
            x, y, sample_weight = sample_batch, None, None
        return x, y, sample_weight
    inputs = getattr(model, "inputs", None)
    if not inputs:
        raise ValueError(
            f"model {model.name!r} has no inputs yet (a subclassed or unbuilt model): pass "
            "sample_batch=x or (x, y) so that the doctor can run it."
        )
    rng = np.random.default_rng(0)
    made_up = []
    for spec in inputs:
        shape = [2 if i == 0 or d is None else d for i, d in enumerate(spec.shape)]
        dtype = str(spec.dtype)
        values = rng.standard_normal(shape) if "float" in dtype else np.zeros(shape)
        made_up.append(tf.constant(values, dtype=dtype))
    return (made_up[0] if len(made_up) == 1 else made_up), None, None


def _is_softmax(layer: keras.layers.Layer) -> bool:
    softmaxes = (keras.activations.softmax, keras.activations.log_softmax)
    return (
        isinstance(layer, keras.layers.Softmax) or getattr(layer, "activation", None) in softmaxes
    )


def _output_dtype_findings(
    model: keras.Model, y_pred: Any, seen: list, path: Callable[[Any], str], policy: str
) -> list[Finding]:
    """``half-softmax`` / ``half-output`` for each model output that is not float32."""
    findings = []
    for output in float_leaves(y_pred):
        if output.dtype.name not in HALF_DTYPES:
            continue
        producers = [
            layer for layer, _, _, out in seen if any(leaf is output for leaf in float_leaves(out))
        ]
        softmax = next((layer for layer in producers if _is_softmax(layer)), None)
        values = {"dtype": output.dtype.name}
        if softmax is not None:
            findings.append(Finding("half-softmax", path(softmax), (policy,), values))
        else:
            where = path(producers[-1]) if producers else model.name
            findings.append(Finding("half-output", where, (policy,), values))
    return findings


def _loss_findings(
    model: keras.Model, loss: Callable | None, y: Any, y_pred: Any, policy: str
) -> list[Finding]:
    """``half-loss``: the custom loop's ``loss`` returns 16 bits, or a compiled Loss object
    was made with a 16-bit dtype (Keras casts its result to float32, too late)."""
    dtypes = []
    if loss is not None and y is not None:
        try:
            value = loss(y, y_pred)
        except Exception as error:
            raise ValueError(
                f"loss(y, model(x)) raised {short_message(error)}; loss must accept the y of "
                "sample_batch and the model's outputs."
            ) from error
        dtypes += [v.dtype.name for v in float_leaves(value)]
    compiled = getattr(model, "loss", None) if getattr(model, "compiled", False) else None
    for item in tf.nest.flatten(compiled) if compiled is not None else []:
        if isinstance(item, keras.losses.Loss):
            dtypes.append(str(item.dtype))
    half = sorted(set(dtypes) & set(HALF_DTYPES))
    return [Finding("half-loss", model.name, (policy,), {"dtype": d}) for d in half]


def _objective(
    model: keras.Model, loss: Callable | None, x: Any, y: Any, sample_weight: Any
) -> Callable[[Any], tf.Tensor] | None:
    """What the gradients are taken of: the custom loop's loss or the compiled loss; ``None``
    (no ``y``, or no loss) means a fixed random projection of the outputs."""
    if y is None:
        return None
    if loss is not None:
        return lambda y_pred: tf.reduce_sum(tf.cast(loss(y, y_pred), tf.float32))
    if getattr(model, "compiled", False) and getattr(model, "loss", None) is not None:
        return lambda y_pred: model.compute_loss(x, y, y_pred, sample_weight, training=False)
    return None


def _scales_loss(optimizer: Any) -> bool:
    """A loss-scale optimizer (Keras's or mpteach's), or a fixed ``loss_scale_factor``."""
    wrapper = isinstance(optimizer, keras.optimizers.LossScaleOptimizer) or (
        hasattr(optimizer, "inner_optimizer") and hasattr(optimizer, "scale_loss")
    )
    return wrapper or getattr(optimizer, "loss_scale_factor", None) is not None


def _optimizer_findings(
    model: keras.Model, optimizer: Any, half: set[str], policy: str
) -> list[Finding]:
    chosen = optimizer if optimizer is not None else getattr(model, "optimizer", None)
    if "float16" not in half or chosen is None or _scales_loss(chosen):
        return []
    values = {"optimizer": type(chosen).__name__}
    return [Finding("no-loss-scaling", model.name, (policy,), values)]


def _hardware_findings(model: keras.Model, hw: Any, half: set[str], policy: str) -> list[Finding]:
    findings = []
    device = hw.label
    if "float16" in half:
        remapping = tf.config.optimizer.get_experimental_options().get("remapping", True)
        if hardware_module.float16_fusion_risk(hw) and remapping and not _jit(model):
            hint = Phrase("doctor.hint.bfloat16") if hardware_module.is_fast("bfloat16", hw) else ""
            values = {"device": device, "hint": hint}
            findings.append(Finding("cpu-float16", model.name, (policy,), values))
        if not hardware_module.is_fast("float16", hw):
            values = {"device": device, "best": hardware_module.best_policy(hw)}
            findings.append(Finding("slow-float16", model.name, (policy,), values))
    if "bfloat16" in half and not hardware_module.is_fast("bfloat16", hw):
        values = {"device": device, "best": hardware_module.best_policy(hw)}
        findings.append(Finding("slow-bfloat16", model.name, (policy,), values))
    return findings


def _jit(model: keras.Model) -> bool:
    """Compiled with XLA (``jit_compile=True``), which does not use the remapper's fusion."""
    return bool(getattr(model, "compiled", False) and model.jit_compile)
