"""Published measurements: training throughput in float32 (FP32 or TF32) against mixed precision,
measured by others on real accelerators and copied, with their provenance, from public sources.

They are the third kind of speed evidence in mpteach, kept apart from the other two:

* *measured here, now*: a run of :mod:`mpteach.bench` on this machine;
* *recorded results*: runs of :mod:`mpteach.bench` shipped in ``mpteach/data/results/``;
* *published measurements* (this module): ``mpteach/data/published_measurements.json``, each row
  naming its source (repository, file, commit, table) and the setup the source states;
* *vendor claims*: ``mpteach/data/vendor_claims.json``, best-case figures quoted from vendors.

A row (``schema`` ``mpteach-published/1``)::

    {"device": "gpu", "gpu": "NVIDIA A100 80GB", "system": "NVIDIA DGX A100 (8x A100 80G)",
     "model": "U-Net (medical image segmentation)", "workload": "training",
     "framework": "...", "gpus": 1, "batch_per_gpu": {"baseline": 8, "mixed": 8},
     "precision": {"baseline": "TF32", "mixed": "mixed precision"},
     "throughput": {"baseline": 63.33, "mixed": 141.03, "unit": "images/s"},
     "speedup_stated": "2.23", "speedup_note": null, "xla": null, "notes": "",
     "source": {"repository": "NVIDIA/DeepLearningExamples", "paths": ["..."],
                "commit": "<40 hex digits>", "url": "https://...", "date": "2024-04-04",
                "table": "Training performance: NVIDIA DGX A100 (8x A100 80G)"}}

The rows are in English. Their descriptions (:data:`DESCRIPTIONS`: what was run, the notes,
precisions, unit and table) are translated in ``mpteach/i18n/sources.py``;
:func:`localized_row` gives a row in the reader's language, and :func:`check_published` refuses a
row whose description has no translation there.

``speedup_stated`` is the speedup exactly as the source prints it, as text (``"1.60"``; ``null``
where it prints none). The sources round some speedups and truncate others, so
:func:`check_published` accepts a stated speedup within one unit of its last printed digit of
``mixed / baseline``; a row whose source contradicts itself keeps the source's numbers and says
so in ``speedup_note``.

>>> rows = published_measurements()
>>> a100 = select_published(rows, gpu="A100 80GB", model="U-Net (medical")
>>> [(r["gpus"], r["batch_per_gpu"]["mixed"]) for r in a100]
[(1, 1), (1, 8), (8, 1), (8, 8)]
>>> all(stated_speedup_matches(r) for r in a100)
True
"""

from __future__ import annotations

import copy
import datetime
import json
import re
from collections.abc import Iterable
from importlib import resources
from typing import Any

from mpteach import i18n
from mpteach.bench.results import xla_cell

SCHEMA = "mpteach-published/1"
DEVICES = ("gpu", "tpu", "cpu")
UNITS = ("images/s", "sequences/s", "samples/s")
_COMMIT = re.compile(r"[0-9a-f]{40}")
_REPOSITORY = re.compile(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")
ROW_FIELDS: dict[str, type | tuple[type, ...]] = {
    "device": str,
    "gpu": str,
    "system": str,
    "model": str,
    "workload": str,
    "framework": str,
    "gpus": int,
    "batch_per_gpu": dict,
    "precision": dict,
    "throughput": dict,
    "speedup_stated": (str, type(None)),
    "speedup_note": (str, type(None)),
    "xla": (bool, type(None)),
    "notes": str,
    "source": dict,
}
SOURCE_FIELDS = ("repository", "paths", "commit", "url", "date", "table")
# The fields shown in the reader's language (i18n.localized); names and numbers stay as they are.
DESCRIPTIONS = ("system", "model", "workload", "framework", "notes", "speedup_note",
                "precision.baseline", "precision.mixed", "throughput.unit", "source.table")  # fmt: skip


def _fail(where: str, problem: str) -> None:
    raise ValueError(f"published_measurements.json: {where} {problem}")


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _iso_date(where: str, value: Any) -> None:
    try:
        datetime.date.fromisoformat(value)
    except (TypeError, ValueError):
        _fail(where, f"must be a date as YYYY-MM-DD, not {value!r}")


def published_speedup(row: dict[str, Any]) -> float:
    """Mixed-precision throughput divided by the FP32/TF32 throughput of ``row``.

    >>> published_speedup({"throughput": {"baseline": 20.0, "mixed": 50.0}})
    2.5
    """
    return row["throughput"]["mixed"] / row["throughput"]["baseline"]


_STATED = re.compile(r"\d+(\.\d+)?")


def printed_decimals(text: str) -> int:
    """Digits after the point of a number as printed: ``'3.12'`` -> 2, ``'1.60'`` -> 2."""
    return len(text.split(".")[1]) if "." in text else 0


def stated_speedup_matches(row: dict[str, Any]) -> bool:
    """Whether the speedup the source prints is ``mixed / baseline`` to its printed digits
    (rounded or truncated: within one unit of the last digit). ``True`` where none is printed.

    >>> row = {"throughput": {"baseline": 19.40, "mixed": 60.65}, "speedup_stated": "3.12"}
    >>> stated_speedup_matches(row)  # 3.126..., truncated by the source
    True
    >>> stated_speedup_matches({**row, "speedup_stated": "3.3"})
    False
    """
    stated = row["speedup_stated"]
    if stated is None:
        return True
    return abs(published_speedup(row) - float(stated)) < 10.0 ** -printed_decimals(stated)


def _check_pair(where: str, value: dict[str, Any], kind: str) -> None:
    for side in ("baseline", "mixed"):
        item = value.get(side)
        if kind == "int" and not (
            isinstance(item, int) and not isinstance(item, bool) and item > 0
        ):
            _fail(f"{where}.{side}", f"must be a positive whole number, not {item!r}")
        if kind == "number" and not (_is_number(item) and item > 0):
            _fail(f"{where}.{side}", f"must be a positive number, not {item!r}")
        if kind == "str" and not (isinstance(item, str) and item.strip()):
            _fail(f"{where}.{side}", f"must name the precision, not {item!r}")


def _check_row(where: str, row: Any) -> None:
    if not isinstance(row, dict):
        _fail(where, "must be an object")
    for key, kind in ROW_FIELDS.items():
        if key not in row:
            _fail(f"{where}.{key}", "is missing")
        value = row[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            _fail(f"{where}.{key}", f"has the wrong type: {value!r}")
        if isinstance(value, str) and key != "notes" and not value.strip():
            _fail(f"{where}.{key}", "is empty")
    if row["device"] not in DEVICES:
        _fail(
            f"{where}.device",
            f"is {row['device']!r}; choose one of {', '.join(map(repr, DEVICES))}",
        )
    if row["gpus"] < 1:
        _fail(f"{where}.gpus", f"must be 1 or more, not {row['gpus']!r}")
    _check_pair(f"{where}.batch_per_gpu", row["batch_per_gpu"], "int")
    _check_pair(f"{where}.precision", row["precision"], "str")
    _check_pair(f"{where}.throughput", row["throughput"], "number")
    if row["throughput"].get("unit") not in UNITS:
        _fail(
            f"{where}.throughput.unit",
            f"is {row['throughput'].get('unit')!r}; choose one of {', '.join(map(repr, UNITS))}",
        )
    stated, note = row["speedup_stated"], row["speedup_note"]
    if stated is not None and not (_STATED.fullmatch(stated) and float(stated) > 0):
        _fail(
            f"{where}.speedup_stated",
            f"must be a positive number as the source prints it (text such as '1.60') or null, "
            f"not {stated!r}",
        )
    if stated is None and note is not None:
        _fail(f"{where}.speedup_note", "explains a stated speedup, but speedup_stated is null")
    matches = stated_speedup_matches(row)
    if not matches and note is None:
        _fail(
            f"{where}.speedup_stated",
            f"is {stated!r}, but mixed / baseline = {published_speedup(row):.4f}; copy the "
            "source exactly, and where the source contradicts itself say so in speedup_note",
        )
    if matches and note is not None:
        _fail(
            f"{where}.speedup_note", f"says the source contradicts itself, but {stated!r} matches"
        )
    _check_source(f"{where}.source", row["source"])
    for path in DESCRIPTIONS:
        text = _field(row, path)
        try:
            i18n.localized(text, "en") if text else None
        except LookupError as missing:
            _fail(f"{where}.{path}", str(missing))


def _holder(row: dict[str, Any], path: str) -> tuple[dict[str, Any], str]:
    """The dict that holds the field at a dotted ``path`` of ``row``, and the field's name."""
    *outer, name = path.split(".")
    for part in outer:
        row = row[part]
    return row, name


def _field(row: dict[str, Any], path: str) -> Any:
    holder, name = _holder(row, path)
    return holder[name]


def localized_row(row: dict[str, Any], lang: str | None = None) -> dict[str, Any]:
    """A copy of ``row`` whose :data:`DESCRIPTIONS` are in ``lang`` (default: the current
    language); names, numbers and the source's address stay as they are.

    >>> row = select_published(published_measurements(), model="ResNet-50")[0]
    >>> zh = localized_row(row, "zh")
    >>> zh["workload"], zh["precision"]["mixed"], zh["throughput"]["unit"], zh["model"]
    ('训练，合成 ImageNet 数据（tf_cnn_benchmarks）', 'fp16（变量 fp32）', '图像/秒', 'ResNet-50')
    """
    row = copy.deepcopy(row)
    for path in DESCRIPTIONS:
        holder, name = _holder(row, path)
        if holder[name]:
            holder[name] = i18n.localized(holder[name], lang)
    return row


def _check_source(where: str, source: dict[str, Any]) -> None:
    for key in SOURCE_FIELDS:
        if key not in source:
            _fail(f"{where}.{key}", "is missing")
    if not (isinstance(source["repository"], str) and _REPOSITORY.fullmatch(source["repository"])):
        _fail(f"{where}.repository", f"must be 'owner/name', not {source['repository']!r}")
    paths = source["paths"]
    if not (isinstance(paths, list) and paths and all(isinstance(p, str) and p for p in paths)):
        _fail(f"{where}.paths", "must list the files read")
    if not (isinstance(source["commit"], str) and _COMMIT.fullmatch(source["commit"])):
        _fail(f"{where}.commit", f"must be a full 40-digit commit, not {source['commit']!r}")
    url = source["url"]
    if not (isinstance(url, str) and url.startswith("https://") and source["commit"] in url):
        _fail(f"{where}.url", "must be an https address that names the commit")
    _iso_date(f"{where}.date", source["date"])
    if not (isinstance(source["table"], str) and source["table"].strip()):
        _fail(f"{where}.table", "must give the title of the table or file read")


def check_published(doc: Any) -> dict[str, Any]:
    """Return ``doc`` if it follows the ``mpteach-published/1`` schema, else raise ``ValueError``
    naming the field and what it must be.

    >>> check_published({"schema": "mpteach-bench/1"})
    Traceback (most recent call last):
    ...
    ValueError: published_measurements.json: 'schema' is 'mpteach-bench/1'; this mpteach reads 'mpteach-published/1'
    """
    if not isinstance(doc, dict):
        _fail("the document", f"must be a JSON object, not {type(doc).__name__}")
    if doc.get("schema") != SCHEMA:
        _fail("'schema'", f"is {doc.get('schema')!r}; this mpteach reads {SCHEMA!r}")
    for key, kind in (("note", str), ("read", str), ("rows", list), ("tpu", dict),
                      ("excluded", list)):  # fmt: skip
        if not isinstance(doc.get(key), kind):
            _fail(f"{key!r}", f"is missing or not a {kind.__name__}")
    _iso_date("'read'", doc["read"])
    if not doc["rows"]:
        _fail("'rows'", "is empty")
    for i, row in enumerate(doc["rows"]):
        _check_row(f"rows[{i}]", row)
    tpu = doc["tpu"]
    if not isinstance(tpu.get("found"), bool) or not isinstance(tpu.get("summary"), str):
        _fail(
            "'tpu'", "must say whether a TPU measurement was found ('found') and what ('summary')"
        )
    if not tpu["found"] and any(row["device"] == "tpu" for row in doc["rows"]):
        _fail("'tpu.found'", "is false, but there are TPU rows")
    for i, looked in enumerate(tpu.get("looked_at", [])):
        if not (isinstance(looked, dict) and str(looked.get("url", "")).startswith("https://")):
            _fail(f"'tpu.looked_at[{i}]'", "must give the https address of what was read")
    return doc


def published_document() -> dict[str, Any]:
    """The whole checked ``published_measurements.json``: rows, the TPU search, what was left out."""
    text = (resources.files("mpteach") / "data" / "published_measurements.json").read_text("utf-8")
    return check_published(json.loads(text))


def published_measurements() -> list[dict[str, Any]]:
    """The published measurements shipped with mpteach (checked rows; see the module doc)."""
    return published_document()["rows"]


def select_published(
    rows: Iterable[dict[str, Any]],
    gpu: str | None = None,
    model: str | None = None,
    device: str | None = None,
) -> list[dict[str, Any]]:
    """The rows whose ``gpu`` and ``model`` contain the given text (case ignored) and whose
    ``device`` is ``device``.

    >>> len(select_published(published_measurements(), device="tpu"))
    0
    >>> select_published([], device="fpga")
    Traceback (most recent call last):
    ...
    ValueError: device='fpga': choose one of 'gpu', 'tpu', 'cpu'.
    """
    if device is not None and device not in DEVICES:
        raise ValueError(f"device={device!r}: choose one of {', '.join(map(repr, DEVICES))}.")
    return [
        row
        for row in rows
        if (gpu is None or gpu.lower() in row["gpu"].lower())
        and (model is None or model.lower() in row["model"].lower())
        and (device is None or row["device"] == device)
    ]


def group_key(row: dict[str, Any]) -> tuple[str, str, str, str]:
    """Rows compared with each other: same hardware, system, model and workload."""
    return row["gpu"], row["system"], row["model"], row["workload"]


def published_groups(
    rows: Iterable[dict[str, Any]], lang: str | None = None
) -> dict[str, list[dict[str, Any]]]:
    """Rows by group (:func:`group_key`), each under a label ``'GPU · model · workload'`` in
    ``lang`` (the system added where two groups would read the same), in the data's order."""
    groups: dict[tuple, list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault(group_key(row), []).append(row)
    shown = [localized_row(members[0], lang) for members in groups.values()]
    labels = [f"{r['gpu']} · {r['model']} · {r['workload']}" for r in shown]
    return {
        (f"{label} · {row['system']}" if labels.count(label) > 1 else label): members
        for label, row, members in zip(labels, shown, groups.values(), strict=True)
    }


def batch_label(row: dict[str, Any]) -> str:
    """The batch per GPU: ``'64'``, or ``'64/128'`` where the mixed-precision run used another.

    >>> batch_label({"batch_per_gpu": {"baseline": 64, "mixed": 128}})
    '64/128'
    """
    batch = row["batch_per_gpu"]
    same = batch["mixed"] == batch["baseline"]
    return str(batch["mixed"]) if same else f"{batch['baseline']}/{batch['mixed']}"


def source_line(row: dict[str, Any], lang: str | None = None) -> str:
    """``'NVIDIA/DeepLearningExamples TensorFlow2/...README.md @729963dd, “<table>” <url>'``, the
    table's title in the quotation marks of ``lang``."""
    source = row["source"]
    paths = source["paths"]
    where = paths[0] if len(paths) == 1 else f"{paths[0]} (+{len(paths) - 1})"
    return (
        f"{source['repository']} {where} @{source['commit'][:8]} ({source['date']}), "
        f"{i18n.t('speed.published.title_quote', lang, title=source['table'])} {source['url']}"
    )


def _number(value: float) -> str:
    return str(value)


# The columns of a group's table: the least width of each, and whether it is aligned left.
_COLUMNS = ((5, False), (11, False), (4, False), (14, False), (16, False), (12, True),
            (7, False), (7, False))  # fmt: skip


def _table(rows: list[list[str]]) -> list[str]:
    """Header and rows aligned in :data:`_COLUMNS`, each widened to its widest cell as a monospace
    font shows it (:func:`mpteach.i18n.aligned`), two spaces apart so that two headers never read
    as one."""
    least = [w for w, _ in _COLUMNS]
    right = [not left for _, left in _COLUMNS]
    return ["  " + line for line in i18n.aligned(rows, least, right, (2,) * (len(least) - 1))]


def format_published(rows: Iterable[dict[str, Any]] | None = None, lang: str | None = None) -> str:
    """The published measurements as a text table in ``lang``, one block per group, with their
    sources.

    >>> text = format_published(select_published(published_measurements(), model="Mask R-CNN"))
    >>> "Mask R-CNN" in text and "DeepLearningExamples" in text
    True
    """
    rows = published_measurements() if rows is None else list(rows)

    def t(key: str, **values: Any) -> str:
        return i18n.t(f"speed.published.{key}", lang, **values)

    lines = [t("title"), t("ratio_note"), ""]
    if not rows:
        return "\n".join([*lines, t("none")])
    sources: dict[tuple, int] = {}  # (url, table): its number
    cited: list[dict[str, Any]] = []  # the first row of each source, in the reader's language
    notes: list[str] = []
    for label, members in published_groups(rows, lang).items():
        members = [localized_row(row, lang) for row in members]
        first = members[0]
        key = (first["source"]["url"], first["source"]["table"])
        if key not in sources:
            sources[key] = len(sources) + 1
            cited.append(first)
        number = sources[key]
        lines.append(f"{label}  [{number}]")
        lines.append(f"  {first['system']} | {first['framework']}")
        for note in dict.fromkeys(row["notes"] for row in members if row["notes"]):
            lines.append(t("note", note=note))
        table = [[t("col_gpus"), t("col_batch"), "XLA", first["precision"]["baseline"],
                  first["precision"]["mixed"], t("col_unit"), t("col_ratio"), t("col_stated")]]  # fmt: skip
        for row in members:
            stated = row["speedup_stated"] or "-"
            if row["speedup_note"]:
                notes.append(row["speedup_note"])
                stated += f" !{len(notes)}"
            tp = row["throughput"]
            table.append([
                str(row["gpus"]), batch_label(row), xla_cell(row["xla"], lang),
                _number(tp["baseline"]), _number(tp["mixed"]), tp["unit"],
                f"{published_speedup(row):.2f}×", stated,
            ])  # fmt: skip
        lines += [*_table(table), ""]
    lines.append(t("batch_note"))
    for i, note in enumerate(notes, 1):
        lines.append(f"!{i} {t('inconsistent', note=note)}")
    lines += ["", t("sources")]
    lines += [f"[{number}] {source_line(row, lang)}" for number, row in enumerate(cited, 1)]
    if not any(row["device"] == "tpu" for row in rows):
        lines += ["", t("tpu")]
    return "\n".join(lines)
