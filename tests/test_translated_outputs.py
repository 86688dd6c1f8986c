"""What a translated reader sees under the code cells: figures and printed lines in their language.

Code cells are identical in every language; what they draw and print comes from the message
catalogue (``mp.t(...)``), so an output that is byte-identical to the English notebook's is English.

* **Figures:** no PNG of a translated notebook may be identical to the English twin of its cell.
* **Printed lines:** a line identical to a line of the English twin is English *prose* when it
  holds an English word. A word here is a run of three or more letters, at least one of them
  lower case, that is not part of a code name (nothing glued to it by ``_``, ``.``, ``(``, ``/``,
  quotes or digits, so ``float16``, ``mp.t``, ``dense_0``, ``get_layer()`` are not words), not an
  acronym or CamelCase name (``AMD``, ``RMSNorm``), not a name given a value (``scale = 8``), not
  in :data:`CODE_WORDS` (Python and Keras names printed as values: ``True``, ``kernel``,
  benchmark workload ids such as ``matmul``, layer names such as ``logits``, ...) and not spelled
  the same in the language (:data:`SAME_WORDS`: Spanish ``normal``).

  Left out as Keras's and TensorFlow's own messages, which stay as they are: exception lines
  (``ValueError: ...``; mpteach's own errors are catalogue messages, checked in
  tests/test_i18n.py), ``fit``'s progress log (``Epoch 1/2``) and ``check_numerics``' report.
  Left out as code: a quoted source line (``AddRandom.call:11: return ...``) and an output that
  is the Python source of a function or class (``inspect.getsource``), which ``ast`` parses.

Lines not yet localized are listed in ``tests/english_output_lines.json``: a line missing from it
fails (new English), and an entry that no longer occurs fails too (remove it), so the list only
shrinks. ``python tests/test_translated_outputs.py`` rewrites it from the stored outputs.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BASELINE = Path(__file__).with_name("english_output_lines.json")
LANGS = ("zh", "es", "ko", "ru")
WORD = re.compile(r"(?<![\w.'\"/(`\\-])[A-Za-z]*[a-z][A-Za-z]*(?![\w.'\"(/`\\-])")
EXCEPTION = re.compile(r"^\s*[A-Z]\w*(Error|Exception|Warning)\b")
SOURCE_LINE = re.compile(r"^\s*\w+\.\w+:\d+: ")  # a quoted line of code: AddRandom.call:11: ...
KERAS_LOG = re.compile(
    r"^(Epoch \d+/\d+|\s*\d+/\d+ - .*/step\b.*"  # fit's progress log
    r"|Exception encountered when calling .*"  # Keras's wrapper around a layer's error
    r"|\s*!!! .* !!!|\s*# of [+-]?\w+ elements: \d+)$"  # tf.debugging.check_numerics' report
)
CODE_WORDS = {
    "True",
    "False",
    "None",
    "inf",
    "nan",
    "kernel",
    "bias",
    "dtype",
    "keras",
    "mpteach",
    "tensorflow",
    "numpy",
    "xla",
    "off",
    "on",
    "call",
    "fit",
    "apply",
    "mode",
    "compute",
    "variables",
    "path",
    "remapping",
    "Policy",  # mpteach's class, in reprs: <Policy "float32">
    # optimizer attributes printed by name (hasattr, state tables)
    "dynamic",
    "minimize",
    "iterations",
    # mp.bench workload ids, printed in result tables (mp.bench.run's names)
    "matmul",
    "dense",
    "cnn",
    # names the chapters give their layers and layer paths
    "out",
    "logits",
    "stem",
    "head",
    "hidden",
    "encoder",
    "decoder",
    # Python's and maths' names: str vs DTypePolicy, max |x|, amax (the float8 scaling statistic)
    "str",
    "max",
    "amax",
    # CPU model names as the CPU reports them ("Intel(R) Xeon(R) Processor")
    "Processor",
}


# Words spelled the same in English and in the language, printed as that language's own word
SAME_WORDS = {"es": {"normal", "subnormal", "error", "bits"}}


def english_words(line: str, lang: str = "") -> list[str]:
    """The English words of a printed line (see the module docstring).

    >>> english_words("exact stored value: 0.0999755859375")
    ['exact', 'stored', 'value']
    >>> english_words("float16  dense_0 mp.t('x') True AMD EPYC 1e-05")
    []
    >>> english_words("amax = 0.0039, scale = amax / 448 = 8.7e-06")
    []
    """
    return [
        w
        for w, rest in ((m[0], line[m.end() :]) for m in WORD.finditer(line))
        if not re.match(r"\s*=(?!=)", rest)  # a name given a value: scale = 8.7e-06
        and len(w) >= 3
        and w not in CODE_WORDS
        and w not in SAME_WORDS.get(lang, ())
        and not re.search(r"[a-z][A-Z]|^[A-Z]{2,}[a-z]", w)  # CamelCase: RMSNorm, RMSprop
    ]


def is_prose(line: str, lang: str = "") -> bool:
    """An English word, and not an exception's message.

    >>> is_prose('<DTypePolicy "float32">  compute=float32  variables=float32')
    False
    >>> is_prose("float16   1.0 + 2**-11 = 1.0              update lost: True")
    True
    >>> is_prose("ValueError: Cannot convert 'half' to a mixed precision DTypePolicy.")
    False
    >>> is_prose("16/16 - 1s - 42ms/step - loss: 2.4060")
    False
    >>> is_prose("      AddRandom.call:11: return inputs + tf.random.normal(tf.shape(inputs))")
    False
    >>> is_prose("float16  0 00000 0010101000  1.001e-05  subnormal", lang="es")
    False
    """
    if EXCEPTION.match(line) or KERAS_LOG.match(line) or SOURCE_LINE.match(line):
        return False
    return bool(english_words(line, lang))


def is_program(text: str) -> bool:
    """A printed text that is the Python source of a function or class.

    (Labelled lines can parse too, as annotations: ``scale: 1024``; they define nothing.)

    >>> is_program("def f(x):\\n    return x + 1  # the next one\\n")
    True
    >>> is_program("scale: 1024\\ncounter: 3\\n")
    False
    """
    try:
        body = ast.parse(text).body
    except SyntaxError:
        return False
    return any(isinstance(node, ast.FunctionDef | ast.ClassDef) for node in body)


def _outputs(cell: dict) -> tuple[list[str], list[str]]:
    lines, pngs = [], []
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream" and output.get("name") == "stdout":
            if not is_program(text := "".join(output["text"])):
                lines += text.splitlines()
        data = output.get("data", {})
        if "image/png" in data:
            pngs.append(data["image/png"])
        elif "text/plain" in data and "application/vnd.jupyter.widget-view+json" not in data:
            lines += "".join(data["text/plain"]).splitlines()
    return lines, pngs


def _code_cells(path: Path) -> dict[str, dict]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return {c["id"]: c for c in cells if c["cell_type"] == "code"}


def _notebooks() -> list[tuple[str, Path, Path]]:
    return [
        (lang, english, ROOT / "notebooks" / lang / english.name)
        for lang in LANGS
        for english in sorted((ROOT / "notebooks" / "en").glob("*.ipynb"))
        if (ROOT / "notebooks" / lang / english.name).exists()
    ]


def english_lines() -> dict[str, list[str]]:
    """``{"<lang>/<notebook>/<cell id>": [prose lines identical to English]}``."""
    found: dict[str, list[str]] = {}
    for lang, english, translated in _notebooks():
        english_cells = _code_cells(english)
        for cell_id, cell in _code_cells(translated).items():
            if cell_id not in english_cells:
                continue
            shared = set(_outputs(english_cells[cell_id])[0])
            lines = [line for line in _outputs(cell)[0] if line in shared and is_prose(line, lang)]
            if lines:
                found[f"{lang}/{english.stem}/{cell_id}"] = lines
    return found


@pytest.mark.parametrize(
    ("lang", "english", "translated"),
    _notebooks(),
    ids=[f"{lang}-{english.stem}" for lang, english, _ in _notebooks()],
)
def test_no_figure_is_the_english_one(lang, english, translated):
    english_cells = _code_cells(english)
    same = [
        cell_id
        for cell_id, cell in _code_cells(translated).items()
        if cell_id in english_cells
        and set(_outputs(cell)[1]) & set(_outputs(english_cells[cell_id])[1])
    ]
    assert not same, f"{translated.relative_to(ROOT)}: figures identical to English in {same}"


def test_printed_english_prose_only_shrinks():
    baseline = json.loads(BASELINE.read_text(encoding="utf-8"))
    found = english_lines()
    new = {
        key: [line for line in lines if line not in baseline.get(key, [])]
        for key, lines in found.items()
    }
    new = {key: lines for key, lines in new.items() if lines}
    assert not new, f"English prose printed in translated notebooks (use mp.t): {new}"
    gone = {
        key: [line for line in lines if line not in found.get(key, [])]
        for key, lines in baseline.items()
    }
    gone = {key: lines for key, lines in gone.items() if lines}
    assert not gone, f"localized now: remove from {BASELINE.name}: {gone}"


def test_the_prose_rule_catches_what_readers_reported():
    reported = [
        "exact stored value: 0.0999755859375",
        "float16 running total: 256",
        "device:      cpu\nruns on:     AMD EPYC",
        "epoch 0: loss 0.92  accuracy 0.87",
        "kernel      zeros float16  zeros scaled  max rel. error",
        "steps : .......X...XX.........X.....   (X = inf gradient)",
        "inside call:  w.dtype = float16 | read: float16",
        "none                     w moved by 0.3",
        "keras   inf on replica 0: w = [1. 2.]",
        "mixed_bfloat16: no warning",
        "    hardware: NVIDIA GPUs with compute capability 7.0 or higher",
    ]
    for text in reported:
        assert any(is_prose(line) for line in text.splitlines()), text


if __name__ == "__main__":
    BASELINE.write_text(
        json.dumps(english_lines(), indent=1, ensure_ascii=False, sort_keys=True) + "\n",
        encoding="utf-8",
    )
    print(f"wrote {BASELINE.relative_to(ROOT)}", file=sys.stderr)
