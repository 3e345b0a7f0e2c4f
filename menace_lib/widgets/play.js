// Play against MENACE: the whole game runs here, so the widget works on a static page.
//
// Data (trait `data`, built by menace_lib/widgets/play.py): per side the raw-position
// lookup (box, squares each bead colour plays, move-class members), the boxes' boards and
// initial beads, the beads of each checkpoint, reinforcement and restock; plus all
// terminal positions. Game state lives in synced traits (board, moves, path, result,
// tally, live_beads, bead_changes, games_learned, last_draw, game_key) so a live kernel
// sees it. Squares are 0-based in the data and 1-based in aria-labels ("square 1" is
// the top-left cell).
import {
  COLOUR_NAMES,
  beadColour,
  beadText,
  boardCode,
  classesOf,
  digits,
  fixed,
  h,
  mulberry32,
  sync,
} from "./common.js";

const EMPTY = 0;
const X = 1;
const O = 2;
const MARK = { X, O };
const SYMBOL = ["", "X", "O"];
const X_WIN = 1;
const O_WIN = 2;
const DRAW = 3;
const WIN = 0;
const DRAW_RESULT = 1;
const LOSS = 2;
const RESULT_TEXT = { menace: "MENACE wins", draw: "Draw", human: "You win" };

// ------------------------------------------------------------------ data access

const indexCache = new WeakMap();

/** Maps from position code to lookup row (per side) and to terminal outcome. */
function indexes(data) {
  let idx = indexCache.get(data);
  if (idx) return idx;
  idx = { sides: {}, terminal: new Map() };
  for (const [side, d] of Object.entries(data.sides)) {
    const rows = new Map();
    d.lookup.codes.forEach((code, i) => rows.set(code, i));
    idx.sides[side] = rows;
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
 * MENACE's options in the current position: {box, squares, members, colours, beads, p}.
 * `colours` holds the canonical square of each bead colour (it picks the colour drawn).
 * `beads` is null where no box is opened (forced move or no matchbox): then the
 * reference plays the single legal move, or draws uniformly among the moves.
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
    return { box, squares, members, colours: squares, beads: null, p };
  }
  let beads = s.live_beads[box];
  let total = beads.reduce((a, b) => a + b, 0);
  const proportions = total > 0 ? beads : d.initial[box];
  total = proportions.reduce((a, b) => a + b, 0);
  const p = total > 0 ? proportions.map((x) => x / total) : beads.map(() => 1 / beads.length);
  return { box, squares, members, colours: digits(d.entries[box]), beads, p };
}

// ---------------------------------------------------------------- MENACE's rules

/** The reference sampler: first colour with t < w for t = u * sum(w) (menace._draw). */
export function drawIndex(w, u) {
  let t = u * w.reduce((a, b) => a + b, 0);
  let last = 0;
  for (let j = 0; j < w.length; j++) {
    if (w[j] > 0) {
      if (t < w[j]) return j;
      last = j;
    }
    t -= w[j];
  }
  return last; // rounding left t at the end: the last live colour
}

/** End-of-game update of every drawn (box, colour), as menace_lib.menace._reinforce. */
export function reinforce(weights, initial, path, delta, restock) {
  const w = weights.map((row) => row.slice());
  for (const [b, j] of path) {
    let next = w[b][j] + delta;
    if (next <= 0) next = restock === "move" ? initial[b][j] : 0;
    w[b][j] = next;
  }
  if (restock === "box" && delta < 0) {
    for (const [b] of path) if (Math.max(...w[b]) <= 0) w[b] = initial[b].slice();
  }
  return w;
}

// -------------------------------------------------------------------- transitions
// Each takes a plain state object (see snapshot) and returns the next one.

function snapshot(model) {
  const copy = (v) => JSON.parse(JSON.stringify(v));
  const s = {};
  for (const name of [
    "checkpoint", "human", "auto", "learn", "game_key", "board", "moves", "path", "result",
    "tally", "live_beads", "bead_changes", "games_learned", "last_draw",
  ]) {
    s[name] = copy(model.get(name));
  }
  return s;
}

function outcomeOf(data, board) {
  return indexes(data).terminal.get(boardCode(board));
}

function finish(data, s, result) {
  const key = result === WIN ? "menace" : result === DRAW_RESULT ? "draw" : "human";
  s.result = RESULT_TEXT[key];
  s.tally = { ...s.tally, [key]: s.tally[key] + 1 };
  if (s.learn && s.path.length > 0) {
    const d = data.sides[menaceSide(s)];
    const before = s.live_beads;
    s.live_beads = reinforce(before, d.initial, s.path, d.reinforcement[result], d.restock);
    s.games_learned += 1;
    s.bead_changes = s.path.map(([b, j]) => ({
      box: b,
      board: d.boxes[b],
      colour: j,
      square: canonicalSquare(d, b, j),
      before: before[b].slice(),
      after: s.live_beads[b].slice(),
    }));
  } else if (s.learn) {
    s.games_learned += 1;
    s.bead_changes = [];
  }
  return s;
}

// The canonical square a colour plays (Menace.entries).
function canonicalSquare(d, box, colour) {
  return digits(d.entries[box])[colour];
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

/** MENACE draws a bead and plays it (or resigns at an empty box without restock). */
export function menaceMove(data, s, rng) {
  const d = data.sides[menaceSide(s)];
  const policy = policyOf(data, s);
  if (!policy) return s;
  const { box, squares } = policy;
  if (box < 0) {
    const j = squares.length === 1 ? 0 : Math.min(Math.floor(rng() * squares.length), squares.length - 1);
    s.last_draw = { square: squares[j], box: -1, colour: -1, beads: null, p: 1 / squares.length };
    return place(data, s, squares[j], MARK[menaceSide(s)]);
  }
  let w = s.live_beads[box];
  if (w.reduce((a, b) => a + b, 0) <= 0) {
    if (d.restock === "none") {
      s.last_draw = { square: -1, box, colour: -1, beads: null, p: null };
      return finish(data, s, LOSS);
    }
    w = d.initial[box].slice();
    s.live_beads = s.live_beads.map((row, b) => (b === box ? w : row));
  }
  const j = drawIndex(w, rng());
  const total = w.reduce((a, b) => a + b, 0);
  s.path = [...s.path, [box, j]];
  s.last_draw = { square: squares[j], box, colour: j, beads: w[j], p: w[j] / total };
  return place(data, s, squares[j], MARK[menaceSide(s)]);
}

export function humanMove(data, s, square, rng) {
  if (turnOf(s) !== "human" || s.board[square] !== EMPTY) return null; // illegal: no change
  s = place(data, s, square, MARK[s.human]);
  if (s.auto && turnOf(s) === "menace") s = menaceMove(data, s, rng);
  return s;
}

export function newGame(data, s, rng) {
  s.board = Array(9).fill(EMPTY);
  s.moves = [];
  s.path = [];
  s.result = "";
  s.last_draw = {};
  if (s.auto && turnOf(s) === "menace") s = menaceMove(data, s, rng);
  return s;
}

function resetOpponent(data, s, rng) {
  s.game_key = gameKey(s);
  s.live_beads = JSON.parse(JSON.stringify(data.sides[menaceSide(s)].beads[String(s.checkpoint)]));
  s.tally = { menace: 0, draw: 0, human: 0 };
  s.games_learned = 0;
  s.bead_changes = [];
  return newGame(data, s, rng);
}

// ------------------------------------------------------------------------ view

function squareName(i) {
  return `square ${i + 1}`;
}

/** "X.O.X...." -> "X.O/.X./..." */
function rows(text) {
  return `${text.slice(0, 3)}/${text.slice(3, 6)}/${text.slice(6)}`;
}

function describeSquares(list) {
  return list.map((i) => i + 1).join(", ");
}

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
  const button = h(
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
  return { button, mark, bead, prob };
}

function render({ model, el }) {
  const data = model.get("data");
  let rng = mulberry32(model.get("seed"));
  model.on("change:seed", () => {
    rng = mulberry32(model.get("seed"));
  });

  const commit = (s) => {
    if (!s) return;
    model.set(s);
    sync(model);
  };

  // --- controls
  const checkpointSelect = h(
    "select",
    { "data-testid": "play-checkpoint", class: "mw-select" },
    data.checkpoints.map((n) => h("option", { value: n }, `${n.toLocaleString("en-GB")} games`)),
  );
  const humanSelect = h(
    "select",
    { "data-testid": "play-human", class: "mw-select" },
    h("option", { value: "O" }, "O (MENACE opens as X)"),
    h("option", { value: "X" }, "X (you open; MENACE plays O)"),
  );
  const autoBox = h("input", { type: "checkbox", "data-testid": "play-auto" });
  const learnBox = h("input", { type: "checkbox", "data-testid": "play-learn" });

  const changeOpponent = () => {
    const s = snapshot(model);
    s.checkpoint = Number(checkpointSelect.value);
    s.human = humanSelect.value;
    commit(resetOpponent(data, s, rng));
  };
  checkpointSelect.addEventListener("change", changeOpponent);
  humanSelect.addEventListener("change", changeOpponent);
  autoBox.addEventListener("change", () => {
    let s = snapshot(model);
    s.auto = autoBox.checked;
    if (s.auto && turnOf(s) === "menace") s = menaceMove(data, s, rng);
    commit(s);
  });
  learnBox.addEventListener("change", () => {
    const s = snapshot(model);
    s.learn = learnBox.checked;
    commit(s);
  });

  const controls = h(
    "div",
    { class: "mw-controls" },
    h("label", {}, "MENACE trained for ", checkpointSelect),
    h("label", {}, "You play ", humanSelect),
    h("label", { class: "mw-check" }, autoBox, " MENACE moves at once"),
    h("label", { class: "mw-check" }, learnBox, " Learn while playing"),
  );

  // --- board
  const onCell = (i) => commit(humanMove(data, snapshot(model), i, rng));
  const cells = Array.from({ length: 9 }, (_, i) => buildCell(i, onCell));
  const grid = h(
    "div",
    { class: "mw-board", role: "group", "aria-label": "Noughts and crosses board", "data-testid": "play-board" },
    cells.map((c) => c.button),
  );
  // Arrow keys move focus between cells (Tab and Enter work as for any button).
  grid.addEventListener("keydown", (event) => {
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
  });

  // --- side panel
  const status = h("p", { class: "mw-status", "data-testid": "play-status" });
  const live = h("p", {
    class: "mw-result",
    "aria-live": "polite",
    role: "status",
    "data-testid": "play-result",
  });
  const sample = h(
    "button",
    {
      type: "button",
      class: "mw-button mw-primary",
      "data-testid": "play-sample",
      onclick: () => {
        const s = snapshot(model);
        if (turnOf(s) === "menace") commit(menaceMove(data, s, rng));
      },
    },
    "Sample MENACE move",
  );
  const again = h(
    "button",
    {
      type: "button",
      class: "mw-button",
      "data-testid": "play-new",
      onclick: () => commit(newGame(data, snapshot(model), rng)),
    },
    "New game",
  );
  const tally = h("p", { class: "mw-tally", "data-testid": "play-tally" });
  const legend = h("div", { class: "mw-legend", "data-testid": "play-policy" });
  const last = h("p", { class: "mw-last", "data-testid": "play-last" });
  const changes = h("div", { class: "mw-changes", "data-testid": "play-changes" });

  const root = h(
    "div",
    { class: "mw mw-play", "data-testid": "play" },
    controls,
    h(
      "div",
      { class: "mw-main" },
      grid,
      h("div", { class: "mw-side" }, status, live, h("div", { class: "mw-buttons" }, sample, again), tally, last),
    ),
    legend,
    changes,
  );
  el.append(root);

  function update() {
    const s = snapshot(model);
    const turn = turnOf(s);
    const side = menaceSide(s);
    const policy = turn === "menace" ? policyOf(data, s) : null;
    checkpointSelect.value = String(s.checkpoint);
    humanSelect.value = s.human;
    autoBox.checked = s.auto;
    learnBox.checked = s.learn;
    root.dataset.turn = turn;
    root.dataset.board = s.board.map((v) => ".XO"[v]).join("");
    root.dataset.human = s.human;

    // Policy overlay: class squares on their representative cells, members outlined.
    const classOf = new Map();
    const memberOf = new Map();
    if (policy) {
      policy.squares.forEach((sq, j) => classOf.set(sq, j));
      policy.members.forEach((cls, j) => cls.forEach((sq) => memberOf.set(sq, j)));
    }
    cells.forEach((c, i) => {
      const v = s.board[i];
      c.button.setAttribute("aria-label", `${squareName(i)}, ${v === EMPTY ? "empty" : SYMBOL[v]}`);
      c.mark.textContent = SYMBOL[v];
      c.button.classList.toggle("mw-x", v === X);
      c.button.classList.toggle("mw-o", v === O);
      const playable = turn === "human" && v === EMPTY;
      c.button.setAttribute("aria-disabled", playable ? "false" : "true");
      c.button.classList.toggle("mw-last-move", s.moves.length > 0 && s.moves[s.moves.length - 1] === i);
      const j = classOf.get(i);
      const member = memberOf.get(i);
      c.button.classList.toggle("mw-member", member !== undefined && j === undefined);
      const colour = member !== undefined ? beadColour(policy.colours[member]) : "transparent";
      c.button.style.setProperty("--mw-class", colour);
      if (j !== undefined) {
        const p = policy.p[j];
        c.bead.hidden = false;
        c.prob.hidden = false;
        c.bead.style.setProperty("--mw-fill", `${(100 * p).toFixed(1)}%`);
        c.bead.querySelector(".mw-bead-count").textContent = policy.beads ? beadText(policy.beads[j]) : "–";
        c.prob.textContent = `p ${p.toFixed(2)}`;
      } else {
        c.bead.hidden = true;
        c.prob.hidden = true;
      }
    });

    // Status line and result.
    const mine = s.human;
    if (turn === "over") {
      status.textContent = "Game over. Press New game to play again.";
    } else if (turn === "human") {
      status.textContent = `Your move (${mine}): choose an empty square.`;
    } else if (policy && policy.box < 0) {
      status.textContent =
        policy.squares.length === 1
          ? `MENACE (${side}) has no matchbox here: its only move is square ${policy.squares[0] + 1}.`
          : `MENACE (${side}) has no matchbox here: it picks uniformly among ${policy.squares.length} squares.`;
    } else {
      status.textContent = `MENACE (${side}) to move: matchbox ${policy ? policy.box + 1 : "?"} is open.`;
    }
    if (live.textContent !== s.result) live.textContent = s.result;
    sample.disabled = turn !== "menace";

    const tl = s.tally;
    tally.textContent = `MENACE ${tl.menace} · Draws ${tl.draw} · You ${tl.human}`;

    // Legend: the same information as the coloured squares, in words.
    legend.replaceChildren();
    if (policy) {
      const total = policy.beads ? policy.beads.reduce((a, b) => a + b, 0) : null;
      legend.append(
        h("p", { class: "mw-caption" }, policy.beads
          ? `Matchbox ${policy.box + 1}: ${beadText(total)} beads in ${policy.squares.length} colours. ` +
            "Each coloured square sits on the cell MENACE plays for that colour; its fill is the probability. " +
            "Dashed cells are symmetric equivalents."
          : "No matchbox: the reference rule plays the forced or uniformly chosen move."),
        h(
          "table",
          { class: "mw-table" },
          h("thead", {}, h("tr", {}, h("th", {}, "Colour"), h("th", {}, "Plays square"), h("th", {}, "Same class"), h("th", {}, "Beads"), h("th", {}, "p"))),
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
                h("td", {}, describeSquares(policy.members[j])),
                h("td", { "data-testid": `play-policy-beads-${j}` }, policy.beads ? beadText(policy.beads[j]) : "–"),
                h("td", { "data-testid": `play-policy-p-${j}` }, fixed(policy.p[j], 6)),
              ),
            ),
          ),
        ),
      );
    }

    const ld = s.last_draw;
    if (ld && ld.square !== undefined) {
      last.textContent =
        ld.square < 0
          ? "MENACE found its matchbox empty and resigned."
          : ld.box < 0
            ? `MENACE played square ${ld.square + 1} (no matchbox).`
            : `MENACE drew a ${COLOUR_NAMES[digits(data.sides[side].entries[ld.box])[ld.colour]]} bead ` +
              `(${beadText(ld.beads)} of its colour, p ${ld.p.toFixed(3)}) from matchbox ${ld.box + 1} ` +
              `and played square ${ld.square + 1}.`;
    } else {
      last.textContent = "";
    }

    changes.replaceChildren();
    if (s.learn) {
      const d = data.sides[side];
      changes.append(h("p", { class: "mw-caption" }, `Learning on: ${s.games_learned} game(s) learnt since loading this checkpoint.`));
      if (s.bead_changes.length > 0) {
        const delta = s.bead_changes.reduce((acc, c) => acc + c.after[c.colour] - c.before[c.colour], 0);
        const per = d.reinforcement[{ "MENACE wins": WIN, Draw: DRAW_RESULT, "You win": LOSS }[s.result] ?? WIN];
        const n = s.bead_changes.length;
        const sign = per >= 0 ? "+" : "−";
        changes.append(
          h(
            "p",
            { "data-testid": "play-changes-summary" },
            `${sign}${beadText(Math.abs(per))} bead${Math.abs(per) === 1 ? "" : "s"} in ${n} box${n === 1 ? "" : "es"} (net ${delta >= 0 ? "+" : "−"}${beadText(Math.abs(delta))}).`,
          ),
          h(
            "ul",
            { class: "mw-change-list" },
            s.bead_changes.map((c) =>
              h(
                "li",
                {},
                h("span", { class: "mw-swatch", style: { background: beadColour(c.square) } }),
                ` matchbox ${c.box + 1} (${rows(c.board)}), ${COLOUR_NAMES[c.square]} bead: ${c.before.map(beadText).join(" ")} → ${c.after.map(beadText).join(" ")}`,
              ),
            ),
          ),
        );
      } else if (s.result && s.games_learned > 0) {
        changes.append(h("p", {}, "MENACE opened no matchbox in the last game: nothing to learn."));
      }
    }
  }

  model.on("change", update);
  update();
  return () => model.off("change", update);
}

export default { render };
