"""The maths the widgets do in the browser, proven equal to the Python reference, bit for bit.

On the static website no kernel runs, so ``mpteach/widgets/web/floatmath.js`` rounds to the formats,
steps by ULPs and classifies values itself. Here node runs those functions on many inputs (random
doubles over each format's whole range, ties with even and odd mantissas, the subnormal and
overflow boundaries, signed zeros, inf and NaN) and every answer must carry the same bits as
:mod:`mpteach.formats` (ml_dtypes). The last test shows the check catches a wrong rounding.
"""

from __future__ import annotations

import json
import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from mpteach import formats

ROOT = Path(__file__).resolve().parents[1]
MODULE = ROOT / "mpteach" / "widgets" / "web" / "floatmath.js"
RUNNER = ROOT / "tools" / "run_js.mjs"
FORMATS = ("float64", "float32", "bfloat16", "float16", "float8_e5m2", "float8_e4m3fn")

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node runs the JS modules")


def encode(value):
    if isinstance(value, float | np.floating):
        return "f:" + struct.pack(">d", float(value)).hex()
    if isinstance(value, dict):
        return {k: encode(v) for k, v in value.items()}
    return [encode(v) for v in value] if isinstance(value, list | tuple) else value


def decode(value):
    if isinstance(value, str) and value.startswith("f:"):
        return struct.unpack(">d", bytes.fromhex(value[2:]))[0]
    if isinstance(value, dict):
        return {k: decode(v) for k, v in value.items()}
    return [decode(v) for v in value] if isinstance(value, list) else value


def call_js(function: str, calls: list[list], module: Path = MODULE, first: list = ()) -> list:
    request = {
        "module": str(module),
        "function": function,
        "calls": encode(calls),
        "first": encode(list(first)),
    }
    done = subprocess.run(
        ["node", str(RUNNER)], input=json.dumps(request), capture_output=True, text=True, check=True
    )
    return decode(json.loads(done.stdout))


def bits(values) -> np.ndarray:
    """float64 bit patterns, with every NaN the same (NaN payloads are not the point)."""
    v = np.asarray(values, dtype=np.float64)
    return np.where(np.isnan(v), np.uint64(0x7FF8000000000000), v.view(np.uint64))


def inputs(fmt: str, n: int = 3000) -> np.ndarray:
    """Doubles that test the rounding to ``fmt`` where it is hardest."""
    f = formats.float_format(fmt)
    rng = np.random.default_rng(0)
    exponents = rng.uniform(np.log2(f.smallest_subnormal) - 3, np.log2(f.max) + 2, n)
    with np.errstate(over="ignore", under="ignore"):  # float64's own ends: inf and 0
        random = rng.choice([-1.0, 1.0], n) * 2.0**exponents
    representable = formats.cast(random, f).astype(np.float64)
    representable = representable[np.isfinite(representable)]
    above = formats.next_up(representable, f).astype(np.float64)
    with np.errstate(over="ignore"):
        midpoints = (representable + above) / 2  # exact ties: both even and odd neighbours
    midpoints = midpoints[np.isfinite(midpoints)]
    edges = [
        0.0, -0.0, np.inf, -np.inf, np.nan, f.max, -f.max, f.overflow_threshold,
        np.nextafter(f.overflow_threshold, 0), np.nextafter(f.overflow_threshold, np.inf),
        f.smallest_normal, f.smallest_subnormal, f.underflow_threshold,
        np.nextafter(f.underflow_threshold, 1), np.nextafter(f.underflow_threshold, 0),
        -f.underflow_threshold, 3 * f.underflow_threshold, 1.0, 0.1, 1e-300, 1e300,
    ]  # fmt: skip
    return np.concatenate([random, representable, midpoints, np.nextafter(midpoints, 0), edges])


@pytest.mark.parametrize("fmt", FORMATS)
def test_rounding_to_each_format_matches_ml_dtypes(fmt):
    x = inputs(fmt)
    for saturate in (False, True):
        got = call_js("roundTo", [[float(v), fmt, saturate] for v in x])
        want = formats.cast(x, fmt, saturate=saturate).astype(np.float64)
        wrong = np.flatnonzero(bits(got) != bits(want))
        assert wrong.size == 0, [(x[i], got[i], want[i]) for i in wrong[:5]]


@pytest.mark.parametrize("fmt", FORMATS)
def test_classification_matches(fmt):
    x = inputs(fmt, 1000)
    for saturate in (False, True):
        got = call_js("classify", [[float(v), fmt, saturate] for v in x])
        want = formats.classify(x, fmt, saturate=saturate).tolist()
        assert got == want


@pytest.mark.parametrize("fmt", FORMATS)
def test_ulp_steps_match(fmt):
    x = inputs(fmt, 1000)
    for function, reference in (("nextUp", formats.next_up), ("nextDown", formats.next_down)):
        got = call_js(function, [[float(v), fmt] for v in x])
        want = reference(x, fmt).astype(np.float64)
        wrong = np.flatnonzero(bits(got) != bits(want))
        assert wrong.size == 0, [(function, x[i], got[i], want[i]) for i in wrong[:5]]


@pytest.mark.parametrize("fmt", FORMATS)
def test_bit_fields_and_decoding_match(fmt):
    x = inputs(fmt, 1000)
    got = call_js("bitFields", [[float(v), fmt] for v in x])
    want = np.stack(formats.bit_fields(x, fmt), axis=1)
    finite = np.isfinite(formats.cast(x, fmt).astype(np.float64))  # NaN payloads may differ
    assert np.array_equal(np.asarray(got)[finite], want[finite])
    fields = [[int(s), int(e), int(m)] for s, e, m in want]
    decoded = call_js("decode", [[*f, fmt] for f in fields])
    assert np.array_equal(bits(decoded), bits(formats.decode(*want.T, fmt)))


def test_the_check_catches_a_wrong_rounding(tmp_path):
    """Round half up instead of half to even: the comparison above must fail."""
    source = MODULE.read_text(encoding="utf-8")
    broken = source.replace("return low % 2 === 0 ? low : low + 1;", "return low + 1;")
    assert broken != source
    # A copy of the whole folder, so the broken module still finds its imports.
    web = tmp_path / "web"
    shutil.copytree(MODULE.parent, web)
    module = web / MODULE.name
    module.write_text(broken, encoding="utf-8")
    x = inputs("float16", 300)
    got = call_js("roundTo", [[float(v), "float16", False] for v in x], module)
    want = formats.cast(x, "float16").astype(np.float64)
    assert np.any(bits(got) != bits(want))


def test_an_unknown_format_is_named():
    with pytest.raises(subprocess.CalledProcessError) as caught:
        call_js("roundTo", [[1.0, "float15", False]])
    assert "fmt='float15' is not a known format" in caught.value.stderr


LOSS_SCALE = ROOT / "mpteach" / "widgets" / "web" / "lossscale.js"


def test_the_loss_scale_rule_matches_update_loss_scale():
    from mpteach.loss_scale import update_loss_scale

    rng = np.random.default_rng(1)
    counters, finite, growth = (
        rng.integers(0, 8, 500),
        rng.random(500) < 0.7,
        rng.integers(1, 9, 500),
    )
    cases = [
        [float(2.0 ** rng.integers(-20, 40)), int(c), bool(f), int(g)]
        for c, f, g in zip(counters, finite, growth, strict=True)
        if c < g
    ]
    got = call_js("updateLossScale", cases, LOSS_SCALE)
    want = [list(update_loss_scale(s, c, f, g)) for s, c, f, g in cases]
    assert [[float(s), int(c)] for s, c in got] == [[float(s), int(c)] for s, c in want]


@pytest.mark.parametrize("seed", range(6))
def test_the_simulator_loop_matches_python(seed):
    """Random per-step limits (including every step finite, and none), as simulate() makes them."""
    from mpteach import simulate

    rng = np.random.default_rng(seed)
    steps = int(rng.integers(1, 3000))
    limits = 2.0 ** rng.normal(12, 6, steps)
    limits[rng.random(steps) < 0.05] = -1.0  # a step no scale survives (inf/NaN gradients)
    initial, growth = float(2.0 ** rng.integers(0, 25)), int(rng.integers(1, 300))
    ((scales, counters),) = call_js("trajectory", [[limits.tolist(), initial, growth]], LOSS_SCALE)
    want_scales, want_counters = simulate._trajectory(limits.tolist(), initial, growth)
    assert np.array_equal(bits(scales), bits(want_scales))
    assert np.array_equal(np.asarray(counters, dtype=np.int64), want_counters)
    replayed, _ = simulate.replay([False] * steps, initial, growth)  # every step non-finite
    ((all_bad, _),) = call_js("trajectory", [[[-1.0] * steps, initial, growth]], LOSS_SCALE)
    assert np.array_equal(bits(all_bad), bits(replayed))


PARSE = ROOT / "mpteach" / "widgets" / "web" / "parse.js"
ENTRIES = [
    "0.1", " -1e-5 ", "1e400", "1e-400", "-1e-400", "0", "-0", "0.0", "0e5", "abc", "", " ",
    "2^-24", "2**10", "-2^-10", "2 ^ (-3)", "2^-2000", "2^2000", "0x1p-14", "0x10", "-0x1.8p1",
    "inf", "-inf", "nan", "Infinity", "1_000", "1e6", "65504", "−3", ".5", "5.", "1e", "e5",
    "1.5e-7", "4.9e-324", "2e-324", "1.7976931348623157e308", "1.8e308", "+7", "1,5", "0x",
]  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "zh", "ru"])
def test_typed_numbers_read_like_python(lang):
    from mpteach import i18n
    from mpteach.widgets._common import parse_number

    def template(key):
        return i18n.catalogue()[key][lang]

    messages = {
        "invalid": template("common.invalid_number"),
        "beyond": template("common.number_beyond_float64"),
        "outOfRange": template("common.number_out_of_range"),
    }
    for low, high, finite in ((-np.inf, np.inf, False), (1.0, 2.0**24, True)):
        got = call_js("parseNumber", [[e, messages, low, high, finite] for e in ENTRIES], PARSE)
        for entry, answer in zip(ENTRIES, got, strict=True):
            value, message = parse_number(entry, lang, low, high, finite)
            if value is None:
                assert answer.get("message") == message, entry
            else:
                assert "message" not in answer and bits([answer["value"]]) == bits([value]), entry


PYFORMAT = ROOT / "mpteach" / "widgets" / "web" / "pyformat.js"


def test_numbers_are_written_as_python_writes_them():
    from decimal import Decimal

    rng = np.random.default_rng(3)
    values = np.concatenate(
        [
            rng.choice([-1, 1], 400) * 10.0 ** rng.uniform(-320, 300, 400),
            formats.cast(rng.normal(0, 1000, 200), "float16").astype(np.float64),
            [0.0, -0.0, np.inf, -np.inf, np.nan, 0.1, 1e-5, 1e-4, 1e15, 1e16, 123456789.0, 5e-324],
            [2.0**-24, 65504.0, 0.0999755859375, 1.0, 100.0, 1e22, 2.0**-149],
        ]
    )
    values = [float(v) for v in values]
    assert call_js("pyRepr", [[v] for v in values], PYFORMAT) == [repr(v) for v in values]
    for digits in (3, 4):
        got = call_js("pyG", [[v, digits] for v in values], PYFORMAT)
        assert got == [format(v, f".{digits}g") for v in values], digits
    finite = [v for v in values if np.isfinite(v)]
    assert call_js("exactDecimal", [[v] for v in finite], PYFORMAT) == [
        str(Decimal(v)) for v in finite
    ]
    # fixed decimals, ties included (0.125, 2.5: half to even), as the widgets' percentages
    fixed = [v for v in values if abs(v) < 1e30] + [0.125, 0.375, 2.5, 3.5, -0.001, 1e-30]
    fixed += [k / 20_000 * 100 for k in range(0, 20_001, 7)]
    for digits in (0, 1, 2):
        got = call_js("pyFixed", [[v, digits] for v in fixed], PYFORMAT)
        assert got == [format(v, f".{digits}f") for v in fixed], digits


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_representation_matches_represent(fmt):
    x = inputs(fmt, 120)
    for saturate in (False, True):
        got = call_js("represent", [[float(v), fmt, saturate] for v in x])
        for value, js in zip(x, got, strict=True):
            py = formats.represent(float(value), fmt, saturate)
            assert js["bits"] == list(py.bits) and js["formula"] == py.formula, value
            assert js["status"] == py.status, value
            numbers = ("stored", "absError", "relError", "below", "above")
            reference = (py.stored, py.abs_error, py.rel_error, py.below, py.above)
            assert np.array_equal(bits([js[n] for n in numbers]), bits(reference)), value


# --- LossScaleDynamics: the simulation and its texts (web/dynamics.js) ------------------------

DYNAMICS = ROOT / "mpteach" / "widgets" / "web" / "dynamics.js"
DYNAMICS_DATA = ROOT / "mpteach" / "widgets" / "web" / "dynamics-data.json"


def test_the_stored_widget_data_is_what_python_computes():
    """dynamics-data.json and speedup-<lang>.json: current, and small (fetched by the site)."""
    sys.path.insert(0, str(ROOT / "tools"))
    import widget_data

    assert widget_data.main(["--check"]) == 0, "run python tools/widget_data.py"
    assert DYNAMICS_DATA.stat().st_size < 300_000  # fetched once for the whole site
    for path in widget_data.files():
        assert path.stat().st_size < (300_000 if path == DYNAMICS_DATA else 100_000), path


def _translated(english, shown) -> set[str]:
    """The strings of ``english`` (a data row, nested) that ``shown`` has in another language."""
    if isinstance(english, dict):
        return {text for key in english for text in _translated(english[key], shown[key])}
    return {english} if english != shown else set()


@pytest.mark.parametrize("lang", ["zh", "es", "ko", "ru"])
def test_the_speedup_explorer_shows_the_data_in_the_readers_language(lang):
    """Published groups (menu, titles, legends, sources) and claims: no English description."""
    from mpteach.bench.published import localized_row, published_measurements
    from mpteach.bench.results import vendor_claims
    from mpteach.i18n import localized
    from mpteach.widgets.speedup_explorer import browser_data

    data = browser_data(lang)
    text = json.dumps([data["published"], data["claims"]], ensure_ascii=False)
    english = {
        t for row in published_measurements() for t in _translated(row, localized_row(row, lang))
    }
    claims = vendor_claims()
    for claim in claims:
        english |= {claim[key] for key in ("source", "hardware", "kind")}
        assert localized(claim["quote"], lang) in text
        assert claim["quote"] in text  # the original, kept beside the translation
    for quote in sorted((c["quote"] for c in claims), key=len, reverse=True):
        text = text.replace(quote, "")
    found = [e for e in english if re.search(rf"(?<![\w-]){re.escape(e)}(?![\w-])", text)]
    assert not found, f"English in speedup-{lang}.json: {found}"
    first = localized_row(published_measurements()[0], lang)
    assert first["workload"] in data["published"][0]["label"]
    assert first["framework"] in data["published"][0]["title"]


def dynamics_cases() -> list[dict]:
    """Every preset on several spreads and spike rates, and random settings of the controls."""
    from mpteach.simulate import SETTINGS
    from mpteach.widgets.loss_scale_dynamics import GROWTH_STEPS, SPIKE_RATES

    cases = [
        {"spread": spread, "spikeRate": rate, "initialScale": scale, "growthSteps": growth}
        for scale, growth in SETTINGS.values()
        for spread in (0, 7, 30, 45)
        for rate in SPIKE_RATES
    ]
    rng = np.random.default_rng(5)
    for _ in range(40):
        cases.append(
            {
                "spread": int(rng.integers(0, 46)),
                "spikeRate": float(rng.choice(SPIKE_RATES)),
                "initialScale": float(2.0 ** rng.integers(0, 31)),
                "growthSteps": None if rng.random() < 0.2 else int(rng.choice(GROWTH_STEPS)),
            }
        )
    return cases


def python_run(case: dict):
    from mpteach.simulate import GradientModel
    from mpteach.widgets.loss_scale_dynamics import cached_simulate

    model = GradientModel(spread=float(case["spread"]), spike_rate=case["spikeRate"])
    return cached_simulate(model, 20_000, case["initialScale"], case["growthSteps"], 0)


def test_the_browser_simulation_matches_simulate():
    data = json.loads(DYNAMICS_DATA.read_text(encoding="utf-8"))
    cases = dynamics_cases()
    got = call_js("summary", [[c] for c in cases], DYNAMICS, first=[data])
    for case, answer in zip(cases, got, strict=True):
        want = python_run(case).summary()
        underflow = (answer.pop("underflow"), want.pop("underflow"))
        assert answer == want, case
        # numpy sums the mean pairwise, the browser in order: equal to far below what is shown
        if None in underflow:
            assert underflow == (None, None), case
        else:
            assert abs(underflow[0] - underflow[1]) < 1e-12, case
    # the whole path of the scale and which steps were skipped, for a few of them
    for case in cases[::25]:
        sim = python_run(case)
        (path,) = call_js("run", [[case]], DYNAMICS, first=[data])
        assert path["scale"] == sim.scale.tolist(), case
        assert [bool(f) for f in path["finite"].values()] == sim.finite.tolist(), case


def test_the_browser_writes_the_summary_as_python_does():
    from mpteach import i18n
    from mpteach.widgets.gradient_underflow import scale_text
    from mpteach.widgets.loss_scale_dynamics import describe

    summaries = [python_run(c).summary() for c in dynamics_cases()[::9]]
    summaries.append({**summaries[0], "underflow": None, "settle_step": None})
    summaries.append({**summaries[0], "skipped_fraction": 0.00125, "underflow": 0.00125})
    for lang in i18n.LANGUAGES:
        keys = {"skipped": "skipped", "settled": "settled", "neverSettled": "never_settled"}
        keys |= {"underflow": "underflow", "noStepApplied": "no_step_applied"}
        labels = {k: i18n.catalogue()[f"dynamics.{v}"][lang] for k, v in keys.items()}
        labels["thousands"] = i18n.THOUSANDS_SEPARATOR[lang]
        got = call_js("describe", [[s, labels] for s in summaries], DYNAMICS)
        assert got == [describe(s, lang) for s in summaries], lang
    scales = [2.0**k for k in range(-30, 40)] + [1000.0, 0.1]
    got = call_js("scaleText", [[s] for s in scales], DYNAMICS)
    assert got == [scale_text(s).split(" =")[0] for s in scales]


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_format_facts_match(fmt):
    f = formats.float_format(fmt)
    (got,) = call_js("FORMATS", [[fmt]])
    want = {
        "max": f.max, "smallestNormal": f.smallest_normal,
        "smallestSubnormal": f.smallest_subnormal, "underflowThreshold": f.underflow_threshold,
        "overflowThreshold": f.overflow_threshold, "bits": f.bits,
    }  # fmt: skip
    assert {k: got[k] for k in want} == want


# --- GradientUnderflow: the histogram and its text (web/underflow.js) --------------------------

UNDERFLOW = ROOT / "mpteach" / "widgets" / "web" / "underflow.js"


def gradient_like() -> np.ndarray:
    """Magnitudes over 40 octaves, exact zeros, every format's thresholds and their neighbours."""
    rng = np.random.default_rng(7)
    values = rng.normal(size=600) * 2.0 ** rng.uniform(-40, 2, 600)
    edges = []
    for name in ("float16", "bfloat16", "float8_e5m2", "float8_e4m3fn"):
        f = formats.float_format(name)
        for edge in (f.underflow_threshold, f.smallest_normal, f.overflow_threshold, f.max):
            edges += [edge, np.nextafter(edge, 0), np.nextafter(edge, np.inf), -edge]
    edges = np.array(edges) / 2.0**12  # a scale of 2**12 puts them on the thresholds
    return np.concatenate([values, edges, [0.0, -0.0, 0.0, np.inf, np.nan]])


@pytest.mark.parametrize("fmt", ["float16", "bfloat16", "float8_e5m2", "float8_e4m3fn"])
def test_the_browser_histogram_matches_underflow_report(fmt):
    from mpteach.widgets.gradient_underflow import exponent_range, underflow_report

    values = gradient_like()
    bins = exponent_range(values, 24)
    scales = [2.0**k for k in (0, 5, 12, 15, 24)]
    got = call_js("underflowReport", [[s, fmt, list(bins)] for s in scales], UNDERFLOW,
                  first=[values.tolist()])  # fmt: skip
    for scale, answer in zip(scales, got, strict=True):
        want = underflow_report(values, scale, fmt, bins)
        assert answer["totals"] == want.totals, scale
        assert {b: list(c) for b, c in answer["counts"].items()} == {
            b: c.tolist() for b, c in want.counts.items()
        }, scale


def test_the_browser_writes_the_underflow_summary_as_python_does():
    from mpteach import i18n
    from mpteach.widgets.gradient_underflow import exponent_range, summary, underflow_report

    values = gradient_like()
    bins = exponent_range(values, 24)
    reports = [underflow_report(values, 2.0**k, "float16", bins) for k in range(0, 25, 3)]
    encoded = [
        {"scale": r.scale, "totals": r.totals, "size": r.size, "fmt": r.fmt} for r in reports
    ]
    for lang in i18n.LANGUAGES:
        labels = {
            "summary": i18n.catalogue()["formats.grad.summary"][lang],
            "percent": i18n.catalogue()["common.percent"][lang],
        }
        got = call_js("summary", [[r, labels] for r in encoded], UNDERFLOW)
        assert got == [summary(r, lang) for r in reports], lang
    scales = [2.0**k for k in range(-30, 40)] + [1000.0, 0.1, 3.0]
    got = call_js("scaleText", [[s] for s in scales], PYFORMAT)
    from mpteach.widgets.gradient_underflow import scale_text

    assert got == [scale_text(s) for s in scales]
