// The float formats of the course, computed in the reader's browser (no kernel on the website).
//
// The reference is Python: mpteach/formats.py (ml_dtypes). tests/test_widgets_js.py runs these
// functions in node on many inputs (ties, subnormals, overflow, NaN, every format) and requires
// the same bits as the reference.
//
// Exports:
//   FORMATS                      facts per format name (bits, exponentBits, mantissaBits, bias,
//                                max, smallestNormal, smallestSubnormal, hasInf,
//                                underflowThreshold, overflowThreshold)
//   exponentOf(a)                floor(log2 a) of a positive finite double, exactly
//   roundTo(x, fmt, saturate)    the value stored when the double x is cast to fmt
//   classify(x, fmt, saturate)   one of mpteach.formats.STATUSES
//   nextUp(x, fmt), nextDown(x, fmt)   one ULP step from x, as mpteach.formats.next_up/next_down
//   bitFields(x, fmt)            [sign, exponent, mantissa] of x stored in fmt
//   decode(sign, exponent, mantissa, fmt)   the value those bit fields encode
//   represent(x, fmt, saturate)  what mpteach.formats.represent describes (stored value, bits,
//                                errors, formula, neighbours, status)

import { pyRepr } from "./pyformat.js";

function facts(exponentBits, mantissaBits, hasInf) {
  const bias = 2 ** (exponentBits - 1) - 1;
  const topExponent = 2 ** exponentBits - 1; // all ones
  // IEEE formats keep the all-ones exponent for inf/NaN; float8_e4m3fn uses it for numbers,
  // except the all-ones mantissa (NaN).
  const maxExponent = hasInf ? topExponent - 1 - bias : topExponent - bias;
  const maxMantissa = hasInf ? 2 ** mantissaBits - 1 : 2 ** mantissaBits - 2;
  return {
    bits: 1 + exponentBits + mantissaBits,
    exponentBits,
    mantissaBits,
    bias,
    hasInf,
    max: 2 ** maxExponent * (1 + maxMantissa / 2 ** mantissaBits),
    smallestNormal: 2 ** (1 - bias),
    smallestSubnormal: 2 ** (1 - bias - mantissaBits),
    underflowThreshold: 2 ** (-bias - mantissaBits), // half the smallest subnormal
    overflowThreshold: 2 ** maxExponent * (1 + (maxMantissa + 0.5) / 2 ** mantissaBits),
  };
}

export const FORMATS = {
  float64: facts(11, 52, true),
  float32: facts(8, 23, true),
  bfloat16: facts(8, 7, true),
  float16: facts(5, 10, true),
  float8_e5m2: facts(5, 2, true),
  float8_e4m3fn: facts(4, 3, false),
};

function format(fmt) {
  const f = FORMATS[fmt];
  if (!f) {
    throw new Error(`fmt='${fmt}' is not a known format; choose one of ${Object.keys(FORMATS).join(", ")}.`);
  }
  return f;
}

// The exponent of a positive finite double: floor(log2(a)), exactly (read from its bits).
export function exponentOf(a) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, a);
  const biased = (view.getUint16(0) >> 4) & 0x7ff;
  if (biased > 0) return biased - 1023;
  return exponentOf(a * 2 ** 64) - 64; // a double subnormal
}

function roundHalfEven(y) {
  const low = Math.floor(y);
  const rest = y - low; // exact: y has at most 53 significant bits
  if (rest > 0.5) return low + 1;
  if (rest < 0.5) return low;
  return low % 2 === 0 ? low : low + 1;
}

export function roundTo(x, fmt, saturate = false) {
  const f = format(fmt);
  if (Number.isNaN(x)) return NaN;
  if (saturate) x = Math.min(Math.max(x, -f.max), f.max);
  if (fmt === "float64") return x;
  if (fmt === "float32") return Math.fround(x);
  if (!Number.isFinite(x)) return f.hasInf ? x : NaN;
  // Rounded once from the double, as mpteach.formats.cast does (not through float32 first).
  const a = Math.abs(x);
  if (a === 0) return x; // keeps the sign of zero
  const emin = 1 - f.bias;
  // The spacing of the format's numbers around a (subnormals share the smallest normal's).
  const quantum = 2 ** (Math.max(exponentOf(a), emin) - f.mantissaBits);
  let r = roundHalfEven(a / quantum) * quantum;
  if (r > f.max) r = f.hasInf ? Infinity : NaN;
  return x < 0 || Object.is(x, -0) ? -r : r;
}

export function classify(x, fmt, saturate = false) {
  const f = format(fmt);
  const stored = roundTo(x, fmt, saturate);
  if (Number.isNaN(x)) return "nan";
  if (saturate && Math.abs(x) > f.max) return "saturated";
  if (Number.isNaN(stored)) return "overflow_nan";
  if (!Number.isFinite(stored)) return Number.isFinite(x) ? "overflow_inf" : "inf";
  if (x === 0) return "zero";
  if (stored === 0) return "underflow_to_zero";
  if (Math.abs(stored) < f.smallestNormal) return "subnormal";
  return "normal";
}

export function bitFields(x, fmt) {
  const f = format(fmt);
  const stored = roundTo(x, fmt);
  const mantissaOnes = 2 ** f.mantissaBits - 1;
  const exponentOnes = 2 ** f.exponentBits - 1;
  // NaN as ml_dtypes stores it: the quiet NaN (float8_e4m3fn: all ones), positive for a NaN
  // typed in, with the sign of x for an overflow (-500 in float8_e4m3fn is a negative NaN). The
  // sign bit of a NaN itself is not used: JavaScript engines do not keep it.
  if (Number.isNaN(stored)) {
    const sign = !Number.isNaN(x) && x < 0 ? 1 : 0;
    return [sign, exponentOnes, f.hasInf ? 2 ** (f.mantissaBits - 1) : mantissaOnes];
  }
  const sign = stored < 0 || Object.is(stored, -0) ? 1 : 0;
  const a = Math.abs(stored);
  if (a === Infinity) return [sign, exponentOnes, 0];
  if (a < f.smallestNormal) return [sign, 0, a / f.smallestSubnormal];
  const e = exponentOf(a);
  return [sign, e + f.bias, (a / 2 ** e - 1) * 2 ** f.mantissaBits];
}

export function decode(sign, exponent, mantissa, fmt) {
  const f = format(fmt);
  const allOnes = exponent === 2 ** f.exponentBits - 1;
  let magnitude;
  if (allOnes && f.hasInf) magnitude = mantissa === 0 ? Infinity : NaN;
  else if (allOnes && mantissa === 2 ** f.mantissaBits - 1) magnitude = NaN;
  else if (exponent === 0) magnitude = (mantissa / 2 ** f.mantissaBits) * 2 ** (1 - f.bias);
  else magnitude = (1 + mantissa / 2 ** f.mantissaBits) * 2 ** (exponent - f.bias);
  return sign === 1 ? -magnitude : magnitude;
}

// The smallest value of fmt strictly above x; above max comes inf (NaN without inf).
export function nextUp(x, fmt) {
  const f = format(fmt);
  if (Number.isNaN(x)) return NaN;
  const inside = roundTo(Math.min(Math.max(x, -f.max), f.max), fmt);
  if (inside > x) return inside; // rounding already went up
  if (inside >= f.max) return f.hasInf ? Infinity : NaN;
  if (inside === 0) return f.smallestSubnormal;
  const a = Math.abs(inside);
  const e = Math.max(exponentOf(a), 1 - f.bias);
  const step = 2 ** (e - f.mantissaBits);
  // Going down in magnitude from a power of two, the spacing halves (unless subnormal).
  const downStep = a === 2 ** e && e > 1 - f.bias ? step / 2 : step;
  return inside > 0 ? inside + step : -(a - downStep);
}

export function nextDown(x, fmt) {
  return -nextUp(-x, fmt);
}

// Everything about x stored in fmt, as mpteach.formats.represent describes it.
export function represent(x, fmt, saturate = false) {
  const f = format(fmt);
  const stored = roundTo(x, fmt, saturate);
  // The bits of x itself (clipped when saturating): a NaN keeps the sign of x only there.
  const fields = bitFields(saturate ? Math.min(Math.max(x, -f.max), f.max) : x, fmt);
  const widths = [1, f.exponentBits, f.mantissaBits];
  const bits = fields.map((v, i) => v.toString(2).padStart(widths[i], "0"));
  const absError = stored === x ? 0 : Math.abs(stored - x);
  const relError = x === 0 ? 0 : absError / Math.abs(x);
  let formula;
  if (Number.isNaN(stored)) formula = "NaN";
  else if (!Number.isFinite(stored)) formula = stored > 0 ? "+inf" : "-inf";
  else {
    const [sign, exponent, mantissa] = fields;
    const scale = 2 ** f.mantissaBits;
    const parts = exponent === 0
      ? `2^(1-${f.bias}) × (0 + ${mantissa}/${scale})`
      : `2^(${exponent}-${f.bias}) × (1 + ${mantissa}/${scale})`;
    formula = `(-1)^${sign} × ${parts} = ${pyRepr(stored)}`;
  }
  return {
    fmt, x, stored, absError, relError, bits, fields, formula,
    below: nextDown(stored, fmt), above: nextUp(stored, fmt), status: classify(x, fmt, saturate),
  };
}
