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
