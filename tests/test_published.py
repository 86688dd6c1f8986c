"""Published measurements: every row sourced, complete, and consistent with its own figures.

The figures are copied from their sources; these tests check that each row carries its setup and
provenance, that each speedup the source states is the ratio of the two throughputs it states (to
the digits the source printed), and that the loader refuses damaged data with a clear message.
"""

from __future__ import annotations

import copy
import fnmatch
import json
import re
import tomllib
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from importlib import resources
from pathlib import Path

import pytest

from mpteach import i18n
from mpteach.bench import published, results
from mpteach.bench.__main__ import main
from mpteach.i18n.sources import NAMES

ROOT = Path(__file__).resolve().parents[1]


def _raw() -> dict:
    text = (resources.files("mpteach") / "data" / "published_measurements.json").read_text("utf-8")
    return json.loads(text)


def _printed_ratio(row: dict, rounding: str) -> str:
    """mixed / baseline printed with as many decimals as the stated speedup, rounded or cut."""
    stated = row["speedup_stated"]
    digits = len(stated.split(".")[1]) if "." in stated else 0
    ratio = Decimal(str(row["throughput"]["mixed"])) / Decimal(str(row["throughput"]["baseline"]))
    return str(ratio.quantize(Decimal(1).scaleb(-digits), rounding=rounding))


def test_loader_returns_the_packaged_rows():
    raw = _raw()
    assert raw["schema"] == published.SCHEMA == "mpteach-published/1"
    assert published.published_measurements() == raw["rows"]
    assert published.published_document()["tpu"] == raw["tpu"]


def test_every_row_states_its_setup_and_source():
    for i, row in enumerate(_raw()["rows"]):
        where = f"rows[{i}]"
        assert set(row) == set(published.ROW_FIELDS), where
        assert row["device"] == "gpu" and row["gpu"] and row["system"] and row["model"], where
        assert row["framework"] and row["workload"], where
        assert isinstance(row["gpus"], int) and row["gpus"] >= 1, where
        for side in ("baseline", "mixed"):
            assert isinstance(row["batch_per_gpu"][side], int) and row["batch_per_gpu"][side] > 0
            assert row["precision"][side], where
            assert row["throughput"][side] > 0, where
        assert row["precision"]["baseline"].upper() in ("FP32", "TF32"), where
        assert row["throughput"]["unit"] in published.UNITS, where
        source = row["source"]
        assert re.fullmatch(r"[0-9a-f]{40}", source["commit"]), where
        assert source["url"].startswith("https://github.com/" + source["repository"] + "/"), where
        assert source["commit"] in source["url"] and source["paths"] and source["table"], where
        assert re.fullmatch(r"\d{4}-\d\d-\d\d", source["date"]), where


def test_stated_speedups_are_the_ratio_of_the_stated_throughputs():
    """Each source rounds or truncates its speedups; a row may say where the source contradicts
    itself, and then it must really do so."""
    checked = 0
    for i, row in enumerate(_raw()["rows"]):
        if row["speedup_stated"] is None:
            assert row["speedup_note"] is None, f"rows[{i}]"
            continue
        printed = {_printed_ratio(row, ROUND_HALF_UP), _printed_ratio(row, ROUND_DOWN)}
        stated = row["speedup_stated"]
        if row["speedup_note"] is None:
            assert Decimal(stated) in {Decimal(p) for p in printed}, (
                f"rows[{i}] ({row['model']}, {row['system']}): stated {stated}, ratio {printed}"
            )
            checked += 1
        else:
            assert Decimal(stated) not in {Decimal(p) for p in printed}, f"rows[{i}]"
            assert stated in row["speedup_note"], f"rows[{i}]"
    assert checked >= 80


def test_hardware_coverage():
    rows = published.published_measurements()
    gpus = {row["gpu"] for row in rows}
    a100 = [r for r in rows if "A100" in r["gpu"]]
    v100 = [r for r in rows if "V100" in r["gpu"]]
    other = [r for r in rows if "A100" not in r["gpu"] and "V100" not in r["gpu"]]
    assert len(a100) >= 10 and len(v100) >= 10 and other
    assert len({r["gpu"] for r in other}) >= 3, sorted(gpus)
    assert len({r["model"] for r in rows}) >= 5
    assert {r["precision"]["baseline"] for r in a100 if "DGX" in r["system"]} == {"TF32"}


def test_tpus_have_no_published_row_and_stay_a_vendor_claim():
    doc = published.published_document()
    assert doc["tpu"]["found"] is False and "vendor claim" in doc["tpu"]["summary"]
    assert all(looked["url"].startswith("https://") for looked in doc["tpu"]["looked_at"])
    assert not published.select_published(doc["rows"], device="tpu")
    assert any(claim["device"] == "tpu" for claim in results.vendor_claims())


def test_package_data_ships_the_file():
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"
    ]["mpteach"]
    assert any(fnmatch.fnmatch("data/published_measurements.json", p) for p in patterns)


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda d: d.update(schema="mpteach-claims/1"), "'schema' is 'mpteach-claims/1'"),
        (lambda d: d.update(rows=[]), "'rows' is empty"),
        (lambda d: d["rows"][0].pop("system"), r"rows\[0\].system is missing"),
        (lambda d: d["rows"][0].update(device="fpga"), r"choose one of 'gpu', 'tpu', 'cpu'"),
        (lambda d: d["rows"][0].update(gpus=0), r"rows\[0\].gpus must be 1 or more"),
        (lambda d: d["rows"][0]["batch_per_gpu"].update(mixed=1.5), r"batch_per_gpu.mixed"),
        (lambda d: d["rows"][0]["throughput"].update(unit="img/s"), r"'images/s', 'sequences/s'"),
        (lambda d: d["rows"][0]["throughput"].update(mixed=-1), r"throughput.mixed"),
        (lambda d: d["rows"][0].update(speedup_stated="9.99"), r"speedup_stated is '9.99'"),
        (lambda d: d["rows"][0].update(speedup_stated=1.6), r"rows\[0\].speedup_stated"),
        (lambda d: d["rows"][0].update(speedup_note="wrong"), r"speedup_note says"),
        (lambda d: d["rows"][0]["source"].update(commit="729963d"), r"40-digit commit"),
        (lambda d: d["rows"][0]["source"].update(url="https://example.org/"), r"names the commit"),
        (lambda d: d["rows"][0]["source"].update(date="April 2024"), r"YYYY-MM-DD"),
        (lambda d: d["tpu"].pop("found"), r"'tpu'"),
        (
            lambda d: d["rows"][0].update(workload="warm-up runs"),
            r"rows\[0\]\.workload 'warm-up runs' has no translation in mpteach/i18n/sources\.py",
        ),
        (
            lambda d: d["rows"][0]["source"].update(table="Inference performance: NVIDIA T4"),
            r"rows\[0\]\.source\.table 'Inference performance: NVIDIA T4' has no translation",
        ),
    ],
)
def test_damaged_data_is_refused_naming_the_field(damage, message):
    doc = copy.deepcopy(_raw())
    published.check_published(doc)
    damage(doc)
    with pytest.raises(ValueError, match=message):
        published.check_published(doc)


def test_groups_and_selection():
    rows = published.published_measurements()
    groups = published.published_groups(rows)
    assert sum(len(members) for members in groups.values()) == len(rows)
    for label, members in groups.items():
        assert len({published.group_key(r) for r in members}) == 1, label
        assert members[0]["gpu"] in label and members[0]["model"] in label
    bert = published.select_published(rows, gpu="a100", model="bert")
    assert bert and all("A100" in r["gpu"] and "BERT" in r["model"] for r in bert)
    with pytest.raises(ValueError, match=r"device='fpga'.*'gpu', 'tpu', 'cpu'"):
        published.select_published(rows, device="fpga")


def test_text_table_names_sources_and_marks_contradictions():
    rows = published.select_published(published.published_measurements(), model="Mask R-CNN")
    text = published.format_published(rows)
    assert all(row["source"]["url"] in text for row in rows)
    assert all(f"{published.published_speedup(row):.2f}×" in text for row in rows)
    flagged = [row for row in rows if row["speedup_note"]]
    assert flagged and "!1 The source contradicts itself" in text
    assert "Published measurements" in text and "not run here" in text and "TPU" in text
    russian = published.format_published(rows, lang="ru")
    assert "Опубликованные измерения" in russian and "Источники" in russian
    assert "No published measurement matches" in published.format_published([])


def test_cli_prints_the_published_measurements(capsys):
    assert main(["published", "--gpu", "RTX 3090"]) == 0
    out = capsys.readouterr().out
    assert "NVIDIA GeForce RTX 3090" in out and "A100" not in out.split("Sources")[0]
    assert "lambda-tensorflow-benchmark" in out
    assert main(["published", "--model", "no such model"]) == 0
    assert "No published measurement matches" in capsys.readouterr().out


# --- The reader's language: every description of the data is translated (i18n/sources.py) ----


def _descriptions(row: dict) -> list[tuple[str, str]]:
    """(field, text) of each description of ``row`` shown in the reader's language."""
    found = []
    for path in published.DESCRIPTIONS:
        value = row
        for part in path.split("."):
            value = value[part]
        if value:
            found.append((path, value))
    return found


def _shown_texts() -> set[str]:
    rows = published.published_measurements()
    texts = {text for row in rows for _, text in _descriptions(row)}
    return texts | {c[key] for c in results.vendor_claims() for key in results.CLAIM_TEXTS}


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_shown_data_string_has_a_translation(lang):
    for text in sorted(_shown_texts()):
        shown = i18n.localized(text, lang)  # a LookupError names a text without one
        if lang == "en" or text in NAMES:
            assert shown == text
        else:
            assert shown != text, f"{text!r} is shown in English in {lang}"


def test_every_translation_and_name_is_used_by_the_data():
    texts = _shown_texts()
    assert not NAMES - texts, f"NAMES no data string uses: {sorted(NAMES - texts)}"
    used = {i18n._data_message(text)[0] for text in texts - NAMES}
    keys = {key for key in i18n.catalogue() if key.startswith("sources.")}
    assert not keys - used, f"messages of mpteach/i18n/sources.py no data uses: {keys - used}"


def test_the_chinese_table_shows_no_english_description():
    rows = published.published_measurements()
    text = published.format_published(rows, lang="zh")
    english = {t for row in rows for _, t in _descriptions(row) if t not in NAMES}
    assert not sorted(t for t in english if re.search(rf"{re.escape(t)}(?!\w)", text))
    for row in rows:  # translated, with the names and numbers it holds
        shown = published.localized_row(row, "zh")
        assert shown["workload"] in text and shown["source"]["table"] in text
        assert shown["system"] in text and shown["throughput"]["unit"] in text
    assert (
        "NVIDIA V100 32GB (SXM3)（1 块 GPU；日志文件夹 Platinum-Tesla_V100-SXM3-32GB_HP16_TF2_2）"
        in text
    )
    resnet = published.select_published(rows, model="ResNet-50")
    assert "fp16（变量 fp32）" in published.format_published(resnet, lang="zh")


def test_the_table_lines_up_in_every_language():
    rows = published.select_published(published.published_measurements(), model="BERT")
    for lang in i18n.LANGUAGES:
        lines = published.format_published(rows, lang=lang).splitlines()
        for start, line in enumerate(lines):
            if "XLA" in line and line.startswith("  "):  # a group's header and its rows
                block = lines[start : lines.index("", start)]
                assert len({i18n.width(row) for row in block}) == 1, (lang, block)


def test_claims_are_translated_with_their_english_words_beside_them():
    claims = results.vendor_claims()
    english = results.format_claims(claims, lang="en").splitlines()
    assert english[:2] == [
        'TensorFlow guide: Mixed precision: "more than 3 times on modern GPUs"',
        "    hardware: NVIDIA GPUs with compute capability 7.0 or higher",
    ]
    assert english[2] == 'TensorFlow guide: Mixed precision: "60% on TPUs"'
    for lang in ("zh", "es", "ko", "ru"):
        lines = results.format_claims(claims, lang=lang).splitlines()
        assert len(lines) == 2 * len(claims)
        for claim, said, hardware in zip(claims, lines[::2], lines[1::2], strict=True):
            assert i18n.localized(claim["source"], lang) in said
            assert i18n.localized(claim["quote"], lang) in said
            # the original quote kept visible, in the language's quotation marks
            assert re.search(f'["«“]{re.escape(claim["quote"])}["»”]', said), said
            assert claim["source"] not in said and claim["hardware"] not in hardware
            assert i18n.localized(claim["hardware"], lang) in hardware
    zh = results.format_claims(claims[:1], lang="zh").splitlines()
    assert zh == [
        "TensorFlow 指南《混合精度》：“在现代 GPU 上快 3 倍以上”（原文：“more than 3 times on modern GPUs”）",
        "    硬件：计算能力 7.0 及以上的 NVIDIA GPU",
    ]


def test_a_claim_without_translation_is_refused_naming_the_text():
    text = (resources.files("mpteach") / "data" / "vendor_claims.json").read_text("utf-8")
    doc = json.loads(text)
    assert results.check_claims(copy.deepcopy(doc)) == results.vendor_claims()
    doc["claims"][0]["hardware"] = "Some new accelerator"
    with pytest.raises(
        ValueError,
        match=r"claims\[0\]\.hardware 'Some new accelerator' has no translation in mpteach/i18n/sources\.py",
    ):
        results.check_claims(doc)


def test_an_ambiguous_data_string_is_an_error(monkeypatch):
    catalogue = dict(i18n.catalogue())
    catalogue["sources.test.nvidia"] = dict.fromkeys(
        i18n.LANGUAGES, "Training performance: NVIDIA {x}"
    )
    monkeypatch.setattr(i18n, "catalogue", lambda: catalogue)
    i18n._data_patterns.cache_clear()
    i18n._data_message.cache_clear()
    try:
        with pytest.raises(
            LookupError, match=r"matches several messages \(sources.table.training, "
        ):
            i18n.localized("Training performance: NVIDIA DGX-1 (8x V100 16G)", "en")
    finally:
        monkeypatch.undo()
        i18n._data_patterns.cache_clear()
        i18n._data_message.cache_clear()
