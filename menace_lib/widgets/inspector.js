// Matchbox inspector: pick a box by its board from a thumbnail grid (grouped by MENACE's
// move number, searchable), see its beads at each checkpoint as bars and the Dirichlet
// mean, variance and I(o; theta) of the bead counts. Data come from
// menace_lib/widgets/inspector.py; the maths is efe_math.js (mean, variance, MI).
// Colours without beads are left out of the Dirichlet (alpha_i -> 0 limit): mean and
// variance 0, no contribution to I(o; theta).
import { dirichletMean, dirichletVariance, mutualInformation } from "./efe_math.js";
import { COLOUR_NAMES, beadColour, beadText, classesOf, digits, fixed, h, sync } from "./common.js";

const FILTER_LABELS = { all: "all", decision: "decision", michie: "michie" };
const SYMBOL = { X: "X", O: "O", ".": "" };

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

function inFilter(data, filter, i) {
  return filter === "all" || data[filter][i];
}

/** Search pattern: up to 9 of X, O, "." (empty), "?" (anything); "/" and spaces ignored. */
export function parsePattern(text) {
  const cleaned = text.replace(/[\s/]/g, "").toUpperCase().replace(/0/g, "O").replace(/_/g, ".");
  if (cleaned.length > 9 || /[^XO.?]/.test(cleaned)) return null;
  return cleaned;
}

function matches(board, pattern) {
  const cells = board.replace(/\//g, "");
  for (let i = 0; i < pattern.length; i++) if (pattern[i] !== "?" && pattern[i] !== cells[i]) return false;
  return true;
}

function thumbnail(board, i, onPick) {
  const cells = Array.from(board.replace(/\//g, ""), (c) =>
    h("span", { class: c === "X" ? "mw-tx" : c === "O" ? "mw-to" : "" }, SYMBOL[c]),
  );
  return h(
    "button",
    {
      type: "button",
      class: "mw-thumb",
      "data-testid": `ins-thumb-${i}`,
      "aria-label": `matchbox for ${board.slice(0, 3)}/${board.slice(3, 6)}/${board.slice(6)}`,
      "aria-pressed": "false",
      onclick: () => onPick(i),
    },
    cells,
  );
}

/**
 * Bead colours of a box: [{index, squares}], squares[0] being the square the colour plays
 * (and naming its colour, as in menace_lib.plotting.bead_colour).
 */
function colourGroups(data, source, i) {
  if (source === "square") return digits(data.square.entries[i]).map((sq, j) => ({ index: j, squares: [sq] }));
  return classesOf(data.class.members[i]).map((cls, j) => ({ index: j, squares: cls }));
}

function render({ model, el }) {
  const data = model.get("data");
  const commit = (changes) => {
    model.set(changes);
    sync(model);
  };
  const counts = {
    all: data.boards.length,
    decision: data.decision.filter(Boolean).length,
    michie: data.michie.filter(Boolean).length,
  };

  const sourceSelect = h(
    "select",
    { class: "mw-select", "data-testid": "ins-source" },
    h("option", { value: "class" }, `Move classes: the play widget's X (after ${data.class.checkpoints.join(", ")} games)`),
    h("option", { value: "square" }, `One colour per square: thesis layout (after ${data.square.checkpoints.join(", ")} games)`),
  );
  const filterSelect = h(
    "select",
    { class: "mw-select", "data-testid": "ins-filter" },
    Object.keys(FILTER_LABELS).map((f) => h("option", { value: f }, `${FILTER_LABELS[f]} (${counts[f]} boxes)`)),
  );
  const plies = [...new Set(data.ply)].sort((a, b) => a - b);
  const moveSelect = h(
    "select",
    { class: "mw-select", "data-testid": "ins-move" },
    h("option", { value: "" }, "every move"),
    plies.map((p) => h("option", { value: p }, `X's move ${p / 2 + 1}`)),
  );
  const search = h("input", {
    type: "search",
    "data-testid": "ins-search",
    placeholder: "e.g. X?O/.X",
    "aria-label": "Board pattern: X, O, . for empty, ? for any, row by row",
    size: 14,
  });
  const searchHint = h("span", { class: "mw-caption", "data-testid": "ins-search-hint" });
  sourceSelect.addEventListener("change", () => commit({ source: sourceSelect.value }));
  filterSelect.addEventListener("change", () => commit({ filter: filterSelect.value }));
  moveSelect.addEventListener("change", () => update());
  search.addEventListener("input", () => update());

  const thumbs = data.boards.map((b, i) => thumbnail(b, i, (k) => commit({ selected: k })));
  const groups = plies.map((p) => {
    const members = thumbs.filter((_, i) => data.ply[i] === p);
    const heading = h("h5", {}, `X's move ${p / 2 + 1} (${p} pieces on the board)`);
    return { ply: p, el: h("div", { class: "mw-thumb-group" }, heading, h("div", { class: "mw-thumb-row" }, members)) };
  });
  const shownCount = h("p", { class: "mw-caption", "data-testid": "ins-count" });
  const detail = h("div", { class: "mw-detail", "data-testid": "ins-detail" });

  const root = h(
    "div",
    { class: "mw mw-inspector", "data-testid": "inspector" },
    h(
      "div",
      { class: "mw-controls" },
      h("label", {}, "MENACE ", sourceSelect),
      h("label", {}, "Boxes ", filterSelect),
      h("label", {}, "Show ", moveSelect),
      h("label", {}, "Board ", search),
      searchHint,
    ),
    shownCount,
    h("div", { class: "mw-thumbs", "data-testid": "ins-thumbs" }, groups.map((g) => g.el)),
    detail,
  );
  el.append(root);

  function drawBoard(board, groupsHere) {
    const where = new Map();
    groupsHere.forEach((g) =>
      g.squares.forEach((sq, k) => where.set(sq, { colour: beadColour(g.squares[0]), name: COLOUR_NAMES[g.squares[0]], main: k === 0 })),
    );
    const cells = Array.from(board.replace(/\//g, ""), (c, i) => {
      const mark = where.get(i);
      const content =
        c !== "."
          ? h("span", { class: "mw-mark", "aria-hidden": "true" }, c)
          : mark
            ? h("span", { class: "mw-colour-dot", style: { "--mw-class": mark.colour } })
            : "";
      const label = c === "." ? (mark ? `${mark.name} bead${mark.main ? "" : " (same class)"}` : "empty") : c;
      return h(
        "div",
        {
          class: `mw-cell${c === "X" ? " mw-x" : c === "O" ? " mw-o" : ""}${mark && !mark.main ? " mw-member" : ""}`,
          role: "img",
          "aria-label": `square ${i + 1}, ${label}`,
          style: mark ? { "--mw-class": mark.colour } : {},
        },
        content,
      );
    });
    return h("div", { class: "mw-board", "aria-label": `board ${board}` }, cells);
  }

  function drawDetail(s) {
    const i = s.selected;
    const board = data.boards[i];
    const src = data[s.source];
    const table = s.source === "class" ? src.beads : src.beads[s.filter];
    const groupsHere = colourGroups(data, s.source, i);
    const heading = h(
      "h4",
      { "data-testid": "ins-title" },
      `Matchbox for ${board.slice(0, 3)}/${board.slice(3, 6)}/${board.slice(6)} (X's move ${data.ply[i] / 2 + 1})`,
    );
    const series = src.checkpoints.map((n) => ({ n, beads: table[String(n)][i] }));
    if (series.every((x) => x.beads === null)) {
      const why =
        s.source === "class"
          ? `The move-class MENACE (filter ${src.filter}) has no matchbox here: it plays the forced move or, facing a double threat, any move.`
          : `Under the ${s.filter} filter there is no matchbox here: MENACE plays the forced move or a uniformly random one.`;
      return [heading, drawBoard(board, groupsHere), h("p", { "data-testid": "ins-nobox" }, why)];
    }
    // Each chart is scaled to its own fullest colour: the shape is the policy, the
    // labels give the counts.
    const charts = series.map(({ n, beads }, k) => {
      const top = Math.max(1e-9, ...(beads ?? []));
      return h(
        "div",
        { class: "mw-bar-chart", "data-testid": `ins-chart-${k}` },
        h("h5", {}, `after ${n.toLocaleString("en-GB")} games`),
        h(
          "div",
          {
            class: "mw-bar-area",
            role: "img",
            "aria-label": beads ? `bead counts ${beads.map(beadText).join(", ")}` : "no box",
          },
          (beads ?? []).map((b, j) =>
            h("div", {
              class: "mw-bar",
              style: { height: `${(100 * b) / top}%`, "--mw-class": beadColour(groupsHere[j].squares[0]) },
              title: `${COLOUR_NAMES[groupsHere[j].squares[0]]}: ${beadText(b)} beads`,
            }),
          ),
        ),
        h(
          "div",
          { class: "mw-bar-labels", "aria-hidden": "true" },
          (beads ?? []).map((b) => h("span", {}, beadText(b))),
        ),
      );
    });
    const stats = series.map(({ beads }) => (beads ? beadStatistics(beads) : null));
    const head = h(
      "tr",
      {},
      h("th", {}, "Colour: squares"),
      series.map(({ n }) => h("th", {}, `after ${n.toLocaleString("en-GB")}`)),
    );
    const colourRows = groupsHere.map((g) =>
      h(
        "tr",
        {},
        h(
          "td",
          {},
          h("span", { class: "mw-swatch", style: { background: beadColour(g.squares[0]) } }),
          ` ${COLOUR_NAMES[g.squares[0]]}: ${g.squares.map((q) => q + 1).join(", ")}`,
        ),
        stats.map((st, k) =>
          h(
            "td",
            {},
            h("span", { "data-testid": `ins-mean-${k}-${g.index}` }, st && st.mean ? fixed(st.mean[g.index], 6) : "–"),
            h("br"),
            h(
              "span",
              { class: "mw-muted", "data-testid": `ins-var-${k}-${g.index}` },
              st && st.variance ? fixed(st.variance[g.index], 6) : "–",
            ),
          ),
        ),
      ),
    );
    const totalRow = h(
      "tr",
      {},
      h("td", {}, "beads in the box"),
      stats.map((st, k) => h("td", { "data-testid": `ins-total-${k}` }, st ? beadText(st.total) : "no box")),
    );
    const miRow = h(
      "tr",
      {},
      h("td", {}, "I(o;θ) in nats"),
      stats.map((st, k) =>
        h("td", { "data-testid": `ins-mi-${k}` }, st && st.mi !== null ? fixed(st.mi, 6) : "–"),
      ),
    );
    return [
      heading,
      h("div", { class: "mw-inspect" }, drawBoard(board, groupsHere), h("div", { class: "mw-bars" }, charts)),
      h(
        "p",
        { class: "mw-caption" },
        "Per colour: Dirichlet mean (MENACE's probability of drawing it) and, below, its variance.",
      ),
      h(
        "div",
        { class: "mw-scroll" },
        h(
          "table",
          { class: "mw-table", "data-testid": "ins-stats" },
          h("thead", {}, head),
          h("tbody", {}, colourRows, totalRow, miRow),
        ),
      ),
    ];
  }

  function update() {
    const s = { source: model.get("source"), filter: model.get("filter"), selected: model.get("selected") };
    sourceSelect.value = s.source;
    filterSelect.value = s.filter;
    const pattern = parsePattern(search.value);
    searchHint.textContent = pattern === null ? "Use up to 9 of X, O, . and ?" : "";
    const ply = moveSelect.value === "" ? null : Number(moveSelect.value);
    let shown = 0;
    thumbs.forEach((button, i) => {
      const visible =
        inFilter(data, s.filter, i) &&
        (ply === null || data.ply[i] === ply) &&
        (pattern === null || matches(data.boards[i], pattern));
      button.hidden = !visible;
      button.setAttribute("aria-pressed", i === s.selected ? "true" : "false");
      if (visible) shown += 1;
    });
    groups.forEach((g) => {
      g.el.hidden = !thumbs.some((b, i) => data.ply[i] === g.ply && !b.hidden);
    });
    shownCount.textContent = `${shown} of ${counts[s.filter]} boxes shown; pick one to open it.`;
    detail.replaceChildren(...drawDetail(s));
  }

  model.on("change", update);
  update();
  return () => model.off("change", update);
}

export default { render };
