// Elements for the browser-drawn widgets.
//
// Exports:
//   svgNode(tag, attributes, text)      an SVG element
//   htmlNode(tag, properties, children)  an HTML element
//   withData(element, url, use)          fetch the JSON at url (relative to these modules: the
//                                        site's _static/), then use(data); "…" in element until
//                                        then, and the problem in its place if it fails
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

export function withData(element, url, use) {
  const note = htmlNode("div", { className: "mpteach-message", textContent: "…" });
  element.append(note);
  fetch(new URL(url, import.meta.url))
    .then((response) => {
      if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
      return response.json();
    })
    .then((data) => { note.remove(); use(data); })
    .catch((problem) => { note.textContent = String(problem); throw problem; });
}
