// Noisy eyes: a true board, a reading of it in which each cell is misread with
// probability eps (shown as one of the other two symbols, equally likely), and what three
// observers make of the reading: the naive machine opens the box of the board as read;
// the two Bayes observers hold a belief over the positions of the ply (uniform prior, or
// the reach prior of the machine's own clean play) and open the box of the most probable.
// Everything is computed here from the synced traits (menace_lib/widgets/noisy_eyes.py);
// the readings come from prng.js's counter-based generator, so a draw number gives the
// same reading on every page. Cells of the reading are buttons: clicking one changes
// what is seen (empty, X, O in turn).
import { h, sync } from "./common.js";
import { counterRng } from "./prng.js";
import { button, showText } from "./view_parts.js";

const SYMBOLS = ".XO";
export const EPS_MAX = 0.3;
const OBSERVERS = [
  ["naive", "Naive (MENACE as built)", "opens the box of the board as read"],
  ["uniform", "Bayes, uniform prior", "believes every position of this move equally likely before reading"],
  ["reach", "Bayes, reach prior", "believes what its own clean play against the perfect player makes likely"],
];

/** The number of cells in which two boards (texts) differ. */
export function distance(a, b) {
  let d = 0;
  for (let i = 0; i < 9; i++) if (a[i] !== b[i]) d++;
  return d;
}

/** P(reading | position) for a board `d` cells away: (1 - eps)^(9 - d) (eps / 2)^d. */
export function likelihood(eps, d) {
  return (1 - eps) ** (9 - d) * (eps / 2) ** d;
}

/** A reading of board `text`: each cell misread with probability eps, by draw number. */
export function readBoard(text, eps, draw) {
  const rng = counterRng(draw);
  return Array.from(text, (c) => {
    const u = rng.random();
    const v = rng.random();
    if (u >= eps) return c;
    const shift = v < 0.5 ? 1 : 2;
    return SYMBOLS[(SYMBOLS.indexOf(c) + shift) % 3];
  }).join("");
}

/**
 * What each observer makes of `reading` at `ply` (the number of stones on the true board):
 * {naive: {opens}, uniform: {belief, opens}, reach: {belief, opens}}, where `opens` lists
 * the indices of the positions whose box it opens (ties share) and `belief` the top five
 * [index, probability] pairs. As menace_lib.widgets.noisy_eyes.observer_view.
 */
export function observe(reading, eps, ply, positions, reach) {
  const samePly = [];
  positions.forEach((p, i) => {
    let stones = 0;
    for (const c of p) if (c !== ".") stones++;
    if (stones === ply) samePly.push(i);
  });
  const naiveIndex = positions.indexOf(reading);
  const out = { naive: { opens: naiveIndex >= 0 ? [naiveIndex] : [] } };
  const d = samePly.map((i) => distance(positions[i], reading));
  const dMin = Math.min(...d);
  const like = d.map((x) => likelihood(eps, x));
  const ratio = eps / 2 / (1 - eps);
  for (const [name, prior] of [
    ["uniform", samePly.map(() => 1 / samePly.length)],
    ["reach", samePly.map((i) => reach[i])],
  ]) {
    let w = like.map((x, k) => x * prior[k]);
    let total = w.reduce((a, b) => a + b, 0);
    if (total <= 0) {
      w = d.map((x) => (x === dMin ? 1 : 0));
      total = w.reduce((a, b) => a + b, 0);
    }
    const post = w.map((x) => x / total);
    let best;
    if (name === "uniform" && eps > 0 && ratio < 1) {
      best = samePly.filter((_, k) => d[k] === dMin);
    } else {
      const top = Math.max(...post);
      best = samePly.filter((_, k) => post[k] >= top * (1 - 1e-9));
    }
    const order = post.map((p, k) => [k, p]).sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, 5);
    out[name] = {
      belief: order.map(([k, p]) => [samePly[k], p]),
      opens: best.sort((a, b) => a - b),
    };
  }
  return out;
}

function miniBoard(text, probs, trueText, testid) {
  const cells = Array.from(text, (c, i) => {
    const p = probs ? probs[i] / 1000 : 0;
    const blocked = probs && p > 0 && trueText && trueText[i] !== ".";
    const label = c === "." ? (probs && p > 0 ? `${Math.round(100 * p)}%` : "") : c;
    return h(
      "span",
      {
        class: `mw-noisy-mini-cell${c === "X" ? " mw-x" : c === "O" ? " mw-o" : ""}${blocked ? " mw-noisy-blocked" : ""}`,
        title: `square ${i + 1}`,
      },
      h("span", { class: c === "." ? "mw-noisy-p" : "mw-mark" }, label),
    );
  });
  return h("div", { class: "mw-noisy-mini", role: "img", "aria-label": describe(text, probs), "data-testid": testid }, cells);
}

function describe(text, probs) {
  const stones = Array.from(text)
    .map((c, i) => (c === "." ? null : `${c} on ${i + 1}`))
    .filter(Boolean);
  const moves = probs
    ? probs.map((p, i) => (p > 0 ? `square ${i + 1}: ${Math.round(p / 10)}%` : null)).filter(Boolean)
    : [];
  const board = stones.length ? stones.join(", ") : "the empty board";
  return moves.length ? `${board}; moves ${moves.join(", ")}` : board;
}

function render({ model, el }) {
  const positions = model.get("positions");
  if (!positions.length) throw new Error("no positions");
  const policy = model.get("policy");
  const reach = model.get("reach");
  const examples = model.get("examples");
  let edited = null; // a reading the reader changed by hand, until the board or eps changes

  const sliderId = `ne-eps-${Math.random().toString(36).slice(2)}`;
  const slider = h("input", { type: "range", min: 0, max: EPS_MAX, step: 0.01, id: sliderId, value: model.get("eps"), "data-testid": "ne-eps" });
  const sliderValue = h("output", { class: "mw-value", for: sliderId, "data-testid": "ne-eps-value" });
  const exampleSelect = h(
    "select",
    { class: "mw-select", "data-testid": "ne-example", "aria-label": "True board" },
    examples.map((idx, k) => h("option", { value: k }, `Board ${k + 1}: ${describe(positions[idx], null)}`)),
  );
  const redraw = button("Read the board again", "ne-redraw", () => {
    edited = null;
    model.set("draw", model.get("draw") + 1);
    sync(model);
  });
  const trueHolder = h("div", { class: "mw-noisy-board-holder" });
  const readHolder = h("div", { class: "mw-noisy-board-holder" });
  const status = h("p", { class: "mw-status", role: "status", "aria-live": "polite", "data-testid": "ne-status" });
  const lossLine = h("p", { class: "mw-caption", "data-testid": "ne-loss" });
  const panels = Object.fromEntries(
    OBSERVERS.map(([key, title, blurb]) => {
      const body = h("div", { "data-testid": `ne-${key}` });
      const panel = h("section", { class: "mw-noisy-panel", "aria-label": title }, h("h4", {}, title), h("p", { class: "mw-muted" }, blurb), body);
      return [key, { panel, body }];
    }),
  );
  slider.addEventListener("input", () => {
    edited = null;
    model.set("eps", Number(slider.value));
    sync(model);
  });
  exampleSelect.addEventListener("change", () => {
    edited = null;
    model.set("example", Number(exampleSelect.value));
    sync(model);
  });

  function trueText() {
    const k = Math.min(Math.max(model.get("example"), 0), examples.length - 1);
    return positions[examples[k]];
  }

  function update() {
    const eps = model.get("eps");
    const truth = trueText();
    const reading = edited ?? readBoard(truth, eps, model.get("draw"));
    const ply = Array.from(truth).filter((c) => c !== ".").length;
    slider.value = eps;
    showText(sliderValue, eps.toFixed(2));
    exampleSelect.value = String(model.get("example"));
    trueHolder.replaceChildren(h("h4", {}, "True board"), miniBoard(truth, null, null, "ne-true"));
    const cells = Array.from(reading, (c, i) =>
      h(
        "button",
        {
          type: "button",
          class: `mw-noisy-read-cell${c === "X" ? " mw-x" : c === "O" ? " mw-o" : ""}${c !== truth[i] ? " mw-noisy-misread" : ""}`,
          "data-testid": `ne-cell-${i}`,
          "aria-label": `square ${i + 1} read as ${c === "." ? "empty" : c}${c !== truth[i] ? " (misread)" : ""}; press to change`,
          onclick: () => {
            const next = SYMBOLS[(SYMBOLS.indexOf(c) + 1) % 3];
            edited = reading.slice(0, i) + next + reading.slice(i + 1);
            update();
            const again = readHolder.querySelector(`[data-testid="ne-cell-${i}"]`);
            if (again) again.focus();
          },
        },
        h("span", { class: "mw-mark" }, c === "." ? "" : c),
      ),
    );
    readHolder.replaceChildren(h("h4", {}, "Read as"), h("div", { class: "mw-noisy-mini mw-noisy-read", "data-testid": "ne-reading" }, cells));
    const wrong = distance(truth, reading);
    showText(status, `${wrong === 0 ? "Read correctly" : `${wrong} of 9 cells misread`} (misread cells are outlined).`);
    const seen = observe(reading, eps, ply, positions, reach);
    for (const [key] of OBSERVERS) {
      const { body } = panels[key];
      const parts = [];
      if (key !== "naive") {
        parts.push(
          h(
            "ol",
            { class: "mw-noisy-belief", "data-testid": `ne-${key}-belief`, "aria-label": "belief: the most probable positions" },
            seen[key].belief.map(([idx, p]) =>
              h("li", {}, miniBoard(positions[idx], null, null, null), h("span", { class: "mw-value" }, `${(100 * p).toFixed(1)}%`)),
            ),
          ),
        );
      }
      const opens = seen[key].opens;
      if (opens.length === 0) {
        parts.push(h("p", { "data-testid": `ne-${key}-opens` }, "No box for this reading: it plays a random empty square."));
      } else {
        const trueIndex = opens.find((i) => positions[i] === truth);
        const idx = trueIndex ?? opens[0];
        const right = trueIndex !== undefined;
        let said = right ? "Opens the box of the true board." : "Opens the box of another board.";
        if (opens.length > 1) {
          said = `${opens.length} boards tie and share the move${right ? ", the true board among them" : ", none of them the true board"}; one is shown.`;
        }
        parts.push(
          h("p", { "data-testid": `ne-${key}-opens`, "data-right": right ? "yes" : "no" }, said),
          miniBoard(positions[idx], policy[idx], truth, `ne-${key}-box`),
        );
      }
      body.replaceChildren(...parts);
    }
    const losses = model.get("losses");
    if (losses && losses.eps && losses.eps.length) {
      let k = 0;
      losses.eps.forEach((e, i) => {
        if (Math.abs(e - eps) < Math.abs(losses.eps[k] - eps)) k = i;
      });
      const pct = (x) => `${(100 * x).toFixed(1)}%`;
      showText(
        lossLine,
        `Exact chance of losing to the perfect player at eps = ${losses.eps[k].toFixed(2)} (trained MENACE, mean of seeds): ` +
          `naive ${pct(losses.naive[k])}, uniform prior ${pct(losses.uniform[k])}, reach prior ${pct(losses.reach[k])}.`,
      );
    }
  }

  el.replaceChildren(
    h(
      "div",
      { class: "mw mw-noisy", "data-testid": "noisy-eyes" },
      h("div", { class: "mw-sliders" }, h("label", { for: sliderId }, "Misreading rate eps"), slider, sliderValue),
      h("div", { class: "mw-controls" }, exampleSelect, redraw),
      h("div", { class: "mw-main" }, trueHolder, readHolder),
      status,
      h("div", { class: "mw-noisy-panels" }, OBSERVERS.map(([key]) => panels[key].panel)),
      lossLine,
    ),
  );
  update();
  model.on("change", update);
  return () => model.off("change", update);
}

export default { render };
