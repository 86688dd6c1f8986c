// SpeedupExplorer drawn by the reader's browser: the website's version of
// mpteach.widgets.SpeedupExplorer, with no kernel (so no live runs: recorded and published
// results only, and a note on where to measure).
//
// The reference is Python: speedup-<lang>.json is browser_data(lang) of
// mpteach/widgets/speedup_explorer.py (tools/widget_data.py writes it, a test requires it to be
// current): the bars of speedup_bars and published_bars, titles, notes, sources, claims, all in
// the page's language. The browser only filters by type and lays the bars out as SpeedupPlot
// and PublishedPlot do; tests/test_site.py compares what it draws with Python's bars.
//
// Exports:
//   mount(element, config)  config: {data (URL of speedup-<lang>.json, next to this module),
//                           workload ("matmul", "dense" or "cnn")}
import { htmlNode, svgNode, withData } from "./dom.js";
import { pyFixed } from "./pyformat.js";

const WIDTH = 760;
const ORDER = ["float16", "bfloat16", "float32"];

export function mount(element, config) {
  element.classList.add("mpteach-speedup");
  withData(element, config.data, (data) => build(element, config, data));
}

function select(className, entries, value) {
  const menu = htmlNode("select", { className });
  for (const [text, v] of entries) menu.append(htmlNode("option", { value: v, textContent: text }));
  menu.value = value;
  return menu;
}

function build(element, config, data) {
  const { labels } = data;
  const result = select("mpteach-result", data.results.map((r, i) => [r.menu, i]), 0);
  const workload = select("mpteach-workload", Object.entries(data.workloads).map(([w, text]) => [text, w]), config.workload);
  const types = Object.fromEntries(data.types.map((t) => [t, htmlNode("input", { type: "checkbox", checked: true, value: t })]));
  const controls = [
    htmlNode("div", { className: "mpteach-controls" }, [htmlNode("label", {}, [labels.result, result])]),
    htmlNode("div", { className: "mpteach-controls" }, [
      htmlNode("label", {}, [labels.workload, workload]),
      htmlNode("span", { className: "mpteach-types" }, [labels.types, ...data.types.map((t) => htmlNode("label", {}, [types[t], t]))]),
    ]),
    htmlNode("div", { className: "mpteach-note" }, [htmlNode("small", { textContent: labels.needs_kernel })]),
  ];
  const status = htmlNode("div", { className: "mpteach-status-notes" });
  const chart = htmlNode("div", { className: "mpteach-chart" });
  const group = select("mpteach-published-group", data.published.map((g, i) => [g.label, i]), 0);
  const publishedChart = htmlNode("div", { className: "mpteach-published-chart" });
  const sources = htmlNode("div", { className: "mpteach-sources" });
  const published = htmlNode("div", { className: "mpteach-published" }, [
    htmlNode("b", { textContent: labels.published_title }), htmlNode("br"),
    htmlNode("small", { textContent: labels.published_note }),
    htmlNode("div", { className: "mpteach-controls" }, [htmlNode("label", {}, [labels.published, group])]),
    publishedChart, sources,
  ]);
  const claims = htmlNode("div", { className: "mpteach-claims", innerHTML: data.claims });
  element.append(...controls, status, chart, published, claims);

  function update() {
    const shown = data.results[Number(result.value)].workloads[workload.value];
    const chosen = data.types.filter((t) => types[t].checked);
    status.textContent = shown.notes.join("\n");
    const bars = shown.bars.filter((bar) => bar.type === "float32" || chosen.includes(bar.type));
    chart.replaceChildren(speedupChart(bars, shown.title, data));
    element.dataset.state = JSON.stringify({ result: Number(result.value), workload: workload.value, types: chosen });
  }
  function updatePublished() {
    const chosen = data.published[Number(group.value)];
    publishedChart.replaceChildren(publishedPlot(chosen, data));
    sources.innerHTML = chosen.sources; // written by published_html in Python, escaped there
  }
  for (const control of [result, workload, ...Object.values(types)]) control.addEventListener("change", update);
  group.addEventListener("change", updatePublished);
  update();
  updatePublished();
}

// Hatching for the bars that matplotlib hatches ("//": work-around off, "xx": inconsistent source).
function hatches(svg) {
  const defs = svgNode("defs");
  const ids = {};
  for (const [name, d] of [["slash", "M0,8 L8,0"], ["cross", "M0,8 L8,0 M0,0 L8,8"]]) {
    ids[name] = `mpteach-hatch-${name}-${Math.random().toString(36).slice(2)}`;
    const pattern = svgNode("pattern", { id: ids[name], width: 8, height: 8, patternUnits: "userSpaceOnUse" });
    pattern.append(svgNode("path", { d, stroke: "#333", "stroke-width": 1 }));
    defs.append(pattern);
  }
  svg.append(defs);
  return ids;
}

// Axes with a title of one or two lines, a y label, y ticks from 0 and the dashed 1x line.
function axes(height, title, ylabel, top, baselineColour) {
  const box = { left: 60, right: WIDTH - 10, top: 46, bottom: height - 64 };
  const svg = svgNode("svg", { viewBox: `0 0 ${WIDTH} ${height}`, width: "100%", role: "img" });
  const y = (v) => box.bottom - (v / top) * (box.bottom - box.top);
  title.split("\n").forEach((line, i) => svg.append(
    svgNode("text", { x: WIDTH / 2, y: 16 + i * 16, "text-anchor": "middle", "font-size": 12, class: "mpteach-title" }, line)));
  svg.append(svgNode("rect", { x: box.left, y: box.top, width: box.right - box.left, height: box.bottom - box.top, fill: "none", stroke: "#444" }));
  const step = [0.1, 0.2, 0.25, 0.5, 1, 2, 5].find((s) => top / s <= 8) ?? 10;
  for (let v = 0; v <= top + 1e-9; v += step) {
    svg.append(svgNode("line", { x1: box.left - 4, x2: box.left, y1: y(v), y2: y(v), stroke: "#444" }));
    svg.append(svgNode("text", { x: box.left - 6, y: y(v) + 4, "text-anchor": "end", "font-size": 11 }, pyFixed(v, step < 1 ? 2 : 0)));
  }
  svg.append(svgNode("text", { x: 14, y: (box.top + box.bottom) / 2, "text-anchor": "middle", "font-size": 12, transform: `rotate(-90 14 ${(box.top + box.bottom) / 2})` }, ylabel));
  svg.append(svgNode("line", { x1: box.left, x2: box.right, y1: y(1), y2: y(1), stroke: baselineColour, "stroke-dasharray": "5 3", class: "mpteach-baseline" }));
  return { svg, box, y };
}

function bar(svg, x, width, height, y, colour, hatch, data) {
  const rect = svgNode("rect", { x, width, y: y(height), height: y(0) - y(height), fill: colour, class: "mpteach-bar" });
  svg.append(rect);
  if (hatch) svg.append(svgNode("rect", { x, width, y: y(height), height: y(0) - y(height), fill: `url(#${hatch})` }));
  const label = `${pyFixed(height, 2)}×`;
  svg.append(svgNode("text", { x: x + width / 2, y: y(height) - 3, "text-anchor": "middle", "font-size": 10, class: "mpteach-bar-label" }, label));
  Object.assign(rect.dataset, data, { value: label });
  return rect;
}

function legend(svg, entries, x, y) {
  const g = svgNode("g", { class: "mpteach-legend" });
  entries.forEach(([mark, text], i) => {
    const row = svgNode("g", { transform: `translate(${x} ${y + i * 15})` });
    row.append(mark, svgNode("text", { x: 24, y: 4, "font-size": 11 }, text));
    g.append(row);
  });
  svg.append(g);
}

const swatch = (fill) => svgNode("rect", { x: 0, y: -5, width: 18, height: 10, fill, stroke: "#555", "stroke-width": 0.5 });
const dashed = (colour) => svgNode("line", { x1: 0, x2: 18, y1: 0, y2: 0, stroke: colour, "stroke-dasharray": "5 3" });

function speedupChart(bars, title, data) {
  const { labels, colours } = data;
  const groups = [...new Set(bars.map((b) => b.group))];
  const slots = [...new Set(bars.map((b) => b.slot))]
    .sort((a, b) => ORDER.indexOf(typeOf(a, bars)) - ORDER.indexOf(typeOf(b, bars)));
  const top = Math.max(...bars.map((b) => b.speedup), 1.0) * 1.3;
  const { svg, box, y } = axes(380, title, labels.ylabel, top, colours.float32);
  const ids = hatches(svg);
  const slotWidth = (box.right - box.left) / Math.max(groups.length, 1);
  const x = (position) => box.left + (position + 0.5) * slotWidth; // group i spans [i - 0.5, i + 0.5]
  const width = 0.8 / Math.max(slots.length, 1);
  slots.forEach((slot, i) => {
    const offset = (i - (slots.length - 1) / 2) * width;
    for (const b of bars.filter((b) => b.slot === slot)) {
      const centre = x(groups.indexOf(b.group) + offset);
      const w = width * 0.92 * slotWidth;
      bar(svg, centre - w / 2, w, b.speedup, y, colours[b.type], b.unfused ? ids.slash : null,
          { group: b.group, variant: b.variant });
    }
  });
  groups.forEach((g, i) => svg.append(svgNode("text", { x: x(i), y: box.bottom + 16, "text-anchor": "middle", "font-size": 11, class: "mpteach-group" }, g)));
  if (!bars.length) svg.append(svgNode("text", { x: (box.left + box.right) / 2, y: (box.top + box.bottom) / 2, "text-anchor": "middle", "font-size": 13 }, labels.no_rows));
  const entries = slots.map((slot) => [swatch(colours[typeOf(slot, bars)]), slot]);
  entries.push([dashed(colours.float32), labels.baseline]);
  if (bars.some((b) => b.unfused)) entries.push([swatch(`url(#${ids.slash})`), labels.unfused]);
  legend(svg, entries, box.right - 230, box.top + 12);
  return svg;
}

function typeOf(slot, bars) {
  return bars.find((b) => b.slot === slot).type;
}

function publishedPlot(group, data) {
  const { labels, colours } = data;
  const top = Math.max(...group.bars.map((b) => b.speedup), 1.0) * 1.3;
  const { svg, box, y } = axes(360, group.title, labels.published_ylabel, top, colours.float32);
  const ids = hatches(svg);
  const slot = (box.right - box.left) / group.bars.length;
  group.bars.forEach((b, i) => {
    const centre = box.left + (i + 0.5) * slot;
    const w = 0.6 * Math.min(slot, 160);
    bar(svg, centre - w / 2, w, b.speedup, y, colours.float16, b.inconsistent ? ids.cross : null, { label: b.label });
    if (b.stated !== null) {
      const sx = centre + 0.38 * Math.min(slot, 160) * 1.2, sy = y(b.stated);
      svg.append(svgNode("path", { d: `M${sx - 4},${sy} l7,-4 v8 z`, fill: "#000", class: "mpteach-stated" }));
    }
    b.label.split("\n").forEach((line, k) => svg.append(
      svgNode("text", { x: centre, y: box.bottom + 14 + k * 12, "text-anchor": "middle", "font-size": 10, class: "mpteach-group" }, line)));
  });
  const entries = [[swatch(colours.float16), group.mixed]];
  if (group.bars.some((b) => b.inconsistent)) entries.push([swatch(`url(#${ids.cross})`), labels.inconsistent]);
  if (group.bars.some((b) => b.stated !== null)) entries.push([svgNode("path", { d: "M5,0 l7,-4 v8 z", fill: "#000" }), labels.stated]);
  entries.push([dashed(colours.float32), group.baseline]);
  legend(svg, entries, box.right - 230, box.top + 12);
  return svg;
}
