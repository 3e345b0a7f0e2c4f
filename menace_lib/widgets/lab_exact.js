// Exact evaluation in the browser: the win/draw/loss probabilities of MENACE's current
// bead proportions against a scripted opponent, by one backward pass over the 5,478
// positions (menace_lib.play.evaluation.exact_values; tests/test_lab_js.py checks it to 1e-9):
//
//   V(s) = sum over moves m of pi(m | s) V(succ(s, m)),   V(terminal) = one-hot result.
//
// MENACE's pi is its bead proportions; an empty box plays its initial proportions when it
// would be restocked, and otherwise resigns (a loss where it happens), as policy_matrix
// does. Positions without a box play the uniform fallback. The opponent picks uniformly
// among its listed successors.

const WIN = 0;
const LOSS = 2;

/**
 * A reusable evaluator for one game table and one MENACE structure (lab_tables.js).
 * Returns evaluate(weights, opponentNext) -> {win, draw, loss} from the empty board,
 * for MENACE's side; `weights` is MENACE's per-box bead lists, `opponentNext` the
 * opponent's successor lists per position (gameTables(...).opponents[name]).
 */
export function exactEvaluator(T, structure, restock) {
  const n = T.n;
  const w = new Float64Array(n);
  const d = new Float64Array(n);
  const l = new Float64Array(n);
  // Terminal values never change: fill them once.
  const me = structure.config.player;
  const terminal = new Int8Array(n).fill(-1);
  for (let pid = 0; pid < n; pid++) {
    const o = T.outcome[pid];
    if (o === 0) continue;
    terminal[pid] = o === 3 ? 1 : (o === 1) === (me === 1) ? WIN : LOSS;
  }
  const { rawBox, rawNext, initial } = structure;
  return function evaluate(weights, opponentNext) {
    for (let pid = n - 1; pid >= 0; pid--) {
      const r = terminal[pid];
      if (r >= 0) {
        w[pid] = r === WIN ? 1 : 0;
        d[pid] = r === 1 ? 1 : 0;
        l[pid] = r === LOSS ? 1 : 0;
        continue;
      }
      const mine = rawNext[pid];
      let sw = 0;
      let sd = 0;
      let sl = 0;
      if (mine !== null) {
        const b = rawBox[pid];
        if (b < 0) {
          const p = 1 / mine.length;
          for (const c of mine) {
            sw += p * w[c];
            sd += p * d[c];
            sl += p * l[c];
          }
        } else {
          let beads = weights[b];
          let total = 0;
          for (const x of beads) total += x;
          if (total <= 0 && restock !== "none") {
            beads = initial[b];
            total = 0;
            for (const x of beads) total += x;
          }
          if (total <= 0) {
            w[pid] = 0;
            d[pid] = 0;
            l[pid] = 1; // an empty box without restock: MENACE resigns here
            continue;
          }
          for (let j = 0; j < mine.length; j++) {
            const p = beads[j] / total;
            const c = mine[j];
            sw += p * w[c];
            sd += p * d[c];
            sl += p * l[c];
          }
        }
      } else {
        const options = opponentNext[pid];
        const p = 1 / options.length;
        for (const c of options) {
          sw += p * w[c];
          sd += p * d[c];
          sl += p * l[c];
        }
      }
      w[pid] = sw;
      d[pid] = sd;
      l[pid] = sl;
    }
    return { win: w[0], draw: d[0], loss: l[0] };
  };
}
