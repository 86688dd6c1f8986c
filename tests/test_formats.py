"""mpteach.formats against ml_dtypes/NumPy: facts, bit fields, rounding, neighbours, statuses."""

from __future__ import annotations

import math
import subprocess
import sys
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mpteach import formats, i18n
from mpteach.formats import FORMAT_NAMES, STATUSES, FloatFormat

NARROW = [name for name in FORMAT_NAMES if FloatFormat(name).bits <= 16]
"""Formats small enough to test on every bit pattern."""


def _same(a, b) -> bool:
    """Equal as arrays, NaN equal to NaN, and +0 apart from -0."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return bool(
        np.array_equal(a, b, equal_nan=True) and np.array_equal(np.signbit(a), np.signbit(b))
    )


def _all_values(name: str) -> np.ndarray:
    """Every value of a narrow format, by bit pattern."""
    f = FloatFormat(name)
    return np.arange(2**f.bits, dtype=np.uint32).astype(f.uint).view(f.dtype)


@pytest.fixture(autouse=True)
def _quiet_casts():
    """NaN bit patterns and huge values warn when cast; here they are the point."""
    with np.errstate(invalid="ignore", over="ignore"):
        yield


# --- facts ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", FORMAT_NAMES)
def test_facts_agree_with_finfo(name):
    f = FloatFormat(name)
    info = ml_dtypes.finfo(f.dtype)
    assert (f.bits, f.exponent_bits, f.mantissa_bits) == (info.bits, info.nexp, info.nmant)
    assert f.sign_bits == 1
    assert f.max == float(info.max)
    assert f.smallest_normal == float(info.smallest_normal) == 2.0 ** (1 - f.bias)
    assert f.smallest_subnormal == float(info.smallest_subnormal)
    assert f.smallest_subnormal == f.smallest_normal * 2.0**-f.mantissa_bits
    assert f.eps == float(info.eps) == 2.0**-f.mantissa_bits
    # significant digits: log10 of the 2**(p+1) steps the mantissa and its implicit 1 can count
    assert f.significant_digits == pytest.approx(np.log10(2.0 ** (f.mantissa_bits + 1)))


@pytest.mark.parametrize("name", FORMAT_NAMES)
def test_max_is_the_largest_finite_bit_pattern(name):
    f = FloatFormat(name)
    largest = np.asarray(f.max).astype(f.dtype)
    assert float(formats.next_up(largest, f)) != f.max
    assert not math.isfinite(float(formats.next_up(largest, f)))  # inf, or NaN without inf
    assert float(formats.decode(*formats.bit_fields(f.max, f), f)) == f.max


def test_published_facts():
    """IEEE binary16 and the FP8 paper (Micikevicius et al. 2022)."""
    f16, e4m3, e5m2 = (FloatFormat(n) for n in ("float16", "float8_e4m3fn", "float8_e5m2"))
    assert (f16.max, f16.smallest_normal, f16.smallest_subnormal) == (65504, 2**-14, 2**-24)
    assert (e4m3.max, e4m3.has_inf, e4m3.has_nan) == (448, False, True)
    assert (e5m2.max, e5m2.has_inf) == (57344, True)
    assert all(FloatFormat(n).has_inf for n in FORMAT_NAMES if n != "float8_e4m3fn")
    assert FloatFormat("bfloat16").exponent_bits == FloatFormat("float32").exponent_bits


def test_format_identity_and_bad_names():
    assert FloatFormat("float16") == formats.float_format("float16")
    assert formats.float_format(FloatFormat("bfloat16")).name == "bfloat16"
    assert repr(FloatFormat("float8_e5m2")) == '<FloatFormat "float8_e5m2">'
    assert set(FloatFormat("float16").facts()) >= {"max", "bias", "eps", "has_inf"}
    with pytest.raises(
        ValueError, match=r"fmt='half' is not a known format; choose one of 'float64'"
    ):
        formats.cast(1.0, "half")


# --- every bit pattern of the 8- and 16-bit formats ------------------------------------------


@pytest.mark.parametrize("name", NARROW)
def test_decode_matches_every_bit_pattern(name):
    values = _all_values(name)
    assert _same(formats.decode(*formats.bit_fields(values, name), name), values)


@pytest.mark.parametrize("name", NARROW)
def test_statuses_of_every_stored_value(name):
    f = FloatFormat(name)
    values = _all_values(name)
    sign, exponent, mantissa = formats.bit_fields(values, name)
    statuses = formats.classify(values, name)
    special = np.isnan(values.astype(float)) | np.isinf(values.astype(float))
    assert set(statuses[exponent == 0]) == {"zero", "subnormal"}
    assert np.all((statuses == "zero") == ((exponent == 0) & (mantissa == 0)))
    assert set(statuses[(exponent > 0) & ~special]) == {"normal"}
    assert np.count_nonzero(statuses == "nan") == np.count_nonzero(np.isnan(values.astype(float)))
    assert np.count_nonzero(statuses == "inf") == (2 if f.has_inf else 0)


@pytest.mark.parametrize("name", NARROW)
def test_next_up_is_the_next_bit_pattern(name):
    """Positive finite values are ordered like their bit patterns: one ULP up is pattern + 1."""
    f = FloatFormat(name)
    values = _all_values(name)
    as_float = values.astype(float)
    positive = values[~np.signbit(as_float) & np.isfinite(as_float)]
    positive = positive[np.argsort(positive.view(f.uint))]
    up = formats.next_up(positive, name)
    assert _same(up[:-1], positive[1:])
    assert _same(formats.next_down(positive[1:], name), positive[:-1])
    assert _same(formats.next_down(-positive.astype(float), name), -up.astype(float))


# --- 10**5 values per format: rounding, ties, edges -------------------------------------------


def _samples(name: str, n: int = 100_000) -> np.ndarray:
    """At least ``n`` values: random float32 bit patterns (every binade, inf and NaN too),
    log-uniform magnitudes over the format's range and beyond, values exactly halfway between
    two neighbours of the format, and the edges (±max, thresholds, subnormals, 0, inf, NaN).

    And doubles a hair above and below each halfway value, which a cast that went through
    float32 first would round to the wrong neighbour half the time.
    """
    f = FloatFormat(name)
    rng = np.random.default_rng(sum(map(ord, name)))
    third = n // 3 + 1
    bits = rng.integers(0, 2**32, size=third, dtype=np.uint64).astype(np.uint32)
    random_float32 = bits.view(np.float32).astype(np.float64)
    low, high = math.log2(f.smallest_subnormal) - 4, min(math.log2(f.max) + 2, 1023.0)
    signs = np.where(rng.random(2 * third) < 0.5, -1.0, 1.0)
    log_uniform = signs * 2.0 ** rng.uniform(low, high, size=2 * third)
    stored = formats.cast(log_uniform[third:], f).astype(np.float64)
    with np.errstate(over="ignore"):
        ties = (stored + formats.next_up(stored, f).astype(np.float64)) / 2  # exactly halfway
    edges = [0.0, -0.0, math.inf, -math.inf, math.nan, f.max, -f.max, f.overflow_threshold]
    edges += [f.smallest_normal, f.smallest_subnormal, f.underflow_threshold, f.max * 1.0001]
    edges += [f.smallest_subnormal * k for k in (0.25, 0.75, 1.5, 2.5, 3.5)]
    edges += [f.smallest_normal * (1 - 2.0**-30), -f.overflow_threshold * (1 - 2.0**-40)]
    near_ties = np.nextafter(ties, np.where(rng.random(ties.size) < 0.5, -math.inf, math.inf))
    return np.concatenate([random_float32, log_uniform[:third], ties, near_ties, edges])


@pytest.mark.parametrize("name", FORMAT_NAMES)
def test_stored_values_decode_to_themselves(name):
    x = _samples(name)
    stored = formats.cast(x, name)
    assert x.size >= 100_000
    assert _same(formats.decode(*formats.bit_fields(x, name), name), stored)


@pytest.mark.parametrize("name", FORMAT_NAMES)
def test_round_to_nearest_ties_to_even(name):
    f = FloatFormat(name)
    x = _samples(name)
    x = x[np.isfinite(x) & (np.abs(x) <= f.max)]
    stored = formats.cast(x, f).astype(np.float64)
    exact = stored == x
    below = np.where(exact, x, formats.next_down(x, f).astype(np.float64))
    above = np.where(exact, x, formats.next_up(x, f).astype(np.float64))
    assert np.all((stored == below) | (stored == above))
    distance, other = np.abs(stored - x), np.abs(np.where(stored == below, above, below) - x)
    assert np.all(distance <= other)
    tie = (distance == other) & ~exact
    if name != "float64":  # (a float64 input cannot lie halfway between two float64s)
        assert tie.sum() > 1000, "the samples must include halfway cases"
    assert np.all(formats.bit_fields(stored[tie], f)[2] % 2 == 0), "a tie goes to the even mantissa"


@pytest.mark.parametrize("name", NARROW)
def test_float64_inputs_are_rounded_once(name):
    """float64 -> ``name`` is the correctly rounded value, whichever ml_dtypes is installed.

    Through float32 first (ml_dtypes 0.6 and earlier, ``tf.cast``) a double just off a halfway
    point can go to the other neighbour; :func:`formats.cast` must not.
    """
    f = FloatFormat(name)
    x = _samples(name)
    x = x[np.isfinite(x) & (np.abs(x) < f.overflow_threshold)]
    stored = formats.cast(x, f).astype(np.float64)
    twice = formats.cast(x.astype(np.float32), f).astype(np.float64)
    differs = stored != twice
    assert differs.sum() > 100, "the samples must include values that double rounding moves"
    # where the two disagree, the single rounding is the nearer neighbour (exactly)
    pairs = zip(x[differs][:300], stored[differs][:300], twice[differs][:300], strict=True)
    for xi, once, other in pairs:
        assert abs(Fraction(once) - Fraction(xi)) < abs(Fraction(other) - Fraction(xi))
    assert float(formats.cast(1 + 2**-8 + 2**-30, "bfloat16")) == 1.0078125  # the docstring's
    assert float(formats.cast(np.float32(1 + 2**-8 + 2**-30), "bfloat16")) == 1.0


@pytest.mark.parametrize("name", NARROW)
def test_float32_inputs_are_cast_as_ml_dtypes_and_numpy_cast_them(name):
    """From float32 every library rounds once: mpteach's cast is theirs, bit for bit."""
    f = FloatFormat(name)
    x = _samples(name).astype(np.float32)
    assert _same(formats.cast(x, f), x.astype(f.dtype))


def test_round_to_odd_keeps_which_side_of_every_tie():
    """Inexact: an odd float32 whose two (even) neighbours enclose ``x``; so a second rounding
    to fewer bits sees on which side of every halfway point ``x`` lies."""
    rng = np.random.default_rng(1)
    x = rng.normal(size=50_000) * 2.0 ** rng.integers(-150, 120, size=50_000)
    x = np.concatenate([x, x.astype(np.float32)])  # and values that float32 holds exactly
    odd = formats.round_to_odd_float32(x)
    exact = odd.astype(np.float64) == x
    assert np.array_equal(odd[exact], x[exact].astype(np.float32))
    assert exact.sum() >= 50_000 and (~exact).sum() > 40_000
    inexact, odd = x[~exact], odd[~exact]
    assert np.all(odd.view(np.uint32) % 2 == 1)
    below = np.nextafter(odd, np.float32(-np.inf)).astype(np.float64)
    above = np.nextafter(odd, np.float32(np.inf)).astype(np.float64)
    assert np.all((below < inexact) & (inexact < above))


@pytest.mark.parametrize("name", FORMAT_NAMES[1:])
def test_overflow_and_underflow_thresholds(name):
    f = FloatFormat(name)
    above, below = (np.nextafter(f.overflow_threshold, to) for to in (math.inf, 0))
    assert not math.isfinite(float(formats.cast(above, f)))
    assert float(formats.cast(below, f)) == f.max
    assert float(formats.cast(f.underflow_threshold, f)) == 0.0  # halfway to 0: ties to even
    tiny = np.nextafter(f.underflow_threshold, 1.0)
    assert float(formats.cast(tiny, f)) == f.smallest_subnormal
    f64 = FloatFormat("float64")  # no float64 input can overflow or flush in float64
    assert (f64.underflow_threshold, f64.overflow_threshold) == (0.0, math.inf)


@pytest.mark.parametrize("name", FORMAT_NAMES)
def test_statuses_follow_the_stored_value(name):
    f = FloatFormat(name)
    x = _samples(name)
    stored = formats.cast(x, f).astype(np.float64)
    status = formats.classify(x, f)
    finite = np.isfinite(x)
    with np.errstate(invalid="ignore"):
        assert np.all((status == "nan") == np.isnan(x))
        assert np.all((status == "zero") == (x == 0))
        flushed = finite & (x != 0) & (stored == 0)
        assert np.all((status == "underflow_to_zero") == flushed)
        assert np.all(np.abs(x[flushed]) <= f.underflow_threshold)
        overflow = finite & ~np.isfinite(stored)
        assert np.all(np.isin(status[overflow], ["overflow_inf", "overflow_nan"]))
        assert np.all(np.abs(x[overflow]) >= f.overflow_threshold)
        kept = finite & (stored != 0) & np.isfinite(stored)
        subnormal = np.abs(stored) < f.smallest_normal
        assert np.all(status[kept & subnormal] == "subnormal")
        assert np.all(status[kept & ~subnormal] == "normal")
    infinite = np.isinf(x)
    expected = "inf" if f.has_inf else "overflow_nan"
    assert np.all(status[infinite] == expected)
    assert set(np.unique(status)) <= set(STATUSES)


@pytest.mark.parametrize("name", FORMAT_NAMES)
def test_relative_error_of_normal_numbers_is_at_most_half_eps(name):
    """The unit roundoff: in the normal range a cast is off by at most eps/2, relatively."""
    f = FloatFormat(name)
    x = _samples(name)
    absolute, relative = formats.rounding_error(x, f)
    status, magnitude = formats.classify(x, f), np.abs(x)
    normal = (status == "normal") & (magnitude >= f.smallest_normal)
    assert normal.sum() > 30_000
    assert np.all(relative[normal] <= f.eps / 2)
    assert np.array_equal(absolute[normal], np.abs(formats.cast(x[normal], f) - x[normal]))
    tiny = np.isin(status, ["subnormal", "normal", "underflow_to_zero"]) & (
        magnitude < f.smallest_normal
    )  # below the normal range the spacing is fixed, so the absolute error is bounded
    assert tiny.sum() > 1000 and np.all(absolute[tiny] <= f.smallest_subnormal / 2)


def test_saturating_cast_clips_instead_of_nan():
    x = [500.0, -1e6, math.inf, 400.0, math.nan]
    assert np.isnan(formats.cast(x, "float8_e4m3fn").astype(float)[:3]).all()
    saturated = formats.cast(x, "float8_e4m3fn", saturate=True).astype(float)
    assert saturated[:4].tolist() == [448.0, -448.0, 448.0, 384.0] and math.isnan(saturated[4])
    statuses = formats.classify(x, "float8_e4m3fn", saturate=True).tolist()
    assert statuses == ["saturated", "saturated", "saturated", "normal", "nan"]
    assert formats.classify(70000.0, "float16", saturate=True) == "saturated"


# --- neighbours and steps -------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    x=st.floats(allow_nan=False, allow_infinity=False, width=64),
    name=st.sampled_from(FORMAT_NAMES),
)
def test_next_up_and_down_bracket_any_real(x, name):
    f = FloatFormat(name)
    up, down = float(formats.next_up(x, f)), float(formats.next_down(x, f))
    if abs(x) < f.max:
        assert down < x < up
        assert float(formats.next_down(up, f)) <= x <= float(formats.next_up(down, f))
    below, above = (float(v) for v in formats.neighbours(x, f))
    stored = float(formats.cast(x, f))
    if math.isfinite(stored) and abs(stored) < f.max:
        assert below < stored < above
        assert float(formats.next_up(below, f)) == stored == float(formats.next_down(above, f))


@settings(max_examples=200, deadline=None)
@given(x=st.floats(width=64), name=st.sampled_from(FORMAT_NAMES))
def test_represent_is_consistent(x, name):
    r = formats.represent(x, name)
    assert _same(r.stored, formats.cast(x, name))
    assert r.status == formats.classify(x, name)
    assert "".join(r.bits) == format(
        int(formats.cast(x, name).view(FloatFormat(name).uint)), f"0{FloatFormat(name).bits}b"
    )
    assert r.fields == tuple(int(v) for v in formats.bit_fields(x, name))
    if math.isfinite(r.stored):
        assert float(formats.cast(float(r.text), name)) == r.stored
        assert float(r.exact) == r.stored
        assert r.formula.endswith(f"= {r.stored!r}")
        assert r.abs_error == abs(r.stored - x)


def test_represent_reports_errors_and_neighbours():
    r = formats.represent(0.1, "float16")
    assert r.below < r.stored < r.above
    assert r.abs_error == abs(r.stored - 0.1) and r.rel_error == r.abs_error / 0.1
    assert r.rel_error <= FloatFormat("float16").eps / 2
    assert formats.represent(0.0, "float16").rel_error == 0.0
    assert math.isnan(formats.represent(math.nan, "float16").abs_error)
    assert formats.represent(math.inf, "float16").abs_error == 0.0
    reps = formats.represent_all(1e-6)
    assert [r.fmt for r in reps] == list(FORMAT_NAMES)


# --- the chapters' helpers ------------------------------------------------------------------


def test_square_overflows_and_underflows_in_float16_only():
    for name in ("float32", "bfloat16"):
        assert math.isfinite(formats.square(256.0, name)) and formats.square(1e-5, name) > 0
    assert formats.square(256.0) == math.inf and formats.square(1e-5) == 0.0
    assert formats.square(255.0) == float(formats.cast(255.0**2, "float16"))


@pytest.mark.parametrize("exponent", range(-12, 13, 3))
def test_an_update_2048_times_smaller_is_lost_in_float16(exponent):
    weight = 2.0**exponent
    lost = formats.weight_update(weight, weight / 2048)
    assert lost.lost and lost.ratio == 2048 and lost.result == weight
    kept = formats.weight_update(weight, weight / 1024)
    assert not kept.lost and kept.result > weight
    assert not formats.weight_update(weight, weight / 2048, "float32").lost


def test_long_sum_is_sequential_and_stalls_in_float16():
    values = np.random.default_rng(0).uniform(0, 0.2, size=20_000)
    total = np.float16(0)
    for v in formats.cast(values, "float16"):  # the same running total, one addition at a time
        total = np.float16(total + v)
    s = formats.long_sum(values)
    assert s.in_format == float(total)
    assert s.n == 20_000 and abs(s.in_float32 - s.exact) / s.exact < 1e-5
    assert s.in_format < 0.7 * s.exact  # float16's running total stopped growing
    assert formats.long_sum([], "bfloat16").exact == 0.0


# --- reports in every language --------------------------------------------------------------


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_reports_in_every_language(lang):
    table = formats.facts_table(lang=lang)
    assert all(name in table for name in FORMAT_NAMES)
    assert i18n.t("formats.fact.smallest_subnormal", lang) in table
    report = formats.describe(1e-5, ("float16", "float8_e4m3fn"), lang)
    assert i18n.t("formats.status.subnormal", lang) in report
    assert i18n.t("formats.status.underflow_to_zero", lang) in report
    for status in STATUSES:
        assert i18n.t(f"formats.status.{status}", lang)


def test_import_is_light():
    """``import mpteach.formats`` must not pull in TensorFlow or ipywidgets."""
    code = "import sys, mpteach.formats; print(sorted({'tensorflow', 'keras', 'ipywidgets'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
