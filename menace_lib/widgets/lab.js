// The MENACE lab: watch MENACE learn against any opponent, every matchbox on screen, with
// the exact learning curve recomputed as it plays. Everything runs here (the static site
// has no kernel): lab_engine.js plays and learns, lab_exact.js evaluates, lab_plot.js
// draws. The model holds the settings and, at sync points (pause, about once a second
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
// Settings by their names in menace_lib.lab.LabSettings; the model stores `layout` as
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
// Each view owns one part of the lab's screen: it builds its elements and draws them from
// a session (lab_engine.LabSession). render() wires the controls and the run loop to them.

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
      if (messageOut.textContent !== note) messageOut.textContent = note;
      messageOut.classList.toggle("mw-error", Boolean(session.stopped) || view.message.startsWith("Could not"));
    },
  };
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
      const e = session.exactSeries;
      const exact = session.exact;
      const withNow = (series, col, now) => {
        const x = series.x.slice();
        const y = series.y ? series.y[col].slice() : [];
        if (now !== null && (x.length === 0 || x[x.length - 1] !== now.x)) {
          x.push(now.x);
          y.push(now.y);
        }
        return { x, y };
      };
      const at = (v) => (exact ? { x: exact.games, y: v } : null);
      drawPlot(exactPlot, {
        xLabel: "games played",
        logX: logBox.checked,
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
      const bs = session.beadSeries;
      const opening = session.menace.opening;
      const openingNow = session.openingChange();
      const boardText = (b) => {
        const pid = session.menace.structure.states[b];
        return Array.from(T.boards.subarray(pid * 9, pid * 9 + 9), (v) => ".XO"[v]).join("");
      };
      drawPlot(openingPlot, {
        xLabel: "games played",
        logX: logBox.checked,
        yLabel: "beads gained",
        series: opening.map((b, k) => ({
          label: opening.length === 1 ? "opening box" : `box ${boardText(b)}`,
          colour: `var(--mw-lab-s${k})`,
          dash: ["none", "6 3", "2 2"][k % 3],
          ...withNow(bs, k, { x: session.games, y: openingNow[k] }),
        })),
      });
      const ts = session.tallySeries;
      const t = session.tally;
      drawPlot(tallyPlot, {
        xLabel: "games played",
        logX: logBox.checked,
        yLabel: "games",
        series: [
          { label: "wins", colour: "var(--mw-lab-win)", dash: "2 2", ...withNow(ts, 0, { x: session.games, y: t.win }) },
          { label: "draws", colour: "var(--mw-lab-draw)", ...withNow(ts, 1, { x: session.games, y: t.draw }) },
          { label: "losses", colour: "var(--mw-lab-loss)", dash: "6 3", ...withNow(ts, 2, { x: session.games, y: t.loss }) },
        ],
      });
    },
  };
}

function render({ model, el }) {
  const T = gameTables(model.get("data"));
  let session = null;
  let local = false;
  let running = false;
  let frameId = null;
  let lastFrame = 0;
  let owed = 0;
  let moveClock = 0;
  let lastDraw = 0;
  let lastSync = 0;
  let lastEval = 0;
  let rateMark = { t: 0, games: 0 };
  let rate = 0;
  let message = "";
  let dirty = true;

  const settings = () => {
    const s = {};
    for (const name of SETTING_NAMES) s[name] = model.get(TRAIT_OF[name] ?? name);
    return s;
  };
  // What a link's missing fields and "Reset to defaults" go back to: the lab as built.
  const built = settings();
  const defaults = { ...built, schedule: built.schedule.slice(), reinforcement: built.reinforcement.slice(), speed: model.get("speed"), log: false };

  // ----------------------------------------------------------------- controls
  const opponent = select("lab-opponent", OPPONENTS, OPPONENT_LABELS);
  const tieBreak = select("lab-tie-break", TIE_BREAKS, TIE_BREAK_LABELS);
  const side = select("lab-side", ["X", "O"], { X: "X (opens)", O: "O (second)" });
  const seed = numberInput("lab-seed", 1, "6rem");
  seed.min = 0;
  const runButton = h("button", { type: "button", class: "mw-button mw-primary", "data-testid": "lab-run" }, "Run");
  const stepButton = h("button", { type: "button", class: "mw-button", "data-testid": "lab-step" }, "Step one game");
  const resetButton = h("button", { type: "button", class: "mw-button", "data-testid": "lab-reset" }, "Reset");
  const speed = select(
    "lab-speed",
    SPEEDS.map((_, i) => String(i)),
    Object.fromEntries(SPEEDS.map((s, i) => [String(i), s.label])),
  );
  const exportButton = h("button", { type: "button", class: "mw-button", "data-testid": "lab-export" }, "Export MENACE");
  const export2Button = h("button", { type: "button", class: "mw-button", "data-testid": "lab-export2" }, "Export MENACE 2");
  const importInput = h("input", { type: "file", accept: ".json,application/json", "data-testid": "lab-import", class: "mw-lab-file" });
  const importLabel = h("label", { class: "mw-button mw-lab-import" }, "Import agent…", importInput);
  const linkButton = h("button", { type: "button", class: "mw-button", "data-testid": "lab-share" }, "Link to these settings");
  const defaultsButton = h("button", { type: "button", class: "mw-button", "data-testid": "lab-defaults" }, "Reset to defaults");
  const linkField = h("input", { type: "text", readonly: true, class: "mw-link", "aria-label": "Link to these settings", "data-testid": "lab-link", hidden: true });

  const layout = select("lab-layout", LAYOUTS, LAYOUT_LABELS);
  const filter = select("lab-filter", FILTERS, FILTER_LABELS);
  const schedule = h("input", { type: "text", "data-testid": "lab-schedule", class: "mw-lab-number", size: 9, "aria-label": "initial beads per MENACE move" });
  const incentives = ["win", "draw", "loss"].map((r) => {
    const input = numberInput(`lab-incentive-${r}`, "any", "4rem");
    input.setAttribute("aria-label", `beads added after a ${r}`);
    return input;
  });
  const restock = select("lab-restock", RESTOCKS, RESTOCK_LABELS);
  const emptyBox = select("lab-empty-box", EMPTY_BOX_RULES, EMPTY_LABELS);
  const floor = numberInput("lab-floor", "any", "4rem");
  floor.min = 0;
  const refill = h("input", { type: "text", "data-testid": "lab-move-restock", class: "mw-lab-number", size: 5, placeholder: "initial", "aria-label": "beads a colour is refilled to under move restock (empty: its initial count)" });

  // ------------------------------------------------------------------ read-outs
  const readout = readoutView();
  const game = gameView(T, (i) => onCell(i));
  const plots = plotsView(T, () => {
    plots.draw(session);
    writeLink();
  });
  const boxesHeading = h("p", { class: "mw-caption", "data-testid": "lab-boxes-caption" });
  // A scrolling area: focusable, so keyboard readers can scroll it too (WCAG 2.1.1).
  const boxesArea = h("div", {
    class: "mw-lab-boxes",
    "data-testid": "lab-boxes",
    tabindex: "0",
    role: "region",
    "aria-label": "Matchboxes of this MENACE",
  });

  const root = h(
    "div",
    { class: "mw mw-lab", "data-testid": "lab" },
    h(
      "div",
      { class: "mw-controls" },
      h("label", {}, "Opponent ", opponent),
      h("label", { "data-testid": "lab-tie-break-label" }, "Ties broken ", tieBreak),
      h("label", {}, "MENACE plays ", side),
      h("label", {}, "Seed ", seed),
    ),
    h(
      "div",
      { class: "mw-controls" },
      runButton,
      stepButton,
      h("label", {}, "Speed ", speed),
      resetButton,
      defaultsButton,
      exportButton,
      export2Button,
      importLabel,
      linkButton,
    ),
    linkField,
    h(
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
    ),
    readout.message,
    h("div", { class: "mw-lab-top" }, readout.el, game.el),
    plots.logLabel,
    plots.el,
    boxesHeading,
    boxesArea,
  );
  el.append(root);

  // ----------------------------------------------------------- the matchboxes
  const grid = new BoxGrid(boxesArea, boxesHeading);

  // ------------------------------------------------------------------ drawing
  function drawReadout() {
    readout.draw(session, { running, rate, message }, root);
  }

  function drawControls() {
    const s = session.settings;
    opponent.value = s.opponent;
    tieBreak.value = s.tie_break;
    side.value = s.side;
    seed.value = String(s.seed);
    speed.value = String(model.get("speed"));
    layout.value = s.layout;
    filter.value = s.filter;
    if (document.activeElement !== schedule) schedule.value = s.schedule.join("-");
    incentives.forEach((input, i) => {
      if (document.activeElement !== input) input.value = String(s.reinforcement[i]);
    });
    restock.value = s.restock;
    emptyBox.value = s.empty_box;
    if (document.activeElement !== floor) floor.value = String(s.floor);
    if (document.activeElement !== refill) refill.value = s.move_restock_beads === null ? "" : String(s.move_restock_beads);
    const human = s.opponent === "human";
    runButton.textContent = running ? "Pause" : "Run";
    runButton.disabled = human || Boolean(session.stopped);
    stepButton.textContent = human ? "New game" : "Step one game";
    stepButton.disabled = Boolean(session.stopped);
    tieBreak.closest("label").hidden = s.opponent !== "perfect";
    export2Button.hidden = s.opponent !== "menace";
  }

  function redraw() {
    drawReadout();
    drawControls();
    game.draw(session);
    plots.draw(session);
    grid.draw(session);
    dirty = false;
    lastDraw = performance.now();
  }

  // --------------------------------------------------------------- model sync
  function commit(extra = {}) {
    local = true;
    try {
      const s = { ...session.settings, schedule: session.settings.schedule.slice(), reinforcement: session.settings.reinforcement.slice() };
      const traits = {};
      for (const name of SETTING_NAMES) traits[TRAIT_OF[name] ?? name] = s[name];
      // state_settings tells a kernel that this state already follows these settings.
      model.set({ ...traits, state_settings: { ...s }, ...session.state(), ...extra });
      sync(model);
    } finally {
      local = false;
    }
    lastSync = performance.now();
  }

  function evaluate() {
    session.evaluate();
    lastEval = performance.now();
  }

  function fromModel() {
    const state = {};
    for (const name of STATE_NAMES) state[name] = model.get(name);
    session = new LabSession(T, settings(), state);
    if (!session.exact || session.exact.games !== session.games) evaluate();
    grid.build(T, session.menace);
    dirty = true;
    redraw();
  }

  function restart(changes) {
    const s = { ...session.settings, ...changes };
    session = new LabSession(T, s, {});
    if (s.opponent === "human") menaceReplies(); // MENACE opens when it plays X
    evaluate();
    grid.build(T, session.menace);
    commit({ games_before: 0 });
    redraw();
  }

  // ------------------------------------------------------------------ the link
  function linkSettings() {
    return { ...session.settings, speed: model.get("speed"), log: plots.log };
  }

  /** Keep the page's address in step with the settings (after a change by the reader). */
  function writeLink() {
    writePageParam(FRAGMENT_KEY, formatLink(linkSettings()));
    if (!linkField.hidden) linkField.value = window.location.href; // a shown link stays true
  }

  function setSpeed(value) {
    local = true;
    try {
      model.set("speed", value);
      sync(model);
    } finally {
      local = false;
    }
    moveClock = 0;
  }

  /** Settings from the page's address, if it has the lab's key: a fresh run with them
   * (from game 0 even if they are the current settings, so it replays the link's games). */
  function applyLink() {
    let text;
    try {
      text = readPageParam(FRAGMENT_KEY); // an over-long value is refused unread
    } catch (error) {
      message = `Could not use this link: ${error.message}.`;
      drawReadout();
      return;
    }
    if (text === null) return;
    const { settings: linked, problems } = parseLink(text, defaults, SPEEDS.length);
    pause();
    linkField.hidden = true; // it showed the address before this link
    message = problems.length
      ? `Could not use all of this link: ${problems.join("; ")}. Those settings keep their defaults; the rest of the link is used.`
      : `Settings from the link (seed ${linked.seed}): Run or Step plays the same games as anyone else opening it.`;
    setSpeed(linked.speed);
    plots.log = linked.log;
    const labSettings = {};
    for (const name of SETTING_NAMES) labSettings[name] = linked[name];
    restart(labSettings);
  }

  function showLink() {
    writeLink();
    linkField.value = window.location.href;
    linkField.hidden = false;
    linkField.select();
    message = "This page's address now opens the lab with these settings: copy the link above.";
    drawReadout();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(linkField.value).then(
        () => {
          message = "Link copied: it opens this page with these settings and seed (not the beads: export those).";
          drawReadout();
        },
        () => {}, // no clipboard permission: the link is shown to copy by hand
      );
    }
  }

  // ------------------------------------------------------------------ playing
  function oneGame() {
    const step = session.playGame();
    evaluate();
    if (step === "stopped") pause();
    commit();
    redraw();
  }

  function pause() {
    running = false;
    if (frameId !== null) cancelAnimationFrame(frameId);
    frameId = null;
  }

  function frame(now) {
    frameId = null;
    if (!running) return;
    const dt = Math.min(now - lastFrame, 100);
    lastFrame = now;
    const sp = SPEEDS[model.get("speed")] ?? SPEEDS[3];
    const start = performance.now();
    let stopped = false;
    if (sp.moveMs) {
      moveClock += dt;
      if (moveClock >= sp.moveMs) {
        moveClock = 0;
        const step = session.move();
        if (step === "over") evaluate();
        stopped = step === "stopped";
        dirty = true;
      }
    } else {
      owed = Math.min(owed + (sp.gps * dt) / 1000, sp.gps === Infinity ? Infinity : sp.gps);
      const each = sp.gps <= 100; // slow enough to evaluate after every game
      while (owed >= 1 && performance.now() - start < FRAME_BUDGET_MS) {
        const step = session.playGame();
        owed -= 1;
        dirty = true;
        if (step === "stopped") {
          stopped = true;
          break;
        }
        // The first EARLY_GAMES games (where MENACE learns most) get their exact figure at
        // every speed, so the curve keeps its early shape however fast the lab runs.
        if (each || session.games <= EARLY_GAMES) evaluate();
      }
      if (sp.gps === Infinity) owed = 0;
      if (dirty && !each && performance.now() - lastEval >= EVAL_MS) evaluate();
    }
    if (now - rateMark.t >= 1000) {
      rate = ((session.games - rateMark.games) * 1000) / (now - rateMark.t);
      rateMark = { t: now, games: session.games };
    }
    if (stopped) {
      pause();
      evaluate();
      commit();
      redraw();
      return;
    }
    const slow = sp.moveMs || sp.gps <= 10;
    if (dirty && (slow || now - lastDraw >= REDRAW_MS)) {
      if (!slow || !session.exact || session.exact.games !== session.games) evaluate();
      redraw();
    }
    if (now - lastSync >= SYNC_MS) commit();
    frameId = requestAnimationFrame(frame);
  }

  function run() {
    if (running || session.stopped || session.settings.opponent === "human") return;
    running = true;
    lastFrame = performance.now();
    rateMark = { t: lastFrame, games: session.games };
    rate = 0;
    owed = 0;
    moveClock = SPEEDS[model.get("speed")]?.moveMs ?? 0;
    frameId = requestAnimationFrame(frame);
    drawControls();
    drawReadout();
  }

  function stopRunning() {
    pause();
    evaluate();
    commit();
    redraw();
  }

  // Human games: the reader clicks, MENACE replies at once.
  function menaceReplies() {
    while (!session.game.over && !session.stopped && session.mover() !== "human") {
      if (session.move() !== "moved") break;
    }
    if (session.game.over) evaluate();
  }

  function onCell(i) {
    if (session.settings.opponent !== "human" || session.stopped) return;
    if (session.game.over) {
      session.newGame();
      menaceReplies();
    } else if (session.humanMove(i)) {
      menaceReplies();
    }
    commit();
    redraw();
  }

  // ----------------------------------------------------------------- handlers
  function change(changes) {
    message = "";
    const structural = Object.keys(changes).some((k) => STRUCTURAL.includes(k));
    if (structural || "seed" in changes) {
      pause();
      restart(changes);
    } else {
      session.updateRules(changes);
      if ("opponent" in changes) {
        if (changes.opponent === "human") pause();
        if (changes.opponent === "human") menaceReplies();
      }
      commit();
      redraw();
    }
    writeLink();
  }

  opponent.addEventListener("change", () => change({ opponent: opponent.value }));
  tieBreak.addEventListener("change", () => change({ tie_break: tieBreak.value }));
  side.addEventListener("change", () => change({ side: side.value }));
  seed.addEventListener("change", () => {
    const v = Number(seed.value);
    if (Number.isInteger(v) && v >= 0 && v < 2 ** 32) change({ seed: v });
    else {
      message = `Could not use seed ${seed.value}: use a whole number from 0 to 4294967295.`;
      drawReadout();
    }
  });
  layout.addEventListener("change", () => change({ layout: layout.value }));
  filter.addEventListener("change", () => change({ filter: filter.value }));
  schedule.addEventListener("change", () => {
    const v = parseSchedule(schedule.value);
    if (v) change({ schedule: v });
    else {
      message = `Could not read "${schedule.value}": write bead counts per move such as 4-3-2-1.`;
      drawReadout();
    }
  });
  incentives.forEach((input, i) =>
    input.addEventListener("change", () => {
      const v = Number(input.value);
      if (input.value.trim() === "" || !Number.isFinite(v)) {
        message = `Could not read the ${RESULTS[i]} incentive "${input.value}": write a number.`;
        drawReadout();
        return;
      }
      const next = session.settings.reinforcement.slice();
      next[i] = v;
      change({ reinforcement: next });
    }),
  );
  restock.addEventListener("change", () => change({ restock: restock.value }));
  emptyBox.addEventListener("change", () => change({ empty_box: emptyBox.value }));
  floor.addEventListener("change", () => {
    const v = Number(floor.value);
    const r = session.settings.move_restock_beads;
    if (floor.value.trim() === "" || !Number.isFinite(v) || v < 0 || (r !== null && r <= v)) {
      message = `Could not use clamp level "${floor.value}": it must be a number >= 0, below the move-restock beads.`;
      drawReadout();
    } else change({ floor: v });
  });
  refill.addEventListener("change", () => {
    const text = refill.value.trim();
    const v = Number(text);
    if (text === "") change({ move_restock_beads: null });
    else if (!Number.isFinite(v) || v <= session.settings.floor) {
      message = `Could not use move-restock beads "${refill.value}": it must be a number above the clamp level, or empty.`;
      drawReadout();
    } else change({ move_restock_beads: v });
  });
  speed.addEventListener("change", () => {
    setSpeed(Number(speed.value));
    writeLink();
  });
  runButton.addEventListener("click", () => (running ? stopRunning() : run()));
  stepButton.addEventListener("click", () => {
    if (running) stopRunning();
    if (session.settings.opponent === "human") {
      session.newGame();
      menaceReplies();
      commit();
      redraw();
      return;
    }
    oneGame();
  });
  resetButton.addEventListener("click", () => {
    pause();
    message = "";
    restart({});
  });
  defaultsButton.addEventListener("click", () => {
    pause();
    message = "Back to the lab's default settings.";
    linkField.hidden = true;
    setSpeed(defaults.speed);
    plots.log = defaults.log;
    const s = {};
    for (const name of SETTING_NAMES) s[name] = defaults[name];
    restart(s);
    writePageParam(FRAGMENT_KEY, null);
  });
  linkButton.addEventListener("click", showLink);

  function download(which) {
    const doc = session.agentFile(which, model.get("games_before"));
    const problem = menaceFileProblem(doc); // never write a file the library refuses
    if (problem) {
      message = `Cannot export ${which === 2 ? "MENACE 2" : "MENACE"}: ${problem}.`;
      drawReadout();
      return;
    }
    const blob = new Blob([JSON.stringify(doc)], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    const a = h("a", { href: url, download: `menace${which === 2 ? "2" : ""}-${doc.config.player}-${doc.games_trained}-games.json` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    message = `Exported ${which === 2 ? "MENACE 2" : "MENACE"} (${count(doc.games_trained)} games): load it with menace_lib.menace.Menace.load(path).`;
    drawReadout();
  }
  exportButton.addEventListener("click", () => download(1));
  export2Button.addEventListener("click", () => download(2));
  importInput.addEventListener("change", async () => {
    const file = importInput.files && importInput.files[0];
    if (!file) return;
    pause();
    try {
      const bytes = parseAgentBytes(new Uint8Array(await file.arrayBuffer()));
      if (bytes.error) throw new Error(bytes.error);
      const parsed = readAgentFile(T, bytes.doc, menaceStructure); // agent_schema.js: the library's rules
      session = new LabSession(T, { ...session.settings, ...parsed.settings }, { beads: parsed.beads });
      evaluate();
      grid.build(T, session.menace);
      commit({ games_before: parsed.games });
      writeLink();
      message = `Imported ${file.name}: MENACE as ${parsed.settings.side}, trained for ${count(parsed.games)} games before.`;
    } catch (error) {
      message = `Could not import ${file.name}: ${error.message}`;
    }
    importInput.value = "";
    redraw();
  });

  // A kernel that rewrites the state bumps `revision`; other changes from Python are
  // settings, applied as if the reader had chosen them.
  const onModel = () => {
    if (local) return;
    pause();
    fromModel();
  };
  model.on("change:revision", onModel);
  window.addEventListener("hashchange", applyLink);

  fromModel();
  if (model.get("games") === 0 && session.settings.opponent === "human") menaceReplies();
  applyLink();
  return () => {
    pause();
    model.off("change:revision", onModel);
    window.removeEventListener("hashchange", applyLink);
  };
}

export default { render };
