// The controls the browser-drawn widgets share: a typed number and a log slider for |x|, kept in
// step as mpteach.widgets._common.NumberInput keeps them (same slider range, same messages).
//
// Exports:
//   numberControls(labels, onNumber)  {element, show(x), set(text)}: the box, the slider and a
//       message line; onNumber(x) runs for each accepted number. labels: number, magnitude,
//       messages {invalid, beyond, outOfRange}.
import { parseNumber, g4 } from "./parse.js";
import { pyRepr } from "./pyformat.js";

const SLIDER = { min: -46, max: 39, step: 0.01 }; // log10 |x|

export function numberControls(labels, onNumber) {
  const element = document.createElement("div");
  const row = document.createElement("div");
  row.className = "mpteach-controls";
  const box = Object.assign(document.createElement("input"), { type: "text", className: "mpteach-number" });
  box.setAttribute("aria-label", labels.number);
  const slider = Object.assign(document.createElement("input"), { type: "range", className: "mpteach-magnitude", ...SLIDER });
  slider.setAttribute("aria-label", labels.magnitude);
  const readout = Object.assign(document.createElement("output"), { className: "mpteach-readout" });
  const numberLabel = document.createElement("label");
  numberLabel.append(labels.number, box);
  const sliderLabel = document.createElement("label");
  sliderLabel.append(labels.magnitude, slider, readout);
  row.append(numberLabel, sliderLabel);
  const message = Object.assign(document.createElement("div"), { className: "mpteach-message" });
  message.setAttribute("role", "status");
  element.append(row, message);
  let current = 0;

  function show(x, typed = false) {
    current = x;
    message.textContent = "";
    if (!typed) box.value = pyRepr(x);
    const magnitude = Math.abs(x);
    if (magnitude >= 10 ** SLIDER.min && magnitude <= 10 ** SLIDER.max) {
      slider.value = Math.log10(magnitude);
      readout.textContent = g4(magnitude);
    }
  }
  function note(text, kind) {
    message.textContent = text;
    message.dataset.kind = kind;
  }
  function typed() {
    const answer = parseNumber(box.value, labels.messages);
    if ("message" in answer) return note(answer.message, "error");
    show(answer.value, true);
    onNumber(answer.value);
  }
  box.addEventListener("change", typed);
  slider.addEventListener("input", () => {
    // |x| as the readout shows it (4 digits), with the sign kept, as in the notebook
    const magnitude = Number(g4(10 ** Number(slider.value)));
    const x = current < 0 || Object.is(current, -0) ? -magnitude : magnitude;
    show(x);
    onNumber(x);
  });
  return { element, show, note, set: (text) => { box.value = text; typed(); } };
}
