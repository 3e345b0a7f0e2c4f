// Play Hexapawn against HER, Gardner's matchbox machine: the whole game runs here, so the
// widget works on a static page (menace_lib/widgets/her_play.py is its Python twin).
//
// Data (trait `data`, her_play.her_data): Hexapawn's tables (game_data.game_payload) and
// HER's two learning rules. HER's boxes are lab_tables.menaceStructure's; it moves and
// learns through the widgets' one game engine (lab_engine.machineMove / machineLearn),
// drawing from the Philox stream of `seed` at position `draws`, so a game here replays
// exactly in Python. Game state lives in synced traits (moves, path, result, tally,
// beads, record, last_draw, draws). Moves are Hexapawn's integers (3 * cell + direction);
// readers see squares named a1-c3, White's home row being rank 1.
import { BEAD_COLOURS, COLOUR_NAMES, beadText, h, sync } from "./common.js";
import { button, mountOrExplain, showNotice, showText, sideParagraphs } from "./view_parts.js";
import { machineLearn, machineMove, randomStream } from "./lab_engine.js";
import { menaceStructure, tablesOf } from "./lab_tables.js";
import { fragmentValue, withFragmentValue } from "./fragment.js";

const EMPTY = 0;
const WHITE = 1;
const BLACK = 2;
const WIN = 0;
const LOSS = 2;
const RESULT_TEXT = ["HER wins", "", "You win"];
/** The HER widget's key in the page's URL fragment ("#her=rule:gardner,seed:3,games:..."). */
export const FRAGMENT_KEY = "her";
const STATE_NAMES = ["rule", "seed", "draws", "moves", "path", "result", "tally", "beads", "record", "last_draw"];
const PIECE = ["", "♙", "♟"];
const PIECE_NAME = ["empty", "white pawn", "black pawn"];

// ------------------------------------------------------------------ the game

const setupCache = new WeakMap();

/** Hexapawn's tables and HER's boxes under each rule (built once per payload). */
export function setup(data) {
  let found = setupCache.get(data);
  if (found) return found;
  const T = tablesOf(data.tables);
  const machines = {};
  for (const [rule, r] of Object.entries(data.rules)) {
    const structure = menaceStructure(T, { layout: r.layout, filter: r.filter, player: data.player, schedule: r.schedule });
    machines[rule] = { rules: r, structure };
  }
  found = { T, machines };
  setupCache.set(data, found);
  return found;
}

/** "a3": a cell's name for readers (files a-c left to right, rank 1 White's home row). */
export function cellName(cell) {
  return "abc"[cell % 3] + String(3 - Math.floor(cell / 3));
}

/** The cell a move's pawn lands on, for the side to move `player`. */
export function destination(move, player) {
  const cell = Math.floor(move / 3);
  const row = Math.floor(cell / 3) + (player === WHITE ? -1 : 1);
  return 3 * row + (cell % 3) + (move % 3) - 1;
}

function cellsOf(T, pid) {
  return Array.from(T.cells.subarray(pid * 9, pid * 9 + 9));
}

/** "b1-b2" or "a2xb3" (a capture): move `move` in position `pid`. */
export function moveName(T, pid, move) {
  const cells = cellsOf(T, pid);
  const from = Math.floor(move / 3);
  const to = destination(move, T.player[pid]);
  return `${cellName(from)}${cells[to] === EMPTY ? "-" : "x"}${cellName(to)}`;
}

/** The position id after `moves` from the start. */
export function positionOf(T, moves) {
  let pid = 0;
  for (const m of moves) pid = T.succ[pid * T.nMoves + m];
  return pid;
}

/** "human" (White to move), "her" or "over". */
export function turnOf(data, s) {
  if (s.result) return "over";
  const { T } = setup(data);
  return T.player[positionOf(T, s.moves)] === BLACK ? "her" : "human";
}

/** A fresh HER (the rule's initial beads), the seed's stream from its start, no games. */
export function freshState(data, rule, seed) {
  const { machines } = setup(data);
  return {
    rule,
    seed,
    draws: 0,
    moves: [],
    path: [],
    result: "",
    tally: { her: 0, human: 0 },
    beads: machines[rule].structure.initial.map((w) => w.slice()),
    record: [],
    last_draw: {},
  };
}

function finish(data, s, result) {
  const { structure, rules } = setup(data).machines[s.rule];
  s.beads = s.beads.map((w) => w.slice());
  machineLearn(s.beads, structure.initial, structure.initial, s.path, result, rules);
  s.result = RESULT_TEXT[result];
  const key = result === WIN ? "her" : "human";
  s.tally = { ...s.tally, [key]: s.tally[key] + 1 };
  s.record = [...s.record, s.moves.filter((_, k) => k % 2 === 0)];
  return s;
}

function advance(data, s, move) {
  const { T } = setup(data);
  const next = T.succ[positionOf(T, s.moves) * T.nMoves + move];
  s.moves = [...s.moves, move];
  const outcome = T.outcome[next];
  if (outcome !== 0) return finish(data, s, outcome === BLACK ? WIN : LOSS);
  return s;
}

/** HER draws a bead and plays it, or resigns at an empty box (a loss it learns from). */
export function herMove(data, s) {
  const { T, machines } = setup(data);
  const { structure, rules } = machines[s.rule];
  const rng = randomStream(s.seed, s.draws);
  s.beads = s.beads.map((w) => w.slice());
  const step = machineMove(structure, s.beads, positionOf(T, s.moves), rng, rules);
  s.draws = rng.position;
  s.last_draw = { move: step.move, box: step.box, colour: step.colour };
  if (step.colour >= 0) s.path = [...s.path, [step.box, step.colour]];
  if (step.move < 0) return finish(data, s, LOSS);
  return advance(data, s, step.move);
}

/** White's legal moves now (none unless it is the reader's turn). */
export function legalMoves(data, s) {
  if (turnOf(data, s) !== "human") return [];
  const { T } = setup(data);
  const pid = positionOf(T, s.moves);
  const out = [];
  for (let m = 0; m < T.nMoves; m++) if (T.succ[pid * T.nMoves + m] >= 0) out.push(m);
  return out;
}

/** White plays `move` and HER replies; null if the move is not legal now. A finished
 * game is cleared first (HER keeps what it learnt). */
export function humanMove(data, s, move) {
  if (s.result) s = newGame(s);
  if (!legalMoves(data, s).includes(move)) return null;
  s = advance(data, s, move);
  if (turnOf(data, s) === "her") s = herMove(data, s);
  return s;
}

export function newGame(s) {
  return { ...s, moves: [], path: [], result: "", last_draw: {} };
}

/** A fresh session with White's moves of `games` replayed (what a link holds). */
export function replay(data, rule, seed, games) {
  let s = freshState(data, rule, seed);
  for (const [g, moves] of games.entries()) {
    s = newGame(s);
    for (const [k, move] of moves.entries()) {
      const next = humanMove(data, s, move);
      if (!next) throw new RangeError(`game ${g + 1}, White's move ${k + 1} is not legal there`);
      s = next;
    }
    if (!s.result) throw new RangeError(`game ${g + 1} does not end after White's moves`);
  }
  return s;
}

// ---------------------------------------------------------------- the link

/** "rule:gardner,seed:3,games:mp.mpq" (as HerWidget.fragment, after "her="). */
export function formatLink(s, maxGames) {
  const text = `rule:${s.rule},seed:${s.seed}`;
  if (s.record.length === 0 || s.record.length > maxGames) return text;
  return `${text},games:${s.record.map((g) => g.map((m) => m.toString(36)).join("")).join(".")}`;
}

/** A link's text -> {rule, seed, games} or {error}. */
export function parseLink(data, text) {
  const out = { ...data.defaults, games: [] };
  const seen = new Set();
  for (const part of text.split(",")) {
    const colon = part.indexOf(":");
    const name = colon > 0 ? part.slice(0, colon) : part;
    const value = colon > 0 ? part.slice(colon + 1) : "";
    if (seen.has(name)) return { error: `${name.slice(0, 20)} is given twice` };
    seen.add(name);
    if (name === "rule") {
      if (!Object.prototype.hasOwnProperty.call(data.rules, value)) return { error: `rule must be one of ${Object.keys(data.rules).join(", ")}` };
      out.rule = value;
    } else if (name === "seed") {
      const n = /^\d{1,10}$/.test(value) ? Number(value) : NaN;
      if (!(n < 2 ** 32)) return { error: "seed must be a whole number from 0 to 4294967295" };
      out.seed = n;
    } else if (name === "games") {
      if (!/^[0-9a-q]+(\.[0-9a-q]+)*$/.test(value)) return { error: "games must be moves in base 36, games separated by dots" };
      out.games = value.split(".").map((g) => Array.from(g, (c) => parseInt(c, 36)));
      if (out.games.length > data.max_games_in_link) return { error: `a link replays at most ${data.max_games_in_link} games` };
    } else {
      return { error: `unknown setting ${JSON.stringify(name.slice(0, 20))}; use rule, seed, games` };
    }
  }
  return out;
}

// ------------------------------------------------------------------ views
// Each view owns one part of the screen: build() makes its elements, draw(s) shows a state.

function boardView(onCell) {
  const cells = Array.from({ length: 9 }, (_, i) =>
    h(
      "button",
      { type: "button", class: "mw-cell mw-her-cell", "data-testid": `her-cell-${i}`, "data-cell": i, onclick: () => onCell(i) },
      h("span", { class: "mw-mark", "aria-hidden": "true" }),
      h("span", { class: "mw-cell-number", "aria-hidden": "true" }, cellName(i)),
    ),
  );
  const el = h("div", { class: "mw-board", role: "group", "aria-label": "Hexapawn board, a3 top left to c1 bottom right", "data-testid": "her-board" }, cells);
  return {
    el,
    draw(T, pid, selected, targets, turn) {
      const board = cellsOf(T, pid);
      cells.forEach((c, i) => {
        const v = board[i];
        c.querySelector(".mw-mark").textContent = PIECE[v];
        c.classList.toggle("mw-her-white", v === WHITE);
        c.classList.toggle("mw-her-black", v === BLACK);
        c.classList.toggle("mw-her-selected", i === selected);
        c.classList.toggle("mw-her-target", targets.has(i));
        const usable = turn === "over" || (turn === "human" && (v === WHITE || targets.has(i)));
        c.setAttribute("aria-disabled", usable ? "false" : "true");
        let label = `${cellName(i)}, ${PIECE_NAME[v]}`;
        if (i === selected) label += ", selected";
        if (targets.has(i)) label += ", a move for the selected pawn";
        c.setAttribute("aria-label", label);
      });
    },
  };
}

function statusView() {
  const { status, live, tally, last, notice } = sideParagraphs("her");
  return {
    el: h("div", { class: "mw-side" }, status, live, tally, last, notice),
    draw(s, turn, selected, lastText, message) {
      if (turn === "over") status.textContent = `Game over: ${s.result}. Click the board (or New game) to play again.`;
      else if (selected >= 0) status.textContent = `Pawn on ${cellName(selected)} selected: choose where it goes.`;
      else status.textContent = "Your move (White, ♙): choose a pawn, then its square.";
      showText(live, s.result);
      tally.textContent = `HER ${s.tally.her} · You ${s.tally.human} · ${s.record.length} game${s.record.length === 1 ? "" : "s"} learnt`;
      showText(last, lastText);
      showNotice(notice, message);
    },
  };
}

/** The boxes' indices in the order of their printed numbers (the HER kit's order). */
function printedOrder(structure) {
  return structure.states.map((_, b) => b).sort((a, b) => structure.numbers[a] - structure.numbers[b]);
}

function boxesView() {
  const list = h("div", { class: "mw-her-boxes", "data-testid": "her-boxes" });
  const caption = h("p", { class: "mw-caption" });
  return {
    el: h("div", { class: "mw-her-boxes-panel" }, h("h4", { class: "mw-her-heading" }, "HER's matchboxes"), caption, list),
    draw(T, structure, s) {
      const used = new Set(s.path.map(([b]) => b));
      const total = s.beads.reduce((a, w) => a + w.reduce((x, y) => x + y, 0), 0);
      caption.textContent =
        `${structure.states.length} boxes, ${beadText(total)} beads. One bead per move in each box; ` +
        "HER draws one at random. Boxes drawn from in this game are outlined.";
      list.replaceChildren(
        ...printedOrder(structure).map((b) => {
          const pid = structure.states[b];
          const board = cellsOf(T, pid);
          const mini = h(
            "div",
            { class: "mw-her-mini", "aria-hidden": "true" },
            board.map((v) => h("span", { class: `mw-her-mini-cell mw-her-p${v}` }, PIECE[v])),
          );
          // Each bead's colour and the box's number are the printed kit's (structure.colours,
          // structure.numbers: menace_lib.machine.printed), so the class's boxes match.
          const beads = structure.entries[b].map((m, j) =>
            h(
              "li",
              {
                "data-testid": `her-bead-${b}-${j}`,
                "data-beads": s.beads[b][j],
                "data-colour": COLOUR_NAMES[structure.colours[b][j]],
                class: s.beads[b][j] > 0 ? "" : "mw-her-gone",
              },
              h("span", { class: "mw-swatch", style: { background: BEAD_COLOURS[structure.colours[b][j]] }, "aria-hidden": "true" }),
              ` ${COLOUR_NAMES[structure.colours[b][j]]} ${moveName(T, pid, m)}: ${beadText(s.beads[b][j])}`,
            ),
          );
          const empty = s.beads[b].every((x) => x <= 0);
          return h(
            "figure",
            {
              class: `mw-her-box${used.has(b) ? " mw-her-used" : ""}${s.last_draw.box === b ? " mw-her-last" : ""}`,
              "data-testid": `her-box-${b}`,
              "data-number": structure.numbers[b],
              "aria-label": `Box ${structure.numbers[b]}${empty ? ", empty: HER resigns here" : ""}`,
            },
            mini,
            h("figcaption", {}, `Box ${structure.numbers[b]}${empty ? " (empty)" : ""}`),
            h("ul", { class: "mw-her-beads" }, beads),
          );
        }),
      );
    },
  };
}

function controlsView(data, handlers) {
  const rule = h(
    "select",
    { class: "mw-select", "data-testid": "her-rule" },
    h("option", { value: "gardner" }, "Gardner's rule (a loss takes one bead)"),
    h("option", { value: "michie" }, "Michie's rule (+3 / −1, every bead)"),
  );
  rule.addEventListener("change", () => handlers.rule(rule.value));
  const link = h("input", { type: "text", readonly: true, class: "mw-link", "aria-label": "Link to this session", "data-testid": "her-link", hidden: true });
  const el = h(
    "div",
    { class: "mw-tools" },
    h("label", { class: "mw-her-rule" }, "HER learns by ", rule),
    h(
      "div",
      { class: "mw-buttons" },
      button("New game", "her-new", handlers.newGame),
      button("Fresh HER", "her-reset", handlers.reset),
      button("Link to this session", "her-share", handlers.share),
    ),
    link,
  );
  return {
    el,
    link,
    draw(s) {
      rule.value = s.rule;
    },
  };
}

// ------------------------------------------------------------------ mounting

function render({ model, el }) {
  return mountOrExplain(mount, model, el, { className: "mw mw-her", testid: "her-broken", name: "HER widget" });
}

function snapshot(model) {
  const s = {};
  for (const name of STATE_NAMES) s[name] = JSON.parse(JSON.stringify(model.get(name)));
  return s;
}

function lastMoveText(T, structure, s) {
  const ld = s.last_draw;
  if (!ld || ld.move === undefined) return "";
  const number = structure.numbers[ld.box];
  if (ld.move < 0) return `HER found box ${number} empty and resigned.`;
  const before = positionOf(T, s.moves.slice(0, s.moves.lastIndexOf(ld.move)));
  const colour = COLOUR_NAMES[structure.colours[ld.box][ld.colour]];
  return `HER drew a ${colour} bead for ${moveName(T, before, ld.move)} from box ${number}.`;
}

function mount(model, el) {
  const data = model.get("data");
  const { T, machines } = setup(data);
  let selected = -1;
  let message = { text: "", kind: "" };

  const commit = (s, text = "") => {
    message = { text, kind: "" };
    model.set(s);
    sync(model);
    update();
  };
  const say = (text, kind = "info") => {
    message = { text, kind };
    update();
  };

  const onCell = (i) => {
    const s = snapshot(model);
    if (s.result) {
      selected = -1;
      commit(newGame(s), "A new game: your move.");
      return;
    }
    if (turnOf(data, s) !== "human") return;
    const board = cellsOf(T, positionOf(T, s.moves));
    if (board[i] === WHITE) {
      selected = selected === i ? -1 : i;
      update();
      return;
    }
    const move = legalMoves(data, s).find((m) => Math.floor(m / 3) === selected && destination(m, WHITE) === i);
    if (move === undefined) {
      say(selected < 0 ? "Choose one of your pawns (♙) first." : `The pawn on ${cellName(selected)} cannot go to ${cellName(i)}.`);
      return;
    }
    selected = -1;
    commit(humanMove(data, s, move));
  };

  const board = boardView(onCell);
  const status = statusView();
  const boxes = boxesView();
  const controls = controlsView(data, {
    rule: (rule) => {
      selected = -1;
      commit(freshState(data, rule, model.get("seed")), `A fresh HER learning by ${rule === "gardner" ? "Gardner's" : "Michie's"} rule.`);
    },
    newGame: () => {
      selected = -1;
      commit(newGame(snapshot(model)));
    },
    reset: () => {
      selected = -1;
      commit(freshState(data, model.get("rule"), model.get("seed")), "A fresh HER: every box holds its first beads again.");
    },
    share: () => {
      const s = snapshot(model);
      const hash = withFragmentValue(window.location.hash, FRAGMENT_KEY, formatLink(s, data.max_games_in_link));
      history.replaceState(history.state, "", hash || window.location.pathname + window.location.search);
      controls.link.value = window.location.href;
      controls.link.hidden = false;
      controls.link.select();
      say(
        s.record.length > data.max_games_in_link
          ? `This page's address now opens HER with this rule and seed (a link replays at most ${data.max_games_in_link} games).`
          : "This page's address now replays these games: HER's boxes as they are now. Copy the link above.",
      );
    },
  });

  const root = h(
    "div",
    { class: "mw mw-her", "data-testid": "her" },
    h("p", { class: "mw-caption" }, "You play White (♙, moving up the board) against HER (♟). Pawns move one square ahead, or capture one square diagonally ahead. Reach the far row, take every enemy pawn or leave HER without a move to win. HER learns from every game."),
    h("div", { class: "mw-main" }, board.el, status.el),
    controls.el,
    boxes.el,
  );
  el.append(root);

  function update() {
    const s = snapshot(model);
    const turn = turnOf(data, s);
    const pid = positionOf(T, s.moves);
    const targets = new Set();
    if (selected >= 0) for (const m of legalMoves(data, s)) if (Math.floor(m / 3) === selected) targets.add(destination(m, WHITE));
    root.dataset.turn = turn;
    root.dataset.games = String(s.record.length);
    root.dataset.moves = JSON.stringify(s.moves);
    board.draw(T, pid, selected, targets, turn);
    status.draw(s, turn, selected, lastMoveText(T, machines[s.rule].structure, s), message);
    controls.draw(s);
    boxes.draw(T, machines[s.rule].structure, s);
  }

  const fromLink = () => {
    let value;
    try {
      value = fragmentValue(window.location.hash, FRAGMENT_KEY);
    } catch (error) {
      say(`The link was not used: ${error.message}.`, "error");
      return;
    }
    if (value === null) return;
    const parsed = parseLink(data, value);
    if (parsed.error) {
      say(`The link was not used: ${parsed.error}.`, "error");
      return;
    }
    try {
      const s = replay(data, parsed.rule, parsed.seed, parsed.games);
      selected = -1;
      commit(s, `From the link: HER learning by ${parsed.rule === "gardner" ? "Gardner's" : "Michie's"} rule, seed ${parsed.seed}, ${parsed.games.length} game(s) replayed.`);
    } catch (error) {
      say(`The link was not used: ${error.message}.`, "error");
    }
  };
  window.addEventListener("hashchange", fromLink);
  model.on("change", update);
  update();
  fromLink();
  return () => {
    model.off("change", update);
    window.removeEventListener("hashchange", fromLink);
  };
}

export default { render };
