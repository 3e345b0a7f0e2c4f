// TEMPORARY STUB -- to be replaced by the shared rule module menace_lib/widgets/beads.js
// (issue 11: one JavaScript copy of the bead rules, parity-tested against
// menace_lib/beads.py over the whole option grid). Until that lands, these functions
// mirror today's menace_lib/menace.py (scan_beads, Menace.choose's empty box, _reinforce)
// and are checked only through the lab's seeded replay (tests/test_lab_js.py).

/** The reference sampler: the first colour with t < w for t = u * sum(w) (menace.scan_beads). */
export function drawColour(w, u) {
  let total = 0;
  for (const x of w) total += x;
  let t = u * total;
  for (let j = 0; j < w.length; j++) {
    if (t < w[j]) return j;
    t -= w[j];
  }
  for (let j = w.length - 1; j >= 0; j--) if (w[j] > 0) return j; // rounding ran past the end
  return 0;
}

/**
 * Before a draw from an empty box: "resign" (no restock) or "restock" (refill it with its
 * initial beads in place, as Menace.choose does under the "move" and "box" modes).
 */
export function emptyBoxAction(restock) {
  return restock === "none" ? "resign" : "restock";
}

/**
 * The end-of-game update, in place (menace._reinforce): add `delta` to every drawn
 * (box, colour); a colour that falls to the clamp level `floor` or below is set to its
 * refill count under "move" restock, else to `floor`; under "box" restock a losing
 * update that empties a box refills it. Returns the change in the total bead count.
 */
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
      if (Math.max(...w) <= 0) {
        let before = 0;
        for (const x of w) before += x;
        let after = 0;
        for (let j = 0; j < w.length; j++) {
          w[j] = initial[b][j];
          after += w[j];
        }
        change += after - before;
      }
    }
  }
  return change;
}
