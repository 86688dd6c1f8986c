"""Benchmark results as JSON: provenance, a schema check, and the results shipped with mpteach.

A result is one run of :mod:`mpteach.bench` on one machine::

    {"schema": "mpteach-bench/1",
     "created": "2026-11-21T10:00:00+00:00",            # UTC, ISO 8601
     "hardware": {"device": "cpu", "label": "...", ...},  # mpteach.hardware.HardwareInfo.to_dict()
     "software": {"python": "3.11.7", "keras_backend": "tensorflow", "tensorflow": "2.21.0",
                  "keras": "3.15.1", "jax": null, ...},
     "settings": {"repeats": 10, ...},                     # everything that was chosen or worked around
     "rows": [{"workload": "matmul", "size": 1024, "variant": "bfloat16", "xla": false,
               "tf32": null, "remapping": true, "baseline": false,
               "times_s": [...], "median_s": 0.0021, "speedup": 3.9}, ...]}

A run under another Keras backend (``--backend jax``) has the same shape: ``software`` names
the backend and the JAX versions, and what exists only in TensorFlow (Grappler's ``remapping``,
the TF32 switch) is ``null`` in its rows and listed under ``settings["not_applicable"]``.

Rows come in groups (same ``workload``, ``size`` and ``xla``), measured in one process and
interleaved: ``times_s[i]`` of every row of a group comes from the same round ``i``. Each group
has exactly one ``baseline`` row (float32), and ``speedup`` is the median over the rounds of
``baseline time / row time``: a ratio within one round, where both saw the same machine, so a
busy machine (another process, a slower clock) disturbs it far less than it disturbs the times.

Outlier rule: a round in which any row of the group took more than ``OUTLIER_FACTOR`` (2) times
its own median is dropped from that group's medians and speedups (something else had the machine
then), unless that would drop more than half the rounds. Every time stays in ``times_s``; the
dropped rounds are listed in each row's ``dropped_rounds``.

>>> rows = [{"workload": "matmul", "size": 64, "variant": v, "xla": False, "tf32": None,
...          "remapping": True, "baseline": v == "float32", "times_s": [t], "median_s": t}
...         for v, t in (("float32", 0.004), ("bfloat16", 0.001))]
>>> doc = new_result(rows, settings={"repeats": 1})
>>> [row["speedup"] for row in doc["rows"]]
[1.0, 4.0]
>>> outlier_rounds([[1.0, 1.1, 9.0, 1.0], [0.5, 0.5, 0.5, 0.6]])  # round 2 was disturbed
[2]
>>> check_result(doc) is doc
True
"""

from __future__ import annotations

import datetime
import json
import math
import platform
import statistics
import sys
from collections.abc import Iterable
from importlib import metadata, resources
from pathlib import Path
from typing import Any

from mpteach import i18n
from mpteach.i18n import join, localized, t

SCHEMA = "mpteach-bench/1"
CLAIMS_SCHEMA = "mpteach-claims/1"
# The fields of a claim shown in the reader's language (mpteach/i18n/sources.py).
CLAIM_TEXTS = ("source", "quote", "hardware", "kind")
OUTLIER_FACTOR = 2.0
OUTLIER_RULE = (
    f"a round in which any row of its group took over {OUTLIER_FACTOR:g}x that row's median is dropped "
    "from the group's medians and speedups, unless that would drop more than half the rounds"
)
WORKLOADS = ("matmul", "dense", "cnn")
DEVICES = ("cpu", "gpu", "tpu")
ROW_KEYS = {
    "workload": str,
    "size": int,
    "variant": str,
    "xla": bool,
    "tf32": (bool, type(None)),
    "remapping": (bool, type(None)),
    "baseline": bool,
    "times_s": list,
    "dropped_rounds": list,
    "median_s": float,
    "speedup": float,
}


def _version(*distributions: str) -> str | None:
    for name in distributions:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return None


def software(backend: str = "tensorflow") -> dict[str, str | None]:
    """Versions that matter for speed (read from the installed distributions, no imports).

    ``backend`` is the Keras backend that ran the benchmark; ``jax`` and ``jaxlib`` are given
    only when it is ``'jax'`` (``None`` otherwise, installed or not).

    >>> info = software("jax")
    >>> info["keras_backend"], sorted(info)[:3]
    ('jax', ['jax', 'jaxlib', 'keras'])
    """
    jax = backend == "jax"
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "keras_backend": backend,
        "tensorflow": _version("tensorflow", "tensorflow-cpu", "tf-nightly"),
        "keras": _version("keras"),
        "jax": _version("jax") if jax else None,
        "jaxlib": _version("jaxlib") if jax else None,
        "numpy": _version("numpy"),
        "mpteach": _version("mpteach") or sys.modules["mpteach"].__version__,
    }


def software_label(doc: dict[str, Any]) -> str:
    """``'TensorFlow 2.21.0'``, or ``'JAX 0.10.2, Keras 3.15.1'`` for a run under JAX.

    >>> software_label({"software": {"keras_backend": "jax", "jax": "0.10.2", "keras": "3.15.1"}})
    'JAX 0.10.2, Keras 3.15.1'
    >>> software_label({"software": {"tensorflow": "2.21.0"}})
    'TensorFlow 2.21.0'
    """
    info = doc["software"]
    if info.get("keras_backend", "tensorflow") == "jax":
        return f"JAX {info.get('jax') or '?'}, Keras {info.get('keras') or '?'}"
    return f"TensorFlow {info.get('tensorflow') or '?'}"


def group_key(row: dict[str, Any]) -> tuple[str, int, bool]:
    """Rows with the same key are compared with each other (against their baseline)."""
    return row["workload"], row["size"], row["xla"]


def speedup(baseline_times: list[float], times: list[float], dropped: Iterable[int] = ()) -> float:
    """Median over the rounds (but the ``dropped`` ones) of ``baseline time / time``.

    >>> speedup([4.0, 8.0, 4.0], [1.0, 4.0, 2.0])
    2.0
    """
    pairs = zip(_kept(baseline_times, dropped), _kept(times, dropped), strict=True)
    return float(statistics.median(b / t for b, t in pairs))


def _kept(times: list[float], dropped: Iterable[int]) -> list[float]:
    skip = set(dropped)
    return [t for i, t in enumerate(times) if i not in skip]


def outlier_rounds(group_times: list[list[float]]) -> list[int]:
    """The rounds to drop: those in which some row took more than ``OUTLIER_FACTOR`` times its
    median, unless that is more than half of them (then the machine was busy throughout, and
    every round is kept)."""
    rounds = len(group_times[0])
    slow = sorted(
        {
            i
            for times in group_times
            for i, t in enumerate(times)
            if t > OUTLIER_FACTOR * statistics.median(times)
        }
    )
    return slow if len(slow) <= rounds // 2 else []


def add_speedups(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Apply the outlier rule, then set each row's ``dropped_rounds``, ``median_s`` and
    ``speedup`` against its group's baseline."""
    groups: dict[tuple, list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault(group_key(row), []).append(row)
    for group in groups.values():
        dropped = outlier_rounds([r["times_s"] for r in group])
        base = next(r for r in group if r["baseline"])
        for row in group:
            row["dropped_rounds"] = dropped
            row["median_s"] = float(statistics.median(_kept(row["times_s"], dropped)))
            row["speedup"] = speedup(base["times_s"], row["times_s"], dropped)
    return rows


def new_result(
    rows: list[dict[str, Any]],
    settings: dict[str, Any],
    hardware: dict[str, Any] | None = None,
    backend: str = "tensorflow",
) -> dict[str, Any]:
    """A checked result document with provenance (``hardware`` defaults to this machine;
    ``backend`` is the Keras backend that ran it)."""
    if hardware is None:
        from mpteach.hardware import detect

        hardware = detect(use_profile=False).to_dict()
    return check_result(
        {
            "schema": SCHEMA,
            "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            "hardware": hardware,
            "software": software(backend),
            "settings": {**settings, "outlier_rule": OUTLIER_RULE},
            "rows": add_speedups(rows),
        }
    )


def _fail(where: str, problem: str) -> None:
    raise ValueError(f"benchmark result: {where} {problem}")


def check_result(doc: Any) -> dict[str, Any]:
    """Return ``doc`` if it follows the schema, else raise ``ValueError`` saying what is wrong."""
    if not isinstance(doc, dict):
        _fail("document", f"must be a JSON object, not {type(doc).__name__}")
    for key, kind in (("schema", str), ("created", str), ("hardware", dict), ("software", dict),
                      ("settings", dict), ("rows", list)):  # fmt: skip
        if not isinstance(doc.get(key), kind):
            _fail(f"{key!r}", f"is missing or not a {kind.__name__}")
    if doc["schema"] != SCHEMA:
        _fail("'schema'", f"is {doc['schema']!r}; this mpteach reads {SCHEMA!r}")
    try:
        datetime.datetime.fromisoformat(doc["created"])
    except ValueError:
        _fail("'created'", f"is not an ISO 8601 date: {doc['created']!r}")
    if doc["hardware"].get("device") not in DEVICES:
        _fail("'hardware.device'", f"must be one of {', '.join(map(repr, DEVICES))}")
    if not isinstance(doc["hardware"].get("label"), str):
        _fail("'hardware.label'", "must name the hardware")
    if not doc["rows"]:
        _fail("'rows'", "is empty")
    for i, row in enumerate(doc["rows"]):
        _check_row(f"rows[{i}]", row)
    baselines: dict[tuple, dict] = {}
    for row in doc["rows"]:
        if row["baseline"]:
            if group_key(row) in baselines:
                _fail(f"group {group_key(row)}", "has two baseline rows")
            baselines[group_key(row)] = row
    for i, row in enumerate(doc["rows"]):
        base = baselines.get(group_key(row))
        if base is None:
            _fail(f"rows[{i}]", f"has no baseline row in its group {group_key(row)}")
        if len(row["times_s"]) != len(base["times_s"]):
            _fail(f"rows[{i}].times_s", "must have one time per round, as its baseline has")
        dropped = row["dropped_rounds"]
        if dropped != base["dropped_rounds"]:
            _fail(f"rows[{i}].dropped_rounds", "must be the same rounds as its baseline's")
        if dropped != outlier_rounds(
            [r["times_s"] for r in doc["rows"] if group_key(r) == group_key(row)]
        ):
            _fail(
                f"rows[{i}].dropped_rounds",
                f"do not follow the outlier rule (factor {OUTLIER_FACTOR})",
            )
        if not math.isclose(
            row["median_s"], statistics.median(_kept(row["times_s"], dropped)), rel_tol=1e-9
        ):
            _fail(f"rows[{i}].median_s", "is not the median of the rounds kept")
        ratio = speedup(base["times_s"], row["times_s"], dropped)
        if not math.isclose(row["speedup"], ratio, rel_tol=1e-6):
            _fail(f"rows[{i}].speedup", "is not the median of the baseline/row time ratios")
    return doc


def _check_row(where: str, row: Any) -> None:
    if not isinstance(row, dict):
        _fail(where, "must be an object")
    for key, kind in ROW_KEYS.items():
        value = row.get(key)
        if (
            key not in row
            or not isinstance(value, kind)
            or (kind is int and isinstance(value, bool))
        ):
            _fail(f"{where}.{key}", f"is missing or has the wrong type: {value!r}")
    if row["workload"] not in WORKLOADS:
        _fail(f"{where}.workload", f"is {row['workload']!r}; choose one of {WORKLOADS}")
    times = row["times_s"]
    if not times or not all(isinstance(x, int | float) and x > 0 for x in times):
        _fail(f"{where}.times_s", "must be a non-empty list of positive seconds")
    if not all(isinstance(i, int) and 0 <= i < len(times) for i in row["dropped_rounds"]):
        _fail(f"{where}.dropped_rounds", "must list indices of times_s")
    if row["size"] <= 0 or row["speedup"] <= 0:
        _fail(where, "needs a positive size and speedup")


def save_result(doc: dict[str, Any], path: str | Path) -> Path:
    """Check ``doc`` and write it as indented JSON; returns the path."""
    path = Path(path)
    path.write_text(json.dumps(check_result(doc), indent=1, ensure_ascii=False) + "\n")
    return path


def load_result(path: str | Path) -> dict[str, Any]:
    """Read and check a result file."""
    return check_result(json.loads(Path(path).read_text()))


def recorded_results() -> list[dict[str, Any]]:
    """The measured results shipped in ``mpteach/data/results/``, one per machine and run.

    To add one (a GPU, a TPU): run ``python -m mpteach.bench all --out FILE.json`` there and put
    the file in that folder; nothing else needs to change.
    """
    folder = resources.files("mpteach") / "data" / "results"
    files = sorted((f for f in folder.iterdir() if f.name.endswith(".json")), key=lambda f: f.name)
    return [check_result(json.loads(f.read_text(encoding="utf-8"))) for f in files]


ClassResult = tuple[str, dict[str, Any]]
"""A result a student measured: the file's name (its student), and the result document."""


def class_results(folder: str | Path) -> tuple[list[ClassResult], list[str]]:
    """The results of ``python -m mpteach.bench all --out <name>.json`` that a class collected in
    ``folder``, by file name; and the files that are not such a result, each with the reason.

    A class's own hardware table: every student runs the benchmark on their machine and saves the
    file in one shared folder; :class:`~mpteach.widgets.SpeedupExplorer` shows them as a group.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"class_results={str(folder)!r} is not a folder")
    found, skipped = [], []
    for path in sorted(folder.glob("*.json")):
        try:
            found.append((path.stem, check_result(json.loads(path.read_text(encoding="utf-8")))))
        except (ValueError, UnicodeDecodeError) as problem:  # JSONDecodeError is a ValueError
            skipped.append(f"{path.name} ({problem})")
    return found, skipped


def check_claims(doc: Any) -> list[dict[str, Any]]:
    """The claims of ``doc`` (``vendor_claims.json``), or ``ValueError`` if its schema is not
    ``mpteach-claims/1`` or one of their :data:`CLAIM_TEXTS` has no translation."""
    if not isinstance(doc, dict) or doc.get("schema") != CLAIMS_SCHEMA:
        raise ValueError(f"vendor_claims.json: schema must be {CLAIMS_SCHEMA!r}")
    for i, claim in enumerate(doc["claims"]):
        for key in CLAIM_TEXTS:
            try:
                localized(claim[key], "en")
            except LookupError as missing:
                raise ValueError(f"vendor_claims.json: claims[{i}].{key} {missing}") from None
    return doc["claims"]


def vendor_claims() -> list[dict[str, Any]]:
    """Published speedup claims (not measurements), each with its source and hardware, in
    English (:func:`format_claims` shows them in the reader's language)."""
    text = (resources.files("mpteach") / "data" / "vendor_claims.json").read_text("utf-8")
    return check_claims(json.loads(text))


def claim_quote(claim: dict[str, Any], lang: str | None = None) -> str:
    """The claim's words in quotation marks in ``lang``; translated, the English original follows.

    >>> claim = {"quote": "60% on TPUs"}
    >>> claim_quote(claim, "en"), claim_quote(claim, "zh")
    ('"60% on TPUs"', '“在 TPU 上快 60%”（原文：“60% on TPUs”）')
    """
    quote = localized(claim["quote"], lang)
    if quote == claim["quote"]:
        return t("bench.claim_quote", lang, quote=quote)
    return t("bench.claim_quote_translated", lang, quote=quote, original=claim["quote"])


def format_claims(claims: Iterable[dict[str, Any]] | None = None, lang: str | None = None) -> str:
    """The vendor claims (default: all) in ``lang``: who claims what (:func:`claim_quote`), and
    for which hardware.

    >>> print(format_claims(vendor_claims()[:1], "en"))
    TensorFlow guide: Mixed precision: "more than 3 times on modern GPUs"
        hardware: NVIDIA GPUs with compute capability 7.0 or higher
    """
    lines = []
    for claim in vendor_claims() if claims is None else claims:
        source, quote = localized(claim["source"], lang), claim_quote(claim, lang)
        lines.append(t("bench.claim", lang, source=source, quote=quote))
        lines.append(t("bench.claim_hardware", lang, hardware=localized(claim["hardware"], lang)))
    return "\n".join(lines)


def merge_results(docs: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """One document from runs on the same machine (their rows and settings combined)."""
    docs = list(docs)
    first = docs[0]
    for doc in docs[1:]:
        if doc["hardware"] != first["hardware"]:
            raise ValueError("merge_results: the results come from different hardware")
    return check_result(
        {
            **first,
            "settings": {k: v for doc in docs for k, v in doc["settings"].items()},
            "rows": [row for doc in docs for row in doc["rows"]],
        }
    )


def xla_cell(xla: bool | None, lang: str | None = None) -> str:
    """A table's XLA cell in ``lang``: on, off, or ``-`` where a published source does not say.

    >>> xla_cell(True, "es"), xla_cell(False, "zh"), xla_cell(None)
    ('sí', '关', '-')
    """
    return "-" if xla is None else t("bench.xla.on" if xla else "bench.xla.off", lang)


_COLUMNS = (8, 5, 3, 30, 10, 8)  # least widths of format_table's columns
_RIGHT_ALIGNED = (False, True, True, False, True, True)
_GAPS = (1, 1, 2, 1, 1)


def format_table(doc: dict[str, Any]) -> str:
    """The rows as a text table of median times and speedups against float32.

    A speedup is the median over rounds of (float32 time / this time) within the same round, so
    it need not equal the ratio of the two medians when the machine's speed drifts.
    """
    head = ["workload", "size", "xla", "variant", "median_ms", "speedup"]
    table = [[t(f"bench.col.{c}") for c in head]]
    for row in doc["rows"]:
        ms, speedup = f"{row['median_s'] * 1e3:.3f}", f"{row['speedup']:.2f}x"
        cells = [row["workload"], str(row["size"]), xla_cell(row["xla"]), variant_label(row)]
        table.append([*cells, ms, speedup])
    lines = [f"{doc['hardware']['label']} | {software_label(doc)} | {doc['created'][:10]}"]
    lines += i18n.aligned(table, _COLUMNS, _RIGHT_ALIGNED, _GAPS)  # at least the English widths
    lines.append(t("bench.footnote"))
    dropped = {
        (row["workload"], row["size"], row["xla"]): (
            len(row["dropped_rounds"]),
            len(row["times_s"]),
        )
        for row in doc["rows"]
        if row["dropped_rounds"]
    }
    for (workload, size, xla), (n, rounds) in dropped.items():
        on_off = t("speed.explorer.xla_on" if xla else "speed.explorer.xla_off")
        factor = f"{OUTLIER_FACTOR:g}"
        lines.append(
            t(
                "bench.dropped",
                workload=workload,
                size=size,
                xla=on_off,
                n=n,
                rounds=rounds,
                factor=factor,
            )
        )
    return "\n".join(lines)


def variant_label(row: dict[str, Any], lang: str | None = None) -> str:
    """``'float32 (TF32 off)'``, ``'mixed_float16 (remapping off)'``, or just the variant
    (``None`` means not applicable, as under JAX: no note), in ``lang``.

    >>> row = {"variant": "mixed_float16", "tf32": None, "remapping": False}
    >>> variant_label(row, "en"), variant_label(row, "zh")
    ('mixed_float16 (remapping off)', 'mixed_float16（关闭 remapping）')
    """
    notes = [
        n
        for n, on in (
            (t("bench.note.tf32_off", lang), row["tf32"] is False),
            (t("bench.note.remapping_off", lang), row["remapping"] is False),
        )
        if on
    ]
    if not notes:
        return row["variant"]
    return t("bench.variant_notes", lang, variant=row["variant"], notes=join(notes, lang))
