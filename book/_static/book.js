// The book's own page script (loaded on every page through html_js_files in _config.yml).
//
// Formulas. MathJax 3 cannot break a formula across lines, so a formula wider than its
// column would end at the column edge.
//  * A display formula wider than its column is set in a smaller type, just small enough
//    to fit (never below MIN_SCALE of the text size); only one that still does not fit
//    scrolls inside its own box, and gets the class "book-math-scrolls" (book.css draws a
//    shadow at the edge it continues past). MathJax makes every formula focusable, so it
//    can be scrolled from the keyboard too.
//  * An inline formula wider than its paragraph gets the class "book-wide-math", which
//    lets it scroll sideways inside its own box. Formulas that fit are left alone.
// <html data-book-math="fitted"> marks the end of the first pass (the browser tests wait
// for it).
//
// Tables. A table wider than the column scrolls inside its container (the theme's
// .pst-scrollable-table-container, which the theme makes focusable when it scrolls). Such
// a container is named for screen readers ("Table 2, scrolls sideways").
(function () {
  "use strict";

  var MIN_SCALE = 0.55;

  function fitDisplayMath() {
    var formulas = document.querySelectorAll('article mjx-container[display="true"]');
    formulas.forEach(function (el) {
      el.style.fontSize = "";
      el.classList.remove("book-math-scrolls");
    });
    formulas.forEach(function (el) {
      var box = el.clientWidth;
      var need = el.scrollWidth;
      if (box <= 0 || need <= box + 1) return;
      var scale = Math.max(MIN_SCALE, Math.floor((box / need) * 1000) / 1000 - 0.01);
      el.style.fontSize = Math.round(scale * 1000) / 10 + "%";
      if (el.scrollWidth > el.clientWidth + 1) el.classList.add("book-math-scrolls");
    });
  }

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
  }

  function nameScrollingTables() {
    var boxes = document.querySelectorAll("article .pst-scrollable-table-container");
    boxes.forEach(function (box, i) {
      var scrolls = box.scrollWidth > box.clientWidth + 1;
      if (scrolls) {
        var caption = box.querySelector("caption");
        var title = caption ? caption.textContent.trim().replace(/\s+/g, " ") : "";
        box.setAttribute("tabindex", "0");
        box.setAttribute("role", "region");
        box.setAttribute(
          "aria-label",
          (title ? title : "Table " + (i + 1) + " on this page") + ", scrolls sideways"
        );
      } else if (box.getAttribute("role") === "region") {
        box.removeAttribute("role");
        box.removeAttribute("aria-label");
      }
    });
  }

  function fitAll() {
    fitDisplayMath();
    fitInlineMath();
    nameScrollingTables();
    document.documentElement.setAttribute("data-book-math", "fitted");
  }

  var pending = null;
  function refit() {
    clearTimeout(pending);
    pending = setTimeout(fitAll, 150);
  }

  window.addEventListener("load", function () {
    var mj = window.MathJax;
    var ready = mj && mj.startup && mj.startup.promise ? mj.startup.promise : Promise.resolve();
    ready.then(fitAll, fitAll);
    window.addEventListener("resize", refit);
  });
})();
