// Information against reward for one box (menace_lib.widgets.live_figures.InfoVsReward).
// An agent keeps a Dirichlet belief over (win, draw, loss) for each move of one box,
// scores the moves by expected free energy at λ, plays a move drawn from its softmax
// policy, sees the outcome (drawn from the moves' true chances) and counts it. Before
// each game: the information the game is expected to give, sum_a q(a) I(o; θ_a), and the
// reward it is expected to bring. Two runs from one seed: λ = 0 and the reader's λ.
// simulateBox is the declared copy of live_figures.info_reward_run (maths: efe_math.js,
// draws: beads.js's drawBead on prng.js's stream; tests/test_live_figures.py compares).
// Test ids: ir-lam, ir-step, ir-ten, ir-all, ir-restart, ir-games, ir-info-<run>,
// ir-reward-<run> (run "zero" or "lam"; data-value: the total so far), ir-plot-info,
// ir-plot-reward.
import { drawBead } from "./beads.js";
import { explore } from "./efe_math.js";
import { h } from "./common.js";
import { drawPlot, makePlot } from "./lab_plot.js";
import { fmt } from "./live_parts.js";
import { counterRng } from "./prng.js";

let viewCount = 0;

/** One run of `games` games; returns {move, outcome, info, reward, q, alphas}. */
export function simulateBox({ truth, lam, games, seed, prior = 1, lambdaPolicy = 0.25, prefs, utility }) {
  const alphas = truth.map(() => [prior, prior, prior]);
  const rng = counterRng(seed);
  const out = { move: [], outcome: [], info: [], reward: [], q: [] };
  for (let g = 0; g < games; g++) {
    const r = explore({ alphas, prefs, lam, lambdaPolicy });
    const q = r.q;
    let info = 0;
    let reward = 0;
    q.forEach((qa, a) => {
      info += qa * r.epistemic[a];
      let expected = 0;
      truth[a].forEach((p, o) => {
        expected += p * utility[o];
      });
      reward += qa * expected;
    });
    const a = drawBead(q, rng.random());
    const o = drawBead(truth[a], rng.random());
    alphas[a][o] += 1;
    out.move.push(a);
    out.outcome.push(o);
    out.info.push(info);
    out.reward.push(reward);
    out.q.push(q);
  }
  out.alphas = alphas;
  return out;
}

function sum(values) {
  return values.reduce((s, v) => s + v, 0);
}

/** The expected reward of each move under its true chances: the reward axis runs from
 * the worst move's to the best move's, so a policy's line sits between them. */
export function moveRewards(truth, utility) {
  return truth.map((row) => sum(row.map((p, o) => p * utility[o])));
}

/** A round number at or above x (1, 2, 2.5, 3, 4 or 5 times a power of ten). */
export function roundUp(x) {
  if (!(x > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(x));
  return [1, 2, 2.5, 3, 4, 5, 10].map((m) => m * power).find((v) => v >= x * (1 - 1e-12));
}

function render({ model, el }) {
  const view = ++viewCount;
  const truth = model.get("truth");
  const maxGames = model.get("max_games");
  const agent = model.get("agent");
  const settings = () => ({
    truth,
    seed: model.get("seed"),
    prior: model.get("prior"),
    lambdaPolicy: model.get("lambda_policy"),
    prefs: model.get("prefs"),
    utility: model.get("utility"),
  });
  // Both runs are played to the end once per λ; stepping only reveals more of them.
  let runs = null;
  let shownGames = 0;
  let runsLam = null;

  const id = `ir-lam-${view}`;
  const slider = h("input", { type: "range", min: 0, max: model.get("lam_max"), step: 0.05, id, "data-testid": "ir-lam", value: model.get("lam") });
  const lamShown = h("output", { class: "mw-value", for: id, "data-testid": "ir-lam-value" });
  const button = (text, testid, games) => {
    const b = h("button", { type: "button", class: "mw-button", "data-testid": testid }, text);
    b.addEventListener("click", () => {
      shownGames = games === 0 ? 0 : Math.min(maxGames, shownGames + games);
      update();
    });
    return b;
  };
  const step = button("Play 1 game", "ir-step", 1);
  step.classList.add("mw-primary");
  const ten = button("Play 10", "ir-ten", 10);
  const all = button(`Play to ${maxGames}`, "ir-all", maxGames);
  const restart = button("Start again", "ir-restart", 0);
  slider.addEventListener("input", () => {
    model.set("lam", Number(slider.value));
    update();
  });

  const status = h("p", { class: "mw-status", role: "status", "aria-live": "polite", "data-testid": "ir-games" });
  const infoPlot = makePlot("ir-plot-info", "Information a game is expected to give (nats)");
  const rewardPlot = makePlot("ir-plot-reward", "Reward a game is expected to bring");
  const cells = {};
  const tableRows = ["zero", "lam"].map((run) => {
    for (const key of ["info", "reward", "moves"]) cells[`${key}-${run}`] = h("td", { class: "mw-nowrap", "data-testid": `ir-${key}-${run}` });
    const name = h("th", { scope: "row", class: "mw-nowrap", "data-testid": `ir-name-${run}` });
    return { run, name, row: h("tr", {}, name, cells[`info-${run}`], cells[`reward-${run}`], cells[`moves-${run}`]) };
  });
  const utility = model.get("utility");
  el.append(
    h(
      "div",
      { class: "mw mw-live", "data-testid": "info-reward" },
      h("div", { class: "mw-sliders" }, h("label", { for: id }, "λ of the curious agent"), slider, lamShown),
      h("div", { class: "mw-live-buttons" }, step, ten, all, restart),
      status,
      h("div", { class: "mw-lab-plots" }, infoPlot.root, rewardPlot.root),
      h(
        "div",
        { class: "mw-scroll" },
        h(
          "table",
          { class: "mw-table" },
          h("caption", { class: "mw-caption" }, `${agent.name}: totals so far, and how often each move was played`),
          h("thead", {}, h("tr", {}, ["Run", "Information", "Reward", "a1 · a2 · a3"].map((t) => h("th", { scope: "col", class: "mw-nowrap" }, t)))),
          h("tbody", {}, tableRows.map((r) => r.row)),
        ),
      ),
      h(
        "p",
        { class: "mw-caption" },
        `The box's three moves truly win, draw or lose with chances ${truth.map((row, a) => `a${a + 1} (${row.map((p) => fmt(p, 2)).join(", ")})`).join(", ")}; ` +
          `the agent starts knowing none of them. Reward: ${utility.map((u) => (u > 0 ? `+${u}` : u < 0 ? `−${-u}` : "0")).join(" / ")} for a win / draw / loss, as MENACE's beads; ` +
          "the reward axis runs from the worst move's expected reward to the best move's.",
      ),
    ),
  );

  function update() {
    const lam = Number(model.get("lam"));
    slider.value = String(lam);
    lamShown.textContent = fmt(lam, 2);
    if (runs === null || runsLam !== lam) {
      const s = settings();
      runs = { zero: simulateBox({ ...s, lam: 0, games: maxGames }), lam: simulateBox({ ...s, lam, games: maxGames }) };
      runsLam = lam;
    }
    const n = shownGames;
    const x = Array.from({ length: n }, (_, g) => g + 1);
    const label = { zero: "λ = 0", lam: `λ = ${fmt(lam, 2)}` };
    const line = (run, key) => ({ label: label[run], x, y: runs[run][key].slice(0, n), colour: agent.colour, dash: run === "zero" ? "6 4" : null });
    const infoMax = roundUp(Math.max(...runs.zero.info, ...runs.lam.info));
    const rewards = moveRewards(truth, model.get("utility"));
    drawPlot(infoPlot, { xLabel: "game", yLabel: "nats", yMin: 0, yMax: infoMax, series: [line("zero", "info"), line("lam", "info")] });
    drawPlot(rewardPlot, {
      xLabel: "game",
      yLabel: "reward",
      yMin: Math.min(...rewards),
      yMax: Math.max(...rewards),
      series: [line("zero", "reward"), line("lam", "reward")],
    });
    for (const { run, name } of tableRows) {
      name.textContent = label[run];
      const info = sum(runs[run].info.slice(0, n));
      const reward = sum(runs[run].reward.slice(0, n));
      cells[`info-${run}`].textContent = fmt(info, 3);
      cells[`info-${run}`].dataset.value = String(info);
      cells[`reward-${run}`].textContent = fmt(reward, 2);
      cells[`reward-${run}`].dataset.value = String(reward);
      const moves = truth.map((_, a) => runs[run].move.slice(0, n).filter((m) => m === a).length);
      cells[`moves-${run}`].textContent = moves.join(" · ");
    }
    status.textContent = n === 0 ? `No games yet. Play up to ${maxGames}.` : `${n} game${n === 1 ? "" : "s"} of ${maxGames} played.`;
    status.dataset.value = String(n);
    step.disabled = ten.disabled = all.disabled = n >= maxGames;
    restart.disabled = n === 0;
  }
  update();
  return undefined;
}

export default { render };
