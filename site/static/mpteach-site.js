// Widgets rendered from saved state (@jupyter-widgets/html-manager) typeset their labels with
// MathJax 2's call MathJax.Hub.Queue(["Typeset", MathJax.Hub, element]); the site serves
// MathJax 3, so translate that one call. Pages without maths load no MathJax, and need nothing.
document.addEventListener("DOMContentLoaded", () => {
  const mathjax = window.MathJax;
  if (!mathjax || !mathjax.startup || mathjax.Hub) return;
  mathjax.Hub = {
    Queue: (...jobs) => {
      const elements = jobs
        .filter((job) => Array.isArray(job) && job[0] === "Typeset" && job[2])
        .map((job) => job[2]);
      if (elements.length) {
        mathjax.startup.promise.then(() => window.MathJax.typesetPromise(elements));
      }
    },
  };
});

// The search box splits a query into words as Sphinx does, and then splits each run of Chinese
// characters into the words of the index (Sphinx indexes Chinese with jieba, but the browser
// gets the query whole: 梯度累积 is two words of the index, 梯度 and 累积): longest first, as
// long as the index knows them; single characters, which the index leaves out, are dropped.
var splitQuery = (query) => {
  const words = query
    .split(/[^\p{Letter}\p{Number}_\p{Emoji_Presentation}]+/gu)
    .filter((word) => word);
  // Search is searchtools.js's top-level const: a global name, but not a property of window
  const terms = typeof Search !== "undefined" && Search._index ? Search._index.terms : null;
  if (!terms) return words;
  const longest = 8;
  return words.flatMap((word) => {
    if (!/\p{Script=Han}/u.test(word)) return [word];
    const found = [];
    for (let start = 0; start < word.length; ) {
      let size = Math.min(longest, word.length - start);
      while (size > 1 && !Object.hasOwn(terms, word.slice(start, start + size))) size -= 1;
      if (size > 1) found.push(word.slice(start, start + size));
      start += size;
    }
    return found.length ? found : [word];
  });
};

// Sphinx 7's search appends a result's summary even when it has none (a page whose text it cannot
// read back returns null), which throws and stops the list of results there: give it an empty one.
document.addEventListener("DOMContentLoaded", () => {
  if (typeof Search === "undefined" || !Search.makeSearchSummary) return;
  const makeSummary = Search.makeSearchSummary;
  Search.makeSearchSummary = (...args) =>
    makeSummary(...args) || document.createElement("p");
});
