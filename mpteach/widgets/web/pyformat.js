// Python's text for a float, so that the browser shows numbers as the notebook does.
//
// Exports:
//   pyRepr(x)      repr(x) of a Python float: '0.1', '1e-05', '100000.0', '1e+16', 'inf', 'nan'
//   pyG(x, digits) format(x, f".{digits}g")
//   exactDecimal(x)  str(decimal.Decimal(x)): the exact decimal expansion of a double
//   scaleText(scale)  scale_text of mpteach.widgets.gradient_underflow: '2¹⁵ = 32768' for a power
//                  of two, else format(scale, "g")
//   pyFixed(x, digits)  format(x, f".{digits}f"): half to even on the exact value (JS's toFixed
//                  rounds ties up)
// tests/test_widgets_js.py compares them with Python on many values.

export function pyRepr(x) {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const [digits, e] = x.toExponential().split("e"); // shortest round-trip digits, as Python's
  const exponent = Number(e);
  const sign = digits.startsWith("-") ? "-" : "";
  const mantissa = digits.replace("-", "").replace(".", "");
  if (exponent < -4 || exponent >= 16) {
    const head = mantissa.length > 1 ? `${mantissa[0]}.${mantissa.slice(1)}` : mantissa;
    return `${sign}${head}e${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
  }
  if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${mantissa}`;
  const whole = mantissa.slice(0, exponent + 1).padEnd(exponent + 1, "0");
  const fraction = mantissa.slice(exponent + 1);
  return `${sign}${whole}.${fraction || "0"}`;
}

// The significant digits of |x| rounded to n of them, half to even on the exact value (as
// Python does; JS's toExponential rounds ties up): [digit string, decimal exponent].
function roundedDigits(x, n) {
  const text = exactDecimal(Math.abs(x));
  if (text.includes("E")) {
    const [m, e] = text.split("E");
    return roundDigitString(m.replace(".", ""), Number(e), n);
  }
  const [whole, fraction = ""] = text.split(".");
  const digits = (whole + fraction).replace(/^0+/, "");
  const leadingZeros = fraction.length - fraction.replace(/^0+/, "").length;
  return roundDigitString(digits, whole === "0" ? -leadingZeros - 1 : whole.length - 1, n);
}

function roundDigitString(all, exponent, n) {
  let head = BigInt(all.slice(0, n).padEnd(n, "0"));
  const rest = all.slice(n);
  const half = rest.length > 0 && (rest[0] > "5" || (rest[0] === "5" && (/[1-9]/.test(rest.slice(1)) || head % 2n === 1n)));
  if (half) head += 1n;
  let digits = head.toString();
  if (digits.length > n) {
    digits = digits.slice(0, n);
    exponent += 1;
  }
  return [digits, exponent];
}

export function pyG(x, digits) {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0" : "0";
  const sign = x < 0 ? "-" : "";
  const [d, exponent] = roundedDigits(x, digits);
  const trimmed = d.replace(/0+$/, "") || "0";
  if (exponent < -4 || exponent >= digits) {
    const head = trimmed.length > 1 ? `${trimmed[0]}.${trimmed.slice(1)}` : trimmed;
    return `${sign}${head}e${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
  }
  if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${trimmed}`;
  const whole = trimmed.slice(0, exponent + 1).padEnd(exponent + 1, "0");
  const fraction = trimmed.slice(exponent + 1);
  return `${sign}${whole}${fraction ? "." + fraction : ""}`;
}

// The IEEE bits of a finite double |x| as [integer mantissa, power of two]: |x| = m * 2**e.
function mantissaExponent(x) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const raw = view.getBigUint64(0);
  const biased = Number((raw >> 52n) & 0x7ffn);
  let mantissa = raw & ((1n << 52n) - 1n);
  if (biased !== 0) mantissa |= 1n << 52n;
  return [mantissa, biased === 0 ? -1074 : biased - 1075];
}

export function pyFixed(x, digits) {
  if (!Number.isFinite(x)) return pyRepr(x);
  const [mantissa, exponent] = mantissaExponent(x);
  const scaled = mantissa * 10n ** BigInt(digits);
  let units;
  if (exponent >= 0) units = scaled << BigInt(exponent);
  else {
    const denominator = 1n << BigInt(-exponent);
    units = scaled / denominator;
    const twice = 2n * (scaled % denominator);
    if (twice > denominator || (twice === denominator && units % 2n === 1n)) units += 1n;
  }
  const text = units.toString().padStart(digits + 1, "0");
  const sign = x < 0 || Object.is(x, -0) ? "-" : "";
  return sign + (digits ? `${text.slice(0, -digits)}.${text.slice(-digits)}` : text);
}

export function exactDecimal(x) {
  if (!Number.isFinite(x)) return pyRepr(x).replace("inf", "Infinity").replace("nan", "NaN");
  if (x === 0) return Object.is(x, -0) ? "-0" : "0";
  let [mantissa, exponent] = mantissaExponent(x);
  while (mantissa % 2n === 0n && exponent < 0) {
    mantissa /= 2n;
    exponent += 1;
  }
  const sign = x < 0 ? "-" : "";
  if (exponent >= 0) return sign + (mantissa << BigInt(exponent)).toString();
  // mantissa / 2^k = mantissa * 5^k / 10^k: exact, with k decimal places
  const k = -exponent;
  const digits = (mantissa * 5n ** BigInt(k)).toString().padStart(k + 1, "0");
  const text = `${digits.slice(0, -k)}.${digits.slice(-k)}`;
  // Decimal's str switches to exponent form when the adjusted exponent is below -6
  const adjusted = digits.replace(/^0+/, "").length - k - 1;
  if (adjusted < -6) {
    const significant = digits.replace(/^0+/, "");
    const head = significant.length > 1 ? `${significant[0]}.${significant.slice(1)}` : significant;
    return `${sign}${head}E${adjusted}`;
  }
  return sign + text;
}

const SUPERSCRIPT = { "-": "⁻", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };

export function scaleText(scale) {
  const exponent = Math.log2(scale);
  if (!Number.isInteger(exponent) || 2 ** exponent !== scale) return pyG(scale, 6);
  const power = [...String(exponent)].map((c) => SUPERSCRIPT[c]).join("");
  return `2${power} = ${pyG(scale, 17)}`;
}
