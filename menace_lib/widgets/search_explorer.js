// The search chapter's live figure (menace_lib.widgets.search_explorer.SearchExplorer):
// each searcher's loss against the perfect player at the training games and simulations
// a move the reader picks, as a bar to the mean over seeds with its 95 % interval. Every
// number arrives in the `data` trait (menace_lib.book.beyond.hybrid_figures.explorer_data,
// computed once from the cached sweep); this module only selects a cell and draws it.
// Test ids: se-games, se-games-value, se-sims, se-sims-value (the sliders and their
// values), se-row-<arm>, se-loss-<arm> (data-value: the mean loss in %, full number,
// empty when not scored), se-low-<arm>, se-high-<arm>, se-note, se-error.
import { h } from "./common.js";

let viewCount = 0;

/** Where a loss (in %) sits on the bars' axis, 0-1: linear up to 1 %, then logarithmic
 * (1-10 % and 10-100 % take equal lengths), as the chapter's figure draws it. */
export function axisPosition(percent) {
  const v = Math.max(0, Math.min(100, percent));
  const linear = 0.25;
  return v <= 1 ? linear * v : linear + ((1 - linear) * Math.log10(v)) / 2;
}

/** A loss in % for reading: "0" for an exact 0, two decimals, three below 0.1 %. */
export function percentText(percent) {
  if (percent === 0) return "0";
  return percent < 0.1 ? percent.toFixed(3) : percent.toFixed(2);
}

/** The problem with `data` (a string), or null if the page can draw it. */
export function dataProblem(data) {
  if (!data || typeof data !== "object") return "no data";
  const { checkpoints, budgets, arms } = data;
  if (!Array.isArray(checkpoints) || !checkpoints.length) return "no checkpoints";
  if (!Array.isArray(budgets) || !budgets.length) return "no budgets";
  if (!Array.isArray(arms) || !arms.length) return "no searchers";
  for (const arm of arms) {
    if (!Array.isArray(arm.loss) || arm.loss.length !== checkpoints.length) return `searcher ${arm.arm}: one row per checkpoint needed`;
    for (const row of arm.loss) {
      if (!Array.isArray(row) || row.length !== budgets.length) return `searcher ${arm.arm}: one cell per budget needed`;
      for (const cell of row) {
        if (cell === null) continue;
        if (![cell.mean, cell.low, cell.high].every(Number.isFinite)) return `searcher ${arm.arm}: a loss is not a number`;
      }
    }
  }
  return null;
}

const games = (n) => `${Number(n).toLocaleString("en-GB")} game${n === 1 ? "" : "s"}`;
const sims = (n) => `${n} simulation${n === 1 ? "" : "s"} a move`;

function render({ model, el }) {
  const view = ++viewCount;
  const data = model.get("data");
  const problem = dataProblem(data);
  if (problem) {
    el.append(h("div", { class: "mw mw-se" }, h("p", { class: "mw-status", role: "alert", "data-testid": "se-error" }, `This figure cannot be drawn: ${problem}.`)));
    return undefined;
  }
  const { checkpoints, budgets, arms } = data;
  const clampIndex = (i, n) => Math.min(n - 1, Math.max(0, Math.round(Number(i)) || 0));

  const gamesId = `se-games-${view}`;
  const simsId = `se-sims-${view}`;
  const gamesSlider = h("input", { type: "range", min: 0, max: checkpoints.length - 1, step: 1, id: gamesId, "data-testid": "se-games" });
  const simsSlider = h("input", { type: "range", min: 0, max: budgets.length - 1, step: 1, id: simsId, "data-testid": "se-sims" });
  const gamesShown = h("output", { class: "mw-value", for: gamesId, "data-testid": "se-games-value" });
  const simsShown = h("output", { class: "mw-value", for: simsId, "data-testid": "se-sims-value" });
  gamesSlider.addEventListener("input", () => {
    model.set("checkpoint", Number(gamesSlider.value));
    update();
  });
  simsSlider.addEventListener("input", () => {
    model.set("budget", Number(simsSlider.value));
    update();
  });

  const ticks = [0, 0.5, 1, 10, 100];
  const axis = h(
    "div",
    { class: "mw-se-axis", "aria-hidden": "true" },
    ticks.map((v) => h("span", { class: "mw-se-tick", style: { left: `${(100 * axisPosition(v)).toFixed(2)}%` } }, v === 100 ? "100 %" : String(v))),
  );

  const rows = arms.map((arm) => {
    const sampled = arm.scored === "sampled";
    const fill = h("span", { class: `mw-se-bar${sampled ? " mw-se-sampled" : ""}`, style: { "--mw-se-colour": arm.colour } });
    const whisker = h("span", { class: "mw-se-whisker" });
    const number = h("span", { class: "mw-se-num", "data-testid": `se-loss-${arm.arm}` });
    const low = h("span", { class: "mw-se-num", "data-testid": `se-low-${arm.arm}` });
    const high = h("span", { class: "mw-se-num", "data-testid": `se-high-${arm.arm}` });
    const interval = h("span", { class: "mw-se-interval" }, " [", low, ", ", high, "]");
    const missing = h("span", { class: "mw-se-missing" });
    const tags = [sampled ? "sampled" : "exact", arm.searches ? null : "no search", arm.once ? "reads nothing learnt" : null].filter(Boolean);
    const row = h(
      "div",
      { class: "mw-se-row", role: "group", "aria-label": arm.name, "data-testid": `se-row-${arm.arm}` },
      h(
        "p",
        { class: "mw-se-name" },
        h("span", { class: `mw-se-swatch${sampled ? " mw-se-sampled" : ""}`, style: { "--mw-se-colour": arm.colour }, "aria-hidden": "true" }),
        h("span", {}, arm.name),
        h("span", { class: "mw-se-tag" }, ` (${tags.join(", ")})`),
      ),
      h("span", { class: "mw-se-track", "aria-hidden": "true" }, fill, whisker),
      h("p", { class: "mw-se-value" }, number, interval, missing),
    );
    return { arm, row, fill, whisker, number, low, high, interval, missing };
  });

  const note = h("p", { class: "mw-status", role: "status", "aria-live": "polite", "data-testid": "se-note" });
  el.append(
    h(
      "div",
      { class: "mw mw-se", "data-testid": "search-explorer" },
      h(
        "div",
        { class: "mw-se-sliders" },
        h("label", { for: gamesId }, "Training games"),
        gamesSlider,
        gamesShown,
        h("label", { for: simsId }, "Simulations a move"),
        simsSlider,
        simsShown,
      ),
      note,
      h("p", { class: "mw-caption mw-se-head" }, "Loss against the perfect player, % (mean over seeds [95 % interval])"),
      rows.map((r) => r.row),
      axis,
      h(
        "p",
        { class: "mw-caption" },
        `${data.seeds} seeds. Exact: the loss probability over every game the perfect player's replies allow (solid bars). ` +
          `Sampled: the loss rate over ${data.sampled_games} games a seed (striped bars). The whisker is the 95 % interval over seeds; ` +
          "the scale is linear below 1 % and logarithmic above.",
      ),
    ),
  );

  function update() {
    const i = clampIndex(model.get("checkpoint"), checkpoints.length);
    const j = clampIndex(model.get("budget"), budgets.length);
    gamesSlider.value = String(i);
    simsSlider.value = String(j);
    gamesShown.textContent = checkpoints[i].toLocaleString("en-GB");
    simsShown.textContent = String(budgets[j]);
    gamesSlider.setAttribute("aria-valuetext", `after ${games(checkpoints[i])}`);
    simsSlider.setAttribute("aria-valuetext", sims(budgets[j]));
    let best = null; // the lowest mean loss and every searcher that reaches it
    for (const r of rows) {
      const cell = r.arm.loss[i][j];
      const shown = cell !== null;
      r.row.classList.toggle("mw-se-unscored", !shown);
      r.interval.hidden = !shown;
      r.fill.hidden = !shown;
      r.whisker.hidden = !shown;
      r.missing.textContent = shown ? "" : `not scored after ${games(checkpoints[i])}`;
      if (!shown) {
        r.number.textContent = "";
        r.number.dataset.value = "";
        continue;
      }
      const [m, lo, hi] = [cell.mean, Math.max(0, cell.low), cell.high].map((v) => 100 * v);
      r.number.textContent = `${percentText(m)} %`;
      r.number.dataset.value = String(100 * cell.mean);
      r.low.textContent = percentText(lo);
      r.high.textContent = percentText(hi);
      r.fill.style.width = `${(100 * axisPosition(m)).toFixed(2)}%`;
      const left = axisPosition(lo);
      r.whisker.style.left = `${(100 * left).toFixed(2)}%`;
      r.whisker.style.width = `${(100 * (axisPosition(hi) - left)).toFixed(2)}%`;
      if (best === null || cell.mean < best.mean) best = { mean: cell.mean, names: [r.arm.name] };
      else if (cell.mean === best.mean) best.names.push(r.arm.name);
    }
    note.textContent =
      `After ${games(checkpoints[i])} of training, ${sims(budgets[j])}: ` +
      (best ? `lowest loss ${percentText(100 * best.mean)} %, ${best.names.join("; ")}.` : "no searcher was scored here.");
  }
  update();
  return undefined;
}

export default { render };
