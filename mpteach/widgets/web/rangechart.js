// RangeChart drawn by the reader's browser: the website's version of mpteach.widgets.RangeChart,
// with no kernel. What it computes comes from floatmath.js and parse.js, which the tests check
// against the Python reference; what it says comes from the catalogue, in ``config.labels``.
//
// Exports:
//   mount(element, config)  config: {x, formats, labels}; labels: number, magnitude, title, axis,
//       marker, normal, subnormal, offAxis, statuses {code: text}, messages {invalid, beyond,
//       outOfRange}. Returns {set(text)}, which types text into the box.
import { FORMATS, classify } from "./floatmath.js";
import { numberControls } from "./controls.js";
import { svgNode as node } from "./dom.js";
import { fill, g4 } from "./parse.js";
import { pyRepr } from "./pyformat.js";

const COLOURS = {
  normal: "#3182bd", subnormal: "#fd8d3c", zero: "#636363", underflow_to_zero: "#de2d26",
  overflow_inf: "#de2d26", overflow_nan: "#de2d26", saturated: "#756bb1", inf: "#636363", nan: "#636363",
};

export function mount(element, config) {
  const { labels } = config;
  const rows = config.formats.map((name) => ({ name, ...FORMATS[name] }));
  const low = Math.min(...rows.map((r) => r.smallestSubnormal)) / 1e3;
  const high = Math.max(...rows.map((r) => r.max)) * 1e3;
  const width = 720, left = 110, right = 190, top = 34, rowHeight = 30;
  const height = top + rows.length * rowHeight + 58;
  const px = (v) => left + ((Math.log10(v) - Math.log10(low)) / (Math.log10(high) - Math.log10(low))) * (width - left - right);

  element.classList.add("mpteach-rangechart");
  const controls = numberControls(labels, (x) => show(x));
  const svg = node("svg", { viewBox: `0 0 ${width} ${height}`, width: "100%", role: "img" });
  svg.append(node("text", { x: width / 2, y: 18, "text-anchor": "middle", "font-size": 14 }, labels.title));
  const statuses = [];
  rows.forEach((r, i) => {
    const y = top + i * rowHeight;
    svg.append(node("text", { x: left - 8, y: y + 15, "text-anchor": "end", "font-family": "monospace", "font-size": 12 }, r.name));
    svg.append(node("rect", { x: px(r.smallestSubnormal), y: y + 4, width: px(r.smallestNormal) - px(r.smallestSubnormal), height: 18, fill: COLOURS.subnormal, "fill-opacity": 0.45 }));
    svg.append(node("rect", { x: px(r.smallestNormal), y: y + 4, width: px(r.max) - px(r.smallestNormal), height: 18, fill: COLOURS.normal }));
    const status = node("text", { x: width - right + 10, y: y + 17, "font-size": 12, class: "mpteach-status", "data-format": r.name });
    statuses.push(status);
    svg.append(status);
  });
  const axisY = top + rows.length * rowHeight + 8;
  svg.append(node("line", { x1: left, x2: width - right, y1: axisY, y2: axisY, stroke: "#444" }));
  for (let k = Math.ceil(Math.log10(low) / 20) * 20; k <= Math.log10(high); k += 20) {
    svg.append(node("line", { x1: px(10 ** k), x2: px(10 ** k), y1: axisY, y2: axisY + 4, stroke: "#444" }));
    svg.append(node("text", { x: px(10 ** k), y: axisY + 16, "text-anchor": "middle", "font-size": 11 }, `1e${k}`));
  }
  svg.append(node("text", { x: (left + width - right) / 2, y: axisY + 32, "text-anchor": "middle", "font-size": 12 }, labels.axis));
  svg.append(node("rect", { x: left, y: height - 14, width: 12, height: 10, fill: COLOURS.normal }));
  svg.append(node("text", { x: left + 16, y: height - 5, "font-size": 11 }, labels.normal));
  svg.append(node("rect", { x: left + 200, y: height - 14, width: 12, height: 10, fill: COLOURS.subnormal, "fill-opacity": 0.45 }));
  svg.append(node("text", { x: left + 216, y: height - 5, "font-size": 11 }, labels.subnormal));
  const marker = node("line", { y1: top, y2: axisY, stroke: "#de2d26", "stroke-width": 1.5, class: "mpteach-marker" });
  const markerText = node("text", { y: top - 4, fill: "#de2d26", "font-size": 11 });
  svg.append(marker, markerText);
  element.append(controls.element, svg);

  function show(x) {
    controls.show(x);
    const magnitude = Math.abs(x);
    const onAxis = Number.isFinite(x) && low <= magnitude && magnitude <= high;
    marker.style.display = markerText.style.display = onAxis ? "" : "none";
    if (onAxis) {
      marker.setAttribute("x1", px(magnitude));
      marker.setAttribute("x2", px(magnitude));
      markerText.setAttribute("x", px(magnitude) + 4);
      markerText.textContent = fill(labels.marker, { x: g4(magnitude) });
    } else {
      controls.note(fill(labels.offAxis, { x: pyRepr(x) }), "note");
    }
    rows.forEach((r, i) => {
      const code = classify(x, r.name);
      statuses[i].textContent = labels.statuses[code];
      statuses[i].setAttribute("fill", COLOURS[code]);
      statuses[i].dataset.status = code;
    });
    element.dataset.x = pyRepr(x);
  }

  show(config.x);
  return { set: controls.set };
}
