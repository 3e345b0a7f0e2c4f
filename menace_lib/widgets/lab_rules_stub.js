// TEMPORARY STUB -- to be replaced by the shared rule module menace_lib/widgets/beads.js
// (issue 11: the one JavaScript copy of menace_lib/beads.py, parity-tested over the whole
// option grid by tests/test_rule_parity.py). Until it is on main, these functions mirror
// menace_lib/beads.py with the same names beads.js exports, so the swap is one import
// line in lab_engine.js; meanwhile they are checked through the lab's seeded replay
// (tests/test_lab_js.py).

export const RESIGN = -1; // concede the game (a loss)
export const STOP = -2; // end the run (the game is discarded)

function total(w) {
  let sum = 0;
  for (const x of w) sum += x;
  return sum;
}

/** Draw one bead for a uniform u in [0, 1): the first colour with t < w, t = u * sum(w). */
export function drawBead(w, u) {
  let t = u * total(w);
  for (let j = 0; j < w.length; j++) {
    if (t < w[j]) return j;
    t -= w[j];
  }
  let last = 0; // rounding left t past the end: the last colour with beads
  for (let j = 0; j < w.length; j++) if (w[j] > 0) last = j;
  return last;
}

/** Before a draw: refill an empty box in place unless restock is "none" (then null). */
export function refillEmpty(w, initial, restock) {
  if (total(w) > 0) return 0;
  if (restock === "none") return null;
  const added = total(initial) - total(w);
  for (let j = 0; j < w.length; j++) w[j] = initial[j];
  return added;
}

/** At an empty box nothing refills: RESIGN or STOP under the empty-box rule. */
export function emptyBoxMove(rule, opening) {
  if (rule === "resign" || (rule === "web" && !opening)) return RESIGN;
  if (rule === "stop" || rule === "web") return STOP;
  throw new Error(`unknown empty-box rule ${JSON.stringify(rule)}`);
}

/** The end-of-game update of every drawn [box, colour], in place; returns the bead change. */
export function reinforce(weights, initial, refill, path, delta, restock, floor) {
  let change = 0;
  for (const [b, j] of path) {
    const w = weights[b];
    const old = w[j];
    let next = old + delta;
    if (next <= floor) next = restock === "move" ? refill[b][j] : floor;
    w[j] = next;
    change += next - old;
  }
  if (restock === "box" && delta < 0) {
    for (const [b] of path) {
      const w = weights[b];
      if (total(w) <= 0) {
        change += total(initial[b]) - total(w);
        for (let j = 0; j < w.length; j++) w[j] = initial[b][j];
      }
    }
  }
  return change;
}
