// The expected free energy of one box (menace_lib.widgets.live_figures.EfeBox): for each
// move, the risk (how far its predicted outcomes are from the preferred ones) and the
// epistemic value λ·I(o; θ) it subtracts, their sum G, and the softmax policy over G, as
// the reader moves λ. λ = 0 is MENACE's objective. Every number is efe_math.js's
// `explore` (the tested copy of menace_lib.maths.efe); live_figures.efe_box_values is the
// Python reference. Test ids: eb-lam (the slider), eb-lam-value, eb-zero,
// eb-risk-<a>, eb-epi-<a> (λ·I), eb-G-<a>, eb-q-<a> (data-value: the full number).
import { explore, mutualInformation } from "./efe_math.js";
import { h } from "./common.js";
import { fmt } from "./live_parts.js";

let viewCount = 0;

/** What the page shows at λ: {risk, epistemic (I), bonus (λ·I), G, q} per move. */
export function efeBox(alphas, lam, lambdaPolicy, prefs) {
  const r = explore({ alphas, prefs, lam, lambdaPolicy });
  return { risk: r.risk, epistemic: r.epistemic, bonus: r.epistemic.map((i) => lam * i), G: r.G, q: r.q };
}

/** The G axis: from the lowest G any move reaches on the slider to the highest risk. */
export function axisRange(alphas, lamMax, prefs) {
  const top = explore({ alphas, prefs, lam: 0 });
  const low = alphas.map((a, i) => top.risk[i] - lamMax * mutualInformation(a));
  return [Math.min(0, ...low), Math.max(...top.risk) * 1.05];
}

function render({ model, el }) {
  const view = ++viewCount;
  const alphas = model.get("alphas");
  const prefs = model.get("prefs");
  const lamMax = model.get("lam_max");
  const lambdaPolicy = model.get("lambda_policy");
  const [lo, hi] = axisRange(alphas, lamMax, prefs);
  const x = (v) => `${((100 * (v - lo)) / (hi - lo)).toFixed(2)}%`;

  const id = `eb-lam-${view}`;
  const slider = h("input", { type: "range", min: 0, max: lamMax, step: 0.01, id, "data-testid": "eb-lam", value: model.get("lam") });
  const shown = h("output", { class: "mw-value", for: id, "data-testid": "eb-lam-value" });
  const zero = h("button", { type: "button", class: "mw-button", "data-testid": "eb-zero" }, "λ = 0: MENACE");
  const note = h("p", { class: "mw-status", role: "status", "aria-live": "polite", "data-testid": "eb-note" });
  slider.addEventListener("input", () => {
    model.set("lam", Number(slider.value));
    update();
  });
  zero.addEventListener("click", () => {
    model.set("lam", 0);
    update();
  });

  const rows = alphas.map((alpha, a) => {
    const cells = {};
    for (const key of ["risk", "epi", "G", "q"]) cells[key] = h("span", { class: "mw-live-num", "data-testid": `eb-${key}-${a}` });
    const riskBar = h("span", { class: "mw-live-seg mw-live-risk" });
    const epiBar = h("span", { class: "mw-live-seg mw-live-epi" });
    const gMark = h("span", { class: "mw-live-gmark" });
    const qBar = h("span", { class: "mw-live-fill mw-live-q" });
    const total = alpha.reduce((s, v) => s + v, 0);
    const row = h(
      "div",
      { class: "mw-live-efe-row", role: "group", "aria-label": `move a${a + 1}` },
      h("p", { class: "mw-live-efe-label" }, h("strong", {}, `a${a + 1}`), ` outcome counts ${alpha.join(", ")} (${total} games)`),
      h(
        "span",
        { class: "mw-live-axis", "aria-hidden": "true" },
        h("span", { class: "mw-live-zero", style: { left: x(0) } }),
        riskBar,
        epiBar,
        gMark,
      ),
      h("p", { class: "mw-live-efe-nums" }, "risk ", cells.risk, " − λ·I ", cells.epi, " = G ", cells.G),
      h("p", { class: "mw-live-efe-nums" }, "policy ", h("span", { class: "mw-live-track mw-live-qtrack", "aria-hidden": "true" }, qBar), " ", cells.q),
    );
    return { row, cells, riskBar, epiBar, gMark, qBar };
  });

  el.append(
    h(
      "div",
      { class: "mw mw-live", "data-testid": "efe-box" },
      h("div", { class: "mw-sliders" }, h("label", { for: id }, "λ (price of information)"), slider, shown),
      h("div", { class: "mw-live-buttons" }, zero),
      note,
      h(
        "p",
        { class: "mw-caption mw-live-key" },
        h("span", { class: "mw-nowrap" }, h("span", { class: "mw-live-key-risk", "aria-hidden": "true" }), " risk"),
        " ",
        h("span", { class: "mw-nowrap" }, h("span", { class: "mw-live-key-epi", "aria-hidden": "true" }), " epistemic value λ·I, subtracted"),
        " ",
        h("span", { class: "mw-nowrap" }, h("span", { class: "mw-live-key-g", "aria-hidden": "true" }), " G (lower is better);"),
        " the grey line is 0.",
      ),
      rows.map((r) => r.row),
      h("p", { class: "mw-caption" }, `Preferred outcomes p(win, draw, loss) = (${prefs.map((p) => fmt(p, 2)).join(", ")}); policy softmax temperature ${fmt(lambdaPolicy, 2)}.`),
    ),
  );

  function update() {
    const lam = Math.min(lamMax, Math.max(0, Number(model.get("lam")) || 0));
    slider.value = String(lam);
    shown.textContent = fmt(lam, 2);
    const v = efeBox(alphas, lam, lambdaPolicy, prefs);
    rows.forEach((r, a) => {
      const set = (key, value) => {
        r.cells[key].textContent = fmt(value, 3);
        r.cells[key].dataset.value = String(value);
      };
      set("risk", v.risk[a]);
      set("epi", v.bonus[a]);
      set("G", v.G[a]);
      set("q", v.q[a]);
      r.riskBar.style.left = x(0);
      r.riskBar.style.width = `${((100 * v.risk[a]) / (hi - lo)).toFixed(2)}%`;
      r.epiBar.style.left = x(v.G[a]);
      r.epiBar.style.width = `${((100 * v.bonus[a]) / (hi - lo)).toFixed(2)}%`;
      r.gMark.style.left = x(v.G[a]);
      r.qBar.style.width = `${(100 * v.q[a]).toFixed(1)}%`;
    });
    const best = v.q.indexOf(Math.max(...v.q));
    note.textContent =
      lam === 0
        ? "λ = 0, MENACE's objective: only the risk counts, so moves that predict the same outcomes get the same share, however many games stand behind them."
        : `λ = ${fmt(lam, 2)}: moves with little evidence get an information bonus; a${best + 1} has the largest share.`;
  }
  update();
  return undefined;
}

export default { render };
