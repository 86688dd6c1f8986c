// Keras's dynamic loss-scale rule and the course's simulator loop, in the reader's browser.
//
// The reference is Python: mpteach/loss_scale.py (update_loss_scale) and mpteach/simulate.py
// (_trajectory). The random gradients of a simulation come from numpy in Python; what travels to
// the browser is, per step, the largest scale that step tolerates (``max_scale``), and this loop
// turns it into the scale trajectory. tests/test_widgets_js.py requires the same numbers.
//
// Exports:
//   updateLossScale(scale, counter, finite, growthSteps)  [newScale, newCounter] after one step
//   trajectory(maxScale, initialScale, growthSteps)       [scales, counters], before the first
//                                                          step and after each step

export function updateLossScale(scale, counter, finite, growthSteps) {
  if (!finite) return [scale * 0.5, 0];
  if (counter === growthSteps - 1) return [scale * 2.0, 0];
  return [scale, counter + 1];
}

export function trajectory(maxScale, initialScale, growthSteps) {
  let scale = initialScale;
  let counter = 0;
  const scales = [scale];
  const counters = [counter];
  for (const limit of maxScale) {
    [scale, counter] = updateLossScale(scale, counter, scale <= limit, growthSteps);
    scales.push(scale);
    counters.push(counter);
  }
  return [scales, counters];
}
