// The widgets' one game engine: a matchbox machine's move step and its learning, for any
// game whose tables it is given (lab_tables.js unpacks them; lab_tables.menaceStructure
// builds a machine's boxes on them). The play widgets (play.js for noughts and crosses,
// her_play.js for Hexapawn) and the MENACE lab's sessions (lab_session.js) move and learn
// through machineMove and machineLearn, drawing from randomStream. The bead rules are
// beads.js, the one JavaScript copy of menace_lib/beads.py (tests/test_rule_parity.py).
// With the same seed a widget and its Python twin (menace_lib.machine, menace_lib/lab.py)
// produce the same games, draw for draw, because both read the one Philox4x32-10 stream
// (prng.js / menace_lib/prng.py) in the same order:
//
//   the machine's move, box opened:  one random() for the bead, drawn first (even when the
//                                    box is empty and it resigns or stops: Menace.choose)
//   the machine's move, no box:      integers(k) if k > 1 moves, else nothing
//   a scripted opponent or the reader: see lab_session.js (the lab) and each widget
import { counterRng } from "./prng.js";
import { drawBead, emptyBoxMove, refillEmpty, reinforce } from "./beads.js";

/** The seed's Philox stream from a position (prng.counterRng): every draw of the engine. */
export const randomStream = counterRng;

/**
 * A matchbox machine's move in raw position `pid` (Menace.choose): `structure` is
 * lab_tables.menaceStructure's (or the same fields for the positions a widget knows),
 * `weights` the live beads (an empty box that restock refills is refilled in place),
 * `rng` a counterRng and `rules` {restock, empty_box}. Returns {index, box, colour, move,
 * next}: `index` the option taken in rawSquares[pid]; at an empty box nothing refills,
 * `move` is RESIGN or STOP and `colour` -1; where no box opens, box and colour are -1.
 */
export function machineMove(structure, weights, pid, rng, rules) {
  const b = structure.rawBox[pid];
  const moves = structure.rawSquares[pid];
  const nextOf = (j) => (structure.rawNext ? structure.rawNext[pid][j] : -1);
  if (b < 0) {
    const j = moves.length === 1 ? 0 : rng.integers(moves.length);
    return { index: j, box: -1, colour: -1, move: moves[j], next: nextOf(j) };
  }
  const u = rng.random();
  const w = weights[b];
  if (refillEmpty(w, structure.initial[b], rules.restock) === null) {
    const move = emptyBoxMove(rules.empty_box, Boolean(structure.opening[pid]));
    return { index: -1, box: b, colour: -1, move, next: -1 };
  }
  const j = drawBead(w, u);
  return { index: j, box: b, colour: j, move: moves[j], next: nextOf(j) };
}

/**
 * A machine learns from a finished game (Menace.reinforce): `path` the [box, colour] pairs
 * drawn, `result` WIN, DRAW_RESULT or LOSS, `rules` {reinforcement, restock, floor, credit}.
 * Changes `weights` in place; returns the change in the number of beads.
 */
export function machineLearn(weights, initial, refill, path, result, rules) {
  if (path.length === 0) return 0;
  const { reinforcement, restock, floor } = rules;
  return reinforce(weights, initial, refill, path, reinforcement[result], restock, floor, rules.credit ?? "every");
}
