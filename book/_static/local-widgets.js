// Serve Jupyter widgets from this site instead of a CDN (see docs/STATIC_WIDGETS.md).
// Loaded by myst-nb (nb_ipywidgets_js) after require.js and before html-manager's
// embed-amd.js, only on pages that carry saved widget state.
(function () {
  "use strict";
  var script = document.currentScript;
  var vendor = script.src.slice(0, script.src.lastIndexOf("/") + 1) + "vendor/";
  var hm = vendor + "html-manager/";
  // Font Awesome files bundled with the html-manager. Its modules inject their CSS before
  // reading __jupyter_widgets_assets_path__, so the font URLs are resolved against each
  // module's require.js URI instead: the paths below put every module embed-amd.js defines
  // "inside" vendor/html-manager/, where scripts/vendor_assets.py copies the font files.
  // (The modules are already defined by embed-amd.js; require.js never fetches these paths.)
  window.__jupyter_widgets_assets_path__ = hm;
  // embed-amd.js takes its CDN prefix from the last <script data-jupyter-widgets-cdn>;
  // point its fallback at this site too, so a missing module 404s here instead of
  // silently fetching from jsdelivr.
  script.setAttribute("data-jupyter-widgets-cdn", vendor + "npm/");
  // Third-party widget modules, tried by embed-amd.js through require() before any CDN.
  // anywidget's AMD build comes from the installed Python package (scripts/vendor_assets.py).
  window.requirejs.config({
    paths: {
      "@jupyter-widgets/base": hm + "base",
      "@jupyter-widgets/base7": hm + "base7",
      "@jupyter-widgets/controls": hm + "controls",
      "@jupyter-widgets/controls7": hm + "controls7",
      "@jupyter-widgets/html-manager": hm + "html-manager",
      "@jupyter-widgets/html-manager/dist/libembed-amd": hm + "libembed-amd",
      anywidget: vendor + "anywidget/index",
    },
  });

  // @jupyter-widgets/controls typesets descriptions through the MathJax 2 API
  // (MathJax.Hub.Queue), which MathJax 3 lacks: without this shim every labelled control
  // throws "Cannot read properties of undefined (reading 'Queue')". MathJax is loaded
  // with `defer`, so it exists by DOMContentLoaded; widgets render on window load.
  document.addEventListener("DOMContentLoaded", function () {
    var mj = window.MathJax;
    if (!mj || mj.Hub || typeof mj.typesetPromise !== "function") return;
    mj.Hub = {
      Queue: function (cmd) {
        var el = Array.isArray(cmd) ? cmd[2] : null;
        if (!el) return;
        mj.startup.promise
          .then(function () {
            return mj.typesetPromise([el]);
          })
          .catch(function (err) {
            console.warn("MathJax typeset of a widget label failed", err);
          });
      },
    };
  });
})();
