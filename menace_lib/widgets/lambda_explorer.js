// Lambda explorer: sliders for the epistemic weight lambda, the softmax temperature
// lambda_policy and the preference weights; tables of risk, epistemic value, G, policy
// and beads for the thesis's worked example and for a state the reader types in.
// All maths is efe_math.js's `explore` (tested against menace_lib.maths.efe to 1e-9). Numbers are
// shown to 3 decimals (beads as whole beads, as in a matchbox); each table cell keeps the
// full value in data-value, and its data-testid is lx-<table>-<field>-<row>.
// The settings live in the page's URL fragment under the key "lambda" (fragment.js), so a
// link restores them; "Reset to defaults" goes back to the values the widget was built with.
import { explore } from "./efe_math.js";
import { h, sync } from "./common.js";
import { MAX_FRAGMENT_VALUE, readPageParam, shortText, writePageParam } from "./fragment.js";

const OUTCOMES = ["win", "draw", "loss"];
const FIELDS = [
  ["risk", "Risk", 3],
  ["epistemic", "Epistemic I(o;θ)", 3],
  ["G", "G", 3],
  ["q", "Policy q(a)", 3],
  ["beads", "Beads", 0],
];
const MAX_ACTIONS = 6;
/** Slider ranges; a link may only ask for values inside them. */
export const RANGES = {
  lam: [0, 4],
  lambda_policy: [0.01, 2],
  weight: [0.001, 1],
};
const RISK_FORMS = ["kl", "cross_entropy"];
export const FRAGMENT_KEY = "lambda";
/** The traits a link and "Reset to defaults" restore. */
export const SETTINGS = ["lam", "lambda_policy", "pref_weights", "risk_form", "custom_alphas"];

/** Preference weights (each > 0) divided by their sum, as the Python side does. */
export function normalise(weights) {
  const total = weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => w / total);
}

/** A number for the page: `places` decimals; whole numbers when places is 0. */
export function shown(value, places) {
  const text = Number(value).toFixed(places);
  return text === "-0" || /^-0\.0*$/.test(text) ? text.slice(1) : text;
}

/** The settings as a fragment value: "lam:2.6;pol:0.25;w:0.6,0.35,0.05;risk:kl;a:1,1,1/4,2,1". */
export function encodeSettings(s) {
  return [
    `lam:${s.lam}`,
    `pol:${s.lambda_policy}`,
    `w:${s.pref_weights.join(",")}`,
    `risk:${s.risk_form}`,
    `a:${s.custom_alphas.map((row) => row.join(",")).join("/")}`,
  ].join(";");
}

function numberIn(name, text, [lo, hi]) {
  const v = Number(text);
  if (text.trim() === "" || !Number.isFinite(v)) throw new Error(`${name} "${shortText(text)}" is not a number`);
  if (v < lo || v > hi) throw new Error(`${name} = ${shortText(text)} is outside ${lo}–${hi}`);
  return v;
}

function positiveList(name, text, length) {
  if (text.length > 200) throw new Error(`${name} "${shortText(text)}" is too long`);
  const values = text.split(",").map((x) => Number(x));
  if (values.length !== length || values.some((v, i) => !Number.isFinite(v) || text.split(",")[i].trim() === "")) {
    throw new Error(`${name} "${shortText(text)}" must be ${length} numbers separated by commas`);
  }
  if (values.some((v) => v <= 0)) throw new Error(`${name} "${shortText(text)}" must all be > 0`);
  return values;
}

/**
 * Parse a fragment value back into settings. Missing fields keep `base`'s values; any bad
 * field throws an Error whose message names it and its value.
 */
export function decodeSettings(text, base) {
  if (text.length > MAX_FRAGMENT_VALUE) throw new RangeError(`the settings are ${text.length} characters long`);
  const out = { ...base };
  for (const item of text.split(";")) {
    if (item === "") continue;
    const colon = item.indexOf(":");
    const [name, value] = colon < 0 ? [item, ""] : [item.slice(0, colon), item.slice(colon + 1)];
    if (name === "lam") out.lam = numberIn("λ", value, RANGES.lam);
    else if (name === "pol") out.lambda_policy = numberIn("λ_policy", value, RANGES.lambda_policy);
    else if (name === "w") {
      const w = positiveList("preference weights", value, 3);
      w.forEach((x) => numberIn("a preference weight", String(x), RANGES.weight));
      out.pref_weights = w;
    } else if (name === "risk") {
      if (!RISK_FORMS.includes(value)) throw new Error(`risk "${shortText(value)}" must be one of ${RISK_FORMS.join(", ")}`);
      out.risk_form = value;
    } else if (name === "a") {
      const rows = value.split("/", MAX_ACTIONS + 1);
      if (rows.length < 1 || rows.length > MAX_ACTIONS) {
        throw new Error(`counts "${shortText(value)}" must give 1 to ${MAX_ACTIONS} actions`);
      }
      out.custom_alphas = rows.map((row, i) => positiveList(`counts of action ${i + 1}`, row, 3));
    } else {
      throw new Error(`unknown setting "${shortText(name)}"`);
    }
  }
  return out;
}

let viewCount = 0;

function slider({ id, label, range, step, value, onInput, view }) {
  const domId = `${id}-${view}`; // unique even with several explorers on one page
  const input = h("input", {
    type: "range",
    min: range[0],
    max: range[1],
    step,
    value,
    id: domId,
    "data-testid": id,
  });
  const out = h("output", { class: "mw-value", for: domId, "data-testid": `${id}-value` });
  input.addEventListener("input", () => onInput(Number(input.value)));
  return { input, shown: out, row: [h("label", { for: domId }, label), input, out] };
}

function resultTable(prefix, alphas, result, caption) {
  const head = h(
    "tr",
    {},
    h("th", { scope: "col" }, "Action"),
    h("th", { scope: "col" }, "α (win, draw, loss)"),
    FIELDS.map(([, title]) => h("th", { scope: "col" }, title)),
  );
  const rows = alphas.map((alpha, i) =>
    h(
      "tr",
      {},
      h("th", { scope: "row" }, `a${i + 1}`),
      h("td", { class: "mw-nowrap" }, alpha.join(", ")),
      FIELDS.map(([field, , places]) =>
        h(
          "td",
          { "data-testid": `lx-${prefix}-${field}-${i}`, "data-value": String(result[field][i]) },
          shown(result[field][i], places),
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
    h(
      "table",
      { class: "mw-table", "data-testid": `lx-${prefix}-table` },
      h("caption", { class: "mw-visually-hidden" }, caption),
      h("thead", {}, head),
      h("tbody", {}, rows),
    ),
  );
}

function render({ model, el }) {
  const view = ++viewCount;
  const commit = (changes) => {
    model.set(changes);
    sync(model);
  };
  const settings = () => Object.fromEntries(SETTINGS.map((k) => [k, model.get(k)]));
  const defaults = () => ({ ...settings(), ...(model.get("defaults") || {}) });
  // Every change made on the page is written to the link; reset removes it again.
  const commitAndLink = (changes) => {
    commit(changes);
    writePageParam(FRAGMENT_KEY, encodeSettings(settings()));
  };

  const lam = slider({
    id: "lx-lam",
    label: "λ (epistemic weight)",
    range: RANGES.lam,
    step: 0.01,
    value: model.get("lam"),
    onInput: (v) => commitAndLink({ lam: v }),
    view,
  });
  const temp = slider({
    id: "lx-lambda-policy",
    label: "λ_policy (softmax temperature)",
    range: RANGES.lambda_policy,
    step: 0.01,
    value: model.get("lambda_policy"),
    onInput: (v) => commitAndLink({ lambda_policy: v }),
    view,
  });
  const prefSliders = OUTCOMES.map((name, k) =>
    slider({
      id: `lx-w-${name}`,
      label: `Preference weight: ${name}`,
      range: RANGES.weight,
      step: 0.001,
      value: model.get("pref_weights")[k],
      onInput: (v) => {
        const w = model.get("pref_weights").slice();
        w[k] = v;
        commitAndLink({ pref_weights: w });
      },
      view,
    }),
  );
  const riskId = `lx-risk-form-${view}`;
  const riskSelect = h(
    "select",
    { class: "mw-select", id: riskId, "data-testid": "lx-risk-form" },
    h("option", { value: "kl" }, "KL(q‖p), as the thesis code"),
    h("option", { value: "cross_entropy" }, "cross-entropy −E_q[ln p]"),
  );
  riskSelect.addEventListener("change", () => commitAndLink({ risk_form: riskSelect.value }));

  const prefsShown = h("p", { class: "mw-prefs", "data-testid": "lx-prefs" });
  const worked = h("div", { class: "mw-section" });
  const custom = h("div", { class: "mw-section" });
  const alphaInputs = h("div", { class: "mw-alpha-grid", "data-testid": "lx-alpha-inputs" });
  const customError = h("p", { class: "mw-error", role: "alert", "data-testid": "lx-custom-error" });
  const linkStatus = h("p", { class: "mw-caption", role: "status", "data-testid": "lx-link-status" });
  const addButton = h("button", { type: "button", class: "mw-button", "data-testid": "lx-add" }, "+ action");
  const removeButton = h("button", { type: "button", class: "mw-button", "data-testid": "lx-remove" }, "− action");
  const resetButton = h(
    "button",
    { type: "button", class: "mw-button", "data-testid": "lx-reset" },
    "Reset to defaults",
  );

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
    commitAndLink({ custom_alphas: draft.map((row) => row.slice()) });
    // Back to the last valid counts fires no change event: redraw the table anyway.
    update();
  }

  function buildAlphaInputs() {
    alphaInputs.replaceChildren(
      h(
        "table",
        { class: "mw-table" },
        h("caption", { class: "mw-visually-hidden" }, "Your outcome counts per action"),
        h(
          "thead",
          {},
          h("tr", {}, h("th", { scope: "col" }, "Action"), OUTCOMES.map((o) => h("th", { scope: "col" }, `α ${o}`))),
        ),
        h(
          "tbody",
          {},
          draft.map((row, i) =>
            h(
              "tr",
              {},
              h("th", { scope: "row" }, `a${i + 1}`),
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
  resetButton.addEventListener("click", () => {
    customError.textContent = "";
    linkStatus.textContent = "";
    commit(defaults());
    writePageParam(FRAGMENT_KEY, null);
    refreshDraft(true);
    update();
  });

  const root = h(
    "div",
    { class: "mw mw-lambda", "data-testid": "lambda-explorer" },
    h("div", { class: "mw-sliders" }, lam.row, temp.row, prefSliders.map((s) => s.row)),
    prefsShown,
    h("div", { class: "mw-controls" }, h("label", { for: riskId }, "Risk "), riskSelect, resetButton),
    linkStatus,
    h("div", { class: "mw-section" }, h("h3", {}, "Thesis Table 7.1: one state, three actions"), worked),
    h(
      "div",
      { class: "mw-section" },
      h("h3", {}, "Your state: outcome counts per action"),
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
        h("span", { "data-testid": `lx-p-${OUTCOMES[k]}`, "data-value": String(p) }, shown(p, 3)),
        k < 2 ? ", " : "",
      ]),
      ")",
    );
    const table = (prefix, alphas, target, caption) => {
      try {
        target.replaceChildren(resultTable(prefix, alphas, explore({ alphas, ...params }), caption));
      } catch (error) {
        target.replaceChildren(h("p", { class: "mw-error" }, String(error.message)));
      }
    };
    table("worked", model.get("worked_alphas"), worked, "Expected free energy of thesis Table 7.1's three actions");
    if (!customError.textContent) {
      table("custom", model.get("custom_alphas"), custom, "Expected free energy of your actions");
    }
  }

  // Counts set from Python (or by a reset) replace the draft.
  function refreshDraft(force = false) {
    const counts = model.get("custom_alphas");
    if (!force && JSON.stringify(counts) === JSON.stringify(draft)) return;
    draft = counts.map((row) => row.slice());
    customError.textContent = "";
    buildAlphaInputs();
  }

  // A link's settings, applied once the widget is built (and again if the fragment changes).
  function applyLink() {
    try {
      const text = readPageParam(FRAGMENT_KEY); // over-long values are refused unread
      if (text === null) return;
      commit(decodeSettings(text, settings()));
      linkStatus.textContent = "Settings restored from the link.";
    } catch (error) {
      linkStatus.textContent = `The link's settings were not used: ${error.message}.`;
    }
    refreshDraft();
    update();
  }

  const onDraftChange = () => refreshDraft();
  model.on("change:custom_alphas", onDraftChange);
  model.on("change", update);
  window.addEventListener("hashchange", applyLink);
  buildAlphaInputs();
  update();
  applyLink();
  return () => {
    model.off("change", update);
    model.off("change:custom_alphas", onDraftChange);
    window.removeEventListener("hashchange", applyLink);
  };
}

export default { render };
