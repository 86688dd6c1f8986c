"""``check_model``: a whole model as it is, with its policy, optimizer, loss and hardware.

Unlike :func:`~mpteach.doctor.check_layer`, nothing is rebuilt: the model is run (eagerly,
``training=False``) on the ``x`` of ``sample_batch`` or, for a functional or Sequential model,
on a made-up batch of its input shape, while each layer's inputs and outputs are recorded. Then:

* its **float32 twin** -- the same model, the same weights, every 16-bit layer switched to float32
  for the moment -- runs the same batch, and each 16-bit layer is compared with its twin on the
  twin's inputs, so the report names the layer that diverges (``numeric-divergence``, with what
  it changes in the loss and the gradients; ``divergence-without-effect`` when it changes
  neither), that rounds whole numbers used as indices (``float-indices``), or that stores a value
  rounded to 16 bits in a float32 variable (``rounded-variable-update``);
* with ``sample_batch`` (``x``, ``(x, y)``, ``(x, y, sample_weight)``, dictionaries inside or
  as the batch itself, as ``fit`` takes them), one real **training step** (``model.train_step``,
  the model's own if it has one) runs with a copy of every optimizer the model holds, and every
  variable is put back afterwards: what fails only in training (named by where its float32
  operand came from: the batch, or a tensor the code made or keeps), a ``train_step``
  that never calls ``scale_loss`` while its optimizer is a ``LossScaleOptimizer``, and optimizers
  that apply float16 gradients without scaling, each compared with its float32 twin's update;
* inf/NaN checks run only on the learner's own batch, where they say something about real data.

A part the doctor cannot run on the model and batch it was given (a ``call`` that does not take
the batch's ``x`` because ``train_step`` takes the batch apart) is a ``check-skipped`` note.
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
    origin_finding,
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
    variable_update_findings,
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
    with _restored(model):
        findings = _model_findings(model, optimizer, sample_batch, loss, hw)
    return Report(model.name, findings, (model.dtype_policy.name,), lang)


@contextmanager
def _restored(model: keras.Model) -> Iterator[None]:
    """Put every variable of the model back as it was: a ``call`` may assign to its own
    variables (a masked kernel, a running statistic), and the checks run it many times."""
    saved = [(v, v.numpy()) for v in model.variables] if model.built else []
    try:
        yield
    finally:
        for variable, value in saved:
            variable.assign(value)


def _model_findings(
    model: keras.Model, optimizer: Any, sample_batch: Any, loss: Any, hw: Any
) -> list[Finding]:
    """Everything :func:`check_model` reports, unsorted."""
    x, y, sample_weight = _unpack(model, sample_batch)
    policy = model.dtype_policy.name

    def path(obj: Any) -> str:
        if isinstance(obj, keras.layers.Layer):
            return obj.path or obj.name
        return variable_path(obj, model, path)

    failure = None
    if _has_call(model):
        y_pred, seen, findings, failure = _run(model, x, path, policy)
    else:  # a model that only trains (a custom train_step around sub-models, like a VAE)
        y_pred, seen, findings = None, [], []
    if failure is not None:
        findings.append(_skipped_call(model, sample_batch, failure))
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

            def twin() -> list[Finding]:
                found = _twin_findings(model, x, path, policy)
                if any(f.code == "numeric-divergence" for f in found):
                    chosen = (
                        optimizer if optimizer is not None else getattr(model, "optimizer", None)
                    )
                    effect = _divergence_effect(model, loss, x, y, sample_weight, chosen)
                    found = [_judged(f, effect) for f in found]
                return found

            findings += _guarded(model, "twin", twin)
        if sample_batch is not None:  # inf/NaN only on real data

            def gradients() -> list[Finding]:
                objective = _objective(model, loss, x, y, sample_weight) or probe_loss
                forward = functools.partial(model, x, training=False)
                probe = run_probe(forward, model.trainable_weights, [], path, objective)
                compute = "/".join(sorted(half)) or "float32"
                return numeric_findings(model.name, policy, compute, None, probe)

            findings += _guarded(model, "gradients", gradients)
    if half and sample_batch is not None:
        training = functools.partial(_training_findings, model, sample_batch, path, policy, half)
        findings += _guarded(model, "training", training)
    findings += _optimizer_findings(model, optimizer, half, policy)
    findings += _hardware_findings(model, hw, half, policy)
    return findings


def _has_call(model: keras.Model) -> bool:
    """Whether the model can be called (a subclassed model may define only ``train_step``)."""
    return type(model).call is not keras.Model.call


def _skipped_call(model: keras.Model, sample_batch: Any, failure: BaseException) -> Finding:
    """``check-skipped`` when the model cannot be called on the batch's ``x`` but trains on the
    batch in float32 (its ``train_step`` takes the batch apart itself); otherwise the batch
    does not fit the model at all: a ``ValueError`` that says so."""
    if sample_batch is None or not _trains_in_float32(model, sample_batch):
        batch = "sample_batch" if sample_batch is not None else "a batch of its input shape"
        raise ValueError(
            f"model {model.name!r} cannot be called on {batch}: {short_message(failure)}"
        ) from failure
    values = {"part": Phrase("doctor.part.call"), "error": short_message(failure)}
    return Finding("check-skipped", model.name, (), values)


def _guarded(model: keras.Model, part: str, check: Callable[[], list[Finding]]) -> list[Finding]:
    """The findings of one part of the check, or, if the doctor cannot run that part on this
    model (an error of its own, not of the model's precision), a ``check-skipped`` note that
    names the part and the error: the rest of the report still stands."""
    try:
        return check()
    except Exception as error:
        values = {"part": Phrase(f"doctor.part.{part}"), "error": short_message(error)}
        return [Finding("check-skipped", model.name, (), values)]


def _trains_in_float32(model: keras.Model, sample_batch: Any) -> bool:
    """Whether one training step of the model, all in float32, runs on ``sample_batch``."""
    if not _trains(model):
        return False
    with _sandbox(model), _float32_twin(model):
        try:
            model.train_step(to_tensors(sample_batch))
        except Exception:
            return False
    return True


def _trains(model: keras.Model) -> bool:
    """Whether something says how the model trains: its own ``train_step``, or ``compile``."""
    compiled = getattr(model, "compiled", False) and getattr(model, "optimizer", None) is not None
    return compiled or _custom_train_step(model) is not None


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
    model: keras.Model, x: Any, path: Callable[[Any], str], policy: str
) -> tuple[Any, list[tuple], list[Finding], BaseException | None]:
    """Call the model once, recording every layer. A failure that its float32 twin does not
    have becomes a finding; one the twin has too is returned as the last item: the batch's
    ``x`` does not fit the model's ``call`` (a model whose ``train_step`` takes a dictionary
    and calls ``self`` on parts of it, say)."""
    with recording(model) as seen:
        try:
            return model(x, training=False), seen, [], None
        except Exception as error:
            failure = error
    rerun = functools.partial(model, x, training=False)
    if error_kind(failure) == "other" or failing_frame(failure)[0] is None:
        with _float32_twin(model):
            try:
                rerun()
            except Exception:
                return None, seen, [], failure
    finding = error_finding(failure, layer=model, path=path, policy=policy, rerun=rerun, batch=x)
    return None, seen, [finding], None


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
    float32 output layer would give it the very same numbers (``loss_upcasts``); and not where
    the model's own ``train_step`` decides what its outputs feed. A 16-bit softmax is another
    matter: it was already computed in 16 bits.
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
        elif not loss_upcasts and not _outputs_unknown(model):
            where = path(producers[-1]) if producers else model.name
            findings.append(Finding("half-output", where, (policy,), values))
    return findings


def _outputs_unknown(model: keras.Model) -> bool:
    """Whether nothing says what the model's outputs feed: its own ``train_step`` computes its
    losses (a GAN's call returns generated images) and ``compile`` was given none. The training
    step's checks judge such a model instead."""
    return _custom_train_step(model) is not None and not _compiled_losses(model)


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
    updates: dict[int, tuple[keras.layers.Layer, Finding]] = {}
    for layer, args, kwargs, compute, exact, near in calls:
        where = path(layer)
        if source.own_classes(type(layer)):  # a learner's layer that may store what it computes
            args_seen, kwargs_seen = rounded(args, compute), rounded(kwargs, compute)
            run_own = functools.partial(layer, *args_seen, **kwargs_seen)
            run_twin = functools.partial(_as_float32, layer, run_own)
            for finding in variable_update_findings(layer, layer, run_twin, run_own, path, policy):
                updates.setdefault(id(layer), (layer, finding))
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
    return _innermost(flagged) + _innermost(updates)


def _innermost(flagged: dict[int, tuple[keras.layers.Layer, Finding]]) -> list[Finding]:
    """The findings of layers none of whose sublayers has one (a block diverges, or stores a
    rounded value, because its sublayer does)."""
    innermost = []
    for layer, finding in flagged.values():
        inner = [id(sub) for sub in layer._flatten_layers(include_self=False)]
        if not any(i in flagged for i in inner):
            innermost.append(finding)
    return innermost


def _as_float32(layer: keras.layers.Layer, call: Callable[[], Any]) -> Any:
    """``call()`` with ``layer`` and its sublayers computing in float32."""
    with _float32_twin(layer):
        return call()


# Thresholds for a divergence that changes training on the sample batch: the loss (or, without
# labels, the model's outputs) moves by more than 1 %, or the gradients by more than 10 %
# (normwise, all trainable weights together). Rounding alone moves a loss by about u and the
# gradients of a mixed model by 0.1-3 % (measured on the gallery's models).
LOSS_EFFECT = 0.01
GRADIENT_EFFECT = 0.10


def _divergence_effect(
    model: keras.Model, loss: Any, x: Any, y: Any, sample_weight: Any, optimizer: Any
) -> tuple[str, float, float]:
    """What a divergence changes in training: ``(what, loss error, gradient error)`` of the
    model against its float32 twin on the same batch and weights. ``what`` is ``"loss"`` with
    labels, ``"outputs"`` without them (the gradients are then those of a fixed projection of
    the outputs). The gradients are those of the loss as the optimizer scales it, unscaled."""
    objective = _objective(model, loss, x, y, sample_weight)
    what = "loss" if objective is not None else "outputs"
    objective = objective or probe_loss
    scale = _loss_scale(optimizer)
    variables = list(model.trainable_weights)

    def probe() -> tuple[np.ndarray, list[np.ndarray | None], list[np.ndarray]]:
        with tf.GradientTape() as tape:
            outputs = model(x, training=False)
            value = tf.cast(objective(outputs), tf.float32)
            scaled = value * scale
        grads = tape.gradient(scaled, variables)
        unscaled = [
            None if g is None else tf.cast(tf.convert_to_tensor(g), tf.float64).numpy() / scale
            for g in grads
        ]
        leaves = [tf.cast(o, tf.float64).numpy() for o in float_leaves(outputs)]
        return np.asarray(value, dtype="float64"), unscaled, leaves

    mixed = probe()
    with _float32_twin(model):
        exact = probe()
    if what == "loss":
        first = relative_error(tf.constant(mixed[0]), tf.constant(exact[0]))
    else:
        first = relative_error(
            [tf.constant(a) for a in mixed[2]], [tf.constant(a) for a in exact[2]]
        )
    pairs = [(g, r) for g, r in zip(mixed[1], exact[1], strict=True) if r is not None]
    ours = np.concatenate(
        [(np.zeros_like(r) if g is None else g).ravel() for g, r in pairs] or [[0.0]]
    )
    theirs = np.concatenate([r.ravel() for _, r in pairs] or [[0.0]])
    norm = np.linalg.norm(theirs)
    gradients = float(np.linalg.norm(ours - theirs) / norm) if norm > 0 else 0.0
    if not np.isfinite(ours).all():
        gradients = float("inf")
    return what, first, gradients


def _loss_scale(optimizer: Any) -> float:
    """The factor the optimizer multiplies the loss by (1 for one that does not scale)."""
    if optimizer is None or not _scales_loss(optimizer):
        return 1.0
    for name in ("dynamic_scale", "loss_scale", "loss_scale_factor"):
        value = getattr(optimizer, name, None)
        if value is not None:
            try:
                return float(np.asarray(value))
            except (TypeError, ValueError):
                continue
    return 1.0


def _share(value: float) -> str:
    """A share as a percentage, with one decimal below 1 % (so that "0%" means none)."""
    return f"{value:.0%}" if value >= 0.01 or value == 0 else f"{value:.1%}"


def _percent(value: float) -> str:
    if not np.isfinite(value):
        return "inf"
    return f"{value:.0%}" if value >= 0.01 else f"{value:.1e}"


def _judged(finding: Finding, effect: tuple[str, float, float]) -> Finding:
    """A ``numeric-divergence`` finding, told what it changes in training: the loss (or the
    outputs) and the gradients against float32's; one that changes neither becomes the note
    ``divergence-without-effect``."""
    if finding.code != "numeric-divergence":
        return finding
    what, first, gradients = effect
    changes = first > LOSS_EFFECT or gradients > GRADIENT_EFFECT
    phrase = Phrase(
        f"doctor.effect.{what}", (("change", _percent(first)), ("gradients", _percent(gradients)))
    )
    values = dict(finding.values) | {"effect": phrase}
    code = "numeric-divergence" if changes else "divergence-without-effect"
    return Finding(
        code, finding.path, finding.policies, values, finding.source, phase=finding.phase
    )


# --- one training step --------------------------------------------------------------------------


def _copyable(optimizer: Any) -> bool:
    try:
        type(optimizer).from_config(optimizer.get_config())
    except Exception:
        return False
    return True


def _copy_optimizer(optimizer: Any) -> Any:
    """A fresh copy (same class and configuration), or the optimizer itself when it cannot be
    rebuilt from its configuration (see :func:`_sandbox`)."""
    try:
        return type(optimizer).from_config(optimizer.get_config())
    except Exception:
        return optimizer


def held_optimizers(model: keras.Model) -> dict[str, Any]:
    """The optimizers the model holds, by the expression that reaches them: attributes
    (``"optimizer"``, ``"g_optimizer"``) and items of list, tuple or dict attributes
    (``"optimizers[1]"``), as a ``train_step`` with several optimizers keeps them."""
    found: dict[str, Any] = {}
    for name, value in vars(model).items():
        if name.startswith("_self_"):  # TensorFlow's checkpoint bookkeeping, not the learner's
            continue
        if isinstance(value, keras.optimizers.Optimizer):
            found[name] = value
        elif isinstance(value, list | tuple | dict):
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                if isinstance(item, keras.optimizers.Optimizer):
                    found[f"{name}[{key!r}]"] = item
    return found


def _with_copies(value: Any) -> Any:
    """A list, tuple or dict attribute with each optimizer in it replaced by a copy."""

    def copy(item: Any) -> Any:
        return _copy_optimizer(item) if isinstance(item, keras.optimizers.Optimizer) else item

    if isinstance(value, dict):
        return {key: copy(item) for key, item in value.items()}
    return (
        type(value)(copy(item) for item in value)
        if isinstance(value, tuple)
        else [copy(item) for item in value]
    )


@contextmanager
def _sandbox(model: keras.Model) -> Iterator[dict[str, Any]]:
    """Run a training step on ``model`` without leaving a trace: every optimizer the model holds
    is replaced by a copy for the block, and every variable (weights, moving statistics, random
    states, metrics) is put back afterwards. Yields the copies by :func:`held_optimizers` name.

    An optimizer that ``from_config`` cannot rebuild (a learning-rate schedule without
    ``get_config``) is used itself: its variables are put back too, and those the step creates
    (an unbuilt optimizer's slots) are set to zero, as they start."""
    held = held_optimizers(model)
    attributes = {name.split("[")[0] for name in held}
    originals = {name: vars(model)[name] for name in attributes}
    kept = [optimizer for optimizer in held.values() if not _copyable(optimizer)]
    state = [v for optimizer in kept for v in optimizer.variables]
    saved = {id(v): (v, v.numpy()) for v in model.variables + model.metrics_variables + state}
    for name, value in originals.items():
        replaced = _copy_optimizer(value) if name in held else _with_copies(value)
        object.__setattr__(model, name, replaced)
    try:
        yield held_optimizers(model)
    finally:
        for name, value in originals.items():
            object.__setattr__(model, name, value)
        for variable, value in saved.values():
            variable.assign(value)
        for optimizer in kept:
            for method in ("apply", "scale_loss"):  # counting wrappers (see _Use)
                vars(optimizer).pop(method, None)
            for variable in optimizer.variables:
                if id(variable) not in saved:
                    variable.assign(np.zeros(variable.shape, variable.dtype))
        for metric in model.metrics:  # metrics built by this step start empty, as in fit
            if any(id(v) not in saved for v in metric.variables):
                metric.reset_state()


class _Use:
    """How a training step uses an optimizer (its copy): calls of ``apply`` (which
    ``apply_gradients`` goes through), the variables it updates, calls of ``scale_loss``."""

    def __init__(self, optimizer: Any) -> None:
        self.scaled = self.applied = 0
        self.variables: list[Any] = []
        self.scales = _scales_loss(optimizer)
        self.loss_scale_optimizer = isinstance(optimizer, keras.optimizers.LossScaleOptimizer)
        apply = optimizer.apply

        def counted_apply(grads: Any, trainable_variables: Any = None, *a: Any, **k: Any) -> Any:
            self.applied += 1
            updated = trainable_variables
            if updated is None:
                updated = getattr(optimizer, "_trainable_variables", [])
            for variable in updated:
                if all(variable is not v for v in self.variables):
                    self.variables.append(variable)
            return apply(grads, trainable_variables, *a, **k)

        object.__setattr__(optimizer, "apply", counted_apply)
        if hasattr(optimizer, "scale_loss"):
            scale_loss = optimizer.scale_loss

            def counted_scale_loss(loss: Any) -> Any:
                self.scaled += 1
                return scale_loss(loss)

            object.__setattr__(optimizer, "scale_loss", counted_scale_loss)

    def updates(self, before: dict[int, Any]) -> list[np.ndarray]:
        """The change of each updated variable since ``before`` (the sandbox's saved values)."""
        return [
            (v.numpy().astype("float64") - before[id(v)][1]).ravel()
            for v in self.variables
            if id(v) in before
        ]


def _custom_train_step(model: keras.Model) -> type | None:
    """The learner's class that defines ``train_step``, if the model does not use Keras's."""
    owner = next((c for c in type(model).__mro__ if "train_step" in vars(c)), None)
    return owner if owner is not None and source.own_classes(owner) == [owner] else None


def _step_updates(model: keras.Model, data: Any) -> dict[str, list[np.ndarray]]:
    """One training step in the sandbox: the update each optimizer applied, by name."""
    with _sandbox(model) as copies:
        saved = {id(v): (v, v.numpy()) for v in model.variables}
        uses = {name: _Use(copy) for name, copy in copies.items()}
        model.train_step(data)
        return {name: use.updates(saved) for name, use in uses.items() if use.applied}


def _training_findings(
    model: keras.Model,
    sample_batch: Any,
    path: Callable[[Any], str],
    policy: str,
    half: set[str],
) -> list[Finding]:
    """What one training step on ``sample_batch`` shows: a failure that float32 does not have
    (``training=True`` branches, the loss, the gradients), 16-bit layers that compute in float32
    only in training, a ``train_step`` that applies gradients through a loss-scale optimizer
    without ever scaling the loss, and, in float16, optimizers other than ``model.optimizer``
    that apply gradients without scaling (each compared with its float32 twin's update)."""
    custom = _custom_train_step(model)
    if not _trains(model):
        return []
    data = to_tensors(sample_batch)
    step = functools.partial(model.train_step, data)
    findings: list[Finding] = []
    with _sandbox(model) as copies, recording(model) as seen:
        saved = {id(v): (v, v.numpy()) for v in model.variables}
        uses = {name: _Use(copy) for name, copy in copies.items()}
        try:
            step()
        except Exception as error:
            return _training_failure(model, error, step, path, policy, data)
        updates = {name: use.updates(saved) for name, use in uses.items() if use.applied}
        calls = list(seen)  # reruns below are recorded too: iterate over the step's own calls
        for layer, args, kwargs, outputs in calls:
            rerun = functools.partial(layer, *args, **kwargs)
            findings += output_findings(
                layer, outputs, path, policy, rerun, calls, phase="training"
            )
    lines = tuple(source.optimizer_steps(custom)) if custom is not None else ()
    for name, use in uses.items():
        if use.loss_scale_optimizer and use.applied and not use.scaled:
            optimizer = held_optimizers(model)[name]
            values = {
                "optimizer": type(optimizer.inner_optimizer).__name__,
                "scale": f"{float(optimizer.initial_scale):g}",
            }
            findings.append(
                Finding(
                    "unscaled-train-step", path(model), (policy,), values, lines, phase="training"
                )
            )
    unscaled = [
        name
        for name, use in uses.items()
        if use.applied and not use.scales and name != "optimizer"  # that one: no-loss-scaling
    ]
    if "float16" in half and unscaled:
        with _float32_twin(model):
            twin = _step_updates(model, data)
        findings.append(_unscaled_optimizers(model, unscaled, updates, twin, path, policy, lines))
    return findings


def _unscaled_optimizers(
    model: keras.Model,
    names: list[str],
    updates: dict[str, list[np.ndarray]],
    twin: dict[str, list[np.ndarray]],
    path: Callable[[Any], str],
    policy: str,
    lines: tuple[str, ...],
) -> Finding:
    """``unscaled-optimizers``: the optimizers of a float16 training step that apply gradients
    without loss scaling, each with the share of the weights it updates that float32's step
    moves and this step leaves exactly as they were, and that share over all of them."""
    held = held_optimizers(model)
    labels, moved, kept = [], 0, 0
    for name in names:
        own_moved = own_kept = 0
        for ours, theirs in zip(updates.get(name, []), twin.get(name, []), strict=False):
            if ours.shape == theirs.shape:
                moves = theirs != 0
                own_moved += int(np.count_nonzero(moves))
                own_kept += int(np.count_nonzero(moves & (ours == 0)))
        share = _share(own_kept / own_moved if own_moved else 0.0)
        labels.append(f"{name} ({type(held[name]).__name__}, {share})")
        moved, kept = moved + own_moved, kept + own_kept
    values = {"optimizers": tuple(labels), "percent": _share(kept / moved if moved else 0.0)}
    return Finding("unscaled-optimizers", path(model), (policy,), values, lines, phase="training")


def _training_failure(
    model: keras.Model,
    error: BaseException,
    step: Callable[[], Any],
    path: Callable[[Any], str],
    policy: str,
    data: Any,
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
                error,
                layer=model,
                path=path,
                policy=policy,
                rerun=step,
                phase="training",
                batch=data,
            )
        ]
    compute = "/".join(sorted(compute_dtypes(model) & set(HALF_DTYPES)))
    values = {"compute": compute, "error": short_message(error)}
    lines = (where,) if where else ()
    if kind == "mismatch":
        found = origin_finding(error, data, values, path(model), policy, lines, "training")
        if found is not None:
            return [found]
    return [Finding("train-step-fails", path(model), (policy,), values, lines, phase="training")]
