// The website's entry point: mounts every browser-drawn widget of the page. Each one is a
// <div class="mpteach-widget" data-widget="NAME"> holding its config as JSON (tools/build_site.py).
import { mount as lossScaleDynamics } from "./dynamics.js";
import { mount as floatExplorer } from "./floatexplorer.js";
import { mount as rangeChart } from "./rangechart.js";
import { mount as speedupExplorer } from "./speedup.js";
import { mount as gradientUnderflow } from "./underflow.js";

const MOUNT = {
  FloatExplorer: floatExplorer,
  GradientUnderflow: gradientUnderflow,
  LossScaleDynamics: lossScaleDynamics,
  RangeChart: rangeChart,
  SpeedupExplorer: speedupExplorer,
};

export function mountAll(root = document) {
  for (const element of root.querySelectorAll(".mpteach-widget:not([data-mounted])")) {
    element.dataset.mounted = "1";
    const config = JSON.parse(element.querySelector("script[type='application/json']").textContent);
    MOUNT[element.dataset.widget](element, config);
  }
}
