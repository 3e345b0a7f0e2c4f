// The Dirichlet statistics of one box's beads, for every widget that shows a matchbox as a
// belief: a declared copy of menace_lib.widgets.inspector.bead_statistics (tests compare
// them), with the maths from efe_math.js. Colours without beads are left out of the
// Dirichlet (alpha_i -> 0 limit): mean and variance 0, no contribution to I(o; theta).
import { dirichletMean, dirichletVariance, mutualInformation } from "./efe_math.js";

/** Total, mean, variance and MI of one box's beads (null statistics for an empty box). */
export function beadStatistics(beads) {
  const total = beads.reduce((a, b) => a + b, 0);
  const live = beads.map((b, j) => [b, j]).filter(([b]) => b > 0);
  if (live.length === 0) return { total: 0, mean: null, variance: null, mi: null };
  const alpha = live.map(([b]) => b);
  const m = dirichletMean(alpha);
  const v = dirichletVariance(alpha);
  const mean = beads.map(() => 0);
  const variance = beads.map(() => 0);
  live.forEach(([, j], k) => {
    mean[j] = m[k];
    variance[j] = v[k];
  });
  return { total, mean, variance, mi: mutualInformation(alpha) };
}
