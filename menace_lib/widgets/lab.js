// The MENACE lab: watch MENACE learn against any opponent, every matchbox on screen, with
// the exact learning curve recomputed as it plays. Everything runs here (the static site
// has no kernel): lab_session.js plays and learns (on the one engine, lab_engine.js),
// lab_exact.js evaluates, lab_plot.js draws. The model holds the settings and, at sync points (pause, about once a second
// while running, every game at low speed), the session state; a live kernel that writes
// the state (LabWidget.play, reset, load_agent) bumps `revision` and the view rebuilds
// its session from the model. The settings also live in the page's URL fragment under
// the key "lab" (lab_settings.js), so a link reproduces a run: it is written whenever the
// reader changes a setting, read on load and when the fragment changes, and removed by
// "Reset to defaults".
import { LabSession, RESULTS, STRUCTURAL, otherSide } from "./lab_session.js";
import { gameTables, menaceStructure } from "./lab_tables.js";
import { readAgentFile } from "./lab_agent_file.js";
import { BoxGrid } from "./lab_boxes.js";
import { drawPlot, makePlot } from "./lab_plot.js";
import { h, sync } from "./common.js";
import { button, offerLink, showText } from "./view_parts.js";
import { readPageParam, writePageParam } from "./fragment.js";
import { menaceFileProblem, parseAgentBytes } from "./agent_schema.js";
import {
  EMPTY_BOX_RULES,
  FILTERS,
  FRAGMENT_KEY,
  LAYOUTS,
  OPPONENTS,
  RESTOCKS,
  TIE_BREAKS,
  formatLink,
  parseLink,
} from "./lab_settings.js";

// Every one of the first EARLY_GAMES games is evaluated exactly, whatever the speed.
const EARLY_GAMES = 300;
const SPEEDS = [
  { label: "one move at a time", moveMs: 450 },
  { label: "1 game / s", gps: 1 },
  { label: "10 games / s", gps: 10 },
  { label: "100 games / s", gps: 100 },
  { label: "1,000 games / s", gps: 1000 },
  { label: "as fast as possible", gps: Infinity },
];
const OPPONENT_LABELS = {
  human: "you (click the board)",
  random: "a random player",
  defensive: "a defensive player (blocks)",
  perfect: "a perfect player",
  menace: "MENACE 2 (learns too)",
};
const TIE_BREAK_LABELS = { uniform: "uniform", lowest: "lowest square", priority: "centre, corner, edge" };
const FILTER_LABELS = { all: "all", decision: "decision", michie: "michie" };
const LAYOUT_LABELS = { class: "move classes", square: "one colour per square" };
const RESTOCK_LABELS = { box: "refill an empty box", move: "refill a colour at the clamp level", none: "none" };
const EMPTY_LABELS = { resign: "MENACE resigns", stop: "the lab stops", web: "stop at the opening box, else resign" };
// Settings by their names in menace_lib.widgets.lab_games.LabSettings; the model stores `layout` as
// `bead_layout`, because every ipywidget's `layout` trait is its CSS layout widget.
const TRAIT_OF = { layout: "bead_layout" };
const SETTING_NAMES = [
  "opponent", "tie_break", "side", "layout", "filter", "schedule", "reinforcement", "restock",
  "empty_box", "floor", "move_restock_beads", "seed",
];
const STATE_NAMES = ["games", "position", "tally", "beads", "beads2", "stopped", "exact", "history"];
const FRAME_BUDGET_MS = 20;
const REDRAW_MS = 250;
const SYNC_MS = 1000;
const EVAL_MS = 40;

const percent = (p) => `${(100 * p).toFixed(2)}%`;
const count = (n) => n.toLocaleString("en-GB");

/** "4-3-2-1" -> [4, 3, 2, 1]; null unless every part is a number >= 0. */
export function parseSchedule(text) {
  const parts = text.trim().split(/[\s,;/-]+/).filter((p) => p !== "");
  const values = parts.map(Number);
  return values.length > 0 && values.every((v) => Number.isFinite(v) && v >= 0) ? values : null;
}

function select(testid, options, labels) {
  return h(
    "select",
    { class: "mw-select", "data-testid": testid },
    options.map((o) => h("option", { value: o }, labels ? labels[o] ?? o : o)),
  );
}

function numberInput(testid, step, width = "4.5rem") {
  return h("input", { type: "number", step, "data-testid": testid, class: "mw-lab-number", style: { width } });
}

// ------------------------------------------------------------------------ views
// Each view owns one part of the lab's screen: it builds its elements, hands the reader's
// actions to the run (LabRun, below) and draws its part from a session
// (lab_session.LabSession). render() composes them and wires the model and the link.

/** The game in play: the board and its status line (the reader clicks a cell). */
function gameView(T, onCell) {
  const cells = Array.from({ length: 9 }, (_, i) =>
    h("button", { type: "button", class: "mw-cell", "data-testid": `lab-cell-${i}`, "aria-label": `square ${i + 1}`, onclick: () => onCell(i) }, h("span", { class: "mw-mark", "aria-hidden": "true" })),
  );
  const board = h("div", { class: "mw-board mw-lab-board", role: "group", "aria-label": "the game in play" }, cells);
  const gameStatus = h("p", { class: "mw-status", "data-testid": "lab-game-status" });
  return {
    el: h("div", { class: "mw-lab-game" }, board, gameStatus),
    draw(session) {
      const pid = session.game.pid;
      const humanTurn = session.settings.opponent === "human" && !session.game.over && session.mover() === "human";
      cells.forEach((c, i) => {
        const v = T.boards[pid * 9 + i];
        c.firstChild.textContent = v === 0 ? "" : v === 1 ? "X" : "O";
        c.classList.toggle("mw-x", v === 1);
        c.classList.toggle("mw-o", v === 2);
        c.setAttribute("aria-label", `square ${i + 1}, ${v === 0 ? "empty" : v === 1 ? "X" : "O"}`);
        c.setAttribute("aria-disabled", humanTurn && v === 0 ? "false" : "true");
      });
      let text;
      if (session.stopped) text = "Stopped.";
      else if (session.game.over) {
        const r = session.game.result;
        text = `Game ${count(session.games)}: MENACE ${r === 0 ? "won" : r === 1 ? "drew" : "lost"}${session.game.resigned ? " (a MENACE resigned at an empty box)" : ""}.`;
        if (session.settings.opponent === "human") text += " Click the board or Step for a new game.";
      } else if (humanTurn) text = `Your move (${otherSide(session.settings.side)}).`;
      else text = `Game ${count(session.games + 1)} in play.`;
      gameStatus.textContent = text;
    },
  };
}

/** The readout: games played, the tally, the exact rates and the lab's message. */
function readoutView() {
  const gamesOut = h("strong", { "data-testid": "lab-games" }, "0");
  const tallyOut = h("span", { "data-testid": "lab-tally" });
  const drawOut = h("strong", { "data-testid": "lab-exact-draw" });
  const lossOut = h("strong", { "data-testid": "lab-exact-loss" });
  const randomOut = h("strong", { "data-testid": "lab-exact-random" });
  const rateOut = h("span", { "data-testid": "lab-rate", class: "mw-muted" });
  const messageOut = h("p", { class: "mw-lab-message", role: "status", "aria-live": "polite", "data-testid": "lab-message" });
  return {
    message: messageOut,
    el: h(
      "div",
      { class: "mw-lab-readout" },
      h("p", {}, "Games played: ", gamesOut, " ", rateOut),
      h("p", {}, "MENACE's results: ", tallyOut),
      h("p", {}, "Exact, against a perfect player: draw ", drawOut, ", loss ", lossOut),
      h("p", {}, "Exact win rate against a random player: ", randomOut),
      h("p", { class: "mw-caption" }, "Exact rates are MENACE's current bead proportions played out over every position (no sampling), recomputed after every game, or every few games at high speed."),
    ),
    /** `view`: {running, rate, message}; `root` carries the figures for the tests. */
    draw(session, view, root) {
      gamesOut.textContent = String(session.games);
      const t = session.tally;
      tallyOut.textContent = `${count(t.win)} won · ${count(t.draw)} drawn · ${count(t.loss)} lost`;
      const e = session.exact;
      drawOut.textContent = e ? percent(e.draw) : "–";
      lossOut.textContent = e ? percent(e.loss) : "–";
      randomOut.textContent = e ? percent(e.win_random) : "–";
      rateOut.textContent = view.running && view.rate > 0 ? `(about ${count(Math.round(view.rate))} games per second)` : "";
      root.dataset.games = String(session.games);
      root.dataset.running = view.running ? "true" : "false";
      root.dataset.rate = String(Math.round(view.rate));
      const note = session.stopped ? `${session.stopped}: MENACE has stopped playing. Reset, or choose a restock rule.` : view.message;
      showText(messageOut, note);
      messageOut.classList.toggle("mw-error", Boolean(session.stopped) || view.message.startsWith("Could not"));
    },
  };
}

/** A plotted series' points, with the point `now` ({x, y}, or null) added if it is new. */
function withNow(series, col, now) {
  const x = series.x.slice();
  const y = series.y ? series.y[col].slice() : [];
  if (now !== null && (x.length === 0 || x[x.length - 1] !== now.x)) {
    x.push(now.x);
    y.push(now.y);
  }
  return { x, y };
}

/** The exact rates: draw and loss against the perfect player, win against a random one. */
function drawExactPlot(plot, session, logX) {
  const e = session.exactSeries;
  const exact = session.exact;
  const at = (v) => (exact ? { x: exact.games, y: v } : null);
  drawPlot(plot, {
    xLabel: "games played",
    logX,
    yLabel: "probability",
    percent: true,
    yMin: 0,
    yMax: 1,
    series: [
      { label: "draw vs perfect", colour: "var(--mw-lab-draw)", ...withNow(e, 0, at(exact?.draw)) },
      { label: "loss vs perfect", colour: "var(--mw-lab-loss)", dash: "6 3", ...withNow(e, 1, at(exact?.loss)) },
      { label: "win vs random", colour: "var(--mw-lab-win)", dash: "2 2", ...withNow(e, 2, at(exact?.win_random)) },
    ],
  });
}

/** The beads each opening box has gained. */
function drawOpeningPlot(plot, T, session, logX) {
  const bs = session.beadSeries;
  const opening = session.menace.opening;
  const openingNow = session.openingChange();
  const boardText = (b) => {
    const pid = session.menace.structure.states[b];
    return Array.from(T.boards.subarray(pid * 9, pid * 9 + 9), (v) => ".XO"[v]).join("");
  };
  drawPlot(plot, {
    xLabel: "games played",
    logX,
    yLabel: "beads gained",
    series: opening.map((b, k) => ({
      label: opening.length === 1 ? "opening box" : `box ${boardText(b)}`,
      colour: `var(--mw-lab-s${k})`,
      dash: ["none", "6 3", "2 2"][k % 3],
      ...withNow(bs, k, { x: session.games, y: openingNow[k] }),
    })),
  });
}

/** The running tally of wins, draws and losses. */
function drawTallyPlot(plot, session, logX) {
  const ts = session.tallySeries;
  const t = session.tally;
  drawPlot(plot, {
    xLabel: "games played",
    logX,
    yLabel: "games",
    series: [
      { label: "wins", colour: "var(--mw-lab-win)", dash: "2 2", ...withNow(ts, 0, { x: session.games, y: t.win }) },
      { label: "draws", colour: "var(--mw-lab-draw)", ...withNow(ts, 1, { x: session.games, y: t.draw }) },
      { label: "losses", colour: "var(--mw-lab-loss)", dash: "6 3", ...withNow(ts, 2, { x: session.games, y: t.loss }) },
    ],
  });
}

/** The plots: exact rates, the opening boxes' beads and the running tally. */
function plotsView(T, onLog) {
  const logBox = h("input", { type: "checkbox", "data-testid": "lab-log" });
  logBox.addEventListener("change", onLog);
  const exactPlot = makePlot("lab-curve", "Exact rates of MENACE's current policy");
  const openingPlot = makePlot("lab-opening", "Beads gained by the opening box");
  const tallyPlot = makePlot("lab-tally-plot", "Running tally of the games played");
  return {
    logLabel: h("label", { class: "mw-check" }, logBox, " Games on a log scale (to see the first games of a long run)"),
    el: h("div", { class: "mw-lab-plots" }, exactPlot.root, openingPlot.root, tallyPlot.root),
    get log() {
      return logBox.checked;
    },
    set log(value) {
      logBox.checked = value;
    },
    draw(session) {
      drawExactPlot(exactPlot, session, logBox.checked);
      drawOpeningPlot(openingPlot, T, session, logBox.checked);
      drawTallyPlot(tallyPlot, session, logBox.checked);
    },
  };
}

/** The match: MENACE's opponent (and how a perfect one breaks ties), MENACE's side, the seed. */
function matchView(lab) {
  const opponent = select("lab-opponent", OPPONENTS, OPPONENT_LABELS);
  const tieBreak = select("lab-tie-break", TIE_BREAKS, TIE_BREAK_LABELS);
  const side = select("lab-side", ["X", "O"], { X: "X (opens)", O: "O (second)" });
  const seed = numberInput("lab-seed", 1, "6rem");
  seed.min = 0;
  opponent.addEventListener("change", () => lab.change({ opponent: opponent.value }));
  tieBreak.addEventListener("change", () => lab.change({ tie_break: tieBreak.value }));
  side.addEventListener("change", () => lab.change({ side: side.value }));
  seed.addEventListener("change", () => {
    const v = Number(seed.value);
    if (Number.isInteger(v) && v >= 0 && v < 2 ** 32) lab.change({ seed: v });
    else lab.say(`Could not use seed ${seed.value}: use a whole number from 0 to 4294967295.`);
  });
  const tieLabel = h("label", { "data-testid": "lab-tie-break-label" }, "Ties broken ", tieBreak);
  return {
    el: h("div", { class: "mw-controls" }, h("label", {}, "Opponent ", opponent), tieLabel, h("label", {}, "MENACE plays ", side), h("label", {}, "Seed ", seed)),
    draw(s) {
      opponent.value = s.opponent;
      tieBreak.value = s.tie_break;
      side.value = s.side;
      seed.value = String(s.seed);
      tieLabel.hidden = s.opponent !== "perfect";
    },
  };
}

/** The run: Run/Pause, Step, speed, Reset, the defaults, agent files and the link. */
function runView(lab) {
  const run = button("Run", "lab-run", null, true);
  const step = button("Step one game", "lab-step");
  const reset = button("Reset", "lab-reset");
  const speed = select(
    "lab-speed",
    SPEEDS.map((_, i) => String(i)),
    Object.fromEntries(SPEEDS.map((s, i) => [String(i), s.label])),
  );
  const defaults = button("Reset to defaults", "lab-defaults");
  const export1 = button("Export MENACE", "lab-export");
  const export2 = button("Export MENACE 2", "lab-export2");
  const importInput = h("input", { type: "file", accept: ".json,application/json", "data-testid": "lab-import", class: "mw-lab-file" });
  const link = button("Link to these settings", "lab-share");
  const linkField = h("input", { type: "text", readonly: true, class: "mw-link", "aria-label": "Link to these settings", "data-testid": "lab-link", hidden: true });
  speed.addEventListener("change", () => {
    lab.setSpeed(Number(speed.value));
    lab.writeLink();
  });
  run.addEventListener("click", () => (lab.running ? lab.stopRunning() : lab.run()));
  step.addEventListener("click", () => lab.step());
  reset.addEventListener("click", () => lab.reset());
  defaults.addEventListener("click", () => lab.resetToDefaults());
  link.addEventListener("click", () => lab.showLink());
  export1.addEventListener("click", () => lab.exportAgent(1));
  export2.addEventListener("click", () => lab.exportAgent(2));
  importInput.addEventListener("change", async () => {
    const file = importInput.files && importInput.files[0];
    if (!file) return;
    await lab.importAgent(file);
    importInput.value = "";
    lab.redraw();
  });
  const importLabel = h("label", { class: "mw-button mw-lab-import" }, "Import agent…", importInput);
  return {
    el: h("div", { class: "mw-controls" }, run, step, h("label", {}, "Speed ", speed), reset, defaults, export1, export2, importLabel, link),
    linkField,
    draw(session, running, speedIndex) {
      const human = session.settings.opponent === "human";
      speed.value = String(speedIndex);
      run.textContent = running ? "Pause" : "Run";
      run.disabled = human || Boolean(session.stopped);
      step.textContent = human ? "New game" : "Step one game";
      step.disabled = Boolean(session.stopped);
      export2.hidden = session.settings.opponent !== "menace";
    },
  };
}

/** The three incentives: beads added after a win, a draw and a loss. */
function incentiveInputs(lab) {
  return ["win", "draw", "loss"].map((r, i) => {
    const input = numberInput(`lab-incentive-${r}`, "any", "4rem");
    input.setAttribute("aria-label", `beads added after a ${r}`);
    input.addEventListener("change", () => {
      const v = Number(input.value);
      if (input.value.trim() === "" || !Number.isFinite(v)) {
        lab.say(`Could not read the ${RESULTS[i]} incentive "${input.value}": write a number.`);
        return;
      }
      const next = lab.session.settings.reinforcement.slice();
      next[i] = v;
      lab.change({ reinforcement: next });
    });
    return input;
  });
}

/** The clamp level and the move-restock beads, each checked against the other. */
function clampInputs(lab) {
  const floor = numberInput("lab-floor", "any", "4rem");
  floor.min = 0;
  const refill = h("input", { type: "text", "data-testid": "lab-move-restock", class: "mw-lab-number", size: 5, placeholder: "initial", "aria-label": "beads a colour is refilled to under move restock (empty: its initial count)" });
  floor.addEventListener("change", () => {
    const v = Number(floor.value);
    const r = lab.session.settings.move_restock_beads;
    if (floor.value.trim() === "" || !Number.isFinite(v) || v < 0 || (r !== null && r <= v)) {
      lab.say(`Could not use clamp level "${floor.value}": it must be a number >= 0, below the move-restock beads.`);
    } else lab.change({ floor: v });
  });
  refill.addEventListener("change", () => {
    const text = refill.value.trim();
    const v = Number(text);
    if (text === "") lab.change({ move_restock_beads: null });
    else if (!Number.isFinite(v) || v <= lab.session.settings.floor) {
      lab.say(`Could not use move-restock beads "${refill.value}": it must be a number above the clamp level, or empty.`);
    } else lab.change({ move_restock_beads: v });
  });
  return { floor, refill };
}

/** Write `value` into a field unless the reader is typing in it. */
function showValue(input, value) {
  if (document.activeElement !== input) input.value = value;
}

/** MENACE's rules: boxes, filter, initial beads, incentives, restock, empty box, clamp. */
function rulesView(lab) {
  const layout = select("lab-layout", LAYOUTS, LAYOUT_LABELS);
  const filter = select("lab-filter", FILTERS, FILTER_LABELS);
  const schedule = h("input", { type: "text", "data-testid": "lab-schedule", class: "mw-lab-number", size: 9, "aria-label": "initial beads per MENACE move" });
  const incentives = incentiveInputs(lab);
  const restock = select("lab-restock", RESTOCKS, RESTOCK_LABELS);
  const emptyBox = select("lab-empty-box", EMPTY_BOX_RULES, EMPTY_LABELS);
  const { floor, refill } = clampInputs(lab);
  layout.addEventListener("change", () => lab.change({ layout: layout.value }));
  filter.addEventListener("change", () => lab.change({ filter: filter.value }));
  schedule.addEventListener("change", () => {
    const v = parseSchedule(schedule.value);
    if (v) lab.change({ schedule: v });
    else lab.say(`Could not read "${schedule.value}": write bead counts per move such as 4-3-2-1.`);
  });
  restock.addEventListener("change", () => lab.change({ restock: restock.value }));
  emptyBox.addEventListener("change", () => lab.change({ empty_box: emptyBox.value }));
  const el = h(
    "details",
    { class: "mw-lab-settings", open: true },
    h("summary", {}, "MENACE's rules (changing the boxes or their beads starts MENACE afresh)"),
    h(
      "div",
      { class: "mw-controls" },
      h("label", {}, "Boxes ", layout),
      h("label", {}, "Filter ", filter),
      h("label", {}, "Initial beads per move ", schedule),
      h(
        "span",
        { class: "mw-lab-group" },
        "Beads added after a ",
        ["win", "draw", "loss"].map((r, i) => h("label", { class: "mw-nowrap" }, `${r} `, incentives[i])),
      ),
      h("label", {}, "Restock ", restock),
      h("label", {}, "At an empty box ", emptyBox),
      h("label", {}, "Clamp level ", floor),
      h("label", {}, "Move-restock beads ", refill),
    ),
  );
  return {
    el,
    draw(s) {
      layout.value = s.layout;
      filter.value = s.filter;
      showValue(schedule, s.schedule.join("-"));
      incentives.forEach((input, i) => showValue(input, String(s.reinforcement[i])));
      restock.value = s.restock;
      emptyBox.value = s.empty_box;
      showValue(floor, String(s.floor));
      showValue(refill, s.move_restock_beads === null ? "" : String(s.move_restock_beads));
    },
  };
}

/** MENACE's matchboxes: a caption and a scrolling area of boxes (lab_boxes.BoxGrid). */
function boxesView() {
  const caption = h("p", { class: "mw-caption", "data-testid": "lab-boxes-caption" });
  // A scrolling area: focusable, so keyboard readers can scroll it too (WCAG 2.1.1).
  const area = h("div", {
    class: "mw-lab-boxes",
    "data-testid": "lab-boxes",
    tabindex: "0",
    role: "region",
    "aria-label": "Matchboxes of this MENACE",
  });
  const grid = new BoxGrid(area, caption);
  return {
    els: [caption, area],
    build: (T, menace) => grid.build(T, menace),
    draw: (session) => grid.draw(session),
  };
}

// ------------------------------------------------------------------------ the run
/**
 * The lab between its views and the model: the session (lab_session.LabSession), the run
 * loop, the message. The views call its methods; it draws through them (attach). The
 * model holds the settings and, at sync points, the session's state (commit).
 */
class LabRun {
  constructor(model, T) {
    this.model = model;
    this.T = T;
    this.session = null;
    this.local = false; // the model is being written from here (no rebuild on its echo)
    this.running = false;
    this.frameId = null;
    this.lastFrame = 0;
    this.owed = 0;
    this.moveClock = 0;
    this.lastDraw = 0;
    this.lastSync = 0;
    this.lastEval = 0;
    this.rateMark = { t: 0, games: 0 };
    this.rate = 0;
    this.message = "";
    this.dirty = true;
    // What a link's missing fields and "Reset to defaults" go back to: the lab as built.
    const built = this.settings();
    this.defaults = { ...built, schedule: built.schedule.slice(), reinforcement: built.reinforcement.slice(), speed: model.get("speed"), log: false };
  }

  attach(views, root) {
    this.v = views;
    this.root = root;
  }

  /** The settings the model holds, by their menace_lib.widgets.lab_games.LabSettings names. */
  settings() {
    const s = {};
    for (const name of SETTING_NAMES) s[name] = this.model.get(TRAIT_OF[name] ?? name);
    return s;
  }

  // ---------------------------------------------------------------- drawing
  say(text) {
    this.message = text;
    this.drawReadout();
  }

  drawReadout() {
    this.v.readout.draw(this.session, { running: this.running, rate: this.rate, message: this.message }, this.root);
  }

  drawControls() {
    this.v.match.draw(this.session.settings);
    this.v.run.draw(this.session, this.running, this.model.get("speed"));
    this.v.rules.draw(this.session.settings);
  }

  redraw() {
    this.drawReadout();
    this.drawControls();
    this.v.game.draw(this.session);
    this.v.plots.draw(this.session);
    this.v.boxes.draw(this.session);
    this.dirty = false;
    this.lastDraw = performance.now();
  }

  // ------------------------------------------------------------- model sync
  commit(extra = {}) {
    this.local = true;
    try {
      const settings = this.session.settings;
      const s = { ...settings, schedule: settings.schedule.slice(), reinforcement: settings.reinforcement.slice() };
      const traits = {};
      for (const name of SETTING_NAMES) traits[TRAIT_OF[name] ?? name] = s[name];
      // state_settings tells a kernel that this state already follows these settings.
      this.model.set({ ...traits, state_settings: { ...s }, ...this.session.state(), ...extra });
      sync(this.model);
    } finally {
      this.local = false;
    }
    this.lastSync = performance.now();
  }

  evaluate() {
    this.session.evaluate();
    this.lastEval = performance.now();
  }

  /** The session the model holds (on mounting, and when a kernel rewrites the state). */
  fromModel() {
    const state = {};
    for (const name of STATE_NAMES) state[name] = this.model.get(name);
    this.session = new LabSession(this.T, this.settings(), state);
    if (!this.session.exact || this.session.exact.games !== this.session.games) this.evaluate();
    this.v.boxes.build(this.T, this.session.menace);
    this.dirty = true;
    this.redraw();
  }

  /** A fresh MENACE with these changes to the settings. */
  restart(changes) {
    const s = { ...this.session.settings, ...changes };
    this.session = new LabSession(this.T, s, {});
    if (s.opponent === "human") this.menaceReplies(); // MENACE opens when it plays X
    this.evaluate();
    this.v.boxes.build(this.T, this.session.menace);
    this.commit({ games_before: 0 });
    this.redraw();
  }

  setSpeed(value) {
    this.local = true;
    try {
      this.model.set("speed", value);
      sync(this.model);
    } finally {
      this.local = false;
    }
    this.moveClock = 0;
  }

  /** A setting chosen by the reader: a fresh MENACE if it changes the boxes or the seed. */
  change(changes) {
    this.message = "";
    const structural = Object.keys(changes).some((k) => STRUCTURAL.includes(k));
    if (structural || "seed" in changes) {
      this.pause();
      this.restart(changes);
    } else {
      this.session.updateRules(changes);
      if ("opponent" in changes && changes.opponent === "human") {
        this.pause();
        this.menaceReplies();
      }
      this.commit();
      this.redraw();
    }
    this.writeLink();
  }

  // --------------------------------------------------------------- the link
  linkSettings() {
    return { ...this.session.settings, speed: this.model.get("speed"), log: this.v.plots.log };
  }

  /** Keep the page's address in step with the settings (after a change by the reader). */
  writeLink() {
    writePageParam(FRAGMENT_KEY, formatLink(this.linkSettings()));
    const field = this.v.run.linkField;
    if (!field.hidden) field.value = window.location.href; // a shown link stays true
  }

  /** Settings from the page's address, if it has the lab's key: a fresh run with them
   * (from game 0 even if they are the current settings, so it replays the link's games). */
  applyLink() {
    let text;
    try {
      text = readPageParam(FRAGMENT_KEY); // an over-long value is refused unread
    } catch (error) {
      this.say(`Could not use this link: ${error.message}.`);
      return;
    }
    if (text === null) return;
    const { settings: linked, problems } = parseLink(text, this.defaults, SPEEDS.length);
    this.pause();
    this.v.run.linkField.hidden = true; // it showed the address before this link
    this.message = problems.length
      ? `Could not use all of this link: ${problems.join("; ")}. Those settings keep their defaults; the rest of the link is used.`
      : `Settings from the link (seed ${linked.seed}): Run or Step plays the same games as anyone else opening it.`;
    this.setSpeed(linked.speed);
    this.v.plots.log = linked.log;
    const labSettings = {};
    for (const name of SETTING_NAMES) labSettings[name] = linked[name];
    this.restart(labSettings);
  }

  showLink() {
    this.writeLink();
    offerLink(
      this.v.run.linkField,
      (text) => this.say(text),
      "This page's address now opens the lab with these settings: copy the link above.",
      "Link copied: it opens this page with these settings and seed (not the beads: export those).",
    );
  }

  resetToDefaults() {
    this.pause();
    this.message = "Back to the lab's default settings.";
    this.v.run.linkField.hidden = true;
    this.setSpeed(this.defaults.speed);
    this.v.plots.log = this.defaults.log;
    const s = {};
    for (const name of SETTING_NAMES) s[name] = this.defaults[name];
    this.restart(s);
    writePageParam(FRAGMENT_KEY, null);
  }

  logChanged() {
    this.v.plots.draw(this.session);
    this.writeLink();
  }

  // ---------------------------------------------------------------- playing
  oneGame() {
    const step = this.session.playGame();
    this.evaluate();
    if (step === "stopped") this.pause();
    this.commit();
    this.redraw();
  }

  pause() {
    this.running = false;
    if (this.frameId !== null) cancelAnimationFrame(this.frameId);
    this.frameId = null;
  }

  /** "One move at a time": a move when its time has come. True if the session stopped. */
  playMoves(sp, dt) {
    this.moveClock += dt;
    if (this.moveClock < sp.moveMs) return false;
    this.moveClock = 0;
    const step = this.session.move();
    if (step === "over") this.evaluate();
    this.dirty = true;
    return step === "stopped";
  }

  /** The games owed at this speed, within the frame's time budget. True if the session stopped. */
  playGames(sp, dt) {
    const start = performance.now();
    this.owed = Math.min(this.owed + (sp.gps * dt) / 1000, sp.gps === Infinity ? Infinity : sp.gps);
    const each = sp.gps <= 100; // slow enough to evaluate after every game
    let stopped = false;
    while (this.owed >= 1 && performance.now() - start < FRAME_BUDGET_MS) {
      const step = this.session.playGame();
      this.owed -= 1;
      this.dirty = true;
      if (step === "stopped") {
        stopped = true;
        break;
      }
      // The first EARLY_GAMES games (where MENACE learns most) get their exact figure at
      // every speed, so the curve keeps its early shape however fast the lab runs.
      if (each || this.session.games <= EARLY_GAMES) this.evaluate();
    }
    if (sp.gps === Infinity) this.owed = 0;
    if (this.dirty && !each && performance.now() - this.lastEval >= EVAL_MS) this.evaluate();
    return stopped;
  }

  /** Redraw when due: after every change at low speed, else every REDRAW_MS. */
  redrawWhenDue(sp, now) {
    const slow = sp.moveMs || sp.gps <= 10;
    if (this.dirty && (slow || now - this.lastDraw >= REDRAW_MS)) {
      if (!slow || !this.session.exact || this.session.exact.games !== this.session.games) this.evaluate();
      this.redraw();
    }
  }

  frame(now) {
    this.frameId = null;
    if (!this.running) return;
    const dt = Math.min(now - this.lastFrame, 100);
    this.lastFrame = now;
    const sp = SPEEDS[this.model.get("speed")] ?? SPEEDS[3];
    const stopped = sp.moveMs ? this.playMoves(sp, dt) : this.playGames(sp, dt);
    if (now - this.rateMark.t >= 1000) {
      this.rate = ((this.session.games - this.rateMark.games) * 1000) / (now - this.rateMark.t);
      this.rateMark = { t: now, games: this.session.games };
    }
    if (stopped) {
      this.stopRunning();
      return;
    }
    this.redrawWhenDue(sp, now);
    if (now - this.lastSync >= SYNC_MS) this.commit();
    this.frameId = requestAnimationFrame((t) => this.frame(t));
  }

  run() {
    if (this.running || this.session.stopped || this.session.settings.opponent === "human") return;
    this.running = true;
    this.lastFrame = performance.now();
    this.rateMark = { t: this.lastFrame, games: this.session.games };
    this.rate = 0;
    this.owed = 0;
    this.moveClock = SPEEDS[this.model.get("speed")]?.moveMs ?? 0;
    this.frameId = requestAnimationFrame((t) => this.frame(t));
    this.drawControls();
    this.drawReadout();
  }

  stopRunning() {
    this.pause();
    this.evaluate();
    this.commit();
    this.redraw();
  }

  /** Step: one game (a new one against the reader). */
  step() {
    if (this.running) this.stopRunning();
    if (this.session.settings.opponent === "human") {
      this.session.newGame();
      this.menaceReplies();
      this.commit();
      this.redraw();
      return;
    }
    this.oneGame();
  }

  reset() {
    this.pause();
    this.message = "";
    this.restart({});
  }

  // Human games: the reader clicks, MENACE replies at once.
  menaceReplies() {
    const session = this.session;
    while (!session.game.over && !session.stopped && session.mover() !== "human") {
      if (session.move() !== "moved") break;
    }
    if (session.game.over) this.evaluate();
  }

  onCell(i) {
    const session = this.session;
    if (session.settings.opponent !== "human" || session.stopped) return;
    if (session.game.over) {
      session.newGame();
      this.menaceReplies();
    } else if (session.humanMove(i)) {
      this.menaceReplies();
    }
    this.commit();
    this.redraw();
  }

  // ------------------------------------------------------------ agent files
  exportAgent(which) {
    const doc = this.session.agentFile(which, this.model.get("games_before"));
    const name = which === 2 ? "MENACE 2" : "MENACE";
    const problem = menaceFileProblem(doc); // never write a file the library refuses
    if (problem) {
      this.say(`Cannot export ${name}: ${problem}.`);
      return;
    }
    const blob = new Blob([JSON.stringify(doc)], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    const a = h("a", { href: url, download: `menace${which === 2 ? "2" : ""}-${doc.config.player}-${doc.games_trained}-games.json` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    this.say(`Exported ${name} (${count(doc.games_trained)} games): load it with menace_lib.machine.menace.Menace.load(path).`);
  }

  /** An agent file becomes MENACE (the caller redraws). */
  async importAgent(file) {
    this.pause();
    try {
      const bytes = parseAgentBytes(new Uint8Array(await file.arrayBuffer()));
      if (bytes.error) throw new Error(bytes.error);
      const parsed = readAgentFile(this.T, bytes.doc, menaceStructure); // agent_schema.js: the library's rules
      this.session = new LabSession(this.T, { ...this.session.settings, ...parsed.settings }, { beads: parsed.beads });
      this.evaluate();
      this.v.boxes.build(this.T, this.session.menace);
      this.commit({ games_before: parsed.games });
      this.writeLink();
      this.message = `Imported ${file.name}: MENACE as ${parsed.settings.side}, trained for ${count(parsed.games)} games before.`;
    } catch (error) {
      this.message = `Could not import ${file.name}: ${error.message}`;
    }
  }
}

// ------------------------------------------------------------------------ mounting

function render({ model, el }) {
  const T = gameTables(model.get("data"));
  const lab = new LabRun(model, T);
  const v = {
    match: matchView(lab),
    run: runView(lab),
    rules: rulesView(lab),
    readout: readoutView(),
    game: gameView(T, (i) => lab.onCell(i)),
    plots: plotsView(T, () => lab.logChanged()),
    boxes: boxesView(),
  };
  const root = h(
    "div",
    { class: "mw mw-lab", "data-testid": "lab" },
    v.match.el,
    v.run.el,
    v.run.linkField,
    v.rules.el,
    v.readout.message,
    h("div", { class: "mw-lab-top" }, v.readout.el, v.game.el),
    v.plots.logLabel,
    v.plots.el,
    v.boxes.els,
  );
  el.append(root);
  lab.attach(v, root);

  // A kernel that rewrites the state bumps `revision`; other changes from Python are
  // settings, applied as if the reader had chosen them.
  const onModel = () => {
    if (lab.local) return;
    lab.pause();
    lab.fromModel();
  };
  const onHash = () => lab.applyLink();
  model.on("change:revision", onModel);
  window.addEventListener("hashchange", onHash);
  lab.fromModel();
  if (model.get("games") === 0 && lab.session.settings.opponent === "human") lab.menaceReplies();
  lab.applyLink();
  return () => {
    lab.pause();
    model.off("change:revision", onModel);
    window.removeEventListener("hashchange", onHash);
  };
}

export default { render };
