"""How the doctor runs layers and reads what happened: shared by ``check_layer`` and ``check_model``.

Everything runs eagerly (no ``tf.function``), so Grappler never fuses float16 MatMul+BiasAdd
into its slow CPU kernel, and no TensorFlow setting has to be changed. The global Keras policy
is changed only inside :func:`keras_policy`, which restores it.

>>> error_kind(ValueError("cannot compute AddV2 as input #1(zero-based) was expected to be a half tensor but is a float tensor"))
'mismatch'
>>> error_kind(ValueError("RFFT requires tf.float32 or tf.float64 inputs"))
'unsupported'
>>> error_kind(TypeError("The `real` and `imag` components have incorrect types: float16 float16. They must be consistent, and one of [tf.float32, tf.float64]"))
'unsupported'
>>> short_message(ValueError("Exception encountered when calling L.call().\\n\\n\\x1b[1mboom [Op:Mul] name: \\x1b[0m\\n\\nArguments received by L.call():"))
'ValueError: boom [Op:Mul]'
"""

from __future__ import annotations

import ast
import functools
import inspect
import linecache
import os
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import keras
import numpy as np
import tensorflow as tf

from mpteach.doctor import source
from mpteach.doctor.report import Finding, Phrase

MIXED_POLICIES = ("mixed_float16", "mixed_bfloat16")
HALF_DTYPES = ("float16", "bfloat16")
VANISHED_SHARE = 0.5  # a gradient "vanishes" when at least half of its non-zero entries become 0
# Rounding to 16 bits changes a value by at most its unit roundoff u (half the spacing at 1).
UNIT_ROUNDOFF = {"float16": 2.0**-11, "bfloat16": 2.0**-8}
# A correct layer, given inputs already rounded to its compute dtype, stays within a few u of
# float32 (Dense, attention, LSTM, convolutions: 0.4-3 u measured); 32 u is no rounding error.
DIVERGENCE_FACTOR = 32

_MISMATCH = re.compile(
    r"expected to be a \w+ tensor but is a \w+ tensor|does not match type|"
    r"Tensor conversion requested dtype|must have the same dtype|must be the same type|"
    r"is \w+, but expects? \w+|Incompatible type conversion requested"
)
_UNSUPPORTED = re.compile(
    r"Could not find device for node|No OpKernel was registered|not in the list of allowed values|"
    r"requires tf\.float(?:32|64)|is not supported for (?:half|float16|bfloat16)|"
    r"one of \[tf\.float32, tf\.float64\]|"  # tf.complex, behind keras.ops.fft/fft2
    r"Invalid dtype <dtype: '(?:b?float16|half)'>"  # image transforms (RandomRotation, RandomZoom)
)
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_LIBRARY_DIRS = tuple(
    os.path.dirname(module.__file__) + os.sep for module in (keras, tf) if module.__file__
)
Path = Callable[[Any], str]  # maps a layer or a variable to the path shown in the report


@contextmanager
def keras_policy(name: str) -> Iterator[None]:
    """Set Keras's global dtype policy for the block, then put the previous one back."""
    previous = keras.config.dtype_policy()
    keras.config.set_dtype_policy(name)
    try:
        yield
    finally:
        keras.config.set_dtype_policy(previous)


def is_float(value: Any) -> bool:
    return isinstance(value, tf.Tensor | tf.Variable) and value.dtype.is_floating


def float_leaves(structure: Any) -> list[tf.Tensor]:
    """The floating tensors in a nested structure (outputs, arguments)."""
    return [x for x in tf.nest.flatten(structure) if is_float(x)]


def to_tensors(structure: Any) -> Any:
    """NumPy arrays -> tensors (keeping their dtype); Python numbers stay numbers, as in Keras."""

    def convert(x: Any) -> Any:
        return tf.convert_to_tensor(x) if isinstance(x, np.ndarray | np.generic) else x

    return tf.nest.map_structure(convert, structure)


def compute_dtypes(model: keras.layers.Layer) -> set[str]:
    """The compute dtypes of a layer and all its sublayers."""
    return {layer.compute_dtype for layer in model._flatten_layers() if _has_policy(layer)}


def _has_policy(layer: keras.layers.Layer) -> bool:
    return not isinstance(layer, keras.layers.InputLayer)


_AUTO_NAME = re.compile(r"variable(_\d+)?$")


def variable_path(
    variable: keras.Variable, root: keras.layers.Layer, layer_path: Callable[[Any], str]
) -> str:
    """``"<layer path>/<name>"`` for a variable of ``root`` or of one of its sublayers. A variable
    made by ``add_weight`` without a name is called ``variable_7`` by Keras; the attribute that
    holds it (``kernel``) says more."""
    for layer in root._flatten_layers():
        for attribute, value in vars(layer).items():
            if value is variable:
                name = attribute if _AUTO_NAME.match(variable.name) else variable.name
                return f"{layer_path(layer)}/{name}"
    return variable.path


# --- errors -------------------------------------------------------------------------------------


def short_message(error: BaseException) -> str:
    """The error's own first line, without Keras's "Exception encountered when calling" frame."""
    text = _ANSI.sub("", str(error)).split("Arguments received by")[0]
    lines = [
        line.strip()
        for line in text.splitlines()
        if line.strip() and not line.startswith("Exception encountered when calling")
    ]
    message = re.sub(r"\s*name:\s*$", "", lines[0]) if lines else ""
    message = re.sub(r"[,:]?\s*(got:?)?\s*tf\.Tensor\($", "", message)  # a cut-off repr
    message = f"{type(error).__name__}: {message}"
    return message if len(message) <= 200 else message[:197] + "..."


def error_kind(error: BaseException) -> str:
    """``'mismatch'`` (two dtypes met), ``'unsupported'`` (no 16-bit kernel) or ``'other'``."""
    text = str(error)
    if _MISMATCH.search(text):
        return "mismatch"
    if _UNSUPPORTED.search(text):
        return "unsupported"
    return "other"


# Learner's objects whose methods a training step runs: layers and models, metrics, losses.
_LEARNER_OWNERS = (keras.layers.Layer, keras.metrics.Metric, keras.losses.Loss)


def _learner_frames(error: BaseException) -> Iterator[tuple[Any, Any, int]]:
    """``(owner, frame, line)`` for each frame of the traceback, outermost first, that runs a
    method of a learner's layer, metric or loss."""
    tb = error.__traceback__
    while tb is not None:
        frame, filename = tb.tb_frame, tb.tb_frame.f_code.co_filename
        owner = frame.f_locals.get("self")
        if (
            isinstance(owner, _LEARNER_OWNERS)
            and source.own_classes(type(owner))
            and not filename.startswith(_LIBRARY_DIRS)
        ):
            yield owner, frame, tb.tb_lineno
        tb = tb.tb_next


def failing_frame(error: BaseException) -> tuple[keras.layers.Layer | None, str]:
    """The innermost method of a learner's layer in the traceback, and ``"Class.method:N: code"``
    for the innermost method of a learner's layer, metric or loss (a custom metric fails in the
    training step after the layers are done)."""
    layer, where = None, ""
    for owner, frame, line in _learner_frames(error):
        code = linecache.getline(frame.f_code.co_filename, line).strip()
        layer = owner if isinstance(owner, keras.layers.Layer) else layer
        where = f"{type(owner).__name__}.{frame.f_code.co_name}:{line}: {code}"
    return layer, where


_OPERAND = re.compile(r"(?<![\w.])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")


def _operand(frame: Any, name: str) -> Any:
    """The value a (dotted) name has in ``frame``, or ``None``."""
    head, *rest = name.split(".")
    if head not in frame.f_locals:
        return None
    value = frame.f_locals[head]
    for part in rest:
        try:
            value = getattr(value, part)
        except Exception:  # a property that cannot be read here: not an operand we can judge
            return None
    return value


def _float_dtype(value: Any) -> str | None:
    """The dtype of a floating tensor or variable. NumPy values and Python numbers do not count:
    TensorFlow converts them to the dtype of the tensor they meet."""
    if isinstance(value, tf.Tensor | tf.Variable | keras.Variable):
        dtype = tf.as_dtype(value.dtype)
        return dtype.name if dtype.is_floating else None
    return None


def mismatch_operands(error: BaseException, batch: Any = None) -> dict[str, list[str]]:
    """Where the operands of a dtype mismatch come from, read on the failing line of the
    learner's code: its 16-bit tensors (``"half"``) and its wider ones by origin, ``"batch"``
    (a tensor of the batch itself), ``"constant"`` (a tensor the layer or model holds, such as
    a schedule), ``"variable"`` or ``"tensor"`` (made in the code, from a creation without a
    dtype or from the others). Empty when the line does not show both sides."""
    frames = list(_learner_frames(error))
    if not frames:
        return {}
    _, frame, line = frames[-1]
    code = linecache.getline(frame.f_code.co_filename, line)
    batch_ids = {id(leaf) for leaf in tf.nest.flatten(batch)} if batch is not None else set()

    def origins(text: str) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for name in dict.fromkeys(_OPERAND.findall(text)):
            value = _operand(frame, name)
            dtype = _float_dtype(value)
            if dtype is None:
                continue
            if dtype in HALF_DTYPES:
                origin = "half"
            elif id(value) in batch_ids:
                origin = "batch"
            elif isinstance(value, tf.Variable | keras.Variable):
                origin = "variable"
            elif name.startswith("self."):
                origin = "constant"
            else:
                origin = "tensor"
            found.setdefault(origin, []).append(name)
        return found if "half" in found and len(found) > 1 else {}

    # The operation the error names, where the line writes it as an operator (``a * b``):
    # its own operands, not every name on the line.
    for expression in _operator_expressions(code, str(error)):
        found = origins(expression)
        if found:
            return found
    return origins(code)


_OPERATORS = {
    "Mul": ast.Mult,
    "AddV2": ast.Add,
    "Add": ast.Add,
    "Sub": ast.Sub,
    "RealDiv": ast.Div,
    "Pow": ast.Pow,
    "MatMul": ast.MatMult,
    "BatchMatMulV2": ast.MatMult,
}
_FAILED_OP = re.compile(r"cannot compute (\w+) as input|\[Op:(\w+)\]")


def _operator_expressions(code: str, message: str) -> list[str]:
    """The source of each ``left <op> right`` on the line whose operator is the operation the
    error message names (``Mul`` for ``*``), innermost first."""
    match = _FAILED_OP.search(message)
    operator = _OPERATORS.get(next((g for g in match.groups() if g), "")) if match else None
    if operator is None:
        return []
    try:
        tree = ast.parse(code.strip())
    except SyntaxError:  # a line of a longer statement
        return []
    found = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.BinOp) and isinstance(node.op, operator)
    ]
    return [ast.unparse(node) for node in reversed(found)]


def _autocast_off_attributes(layer: keras.layers.Layer) -> dict[str, keras.Variable]:
    return {
        name: value
        for name, value in vars(layer).items()
        if isinstance(value, keras.Variable) and not value._autocast and "float" in str(value.dtype)
    }


def autocast_culprits(layer: keras.layers.Layer, works: Callable[[], bool]) -> list[str]:
    """The ``autocast=False`` variables of ``layer`` that cause a problem: with autocasting
    switched on for them (for one try, then switched off again) ``works()`` is true."""
    suspects = _autocast_off_attributes(layer)
    if not suspects:
        return []
    for variable in suspects.values():
        variable._autocast = True
    try:
        fixed = works()
    except Exception:
        fixed = False
    finally:
        for variable in suspects.values():
            variable._autocast = False
    return list(suspects) if fixed else []


def _succeeds(call: Callable[[], Any]) -> Callable[[], bool]:
    def works() -> bool:
        call()
        return True

    return works


def origin_finding(
    error: BaseException,
    batch: Any,
    values: dict[str, Any],
    where: str,
    policy: str,
    lines: tuple[str, ...],
    phase: str,
) -> Finding | None:
    """``float32-batch`` or ``float32-tensor`` when the failing line shows a 16-bit tensor
    meeting float32 data of the batch, or a float32 tensor the code holds or made outside a
    layer's ``call`` (:func:`mismatch_operands`)."""
    operands = mismatch_operands(error, batch)
    # Outside a layer's call (a train_step, a gradient penalty, a metric), a float32 tensor the
    # code made is a schedule or noise to bring to the compute dtype, as a held one is; inside
    # call, one made without a dtype is uncast-tensor-creation.
    in_call = _learner_frames_end(error) == "call"
    origins = [("batch", "float32-batch"), ("constant", "float32-tensor")]
    if not in_call:
        origins.append(("tensor", "float32-tensor"))
    for origin, code in origins:
        if origin in operands:
            named = values | {"names": tuple(operands[origin]), "half": tuple(operands["half"])}
            return Finding(code, where, (policy,), named, lines, phase=phase)
    return None


def _learner_frames_end(error: BaseException) -> str:
    """The name of the innermost learner's method in the traceback (``""`` if none)."""
    frames = list(_learner_frames(error))
    return frames[-1][1].f_code.co_name if frames else ""


def error_finding(
    error: BaseException,
    *,
    layer: keras.layers.Layer,
    path: Path,
    policy: str,
    rerun: Callable[[], Any],
    phase: str = "",
    batch: Any = None,
) -> Finding:
    """Turn an exception raised under a mixed ``policy`` into the finding that explains it.

    ``layer`` is the layer that was called; the learner's layer found innermost in the
    traceback, if any, is blamed instead. ``rerun`` repeats the call (for the autocast test).
    ``phase="training"``: it happened only in training. ``batch``: the data the call was given,
    so that a float32 tensor of the batch meeting a 16-bit one is told from the other causes
    of a mismatch (:func:`mismatch_operands`).
    """
    culprit, where = failing_frame(error)
    culprit = culprit or layer
    compute = culprit.compute_dtype
    where_lines = (where,) if where else ()
    kind = error_kind(error)
    values = {"compute": compute, "error": short_message(error)}
    if kind == "mismatch":
        attributes = autocast_culprits(culprit, _succeeds(rerun))
        if attributes:
            values["attribute"] = attributes[0]
            values["variables"] = tuple(attributes)
            return Finding(
                "autocast-off-variable", path(culprit), (policy,), values, where_lines, phase=phase
            )
        found = origin_finding(error, batch, values, path(culprit), policy, where_lines, phase)
        if found is not None:
            return found
        creations = source.tensor_creations(type(culprit))
        if creations:
            lines = tuple(creations) + tuple(w for w in where_lines if w not in creations)
            return Finding(
                "uncast-tensor-creation", path(culprit), (policy,), values, lines, phase=phase
            )
        return Finding("dtype-mismatch", path(culprit), (policy,), values, where_lines, phase=phase)
    code = "unsupported-half-op" if kind == "unsupported" else "call-fails"
    return Finding(code, path(culprit), (policy,), values, where_lines, phase=phase)


# --- what a layer is made of --------------------------------------------------------------------


def variable_findings(layer: keras.layers.Layer, path: Path, policy: str) -> list[Finding]:
    """``float16-variable`` for every trainable variable stored in a 16-bit float type."""
    return [
        Finding("float16-variable", path(v), (policy,), {"dtype": str(v.dtype)})
        for v in layer.trainable_weights
        if str(v.dtype) in HALF_DTYPES
    ]


def cast_findings(layer: keras.layers.Layer, path: Path) -> list[Finding]:
    """``manual-cast`` once per learner's layer class that casts an autocast variable by hand."""
    findings, seen = [], set()
    for sublayer in layer._flatten_layers():
        cls = type(sublayer)
        if cls in seen or not source.own_classes(cls):
            continue
        seen.add(cls)
        autocast = {
            name
            for name, value in vars(sublayer).items()
            if isinstance(value, keras.Variable) and value._autocast
        }
        lines, names = source.weight_casts(cls, autocast)
        if lines:
            values = {"variables": tuple(f"self.{n}" for n in names)}
            findings.append(Finding("manual-cast", path(sublayer), (), values, tuple(lines)))
    return findings


def _wide_dtypes(outputs: Any) -> list[str]:
    """The dtypes wider than 16 bits among the floating outputs that carry data: a scalar (a
    loss, a statistic) is better in float32 and costs nothing."""
    return sorted(
        {x.dtype.name for x in float_leaves(outputs) if x.dtype.size > 2 and x.shape.rank}
    )


def output_findings(
    layer: keras.layers.Layer,
    outputs: Any,
    path: Path,
    policy: str,
    rerun: Callable[[], Any],
    seen: Sequence[tuple] = (),
    phase: str = "",
) -> list[Finding]:
    """Findings for a 16-bit layer that returns float32 (or wider) tensors, by cause:

    * ``call-time-layer``: under the layer's own policy as the global one, the outputs are
      16-bit: ``call`` makes a layer (``keras.layers.add(...)``), which takes the global policy;
    * ``autocast-off-variable``: with autocasting switched on for its ``autocast=False``
      variables the outputs are 16-bit (keras.ops promote float16 * float32 to float32);
    * ``uncast-tensor-creation``: the source makes tensors without a dtype (again promoted);
    * ``float32-output`` otherwise.

    All are warnings here: nothing fails, the layer silently computes in float32.
    An output that comes straight from a sublayer given a float32 policy (a float32 softmax
    head, the end of a model) is float32 on purpose; ``seen`` (from :func:`recording`) tells.
    """
    compute = layer.compute_dtype
    on_purpose = {
        id(leaf)
        for sublayer, _, _, out in seen
        if sublayer.compute_dtype not in HALF_DTYPES
        for leaf in float_leaves(out)
    }
    wide = _wide_dtypes([x for x in float_leaves(outputs) if id(x) not in on_purpose])
    if compute not in HALF_DTYPES or not wide:
        return []
    values = {"dtype": "/".join(wide), "compute": compute}
    own_policy = layer.dtype_policy.name
    if keras.config.dtype_policy().name != own_policy:
        with keras_policy(own_policy):
            fixed = not _wide_dtypes(rerun())
        if fixed:
            values["global"] = keras.config.dtype_policy().name
            lines = tuple(source.layer_creations(type(layer)))
            return [Finding("call-time-layer", path(layer), (policy,), values, lines, phase=phase)]
    attributes = autocast_culprits(layer, lambda: not _wide_dtypes(rerun()))
    if attributes:
        values |= {"attribute": attributes[0], "variables": tuple(attributes)}
        code, lines = "autocast-off-variable", ()
    else:
        lines = tuple(source.tensor_creations(type(layer)))
        code = "uncast-tensor-creation" if lines else "float32-output"
    return [Finding(code, path(layer), (policy,), values, lines, severity="warning", phase=phase)]


@contextmanager
def recording(model: keras.layers.Layer) -> Iterator[list[tuple]]:
    """Record ``(layer, args, kwargs, outputs)`` of every sublayer of ``model`` called inside
    the block (innermost first).

    Each layer's ``call`` is shadowed by an instance attribute for the duration of the block,
    then the attribute is removed, so the class's own ``call`` is back.
    """
    seen: list[tuple] = []
    patched = []
    for layer in model._flatten_layers(include_self=False):
        if isinstance(layer, keras.layers.InputLayer) or "call" in vars(layer):
            continue

        @functools.wraps(layer.call)
        def recorded(
            *args: Any, _call: Any = layer.call, _layer: Any = layer, **kwargs: Any
        ) -> Any:
            outputs = _call(*args, **kwargs)
            seen.append((_layer, args, kwargs, outputs))
            return outputs

        object.__setattr__(layer, "call", recorded)
        patched.append(layer)
    try:
        yield seen
    finally:
        for layer in patched:
            vars(layer).pop("call", None)


# --- numbers: forward and backward --------------------------------------------------------------


@dataclass
class Probe:
    """Outputs and gradients of one forward and backward pass, as float32 NumPy arrays."""

    outputs: list[np.ndarray]
    grads: list[tuple[str, np.ndarray | None]]  # (name, gradient) per variable and input
    deterministic: bool = True  # the same on a second run (no dropout, no noise)
    # The same gradients from a float64 twin, where one could be run: a float32 gradient that
    # float64 puts near 0 is rounding noise of an exact zero (a key bias in attention), not a
    # small value that 16 bits lose.
    exact: list[np.ndarray | None] | None = None


def _projection(index: int, shape: tf.TensorShape) -> tf.Tensor:
    """A fixed random direction to differentiate along (a plain sum hides structure, e.g.
    normalised outputs sum to a constant)."""
    values = np.random.default_rng(index).standard_normal(shape.as_list()).astype("float32")
    return tf.constant(values)


def probe_loss(outputs: Any) -> tf.Tensor:
    """A float32 scalar that depends on every floating output."""
    total = tf.constant(0.0)
    for i, y in enumerate(float_leaves(outputs)):
        total += tf.reduce_sum(tf.cast(y, tf.float32) * _projection(i, y.shape))
    return total


def run_probe(
    forward: Callable[[], Any],
    variables: list[keras.Variable],
    inputs: list[tuple[str, tf.Tensor]],
    path: Path,
    loss: Callable[[Any], tf.Tensor] = probe_loss,
) -> Probe:
    """Run ``forward()`` under a tape and differentiate ``loss(outputs)`` with respect to the
    ``variables`` and the named float ``inputs``."""
    with tf.GradientTape() as tape:
        for _, tensor in inputs:
            tape.watch(tensor)
        outputs = forward()
        value = loss(outputs)
    targets = list(variables) + [tensor for _, tensor in inputs]
    names = [path(v) for v in variables] + [name for name, _ in inputs]
    grads = tape.gradient(value, targets)
    arrays = [
        None if g is None else tf.cast(tf.convert_to_tensor(g), tf.float32).numpy() for g in grads
    ]
    out = [tf.cast(y, tf.float32).numpy() for y in float_leaves(outputs)]
    return Probe(out, list(zip(names, arrays, strict=True)))


def _finite(x: np.ndarray | None) -> bool:
    return x is None or bool(np.isfinite(x).all())


def same(a: Probe, b: Probe) -> bool:
    """Whether two probes agree exactly (a layer with randomness, like dropout, does not)."""
    arrays = [(x, y) for x, y in zip(a.outputs, b.outputs, strict=False)]
    arrays += [(x, y) for (_, x), (_, y) in zip(a.grads, b.grads, strict=False)]
    return all(x is None and y is None or np.array_equal(x, y) for x, y in arrays)


def numeric_findings(
    path: str,
    policy: str,
    compute: str,
    reference: Probe | None,
    probe: Probe,
    compare_zeros: bool = True,
) -> list[Finding]:
    """Compare a 16-bit ``probe`` with the float32 ``reference`` (``None``: no reference, so
    report what is non-finite in the probe alone).

    Only what float32 gets right counts: outputs or gradients that are finite (or non-zero)
    in float32 and not in 16 bits. Zeros are compared only when ``compare_zeros`` (a layer
    with randomness puts its zeros elsewhere on every call).
    """
    values = {"compute": compute}
    ref_outputs = reference.outputs if reference else [None] * len(probe.outputs)
    if any(_finite(r) and not _finite(p) for r, p in zip(ref_outputs, probe.outputs, strict=False)):
        return [Finding("non-finite-output", path, (policy,), values)]
    ref_grads = reference.grads if reference else [(n, None) for n, _ in probe.grads]
    if len(ref_grads) != len(probe.grads):
        return []
    pairs = [(name, r, p) for (_, r), (name, p) in zip(ref_grads, probe.grads, strict=True)]
    broken = [name for name, r, p in pairs if _finite(r) and not _finite(p)]
    if broken:
        values["variables"] = tuple(broken)
        return [Finding("non-finite-gradient", path, (policy,), values)]
    if reference is None or not compare_zeros:
        return []
    vanished, lost, total = [], 0, 0
    exact = reference.exact or [None] * len(pairs)
    for (name, r, p), e in zip(pairs, exact, strict=False):
        if r is None or p is None or r.shape != p.shape:
            continue
        nonzero = r != 0
        if e is not None and e.shape == r.shape:
            nonzero &= np.abs(e) >= 0.5 * np.abs(r)  # float64 confirms the value
        zeroed = int(np.count_nonzero(p[nonzero] == 0))
        if nonzero.any() and zeroed >= VANISHED_SHARE * np.count_nonzero(nonzero):
            vanished.append(name)
            lost, total = lost + zeroed, total + int(np.count_nonzero(nonzero))
    if vanished:
        values |= {"variables": tuple(vanished), "percent": f"{100 * lost / total:.0f}%"}
        return [Finding("vanishing-gradient", path, (policy,), values)]
    return []


def tensor_core_findings(layer: keras.layers.Layer, path: Path) -> list[Finding]:
    """``tensor-core-size`` for each matrix-multiplying weight with a dimension not a multiple of 8.

    The dimensions that enter a matrix product: both of a 2-D kernel (Dense, LSTM), the input
    and output channels (the last two) of a convolution kernel, the width of an embedding.
    EinsumDense kernels (inside MultiHeadAttention) are left out: which of their dimensions
    form the matrix product depends on the einsum equation.
    """
    einsum = tuple(
        (sub.path or sub.name) + "/"
        for sub in layer._flatten_layers()
        if isinstance(sub, keras.layers.EinsumDense)
    )
    in_float32 = {  # a layer given a float32 policy (an output head) does not use Tensor Cores
        id(v)
        for sub in layer._flatten_layers()
        if sub.compute_dtype not in HALF_DTYPES
        for v in getattr(sub, "_trainable_variables", [])
    }
    findings = []
    for v in layer.trainable_weights:
        if v.path.startswith(einsum) or id(v) in in_float32:  # einsum: depends on the equation
            continue
        shape = tuple(v.shape)
        name = v.path.rsplit("/", 1)[-1]
        if "kernel" in name and len(shape) >= 2:
            dims = shape[-2:]
        elif name == "embeddings" and len(shape) == 2:
            dims = shape[-1:]
        else:
            continue
        odd = [d for d in dims if d % 8]
        if odd:
            values = {
                "shape": "×".join(map(str, shape)),
                "dims": tuple(map(str, odd)),
            }
            findings.append(Finding("tensor-core-size", path(v), (), values))
    return findings


def keras2_effect(
    layer: keras.layers.Layer, args: tuple, kwargs: dict
) -> tuple[list[str], Phrase | None]:
    """Run the layer as Keras 2 would: only the first argument cast to the compute dtype.

    Returns the names of the floating arguments Keras 2 would leave uncast and what happens
    then (``None``: nothing changes). Keras 3 casts every floating argument; this switches that
    off for one call (``_convert_input_args``) and casts the first argument by hand.
    """
    names = argument_names(layer, args, kwargs)
    later = [name for (name, value) in names[1:] if float_leaves(value)]
    if not args or not later or not hasattr(layer, "_convert_input_args"):
        return [], None
    compute = layer.compute_dtype

    def cast(x: Any) -> Any:
        return tf.cast(x, compute) if is_float(x) else x

    first = tf.nest.map_structure(cast, args[0])
    saved = layer._convert_input_args
    layer._convert_input_args = False
    try:
        outputs = layer(first, *args[1:], **kwargs)
    except Exception as error:
        return (
            (later, Phrase("doctor.effect.error"))
            if error_kind(error) == "mismatch"
            else ([], None)
        )
    finally:
        layer._convert_input_args = saved
    if any(x.dtype.name != compute for x in float_leaves(outputs)):
        return later, Phrase("doctor.effect.float32")
    return later, None


def argument_names(layer: keras.layers.Layer, args: tuple, kwargs: dict) -> list[tuple[str, Any]]:
    """``(name, value)`` for the positional and keyword arguments of ``layer.call``."""
    try:
        parameters = list(inspect.signature(layer.call).parameters.values())
    except (TypeError, ValueError):
        parameters = []
    positional = [
        p.name for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    named = [
        (positional[i] if i < len(positional) else f"args[{i}]", value)
        for i, value in enumerate(args)
    ]
    return named + list(kwargs.items())


# --- numbers against a float32 twin -------------------------------------------------------------


def rounded(structure: Any, dtype: str) -> Any:
    """The floating tensors of ``structure`` rounded to ``dtype`` and back to their own dtype:
    what a layer computing in ``dtype`` sees of them."""

    def round_one(x: Any) -> Any:
        return tf.cast(tf.cast(x, dtype), x.dtype) if is_float(x) else x

    return tf.nest.map_structure(round_one, structure)


def relative_error(values: Any, reference: Any) -> float:
    """The largest normwise relative error ``|v - r| / |r|`` over the floating leaves (inf when
    one side is not finite where the other is; 0 when there is nothing to compare)."""
    worst = 0.0
    pairs = zip(float_leaves(values), float_leaves(reference), strict=False)
    for value, ref in pairs:
        v = tf.cast(value, tf.float64).numpy()
        r = tf.cast(ref, tf.float64).numpy()
        if v.shape != r.shape:
            continue
        if not np.isfinite(r).all():
            continue
        if not np.isfinite(v).all():
            return float("inf")
        scale = np.linalg.norm(r)
        error = np.linalg.norm(v - r)
        worst = max(worst, error / scale if scale > 0 else (float("inf") if error else 0.0))
    return worst


def diverges(error: float, compute: str) -> bool:
    """Whether an error is more than rounding to ``compute`` explains."""
    return compute in UNIT_ROUNDOFF and error > DIVERGENCE_FACTOR * UNIT_ROUNDOFF[compute]


def casts_inputs(layer: keras.layers.Layer) -> bool:
    """Whether Keras casts the floating arguments of ``layer`` to a 16-bit compute dtype
    (``Embedding`` opts out with ``autocast=False``)."""
    return (
        layer.compute_dtype in HALF_DTYPES
        and getattr(layer, "autocast", True)
        and getattr(layer, "_convert_input_args", True)
    )


def rounded_integers(values: Any, compute: str) -> list[int]:
    """The whole numbers among the floating leaves of ``values`` that ``compute`` cannot hold
    (above 2048 in float16, 256 in bfloat16), when every value of that leaf is whole: ids or
    counts carried in a float tensor."""
    found: list[int] = []
    for leaf in float_leaves(values):
        x = tf.cast(leaf, tf.float64).numpy()
        if x.size == 0 or not np.isfinite(x).all() or not np.array_equal(x, np.round(x)):
            continue
        kept = tf.cast(tf.cast(leaf, compute), tf.float64).numpy()
        found += sorted({int(v) for v in x[kept != x]})
    return found


def float_index_finding(
    layer: keras.layers.Layer,
    args: tuple,
    kwargs: dict,
    reference: Callable[[tuple, dict], Any],
    path: str,
    policy: str,
) -> Finding | None:
    """``float-indices`` when ``layer`` receives whole numbers in a float tensor that its 16-bit
    compute dtype rounds, and the float32 ``reference`` (``reference(args, kwargs)``) gives a
    different result for the rounded numbers: they are used as indices, not as quantities.
    (A quantity such as 2049.0 -> 2048.0 changes a Dense output by the rounding, u; an index
    reads another embedding row.)"""
    compute = layer.compute_dtype
    if not casts_inputs(layer):
        return None
    lost = rounded_integers((args, kwargs), compute)
    if not lost:
        return None
    exact = reference(args, kwargs)
    changed = reference(rounded(args, compute), rounded(kwargs, compute))
    if not diverges(relative_error(changed, exact), compute):
        return None
    return Finding("float-indices", path, (policy,), float_index_values(compute, lost))


def float_index_values(compute: str, lost: list[int]) -> dict[str, str]:
    """The values of a ``float-indices`` finding: the largest whole number ``compute`` holds
    exactly, and one number it rounds, before and after."""
    after = int(tf.cast(tf.cast(float(lost[0]), compute), tf.float64))
    limit = {"float16": 2048, "bfloat16": 256}[compute]
    return {"compute": compute, "limit": str(limit), "example": f"{lost[0]} → {after}"}


def divergence_finding(
    path: str, policy: str, compute: str, outputs: Any, reference: Any
) -> Finding | None:
    """``numeric-divergence`` when ``outputs`` (16-bit) differ from the float32 ``reference``
    computed on the same, already rounded, inputs by more than rounding explains."""
    error = relative_error(outputs, reference)
    if not diverges(error, compute) or not np.isfinite(error):
        return None
    values = {
        "compute": compute,
        "error": f"{error:.0%}" if error >= 0.01 else f"{error:.1e}",
        "rounding": f"{UNIT_ROUNDOFF[compute]:.0e}",
        "effect": "",  # check_model says what it changes in training (a Phrase)
    }
    return Finding("numeric-divergence", path, (policy,), values)


def _float32_state(layer: keras.layers.Layer) -> list[keras.Variable]:
    return [v for v in layer.weights if str(v.dtype) == "float32"]


# An optimizer-sized change of a weight: far above float32's resolution (2^-24), below half
# the spacing of float16 (2^-11) and bfloat16 (2^-8) numbers, so that 16 bits round it away.
NUDGE = 2.0**-13


def _nudges_lost(
    mine: list[keras.Variable],
    theirs: list[keras.Variable],
    fixed: list[np.ndarray],
    run_reference: Callable[[], Any],
    run_layer: Callable[[], Any],
    path: Path,
) -> list[tuple[str, float]]:
    """For a ``call`` that maps the values it stores to themselves (``kernel * mask``): nudge
    each value as an optimizer step would, from that fixed point, run both layers once, and
    report the variables whose nudge float32 keeps and 16 bits round away, with the share lost."""
    nudged = [f + NUDGE * np.abs(f) for f in fixed]

    def after(variables: list) -> list[np.ndarray]:
        for v, value in zip(variables, nudged, strict=True):
            v.assign(value)
        return [v.numpy() for v in variables]

    try:
        for v, value in zip(theirs, fixed, strict=True):
            v.assign(value)
        run_reference()
        if not all(np.array_equal(v.numpy(), f) for v, f in zip(theirs, fixed, strict=True)):
            return []  # not a fixed point: the first comparison judged it
        after(theirs)
        run_reference()
        kept32 = [v.numpy().astype("float64") for v in theirs]
        after(mine)
        run_layer()
        kept16 = [v.numpy().astype("float64") for v in mine]
    except Exception:
        return []
    lost = []
    for v, f, new32, new16 in zip(mine, fixed, kept32, kept16, strict=True):
        update = np.linalg.norm(new32 - f)
        if update == 0 or update < 0.5 * np.linalg.norm(NUDGE * np.abs(f)):
            continue  # float32 does not keep the nudge either: call overwrites the value
        share = np.linalg.norm(new16 - new32) / update
        if share > 0.5:
            lost.append((path(v), share))
    return lost


def variable_update_findings(
    reference: keras.layers.Layer,
    layer: keras.layers.Layer,
    run_reference: Callable[[], Any],
    run_layer: Callable[[], Any],
    path: Path,
    policy: str,
    phase: str = "",
) -> list[Finding]:
    """``rounded-variable-update``: a float32 variable that ``call`` assigns a value rounded to
    the 16-bit compute dtype, because the new value was computed from autocast reads.

    Both layers start from the reference's values and are run once on the same (rounded)
    inputs. A correct layer computes the new value in float32 (``BatchNormalization``): it ends
    within float32 rounding of the reference, or within u of the *update* when only the update
    is computed in 16 bits. An error that is large next to the update is the stored value
    itself passing through 16 bits: small updates are lost. Layers with randomness (the
    reference's update differs between two runs) are skipped.
    """
    compute = layer.compute_dtype
    mine, theirs = _float32_state(layer), _float32_state(reference)
    if compute not in UNIT_ROUNDOFF or not mine or len(mine) != len(theirs):
        return []
    if any(tuple(a.shape) != tuple(b.shape) for a, b in zip(mine, theirs, strict=True)):
        return []
    start = [v.numpy() for v in theirs]

    def updated(variables: list, run: Callable[[], Any]) -> list[np.ndarray]:
        for v, value in zip(variables, start, strict=True):
            v.assign(value)
        run()
        return [v.numpy() for v in variables]

    try:
        first = updated(theirs, run_reference)
        fixed = all(np.array_equal(a, b) for a, b in zip(first, start, strict=True))
        # call stores nothing, or stores what was there (the common case: nothing to compare)
        second = first if fixed else updated(theirs, run_reference)
        ours = first if fixed else updated(mine, run_layer)
    except Exception:  # the doctor reports failing calls elsewhere
        return []
    finally:
        for v, value in zip(theirs, start, strict=True):
            v.assign(value)
    u = UNIT_ROUNDOFF[compute]
    lost = []
    for name, old, new32, again, new16 in zip(
        [path(v) for v in mine], start, first, second, ours, strict=True
    ):
        update = np.linalg.norm(new32.astype("float64") - old)
        if update == 0 or not np.array_equal(new32, again):
            continue  # not updated, or updated at random
        error = np.linalg.norm(new16.astype("float64") - new32)
        if error > DIVERGENCE_FACTOR * u * update and error > 1e-6 * np.linalg.norm(new32):
            lost.append((name, error / update))
    if not lost:
        try:
            lost = _nudges_lost(mine, theirs, first, run_reference, run_layer, path)
        finally:
            for v, value in zip(theirs, start, strict=True):
                v.assign(value)
    if not lost:
        return []
    attribute = lost[0][0].rsplit("/", 1)[-1]
    names = {name.rsplit("/", 1)[-1] for name, _ in lost}
    lines: list[str] = []
    for sublayer in layer._flatten_layers():
        if source.own_classes(type(sublayer)):
            lines += [
                x for x in source.variable_assignments(type(sublayer), names) if x not in lines
            ]
    values = {
        "variables": tuple(name for name, _ in lost),
        "attribute": attribute,
        "compute": compute,
        "share": f"{max(share for _, share in lost):.0%}",
    }
    return [
        Finding(
            "rounded-variable-update", path(layer), (policy,), values, tuple(lines), phase=phase
        )
    ]
