// Play against MENACE: the whole game runs here, so the widget works on a static page.
//
// Data (trait `data`, built by menace_lib/widgets/play_data.py): per side the raw-position
// lookup (box, squares each bead colour plays, move-class members), the boxes' boards,
// colours, initial and move-restock beads, the beads and games of each checkpoint and the
// checkpoints' whole MenaceConfig (reinforcement, restock, floor, ...); all terminal
// positions; the winning lines; the default settings; the agent-file format. Game state
// lives in synced traits (board, moves, path, result, tally, live_beads, bead_changes,
// games_learned, last_draw, game_key, draws) so a live kernel sees it; play_state.js checks
// it before anything is drawn or played. MENACE moves and learns through the widgets' one
// game engine (lab_engine.machineMove / machineLearn, on beads.js, the one JavaScript copy
// of menace_lib/beads.py), drawing from the Philox stream of `seed` at position `draws`
// (reset with the opponent), so a game here replays exactly in Python from its seed
// (PlayWidget.menace_move reads the same stream). Squares are indexes 0-8 in the data and
// 1-9 wherever a reader sees them (labels, messages, tables).
import {
  COLOUR_NAMES,
  beadColour,
  beadText,
  boardCode,
  classesOf,
  digits,
  h,
  sync,
} from "./common.js";
import { button, mountOrExplain, offerLink, showNotice, showText, sideParagraphs } from "./view_parts.js";
import { STOP } from "./beads.js";
import { machineLearn, machineMove, randomStream } from "./lab_engine.js";
import { RESULT_TEXT, dataProblem, show, stateProblem } from "./play_state.js";
import { exportAgent, exportName, importAgentBytes } from "./agent_file.js";
import { fragmentValue, withFragmentValue } from "./fragment.js";

const EMPTY = 0;
const X = 1;
const O = 2;
const MARK = { X, O };
const SYMBOL = ["", "X", "O"];
const X_WIN = 1;
const DRAW = 3;
const WIN = 0;
const DRAW_RESULT = 1;
const LOSS = 2;
/** The play widget's key in the page's URL fragment ("#play=checkpoint:25,human:X,..."). */
export const FRAGMENT_KEY = "play";
const SETTING_NAMES = ["checkpoint", "human", "auto", "learn", "seed"];

// ------------------------------------------------------------------ data access

const indexCache = new WeakMap();

/** Pieces on the board of a base-3 position code. */
function piecesOf(code) {
  let n = 0;
  for (let c = code; c > 0; c = Math.floor(c / 3)) if (c % 3) n += 1;
  return n;
}

/**
 * Maps from position code to lookup row (per side) and to terminal outcome, and per side
 * the engine's view of MENACE's boxes over the lookup rows (lab_engine.machineMove):
 * rawBox, rawSquares, initial and opening (MENACE's first move: fewer than 2 pieces).
 */
function indexes(data) {
  let idx = indexCache.get(data);
  if (idx) return idx;
  idx = { sides: {}, machines: {}, terminal: new Map() };
  for (const [side, d] of Object.entries(data.sides)) {
    const rows = new Map();
    d.lookup.codes.forEach((code, i) => rows.set(code, i));
    idx.sides[side] = rows;
    idx.machines[side] = {
      rawBox: d.lookup.box,
      rawSquares: d.lookup.squares.map(digits),
      initial: d.initial,
      opening: d.lookup.codes.map((code) => piecesOf(code) < 2),
    };
  }
  data.terminals.codes.forEach((code, i) => idx.terminal.set(code, data.terminals.outcome[i]));
  indexCache.set(data, idx);
  return idx;
}

function menaceSide(s) {
  return s.human === "O" ? "X" : "O";
}

function gameKey(s) {
  return `${menaceSide(s)}${s.checkpoint}`;
}

/** Whose turn: "human", "menace" or "over". */
export function turnOf(s) {
  if (s.result) return "over";
  let xs = 0;
  let os = 0;
  for (const v of s.board) {
    if (v === X) xs += 1;
    else if (v === O) os += 1;
  }
  const toMove = xs === os ? "X" : "O";
  return toMove === s.human ? "human" : "menace";
}

/**
 * MENACE's options in the current position: {box, number, squares, members, colours,
 * beads, p, empty}. `number` is the box's number in the printed kit and `colours` each
 * bead's colour index, both from the data (menace_lib.machine.printed, the kit's owner). `beads` is null where no box is opened (forced move or no matchbox): then the
 * reference plays the single legal move, or draws uniformly among the moves. `empty`: the
 * box holds no beads and is not restocked, so MENACE resigns (every p is 0).
 */
export function policyOf(data, s) {
  const side = menaceSide(s);
  const d = data.sides[side];
  const row = indexes(data).sides[side].get(boardCode(s.board));
  if (row === undefined) return null;
  const box = d.lookup.box[row];
  const squares = digits(d.lookup.squares[row]);
  const members = classesOf(d.lookup.members[row]);
  if (box < 0) {
    const p = squares.map(() => 1 / squares.length);
    return { box, number: 0, squares, members, colours: squares, beads: null, p, empty: false };
  }
  const beads = s.live_beads[box];
  const total = beads.reduce((a, b) => a + b, 0);
  const number = d.numbers[box];
  const colours = digits(d.colours[box]);
  if (total <= 0 && d.config.restock === "none") {
    return { box, number, squares, members, colours, beads, p: beads.map(() => 0), empty: true };
  }
  // An empty box is restocked with its initial beads before the draw (Menace.choose).
  const proportions = total > 0 ? beads : d.initial[box];
  const sum = proportions.reduce((a, b) => a + b, 0);
  const p = sum > 0 ? proportions.map((x) => x / sum) : beads.map(() => 1 / beads.length);
  return { box, number, squares, members, colours, beads, p, empty: false };
}

// -------------------------------------------------------------------- transitions
// Each takes a plain state object (see snapshot) and returns the next one.

const STATE_NAMES = [
  "checkpoint", "human", "auto", "learn", "seed", "game_key", "board", "moves", "path", "result",
  "tally", "live_beads", "bead_changes", "games_learned", "last_draw", "draws",
];

function snapshot(model) {
  const s = {};
  for (const name of STATE_NAMES) {
    const value = model.get(name);
    s[name] = value === undefined ? undefined : JSON.parse(JSON.stringify(value));
  }
  return s;
}

function outcomeOf(data, board) {
  return indexes(data).terminal.get(boardCode(board));
}

function boardText(board) {
  return board.map((v) => ".XO"[v]).join("");
}

/** (board as it stood, square played) at each of MENACE's moves that opened a box. */
function playedPositions(data, s) {
  const side = menaceSide(s);
  const d = data.sides[side];
  const rows = indexes(data).sides[side];
  const board = Array(9).fill(EMPTY);
  const out = [];
  s.moves.forEach((square, k) => {
    const mark = k % 2 === 0 ? X : O;
    if (mark === MARK[side]) {
      const row = rows.get(boardCode(board));
      if (row !== undefined && d.lookup.box[row] >= 0) out.push([boardText(board), square]);
    }
    board[square] = mark;
  });
  return out;
}

/** Score the game from MENACE's side and, if learning (and the game counts), reinforce. */
function finish(data, s, result, learnable = true) {
  const key = result === WIN ? "menace" : result === DRAW_RESULT ? "draw" : "human";
  s.result = RESULT_TEXT[key];
  s.tally = { ...s.tally, [key]: s.tally[key] + 1 };
  if (!s.learn || !learnable) return s;
  s.games_learned += 1;
  const d = data.sides[menaceSide(s)];
  const cfg = d.config;
  const before = s.live_beads;
  s.live_beads = before.map((row) => row.slice());
  machineLearn(s.live_beads, d.initial, d.refill, s.path, result, cfg);
  const played = playedPositions(data, s);
  s.bead_changes = s.path.map(([b, j], k) => {
    const [text, move] = played[k] || [d.boxes[b], digits(d.entries[b])[j]];
    return {
      box: b,
      board: d.boxes[b],
      played: text,
      move,
      colour: j,
      square: digits(d.entries[b])[j],
      before: before[b].slice(),
      after: s.live_beads[b].slice(),
    };
  });
  return s;
}

function place(data, s, square, mark) {
  s.board = s.board.slice();
  s.board[square] = mark;
  s.moves = [...s.moves, square];
  const outcome = outcomeOf(data, s.board);
  if (outcome === undefined) return s;
  const menaceMark = MARK[menaceSide(s)];
  if (outcome === DRAW) return finish(data, s, DRAW_RESULT);
  const menaceWon = (outcome === X_WIN) === (menaceMark === X);
  return finish(data, s, menaceWon ? WIN : LOSS);
}

/** MENACE draws a bead and plays it (or resigns at an empty box without restock): the
 * engine's move step, drawing from the seed's stream at `draws`. */
export function menaceMove(data, s) {
  const side = menaceSide(s);
  const d = data.sides[side];
  const row = indexes(data).sides[side].get(boardCode(s.board));
  if (row === undefined) return s;
  const rng = randomStream(s.seed, s.draws ?? 0);
  s.live_beads = s.live_beads.map((w) => w.slice());
  const step = machineMove(indexes(data).machines[side], s.live_beads, row, rng, d.config);
  s.draws = rng.position;
  const { box, colour } = step;
  if (box < 0) {
    const n = indexes(data).machines[side].rawSquares[row].length;
    s.last_draw = { square: step.move, box: -1, colour: -1, beads: null, p: 1 / n };
    return place(data, s, step.move, MARK[side]);
  }
  if (colour < 0) {
    // An empty box nothing refills: MENACE resigns (a loss it learns from) or, under the
    // "stop" rules, stops (a game that is not learnt from, as training discards it).
    s.last_draw = { square: step.move, box, colour: -1, beads: null, p: null };
    return finish(data, s, LOSS, step.move !== STOP);
  }
  const w = s.live_beads[box];
  const total = w.reduce((a, b) => a + b, 0);
  s.path = [...s.path, [box, colour]];
  s.last_draw = { square: step.move, box, colour, beads: w[colour], p: w[colour] / total };
  return place(data, s, step.move, MARK[side]);
}

/** Why the reader may not play `square` now ("" if they may). */
export function illegalMove(s, square) {
  const turn = turnOf(s);
  if (turn === "over") return `The game is over (${s.result}). Press New game to play again.`;
  if (turn === "menace") {
    return "It is MENACE's turn: press Sample MENACE move, or tick MENACE moves at once.";
  }
  if (s.board[square] !== EMPTY) {
    return `Square ${square + 1} is taken (${SYMBOL[s.board[square]]}). Choose an empty square.`;
  }
  return "";
}

export function humanMove(data, s, square) {
  if (illegalMove(s, square)) return null; // illegal: no change
  s = place(data, s, square, MARK[s.human]);
  if (s.auto && turnOf(s) === "menace") s = menaceMove(data, s);
  return s;
}

function clearBoard(s) {
  s.board = Array(9).fill(EMPTY);
  s.moves = [];
  s.path = [];
  s.result = "";
  s.last_draw = {};
  return s;
}

export function newGame(data, s) {
  s = clearBoard(s);
  if (s.auto && turnOf(s) === "menace") s = menaceMove(data, s);
  return s;
}

/** A fresh opponent: the checkpoint's stored beads (or `beads`), tally and log cleared,
 * the seed's stream from its start. */
export function resetOpponent(data, s, beads = null, gamesLearned = 0) {
  s.game_key = gameKey(s);
  s.draws = 0;
  const stored = data.sides[menaceSide(s)].beads[String(s.checkpoint)];
  s.live_beads = JSON.parse(JSON.stringify(beads || stored));
  s.tally = { menace: 0, draw: 0, human: 0 };
  s.games_learned = gamesLearned;
  s.bead_changes = [];
  return newGame(data, s);
}

/** New settings (some of checkpoint, human, auto, learn, seed): a fresh opponent. */
export function applySettings(data, s, settings) {
  for (const name of SETTING_NAMES) if (name in settings) s[name] = settings[name];
  return resetOpponent(data, s);
}

/** An imported agent (agent_file.placeAgent's settings) becomes the opponent. */
export function importAgent(data, s, placed) {
  s.checkpoint = placed.checkpoint;
  s.human = placed.human;
  s.learn = placed.learn;
  return resetOpponent(data, s, placed.live_beads, placed.games_learned);
}

// ---------------------------------------------------------------- the link's settings

/** "checkpoint:25,human:X,auto:1,learn:0,seed:7" (as PlayWidget.fragment, after "play="). */
export function formatSettings(s) {
  return `checkpoint:${s.checkpoint},human:${s.human},auto:${s.auto ? 1 : 0},learn:${s.learn ? 1 : 0},seed:${s.seed}`;
}

/** The settings a link holds -> {settings} or {error}; names it leaves out keep their defaults. */
export function parseSettings(data, text) {
  const settings = { ...data.defaults };
  const seen = new Set();
  if (text.length > 200) return { error: `the settings are too long (${text.length} characters)` };
  for (const part of text.split(",")) {
    const colon = part.indexOf(":");
    const name = colon > 0 ? part.slice(0, colon) : part;
    const value = colon > 0 ? part.slice(colon + 1) : "";
    if (!SETTING_NAMES.includes(name)) {
      return { error: `unknown setting ${show(name)}; use ${SETTING_NAMES.join(", ")}` };
    }
    if (seen.has(name)) return { error: `${name} is given twice` };
    seen.add(name);
    if (name === "checkpoint") {
      const n = /^\d{1,6}$/.test(value) ? Number(value) : NaN;
      if (!data.checkpoints.includes(n)) {
        return { error: `checkpoint must be one of ${data.checkpoints.join(", ")}, got ${show(value)}` };
      }
      settings.checkpoint = n;
    } else if (name === "human") {
      if (value !== "X" && value !== "O") return { error: `human must be X or O, got ${show(value)}` };
      settings.human = value;
    } else if (name === "seed") {
      const n = /^\d{1,10}$/.test(value) ? Number(value) : NaN;
      if (!(n < 2 ** 32)) return { error: `seed must be a whole number from 0 to 4294967295, got ${show(value)}` };
      settings.seed = n;
    } else {
      if (value !== "0" && value !== "1") return { error: `${name} must be 0 or 1, got ${show(value)}` };
      settings[name] = value === "1";
    }
  }
  return { settings };
}

function sameSettings(a, b) {
  return SETTING_NAMES.every((name) => a[name] === b[name]);
}

// ------------------------------------------------------------------------ words

/** Probability as the board and the legend show it: two decimals, never a false 0 or 1. */
export function pText(p) {
  if (p > 0 && p < 0.005) return "<0.01";
  if (p < 1 && p >= 0.995) return ">0.99";
  return p.toFixed(2);
}

/** "an orange", "a blue". */
export function withArticle(word) {
  return `${/^[aeiou]/i.test(word) ? "an" : "a"} ${word}`;
}

/** "1 game", "2 games"; `many` for irregular plurals ("box", "boxes"). */
export function counted(n, one, many = `${one}s`) {
  return `${n === 1 ? "1" : n.toLocaleString("en-GB")} ${n === 1 ? one : many}`;
}

/** A bead count as the reader sees it in text: "1,790", "2.5". */
function countText(n) {
  return Number.isInteger(n) ? n.toLocaleString("en-GB") : beadText(n);
}

/** "1 bead", "1,790 beads", "2.5 beads". */
function beadsText(n) {
  return `${countText(n)} bead${n === 1 ? "" : "s"}`;
}

/** "1, 5 and 9" (1-based). */
function squareList(list) {
  const names = list.map((i) => String(i + 1));
  return names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** The squares of every completed line (empty unless someone has won). */
export function winningSquares(lines, board) {
  const out = new Set();
  for (const [a, b, c] of lines) {
    if (board[a] !== EMPTY && board[a] === board[b] && board[b] === board[c]) [a, b, c].forEach((i) => out.add(i));
  }
  return out;
}

/** "X../.O./..." */
function rows(text) {
  return `${text.slice(0, 3)}/${text.slice(3, 6)}/${text.slice(6)}`;
}

function colourName(data, side, box, colour) {
  return COLOUR_NAMES[digits(data.sides[side].colours[box])[colour]];
}

/** The number printed on library box `box` of `side`'s MENACE (the kit's number). */
function boxNumber(data, side, box) {
  return data.sides[side].numbers[box];
}

/** The sentence announced after MENACE moves. */
function lastMoveText(data, s) {
  const ld = s.last_draw;
  if (!ld || ld.square === undefined) return "";
  const side = menaceSide(s);
  if (ld.square === STOP) return `MENACE found its opening matchbox ${boxNumber(data, side, ld.box)} empty and stopped playing.`;
  if (ld.square < 0) return `MENACE found matchbox ${boxNumber(data, side, ld.box)} empty and resigned.`;
  if (ld.box < 0) {
    return ld.p === 1
      ? `MENACE played square ${ld.square + 1}, its only move (no matchbox here).`
      : `MENACE played square ${ld.square + 1}, picked at random (no matchbox here).`;
  }
  return (
    `MENACE played square ${ld.square + 1}: it drew ${withArticle(colourName(data, side, ld.box, ld.colour))} bead ` +
    `from matchbox ${boxNumber(data, side, ld.box)} (${beadsText(ld.beads)} of that colour, p ${pText(ld.p)}).`
  );
}

// ------------------------------------------------------------------------ drawing
// Each draws one part of the screen from a state, for the view that owns that part.

/** The board: marks, winning line, last move and the policy overlay on each cell. */
function drawBoard(cells, s, policy, win, turn) {
  // Class squares on their representative cells, members outlined.
  const classOf = new Map();
  const memberOf = new Map();
  if (policy) {
    policy.squares.forEach((sq, j) => classOf.set(sq, j));
    policy.members.forEach((cls, j) => cls.forEach((sq) => memberOf.set(sq, j)));
  }
  const lastSquare = s.moves.length > 0 ? s.moves[s.moves.length - 1] : -1;
  cells.forEach((c, i) => {
    const v = s.board[i];
    const j = classOf.get(i);
    const member = memberOf.get(i);
    let label = `Square ${i + 1}, ${v === EMPTY ? "empty" : SYMBOL[v]}`;
    if (win.has(i)) label += ", winning line";
    else if (i === lastSquare) label += ", last move";
    if (j !== undefined) {
      const p = policy.p[j];
      label += policy.beads ? `, ${beadsText(policy.beads[j])}, p ${pText(p)}` : `, no matchbox, p ${pText(p)}`;
      c.bead.hidden = false;
      c.prob.hidden = false;
      c.bead.style.setProperty("--mw-fill", `${(100 * p).toFixed(1)}%`);
      const count = c.bead.querySelector(".mw-bead-count");
      count.textContent = policy.beads ? beadText(policy.beads[j]) : "–";
      count.classList.toggle("mw-bead-count-long", count.textContent.length >= 4);
      c.prob.textContent = `p ${pText(p)}`;
    } else {
      if (member !== undefined) label += `, same move as square ${policy.squares[member] + 1}`;
      c.bead.hidden = true;
      c.prob.hidden = true;
    }
    c.button.setAttribute("aria-label", label);
    c.mark.textContent = SYMBOL[v];
    c.button.classList.toggle("mw-x", v === X);
    c.button.classList.toggle("mw-o", v === O);
    c.button.classList.toggle("mw-win", win.has(i));
    c.button.setAttribute("aria-disabled", turn === "human" && v === EMPTY ? "false" : "true");
    c.button.classList.toggle("mw-last-move", i === lastSquare && !win.has(i));
    c.button.classList.toggle("mw-member", member !== undefined && j === undefined);
    const colour = member !== undefined ? beadColour(policy.colours[member]) : "transparent";
    c.button.style.setProperty("--mw-class", colour);
  });
}

/** The status line and the announced result. */
function drawStatus(status, live, s, policy, win, turn) {
  const side = menaceSide(s);
  if (turn === "over") {
    const winner = [...win].length > 0 ? SYMBOL[s.board[[...win][0]]] : "";
    const how = winner
      ? `${winner === s.human ? "You win" : "MENACE wins"} with squares ${squareList([...win].sort((a, b) => a - b))}.`
      : s.last_draw && s.last_draw.square < 0
        ? s.last_draw.square === STOP ? "MENACE stopped: its opening box is empty." : "MENACE resigned."
        : "A draw.";
    status.textContent = `Game over: ${how} Press New game to play again.`;
  } else if (turn === "human") {
    status.textContent = `Your move (${s.human}): choose an empty square.`;
  } else if (!policy) {
    status.textContent = `MENACE (${side}) to move.`;
  } else if (policy.box < 0) {
    status.textContent =
      policy.squares.length === 1
        ? `MENACE (${side}) has no matchbox here: its only move is square ${policy.squares[0] + 1}.`
        : `MENACE (${side}) has no matchbox here: it picks uniformly among ${policy.squares.length} squares.`;
  } else if (policy.empty) {
    status.textContent = `MENACE (${side}) to move: matchbox ${policy.number} is empty, so it will resign.`;
  } else {
    status.textContent = `MENACE (${side}) to move: matchbox ${policy.number} is open.`;
  }
  showText(live, s.result);
}

/** The legend: the policy of the open matchbox in words and numbers. */
function drawLegend(legend, policy) {
  legend.replaceChildren();
  if (policy) {
    const total = policy.beads ? policy.beads.reduce((a, b) => a + b, 0) : null;
    legend.append(
      h(
        "p",
        { class: "mw-caption" },
        policy.beads
          ? `Matchbox ${policy.number}: ${beadsText(total)} in ${counted(policy.squares.length, "colour")}. ` +
              "Each coloured square sits on the cell MENACE plays for that colour; its fill is the probability. " +
              "Dashed cells are symmetric equivalents."
          : "No matchbox: the reference rule plays the forced or uniformly chosen move.",
      ),
      h(
        "table",
        { class: "mw-table mw-play-table" },
        h(
          "thead",
          {},
          h("tr", {}, h("th", { scope: "col" }, "Colour"), h("th", { scope: "col" }, "Square"), h("th", { scope: "col" }, "Same move"), h("th", { scope: "col" }, "Beads"), h("th", { scope: "col" }, "p")),
        ),
        h(
          "tbody",
          {},
          policy.squares.map((sq, j) =>
            h(
              "tr",
              { "data-testid": `play-policy-row-${j}` },
              h(
                "td",
                {},
                h("span", { class: "mw-swatch", style: { background: beadColour(policy.colours[j]) } }),
                ` ${COLOUR_NAMES[policy.colours[j]]}`,
              ),
              h("td", {}, String(sq + 1)),
              h("td", {}, squareList(policy.members[j])),
              h("td", { "data-testid": `play-policy-beads-${j}` }, policy.beads ? countText(policy.beads[j]) : "–"),
              h("td", { "data-testid": `play-policy-p-${j}`, "data-p": String(policy.p[j]) }, pText(policy.p[j])),
            ),
          ),
        ),
      ),
    );
  }
}

/** The learning log: what the last game changed in MENACE's boxes. */
function drawChanges(changes, data, s) {
  const side = menaceSide(s);
  changes.replaceChildren();
  if (s.learn) {
    const d = data.sides[side];
    changes.append(
      h("p", { class: "mw-caption", "data-testid": "play-learnt" }, `Learning on: ${counted(s.games_learned, "game")} learnt since loading this checkpoint.`),
    );
    if (s.bead_changes.length > 0) {
      const delta = s.bead_changes.reduce((acc, c) => acc + c.after[c.colour] - c.before[c.colour], 0);
      const result = { "MENACE wins": WIN, Draw: DRAW_RESULT, "You win": LOSS }[s.result] ?? WIN;
      const per = d.config.reinforcement[result];
      const n = s.bead_changes.length;
      const sign = per >= 0 ? "+" : "−";
      changes.append(
        h(
          "p",
          { "data-testid": "play-changes-summary" },
          `${sign}${beadsText(Math.abs(per))} in ${counted(n, "box", "boxes")} (net ${delta >= 0 ? "+" : "−"}${countText(Math.abs(delta))}).`,
        ),
        h(
          "ul",
          { class: "mw-change-list" },
          s.bead_changes.map((c) =>
            h(
              "li",
              { "data-box": c.box },
              h("span", { class: "mw-swatch", style: { background: beadColour(digits(d.colours[c.box])[c.colour]) } }),
              ` Matchbox ${d.numbers[c.box]}, ${withArticle(colourName(data, side, c.box, c.colour))} bead: ${c.before.map(beadText).join(" ")} → ${c.after.map(beadText).join(" ")}.`,
              h("br"),
              // The box as its printed label draws it (menace_lib.machine.printed).
              `Played square ${c.move + 1} on ${rows(c.played)}` +
                (c.played === d.drawings[c.box] ? "." : ` (stored as ${rows(d.drawings[c.box])}).`),
            ),
          ),
        ),
      );
    } else if (s.result && s.games_learned > 0) {
      changes.append(h("p", {}, "MENACE opened no matchbox in the last game: nothing to learn."));
    }
  }
}

// ------------------------------------------------------------------------ views
// Each view owns one part of the screen: it builds its elements, wires its own controls
// to the widget's actions (`act`, made by mount: the state to play from, commit, say) and
// draws its part from a state. mount() composes them; its update() asks each to draw.

function buildCell(i, onClick) {
  const mark = h("span", { class: "mw-mark", "aria-hidden": "true" });
  const bead = h(
    "span",
    { class: "mw-bead", "aria-hidden": "true" },
    h("span", { class: "mw-bead-fill" }),
    h("span", { class: "mw-bead-count" }),
  );
  const prob = h("span", { class: "mw-bead-p", "aria-hidden": "true" });
  const number = h("span", { class: "mw-cell-number", "aria-hidden": "true" }, String(i + 1));
  const cell = h(
    "button",
    {
      type: "button",
      class: "mw-cell",
      "data-testid": `play-cell-${i}`,
      "data-square": i,
      onclick: () => onClick(i),
    },
    number,
    mark,
    bead,
    prob,
  );
  return { button: cell, mark, bead, prob };
}

/** The settings: which MENACE, which side, whether it moves at once and learns. */
function controlsView(data, act) {
  const checkpoint = h(
    "select",
    { "data-testid": "play-checkpoint", class: "mw-select" },
    data.checkpoints.map((n) => h("option", { value: n }, `${n.toLocaleString("en-GB")} games`)),
  );
  const human = h(
    "select",
    { "data-testid": "play-human", class: "mw-select" },
    h("option", { value: "O" }, "O (MENACE opens as X)"),
    h("option", { value: "X" }, "X (you open; MENACE plays O)"),
  );
  const auto = h("input", { type: "checkbox", "data-testid": "play-auto" });
  const learn = h("input", { type: "checkbox", "data-testid": "play-learn" });
  const changeOpponent = () => {
    const s = act.playable();
    if (s) act.commit(act.settle(s, { checkpoint: Number(checkpoint.value), human: human.value }));
  };
  checkpoint.addEventListener("change", changeOpponent);
  human.addEventListener("change", changeOpponent);
  auto.addEventListener("change", () => {
    let s = act.playable();
    if (!s) return;
    s.auto = auto.checked;
    if (s.auto && turnOf(s) === "menace") s = menaceMove(data, s);
    act.commit(s);
  });
  learn.addEventListener("change", () => {
    const s = act.playable();
    if (!s) return;
    s.learn = learn.checked;
    act.commit(s);
  });
  return {
    el: h(
      "div",
      { class: "mw-controls" },
      h("label", {}, "MENACE trained for ", checkpoint),
      h("label", {}, "You play ", human),
      h("label", { class: "mw-check" }, auto, " MENACE moves at once"),
      h("label", { class: "mw-check" }, learn, " Learn while playing"),
    ),
    draw(s) {
      checkpoint.value = String(s.checkpoint);
      human.value = s.human;
      auto.checked = s.auto;
      learn.checked = s.learn;
    },
  };
}

/** Arrow keys move focus between the board's cells (Tab and Enter work as for any button). */
function moveFocus(cells, event) {
  const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -3, ArrowDown: 3 }[event.key];
  if (step === undefined) return;
  const i = cells.findIndex((c) => c.button === document.activeElement);
  if (i < 0) return;
  const j = i + step;
  const sameRow = Math.abs(step) === 3 || Math.floor(j / 3) === Math.floor(i / 3);
  if (j >= 0 && j < 9 && sameRow) {
    cells[j].button.focus();
    event.preventDefault();
  }
}

/** The board: the reader plays a square by clicking it; MENACE's policy shows on the cells. */
function boardView(data, act) {
  const onCell = (i) => {
    const s = act.playable();
    if (!s) return;
    const why = illegalMove(s, i);
    if (why) act.say(why);
    else act.commit(humanMove(data, s, i));
  };
  const cells = Array.from({ length: 9 }, (_, i) => buildCell(i, onCell));
  const el = h(
    "div",
    { class: "mw-board", role: "group", "aria-label": "Noughts and crosses board, squares 1 to 9", "data-testid": "play-board" },
    cells.map((c) => c.button),
  );
  el.addEventListener("keydown", (event) => moveFocus(cells, event));
  return {
    el,
    draw(s, policy, win, turn) {
      drawBoard(cells, s, policy, win, turn);
    },
    invalid() {
      cells.forEach((c) => {
        c.button.setAttribute("aria-disabled", "true");
        c.bead.hidden = true;
        c.prob.hidden = true;
      });
    },
  };
}

/** The side panel: status, the announced result, Sample and New game, tally, MENACE's last
 * move and the widget's notice (live regions: only real changes touch them). */
function sidePanelView(data, act) {
  // MENACE's move is announced in `last` (a polite live region: after what the reader hears).
  const { status, live, tally, last, notice } = sideParagraphs("play");
  const sample = button("Sample MENACE move", "play-sample", () => {
    const s = act.playable();
    if (s && turnOf(s) === "menace") act.commit(menaceMove(data, s));
  }, true);
  const again = button("New game", "play-new", () => {
    const s = act.playable();
    if (s) act.commit(newGame(data, s));
  });
  return {
    el: h("div", { class: "mw-side" }, status, live, h("div", { class: "mw-buttons" }, sample, again), tally, last, notice),
    showNotice: (n) => showNotice(notice, n),
    draw(s, policy, win, turn) {
      again.disabled = false;
      drawStatus(status, live, s, policy, win, turn);
      sample.disabled = turn !== "menace";
      tally.textContent = `MENACE ${s.tally.menace} · Draws ${s.tally.draw} · You ${s.tally.human}`;
      showText(last, lastMoveText(data, s));
    },
    invalid() {
      sample.disabled = true;
      again.disabled = true;
      status.textContent = "";
      last.textContent = "";
    },
  };
}

/** The legend under the board: the open matchbox's policy as a table. */
function legendView() {
  const el = h("div", { class: "mw-legend", "data-testid": "play-policy" });
  return { el, draw: (policy) => drawLegend(el, policy) };
}

/** The learning log: what the last game changed in MENACE's boxes. */
function changesView(data) {
  const el = h("div", { class: "mw-changes", "data-testid": "play-changes" });
  return { el, draw: (s) => drawChanges(el, data, s), clear: () => el.replaceChildren() };
}

/** The message shown when the synced state cannot be played from. */
function errorView() {
  const el = h("p", { class: "mw-error mw-play-error", role: "alert", "data-testid": "play-error" });
  return {
    el,
    show(problem) {
      el.hidden = false;
      const text = `This widget's state cannot be played: ${problem}. Press Reset to defaults to start again.`;
      showText(el, text);
    },
    hide() {
      el.hidden = true;
      el.textContent = "";
    },
  };
}

/** Export: MENACE's beads as an agent file, downloaded through a link in `host`. */
function saveAgentFile(data, act, host) {
  const s = act.playable();
  if (!s) return;
  const doc = exportAgent(data, s);
  const name = exportName(doc);
  const url = URL.createObjectURL(new Blob([JSON.stringify(doc)], { type: "application/json" }));
  const link = h("a", { href: url, download: name, hidden: true });
  host.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  act.say(`Saved ${name}: MENACE's beads after ${counted(doc.games_trained, "game")} of training. Import it here later, or read it with menace_lib.`);
}

/** Import: the chosen agent file becomes the opponent (or the reason it cannot). */
async function loadAgentFile(data, act, file) {
  const s = act.playable();
  if (!s) return;
  let bytes;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch (err) {
    act.say(`Not imported: the file could not be read (${err && err.message ? err.message : err}).`, "error");
    return;
  }
  const placed = importAgentBytes(bytes, data);
  if (placed.error) {
    act.say(`Not imported: ${placed.error}.`, "error");
    return;
  }
  const p = placed.settings;
  const games = p.games_learned === 0 ? "" : ` + ${counted(p.games_learned, "game")} learnt`;
  act.commit(
    importAgent(data, s, p),
    `Imported ${file.name}: MENACE plays ${p.human === "O" ? "X" : "O"} from the ${p.checkpoint.toLocaleString("en-GB")}-game ` +
      `checkpoint${games}; learning is ${p.learn ? "on" : "off"}.`,
  );
}

/** Replace the page's fragment (an empty one leaves the address without "#"). */
function replaceHash(hash) {
  history.replaceState(history.state, "", hash || window.location.pathname + window.location.search);
}

/** Share: the page's address opens the widget with these settings; shown, and copied if allowed. */
function shareLink(act, linkField) {
  const s = act.playable();
  if (!s) return;
  replaceHash(withFragmentValue(window.location.hash, FRAGMENT_KEY, formatSettings(s)));
  offerLink(
    linkField,
    (text) => act.say(text),
    "This page's address now opens the widget with these settings: copy the link above.",
    "Link copied: it opens this page with these settings (not the beads: export those).",
  );
}

/** Reset: the defaults, from any state, even a damaged one (everything is rebuilt from the data). */
function resetToDefaults(data, act, linkField) {
  const s = {
    ...act.snapshot(),
    board: [],
    moves: [],
    path: [],
    result: "",
    last_draw: {},
    tally: {},
    bead_changes: [],
    games_learned: 0,
  };
  const hash = withFragmentValue(window.location.hash, FRAGMENT_KEY, null);
  if (hash !== window.location.hash && !(hash === "" && window.location.hash === "#")) replaceHash(hash);
  linkField.hidden = true;
  const d = data.defaults;
  act.commit(
    act.settle(s, d),
    `Back to the defaults: the ${d.checkpoint.toLocaleString("en-GB")}-game MENACE, you play ${d.human}, ` +
      `learning ${d.learn ? "on" : "off"}.`,
  );
}

/** Keeping and sharing: agent files out and in, a link to the settings, the defaults. */
function toolsView(data, act, host) {
  const fileInput = h("input", { type: "file", accept: ".json,application/json", hidden: true, "data-testid": "play-import-file" });
  fileInput.addEventListener("change", async () => {
    const file = fileInput.files && fileInput.files[0];
    fileInput.value = ""; // the same file can be chosen again
    if (file) await loadAgentFile(data, act, file);
  });
  const linkField = h("input", {
    type: "text",
    readonly: true,
    class: "mw-link",
    "aria-label": "Link to these settings",
    "data-testid": "play-link",
    hidden: true,
  });
  const buttons = [
    button("Export agent file", "play-export", () => saveAgentFile(data, act, host)),
    button("Import agent file…", "play-import", () => fileInput.click()),
    button("Link to these settings", "play-share", () => shareLink(act, linkField)),
  ];
  const reset = button("Reset to defaults", "play-reset", () => resetToDefaults(data, act, linkField));
  return {
    el: h(
      "div",
      { class: "mw-tools", role: "group", "aria-label": "Keep and share" },
      h("div", { class: "mw-buttons" }, buttons, reset),
      fileInput,
      linkField,
    ),
    /** Export, import and link need a playable state; Reset always works. */
    enable(on) {
      for (const b of buttons) b.disabled = !on;
    },
  };
}

// ------------------------------------------------------------------------ mounting

function render({ model, el }) {
  const fallback = { className: "mw mw-play", testid: "play-broken", name: "play widget", hint: "Re-run the cell that made it." };
  return mountOrExplain(mount, model, el, fallback);
}

/** Every view of the widget, in screen order, and the root that holds them. */
function composeViews(data, act, host) {
  const v = {
    controls: controlsView(data, act),
    error: errorView(),
    board: boardView(data, act),
    side: sidePanelView(data, act),
    legend: legendView(),
    changes: changesView(data),
    tools: toolsView(data, act, host),
  };
  v.root = h(
    "div",
    { class: "mw mw-play", "data-testid": "play" },
    v.controls.el,
    v.error.el,
    h("div", { class: "mw-main" }, v.board.el, v.side.el),
    v.legend.el,
    v.changes.el,
    v.tools.el,
  );
  return v;
}

/** A state that cannot be played from: say why, and leave nothing to click but Reset. */
function drawInvalid(v, problem) {
  v.error.show(problem);
  v.root.dataset.turn = "invalid";
  v.board.invalid();
  v.side.invalid();
  v.tools.enable(false);
  v.legend.draw(null);
  v.changes.clear();
}

/** A playable state: every view draws its part. */
function drawState(v, data, s) {
  v.error.hide();
  v.tools.enable(true);
  const turn = turnOf(s);
  const policy = turn === "menace" ? policyOf(data, s) : null;
  const win = winningSquares(data.lines, s.board);
  v.controls.draw(s);
  v.root.dataset.turn = turn;
  v.root.dataset.board = boardText(s.board);
  v.root.dataset.human = s.human;
  v.board.draw(s, policy, win, turn);
  v.side.draw(s, policy, win, turn);
  v.legend.draw(policy);
  v.changes.draw(s);
}

/** Settings from the page's address ("#play=checkpoint:25,human:X,..."), if it has the key. */
function settingsFromLink(data, act) {
  let value;
  try {
    value = fragmentValue(window.location.hash, FRAGMENT_KEY); // over-long: refused unread
  } catch (error) {
    act.say(`The link's settings were not used: ${error.message}.`, "error");
    return;
  }
  if (value === null) return;
  const parsed = parseSettings(data, value);
  if (parsed.error) {
    act.say(`The link's settings were not used: ${parsed.error}.`, "error");
    return;
  }
  const s = act.snapshot();
  if (sameSettings(s, parsed.settings) && !stateProblem(data, s)) return;
  const base = stateProblem(data, s) ? { ...s, board: [], moves: [], tally: {}, bead_changes: [] } : s;
  const p = parsed.settings;
  act.commit(
    act.settle(base, p),
    `Settings from the link: the ${p.checkpoint.toLocaleString("en-GB")}-game MENACE, you play ${p.human}, ` +
      `MENACE moves ${p.auto ? "at once" : "when sampled"}, learning ${p.learn ? "on" : "off"}, seed ${p.seed}.`,
  );
}

function mount(model, el) {
  const data = model.get("data");
  const broken = dataProblem(data);
  if (broken) throw new Error(broken);
  let notice = { text: "", kind: "" };
  const act = {
    snapshot: () => snapshot(model),
    /** New settings: a fresh opponent, the seed's draws from the start (MENACE may open at once). */
    settle: (s, settings) => applySettings(data, s, settings),
    say(text, kind = "info") {
      notice = { text, kind };
      update();
    },
    commit(s, message = "") {
      if (!s) return;
      notice = { text: message, kind: message ? "info" : "" };
      model.set(s);
      sync(model);
      update();
    },
    /** The current state, or null (and a message) if it cannot be played from. */
    playable() {
      const s = snapshot(model);
      if (!stateProblem(data, s)) return s;
      act.say("The widget's state is damaged (see above): press Reset to defaults.", "error");
      return null;
    },
  };
  const views = composeViews(data, act, el);
  el.append(views.root);

  function update() {
    const s = snapshot(model);
    views.side.showNotice(notice);
    const problem = stateProblem(data, s);
    if (problem) drawInvalid(views, problem);
    else drawState(views, data, s);
  }

  const fromLink = () => settingsFromLink(data, act);
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
