// Test driver for menace_lib/widgets/beads.js: reads {draws, empties, games} as JSON on
// stdin, applies the JS bead rules and prints what they give as JSON.
//   draws:   [[weights, u], ...]                       -> drawBead index
//   empties: [[rule, opening], ...]                    -> emptyBoxMove
//   refills: [[weights, initial, restock], ...]        -> [added, weights after]
//   runs:    [{weights, initial, refill, restock, floor, credit, games: [[path, delta], ...]}]
//            -> per run {steps: per game [change, the path's boxes after], weights: at the end}
import * as beads from "../../menace_lib/widgets/beads.js";

let text = "";
for await (const chunk of process.stdin) text += chunk;
const input = JSON.parse(text);

const output = {
  draws: (input.draws ?? []).map(([w, u]) => beads.drawBead(w, u)),
  empties: (input.empties ?? []).map(([rule, opening]) => beads.emptyBoxMove(rule, opening)),
  refills: (input.refills ?? []).map(([w, initial, restock]) => {
    const box = w.slice();
    return [beads.refillEmpty(box, initial, restock), box];
  }),
  runs: (input.runs ?? []).map((run) => {
    const weights = run.weights.map((row) => row.slice());
    const steps = run.games.map(([path, delta]) => {
      const change = beads.reinforce(
        weights, run.initial, run.refill, path, delta, run.restock, run.floor, run.credit,
      );
      return [change, path.map(([box]) => weights[box].slice())];
    });
    return { steps, weights };
  }),
};
process.stdout.write(JSON.stringify(output));
