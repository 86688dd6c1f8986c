// GradientUnderflow drawn by the reader's browser: the website's version of
// mpteach.widgets.GradientUnderflow, with no kernel.
//
// The reference is Python: mpteach/widgets/gradient_underflow.py (underflow_report, summary,
// UnderflowPlot). The values are the notebook's own: its output carries them
// (GradientUnderflow.browser_data), and tools/build_site.py puts them in the page. Casting and
// classifying are floatmath.js's; tests/test_widgets_js.py requires underflowReport and
// summary to give Python's counts and text on every format and scale.
//
// Exports:
//   BANDS                                       where a scaled value lands, as Python's BANDS
//   underflowReport(values, scale, fmt, bins)   {fmt, scale, low, high, counts {band: [...]},
//                                               totals {band: n}, size}
//   summary(report, labels)                     gradient_underflow.summary, in the page's language
//   mount(element, config)                      config: {data (browser_data()), labels}
import { fromBase64 } from "./binary.js";
import { FORMATS, classify, exponentOf } from "./floatmath.js";
import { STATUS_COLOURS } from "./floatexplorer.js";
import { htmlNode, svgNode } from "./dom.js";
import { fill } from "./parse.js";
import { pyFixed, scaleText } from "./pyformat.js";

export const BANDS = ["zero", "underflow_to_zero", "subnormal", "normal", "overflow"];
const BAND_OF_STATUS = {
  zero: "zero", underflow_to_zero: "underflow_to_zero", subnormal: "subnormal", normal: "normal",
  overflow_inf: "overflow", overflow_nan: "overflow", saturated: "overflow", inf: "overflow", nan: "overflow",
};
// each band in its status's colour, as BAND_COLOURS in gradient_underflow.py
const COLOURS = { ...STATUS_COLOURS, overflow: STATUS_COLOURS.overflow_inf };

export function underflowReport(values, scale, fmt, [low, high]) {
  const width = high - low + 1;
  const counts = Object.fromEntries(BANDS.slice(1).map((b) => [b, new Array(width).fill(0)]));
  const totals = Object.fromEntries(BANDS.map((b) => [b, 0]));
  for (const value of values) {
    const scaled = value * scale;
    const band = BAND_OF_STATUS[classify(scaled, fmt)];
    totals[band]++;
    if (band === "zero") continue;
    const magnitude = Math.abs(scaled);
    const usable = Number.isFinite(magnitude) && magnitude > 0;
    const bin = usable ? Math.min(Math.max(exponentOf(magnitude) - low, 0), width - 1) : width - 1;
    counts[band][bin]++;
  }
  const size = Object.values(totals).reduce((a, b) => a + b, 0);
  return { fmt, scale, low, high, counts, totals, size };
}

function fraction(report, band) {
  return report.size ? report.totals[band] / report.size : 0;
}

function percent(report, band, labels) {
  return fill(labels.percent, { value: pyFixed(fraction(report, band) * 100, 1) });
}

export function summary(report, labels) {
  return fill(labels.summary, {
    scale: scaleText(report.scale), zero: percent(report, "zero", labels),
    flushed: percent(report, "underflow_to_zero", labels),
    subnormal: percent(report, "subnormal", labels),
    normal: percent(report, "normal", labels), overflow: percent(report, "overflow", labels),
  });
}

export function mount(element, config) {
  const { data, labels } = config;
  element.classList.add("mpteach-underflow");
  const values = Object.fromEntries(data.kinds.map((k) => [k, fromBase64(data.values[k], Float64Array)]));
  const slider = htmlNode("input", { type: "range", min: 0, max: data.maxScaleExponent, step: 1, value: data.scaleExponent, className: "mpteach-scale" });
  const readout = htmlNode("output", { className: "mpteach-readout", textContent: String(data.scaleExponent) });
  const kind = htmlNode("select", { className: "mpteach-kind" });
  for (const k of data.kinds) kind.append(htmlNode("option", { value: k, textContent: labels.kinds[k] ?? k }));
  const format = htmlNode("select", { className: "mpteach-format" });
  for (const f of data.formats) format.append(htmlNode("option", { value: f, textContent: f }));
  format.value = data.format;
  const text = htmlNode("div", { className: "mpteach-summary" });
  const chart = htmlNode("div", { className: "mpteach-chart" });
  const caption = htmlNode("div", {}, [htmlNode("small", { textContent: data.source })]);
  element.append(
    htmlNode("div", { className: "mpteach-controls" }, [
      htmlNode("label", {}, [labels.scale, slider, readout]),
      htmlNode("label", {}, [labels.kind, kind]),
      htmlNode("label", {}, [labels.format, format]),
    ]),
    text, chart, caption,
  );
  let plot = null;
  function update(rebuild) {
    readout.textContent = slider.value;
    const report = underflowReport(values[kind.value], 2 ** Number(slider.value), format.value, data.bins[kind.value]);
    text.textContent = report.size ? summary(report, labels) : labels.noValues;
    if (rebuild || !plot) {
      plot = underflowPlot(report, labels, labels.kinds[kind.value] ?? kind.value);
      chart.replaceChildren(plot.svg);
    }
    plot.show(report);
    element.dataset.state = JSON.stringify({ scaleExponent: Number(slider.value), kind: kind.value, format: format.value });
  }
  slider.addEventListener("input", () => update(false));
  kind.addEventListener("change", () => update(true));
  format.addEventListener("change", () => update(true));
  update(true);
}

// UnderflowPlot: stacked shares per log2 bin and band, the exact zeros apart on the left, the
// format's bands behind, a legend with each band's share below.
function underflowPlot(first, labels, kindLabel) {
  const width = 760, height = 390;
  const box = { left: 58, right: 746, top: 30, bottom: 280 };
  const { low, high } = first;
  const zeroX = low - 6;
  const xMin = zeroX - 1, xMax = high + 2;
  const x = (v) => box.left + ((v - xMin) / (xMax - xMin)) * (box.right - box.left);
  const shares = new Array(high - low + 1).fill(0);
  for (const band of BANDS.slice(1)) first.counts[band].forEach((c, i) => { shares[i] += c; });
  const top = Math.max(first.size ? (Math.max(...shares) * 100 / first.size) * 1.3 : 1, 1);
  const y = (v) => box.bottom - (Math.min(v, top) / top) * (box.bottom - box.top);
  const svg = svgNode("svg", { viewBox: `0 0 ${width} ${height}`, width: "100%", role: "img" });
  // the format's bands, as band_limits draws them
  const f = FORMATS[first.fmt];
  const limits = {
    underflow_to_zero: [-Infinity, Math.log2(f.underflowThreshold)],
    subnormal: [Math.log2(f.underflowThreshold), Math.log2(f.smallestNormal)],
    normal: [Math.log2(f.smallestNormal), Math.log2(f.overflowThreshold)],
    overflow: [Math.log2(f.overflowThreshold), Infinity],
  };
  for (const [band, [start, end]] of Object.entries(limits)) {
    const a = Math.max(start, low), b = Math.min(end, high + 1);
    if (b > a) svg.append(svgNode("rect", { x: x(a), y: box.top, width: x(b) - x(a), height: box.bottom - box.top, fill: COLOURS[band], "fill-opacity": 0.12 }));
  }
  const bars = Object.fromEntries(BANDS.slice(1).map((band) => [band, svgNode("path", { fill: COLOURS[band], class: "mpteach-band", "data-band": band })]));
  const zeroBar = svgNode("rect", { x: x(zeroX - 1), width: x(zeroX + 1) - x(zeroX - 1), fill: COLOURS.zero, class: "mpteach-zero" });
  const zeroText = svgNode("text", { x: x(zeroX), y: y(top * 0.87), "font-size": 11 });
  svg.append(...Object.values(bars), zeroBar, zeroText);
  svg.append(svgNode("rect", { x: box.left, y: box.top, width: box.right - box.left, height: box.bottom - box.top, fill: "none", stroke: "#444" }));
  const ticks = [[zeroX, labels.zero]];
  for (let k = low; k <= high + 1; k++) if (k % 8 === 0) ticks.push([k, String(k)]);
  for (const [v, label] of ticks) {
    svg.append(svgNode("line", { x1: x(v), x2: x(v), y1: box.bottom, y2: box.bottom + 4, stroke: "#444" }));
    svg.append(svgNode("text", { x: x(v), y: box.bottom + 17, "text-anchor": "middle", "font-size": 11 }, label));
  }
  const step = [1, 2, 5, 10, 20, 25, 50].find((s) => top / s <= 8) ?? 100;
  for (let v = 0; v <= top; v += step) {
    svg.append(svgNode("line", { x1: box.left - 4, x2: box.left, y1: y(v), y2: y(v), stroke: "#444" }));
    svg.append(svgNode("text", { x: box.left - 6, y: y(v) + 4, "text-anchor": "end", "font-size": 11 }, String(v)));
  }
  svg.append(svgNode("text", { x: (box.left + box.right) / 2, y: box.bottom + 34, "text-anchor": "middle", "font-size": 12 }, labels.xlabel));
  svg.append(svgNode("text", { x: 14, y: (box.top + box.bottom) / 2, "text-anchor": "middle", "font-size": 12, transform: `rotate(-90 14 ${(box.top + box.bottom) / 2})` }, labels.ylabel));
  const title = svgNode("text", { x: (box.left + box.right) / 2, y: box.top - 10, "text-anchor": "middle", "font-size": 13, class: "mpteach-title" });
  svg.append(title);
  const legend = BANDS.map((band, i) => {
    const g = svgNode("g", { transform: `translate(${box.left + (i % 3) * 230} ${box.bottom + 56 + Math.floor(i / 3) * 18})` });
    const entry = svgNode("text", { x: 22, y: 4, "font-size": 11, class: "mpteach-legend-entry", "data-band": band });
    g.append(svgNode("rect", { x: 0, y: -5, width: 16, height: 10, fill: COLOURS[band] }), entry);
    svg.append(g);
    return entry;
  });

  function show(report) {
    const share = 100 / Math.max(report.size, 1);
    const bottom = new Array(report.high - report.low + 1).fill(0);
    for (const band of BANDS.slice(1)) {
      // one stacked step outline per band, as matplotlib's stairs: up the top, back along the bottom
      const upper = bottom.map((b, i) => b + report.counts[band][i] * share);
      let d = `M${x(report.low)},${y(bottom[0])}`;
      upper.forEach((v, i) => { d += `L${x(report.low + i)},${y(v)}L${x(report.low + i + 1)},${y(v)}`; });
      for (let i = bottom.length - 1; i >= 0; i--) d += `L${x(report.low + i + 1)},${y(bottom[i])}L${x(report.low + i)},${y(bottom[i])}`;
      bars[band].setAttribute("d", d + "Z");
      bars[band].dataset.total = report.totals[band];
      upper.forEach((v, i) => { bottom[i] = v; });
    }
    const zeroShare = fraction(report, "zero") * 100;
    const shown = Math.min(zeroShare, top * 0.85); // a tall zero bin is cut
    zeroBar.setAttribute("y", y(shown));
    zeroBar.setAttribute("height", y(0) - y(shown));
    zeroText.textContent = fill(labels.percent, { value: pyFixed(zeroShare, 1) });
    title.textContent = fill(labels.title, { kind: kindLabel, scale: scaleText(report.scale), fmt: report.fmt });
    legend.forEach((entry) => {
      entry.textContent = `${labels.bands[entry.dataset.band]}: ${percent(report, entry.dataset.band, labels)}`;
    });
  }
  return { svg, show };
}
