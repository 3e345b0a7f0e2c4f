// The book's own page script (loaded on every page through html_js_files in _config.yml).
//
// Phones: MathJax cannot break a formula across lines, so an inline formula wider than its
// paragraph would run off the screen. Such a formula gets the class "book-wide-math"
// (book.css), which lets it scroll sideways inside its own box; MathJax already makes
// every formula focusable, so it can be scrolled from the keyboard too. Formulas that fit
// are left alone, keeping their baseline. <html data-book-math="fitted"> marks the end of
// the first pass (the browser tests wait for it).
(function () {
  "use strict";

  function fitInlineMath() {
    var formulas = document.querySelectorAll('article mjx-container:not([display="true"])');
    formulas.forEach(function (el) {
      el.classList.remove("book-wide-math");
    });
    formulas.forEach(function (el) {
      var block = el.closest("p, li, dd, dt, td, th, figcaption, div") || el.parentElement;
      if (el.getBoundingClientRect().width > block.getBoundingClientRect().width + 0.5) {
        el.classList.add("book-wide-math");
      }
    });
    document.documentElement.setAttribute("data-book-math", "fitted");
  }

  var pending = null;
  function refit() {
    clearTimeout(pending);
    pending = setTimeout(fitInlineMath, 150);
  }

  window.addEventListener("load", function () {
    var mj = window.MathJax;
    var ready = mj && mj.startup && mj.startup.promise ? mj.startup.promise : Promise.resolve();
    ready.then(fitInlineMath, fitInlineMath);
    window.addEventListener("resize", refit);
  });
})();
