"""Floating-point formats you can touch: float64, float32, bfloat16, float16 and two float8s.

Every fact here is computed from the format's NumPy/``ml_dtypes`` dtype (``finfo``, the item
size), and every stored value comes from a NumPy/``ml_dtypes`` cast: nothing is typed in and no
rounding is written by hand. No TensorFlow is imported, so ``import mpteach.formats`` is fast.

>>> f16 = FloatFormat("float16")
>>> f16.exponent_bits, f16.mantissa_bits, f16.bias, f16.max
(5, 10, 15, 65504.0)
>>> represent(1e-5, "float16").status
'subnormal'
>>> square(256.0), square(1e-5)     # the overflow and underflow of the TensorFlow guide
(inf, 0.0)

float8: ``float8_e4m3fn`` has no infinity and a single NaN pattern per sign; ml_dtypes turns
anything beyond its overflow threshold (464, halfway from 448 to the next would-be value), and
±inf, into NaN. ``float8_e5m2`` follows IEEE rules (±inf, max 57344). A *saturating* cast
(``saturate=True``) first clips to ±max, as FP8 hardware conversions can; ml_dtypes alone never
saturates.

Converting a float64 means one thing here, whatever is installed: the value a narrow format stores
is the real number rounded **once** to the nearest value of the format (ties to even), as
float.exposed shows it. Libraries differ on this. NumPy rounds float64 to float16 once, and so does
ml_dtypes from version 0.7 for bfloat16 and the float8s; ml_dtypes 0.6 and earlier, TensorFlow's
``tf.cast`` and ``keras.ops.cast`` go through float32 first and round twice, so a float64 within half a
float32 step of a halfway point can land on the other neighbour:

>>> x = 1 + 2**-8 + 2**-30                       # just above the bfloat16 tie 1 + 2**-8
>>> float(cast(x, "bfloat16")), float(cast(np.float32(x), "bfloat16"))
(1.0078125, 1.0)

To round once with every ml_dtypes, :func:`cast` first rounds a float64 to float32 *to odd*
(:func:`round_to_odd_float32`), then lets NumPy/ml_dtypes round that float32 once. Values that are
float32 already, which is every tensor in mixed-precision training, take the same path in every
library and every version.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import numpy as np

from mpteach import i18n

FORMAT_NAMES: tuple[str, ...] = (
    "float64",
    "float32",
    "bfloat16",
    "float16",
    "float8_e5m2",
    "float8_e4m3fn",
)
"""The formats, widest first; float64 is the reference the others are compared with."""

STATUSES: tuple[str, ...] = (
    "zero",  # the input was zero
    "normal",
    "subnormal",
    "underflow_to_zero",  # underflow: a non-zero input stored as zero
    "overflow_inf",  # a finite input too large: stored as inf
    "overflow_nan",  # too large for a format without inf (float8_e4m3fn): stored as NaN
    "saturated",  # too large, clipped to ±max by a saturating cast
    "inf",  # the input was ±inf and the format has it
    "nan",  # the input was NaN
)
"""Every classification :func:`classify` can return."""

_FROM_ML_DTYPES = ("bfloat16", "float8_e5m2", "float8_e4m3fn")
"""The formats NumPy lacks; ``ml_dtypes`` (also what TensorFlow and JAX use) provides them."""


def _dtype_and_finfo(name: str) -> tuple[np.dtype, Any]:
    if name not in _FROM_ML_DTYPES:
        return np.dtype(name), np.finfo(name)
    # Imported here, on first use, not with this module: importing ml_dtypes 0.7 takes 0.6 s to
    # 4 s (against 0.1 s for 0.6), which a float16-only cell should not pay.
    import ml_dtypes

    dtype = np.dtype(getattr(ml_dtypes, name))
    return dtype, ml_dtypes.finfo(dtype)


class FloatFormat:
    """The facts of one floating-point format, read from its dtype.

    >>> f = FloatFormat("bfloat16")
    >>> f
    <FloatFormat "bfloat16">
    >>> f.bits, f.sign_bits, f.exponent_bits, f.mantissa_bits, f.bias
    (16, 1, 8, 7, 127)
    >>> f.eps, round(f.significant_digits, 1)
    (0.0078125, 2.4)
    >>> e4m3 = FloatFormat("float8_e4m3fn")
    >>> e4m3.max, e4m3.smallest_normal, e4m3.smallest_subnormal, e4m3.has_inf, e4m3.has_nan
    (448.0, 0.015625, 0.001953125, False, True)
    >>> FloatFormat("float16").overflow_threshold, FloatFormat("float16").underflow_threshold
    (65520.0, 2.9802322387695312e-08)
    >>> FloatFormat("float15")
    Traceback (most recent call last):
    ...
    ValueError: fmt='float15' is not a known format; choose one of 'float64', 'float32', 'bfloat16', 'float16', 'float8_e5m2', 'float8_e4m3fn'.
    """

    def __init__(self, name: str) -> None:
        if name not in FORMAT_NAMES:
            choices = ", ".join(repr(n) for n in FORMAT_NAMES)
            raise ValueError(f"fmt={name!r} is not a known format; choose one of {choices}.")
        self.name = name
        self.dtype, info = _dtype_and_finfo(name)
        self.bits = self.dtype.itemsize * 8
        self.exponent_bits = int(info.nexp)
        self.mantissa_bits = int(info.nmant)
        self.sign_bits = self.bits - self.exponent_bits - self.mantissa_bits
        self.bias = 1 - int(info.minexp)  # the smallest normal is 2**(1 - bias)
        self.max = float(info.max)
        self.smallest_normal = float(info.smallest_normal)
        self.smallest_subnormal = float(info.smallest_subnormal)
        self.eps = float(info.eps)
        # p mantissa bits plus the implicit leading 1 hold log10(2**(p + 1)) decimal digits:
        # about 7.2 for float32, 3.3 for float16, 2.4 for bfloat16.
        self.significant_digits = (self.mantissa_bits + 1) * math.log10(2)
        special = np.array([np.inf, np.nan]).astype(self.dtype)
        self.has_inf = bool(np.isinf(special[0]))
        self.has_nan = bool(np.isnan(special[1]))
        largest = self.dtype.type(self.max)
        below_max = float(np.nextafter(largest, self.dtype.type(0)))
        # A cast rounds to the nearest value, so these are the points halfway to "one step
        # beyond" at each end. Beyond them a cast gives 0 / inf (NaN); exactly at them,
        # round-half-to-even decides (float16: 65520 -> inf; float8_e4m3fn: 464 -> 448).
        # float64's own thresholds are no float64 numbers: they come out as 0 and inf.
        self.underflow_threshold = self.smallest_subnormal / 2
        self.overflow_threshold = self.max + (self.max - below_max) / 2
        self.uint = np.dtype(f"u{self.dtype.itemsize}")  # same size, to read the bits

    def facts(self) -> dict[str, Any]:
        """The facts as a dict (what :func:`facts_table` prints).

        >>> FloatFormat("float16").facts()["smallest_subnormal"]
        5.960464477539063e-08
        """
        names = ("bits", "sign_bits", "exponent_bits", "mantissa_bits", "bias", "max")
        names += ("smallest_normal", "smallest_subnormal", "eps", "significant_digits")
        return {"name": self.name} | {n: getattr(self, n) for n in names + ("has_inf", "has_nan")}

    def __repr__(self) -> str:
        return f'<FloatFormat "{self.name}">'

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FloatFormat) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)


_CACHE: dict[str, FloatFormat] = {}


def float_format(fmt: str | FloatFormat) -> FloatFormat:
    """The :class:`FloatFormat` for a name (or the format itself); built once per name.

    >>> float_format("float32").max
    3.4028234663852886e+38
    """
    if isinstance(fmt, FloatFormat):
        return fmt
    if fmt not in _CACHE:
        _CACHE[fmt] = FloatFormat(fmt)
    return _CACHE[fmt]


def cast(x: Any, fmt: str | FloatFormat = "float16", saturate: bool = False) -> np.ndarray:
    """The values stored when ``x`` (float64, or any real array) is cast to ``fmt``.

    ``saturate=True`` clips to ±max first (±inf too); NaN stays NaN.

    >>> cast([65504.0, 65520.0, 1e-8], "float16").tolist()
    [65504.0, inf, 0.0]
    >>> cast([500.0, float("inf")], "float8_e4m3fn").astype(float).tolist()
    [nan, nan]
    >>> cast([500.0, float("inf")], "float8_e4m3fn", saturate=True).astype(float).tolist()
    [448.0, 448.0]
    """
    f = float_format(fmt)
    x = np.asarray(x, dtype=np.float64)
    if saturate:
        x = np.clip(x, -f.max, f.max)
    with np.errstate(over="ignore", invalid="ignore"):  # overflow and NaN are what we show
        if f.bits < 32:  # a second rounding, after one to odd, rounds as if once
            x = round_to_odd_float32(x)
        return x.astype(f.dtype)


def round_to_odd_float32(x: Any) -> np.ndarray:
    """float64 to float32 *rounded to odd*: cut towards zero, last bit set if anything was cut.

    Rounding to nearest from there to a format of at most 22 significant bits gives the same
    value as rounding ``x`` to it directly (Boldo and Melquiond, "Emulation of FMA and correctly
    rounded sums: proved algorithms using rounding to odd", IEEE Trans. Computers 57(4), 2008):
    the odd last bit keeps "above or below the halfway point" that a nearest rounding could lose.
    Every 8- and 16-bit format has at most 11; their subnormals are normal in float32 or sit on its
    own finer subnormal grid.

    >>> x = 1 + 2**-8 + 2**-30
    >>> float(np.float32(x)), float(round_to_odd_float32(x)) - 1  # nearest lands on the tie
    (1.00390625, 0.003906369209289551)
    >>> round_to_odd_float32([1e300, -1e-300, 0.5]).tolist()   # beyond float32: max, or its tiniest
    [3.4028234663852886e+38, -1.401298464324817e-45, 0.5]
    """
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        nearest = x.astype(np.float32)
        overshot = np.abs(nearest.astype(np.float64)) > np.abs(x)  # (inf beyond float32's max)
        cut = np.where(overshot, np.nextafter(nearest, np.float32(0)), nearest).astype(np.float32)
        inexact = np.isfinite(x) & (cut.astype(np.float64) != x)
    return (cut.view(np.uint32) | inexact.astype(np.uint32)).view(np.float32)


def bit_fields(x: Any, fmt: str | FloatFormat = "float16") -> tuple[np.ndarray, ...]:
    """``(sign, exponent, mantissa)``: the integer bit fields of ``x`` stored in ``fmt``.

    >>> [int(field) for field in bit_fields(1.0, "float16")]
    [0, 15, 0]
    >>> [int(field) for field in bit_fields(-2**-24, "float16")]   # smallest subnormal
    [1, 0, 1]
    """
    f = float_format(fmt)
    raw = cast(x, f).view(f.uint)  # unsigned: the sign bit of float64 must not make it negative
    unsigned = f.uint.type
    mantissa = raw & unsigned((1 << f.mantissa_bits) - 1)
    exponent = (raw >> unsigned(f.mantissa_bits)) & unsigned((1 << f.exponent_bits) - 1)
    sign = raw >> unsigned(f.mantissa_bits + f.exponent_bits)
    return tuple(field.astype(np.int64) for field in (sign, exponent, mantissa))


def decode(sign: Any, exponent: Any, mantissa: Any, fmt: str | FloatFormat = "float16") -> Any:
    """The value that bit fields encode (float64), by the format's formula.

    Normal: ``(-1)**s * 2**(e - bias) * (1 + m / 2**p)``; subnormal (``e == 0``):
    ``(-1)**s * 2**(1 - bias) * (m / 2**p)``. With an all-ones exponent, IEEE formats encode inf
    (``m == 0``) or NaN; a format without inf (float8_e4m3fn) keeps only exponent and mantissa
    all ones, for NaN.

    >>> float(decode(0, 15, 0, "float16")), float(decode(0, 30, 1023, "float16"))
    (1.0, 65504.0)
    >>> float(decode(0, 15, 7, "float8_e4m3fn")), float(decode(0, 15, 6, "float8_e4m3fn"))
    (nan, 448.0)
    """
    f = float_format(fmt)
    sign, exponent, mantissa = (np.asarray(a, dtype=np.int64) for a in (sign, exponent, mantissa))
    fraction = mantissa / 2.0**f.mantissa_bits
    with np.errstate(over="ignore"):  # float64's all-ones exponent: inf, replaced below
        magnitude = np.where(
            exponent > 0,
            np.ldexp(1.0 + fraction, exponent - f.bias),
            np.ldexp(fraction, 1 - f.bias),
        )
    all_ones = exponent == (1 << f.exponent_bits) - 1
    if f.has_inf:
        magnitude = np.where(all_ones, np.where(mantissa == 0, np.inf, np.nan), magnitude)
    else:
        nan_pattern = all_ones & (mantissa == (1 << f.mantissa_bits) - 1)
        magnitude = np.where(nan_pattern, np.nan, magnitude)
    return np.where(sign == 1, -magnitude, magnitude)


def next_up(x: Any, fmt: str | FloatFormat = "float16") -> np.ndarray:
    """The smallest value of ``fmt`` strictly above ``x`` (what one ULP step up reaches).

    Above ``max`` comes inf, or NaN in a format without inf.

    >>> float(next_up(1.0, "float16")), float(next_up(1.0003, "float16"))
    (1.0009765625, 1.0009765625)
    >>> float(next_up(65504.0, "float16")), float(next_up(448.0, "float8_e4m3fn"))
    (inf, nan)
    """
    f = float_format(fmt)
    x = np.asarray(x, dtype=np.float64)
    inside = cast(np.clip(x, -f.max, f.max), f)  # no overflow; NaN stays NaN
    with np.errstate(invalid="ignore"):  # NaN in, NaN out
        ahead = inside.astype(np.float64) > x  # rounding already went up
        at_max = inside.astype(np.float64) >= f.max
        stepped = np.where(at_max, cast(np.inf, f), np.nextafter(inside, f.dtype.type(f.max)))
    return np.where(ahead, inside, stepped).astype(f.dtype)  # (beyond max: inf, or NaN)


def next_down(x: Any, fmt: str | FloatFormat = "float16") -> np.ndarray:
    """The largest value of ``fmt`` strictly below ``x``: ``-next_up(-x)``.

    >>> float(next_down(1.0, "float16")), float(next_down(0.0, "float16"))
    (0.99951171875, -5.960464477539063e-08)
    """
    return -next_up(-np.asarray(x, dtype=np.float64), fmt)


def neighbours(x: Any, fmt: str | FloatFormat = "float16") -> tuple[np.ndarray, np.ndarray]:
    """The values one ULP below and above the stored value of ``x``.

    >>> [float(v) for v in neighbours(0.1, "float16")]
    [0.09991455078125, 0.10003662109375]
    """
    stored = cast(x, fmt).astype(np.float64)
    return next_down(stored, fmt), next_up(stored, fmt)


def rounding_error(
    x: Any, fmt: str | FloatFormat = "float16", saturate: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """``(absolute, relative)`` error of storing ``x`` in ``fmt`` (float64, against ``x``).

    An inf stored as inf has no error; a zero ``x`` has relative error 0.

    >>> absolute, relative = rounding_error([0.1, 70000.0], "float16")
    >>> absolute.tolist(), f"{relative[0]:.2e}"
    ([2.441406250000555e-05, inf], '2.44e-04')
    """
    x = np.asarray(x, dtype=np.float64)
    stored = cast(x, fmt, saturate).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        absolute = np.where(stored == x, 0.0, np.abs(stored - x))
        relative = np.where(x == 0, 0.0, absolute / np.abs(x))
    return absolute, relative


def classify(x: Any, fmt: str | FloatFormat = "float16", saturate: bool = False) -> Any:
    """What happens to ``x`` stored in ``fmt``: one of :data:`STATUSES` per value.

    >>> classify([0.0, 1.0, 1e-6, 1e-8, 1e5, float("nan")], "float16").tolist()
    ['zero', 'normal', 'subnormal', 'underflow_to_zero', 'overflow_inf', 'nan']
    >>> classify([500.0, float("inf")], "float8_e4m3fn").tolist()
    ['overflow_nan', 'overflow_nan']
    >>> classify([500.0, 400.0], "float8_e4m3fn", saturate=True).tolist()
    ['saturated', 'normal']
    >>> str(classify(2.0**-25, "float16"))            # exactly half the smallest subnormal
    'underflow_to_zero'
    """
    return _STATUS_ARRAY[status_codes(x, fmt, saturate)]


_STATUS_ARRAY = np.array(STATUSES)


def status_codes(x: Any, fmt: str | FloatFormat = "float16", saturate: bool = False) -> Any:
    """:func:`classify` as positions in :data:`STATUSES` (integers: quick to count).

    >>> [STATUSES[code] for code in status_codes([1.0, 1e-8], "float16")]
    ['normal', 'underflow_to_zero']
    """
    f = float_format(fmt)
    x = np.asarray(x, dtype=np.float64)
    stored = cast(x, f, saturate).astype(np.float64)
    with np.errstate(invalid="ignore"):
        cases = [  # the first that holds wins
            ("nan", np.isnan(x)),
            ("saturated", saturate & (np.abs(x) > f.max)),
            ("overflow_nan", np.isnan(stored)),
            ("inf", np.isinf(stored) & np.isinf(x)),
            ("overflow_inf", np.isinf(stored)),
            ("zero", x == 0),
            ("underflow_to_zero", stored == 0),
            ("subnormal", np.abs(stored) < f.smallest_normal),
        ]
    conditions = [condition for _, condition in cases]
    codes = [STATUSES.index(status) for status, _ in cases]
    return np.select(conditions, codes, STATUSES.index("normal"))


def shortest_text(x: Any, fmt: str | FloatFormat = "float16") -> str:
    """The shortest decimal that casts back to the same stored value (what you would type).

    >>> shortest_text(0.1, "float16"), shortest_text(0.1, "bfloat16"), shortest_text(1e5, "float16")
    ('0.1', '0.1', 'inf')
    """
    f = float_format(fmt)
    stored = cast(x, f)
    value = float(stored)
    if not math.isfinite(value):
        return str(value)
    for digits in range(1, 18):
        text = f"{value:.{digits}g}"
        if cast(float(text), f).view(f.uint) == stored.view(f.uint):
            return text
    return repr(value)  # unreachable: 17 digits identify any float64


def formula(x: Any, fmt: str | FloatFormat = "float16") -> str:
    """The formula the bit fields of ``x`` in ``fmt`` encode, with their numbers.

    >>> formula(1.0, "float16")
    '(-1)^0 × 2^(15-15) × (1 + 0/1024) = 1.0'
    >>> formula(-2**-24, "float16")
    '(-1)^1 × 2^(1-15) × (0 + 1/1024) = -5.960464477539063e-08'
    >>> formula(1e9, "float16"), formula(1e9, "float8_e4m3fn")
    ('+inf', 'NaN')
    """
    f = float_format(fmt)
    value = float(cast(x, f))
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    sign, exponent, mantissa = (int(a) for a in bit_fields(x, f))
    scale = 2**f.mantissa_bits
    if exponent == 0:
        parts = f"2^(1-{f.bias}) × (0 + {mantissa}/{scale})"
    else:
        parts = f"2^({exponent}-{f.bias}) × (1 + {mantissa}/{scale})"
    return f"(-1)^{sign} × {parts} = {value!r}"


@dataclass(frozen=True)
class Representation:
    """Everything about one real number stored in one format (see :func:`represent`)."""

    fmt: str
    x: float  # the reference value (float64)
    stored: float  # the stored value, as float64 (exact)
    text: str  # shortest decimal that reads back as ``stored``
    exact: str  # the exact decimal expansion of ``stored``
    abs_error: float  # |stored - x|
    rel_error: float  # |stored - x| / |x| (0 when both are 0)
    bits: tuple[str, str, str]  # sign, exponent, mantissa as strings of 0/1
    fields: tuple[int, int, int]  # the same fields as integers
    formula: str
    below: float  # one ULP below ``stored``
    above: float  # one ULP above ``stored``
    status: str  # one of STATUSES


def represent(
    x: float, fmt: str | FloatFormat = "float16", saturate: bool = False
) -> Representation:
    """Store the real ``x`` in ``fmt`` and describe the result.

    >>> r = represent(0.1, "float16")
    >>> r.stored, r.text, r.bits, r.status
    (0.0999755859375, '0.1', ('0', '01011', '1001100110'), 'normal')
    >>> f"{r.rel_error:.2e}"
    '2.44e-04'
    >>> represent(70000.0, "float16").status
    'overflow_inf'
    """
    f = float_format(fmt)
    x = float(x)
    stored = cast(x, f, saturate)
    value = float(stored)
    fields = tuple(int(a) for a in bit_fields(stored, f))
    widths = (f.sign_bits, f.exponent_bits, f.mantissa_bits)
    abs_error, rel_error = (float(e) for e in rounding_error(x, f, saturate))
    below, above = neighbours(value, f)
    return Representation(
        fmt=f.name,
        x=x,
        stored=value,
        text=shortest_text(stored, f),
        exact=str(Decimal(value)) if math.isfinite(value) else str(value),
        abs_error=abs_error,
        rel_error=rel_error,
        bits=tuple(format(v, f"0{w}b") for v, w in zip(fields, widths, strict=True)),
        fields=fields,
        formula=formula(stored, f),
        below=float(below),
        above=float(above),
        status=str(classify(x, f, saturate)),
    )


def represent_all(
    x: float, formats: tuple[str, ...] = FORMAT_NAMES, saturate: bool = False
) -> list[Representation]:
    """:func:`represent` for every format, widest first: the same ``x`` side by side.

    >>> [r.status for r in represent_all(1e-6)]
    ['normal', 'normal', 'normal', 'subnormal', 'underflow_to_zero', 'underflow_to_zero']
    """
    return [represent(x, fmt, saturate) for fmt in formats]


def square(x: float, fmt: str | FloatFormat = "float16") -> float:
    """``x * x`` computed in ``fmt`` (x is stored in ``fmt`` first), as the guide's example.

    >>> square(256.0), square(256.0, "float32"), square(256.0, "bfloat16")
    (inf, 65536.0, 65536.0)
    >>> square(1e-5), square(1e-5, "bfloat16") > 0
    (0.0, True)
    """
    stored = cast(x, fmt)
    with np.errstate(over="ignore", under="ignore"):
        return float(stored * stored)


@dataclass(frozen=True)
class WeightUpdate:
    """``weight + update`` computed in one format (see :func:`weight_update`)."""

    fmt: str
    weight: float  # the stored weight
    update: float  # the stored update
    result: float  # weight + update, rounded to the format

    @property
    def lost(self) -> bool:
        """True when a non-zero update left the weight unchanged."""
        return self.update != 0 and self.result == self.weight

    @property
    def ratio(self) -> float:
        """How many times larger the weight is than the update."""
        return abs(self.weight / self.update) if self.update else math.inf


def weight_update(weight: float, update: float, fmt: str | FloatFormat = "float16") -> WeightUpdate:
    """Add an update to a weight in ``fmt``: in float16 an update 2048x smaller is lost.

    float16 keeps 10 mantissa bits, so next to 1.0 the step is ``2**-10``; ``2**-11`` is
    exactly half a step and rounds back to 1.0 (ties go to the even neighbour).

    >>> weight_update(1.0, 2**-11).lost, weight_update(1.0, 2**-10).lost
    (True, False)
    >>> weight_update(1.0, 2**-11, "float32").result
    1.00048828125
    """
    f = float_format(fmt)
    w, u = cast(weight, f), cast(update, f)
    with np.errstate(over="ignore"):
        result = float(w + u)  # NumPy/ml_dtypes add, rounded once to the format
    return WeightUpdate(fmt=f.name, weight=float(w), update=float(u), result=result)


@dataclass(frozen=True)
class LongSum:
    """A long sum computed two ways (see :func:`long_sum`)."""

    fmt: str
    n: int
    in_format: float  # running total kept in ``fmt`` (rounded after every addition)
    in_float32: float  # the same values added in a float32 running total
    exact: float  # the exact sum of the stored values (math.fsum)


def long_sum(values: Any, fmt: str | FloatFormat = "float16") -> LongSum:
    """Add ``values`` (stored in ``fmt``) one by one, with a ``fmt`` and a float32 running total.

    Once the float16 total reaches 256 its step is 0.25, so adding 0.1 rounds back to 256:

    >>> s = long_sum([0.1] * 10_000)
    >>> s.in_format, round(s.in_float32, 2), round(s.exact, 2)
    (256.0, 999.76, 999.76)
    """
    f = float_format(fmt)
    stored = cast(values, f).ravel()
    with np.errstate(over="ignore", invalid="ignore"):
        in_format = np.add.accumulate(stored, dtype=f.dtype)  # sequential, like a running total
        in_float32 = np.add.accumulate(stored.astype(np.float32), dtype=np.float32)
    return LongSum(
        fmt=f.name,
        n=int(stored.size),
        in_format=float(in_format[-1]) if stored.size else 0.0,
        in_float32=float(in_float32[-1]) if stored.size else 0.0,
        exact=math.fsum(stored.astype(np.float64).tolist()),
    )


def facts_table(formats: tuple[str, ...] = FORMAT_NAMES, lang: str | None = None) -> str:
    """A plain-text table of every format's facts, with headers in ``lang``.

    >>> print(facts_table(("float16", "float8_e4m3fn")))  # doctest: +NORMALIZE_WHITESPACE
    format          bits (s/e/m)   bias   max     smallest normal   smallest subnormal   eps            significant digits   inf   NaN
    float16         1/5/10         15     65504   6.103516e-05      5.960464e-08         0.0009765625   3.3                  yes   yes
    float8_e4m3fn   1/4/3          7      448     0.015625          0.001953125          0.125          1.2                  no    yes
    """
    yes, no = i18n.t("formats.yes", lang), i18n.t("formats.no", lang)
    keys = ("format", "bits", "bias", "max", "smallest_normal", "smallest_subnormal", "eps")
    header = [
        i18n.t(f"formats.fact.{k}", lang) for k in keys + ("significant_digits", "inf", "nan")
    ]
    rows = [header]
    for name in formats:
        f = float_format(name)
        numbers = (f.max, f.smallest_normal, f.smallest_subnormal, f.eps)
        rows.append(
            [f.name, f"{f.sign_bits}/{f.exponent_bits}/{f.mantissa_bits}", str(f.bias)]
            + [f"{v:.7g}" for v in numbers]
            + [f"{f.significant_digits:.1f}", yes if f.has_inf else no, yes if f.has_nan else no]
        )
    return i18n.columns(rows, gap=3)


def describe(x: float, formats: tuple[str, ...] = FORMAT_NAMES, lang: str | None = None) -> str:
    """A plain-text report of ``x`` in every format: bits, stored value, error and status.

    >>> print(describe(1e-5, ("float32", "float16")))  # doctest: +NORMALIZE_WHITESPACE
    format    bits                                 stored value             relative error   status
    float32   0 01101110 01001111100010110101100   9.999999747378752e-06    2.5e-08          normal
    float16   0 00000 0010101000                   1.0013580322265625e-05   0.0014           subnormal
    """
    header = [
        i18n.t(f"formats.column.{k}", lang) for k in ("format", "bits", "stored", "rel_error")
    ]
    rows = [header + [i18n.t("formats.column.status", lang)]]
    for r in represent_all(x, formats):
        rel = f"{r.rel_error:.2g}"
        status = i18n.t(f"formats.status.{r.status}", lang)
        rows.append([r.fmt, " ".join(r.bits), repr(r.stored), rel, status])
    return i18n.columns(rows, gap=3)
