// Counting versus MENACE's bead rule (menace_lib.widgets.live_figures.CountVsBeads): one
// game history fed to two copies of one matchbox. The counting box adds pseudo-counts
// after each game and never removes any (a conjugate update); MENACE's box follows the
// bead rule of beads.js (the tested copy of menace_lib.machine.beads): +3 / +1 / −1,
// clamped, and refilled when it empties. replayHistory is the declared copy of
// live_figures.replay_history (tests/test_live_figures.py compares them over a grid).
// Test ids: cb-move-<j>, cb-win/-draw/-loss, cb-sample, cb-undo, cb-clear,
// cb-count-<j> and cb-menace-<j> (data-value: the count), cb-games, cb-history.
import { isEmpty, reinforce } from "./beads.js";
import { h } from "./common.js";
import { bar, count, fmt, miniBoard, moveLabel, resultButtons } from "./live_parts.js";

/**
 * The two boxes after each game of `history` ([colour, result] pairs). Returns
 * [{counting, menace, restocked}], or throws if a game plays a colour MENACE's box has
 * no beads of (such a bead cannot be drawn).
 */
export function replayHistory(initial, history, rules, counting) {
  const countBox = [initial.slice()];
  const beadBox = [initial.slice()];
  const out = [];
  history.forEach(([j, r], step) => {
    if (!(beadBox[0][j] > 0)) throw new Error(`game ${step + 1}: colour ${j} has no beads and cannot be drawn`);
    reinforce(countBox, [initial], [initial], [[0, j]], counting[r], "none", 0);
    const unrestocked = [beadBox[0].slice()];
    reinforce(unrestocked, [initial], [initial], [[0, j]], rules.reinforcement[r], "none", rules.floor);
    reinforce(beadBox, [initial], [initial], [[0, j]], rules.reinforcement[r], rules.restock, rules.floor);
    out.push({
      counting: countBox[0].slice(),
      menace: beadBox[0].slice(),
      restocked: rules.restock === "box" && isEmpty(unrestocked[0]),
    });
  });
  return out;
}

function signed(x) {
  return x > 0 ? `+${count(x)}` : x < 0 ? `−${count(-x)}` : "0";
}

function render({ model, el }) {
  const box = model.get("box");
  const results = model.get("results");
  const counting = model.get("counting");
  const sample = model.get("sample");
  const rules = { reinforcement: box.reinforcement, restock: box.restock, floor: box.floor };
  const initial = box.beads.slice();
  const k = initial.length;
  let history = [];
  let chosen = 0;

  const status = h("p", { class: "mw-status", role: "status", "aria-live": "polite", "data-testid": "cb-status" });
  const moveButtons = initial.map((_, j) => {
    const b = h(
      "button",
      { type: "button", class: "mw-button mw-live-pick", "data-testid": `cb-move-${j}`, "aria-pressed": "false" },
      moveLabel(box, j),
    );
    b.addEventListener("click", () => {
      chosen = j;
      update();
    });
    return b;
  });
  const resultRow = resultButtons(results, "cb", (r) => {
    history = [...history, [chosen, r]];
    update();
  });
  const sampleButton = h("button", { type: "button", class: "mw-button mw-primary", "data-testid": "cb-sample" }, "Replay a sample history");
  const undo = h("button", { type: "button", class: "mw-button", "data-testid": "cb-undo" }, "Undo last game");
  const clear = h("button", { type: "button", class: "mw-button", "data-testid": "cb-clear" }, "Clear");
  sampleButton.addEventListener("click", () => {
    history = sample.map((p) => p.slice());
    update();
  });
  undo.addEventListener("click", () => {
    history = history.slice(0, -1);
    update();
  });
  clear.addEventListener("click", () => {
    history = [];
    update();
  });

  function panel(prefix, title, rule) {
    const rows = initial.map((_, j) => {
      const n = h("span", { class: "mw-live-num", "data-testid": `cb-${prefix}-${j}` });
      const p = h("span", { class: "mw-live-num" });
      const flag = h("span", { class: "mw-live-flag", "data-testid": `cb-${prefix}-flag-${j}` });
      const barCell = h("span", { class: "mw-live-barcell" });
      return { n, p, flag, barCell, row: h("div", { class: "mw-live-row", role: "row" }, h("span", { role: "rowheader" }, moveLabel(box, j)), h("span", { role: "cell" }, n), h("span", { class: "mw-live-pcell", role: "cell" }, barCell, p), h("span", { role: "cell" }, flag)) };
    });
    const summary = h("p", { class: "mw-caption", "data-testid": `cb-${prefix}-summary` });
    const root = h(
      "section",
      { class: "mw-live-panel", "aria-label": title },
      h("h4", { class: "mw-live-subtitle" }, title),
      h("p", { class: "mw-caption" }, rule),
      h(
        "div",
        { class: "mw-live-grid mw-live-compare", role: "table", "aria-label": `${title}: beads and chance of playing each move` },
        h("div", { class: "mw-live-row mw-live-head", role: "row" }, ["Move", "Count", "Chance", ""].map((t) => h("span", { role: "columnheader" }, t))),
        rows.map((r) => r.row),
      ),
      summary,
    );
    return { root, rows, summary };
  }

  const rule = (deltas) => results.names.map((name, r) => `${signed(deltas[r])} after a ${name}`).join(", ");
  const countPanel = panel("count", "Counting", `${rule(counting)}: counts only grow.`);
  const beadPanel = panel("menace", "MENACE's beads", `${rule(rules.reinforcement)}; an empty box gets its first beads back.`);
  const games = h("p", { class: "mw-caption", "data-testid": "cb-games" });
  const list = h("ol", { class: "mw-live-history", "data-testid": "cb-history" });

  el.append(
    h(
      "div",
      { class: "mw mw-live", "data-testid": "count-vs-beads" },
      h(
        "div",
        { class: "mw-live-top" },
        miniBoard(box),
        h(
          "div",
          {},
          h("p", { class: "mw-live-title" }, `Matchbox ${box.number}: the same games, two rules`),
          h("p", { class: "mw-caption" }, "Choose the move played, then how the game ended."),
        ),
      ),
      h("div", { class: "mw-live-buttons", role: "group", "aria-label": "The move played" }, moveButtons),
      h("div", { class: "mw-live-buttons", role: "group", "aria-label": "How the game ended" }, h("span", {}, "The game was"), resultRow),
      h("div", { class: "mw-live-buttons" }, sampleButton, undo, clear),
      status,
      games,
      h("div", { class: "mw-live-panels" }, countPanel.root, beadPanel.root),
      h("details", { class: "mw-live-details" }, h("summary", {}, "The games so far"), list),
    ),
  );

  function fill(p, counts) {
    const total = counts.reduce((a, b) => a + b, 0);
    let below = 0;
    let empty = 0;
    p.rows.forEach((r, j) => {
      r.n.textContent = count(counts[j]);
      r.n.dataset.value = String(counts[j]);
      const share = total > 0 ? counts[j] / total : 0;
      r.p.textContent = fmt(share, 2);
      r.barCell.replaceChildren(bar(share, box.colours[j]));
      const flags = [];
      if (counts[j] <= 0) {
        flags.push("empty");
        empty += 1;
      } else if (counts[j] < initial[j]) {
        flags.push("below start");
      }
      if (counts[j] < initial[j]) below += 1;
      r.flag.textContent = flags.join(", ");
    });
    return { below, empty };
  }

  function update() {
    let steps;
    try {
      steps = replayHistory(initial, history, rules, counting);
    } catch (error) {
      history = history.slice(0, -1);
      status.textContent = `That game cannot happen: ${error.message}.`;
      return;
    }
    const last = steps.length ? steps[steps.length - 1] : { counting: initial, menace: initial, restocked: false };
    const c = fill(countPanel, last.counting);
    const m = fill(beadPanel, last.menace);
    const restocks = steps.filter((s) => s.restocked).length;
    countPanel.summary.textContent = `Every count at or above its start (${c.below} below).`;
    beadPanel.summary.textContent =
      `${m.below} of ${k} colours below their start, ${m.empty} empty` + (restocks ? `; the box emptied and was refilled ${restocks} time${restocks > 1 ? "s" : ""}.` : ".");
    beadPanel.summary.dataset.restocks = String(restocks);
    games.textContent = `${history.length} game${history.length === 1 ? "" : "s"} played.`;
    games.dataset.value = String(history.length);
    // A colour with no beads cannot be drawn: MENACE could not have played it.
    if (last.menace[chosen] <= 0) chosen = Math.max(0, last.menace.findIndex((b) => b > 0));
    const playable = last.menace.some((b) => b > 0);
    resultRow.forEach((b) => {
      b.disabled = !playable; // an empty box nothing refills: MENACE resigns, no game to record
    });
    moveButtons.forEach((b, j) => {
      b.setAttribute("aria-pressed", String(j === chosen));
      b.disabled = last.menace[j] <= 0;
      b.title = last.menace[j] <= 0 ? "MENACE has no bead of this colour: it cannot play this move" : "";
    });
    list.replaceChildren(
      ...history.map(([j, r], i) =>
        h(
          "li",
          {},
          `square ${box.squares[j]} (${box.colour_names[j]}), ${results.names[r]}: counting ${steps[i].counting.map(count).join("·")}, MENACE ${steps[i].menace.map(count).join("·")}`,
          steps[i].restocked ? " (box emptied, refilled)" : "",
        ),
      ),
    );
    undo.disabled = history.length === 0;
    clear.disabled = history.length === 0;
    const g = history.length;
    if (g) {
      const [j, r] = history[g - 1];
      status.textContent = `Game ${g}: square ${box.squares[j]}, ${results.names[r]}. Counting ${signed(counting[r])}, MENACE ${signed(rules.reinforcement[r])}.` + (last.restocked ? " MENACE's box emptied and was refilled." : "");
    } else {
      status.textContent = "No games yet: both boxes hold their first beads.";
    }
  }
  update();
  return undefined;
}

export default { render };
