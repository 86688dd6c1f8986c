// FloatExplorer drawn by the reader's browser: the website's version of
// mpteach.widgets.FloatExplorer. One number in every format, live: type it, slide its magnitude,
// step by one ULP of a chosen format, flip one of its bits, saturate. The numbers come from
// floatmath.js (checked against mpteach.formats.represent), the words from the catalogue.
//
// Exports:
//   mount(element, config)  config: {x, formats, stepFormat, labels}; labels: number, magnitude,
//       stepFormat, stepDown, stepUp, stepDownTooltip, stepUpTooltip, saturate, flipTooltip,
//       caption, columns {format, bits, stored, abs_error, rel_error, neighbours, status},
//       fields {sign, exponent, mantissa}, statuses {code: text}, messages. Returns {set(text)}.
import { numberControls } from "./controls.js";
import { FORMATS, bitFields, decode, nextDown, nextUp, represent } from "./floatmath.js";
import { exactDecimal, pyG, pyRepr } from "./pyformat.js";
import { htmlNode } from "./dom.js";

const FIELD_COLOURS = { sign: "#9ecae1", exponent: "#a1d99b", mantissa: "#fdd0a2" };
export const STATUS_COLOURS = {
  zero: "#969696", normal: "#31a354", subnormal: "#e6a100", underflow_to_zero: "#de2d26",
  overflow_inf: "#756bb1", overflow_nan: "#756bb1", saturated: "#d95f0e", inf: "#636363", nan: "#636363",
};

const el = (tag, properties = {}, ...children) => htmlNode(tag, properties, children);

const number3 = (v) => (Number.isNaN(v) ? "—" : pyG(v, 3));

export function mount(element, config) {
  const { labels } = config;
  let x = config.x;
  element.classList.add("mpteach-floatexplorer");
  const controls = numberControls(labels, (value) => update(value));
  const stepFormat = el("select", { className: "mpteach-step-format" });
  for (const name of Object.keys(FORMATS)) stepFormat.append(el("option", { value: name, textContent: name }));
  stepFormat.value = config.stepFormat;
  const down = el("button", { type: "button", className: "mpteach-step-down", textContent: labels.stepDown, title: labels.stepDownTooltip });
  const up = el("button", { type: "button", className: "mpteach-step-up", textContent: labels.stepUp, title: labels.stepUpTooltip });
  const saturate = el("input", { type: "checkbox", className: "mpteach-saturate" });
  const steps = el("div", { className: "mpteach-controls" },
    el("label", {}, labels.stepFormat, stepFormat), down, up, el("label", {}, saturate, labels.saturate));
  const bitsRow = el("div", { className: "mpteach-bits" });
  const table = el("table", { className: "mpteach-table" });
  element.append(controls.element, steps, bitsRow, table, el("small", { textContent: labels.caption }));

  function update(value) {
    x = value;
    element.dataset.x = pyRepr(x);
    const rows = config.formats.map((fmt) => represent(x, fmt, saturate.checked));
    const head = el("tr", {}, ...["format", "bits", "stored", "abs_error", "rel_error", "neighbours", "status"]
      .map((c) => el("th", { textContent: labels.columns[c] })));
    table.replaceChildren(head, ...rows.map((r) => {
      const fields = ["sign", "exponent", "mantissa"].map((name, i) =>
        el("span", { textContent: r.bits[i], title: labels.fields[name], style: `background:${FIELD_COLOURS[name]}` }));
      const stored = el("span", { textContent: pyRepr(r.stored), title: exactDecimal(r.stored) });
      const badge = el("span", { className: "mpteach-badge", textContent: labels.statuses[r.status], style: `background:${STATUS_COLOURS[r.status]}` });
      badge.dataset.status = r.status;
      const row = el("tr", {},
        el("td", {}, el("b", { textContent: r.fmt })),
        el("td", {}, el("span", { className: "mpteach-bitfields" }, ...fields), el("br"), el("small", { textContent: r.formula })),
        el("td", {}, stored), el("td", { textContent: number3(r.absError) }), el("td", { textContent: number3(r.relError) }),
        el("td", { textContent: `${pyRepr(r.below)} / ${pyRepr(r.above)}` }), el("td", {}, badge));
      row.dataset.format = r.fmt;
      return row;
    }));
    const chosen = represent(x, stepFormat.value, saturate.checked);
    const kinds = [["sign", chosen.bits[0]], ["exponent", chosen.bits[1]], ["mantissa", chosen.bits[2]]];
    let position = 0;
    bitsRow.replaceChildren(...kinds.flatMap(([kind, bits]) => [...bits].map((bit) => {
      const at = position++;
      const button = el("button", { type: "button", className: "mpteach-bit", textContent: bit, title: labels.flipTooltip, style: `background:${FIELD_COLOURS[kind]}` });
      button.addEventListener("click", () => flip(at));
      return button;
    })));
  }

  function set(value) {
    controls.show(value);
    update(value);
  }

  function flip(position) {
    const fmt = stepFormat.value;
    const f = FORMATS[fmt];
    const widths = [1, f.exponentBits, f.mantissaBits];
    const fields = bitFields(x, fmt);
    let field = 0, offset = position;
    while (offset >= widths[field]) offset -= widths[field++];
    const bit = 2 ** (widths[field] - 1 - offset); // arithmetic: JS's ^ is 32-bit only
    fields[field] += Math.floor(fields[field] / bit) % 2 ? -bit : bit;
    set(decode(fields[0], fields[1], fields[2], fmt));
  }

  down.addEventListener("click", () => set(nextDown(x, stepFormat.value)));
  up.addEventListener("click", () => set(nextUp(x, stepFormat.value)));
  stepFormat.addEventListener("change", () => update(x));
  saturate.addEventListener("change", () => update(x));
  set(x);
  return { set: controls.set };
}
