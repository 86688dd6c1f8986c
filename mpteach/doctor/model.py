"""``check_model``: a whole model as it is, with its policy, optimizer, loss and hardware.

Unlike :func:`~mpteach.doctor.check_layer`, nothing is rebuilt: the model is run (eagerly,
``training=False``) on ``sample_batch`` or, for a functional or Sequential model, on a made-up
batch of its input shape, while each layer's inputs and outputs are recorded. Then:

* its **float32 twin** -- the same model, the same weights, every 16-bit layer switched to float32
  for the moment -- runs the same batch, and each 16-bit layer is compared with its twin on the
  twin's inputs, so the report names the layer that diverges (``numeric-divergence``) or that
  rounds whole numbers used as indices (``float-indices``);
* with ``sample_batch``, one real **training step** (``model.train_step``, the model's own if it
  has one) runs with a copy of each optimizer, and every variable is put back afterwards: what
  fails only in training, and a ``train_step`` that never calls ``scale_loss`` while its
  optimizer is a ``LossScaleOptimizer``, show up there;
* inf/NaN checks run only on the learner's own batch, where they say something about real data.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import keras
import numpy as np
import tensorflow as tf

from mpteach import hardware as hardware_module
from mpteach.doctor import source
from mpteach.doctor.diagnose import (
    HALF_DTYPES,
    cast_findings,
    casts_inputs,
    compute_dtypes,
    divergence_finding,
    diverges,
    error_finding,
    error_kind,
    failing_frame,
    float_index_values,
    float_leaves,
    numeric_findings,
    output_findings,
    probe_loss,
    recording,
    relative_error,
    rounded,
    rounded_integers,
    run_probe,
    short_message,
    tensor_core_findings,
    to_tensors,
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

    if _has_call(model):
        y_pred, seen, findings = _run(model, x, path, policy, given=sample_batch is not None)
    else:  # a model that only trains (a custom train_step around sub-models, like a VAE)
        y_pred, seen, findings = None, [], []
    half = compute_dtypes(model) & set(HALF_DTYPES)
    findings += variable_findings(model, path, policy)
    findings += cast_findings(model, path)
    if half:
        findings += tensor_core_findings(model, path)
    if y_pred is not None:
        for layer, args, kwargs, outputs in seen:
            rerun = functools.partial(layer, *args, **kwargs)
            findings += output_findings(layer, outputs, path, policy, rerun, seen)
        upcast = _loss_upcasts(model, loss, x, y, sample_weight, y_pred)
        findings += _output_dtype_findings(model, y_pred, seen, path, policy, upcast)
        findings += _loss_findings(model, loss, y, y_pred, policy)
        if half:
            findings += _twin_findings(model, x, path, policy)
        if sample_batch is not None:  # inf/NaN only on real data
            objective = _objective(model, loss, x, y, sample_weight) or probe_loss
            forward = functools.partial(model, x, training=False)
            probe = run_probe(forward, model.trainable_weights, [], path, objective)
            compute = "/".join(sorted(half)) or "float32"
            findings += numeric_findings(model.name, policy, compute, None, probe)
    if half and sample_batch is not None:
        findings += _training_findings(model, sample_batch, path, policy)
    findings += _optimizer_findings(model, optimizer, half, policy)
    findings += _hardware_findings(model, hw, half, policy)
    return Report(model.name, findings, (policy,), lang)


def _has_call(model: keras.Model) -> bool:
    """Whether the model can be called (a subclassed model may define only ``train_step``)."""
    return type(model).call is not keras.Model.call


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
    inputs = getattr(model, "inputs", None) if _has_call(model) else None
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
    model: keras.Model,
    y_pred: Any,
    seen: list,
    path: Callable[[Any], str],
    policy: str,
    loss_upcasts: bool,
) -> list[Finding]:
    """``half-softmax`` / ``half-output`` for each model output that is not float32.

    ``half-output`` only where it would help: a Keras loss converts the predictions to float32
    before it computes (logits into ``from_logits=True`` cross-entropy, for instance), so a
    float32 output layer would give it the very same numbers (``loss_upcasts``). A 16-bit
    softmax is another matter: it was already computed in 16 bits.
    """
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
        elif not loss_upcasts:
            where = path(producers[-1]) if producers else model.name
            findings.append(Finding("half-output", where, (policy,), values))
    return findings


def _compiled_losses(model: keras.Model) -> list[Any]:
    compiled = getattr(model, "loss", None) if getattr(model, "compiled", False) else None
    return [] if compiled is None else list(tf.nest.flatten(compiled))


def _loss_upcasts(
    model: keras.Model, loss: Any, x: Any, y: Any, sample_weight: Any, y_pred: Any
) -> bool:
    """Whether the loss the outputs go to turns them into float32 itself, so that a float32
    output layer would change nothing. With ``y``, the loss is computed on the outputs as they
    are and cast to float32, and the two values must be the same; without it, a Keras loss
    (any compiled loss: compile wraps functions in one) with a float32 dtype counts."""
    if loss is not None and not isinstance(loss, keras.losses.Loss):
        return False  # a custom loop's own function sees the 16-bit outputs as they are
    if loss is None and not _compiled_losses(model):
        return False  # nothing known about what the outputs feed
    if y is not None:

        def value(predictions: Any) -> np.ndarray:
            if loss is not None:
                return np.asarray(loss(y, predictions))
            return np.asarray(model.compute_loss(x, y, predictions, sample_weight, training=False))

        as_float32 = tf.nest.map_structure(
            lambda t: tf.cast(t, "float32") if t.dtype.name in HALF_DTYPES else t, y_pred
        )
        try:
            return bool(np.array_equal(value(y_pred), value(as_float32)))
        except Exception:  # a loss that cannot take the batch: fall back on what it declares
            pass
    losses = [loss] if loss is not None else _compiled_losses(model)
    return all(
        str(getattr(item, "dtype", "float32")) == "float32"
        for item in losses
        if isinstance(item, keras.losses.Loss)
    )


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


# --- the float32 twin ---------------------------------------------------------------------------


@contextmanager
def _float32_twin(model: keras.Model) -> Iterator[dict[int, str]]:
    """The model as its own float32 twin for the block: every 16-bit layer computes in float32
    (the variables are float32 already, so the weights are the same); then each layer gets its
    own policy object back. Yields each switched layer's compute dtype, by ``id``."""
    switched: list[tuple[keras.layers.Layer, Any]] = []
    computes: dict[int, str] = {}
    float32 = keras.DTypePolicy("float32")
    for layer in model._flatten_layers(include_self=True):
        policy = getattr(layer, "_dtype_policy", None)
        if isinstance(policy, keras.DTypePolicy) and policy.compute_dtype in HALF_DTYPES:
            if getattr(policy, "quantization_mode", None) is None:
                switched.append((layer, policy))
                computes[id(layer)] = policy.compute_dtype
    try:
        for layer, _ in switched:
            layer._dtype_policy = float32
        yield computes
    finally:
        for layer, policy in switched:
            layer._dtype_policy = policy


def _twin_findings(
    model: keras.Model, x: Any, path: Callable[[Any], str], policy: str
) -> list[Finding]:
    """Each 16-bit layer against its float32 twin, on the twin's own inputs (so that errors do
    not pile up from layer to layer and the report names the layer where they start):

    * ``float-indices``: the layer's floating inputs are whole numbers that its compute dtype
      rounds, and the twin's result changes with them (they are indices);
    * ``numeric-divergence``: on inputs already rounded to the compute dtype, the layer is
      further from its twin than rounding explains.

    Only the innermost layer of a nest is reported (a block diverges when its sublayer does).
    """
    casting = {id(layer): casts_inputs(layer) for layer in model._flatten_layers()}
    calls = []
    with _float32_twin(model) as computes:
        with recording(model) as seen:
            model(x, training=False)
        for layer, args, kwargs, exact in seen:
            compute = computes.get(id(layer))
            if compute is None:
                continue
            if casting.get(id(layer)):  # what the 16-bit layer sees of its inputs
                args_seen, kwargs_seen = rounded(args, compute), rounded(kwargs, compute)
            else:
                args_seen, kwargs_seen = args, kwargs
            try:
                near = layer(*args_seen, **kwargs_seen)
            except Exception:  # a layer that cannot be called on its own: nothing to compare
                continue
            calls.append((layer, args, kwargs, compute, exact, near))
    flagged: dict[int, tuple[keras.layers.Layer, Finding]] = {}
    for layer, args, kwargs, compute, exact, near in calls:
        where = path(layer)
        lost = rounded_integers((args, kwargs), compute) if casting.get(id(layer)) else []
        if lost and diverges(relative_error(near, exact), compute):
            values = float_index_values(compute, lost)
            flagged[id(layer)] = (layer, Finding("float-indices", where, (policy,), values))
            continue
        try:
            outputs = layer(*args, **kwargs)
            again = layer(*args, **kwargs)
        except Exception:
            continue
        if relative_error(again, outputs) != 0:
            continue  # random even in inference: no twin to compare with
        finding = divergence_finding(where, policy, compute, outputs, near)
        if finding is not None:
            flagged.setdefault(id(layer), (layer, finding))
    innermost = []
    for layer, finding in flagged.values():
        inner = [id(sub) for sub in layer._flatten_layers(include_self=False)]
        if not any(i in flagged for i in inner):
            innermost.append(finding)
    return innermost


# --- one training step --------------------------------------------------------------------------


def _copy_optimizer(optimizer: Any) -> Any:
    return type(optimizer).from_config(optimizer.get_config())


@contextmanager
def _sandbox(model: keras.Model) -> Iterator[dict[str, Any]]:
    """Run a training step on ``model`` without leaving a trace: every optimizer attribute is
    replaced by a copy for the block, and every variable (weights, moving statistics, random
    states, metrics) is put back afterwards. Yields the copies by attribute name."""
    optimizers = {
        name: value
        for name, value in vars(model).items()
        if isinstance(value, keras.optimizers.Optimizer)
    }
    copies = {name: _copy_optimizer(value) for name, value in optimizers.items()}
    saved = {id(v): (v, v.numpy()) for v in model.variables + model.metrics_variables}
    for name, copy in copies.items():
        object.__setattr__(model, name, copy)
    try:
        yield copies
    finally:
        for name, value in optimizers.items():
            object.__setattr__(model, name, value)
        for variable, value in saved.values():
            variable.assign(value)
        for metric in model.metrics:  # metrics built by this step start empty, as in fit
            if any(id(v) not in saved for v in metric.variables):
                metric.reset_state()


class _Calls:
    """Counts calls of ``scale_loss`` and ``apply`` on a loss-scale optimizer (its copy)."""

    def __init__(self, optimizer: Any) -> None:
        self.scaled = self.applied = 0
        scale_loss, apply = optimizer.scale_loss, optimizer.apply

        def counted_scale_loss(loss: Any) -> Any:
            self.scaled += 1
            return scale_loss(loss)

        def counted_apply(*args: Any, **kwargs: Any) -> Any:
            self.applied += 1
            return apply(*args, **kwargs)

        object.__setattr__(optimizer, "scale_loss", counted_scale_loss)
        object.__setattr__(optimizer, "apply", counted_apply)


def _custom_train_step(model: keras.Model) -> type | None:
    """The learner's class that defines ``train_step``, if the model does not use Keras's."""
    owner = next((c for c in type(model).__mro__ if "train_step" in vars(c)), None)
    return owner if owner is not None and source.own_classes(owner) == [owner] else None


def _training_findings(
    model: keras.Model, sample_batch: Any, path: Callable[[Any], str], policy: str
) -> list[Finding]:
    """What one training step on ``sample_batch`` shows: a failure that float32 does not have
    (``training=True`` branches, the loss, the gradients), 16-bit layers that compute in float32
    only in training, and a ``train_step`` that applies gradients through a loss-scale optimizer
    without ever scaling the loss."""
    custom = _custom_train_step(model)
    compiled = getattr(model, "compiled", False) and getattr(model, "optimizer", None) is not None
    if custom is None and not compiled:
        return []  # nothing that says how this model trains
    data = to_tensors(sample_batch)
    step = functools.partial(model.train_step, data)
    findings: list[Finding] = []
    with _sandbox(model) as copies, recording(model) as seen:
        watched = {
            name: _Calls(copy)
            for name, copy in copies.items()
            if isinstance(copy, keras.optimizers.LossScaleOptimizer)
        }
        try:
            step()
        except Exception as error:
            return _training_failure(model, error, step, path, policy)
        calls = list(seen)  # reruns below are recorded too: iterate over the step's own calls
        for layer, args, kwargs, outputs in calls:
            rerun = functools.partial(layer, *args, **kwargs)
            findings += output_findings(
                layer, outputs, path, policy, rerun, calls, phase="training"
            )
    for name, calls in watched.items():
        if calls.applied and not calls.scaled:
            optimizer = getattr(model, name)
            values = {
                "optimizer": type(optimizer.inner_optimizer).__name__,
                "scale": f"{float(optimizer.initial_scale):g}",
            }
            lines = tuple(source.optimizer_steps(custom)) if custom is not None else ()
            findings.append(
                Finding(
                    "unscaled-train-step", path(model), (policy,), values, lines, phase="training"
                )
            )
    return findings


def _training_failure(
    model: keras.Model,
    error: BaseException,
    step: Callable[[], Any],
    path: Callable[[Any], str],
    policy: str,
) -> list[Finding]:
    """The finding for a training step that raised ``error`` (inside the sandbox): none if the
    float32 twin fails too (the batch does not fit the model, say: not a precision problem)."""
    kind = error_kind(error)
    culprit, where = failing_frame(error)
    if kind == "other" or culprit is None:
        with _float32_twin(model):
            try:
                step()
            except Exception:
                return []
    if culprit is not None:
        return [
            error_finding(
                error, layer=model, path=path, policy=policy, rerun=step, phase="training"
            )
        ]
    compute = "/".join(sorted(compute_dtypes(model) & set(HALF_DTYPES)))
    values = {"compute": compute, "error": short_message(error)}
    lines = (where,) if where else ()
    return [Finding("train-step-fails", path(model), (policy,), values, lines, phase="training")]
