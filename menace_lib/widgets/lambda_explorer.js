// Lambda explorer: sliders for the epistemic weight lambda, the softmax temperature
// lambda_policy and the preference weights; tables of risk, epistemic value, G, policy
// and beads for the thesis's worked example and for a state the reader types in.
// All maths is efe_math.js's `explore` (tested against menace_lib.efe to 1e-9); numbers
// are shown with 6 decimals in elements whose data-testid is lx-<table>-<field>-<row>.
import { explore } from "./efe_math.js";
import { fixed, h, sync } from "./common.js";

const OUTCOMES = ["win", "draw", "loss"];
const FIELDS = [
  ["risk", "Risk"],
  ["epistemic", "Epistemic I(o;θ)"],
  ["G", "G"],
  ["q", "Policy q(a)"],
  ["beads", "Beads"],
];
const MAX_ACTIONS = 6;

/** Preference weights (each > 0) divided by their sum, as the Python side does. */
export function normalise(weights) {
  const total = weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => w / total);
}

let viewCount = 0;

function slider({ id, label, min, max, step, value, onInput, view }) {
  const domId = `${id}-${view}`; // unique even with several explorers on one page
  const input = h("input", {
    type: "range",
    min,
    max,
    step,
    value,
    id: domId,
    "data-testid": id,
  });
  const shown = h("output", { class: "mw-value", for: domId, "data-testid": `${id}-value` });
  input.addEventListener("input", () => onInput(Number(input.value)));
  return { input, shown, row: [h("label", { for: domId }, label), input, shown] };
}

function resultTable(prefix, alphas, result) {
  const head = h(
    "tr",
    {},
    h("th", {}, "Action"),
    h("th", {}, "α (win, draw, loss)"),
    FIELDS.map(([, title]) => h("th", {}, title)),
  );
  const rows = alphas.map((alpha, i) =>
    h(
      "tr",
      {},
      h("td", {}, `a${i + 1}`),
      h("td", { class: "mw-nowrap" }, alpha.join(", ")),
      FIELDS.map(([field]) =>
        h(
          "td",
          { "data-testid": `lx-${prefix}-${field}-${i}` },
          fixed(result[field][i], 6),
          // The policy also as a bar: the share of the matchbox's beads this action gets.
          field === "q"
            ? h("span", {
                class: "mw-qbar",
                "aria-hidden": "true",
                style: { width: `${(100 * result.q[i]).toFixed(1)}%` },
              })
            : null,
        ),
      ),
    ),
  );
  return h(
    "div",
    { class: "mw-scroll" },
    h("table", { class: "mw-table", "data-testid": `lx-${prefix}-table` }, h("thead", {}, head), h("tbody", {}, rows)),
  );
}

function render({ model, el }) {
  const view = ++viewCount;
  const commit = (changes) => {
    model.set(changes);
    sync(model);
  };

  const lam = slider({
    id: "lx-lam",
    label: "λ (epistemic weight)",
    min: 0,
    max: 2,
    step: 0.01,
    value: model.get("lam"),
    onInput: (v) => commit({ lam: v }),
    view,
  });
  const temp = slider({
    id: "lx-lambda-policy",
    label: "λ_policy (softmax temperature)",
    min: 0.01,
    max: 2,
    step: 0.01,
    value: model.get("lambda_policy"),
    onInput: (v) => commit({ lambda_policy: v }),
    view,
  });
  const prefSliders = OUTCOMES.map((name, k) =>
    slider({
      id: `lx-w-${name}`,
      label: `Preference weight: ${name}`,
      min: 0.001,
      max: 1,
      step: 0.001,
      value: model.get("pref_weights")[k],
      onInput: (v) => {
        const w = model.get("pref_weights").slice();
        w[k] = v;
        commit({ pref_weights: w });
      },
      view,
    }),
  );
  const riskSelect = h(
    "select",
    { class: "mw-select", "data-testid": "lx-risk-form", "aria-label": "Risk form" },
    h("option", { value: "kl" }, "KL(q‖p) (thesis implementation)"),
    h("option", { value: "cross_entropy" }, "cross-entropy −E_q[ln p]"),
  );
  riskSelect.addEventListener("change", () => commit({ risk_form: riskSelect.value }));

  const prefsShown = h("p", { class: "mw-prefs", "data-testid": "lx-prefs" });
  const worked = h("div", { class: "mw-section" });
  const custom = h("div", { class: "mw-section" });
  const alphaInputs = h("div", { class: "mw-alpha-grid", "data-testid": "lx-alpha-inputs" });
  const customError = h("p", { class: "mw-error", role: "alert", "data-testid": "lx-custom-error" });
  const addButton = h("button", { type: "button", class: "mw-button", "data-testid": "lx-add" }, "+ action");
  const removeButton = h("button", { type: "button", class: "mw-button", "data-testid": "lx-remove" }, "− action");

  // The reader's counts are edited locally; only a valid state is committed to the model.
  let draft = model.get("custom_alphas").map((row) => row.slice());

  function commitDraft() {
    const bad = [];
    draft.forEach((row, i) =>
      row.forEach((v, k) => {
        if (!Number.isFinite(v) || v <= 0) bad.push(`a${i + 1} ${OUTCOMES[k]}`);
      }),
    );
    if (bad.length) {
      customError.textContent = `Counts must be numbers > 0 (Dirichlet pseudo-counts); check ${bad.join(", ")}.`;
      custom.replaceChildren();
      return;
    }
    customError.textContent = "";
    commit({ custom_alphas: draft.map((row) => row.slice()) });
    // Back to the last valid counts fires no change event: redraw the table anyway.
    update();
  }

  function buildAlphaInputs() {
    alphaInputs.replaceChildren(
      h(
        "table",
        { class: "mw-table" },
        h("thead", {}, h("tr", {}, h("th", {}, "Action"), OUTCOMES.map((o) => h("th", {}, `α ${o}`)))),
        h(
          "tbody",
          {},
          draft.map((row, i) =>
            h(
              "tr",
              {},
              h("td", {}, `a${i + 1}`),
              row.map((v, k) => {
                const input = h("input", {
                  type: "number",
                  class: "mw-alpha",
                  min: 0.01,
                  step: "any",
                  value: v,
                  "data-testid": `lx-alpha-${i}-${k}`,
                  "aria-label": `action ${i + 1}, ${OUTCOMES[k]} count`,
                });
                input.addEventListener("input", () => {
                  draft[i][k] = input.value === "" ? NaN : Number(input.value);
                  commitDraft();
                });
                return h("td", {}, input);
              }),
            ),
          ),
        ),
      ),
    );
    addButton.disabled = draft.length >= MAX_ACTIONS;
    removeButton.disabled = draft.length <= 1;
  }

  addButton.addEventListener("click", () => {
    if (draft.length >= MAX_ACTIONS) return;
    draft.push([1, 1, 1]);
    buildAlphaInputs();
    commitDraft();
  });
  removeButton.addEventListener("click", () => {
    if (draft.length <= 1) return;
    draft.pop();
    buildAlphaInputs();
    commitDraft();
  });

  const root = h(
    "div",
    { class: "mw mw-lambda", "data-testid": "lambda-explorer" },
    h("div", { class: "mw-sliders" }, lam.row, temp.row, prefSliders.map((s) => s.row)),
    prefsShown,
    h("label", {}, "Risk ", riskSelect),
    h("div", { class: "mw-section" }, h("h4", {}, "Thesis Table 7.1: one state, three actions"), worked),
    h(
      "div",
      { class: "mw-section" },
      h("h4", {}, "Your state: outcome counts per action"),
      alphaInputs,
      h("div", { class: "mw-buttons" }, addButton, removeButton),
      customError,
      custom,
    ),
  );
  el.append(root);

  function update() {
    const weights = model.get("pref_weights");
    const prefs = normalise(weights);
    const params = {
      prefs,
      lam: model.get("lam"),
      lambdaPolicy: model.get("lambda_policy"),
      riskForm: model.get("risk_form"),
      scale: model.get("scale"),
    };
    lam.input.value = String(params.lam);
    lam.shown.textContent = params.lam.toFixed(2);
    temp.input.value = String(params.lambdaPolicy);
    temp.shown.textContent = params.lambdaPolicy.toFixed(2);
    prefSliders.forEach((s, k) => {
      s.input.value = String(weights[k]);
      s.shown.textContent = weights[k].toFixed(3);
    });
    riskSelect.value = params.riskForm;
    prefsShown.replaceChildren(
      "Normalised preferences p(win, draw, loss) = (",
      ...prefs.flatMap((p, k) => [
        h("span", { "data-testid": `lx-p-${OUTCOMES[k]}` }, fixed(p, 6)),
        k < 2 ? ", " : "",
      ]),
      ")",
    );
    const table = (prefix, alphas, target) => {
      try {
        target.replaceChildren(resultTable(prefix, alphas, explore({ alphas, ...params })));
      } catch (error) {
        target.replaceChildren(h("p", { class: "mw-error" }, String(error.message)));
      }
    };
    table("worked", model.get("worked_alphas"), worked);
    if (!customError.textContent) table("custom", model.get("custom_alphas"), custom);
  }

  // Counts set from Python replace the draft (the reader's own edits already match it).
  const refreshDraft = () => {
    const counts = model.get("custom_alphas");
    if (JSON.stringify(counts) === JSON.stringify(draft)) return;
    draft = counts.map((row) => row.slice());
    customError.textContent = "";
    buildAlphaInputs();
  };
  model.on("change:custom_alphas", refreshDraft);
  model.on("change", update);
  buildAlphaInputs();
  update();
  return () => {
    model.off("change", update);
    model.off("change:custom_alphas", refreshDraft);
  };
}

export default { render };
