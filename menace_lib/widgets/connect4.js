// Connect-4 on a small board against a trained MENACE: the whole game runs here, so the
// widget works on a static page with no kernel (and in a live kernel, which sees every
// move through the synced traits).
//
// Data (trait `data`, menace_lib/widgets/connect4_data.py): the board size, MENACE's side
// and bead rules, and only the boxes whose beads training changed, keyed by canonical
// bitboard code (first code then gaps; their counts one after another, one per free column
// of the canonical position, from the left). Everything else is computed from the board:
// the rules, the mirror symmetry, which positions have a box (MENACE to move with more than
// one free column) and a box's starting beads (the schedule by number of stones). A copy of
// menace_lib/connect4.py's rules and menace_lib/machine.py's layout, checked by
// tests/test_connect4_widget.py over all 161,029 positions of the 4×4 board.
//
// Bead rules are beads.js's (the one JavaScript copy of menace_lib/beads.py) and the draws
// prng.js's Philox stream (menace_lib/prng.py), so a game here is the library's game: the
// same test replays whole games in Python. Columns are 0-based in the data and the traits,
// 1-based wherever a reader sees them.
import { BEAD_COLOURS, COLOUR_NAMES, beadText, h, sync } from "./common.js";
import { mountOrExplain } from "./view_parts.js";
import { RESIGN, STOP, drawBead, emptyBoxMove, refillEmpty, reinforce } from "./beads.js";
import { counterRng } from "./prng.js";

export const ONGOING = 0;
export const FIRST_WIN = 1;
export const SECOND_WIN = 2;
export const DRAW = 3;
const WIN = 0; // results from MENACE's side (menace_lib.games.results)
const DRAW_RESULT = 1;
const LOSS = 2;
const RESULT_KEYS = ["menace", "draw", "human"];
export const MAX_BITS = 30; // bit operations stay within a 32-bit integer
const STATE_NAMES = ["seed", "learn", "moves", "result", "tally", "draws", "learned", "games_learned", "path", "last"];

// ------------------------------------------------------------------------ the rules

/**
 * Connect-4 on bitboards, as menace_lib.games.connect4: column c owns bits c*(height+1) ..
 * c*(height+1)+height (the top one a sentinel); a board is [first, mask] (the first
 * player's stones, all stones) and its code first + mask + bottom.
 */
export function makeRules(width, height, line) {
  const h1 = height + 1;
  if (![width, height, line].every(Number.isInteger) || width < 1 || height < 1 || line < 2) {
    throw new Error(`bad board ${width}x${height}, ${line} in a row`);
  }
  if (width * h1 > MAX_BITS) throw new Error(`board ${width}x${height} needs ${width * h1} bits, at most ${MAX_BITS}`);
  const colBits = (1 << h1) - 1;
  let bottom = 0;
  for (let c = 0; c < width; c++) bottom |= 1 << (c * h1);
  const full = bottom * ((1 << height) - 1); // every cell, no sentinel
  const shifts = [1, h1, height, height + 2];

  const legal = (mask) => {
    const out = [];
    for (let c = 0; c < width; c++) if (!((mask >>> (c * h1 + height - 1)) & 1)) out.push(c);
    return out;
  };
  const hasLine = (stones) => {
    for (const s of shifts) {
      let run = stones;
      for (let k = 1; k < line; k++) run &= stones >>> (k * s);
      if (run) return true;
    }
    return false;
  };
  const mirror = (bits) => {
    let out = 0;
    for (let c = 0; c < width; c++) out |= ((bits >>> (c * h1)) & colBits) << ((width - 1 - c) * h1);
    return out;
  };
  const stones = (mask) => {
    let n = 0;
    for (let m = mask; m; m &= m - 1) n += 1;
    return n;
  };
  const rules = {
    width,
    height,
    line,
    legal,
    hasLine,
    mirror,
    stones,
    /** The board after the player to move drops a stone in `column`. */
    play([first, mask], column) {
      const newMask = mask | (mask + (1 << (column * h1)));
      const firstMoves = stones(mask) % 2 === 0;
      return [firstMoves ? first | (newMask ^ mask) : first, newMask];
    },
    code: ([first, mask]) => first + mask + bottom,
    /** [first, mask] of a code (menace_lib.games.connect4.Bitboards.split). */
    split(code) {
      let mask = 0;
      for (let c = 0; c < width; c++) {
        const col = (code >>> (c * h1)) & colBits;
        const top = 31 - Math.clz32(col); // the sentinel just above the column's stones
        mask |= ((1 << top) - 1) << (c * h1);
      }
      return [code - mask - bottom, mask];
    },
    /** {code, mirrored}: the smaller code of the board and its mirror image. */
    canonical([first, mask]) {
      const code = first + mask + bottom;
      const flipped = mirror(first) + mirror(mask) + bottom;
      return flipped < code ? { code: flipped, mirrored: true } : { code, mirrored: false };
    },
    result([first, mask]) {
      if (hasLine(first)) return FIRST_WIN;
      if (hasLine(mask ^ first)) return SECOND_WIN;
      return mask === full ? DRAW : ONGOING;
    },
    toMove: ([, mask]) => (stones(mask) % 2 === 0 ? 1 : 2),
    /** Cells (row from the top * width + column) of every complete line on the board. */
    winningCells([first, mask]) {
      const cells = new Set();
      for (const player of [first, mask ^ first]) {
        for (const s of shifts) {
          let run = player;
          for (let k = 1; k < line; k++) run &= player >>> (k * s);
          for (let bit = 0; run >>> bit; bit++) {
            if (!((run >>> bit) & 1)) continue;
            for (let k = 0; k < line; k++) {
              const b = bit + k * s;
              cells.add((height - 1 - (b % h1)) * width + Math.floor(b / h1));
            }
          }
        }
      }
      return [...cells].sort((a, b) => a - b);
    },
    start: () => [0, 0],
    /** Cell (row from the top, column) of a board: 0 empty, 1 first player, 2 second. */
    cell([first, mask], row, column) {
      const bit = 1 << (column * h1 + height - 1 - row);
      if (!(mask & bit)) return 0;
      return first & bit ? 1 : 2;
    },
  };
  return rules;
}

// ------------------------------------------------------------------ MENACE's boxes

const cache = new WeakMap();

/** The rules and the trained beads (Map code -> counts) of a data object, built once. */
export function machine(data) {
  let m = cache.get(data);
  if (m) return m;
  const rules = makeRules(data.width, data.height, data.line);
  const trained = new Map();
  let code = 0;
  let at = 0;
  for (const gap of data.codes) {
    code += gap;
    const n = rules.legal(rules.split(code)[1]).length;
    if (n < 2 || at + n > data.beads.length) throw new Error(`the data's box ${code} does not fit its beads`);
    trained.set(code, data.beads.slice(at, at + n));
    at += n;
  }
  if (at !== data.beads.length) throw new Error(`the data lists ${data.beads.length} bead counts for ${at} colours`);
  m = { rules, trained };
  cache.set(data, m);
  return m;
}

/** A box's starting beads: the schedule's count for its stones, once per free column. */
export function initialBeads(data, code) {
  const { rules } = machine(data);
  const mask = rules.split(code)[1];
  const schedule = data.config.schedule;
  const per = schedule[Math.min(rules.stones(mask) >> 1, schedule.length - 1)];
  return rules.legal(mask).map(() => per);
}

/** The beads of box `code` now: learnt in this session, else trained, else the schedule's. */
export function boxBeads(data, learned, code) {
  const key = String(code);
  if (learned && key in learned) return learned[key].slice();
  const trained = machine(data).trained.get(code);
  return trained ? trained.slice() : initialBeads(data, code);
}

/**
 * What MENACE sees on `board` (its move): null if no box (a forced move), else {code,
 * columns, beads} -- `columns[j]` is the column colour j drops into on this board (the
 * canonical position's free columns from the left, mirrored back if the board is the
 * mirror image).
 */
export function boxOf(data, board, learned = {}) {
  const { rules } = machine(data);
  const free = rules.legal(board[1]);
  if (free.length < 2) return null;
  const { code, mirrored } = rules.canonical(board);
  const canonicalFree = rules.legal(rules.split(code)[1]);
  const columns = canonicalFree.map((c) => (mirrored ? rules.width - 1 - c : c));
  return { code, columns, beads: boxBeads(data, learned, code) };
}

/** The board after `moves` (columns, from the empty board). */
export function boardAfter(data, moves) {
  const { rules } = machine(data);
  let board = rules.start();
  for (const c of moves) board = rules.play(board, c);
  return board;
}

// -------------------------------------------------------------------- transitions
// Each takes a plain state object (the synced traits) and returns the next one.

function copyState(s) {
  return JSON.parse(JSON.stringify(s));
}

/** Whose turn: "menace", "human" or "over". */
export function turnOf(data, s) {
  if (s.result) return "over";
  const { rules } = machine(data);
  return rules.toMove(boardAfter(data, s.moves)) === data.player ? "menace" : "human";
}

/** A bead change with its sign: "+3", "−1" (a true minus sign). */
function signed(x) {
  return x < 0 ? `\u2212${-x}` : `+${x}`;
}

function percent(p) {
  return `${Math.round(p * 100)} %`;
}

/** Score the game from MENACE's side and, if learning, reinforce every bead it drew. */
function finish(data, s, result) {
  const key = RESULT_KEYS[result];
  s.result = key;
  s.tally = { ...s.tally, [key]: s.tally[key] + 1 };
  if (!s.learn || s.path.length === 0) return s;
  const weights = {};
  const initial = {};
  for (const [code] of s.path) {
    weights[code] = boxBeads(data, s.learned, code);
    initial[code] = initialBeads(data, code);
  }
  const cfg = data.config;
  reinforce(weights, initial, initial, s.path, cfg.reinforcement[result], cfg.restock, cfg.floor);
  s.learned = { ...s.learned };
  for (const [code, w] of Object.entries(weights)) s.learned[code] = w;
  s.games_learned += 1;
  return s;
}

function afterMove(data, s) {
  const outcome = machine(data).rules.result(boardAfter(data, s.moves));
  if (outcome === ONGOING) return s;
  if (outcome === DRAW) return finish(data, s, DRAW_RESULT);
  const menaceWon = (outcome === FIRST_WIN) === (data.player === 1);
  return finish(data, s, menaceWon ? WIN : LOSS);
}

/** MENACE moves: one uniform draw per box it opens (as Menace.choose), none when forced. */
export function menaceMove(data, s) {
  if (turnOf(data, s) !== "menace") return s;
  s = copyState(s);
  const board = boardAfter(data, s.moves);
  const box = boxOf(data, board, s.learned);
  if (box === null) {
    const [column] = machine(data).rules.legal(board[1]);
    s.last = { column, code: -1, colour: -1, columns: [column], beads: [], p: [1] };
    s.moves = [...s.moves, column];
    return afterMove(data, s);
  }
  const rng = counterRng(s.seed, s.draws);
  const u = rng.random();
  s.draws = rng.position;
  const w = box.beads;
  const cfg = data.config;
  const added = refillEmpty(w, initialBeads(data, box.code), cfg.restock);
  if (added === null) {
    const move = emptyBoxMove(cfg.empty_box, s.moves.length < 2);
    s.last = { column: move, code: box.code, colour: -1, columns: box.columns, beads: w, p: w.map(() => 0) };
    if (move === STOP) return s; // a game that does not count: nothing learnt
    return finish(data, s, LOSS);
  }
  const j = drawBead(w, u);
  const total = w.reduce((a, b) => a + b, 0);
  // A restocked box keeps its new beads, as Menace.choose refills it in place.
  if (added > 0 || box.code in s.learned) s.learned = { ...s.learned, [box.code]: w.slice() };
  s.path = [...s.path, [box.code, j]];
  s.last = { column: box.columns[j], code: box.code, colour: j, columns: box.columns, beads: w, p: w.map((x) => x / total) };
  s.moves = [...s.moves, box.columns[j]];
  return afterMove(data, s);
}

/** Why the reader may not drop a stone in `column` now ("" if they may). */
export function illegalMove(data, s, column) {
  const turn = turnOf(data, s);
  if (turn === "over") return "The game is over: press New game to play again.";
  if (turn === "menace") return "It is MENACE's move.";
  const { rules } = machine(data);
  if (!rules.legal(boardAfter(data, s.moves)[1]).includes(column)) {
    return `Column ${column + 1} is full: choose another column.`;
  }
  return "";
}

/** The reader drops a stone in `column`; MENACE replies at once. Null if not allowed. */
export function humanMove(data, s, column) {
  if (illegalMove(data, s, column)) return null;
  s = copyState(s);
  s.moves = [...s.moves, column];
  s = afterMove(data, s);
  return menaceMove(data, s);
}

/** A new game (the tally, MENACE's learning and the draws go on); MENACE opens. */
export function newGame(data, s) {
  s = copyState(s);
  s.moves = [];
  s.path = [];
  s.result = "";
  s.last = {};
  return menaceMove(data, s);
}

/** MENACE back to its trained beads, the tally and the draws from the start. */
export function resetMenace(data, s) {
  s = copyState(s);
  s.learned = {};
  s.games_learned = 0;
  s.tally = { menace: 0, draw: 0, human: 0 };
  s.draws = 0;
  return newGame(data, s);
}

/** Why a state cannot be played from ("" if it can): checked before anything is drawn. */
export function stateProblem(data, s) {
  if (!Number.isSafeInteger(s.seed) || s.seed < 0) return `seed ${s.seed} is not a whole number >= 0`;
  if (!Number.isSafeInteger(s.draws) || s.draws < 0) return `draws ${s.draws} is not a whole number >= 0`;
  if (!Array.isArray(s.moves)) return "moves is not a list";
  const { rules } = machine(data);
  let board = rules.start();
  for (const [k, c] of s.moves.entries()) {
    if (rules.result(board) !== ONGOING) return `move ${k + 1} comes after the game ended`;
    if (!rules.legal(board[1]).includes(c)) return `move ${k + 1} (${c}) is not a free column`;
    board = rules.play(board, c);
  }
  if (!s.tally || !RESULT_KEYS.every((k) => Number.isSafeInteger(s.tally[k]) && s.tally[k] >= 0)) {
    return "tally is not three whole numbers";
  }
  if (s.result && !RESULT_KEYS.includes(s.result)) return `result ${JSON.stringify(s.result)} is unknown`;
  if (!Array.isArray(s.path) || !s.path.every((e) => Array.isArray(e) && e.length === 2 && e.every(Number.isSafeInteger))) {
    return "path is not a list of [box, colour] pairs";
  }
  for (const [code, colour] of s.path) {
    if (code < 0 || code >= 2 ** MAX_BITS || colour < 0 || colour >= initialBeads(data, code).length) {
      return `path entry [${code}, ${colour}] is not a box's colour`;
    }
  }
  if (typeof s.last !== "object" || s.last === null || Array.isArray(s.last)) return "last is not an object";
  if (typeof s.learned !== "object" || s.learned === null || Array.isArray(s.learned)) return "learned is not an object";
  for (const [code, w] of Object.entries(s.learned)) {
    const box = initialBeads(data, Number(code));
    if (!Array.isArray(w) || w.length !== box.length || !w.every((x) => Number.isFinite(x) && x >= 0)) {
      return `learned beads of box ${code} do not fit it`;
    }
  }
  return "";
}

// ------------------------------------------------------------------------- the view

function stoneName(data, v) {
  if (v === 0) return "empty";
  return v === data.player ? "MENACE's stone" : "your stone";
}

function snapshot(model) {
  const s = {};
  for (const name of STATE_NAMES) s[name] = JSON.parse(JSON.stringify(model.get(name) ?? null));
  s.moves = s.moves || [];
  s.path = s.path || [];
  s.learned = s.learned || {};
  s.last = s.last || {};
  return s;
}

function resultText(data, s) {
  if (s.result === "menace") return "MENACE wins.";
  if (s.result === "human") return "You win!";
  if (s.result === "draw") return "A draw: the board is full.";
  return "";
}

function boxPanel(data, s) {
  const last = s.last || {};
  const shown =
    Number.isSafeInteger(last.code) &&
    Array.isArray(last.columns) &&
    Array.isArray(last.beads) &&
    Array.isArray(last.p) &&
    (last.code < 0 || (last.beads.length === last.columns.length && last.p.length === last.columns.length));
  if (!shown) return h("p", { class: "mw-muted" }, "MENACE has not moved yet.");
  if (last.code < 0) {
    return h("p", {}, `MENACE had one free column (${last.column + 1}): no box to open.`);
  }
  const rows = last.columns
    .map((column, j) => ({ column, j }))
    .sort((a, b) => a.column - b.column)
    .map(({ column, j }) =>
      h(
        "li",
        { "data-testid": `c4-bead-${column + 1}`, class: j === last.colour ? "mw-c4-drawn" : null },
        h("span", { class: "mw-swatch", style: { background: BEAD_COLOURS[column] }, "aria-hidden": "true" }),
        ` Column ${column + 1} (${COLOUR_NAMES[column]}): ${beadText(last.beads[j])} beads, ${percent(last.p[j])}`,
        j === last.colour ? " ← drawn" : "",
      ),
    );
  const total = last.beads.reduce((a, b) => a + b, 0);
  return h(
    "div",
    {},
    h("p", {}, `MENACE's box for that position held ${beadText(total)} beads; it drew one at random:`),
    h("ul", { class: "mw-c4-beads" }, rows),
  );
}

function render({ model, el }) {
  const fallback = { className: "mw mw-c4", testid: "c4-broken", name: "Connect-4 widget", hint: "Re-run the cell that made it." };
  return mountOrExplain(mount, model, el, fallback);
}

function mount(model, el) {
  const data = model.get("data");
  const { rules } = machine(data);
  let notice = "";
  const commit = (s, message = "") => {
    if (!s) return;
    notice = message;
    model.set(s);
    sync(model);
    update();
  };
  const playable = () => {
    const s = snapshot(model);
    const problem = stateProblem(data, s);
    if (problem) {
      notice = `The widget's state is damaged (${problem}): press Reset MENACE.`;
      update();
      return null;
    }
    return s;
  };
  const drop = (column) => {
    const s = playable();
    if (!s) return;
    const why = illegalMove(data, s, column);
    if (why) {
      notice = why;
      update();
      return;
    }
    commit(humanMove(data, s, column));
  };

  const drops = [];
  for (let c = 0; c < rules.width; c++) {
    drops.push(
      h(
        "button",
        {
          type: "button",
          class: "mw-button mw-c4-drop",
          "data-testid": `c4-drop-${c + 1}`,
          "aria-label": `Drop your stone in column ${c + 1}`,
          onClick: () => drop(c),
        },
        `${c + 1} ↓`,
      ),
    );
  }
  const cells = [];
  const grid = h("div", { class: "mw-c4-board", role: "group", "data-testid": "c4-board" });
  for (let r = 0; r < rules.height; r++) {
    for (let c = 0; c < rules.width; c++) {
      const cell = h("div", {
        class: "mw-c4-cell",
        "data-testid": `c4-cell-${r + 1}-${c + 1}`,
        onClick: () => drop(c),
      });
      cells.push(cell);
      grid.append(cell);
    }
  }
  grid.style.setProperty("--mw-c4-columns", String(rules.width));
  const status = h("p", { class: "mw-status", "data-testid": "c4-status", "aria-live": "polite" });
  const result = h("p", { class: "mw-result", "data-testid": "c4-result" });
  const tally = h("p", { class: "mw-tally", "data-testid": "c4-tally" });
  const box = h("div", { class: "mw-c4-box", "data-testid": "c4-box" });
  const learnBox = h("input", {
    type: "checkbox",
    "data-testid": "c4-learn",
    onChange: (e) => {
      const s = playable();
      if (s) commit({ ...s, learn: e.target.checked });
    },
  });
  const [rw, rd, rl] = data.config.reinforcement;
  const newButton = h(
    "button",
    { type: "button", class: "mw-button mw-primary", "data-testid": "c4-new", onClick: () => {
      const s = snapshot(model);
      commit(stateProblem(data, s) ? resetMenace(data, { ...s, learned: {}, moves: [], draws: 0 }) : newGame(data, s));
    } },
    "New game",
  );
  const resetButton = h(
    "button",
    { type: "button", class: "mw-button", "data-testid": "c4-reset", onClick: () => {
      const s = snapshot(model);
      commit(resetMenace(data, { ...s, seed: Number.isSafeInteger(s.seed) && s.seed >= 0 ? s.seed : 0 }), "MENACE is back to its trained beads.");
    } },
    "Reset MENACE",
  );
  const learned = h("p", { class: "mw-muted", "data-testid": "c4-learned" });
  const games = data.training.games.toLocaleString("en");
  const root = h(
    "div",
    { class: "mw mw-c4", "data-testid": "c4" },
    h(
      "p",
      { class: "mw-caption" },
      `Connect-4 on ${rules.width} columns × ${rules.height} rows, ${rules.line} in a row. MENACE (X) moves first; `,
      `it trained for ${games} games against the perfect player. You play O: click a column to drop a stone.`,
    ),
    h("div", { class: "mw-c4-drops", style: { "--mw-c4-columns": String(rules.width) } }, drops),
    grid,
    status,
    result,
    tally,
    h("div", { class: "mw-buttons" }, newButton, resetButton),
    h("label", { class: "mw-check" }, learnBox, ` MENACE learns from each game (${signed(rw)} beads per drawn colour after a win, ${signed(rd)} after a draw, ${signed(rl)} after a loss)`),
    learned,
    h("h4", { class: "mw-c4-heading" }, "MENACE's last move"),
    box,
  );
  el.replaceChildren(root);

  function update() {
    const s = snapshot(model);
    const problem = stateProblem(data, s);
    const board = problem ? rules.start() : boardAfter(data, s.moves);
    const lastHuman = s.moves.length && s.moves.length % 2 === (data.player === 1 ? 0 : 1);
    const win = new Set(problem ? [] : rules.winningCells(board));
    for (let r = 0; r < rules.height; r++) {
      for (let c = 0; c < rules.width; c++) {
        const v = rules.cell(board, r, c);
        const cell = cells[r * rules.width + c];
        const won = win.has(r * rules.width + c);
        cell.className = `mw-c4-cell${v === 0 ? "" : v === 1 ? " mw-c4-first" : " mw-c4-second"}${won ? " mw-c4-win" : ""}`;
        cell.textContent = v === 0 ? "" : v === 1 ? "X" : "O";
        const label = `Row ${r + 1}, column ${c + 1}: ${stoneName(data, v)}${won ? ", winning line" : ""}`;
        cell.setAttribute("aria-label", label);
        cell.setAttribute("role", "img");
      }
    }
    grid.setAttribute("aria-label", `The board, ${s.moves.length} stones played`);
    const turn = problem ? "over" : turnOf(data, s);
    const free = rules.legal(board[1]);
    drops.forEach((b, c) => {
      b.disabled = turn !== "human" || !free.includes(c);
    });
    learnBox.checked = Boolean(s.learn);
    const last = s.last || {};
    let text;
    if (problem) text = notice || `The widget's state is damaged (${problem}): press Reset MENACE.`;
    else if (notice) text = notice;
    else if (turn === "human") {
      const mine = last.column !== undefined && last.column >= 0 ? `MENACE dropped in column ${last.column + 1}. ` : "";
      const names = free.map((c) => c + 1);
      const choice = names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names.at(-1)}` : `${names[0]}`;
      text = `${mine}Your move: choose column ${choice}.`;
    } else if (turn === "over") {
      if (lastHuman && last.column !== RESIGN) text = "Game over.";
      else if (last.column === RESIGN) text = "MENACE's box was empty and nothing refills it: MENACE resigns.";
      else text = `MENACE dropped in column ${last.column + 1}. Game over.`;
    }
    else text = "MENACE is thinking.";
    status.textContent = text;
    result.textContent = problem ? "" : resultText(data, s);
    const t = s.tally || { menace: 0, draw: 0, human: 0 };
    tally.textContent = `MENACE ${t.menace} · Draws ${t.draw} · You ${t.human}`;
    const n = Object.keys(s.learned || {}).length;
    learned.textContent = `Games MENACE has learnt from here: ${s.games_learned || 0} (${n} box${n === 1 ? "" : "es"} changed).`;
    box.replaceChildren(problem ? h("p", {}, "") : boxPanel(data, s));
  }

  const onChange = () => update();
  model.on("change", onChange);
  // MENACE opens: a fresh widget (no moves yet) makes its first move at once.
  const start = snapshot(model);
  if (!stateProblem(data, start) && turnOf(data, start) === "menace") {
    model.set(menaceMove(data, start));
    sync(model);
  }
  update();
  return () => model.off("change", onChange);
}

export default { render };
