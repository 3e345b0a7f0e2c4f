// One matchbox read as a Dirichlet belief (menace_lib.widgets.live_figures.DirichletBox).
// The reader adds or removes a bead of any colour, or plays a game: a bead is drawn
// (the stream of prng.js, so Python replays it: live_figures.play_box_games), the game
// is won, drawn or lost, and the bead rule of beads.js (the tested copy of
// menace_lib.machine.beads) updates the box. Beside the beads: the chance of playing
// each move (the bead proportions, the posterior predictive) and the Dirichlet mean and
// variance (box_stats.js). Test ids: db-beads-<j>, db-p-<j>, db-var-<j> (data-value
// holds the full number), db-plus-<j>, db-minus-<j>, db-win/-draw/-loss, db-reset.
import { drawBead, refillEmpty, reinforce } from "./beads.js";
import { beadStatistics } from "./box_stats.js";
import { h } from "./common.js";
import { bar, count, fmt, miniBoard, moveLabel, resultButtons } from "./live_parts.js";
import { counterRng } from "./prng.js";

const MAX_COUNT = 99; // a box the reader fills by hand stays readable

/**
 * Games with one box, as live_figures.play_box_games: per game, one uniform of `seed`'s
 * stream from `position` on draws a bead, then the bead rule applies the result.
 * Returns [{colour, result, beads}], stopping at an empty box nothing refills.
 */
export function playGames(start, initial, results, seed, rules, position = 0) {
  const box = start.slice();
  const rng = counterRng(seed, position);
  const out = [];
  for (const r of results) {
    if (refillEmpty(box, initial, rules.restock) === null) break;
    const j = drawBead(box, rng.random());
    const weights = [box];
    reinforce(weights, [initial], [initial], [[0, j]], rules.reinforcement[r], rules.restock, rules.floor);
    out.push({ colour: j, result: r, beads: box.slice() });
  }
  return out;
}

/** Check the box sent by Python before drawing it (synced state is input). */
export function checkBox(box) {
  const k = box?.beads?.length;
  if (!Number.isInteger(k) || k < 1 || k > 9) throw new Error("the box must hold 1 to 9 colours");
  for (const key of ["squares", "colours", "colour_names"]) {
    if (!Array.isArray(box[key]) || box[key].length !== k) throw new Error(`the box's ${key} must list ${k} entries`);
  }
  if (box.beads.some((b) => !Number.isFinite(b) || b < 0) || box.beads.every((b) => b === 0)) {
    throw new Error("the box's beads must be counts >= 0, not all 0");
  }
  if (typeof box.board !== "string" || box.board.length !== 9) throw new Error("the box's board must have 9 squares");
  return box;
}

function render({ model, el }) {
  let box;
  try {
    box = checkBox(model.get("box"));
  } catch (error) {
    el.append(h("p", { class: "mw-error", role: "alert" }, `This figure cannot start: ${error.message}.`));
    return undefined;
  }
  const rules = { reinforcement: box.reinforcement, restock: box.restock, floor: box.floor };
  const results = model.get("results");
  const initial = box.beads.slice();
  let beads = initial.slice();
  let position = 0;
  let games = 0;

  const status = h("p", { class: "mw-status", role: "status", "aria-live": "polite", "data-testid": "db-status" });
  const total = h("span", { "data-testid": "db-total" });
  const rows = box.beads.map((_, j) => {
    const minus = h("button", { type: "button", class: "mw-button mw-live-step", "data-testid": `db-minus-${j}`, "aria-label": `remove a ${box.colour_names[j]} bead (square ${box.squares[j]})` }, "−");
    const plus = h("button", { type: "button", class: "mw-button mw-live-step", "data-testid": `db-plus-${j}`, "aria-label": `add a ${box.colour_names[j]} bead (square ${box.squares[j]})` }, "+");
    const n = h("output", { class: "mw-live-count", "data-testid": `db-beads-${j}` });
    const p = h("span", { class: "mw-live-num", "data-testid": `db-p-${j}` });
    const v = h("span", { class: "mw-live-num", "data-testid": `db-var-${j}` });
    const barCell = h("span", { class: "mw-live-barcell" });
    minus.addEventListener("click", () => change(j, -1));
    plus.addEventListener("click", () => change(j, +1));
    const row = h(
      "div",
      { class: "mw-live-row", role: "row" },
      h("span", { role: "rowheader" }, moveLabel(box, j, true)),
      h("span", { class: "mw-live-stepper", role: "cell" }, minus, n, plus),
      h("span", { class: "mw-live-pcell", role: "cell" }, barCell, h("span", { class: "mw-live-pline" }, p, h("span", { class: "mw-live-var" }, "var ", v))),
    );
    return { row, minus, plus, n, p, v, barCell };
  });

  function change(j, step) {
    const next = beads[j] + step;
    if (next < 0 || next > MAX_COUNT) return;
    if (beads.reduce((a, b) => a + b, 0) + step <= 0) return; // keep one bead in the box
    beads = beads.slice();
    beads[j] = next;
    status.textContent = `${step > 0 ? "Added" : "Removed"} a ${box.colour_names[j]} bead (square ${box.squares[j]}).`;
    update();
  }

  function play(r) {
    const [game] = playGames(beads, initial, [r], model.get("seed"), rules, position);
    if (!game) {
      status.textContent = "The box is empty and nothing refills it: MENACE resigns here.";
      return;
    }
    position += 1;
    games += 1;
    const before = beads.reduce((a, b) => a + b, 0);
    beads = game.beads;
    const after = beads.reduce((a, b) => a + b, 0);
    const j = game.colour;
    const delta = rules.reinforcement[r];
    const verb = { win: "won", draw: "drew", loss: "lost" }[results.names[r]];
    const restocked = delta < 0 && after > before ? " The beads ran out and were put back as at the start." : "";
    status.textContent =
      `Game ${games}: drew a ${box.colour_names[j]} bead, played square ${box.squares[j]} and ${verb}; ` +
      `${delta >= 0 ? "+" : "−"}${count(Math.abs(delta))} ${box.colour_names[j]}.${restocked}`;
    status.dataset.colour = String(j);
    update();
  }

  const reset = h("button", { type: "button", class: "mw-button", "data-testid": "db-reset" }, "Start again");
  reset.addEventListener("click", () => {
    beads = initial.slice();
    position = 0;
    games = 0;
    status.textContent = "Back to the box's first beads.";
    delete status.dataset.colour;
    update();
  });

  const head = h(
    "div",
    { class: "mw-live-row mw-live-head", role: "row" },
    ["Move", "Beads", "Chance of playing it"].map((t) => h("span", { role: "columnheader" }, t)),
  );
  el.append(
    h(
      "div",
      { class: "mw mw-live", "data-testid": "dirichlet-box" },
      h(
        "div",
        { class: "mw-live-top" },
        miniBoard(box),
        h(
          "div",
          {},
          h("p", { class: "mw-live-title" }, `Matchbox ${box.number}`),
          h("p", { class: "mw-caption" }, "Total beads α₀ = ", total),
          h("div", { class: "mw-live-buttons", role: "group", "aria-label": "Play a game with this box" }, h("span", {}, "Play a game:"), resultButtons(results, "db", play)),
          reset,
        ),
      ),
      status,
      h("div", { class: "mw-live-grid mw-live-dirichlet", role: "table", "aria-label": "Beads, chance of playing each move and its Dirichlet variance" }, head, rows.map((r) => r.row)),
      h("p", { class: "mw-caption" }, "Bar: chance of playing the move, the bead proportion αᵢ/α₀ (the Dirichlet mean); whisker: ± one standard deviation of the Dirichlet belief."),
    ),
  );

  function update() {
    const stats = beadStatistics(beads);
    const sum = stats.total;
    total.textContent = count(sum);
    total.dataset.value = String(sum);
    rows.forEach((r, j) => {
      r.n.textContent = count(beads[j]);
      r.n.dataset.value = String(beads[j]);
      const mean = stats.mean ? stats.mean[j] : 0;
      const variance = stats.variance ? stats.variance[j] : 0;
      r.p.textContent = beads[j] > 0 ? fmt(mean, 3) : "0, no beads";
      r.p.dataset.value = String(mean);
      r.v.textContent = fmt(variance, 4);
      r.v.dataset.value = String(variance);
      const sd = Math.sqrt(variance);
      const whisker = h("span", {
        class: "mw-live-whisker",
        style: { left: `${(100 * Math.max(0, mean - sd)).toFixed(1)}%`, width: `${(100 * (Math.min(1, mean + sd) - Math.max(0, mean - sd))).toFixed(1)}%` },
      });
      const track = bar(mean, box.colours[j]);
      track.append(whisker);
      r.barCell.replaceChildren(track);
      r.minus.disabled = beads[j] <= 0 || sum <= 1;
      r.plus.disabled = beads[j] >= MAX_COUNT;
    });
  }
  update();
  return undefined;
}

export default { render };
