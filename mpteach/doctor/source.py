"""Read a layer class's own source for two patterns that running it cannot pin to a line.

* :func:`weight_casts`: ``tf.cast(self.kernel, ...)`` / ``ops.cast(self.kernel, ...)`` of a
  variable that Keras already autocasts (the pattern of the Stack Overflow question *How to support mixed
  precision in custom Tensorflow layers?*);
* :func:`tensor_creations`: ``tf.random.normal(shape)``, ``tf.ones(shape)``, ``keras.random.normal``
  ... called without a dtype, so that they make float32 tensors under every policy.

Only classes written outside Keras and TensorFlow are read (their source is trusted), walking the
class's MRO so that a method inherited from the learner's own base class counts too. Where the
source cannot be read (a class made by ``exec``), the scans find nothing.

>>> class Noisy:
...     def call(self, inputs):
...         noise = tf.random.normal(tf.shape(inputs))
...         w = tf.cast(self.kernel, self.compute_dtype)
...         return inputs + noise
>>> [line.split(": ", 1)[1] for line in tensor_creations(Noisy)]
['noise = tf.random.normal(tf.shape(inputs))']
>>> lines, names = weight_casts(Noisy, {"kernel"})
>>> names, lines[0].split(": ", 1)[1]
(['kernel'], 'w = tf.cast(self.kernel, self.compute_dtype)')
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from functools import cache

# Functions that create a float tensor in float32 (or floatx) unless given a dtype.
CREATORS = frozenset(
    {
        "normal",
        "uniform",
        "truncated_normal",
        "stateless_normal",
        "stateless_uniform",
        "stateless_truncated_normal",
        "ones",
        "zeros",
        "fill",
        "full",
        "constant",
        "eye",
        "identity",
        "linspace",
        "convert_to_tensor",
    }
)
CAST_FUNCTIONS = frozenset({"cast", "saturate_cast"})
# Modules whose creation functions do not matter: NumPy arrays take the tensor's dtype when
# they meet it (``x + np.ones(3)`` works in float16).
_IGNORED_ROOTS = frozenset({"np", "numpy"})
_SKIPPED_METHODS = frozenset({"get_config", "from_config", "compute_output_shape"})
_TRUSTED_PACKAGES = ("keras", "tensorflow", "tf_keras", "builtins")


def _is_trusted(cls: type) -> bool:
    return cls.__module__.split(".")[0] in _TRUSTED_PACKAGES or cls is object


def own_classes(cls: type) -> list[type]:
    """The classes in ``cls``'s MRO whose source is the learner's (not Keras's, not builtins)."""
    return [c for c in cls.__mro__ if not _is_trusted(c)]


@cache
def _methods(cls: type) -> tuple[tuple[str, ast.FunctionDef, int], ...]:
    """``(class name, method node, line offset)`` for each method defined in ``cls`` itself.

    Methods are read one by one, not the class: in a notebook ``inspect.getsource(cls)`` fails
    (``__main__`` has no file) while a function's source is found through its code object.
    """
    found = []
    for name, value in vars(cls).items():
        function = inspect.unwrap(value) if callable(value) else None
        if not inspect.isfunction(function) or name in _SKIPPED_METHODS:
            continue
        try:
            lines, start = inspect.getsourcelines(function)
        except (OSError, TypeError):  # defined by exec: no source to read
            continue
        tree = ast.parse(textwrap.dedent("".join(lines)))
        node = tree.body[0]
        if isinstance(node, ast.FunctionDef):
            found.append((cls.__name__, node, max(start, 1) - 1))
    return tuple(found)


def _lines(cls: type, wanted) -> list[str]:
    """``"Class.method:N: code"`` for every call node in ``cls``'s methods that ``wanted`` accepts."""
    found: list[str] = []
    for own in own_classes(cls):
        for class_name, method, offset in _methods(own):
            for node in ast.walk(method):
                if isinstance(node, ast.Call) and wanted(node):
                    line = _statement_text(method, node)
                    entry = f"{class_name}.{method.name}:{node.lineno + offset}: {line}"
                    if entry not in found:
                        found.append(entry)
    return found


def _statement_text(method: ast.FunctionDef, call: ast.Call) -> str:
    """The innermost statement that contains ``call``, on one line and shortened."""
    statements = [
        s
        for s in ast.walk(method)
        if isinstance(s, ast.stmt) and s is not method and any(n is call for n in ast.walk(s))
    ]
    innermost = min(statements, key=lambda s: (s.end_lineno or s.lineno) - s.lineno)
    text = " ".join(ast.unparse(innermost).split())
    return text if len(text) <= 90 else text[:87] + "..."


def _func_name(call: ast.Call) -> tuple[str, str]:
    """``(root, name)`` of the called function: ``tf.random.normal`` -> ``("tf", "normal")``."""
    func = call.func
    if isinstance(func, ast.Name):
        return "", func.id
    if isinstance(func, ast.Attribute):
        root = func.value
        while isinstance(root, ast.Attribute):
            root = root.value
        return (root.id if isinstance(root, ast.Name) else ""), func.attr
    return "", ""


def _mentions_dtype(node: ast.AST) -> bool:
    text = ast.unparse(node)
    return "dtype" in text or "float" in text


def _creates_without_dtype(call: ast.Call) -> bool:
    root, name = _func_name(call)
    if name not in CREATORS or root in _IGNORED_ROOTS or root == "self":
        return False
    if any(k.arg == "dtype" for k in call.keywords):
        return False
    return not any(_mentions_dtype(arg) for arg in call.args[1:])


def tensor_creations(cls: type) -> list[str]:
    """Lines of ``cls`` that create a float tensor without saying its dtype."""
    return _lines(cls, _creates_without_dtype)


def _self_attribute(node: ast.AST) -> str | None:
    """``kernel`` for ``self.kernel`` or ``self.kernel.value``; else ``None``."""
    if isinstance(node, ast.Attribute) and node.attr == "value":
        node = node.value
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        if node.value.id == "self":
            return node.attr
    return None


_FLOAT32_NAMES = frozenset(
    {'"float32"', "'float32'", "tf.float32", "tf.dtypes.float32", "np.float32", "float"}
)


def _to_float32(call: ast.Call) -> bool:
    """Whether a cast names float32 itself (not the layer's policy or a variable dtype)."""
    targets = call.args[1:2] + [k.value for k in call.keywords if k.arg == "dtype"]
    return any(ast.unparse(target) in _FLOAT32_NAMES for target in targets)


def weight_casts(cls: type, autocast_attributes: set[str]) -> tuple[list[str], list[str]]:
    """``(lines, names)``: the lines of ``cls`` that cast one of ``autocast_attributes``
    (``self.<name>``) by hand, and the names they cast. A cast to float32 by name is left out:
    it computes that part in float32 on purpose, and what comes out is checked by running."""
    names: list[str] = []

    def casts_a_weight(call: ast.Call) -> bool:
        _, function = _func_name(call)
        attribute = _self_attribute(call.args[0]) if call.args else None
        if function not in CAST_FUNCTIONS or attribute not in autocast_attributes:
            return False
        if _to_float32(call):  # part of a float32 island (Gemma's RMSNorm): judged by the outputs
            return False
        if attribute not in names:
            names.append(attribute)
        return True

    return _lines(cls, casts_a_weight), names


# keras.layers' functional helpers: each call makes a new merging layer (add -> Add).
_LAYER_HELPERS = frozenset(
    {"add", "subtract", "multiply", "average", "maximum", "minimum", "concatenate", "dot"}
)
_LAYER_MODULES = frozenset({"layers", "keras"})


def _makes_a_layer(call: ast.Call) -> bool:
    root, name = _func_name(call)
    if root not in _LAYER_MODULES:
        return False
    return name in _LAYER_HELPERS or (name[:1].isupper() and name != "Input")


def layer_creations(cls: type) -> list[str]:
    """Lines of ``cls`` outside ``__init__`` and ``build`` that make a Keras layer
    (``keras.layers.add([...])``, ``layers.Dense(8)(x)``): such a layer is made at call time
    and takes the global dtype policy of that moment, not the policy of ``cls``."""

    def wanted(call: ast.Call) -> bool:
        return _makes_a_layer(call)

    return [
        line
        for line in _lines(cls, wanted)
        if line.split(":", 1)[0].rsplit(".", 1)[-1] not in ("__init__", "build")
    ]


def variable_assignments(cls: type, attributes: set[str]) -> list[str]:
    """Lines of ``cls`` that assign to ``self.<name>`` (``assign``, ``assign_add``,
    ``assign_sub``) for a name in ``attributes``."""

    def assigns(call: ast.Call) -> bool:
        func = call.func
        return (
            isinstance(func, ast.Attribute)
            and func.attr in ("assign", "assign_add", "assign_sub")
            and _self_attribute(func.value) in attributes
        )

    return _lines(cls, assigns)


def optimizer_steps(cls: type) -> list[str]:
    """Lines of ``cls`` that apply gradients (``optimizer.apply_gradients(...)``,
    ``optimizer.apply(...)``)."""

    def applies(call: ast.Call) -> bool:
        func = call.func
        return (
            isinstance(func, ast.Attribute)
            and func.attr in ("apply_gradients", "apply")
            and "optimizer" in ast.unparse(func.value)
        )

    return _lines(cls, applies)
