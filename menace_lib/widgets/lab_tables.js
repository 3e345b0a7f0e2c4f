// The game tables of the widgets' one game engine (lab_engine.js), and a matchbox
// machine's boxes on them. Two payloads unpack to the same table object:
//
//   gameTables(data)   noughts and crosses, packed small by menace_lib/widgets/lab_data.py
//   tablesOf(data)     any game of the library's game layer (menace_lib.games.game.Tables),
//                      as menace_lib/widgets/game_data.py ships it (Hexapawn for HER)
//
// menaceStructure builds a machine's boxes for any layout, filter and side on either, as
// menace_lib.machine.box_layout does (tests/test_lab_js.py compares every field for every
// layout, filter and side of noughts and crosses, and for Hexapawn).
//
// Position ids are the library's (ordered by ply, then by code). A move is an integer
// 0 .. nMoves - 1 (a square for noughts and crosses, 3 * cell + direction for Hexapawn);
// moveMaps[g][m] is move m under symmetry g, inverse[g] the inverse element.

export const X = 1;
export const O = 2;
export const ONGOING = 0;
export const X_WIN = 1;
export const O_WIN = 2;
export const DRAW = 3;
export const WIN = 0;
export const DRAW_RESULT = 1;
export const LOSS = 2;
const POW3 = [1, 3, 9, 27, 81, 243, 729, 2187, 6561];

/** Fixed-width base-36 digits -> integers (lab_data.pack's inverse). */
export function unpack(text, width) {
  const out = new Int32Array(text.length / width);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(i * width, i * width + width), 36);
  return out;
}

/** MENACE's result from `player`'s side for a finished game's outcome (menace.result_for). */
export function resultFor(player, outcome) {
  if (outcome === DRAW) return DRAW_RESULT;
  return (outcome === X_WIN) === (player === X) ? WIN : LOSS;
}

function squaresOf(mask) {
  const out = [];
  for (let m = 0; m < 9; m++) if (mask & (1 << m)) out.push(m);
  return out;
}

/**
 * The whole game as arrays over position ids: boards (n*9), ply, player, outcome, succ
 * (n*9, -1 where illegal), canon, canonTransform, rank (-1 or filter level), classes
 * (per ranked id), opponents (name -> per id the successor ids it picks from).
 */
export function gameTables(data) {
  const n = data.n;
  const codes = unpack(data.codes, 3);
  const outcome = unpack(data.outcome, 1);
  const canonTransform = unpack(data.canon_transform, 1);
  const transforms = data.transforms.map((t) => Array.from(t, Number));
  const idOf = new Map();
  codes.forEach((code, pid) => idOf.set(code, pid));
  const boards = new Int8Array(n * 9);
  const ply = new Int8Array(n);
  const player = new Int8Array(n);
  for (let pid = 0; pid < n; pid++) {
    let code = codes[pid];
    let pieces = 0;
    for (let i = 0; i < 9; i++) {
      const v = code % 3;
      code = (code - v) / 3;
      boards[pid * 9 + i] = v;
      if (v) pieces += 1;
    }
    ply[pid] = pieces;
    player[pid] = pieces % 2 === 0 ? X : O;
  }
  const succ = new Int32Array(n * 9).fill(-1);
  const canon = new Int32Array(n);
  for (let pid = 0; pid < n; pid++) {
    if (outcome[pid] === ONGOING) {
      for (let m = 0; m < 9; m++) {
        if (boards[pid * 9 + m] === 0) succ[pid * 9 + m] = idOf.get(codes[pid] + player[pid] * POW3[m]);
      }
    }
    // The canonical image: new[T[i]] = old[i] under the position's canonical transform.
    const t = transforms[canonTransform[pid]];
    let code = 0;
    for (let i = 0; i < 9; i++) code += boards[pid * 9 + i] * POW3[t[i]];
    canon[pid] = idOf.get(code);
  }
  const rank = new Int8Array(n).fill(-1);
  const classes = new Map();
  const printedTransform = new Int8Array(n).fill(-1);
  let k = 0;
  for (let pid = 0; pid < n; pid++) {
    const r = data.rank[pid];
    if (r === "-") continue;
    rank[pid] = Number(r);
    classes.set(pid, data.classes[k].split("/").map((c) => Array.from(c, Number)));
    printedTransform[pid] = Number(data.printed.transform[k]);
    k += 1;
  }
  const printedNumbers = {};
  for (const [key, packed] of Object.entries(data.printed.numbers)) printedNumbers[key] = Array.from(unpack(packed, 2));
  const opponents = {};
  for (const [name, packed] of Object.entries(data.opponents)) {
    const masks = unpack(packed, 2);
    opponents[name] = Array.from(masks, (mask, pid) => squaresOf(mask).map((m) => succ[pid * 9 + m]));
  }
  return {
    game: "noughts-and-crosses",
    n,
    nMoves: 9,
    codes,
    idOf,
    boards,
    ply,
    player,
    outcome,
    succ,
    canon,
    canonTransform,
    transforms,
    moveMaps: transforms,
    inverse: data.inverse,
    rank,
    classes,
    opponents,
    filters: data.filters,
    printedTransform,
    printedNumbers,
  };
}

/**
 * The tables of any game from menace_lib/widgets/game_data.py's payload: {game, n,
 * n_moves, n_cells, cells (a digit per cell), ply, player, outcome (a digit per
 * position), succ (per position its [move, child] pairs), canon, canon_transform,
 * move_maps, inverse, filters, rank ("-" or the strictest filter level per position),
 * classes (per ranked position its move classes), opponents (name -> per position the
 * moves it picks from)}. Same fields as gameTables, with `cells` for `boards`.
 */
export function tablesOf(data) {
  const n = data.n;
  const nMoves = data.n_moves;
  const digitsOf = (text) => Int8Array.from(text, Number);
  const cells = digitsOf(data.cells);
  const ply = Int8Array.from(data.ply);
  const player = digitsOf(data.player);
  const outcome = digitsOf(data.outcome);
  const succ = new Int32Array(n * nMoves).fill(-1);
  data.succ.forEach((pairs, pid) => {
    for (const [m, child] of pairs) succ[pid * nMoves + m] = child;
  });
  const rank = new Int8Array(n).fill(-1);
  const classes = new Map();
  let k = 0;
  for (let pid = 0; pid < n; pid++) {
    if (data.rank[pid] === "-") continue;
    rank[pid] = Number(data.rank[pid]);
    classes.set(pid, data.classes[k]);
    k += 1;
  }
  const opponents = {};
  for (const [name, moves] of Object.entries(data.opponents)) {
    opponents[name] = moves.map((list, pid) => list.map((m) => succ[pid * nMoves + m]));
  }
  return {
    game: data.game,
    n,
    nMoves,
    nCells: data.n_cells,
    cells,
    ply,
    player,
    outcome,
    succ,
    canon: Int32Array.from(data.canon),
    canonTransform: Int8Array.from(data.canon_transform),
    moveMaps: data.move_maps,
    inverse: data.inverse,
    rank,
    classes,
    opponents,
    filters: data.filters,
    printed: data.printed,
  };
}

/** Legal moves of position `pid`, ascending. */
export function legal(T, pid) {
  const out = [];
  for (let m = 0; m < T.nMoves; m++) if (T.succ[pid * T.nMoves + m] >= 0) out.push(m);
  return out;
}

/** The move that leads from `pid` to `next` (-1 if none). */
export function moveTo(T, pid, next) {
  for (let m = 0; m < T.nMoves; m++) if (T.succ[pid * T.nMoves + m] === next) return m;
  return -1;
}

/**
 * The printed kit's number of each box and colour index of each bead (menace_lib.machine.
 * printed, their one owner). Game payloads (game_data.py) carry both per machine; the
 * lab's noughts-and-crosses payload (lab_data.py) carries, to stay small, each box's
 * number and the symmetry that draws it as printed, a colour being the lowest printed
 * square of its class. tests/test_kit_widget_journey.py checks both against the owner for
 * every box of every layout, filter and side.
 */
function printedBoxes(T, config, states, members) {
  const me = config.player;
  const full = T.printed?.[`${config.layout}/${config.filter}/${me}`];
  if (full && full.numbers.length === states.length) {
    return { numbers: full.numbers, colours: full.colours.map((c) => Array.from(c, Number)) };
  }
  const numbers = T.printedNumbers?.[`${config.filter}/${me}`];
  if (!numbers || numbers.length !== states.length) {
    throw new RangeError(`no printed box numbers for ${config.layout}/${config.filter}/${me}`);
  }
  const colours = states.map((s, b) => {
    const perm = T.moveMaps[T.printedTransform[s]];
    return members[b].map((cls) => Math.min(...cls.map((m) => perm[m])));
  });
  return { numbers, colours };
}

/**
 * A machine's boxes for a config {layout, filter, player, schedule}, as
 * menace_lib.machine.box_layout builds them: states (canonical ids, ascending), members
 * (the moves of each colour on the canonical position), entries (the move each colour
 * plays), initial beads, and per raw position where the machine moves: rawBox (-1: no
 * box), rawSquares (the raw move of each colour, or the uniform fallback moves), rawNext
 * (the position each leads to) and opening (whether it makes its first move there); and
 * per box its printed number (numbers) and its beads' colour indices (colours), from the
 * data's `printed` table (printedBoxes).
 */
export function menaceStructure(T, config) {
  const level = T.filters.indexOf(config.filter);
  if (level < 0) throw new RangeError(`unknown filter ${config.filter}`);
  if (config.layout !== "square" && config.layout !== "class") throw new RangeError(`unknown layout ${config.layout}`);
  const me = config.player;
  const states = [];
  const boxOf = new Map();
  for (let pid = 0; pid < T.n; pid++) {
    if (T.rank[pid] >= level && T.player[pid] === me) {
      boxOf.set(pid, states.length);
      states.push(pid);
    }
  }
  const schedule = config.schedule;
  const members = states.map((s) => (config.layout === "square" ? legal(T, s).map((m) => [m]) : T.classes.get(s)));
  const entries = members.map((box) => box.map((cls) => cls[0]));
  const initial = states.map((s, b) => {
    const beads = schedule[Math.min(Math.floor(T.ply[s] / 2), schedule.length - 1)];
    return entries[b].map(() => beads);
  });
  const rawBox = new Int32Array(T.n).fill(-1);
  const rawSquares = new Array(T.n).fill(null);
  const rawNext = new Array(T.n).fill(null);
  let firstPly = Infinity;
  for (let pid = 0; pid < T.n; pid++) if (T.player[pid] === me) firstPly = Math.min(firstPly, T.ply[pid]);
  const opening = new Uint8Array(T.n);
  for (let pid = 0; pid < T.n; pid++) {
    opening[pid] = T.ply[pid] <= firstPly ? 1 : 0;
    if (T.outcome[pid] !== ONGOING || T.player[pid] !== me) continue;
    const c = T.canon[pid];
    const back = T.moveMaps[T.inverse[T.canonTransform[pid]]];
    const b = boxOf.has(c) ? boxOf.get(c) : -1;
    const canonical = b >= 0 ? entries[b] : legal(T, c);
    const squares = canonical.map((m) => back[m]);
    rawBox[pid] = b;
    rawSquares[pid] = squares;
    rawNext[pid] = squares.map((m) => T.succ[pid * T.nMoves + m]);
  }
  const { numbers, colours } = printedBoxes(T, config, states, members);
  return { config, states, boxOf, members, entries, initial, rawBox, rawSquares, rawNext, opening, numbers, colours };
}
