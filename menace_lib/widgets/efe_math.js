// Expected free energy maths for the in-browser lambda explorer.
//
// A dependency-free ES module porting menace_lib.maths.dirichlet and menace_lib.maths.efe:
// G(a) = risk(q_a, p) + betaAmb * H(q_a) - lam * I(o; theta_a), with q_a the mean of
// Dir(alpha_a), then q(a) ∝ prior(a) exp(-G(a) / lambdaPolicy) and beads = q * scale.
// tests/test_efe_js.py checks every output against the Python library to 1e-9.
// Invalid input throws a RangeError naming the problem.

export const PROBABILITY_FLOOR = 1e-12;
export const SUM_TOLERANCE = 1e-9;

// From here on psi is taken from its asymptotic series; the first omitted term is
// below 1e-16 at x = 10.
const SERIES_FROM = 10;

// ---------------------------------------------------------------------------- checks

function checkVector(values, name) {
  if (!Array.isArray(values) && !ArrayBuffer.isView(values)) {
    throw new RangeError(`${name} must be an array; got ${values}`);
  }
  if (values.length < 1) throw new RangeError(`${name} must not be empty`);
  for (const v of values) {
    if (typeof v !== "number" || !Number.isFinite(v)) {
      throw new RangeError(`${name} must be finite numbers; got [${Array.from(values)}]`);
    }
  }
  return Array.from(values);
}

function checkAlpha(alpha, name = "alpha") {
  const a = checkVector(alpha, name);
  if (a.some((v) => v <= 0)) {
    throw new RangeError(`${name} must be strictly positive (pseudo-counts > 0); got [${a}]`);
  }
  return a;
}

function checkProbabilities(p, name) {
  const v = checkVector(p, name);
  if (v.some((x) => x < 0)) throw new RangeError(`${name} must be non-negative; got [${v}]`);
  const total = sum(v);
  if (Math.abs(total - 1) > SUM_TOLERANCE) {
    throw new RangeError(`${name} must sum to 1 (tolerance ${SUM_TOLERANCE}); got sum ${total}`);
  }
  return v;
}

function checkSameLength(q, p) {
  if (q.length !== p.length) {
    throw new RangeError(`q and p must have the same length; got ${q.length} and ${p.length}`);
  }
}

function checkWeight(value, name) {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new RangeError(`${name} must be finite and >= 0; got ${value}`);
  }
  return value;
}

function checkPositive(value, name) {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${name} must be finite and > 0; got ${value}`);
  }
  return value;
}

function checkRiskForm(form) {
  if (form !== "kl" && form !== "cross_entropy") {
    throw new RangeError(`risk form must be "kl" or "cross_entropy"; got ${form}`);
  }
}

function sum(values) {
  let total = 0;
  for (const v of values) total += v;
  return total;
}

// ------------------------------------------------------------------------- digamma

// -B_2n / (2n) for n = 1..7: psi(x) ~ ln x - 1/(2x) + sum_n c_n / x^(2n).
const SERIES_COEFFICIENTS = [-1 / 12, 1 / 120, -1 / 252, 1 / 240, -1 / 132, 691 / 32760, -1 / 12];

// The asymptotic tail psi(x) - ln x + 1/(2x), by Horner's rule in 1/x^2.
function digammaSeriesTail(x) {
  const u = 1 / (x * x);
  let tail = 0;
  for (let n = SERIES_COEFFICIENTS.length - 1; n >= 0; n--) tail = (tail + SERIES_COEFFICIENTS[n]) * u;
  return tail;
}

/** Digamma psi(x) for x > 0: recurrence up to x >= 10, then the asymptotic series. */
export function digamma(x) {
  if (typeof x !== "number" || !Number.isFinite(x) || x <= 0) {
    throw new RangeError(`digamma needs a finite x > 0; got ${x}`);
  }
  let shift = 0;
  while (x < SERIES_FROM) {
    shift += 1 / x;
    x += 1;
  }
  return Math.log(x) - 0.5 / x + digammaSeriesTail(x) - shift;
}

// psi(x + 1) - ln x, without the cancellation of the two large terms when x is large.
function digammaPlusOneMinusLog(x) {
  if (x >= SERIES_FROM) return 0.5 / x + digammaSeriesTail(x);
  return digamma(x + 1) - Math.log(x);
}

// ------------------------------------------------------------- categorical measures

/** Shannon entropy in nats; components <= 1e-12 are skipped. */
export function entropy(p) {
  const v = checkProbabilities(p, "p");
  let h = 0;
  for (const x of v) if (x > PROBABILITY_FLOOR) h -= x * Math.log(x);
  return h;
}

/** KL(q || p) in nats; q components <= 1e-12 skipped, p clamped to >= 1e-12. */
export function kl(q, p) {
  const qv = checkProbabilities(q, "q");
  const pv = checkProbabilities(p, "p");
  checkSameLength(qv, pv);
  let d = 0;
  for (let i = 0; i < qv.length; i++) {
    if (qv[i] > PROBABILITY_FLOOR) d += qv[i] * Math.log(qv[i] / Math.max(pv[i], PROBABILITY_FLOOR));
  }
  return d;
}

/** Cross-entropy -sum q ln p = KL(q || p) + H(q), with the numerics of kl. */
export function crossEntropy(q, p) {
  const qv = checkProbabilities(q, "q");
  const pv = checkProbabilities(p, "p");
  checkSameLength(qv, pv);
  let c = 0;
  for (let i = 0; i < qv.length; i++) {
    if (qv[i] > PROBABILITY_FLOOR) c -= qv[i] * Math.log(Math.max(pv[i], PROBABILITY_FLOOR));
  }
  return c;
}

// ------------------------------------------------------------------------ Dirichlet

/** Mean alpha / alpha_0 of Dir(alpha): the posterior predictive. */
export function dirichletMean(alpha) {
  const a = checkAlpha(alpha);
  const a0 = sum(a);
  return a.map((v) => v / a0);
}

/** Per-component variance alpha_i (alpha_0 - alpha_i) / (alpha_0^2 (alpha_0 + 1)). */
export function dirichletVariance(alpha) {
  const a = checkAlpha(alpha);
  const a0 = sum(a);
  return a.map((v) => (v * (a0 - v)) / (a0 * a0 * (a0 + 1)));
}

/** Expected categorical entropy E[H(theta)] = psi(a0 + 1) - sum abar_i psi(a_i + 1). */
export function expectedEntropy(alpha) {
  const a = checkAlpha(alpha);
  const a0 = sum(a);
  let h = digamma(a0 + 1);
  for (const v of a) h -= (v / a0) * digamma(v + 1);
  return h;
}

/**
 * Mutual information I(o; theta) = H_pred - H_ale of Dir(alpha), clamped to >= 0.
 * Computed as sum abar_i f(a_i) - f(a0), f(x) = psi(x + 1) - ln x, which stays
 * accurate for concentrated beliefs. Dir(1,1,1) gives 0.265279.
 */
export function mutualInformation(alpha) {
  const a = checkAlpha(alpha);
  const a0 = sum(a);
  let i = 0;
  for (const v of a) i += (v / a0) * digammaPlusOneMinusLog(v);
  return Math.max(i - digammaPlusOneMinusLog(a0), 0);
}

// ------------------------------------------------------------- expected free energy

/**
 * Check (strict) or repair (lenient) preferences, as menace_lib.maths.efe.normalise_preferences.
 * Strict: must sum to 1 within 1e-9 and have no zero. Lenient: divide by the sum unless
 * it is 1 within machine epsilon, then raise entries below 1e-12 to 1e-12.
 */
export function normalisePreferences(p, strict = true) {
  let prefs = checkVector(p, "preferences");
  if (prefs.some((x) => x < 0)) throw new RangeError(`preferences must be non-negative; got [${prefs}]`);
  const total = sum(prefs);
  if (total <= 0) throw new RangeError(`preferences must not all be zero; got [${prefs}]`);
  if (strict) {
    if (Math.abs(total - 1) > SUM_TOLERANCE) {
      throw new RangeError(`preferences must sum to 1 (tolerance ${SUM_TOLERANCE}); got sum ${total}`);
    }
    if (prefs.some((x) => x === 0)) {
      throw new RangeError(`preferences must be > 0 where ln p is taken; got [${prefs}]`);
    }
    return prefs;
  }
  if (Math.abs(total - 1) > Number.EPSILON) prefs = prefs.map((x) => x / total);
  return prefs.map((x) => Math.max(x, PROBABILITY_FLOOR));
}

/** Risk of predicted outcomes q: "kl" (thesis implementation) or "cross_entropy". */
export function risk(q, prefs, form = "kl") {
  checkRiskForm(form);
  return form === "kl" ? kl(q, prefs) : crossEntropy(q, prefs);
}

/**
 * EFE terms for every action: alphas is an array of outcome pseudo-count vectors.
 * Returns {risk, ambiguity, epistemic, G}, arrays over actions, with
 * G = risk + betaAmb * ambiguity - lam * epistemic.
 */
export function efeTerms(alphas, prefs, lam, betaAmb = 0, riskForm = "kl", strict = true) {
  if (!Array.isArray(alphas) || alphas.length < 1) {
    throw new RangeError("alphas must be a non-empty array of pseudo-count vectors");
  }
  const p = normalisePreferences(prefs, strict);
  checkWeight(lam, "lam (epistemic weight)");
  checkWeight(betaAmb, "betaAmb (ambiguity weight)");
  checkRiskForm(riskForm);
  const out = { risk: [], ambiguity: [], epistemic: [], G: [] };
  alphas.forEach((alpha, index) => {
    const a = checkAlpha(alpha, `alphas[${index}]`);
    if (a.length !== p.length) {
      throw new RangeError(`alphas[${index}] has ${a.length} outcomes but prefs have ${p.length}`);
    }
    const q = dirichletMean(a);
    const r = risk(q, p, riskForm);
    const h = entropy(q);
    const mi = mutualInformation(a);
    out.risk.push(r);
    out.ambiguity.push(h);
    out.epistemic.push(mi);
    out.G.push(r + betaAmb * h - lam * mi);
  });
  return out;
}

/**
 * q(a) ∝ prior(a) exp(-G(a) / lambdaPolicy) by log-sum-exp; prior (default uniform)
 * is clamped to >= 1e-12 and need not sum to 1.
 */
export function softmaxPolicy(G, lambdaPolicy, prior = null) {
  const g = checkVector(G, "G");
  checkPositive(lambdaPolicy, "lambdaPolicy (softmax temperature)");
  let logPrior = g.map(() => 0);
  if (prior !== null && prior !== undefined) {
    const w = checkVector(prior, "prior");
    if (w.length !== g.length) throw new RangeError(`prior must have length ${g.length}; got ${w.length}`);
    if (w.some((x) => x < 0)) throw new RangeError(`prior must be >= 0; got [${w}]`);
    logPrior = w.map((x) => Math.log(Math.max(x, PROBABILITY_FLOOR)));
  }
  // Shift by min G first so the best action's logit stays finite for tiny lambdaPolicy.
  const gMin = Math.min(...g);
  const logits = g.map((x, i) => logPrior[i] - (x - gMin) / lambdaPolicy);
  const top = Math.max(...logits);
  const weights = logits.map((x) => Math.exp(x - top));
  const total = sum(weights);
  return weights.map((x) => x / total);
}

/** Bead weights q * scale, unrounded (as the thesis implementation writes them). */
export function policyToBeads(q, scale = 100) {
  const policy = checkProbabilities(q, "q");
  checkPositive(scale, "scale");
  return policy.map((x) => x * scale);
}

/** Whole beads for display; halves round up. */
export function roundBeads(weights) {
  const w = checkVector(weights, "weights");
  if (w.some((x) => x < 0)) throw new RangeError(`weights must be >= 0; got [${w}]`);
  return w.map((x) => Math.floor(x + 0.5));
}

/**
 * Everything the lambda explorer shows for one state.
 *
 * @param {object} options
 * @param {number[][]} options.alphas outcome pseudo-counts per action
 * @param {number[]} [options.prefs] preferred outcomes, default (0.60, 0.35, 0.05)
 * @param {number} [options.lam] epistemic weight, default 0.25
 * @param {number} [options.lambdaPolicy] softmax temperature, default 0.25
 * @param {number} [options.betaAmb] ambiguity weight, default 0
 * @param {string} [options.riskForm] "kl" (default) or "cross_entropy"
 * @param {number} [options.scale] beads per unit probability, default 100
 * @param {number[]|null} [options.prior] policy prior, default uniform
 * @param {boolean} [options.strict] reject (true, default) or repair preferences
 * @returns {{risk: number[], ambiguity: number[], epistemic: number[], G: number[],
 *            q: number[], beads: number[]}}
 */
export function explore({
  alphas,
  prefs = [0.6, 0.35, 0.05],
  lam = 0.25,
  lambdaPolicy = 0.25,
  betaAmb = 0,
  riskForm = "kl",
  scale = 100,
  prior = null,
  strict = true,
}) {
  const terms = efeTerms(alphas, prefs, lam, betaAmb, riskForm, strict);
  const q = softmaxPolicy(terms.G, lambdaPolicy, prior);
  return { ...terms, q, beads: policyToBeads(q, scale) };
}
