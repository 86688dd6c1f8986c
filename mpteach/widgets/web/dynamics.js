// LossScaleDynamics drawn by the reader's browser: the website's version of
// mpteach.widgets.LossScaleDynamics, with no kernel.
//
// The reference is Python: mpteach/simulate.py (simulate, Simulation.summary) and
// mpteach/widgets/loss_scale_dynamics.py (describe, the figure, the comparison). The random
// gradients come from numpy: dynamics-data.json (browser_data() in loss_scale_dynamics.py) holds,
// per step, log2 of the largest gradient and the largest scale exponent that keeps the step
// finite. The scale follows lossscale.js, the rule tests/test_widgets_js.py checks against
// update_loss_scale; the same tests require the summary of every setting to match Python's.
//
// Exports:
//   decode(data)                      the arrays of dynamics-data.json, decoded once
//   run(data, settings)               one simulated run: {scale, finite, spikes, top, steps}
//       settings: {spread, spikeRate, initialScale, growthSteps (null: fixed)}
//   summary(data, settings)           Simulation.summary(): steps, skipped, skipped_fraction,
//                                     settle_step, underflow, final_scale
//   describe(summary, labels)         loss_scale_dynamics.describe, in the page's language
//   scaleText(scale)                  '2¹⁵' for a power of two, as scale_text(s).split(' =')[0]
//   mount(element, config)            the widget; config: {labels, data (URL of
//       dynamics-data.json, next to this module), initial (settings other than the defaults)}.
//       The controls' choices and defaults come with the data (its "widget" entry).
import { trajectory } from "./lossscale.js";
import { fromBase64 } from "./binary.js";
import { htmlNode, svgNode, withData } from "./dom.js";
import { fill } from "./parse.js";
import { pyFixed, pyG, scaleText as fullScaleText } from "./pyformat.js";

const FLOAT16_SMALLEST_LOG2 = -24;
const FLOAT16_MAX = 65504;
const COLOURS = { band: "#2e7d32", over: "#c62828", under: "#1565c0", scale: "#212121", settle: "#6a1b9a" };

const decoded = new WeakMap();
export function decode(data) {
  if (!decoded.has(data)) {
    decoded.set(data, { top: fromBase64(data.topLog2, Float64Array), limit: fromBase64(data.limit, Int8Array) });
  }
  return decoded.get(data);
}

// The gradients of one spike rate: log2 of the largest gradient, the largest scale that keeps
// each step finite (a power of two: scales are powers of two), which steps spiked. Remembered.
const perRate = new WeakMap();
function gradients(data, spikeRate) {
  if (!perRate.has(data)) perRate.set(data, new Map());
  const cache = perRate.get(data);
  if (!cache.has(spikeRate)) {
    const base = decode(data);
    const top = Float64Array.from(base.top);
    const maxScale = Float64Array.from(base.limit, (k) => 2 ** k);
    const spikes = new Uint8Array(data.steps);
    for (const [t, draw, spikedLimit] of data.spikes) {
      if (draw < spikeRate) {
        top[t] = base.top[t] + data.spikeSize; // as numpy adds spike_size * spikes
        maxScale[t] = 2 ** spikedLimit;
        spikes[t] = 1;
      }
    }
    cache.set(spikeRate, { top, maxScale, spikes });
  }
  return cache.get(spikeRate);
}

export function run(data, { spikeRate, initialScale, growthSteps }) {
  const { top, maxScale, spikes } = gradients(data, spikeRate);
  const steps = data.steps;
  const scale = growthSteps === null
    ? new Array(steps + 1).fill(initialScale)
    : trajectory(maxScale, initialScale, growthSteps)[0];
  const finite = new Uint8Array(steps);
  for (let t = 0; t < steps; t++) finite[t] = scale[t] <= maxScale[t] ? 1 : 0;
  return { steps, top, spikes, scale, finite };
}

export function summary(data, settings, sim = run(data, settings)) {
  const { steps, top, spikes, scale, finite } = sim;
  const spread = settings.spread;
  let skipped = 0, applied = 0, lost = 0;
  for (let t = 0; t < steps; t++) {
    if (!finite[t]) { skipped++; continue; }
    applied++;
    const missing = FLOAT16_SMALLEST_LOG2 - (top[t] - spread + Math.log2(scale[t]));
    lost += spread === 0 ? (missing > 0 ? 1 : 0) : Math.min(Math.max(missing / spread, 0), 1);
  }
  const startedTooHigh = !finite[0] && !spikes[0];
  let settle = null;
  for (let t = 0; t < steps && settle === null; t++) {
    if (startedTooHigh ? finite[t] : !finite[t] && !spikes[t]) settle = t;
  }
  return {
    steps, skipped, skipped_fraction: skipped / steps, settle_step: settle,
    underflow: applied ? lost / applied : null, final_scale: scale[steps],
  };
}

// A count with its thousands grouped as i18n.number does (labels.thousands: "," or " " or "").
function grouped(n, separator) {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, separator);
}

export function describe(s, labels) {
  return [
    fill(labels.skipped, {
      skipped: grouped(s.skipped, labels.thousands), steps: grouped(s.steps, labels.thousands),
      percent: pyFixed(s.skipped_fraction * 100, 2),
    }),
    s.settle_step === null ? labels.neverSettled : fill(labels.settled, { step: s.settle_step }),
    s.underflow === null ? labels.noStepApplied : fill(labels.underflow, { percent: pyFixed(s.underflow * 100, 1) }),
  ].map((part) => (part.endsWith("。") ? part : `${part} `)).join("").trimEnd(); // 。 holds its space
}

// The scale as Python's widget titles write it: scale_text(scale).split(" =")[0].
export function scaleText(scale) {
  return fullScaleText(scale).split(" =")[0];
}

function settingText(name, config) {
  const [scale, growth] = config.settings[name];
  const rule = growth === null ? config.labels.fixed : fill(config.labels.every, { steps: growth });
  return `${config.labels.presets[name]} (${scaleText(scale)}, ${rule})`;
}

// --- the widget -----------------------------------------------------------------------------

// A labelled range input over ``options`` (a list of values) with a readout.
function choice(label, options, value, format, name) {
  const input = htmlNode("input", { type: "range", min: 0, max: options.length - 1, step: 1, value: options.indexOf(value) });
  input.dataset.control = name;
  const readout = htmlNode("output", { className: "mpteach-readout", textContent: format(value) });
  const element = htmlNode("label", {}, [label, input, readout]);
  return {
    element, input,
    get value() { return options[Number(input.value)]; },
    set value(v) { input.value = options.indexOf(v); readout.textContent = format(v); },
    refresh() { readout.textContent = format(options[Number(input.value)]); },
  };
}

function range(low, high) {
  return Array.from({ length: high - low + 1 }, (_, i) => low + i);
}

export function mount(element, config) {
  element.classList.add("mpteach-dynamics");
  withData(element, config.data, (data) => build(element, { ...config, ...data.widget }, data));
}

function build(element, config, data) {
  const { labels } = config;
  const initial = { ...config.defaults, ...config.initial };
  // Controls, as the notebook's widget lays them out.
  const preset = htmlNode("select", { className: "mpteach-preset" });
  preset.append(htmlNode("option", { value: "", textContent: labels.presets.custom }));
  for (const name of Object.keys(config.settings)) preset.append(htmlNode("option", { value: name, textContent: settingText(name, config) }));
  const fixed = htmlNode("input", { type: "checkbox", className: "mpteach-fixed", checked: initial.growthSteps === null });
  const scale = choice(labels.control.scale, range(...config.scaleRange), Math.log2(initial.initialScale), String, "scale");
  const growth = choice(labels.control.growth, config.growthOptions, initial.growthSteps ?? 2000, String, "growth");
  const spread = choice(labels.control.spread, range(0, config.spreadMax), initial.spread, String, "spread");
  const spikes = choice(labels.control.spikes, config.spikeRates, initial.spikeRate, (r) => pyG(r, 6), "spikes");
  const rows = [
    [htmlNode("label", {}, [labels.control.preset, preset]), htmlNode("label", {}, [fixed, labels.control.fixed])],
    [scale.element, growth.element],
    [spread.element, spikes.element],
  ].map((children) => htmlNode("div", { className: "mpteach-controls" }, children));
  const summaryText = htmlNode("div", { className: "mpteach-summary" });
  const plot = figure(config, data);
  const table = htmlNode("div", { className: "mpteach-comparison" });
  element.append(...rows, summaryText, plot.svg, table);

  let comparedFor = null;
  // The scale's path does not depend on the spread (only the band and the underflow do): runs
  // are remembered by everything else, so moving the spread re-counts and draws, no more.
  const runs = new Map();
  function remembered(now) {
    const key = `${now.spikeRate} ${now.initialScale} ${now.growthSteps}`;
    if (!runs.has(key)) {
      if (runs.size >= 40) runs.delete(runs.keys().next().value); // the oldest
      runs.set(key, run(data, now));
    }
    return runs.get(key);
  }
  function settings() {
    return {
      spread: spread.value, spikeRate: spikes.value,
      initialScale: 2 ** scale.value, growthSteps: fixed.checked ? null : growth.value,
    };
  }
  function update() {
    const now = settings();
    growth.input.disabled = now.growthSteps === null;
    const sim = remembered(now);
    const current = summary(data, now, sim);
    summaryText.textContent = describe(current, labels);
    plot.show(sim, now, current);
    const model = `${now.spread} ${now.spikeRate}`;
    if (model !== comparedFor) { // the table depends on the gradients only
      comparison(table, config, data, now, remembered);
      comparedFor = model;
    }
    element.dataset.state = JSON.stringify(now);
  }
  for (const control of [scale, growth, spread, spikes]) {
    control.input.addEventListener("input", () => { control.refresh(); preset.value = ""; update(); });
  }
  fixed.addEventListener("change", () => { preset.value = ""; update(); });
  preset.addEventListener("change", () => {
    if (!preset.value) return;
    const [s, g] = config.settings[preset.value];
    scale.value = Math.log2(s);
    fixed.checked = g === null;
    if (g !== null) growth.value = g;
    update();
  });
  update();
}

function comparison(table, config, data, now, remembered) {
  const { labels } = config;
  const head = ["setting", "skipped", "settled", "underflow", "final"].map((c) => htmlNode("th", { textContent: labels.columns[c] }));
  const body = Object.entries(config.settings).map(([name, [initialScale, growthSteps]]) => {
    const setting = { ...now, initialScale, growthSteps };
    const row = summary(data, setting, remembered(setting));
    const cells = [
      settingText(name, config),
      `${pyFixed(row.skipped_fraction * 100, 2)} %`,
      row.settle_step === null ? "—" : String(row.settle_step),
      row.underflow === null ? "—" : `${pyFixed(row.underflow * 100, 1)} %`,
      scaleText(row.final_scale),
    ];
    const tr = htmlNode("tr", {}, cells.map((c) => htmlNode("td", { textContent: c })));
    tr.dataset.setting = name;
    if (name === "defaults") tr.style.fontWeight = "bold";
    return tr;
  });
  table.replaceChildren(
    htmlNode("table", {}, [htmlNode("tr", {}, head), ...body]),
    htmlNode("p", {}, [htmlNode("small", { textContent: labels.whyDefaults })]),
  );
}

// The figure: the scale over the steps on a log2 axis, the band of good scales, skipped steps,
// the settling step; DynamicsPlot's layout, sized for the page's text column.
function figure(config, data) {
  const { labels } = config;
  const width = 760, height = 410;
  const left = 58, right = 736, top = 30, bottom = 322;
  const [low, high] = config.yRange.map(Math.log2);
  const steps = data.steps;
  const x = (t) => left + (t / steps) * (right - left);
  const y = (log2) => bottom - ((log2 - low) / (high - low)) * (bottom - top);
  const svg = svgNode("svg", { viewBox: `0 0 ${width} ${height}`, width: "100%", role: "img" });
  const clip = svgNode("clipPath", { id: `mpteach-axes-${Math.random().toString(36).slice(2)}` });
  clip.append(svgNode("rect", { x: left, y: top, width: right - left, height: bottom - top }));
  svg.append(clip);
  const inside = svgNode("g", { "clip-path": `url(#${clip.id})` });
  const bands = { band: svgNode("polygon", { fill: COLOURS.band, "fill-opacity": 0.15 }),
                  over: svgNode("polygon", { fill: COLOURS.over, "fill-opacity": 0.07 }),
                  under: svgNode("polygon", { fill: COLOURS.under, "fill-opacity": 0.07 }) };
  const scaleLine = svgNode("path", { fill: "none", stroke: COLOURS.scale, "stroke-width": 1.4, class: "mpteach-scale" });
  const skips = svgNode("path", { fill: "none", stroke: COLOURS.over, "stroke-width": 1, class: "mpteach-skips" });
  const settleLine = svgNode("line", { y1: top, y2: bottom, stroke: COLOURS.settle, "stroke-dasharray": "5 3", class: "mpteach-settle" });
  inside.append(bands.band, bands.over, bands.under, scaleLine, skips, settleLine);
  svg.append(inside, svgNode("rect", { x: left, y: top, width: right - left, height: bottom - top, fill: "none", stroke: "#444" }));
  for (let k = Math.ceil(low / 8) * 8; k <= high; k += 8) {
    svg.append(svgNode("line", { x1: left - 4, x2: left, y1: y(k), y2: y(k), stroke: "#444" }));
    svg.append(svgNode("text", { x: left - 6, y: y(k) + 4, "text-anchor": "end", "font-size": 12 }, scaleText(2 ** k)));
  }
  const tick = 10 ** Math.floor(Math.log10(steps / 4));
  const stepTick = [1, 2, 5].map((m) => m * tick).find((s) => steps / s <= 6) ?? 10 * tick;
  for (let t = 0; t <= steps; t += stepTick) {
    svg.append(svgNode("line", { x1: x(t), x2: x(t), y1: bottom, y2: bottom + 4, stroke: "#444" }));
    svg.append(svgNode("text", { x: x(t), y: bottom + 18, "text-anchor": "middle", "font-size": 12 }, String(t)));
  }
  svg.append(svgNode("text", { x: (left + right) / 2, y: bottom + 36, "text-anchor": "middle", "font-size": 13 }, labels.xlabel));
  svg.append(svgNode("text", { x: 14, y: (top + bottom) / 2, "text-anchor": "middle", "font-size": 13, transform: `rotate(-90 14 ${(top + bottom) / 2})` }, labels.ylabel));
  const title = svgNode("text", { x: (left + right) / 2, y: top - 10, "text-anchor": "middle", "font-size": 13, class: "mpteach-title" });
  svg.append(title);
  svg.append(svgNode("text", { x: left + 8, y: top + 16, "font-size": 12, fill: COLOURS.over }, labels.regionOver));
  svg.append(svgNode("text", { x: left + 8, y: bottom - 8, "font-size": 12, fill: COLOURS.under }, labels.regionUnder));
  // The legend, below the axes.
  const legend = [
    [svgNode("line", { x1: 0, x2: 22, y1: -4, y2: -4, stroke: COLOURS.scale, "stroke-width": 1.4 }), labels.legendScale],
    [svgNode("path", { d: "M7 -8 l8 8 m0 -8 l-8 8", stroke: COLOURS.over, fill: "none" }), labels.legendSkipped],
    [svgNode("line", { x1: 0, x2: 22, y1: -4, y2: -4, stroke: COLOURS.settle, "stroke-dasharray": "5 3" }), labels.legendSettled],
    [svgNode("rect", { x: 0, y: -10, width: 22, height: 11, fill: COLOURS.band, "fill-opacity": 0.3 }), labels.legendBand],
  ];
  const entries = svgNode("g", { class: "mpteach-legend" });
  legend.forEach(([mark, text], i) => {
    const g = svgNode("g", { transform: `translate(${left + (i % 2) * 345} ${height - 26 + Math.floor(i / 2) * 18})` });
    g.append(mark, svgNode("text", { x: 28, y: 0, "font-size": 12 }, text));
    entries.append(g);
  });
  svg.append(entries);

  let bandOf = null;
  function show(sim, now, current) {
    if (bandOf !== now.spread) { // the band: straight lines in log2 space, from the trend
      const ends = [0, steps - 1].map((t) => data.top + (data.drift * t) / Math.max(steps - 1, 1));
      const lowEdge = ends.map((trend) => FLOAT16_SMALLEST_LOG2 - (trend - now.spread));
      const highEdge = ends.map((trend) => Math.log2(FLOAT16_MAX) - trend);
      const [x0, x1] = [x(0), x(Math.max(steps - 1, 1))];
      const polygon = (a, b) => `${x0},${y(a[0])} ${x1},${y(a[1])} ${x1},${y(b[1])} ${x0},${y(b[0])}`;
      bands.band.setAttribute("points", polygon(lowEdge, highEdge));
      bands.over.setAttribute("points", polygon(highEdge, [high + 1, high + 1]));
      bands.under.setAttribute("points", polygon([low - 1, low - 1], lowEdge));
      bandOf = now.spread;
    }
    // The scale only changes at a few steps: one horizontal segment per value.
    let d = `M${x(0)},${y(Math.log2(sim.scale[0]))}`;
    for (let t = 1; t <= steps; t++) {
      if (sim.scale[t] !== sim.scale[t - 1]) d += `H${x(t)}V${y(Math.log2(sim.scale[t]))}`;
    }
    scaleLine.setAttribute("d", d + `H${x(steps)}`);
    const skipped = [];
    for (let t = 0; t < steps; t++) if (!sim.finite[t]) skipped.push(t);
    const every = Math.max(1, Math.ceil(skipped.length / config.maxMarkers));
    const shown = skipped.filter((_, i) => i % every === 0);
    skips.setAttribute("d", shown.map((t) => `M${x(t) - 3},${y(Math.log2(sim.scale[t])) - 3}l6,6m0,-6l-6,6`).join(""));
    skips.dataset.count = shown.length;
    settleLine.style.display = current.settle_step === null ? "none" : "";
    settleLine.setAttribute("x1", x(current.settle_step ?? 0));
    settleLine.setAttribute("x2", x(current.settle_step ?? 0));
    const start = scaleText(now.initialScale);
    // As Python's title_text: a growth count of 1 has its own wording.
    title.textContent = now.growthSteps === null
      ? fill(labels.titleFixed, { scale: start })
      : now.growthSteps === 1
        ? fill(labels.titleEveryStep, { scale: start })
        : fill(labels.title, { scale: start, growth: now.growthSteps });
  }
  return { svg, show };
}
