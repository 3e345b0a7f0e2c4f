// Checks of the play widget's synced state, as menace_lib/widgets/play_state.py makes
// them in Python: a saved notebook or a live kernel can hand the browser any value, and
// the widget must say what is wrong instead of playing on from it (or throwing). Each
// check returns "" when the value is fine, else a message naming the field, the index
// and the bad value. tests/test_widgets.py runs both over the same bad states.

import { boardCode } from "./common.js";

export const RESULT_TEXT = { menace: "MENACE wins", draw: "Draw", human: "You win" };
const TALLY_KEYS = ["draw", "human", "menace"];

/** A value as the message shows it (short, and never throws). */
export function show(value) {
  let text;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  if (text === undefined) text = String(value);
  if (typeof value === "number" && !Number.isFinite(value)) text = String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

const isInt = (v) => typeof v === "number" && Number.isInteger(v);
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/** A finite number >= minimum (booleans, strings, null and NaN are refused). */
export function numberProblem(where, value, minimum) {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    return `${where} must be a finite number, got ${show(value)}`;
  }
  if (value < minimum) return `${where} must be ≥ ${minimum}, got ${show(value)}`;
  return "";
}

/** Where a board stands: "X", "O" (MENACE's side to move), "terminal", or null. */
function positionKind(data, board) {
  const code = boardCode(board);
  for (const [side, d] of Object.entries(data.sides)) {
    if (d.lookup.codes.includes(code)) return side;
  }
  const i = data.terminals.codes.indexOf(code);
  return i >= 0 ? "terminal" : null;
}

function outcomeOf(data, board) {
  const i = data.terminals.codes.indexOf(boardCode(board));
  return i >= 0 ? data.terminals.outcome[i] : undefined;
}

export function boardProblem(data, board) {
  if (!Array.isArray(board)) return `board must be a list, got ${show(board)}`;
  if (board.length !== 9) return `board must list 9 squares, got ${board.length}: ${show(board)}`;
  for (let i = 0; i < 9; i++) {
    if (!isInt(board[i]) || board[i] < 0 || board[i] > 2) {
      return `board[${i}] must be 0 (empty), 1 (X) or 2 (O), got ${show(board[i])}`;
    }
  }
  if (positionKind(data, board) === null) {
    return `board: ${show(board.map((v) => ".XO"[v]).join(""))} cannot arise in a game where X moves first`;
  }
  return "";
}

export function movesProblem(moves, board) {
  if (!Array.isArray(moves)) return `moves must be a list, got ${show(moves)}`;
  for (let k = 0; k < moves.length; k++) {
    if (!isInt(moves[k]) || moves[k] < 0 || moves[k] > 8) {
      return `moves[${k}] must be a square index 0-8, got ${show(moves[k])}`;
    }
  }
  const occupied = [];
  board.forEach((v, i) => v !== 0 && occupied.push(i));
  const sorted = moves.slice().sort((a, b) => a - b);
  const alternate = moves.every((m, k) => board[m] === (k % 2 === 0 ? 1 : 2));
  if (sorted.length !== occupied.length || sorted.some((m, i) => m !== occupied[i]) || !alternate) {
    return `moves ${show(moves)} do not lead to board ${show(board.map((v) => ".XO"[v]).join(""))} (X first, then O, one mark per move)`;
  }
  return "";
}

/** A finished board must carry its result, seen from MENACE's side (`human` is the reader). */
export function resultProblem(data, result, board, human) {
  const allowed = ["", ...Object.values(RESULT_TEXT)];
  if (!allowed.includes(result)) return `result must be one of ${show(allowed)}, got ${show(result)}`;
  const outcome = outcomeOf(data, board);
  if (outcome === undefined) return ""; // ongoing, or MENACE resigned
  const menace = human === "O" ? 1 : 2;
  const expected = outcome === 3 ? RESULT_TEXT.draw : outcome === menace ? RESULT_TEXT.menace : RESULT_TEXT.human;
  if (result !== expected) return `result must be ${show(expected)} on this finished board, got ${show(result)}`;
  return "";
}

export function liveBeadsProblem(value, initial, floor, side, maximum = Infinity) {
  if (!Array.isArray(value)) return `live_beads must be a list, got ${show(value)}`;
  if (value.length !== initial.length) {
    return `live_beads must list ${initial.length} boxes for MENACE (${side}), got ${value.length}`;
  }
  for (let b = 0; b < value.length; b++) {
    const row = value[b];
    if (!Array.isArray(row)) return `live_beads[${b}] must be a list, got ${show(row)}`;
    if (row.length !== initial[b].length) {
      return `live_beads[${b}] must list ${initial[b].length} bead counts, got ${row.length}: ${show(row)}`;
    }
    for (let j = 0; j < row.length; j++) {
      const problem = numberProblem(`live_beads[${b}][${j}]`, row[j], floor);
      if (problem) return problem;
      if (row[j] > maximum) return `live_beads[${b}][${j}] must be ≤ ${maximum}, got ${show(row[j])}`;
    }
    if (!Number.isFinite(row.reduce((a, x) => a + x, 0))) {
      return `live_beads[${b}]: the bead total must be finite`;
    }
  }
  return "";
}

export function pathProblem(path, initial) {
  if (!Array.isArray(path)) return `path must be a list, got ${show(path)}`;
  for (let k = 0; k < path.length; k++) {
    const step = path[k];
    const ok =
      Array.isArray(step) &&
      step.length === 2 &&
      step.every(isInt) &&
      step[0] >= 0 &&
      step[0] < initial.length &&
      step[1] >= 0 &&
      step[1] < initial[step[0]].length;
    if (!ok) return `path[${k}] must be [box, colour] of a real bead, got ${show(step)}`;
  }
  return "";
}

export function tallyProblem(tally) {
  if (!isObject(tally) || Object.keys(tally).sort().join() !== TALLY_KEYS.join()) {
    return `tally must have exactly the keys ${show(TALLY_KEYS)}, got ${show(tally)}`;
  }
  for (const key of TALLY_KEYS) {
    if (!isInt(tally[key]) || tally[key] < 0) return `tally['${key}'] must be an integer ≥ 0, got ${show(tally[key])}`;
  }
  return "";
}

export function countProblem(name, value) {
  return isInt(value) && value >= 0 ? "" : `${name} must be an integer ≥ 0, got ${show(value)}`;
}

export function lastDrawProblem(value, initial) {
  if (!isObject(value)) return `last_draw must be an object, got ${show(value)}`;
  const keys = Object.keys(value).sort();
  if (keys.length === 0) return "";
  const expected = ["beads", "box", "colour", "p", "square"];
  if (keys.join() !== expected.join()) return `last_draw must have exactly the keys ${show(expected)}, got ${show(value)}`;
  const { square, box, colour, beads, p } = value;
  if (!isInt(square) || square < -2 || square > 8) {
    return `last_draw.square must be -2 (stopped), -1 (resigned) or 0-8, got ${show(square)}`;
  }
  if (!isInt(box) || box < -1 || box >= initial.length) return `last_draw.box must be -1 or a box index, got ${show(box)}`;
  const size = box >= 0 ? initial[box].length : 0;
  if (!isInt(colour) || colour < -1 || colour >= Math.max(size, 0)) {
    return `last_draw.colour must be -1 or a colour of its box, got ${show(colour)}`;
  }
  for (const [name, v] of [["beads", beads], ["p", p]]) {
    if (v !== null) {
      const problem = numberProblem(`last_draw.${name}`, v, 0);
      if (problem) return problem;
    }
  }
  if (p !== null && p > 1) return `last_draw.p must be ≤ 1, got ${show(p)}`;
  return "";
}

export function beadChangesProblem(changes, initial, floor) {
  if (!Array.isArray(changes)) return `bead_changes must be a list, got ${show(changes)}`;
  const keys = ["after", "before", "board", "box", "colour", "move", "played", "square"];
  for (let k = 0; k < changes.length; k++) {
    const c = changes[k];
    const where = `bead_changes[${k}]`;
    if (!isObject(c) || Object.keys(c).sort().join() !== keys.join()) {
      return `${where} must have exactly the keys ${show(keys)}, got ${show(c)}`;
    }
    if (!isInt(c.box) || c.box < 0 || c.box >= initial.length) return `${where}.box must be a box index, got ${show(c.box)}`;
    const n = initial[c.box].length;
    if (!isInt(c.colour) || c.colour < 0 || c.colour >= n) {
      return `${where}.colour must be a colour of box ${c.box}, got ${show(c.colour)}`;
    }
    for (const name of ["square", "move"]) {
      if (!isInt(c[name]) || c[name] < 0 || c[name] > 8) return `${where}.${name} must be a square index 0-8, got ${show(c[name])}`;
    }
    for (const name of ["board", "played"]) {
      const text = c[name];
      if (typeof text !== "string" || !/^[.XO]{9}$/.test(text)) {
        return `${where}.${name} must be 9 of '.', 'X', 'O', got ${show(text)}`;
      }
    }
    for (const name of ["before", "after"]) {
      const row = c[name];
      if (!Array.isArray(row) || row.length !== n) return `${where}.${name} must list ${n} bead counts, got ${show(row)}`;
      for (let j = 0; j < n; j++) {
        const problem = numberProblem(`${where}.${name}[${j}]`, row[j], floor);
        if (problem) return problem;
      }
    }
  }
  return "";
}

/** The reader's settings: checkpoint, side, auto, learn, seed. */
export function settingsProblem(data, s) {
  if (!data.checkpoints.includes(s.checkpoint)) {
    return `unknown checkpoint ${show(s.checkpoint)}; choose one of ${show(data.checkpoints)}`;
  }
  if (s.human !== "X" && s.human !== "O") return `human must be 'X' or 'O', got ${show(s.human)}`;
  for (const name of ["auto", "learn"]) {
    if (typeof s[name] !== "boolean") return `${name} must be true or false, got ${show(s[name])}`;
  }
  if (!isInt(s.seed) || s.seed < 0 || s.seed >= 2 ** 32) return `seed must be in [0, 2**32), got ${show(s.seed)}`;
  return "";
}

/** The static payload: enough of its shape that the checks and the view can rely on it. */
export function dataProblem(data) {
  if (!isObject(data)) return `data must be an object, got ${show(data)}`;
  if (!Array.isArray(data.checkpoints) || data.checkpoints.length === 0) return "data.checkpoints must list the checkpoints";
  if (!isObject(data.sides) || !isObject(data.sides.X) || !isObject(data.sides.O)) return "data.sides must hold X and O";
  if (!isObject(data.terminals) || !Array.isArray(data.terminals.codes)) return "data.terminals is missing";
  for (const side of ["X", "O"]) {
    const d = data.sides[side];
    for (const n of data.checkpoints) {
      if (!d.beads || !Array.isArray(d.beads[String(n)])) return `data.sides.${side} has no beads for checkpoint ${show(n)}`;
    }
    if (!isObject(d.config) || !Array.isArray(d.initial) || !isObject(d.lookup)) return `data.sides.${side} is incomplete`;
  }
  return "";
}

/**
 * Everything at once: "" if the state `s` (trait name -> value) can be played from,
 * else the first problem found.
 */
export function stateProblem(data, s) {
  const problem = dataProblem(data) || settingsProblem(data, s);
  if (problem) return problem;
  const side = s.human === "O" ? "X" : "O";
  const d = data.sides[side];
  const floor = d.config.floor;
  return (
    boardProblem(data, s.board) ||
    movesProblem(s.moves, s.board) ||
    resultProblem(data, s.result, s.board, s.human) ||
    liveBeadsProblem(s.live_beads, d.initial, floor, side, data.max_beads) ||
    pathProblem(s.path, d.initial) ||
    tallyProblem(s.tally) ||
    countProblem("games_learned", s.games_learned) ||
    countProblem("draws", s.draws) ||
    lastDrawProblem(s.last_draw, d.initial) ||
    beadChangesProblem(s.bead_changes, d.initial, floor)
  );
}
