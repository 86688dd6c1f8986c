// Elements for the browser-drawn widgets.
//
// Exports:
//   svgNode(tag, attributes, text)      an SVG element
//   htmlNode(tag, properties, children)  an HTML element
const SVG = "http://www.w3.org/2000/svg";

export function svgNode(tag, attributes = {}, text = "") {
  const element = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attributes)) element.setAttribute(k, v);
  if (text) element.textContent = text;
  return element;
}

export function htmlNode(tag, properties = {}, children = []) {
  const element = Object.assign(document.createElement(tag), properties);
  element.append(...children);
  return element;
}
