// The bead rules of a matchbox, for the widgets: a deliberate copy of menace_lib/beads.py.
//
// Drawing a bead, the end-of-game update, the clamp level, move and box restock and the
// empty box are defined once in Python (menace_lib.machine.beads); this file mirrors them so the
// widgets can learn in the browser with no kernel. tests/test_rule_parity.py runs this file
// with node over the whole option grid and demands the Python owner's numbers exactly.

export const RESTOCKS = ["none", "move", "box"];
export const EMPTY_BOX_RULES = ["resign", "stop", "web"];
export const CREDITS = ["every", "last"];
export const MAX_BEADS = 1e12; // menace_lib.base.limits.MAX_BEADS: no count rises above it
export const RESIGN = -1; // concede the game (a loss)
export const STOP = -2; // end the training run (the game is discarded)

function total(w) {
  let sum = 0;
  for (const x of w) sum += x;
  return sum;
}

/** The colour a point t in [0, sum(w)) falls on, scanning in order (beads.scan_beads). */
export function scanBeads(w, t) {
  for (let j = 0; j < w.length; j++) {
    if (t < w[j]) return j;
    t -= w[j];
  }
  let last = 0; // rounding left t past the end: the last colour with beads
  for (let j = 0; j < w.length; j++) if (w[j] > 0) last = j;
  return last;
}

/** Draw one bead for a uniform u in [0, 1) (beads.draw_bead). */
export function drawBead(w, u) {
  return scanBeads(w, u * total(w));
}

/** Whether a box holds no beads at all (beads.is_empty). */
export function isEmpty(w) {
  return total(w) <= 0;
}

/** Before a draw: refill an empty box unless restock is "none" (beads.refill_empty).
 * Changes w in place; returns the beads added, or null if the box stays empty. */
export function refillEmpty(w, initial, restock) {
  if (!isEmpty(w)) return 0;
  if (restock === "none") return null;
  const added = total(initial) - total(w);
  for (let j = 0; j < w.length; j++) w[j] = initial[j];
  return added;
}

/** What MENACE plays at an empty box nothing refills: RESIGN or STOP (beads.empty_box_move). */
export function emptyBoxMove(rule, opening) {
  if (rule === "resign" || (rule === "web" && !opening)) return RESIGN;
  if (rule === "stop" || rule === "web") return STOP;
  throw new Error(`unknown empty-box rule ${JSON.stringify(rule)}`);
}

/** The end-of-game update of the drawn [box, colour] pairs, in place (beads.reinforce):
 * `credit` "every" pair (Michie's rule) or only the "last" one (Gardner's HER).
 * Returns the change in the total number of beads. */
export function reinforce(weights, initial, refill, path, delta, restock, floor, credit = "every") {
  if (!CREDITS.includes(credit)) throw new Error(`unknown credit ${JSON.stringify(credit)}`);
  if (credit === "last") path = path.slice(-1);
  let change = 0;
  for (const [b, j] of path) {
    const w = weights[b];
    const old = w[j];
    let next = old + delta;
    if (next <= floor) next = restock === "move" ? refill[b][j] : floor;
    else if (next > MAX_BEADS) next = MAX_BEADS;
    w[j] = next;
    change += next - old;
  }
  if (restock === "box" && delta < 0) {
    for (const [b] of path) {
      const w = weights[b];
      if (isEmpty(w)) {
        change += total(initial[b]) - total(w);
        for (let j = 0; j < w.length; j++) w[j] = initial[b][j];
      }
    }
  }
  return change;
}
