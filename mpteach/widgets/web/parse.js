// A typed number, read as mpteach.widgets._common.parse_number reads it (the Python reference;
// tests/test_widgets_js.py compares them on many entries).
//
// Exports:
//   fill(template, values)  a catalogue message, its placeholders filled
//   parseNumber(text, messages, low, high, finite)  {value} or {message}: the message is the
//       catalogue text (messages: {invalid, beyond, outOfRange}, in the page's language) with
//       its {placeholders} filled as Python fills them.

import { pyG } from "./pyformat.js";

const POWER_OF_TWO = /^([+-]?)2\s*(?:\^|\*\*)\s*\(?\s*([+-]?\d+)\s*\)?$/;
const DECIMAL = /^[+-]?(?:\d+(?:_\d+)*(?:\.(?:\d+(?:_\d+)*)?)?|\.\d+(?:_\d+)*)(?:[eE][+-]?\d+(?:_\d+)*)?$/;
const SPECIAL = /^[+-]?(?:inf|infinity|nan)$/i;
const HEX = /^([+-]?)0x([0-9a-f]*)(?:\.([0-9a-f]*))?(?:p([+-]?\d+))?$/i;

// Python's repr of a string, for the messages' {text!r}.
function pyRepr(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  const body = text.replaceAll("\\", "\\\\").replaceAll(quote, "\\" + quote);
  return quote + body + quote;
}

// Python's format(x, ".4g"), as the messages' numbers are written.
export function g4(x) {
  return pyG(x, 4);
}

// A catalogue message with its {placeholders} filled as str.format fills them ({name!r}: repr).
export function fill(template, values) {
  return template.replace(/\{(\w+)(![rs])?\}/g, (_, name, conversion) =>
    conversion === "!r" ? pyRepr(values[name]) : values[name],
  );
}

function hexValue(sign, whole, fraction, exponent) {
  let value = 0;
  for (const digit of whole + fraction) value = value * 16 + parseInt(digit, 16);
  value *= 2 ** (Number(exponent || 0) - 4 * fraction.length);
  return sign === "-" ? -value : value;
}

export function parseNumber(text, messages, low = -Infinity, high = Infinity, finite = false) {
  const cleaned = text.trim().replaceAll("\u2212", "-");
  let value;
  let exactZero = false; // the entry is exactly zero (not a tiny number read as 0)
  const power = POWER_OF_TWO.exec(cleaned);
  const hex = HEX.exec(cleaned);
  if (power) {
    value = (power[1] === "-" ? -1 : 1) * 2 ** Number(power[2]);
    exactZero = false;
    if (value === 0 || !Number.isFinite(value)) {
      const tiny = g4(5e-324), huge = g4(Number.MAX_VALUE);
      return { message: fill(messages.beyond, { text, tiny, huge }) };
    }
  } else if (hex && (hex[2] || hex[3])) {
    value = hexValue(hex[1], hex[2], hex[3] || "", hex[4]);
    exactZero = !/[1-9a-f]/i.test(hex[2] + (hex[3] || ""));
  } else if (DECIMAL.test(cleaned)) {
    value = Number(cleaned.replaceAll("_", ""));
    exactZero = !/[1-9]/.test(cleaned.split(/[eE]/)[0]);
    if (!Number.isFinite(value) || (value === 0 && !exactZero)) {
      const tiny = g4(5e-324), huge = g4(Number.MAX_VALUE);
      return { message: fill(messages.beyond, { text, tiny, huge }) };
    }
  } else if (SPECIAL.test(cleaned)) {
    value = /nan/i.test(cleaned) ? NaN : cleaned.startsWith("-") ? -Infinity : Infinity;
  } else {
    return { message: fill(messages.invalid, { text }) };
  }
  if ((finite && !Number.isFinite(value)) || !(Number.isNaN(value) || (low <= value && value <= high))) {
    return { message: fill(messages.outOfRange, { text, low: g4(low), high: g4(high) }) };
  }
  return { value };
}
