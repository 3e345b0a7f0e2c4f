// Matchbox inspector: pick a box by its board from a thumbnail grid (grouped by MENACE's
// move number, searchable), see its beads at each checkpoint as bars and the Dirichlet
// mean, variance and I(o; theta) of the bead counts. Data come from
// menace_lib/widgets/inspector.py; the statistics are box_stats.js (maths: efe_math.js).
// Colours without beads are left out of the Dirichlet (alpha_i -> 0 limit): mean and
// variance 0, no contribution to I(o; theta).
// Squares are numbered 1-9 on the page (menace_lib.games.board.square_number). The search finds a
// box from the board as seen in any orientation: the pattern is tried against all eight
// images of each box's board, made with the symmetry permutations shipped in the data
// (menace_lib.games.board.TRANSFORMS, the one owner of the symmetries).
// The thumbnail grid is one tab stop: the arrow keys move between boxes (roving tabindex).
import { beadStatistics } from "./box_stats.js";
import { COLOUR_NAMES, beadColour, beadText, classesOf, digits, h, sync } from "./common.js";

const FILTER_LABELS = { all: "all", decision: "decision", michie: "michie" };
const SYMBOL = { X: "X", O: "O", ".": "" };
let viewCount = 0;

function inFilter(data, filter, i) {
  return filter === "all" || data[filter][i];
}

const SEARCH_HELP = "X, O, . (empty) and ? (anything), row by row, e.g. O../.X.";

/**
 * Read a search pattern: up to 9 of X, O, "." (empty), "?" (any square), row by row; "/" and
 * spaces are ignored, case does not matter, 0 is read as O and "-" or "_" as empty.
 * Returns {pattern} (a string of 1-9 of "XO.?"), or {error} naming what was not understood.
 */
export function parsePattern(text) {
  const cleaned = text.replace(/[\s/]/g, "").toUpperCase().replace(/0/g, "O").replace(/[-_]/g, ".");
  const bad = [...new Set(cleaned.replace(/[XO.?]/g, ""))];
  if (bad.length) return { error: `"${bad.join("")}" is not a square: use ${SEARCH_HELP}` };
  if (cleaned.length > 9) return { error: `${cleaned.length} squares given; a board has 9` };
  return { pattern: cleaned };
}

function squareList(squares) {
  return squares.map((i) => i + 1).join(", ");
}

/** In words, what a pattern asks for (squares numbered 1-9). */
export function describePattern(pattern) {
  const where = { X: [], O: [], ".": [] };
  Array.from(pattern).forEach((c, i) => {
    if (c in where) where[c].push(i);
  });
  const parts = [];
  if (where.X.length) parts.push(`X on ${squareList(where.X)}`);
  if (where.O.length) parts.push(`O on ${squareList(where.O)}`);
  if (where["."].length) parts.push(`${squareList(where["."])} empty`);
  if (!parts.length) return "any board";
  const rest = pattern.length < 9 ? "; other squares anything" : "";
  return `${parts.join("; ")}${rest}, in any of the 8 orientations`;
}

/** The image of a 9-character board under a permutation: image[t[i]] = board[i]. */
export function transformBoard(cells, t) {
  const image = new Array(9);
  for (let i = 0; i < 9; i++) image[t[i]] = cells[i];
  return image.join("");
}

/** The distinct images of a board ("X.O/.X./..O" or 9 characters) under the transforms. */
export function imagesOf(board, transforms) {
  const cells = board.replace(/\//g, "");
  return [...new Set(transforms.map((t) => transformBoard(cells, t)))];
}

function fits(cells, pattern) {
  for (let i = 0; i < pattern.length; i++) if (pattern[i] !== "?" && pattern[i] !== cells[i]) return false;
  return true;
}

/** Does any image of the board fit the pattern (square by square, "?" fits anything)? */
export function matchesAnyImage(images, pattern) {
  return images.some((cells) => fits(cells, pattern));
}

/** Where the pieces are, in words: "X on 1, 9; O on 5" (or "empty board"). */
export function boardDescription(board) {
  const cells = board.replace(/\//g, "");
  const on = (c) => squareList(Array.from(cells).flatMap((x, k) => (x === c ? [k] : [])));
  const pieces = ["X", "O"].filter((c) => cells.includes(c)).map((c) => `${c} on ${on(c)}`);
  return pieces.length ? pieces.join("; ") : "empty board";
}

/**
 * A box's name, as screen readers announce its thumbnail: "Matchbox 2: X on 1; O on 5".
 * `number` is the box's number in the printed kit of the shown filter (data.numbers, from
 * menace_lib.machine.printed); null where that kit has no box for the position.
 */
export function boxName(board, number) {
  const where = boardDescription(board);
  return number === null || number === undefined ? `No matchbox: ${where}` : `Matchbox ${number}: ${where}`;
}

function thumbnail(board, i, onPick) {
  // The marks are drawn for the eye; the button's name says the same in words.
  const cells = Array.from(board.replace(/\//g, ""), (c) =>
    h("span", { class: c === "X" ? "mw-tx" : c === "O" ? "mw-to" : "", "aria-hidden": "true" }, SYMBOL[c]),
  );
  return h(
    "button",
    {
      type: "button",
      class: "mw-thumb",
      "data-testid": `ins-thumb-${i}`,
      "aria-label": boxName(board, null),
      "aria-pressed": "false",
      tabindex: "-1",
      onclick: () => onPick(i),
    },
    cells,
  );
}

/**
 * The thumbnail to move to from `from` with an arrow key, among the visible buttons, by
 * their places on the screen: left/right go to the previous/next box, up/down to the
 * nearest box in the row above/below, Home/End to the first/last.
 */
export function nextThumb(visible, from, key, rectOf) {
  const k = visible.indexOf(from);
  if (k < 0) return visible[0] ?? null;
  if (key === "ArrowLeft") return visible[Math.max(0, k - 1)];
  if (key === "ArrowRight") return visible[Math.min(visible.length - 1, k + 1)];
  if (key === "Home") return visible[0];
  if (key === "End") return visible[visible.length - 1];
  if (key !== "ArrowUp" && key !== "ArrowDown") return null;
  const here = rectOf(from);
  const centre = (r) => r.left + r.width / 2;
  const below = key === "ArrowDown";
  const rows = visible
    .map((b) => ({ b, r: rectOf(b) }))
    .filter(({ r }) => (below ? r.top > here.top + here.height / 2 : r.top < here.top - here.height / 2));
  if (!rows.length) return from;
  const rowTop = below ? Math.min(...rows.map(({ r }) => r.top)) : Math.max(...rows.map(({ r }) => r.top));
  const row = rows.filter(({ r }) => Math.abs(r.top - rowTop) < here.height / 2);
  row.sort((a, b) => Math.abs(centre(a.r) - centre(here)) - Math.abs(centre(b.r) - centre(here)));
  return row[0].b;
}

/** A statistic's cell content: rounded for reading, the full value in data-value. */
function stat(testid, value, format, cls = null) {
  if (value === null || value === undefined) return h("span", { class: cls, "data-testid": testid }, "–");
  return h("span", { class: cls, "data-testid": testid, "data-value": String(value) }, format(value));
}

/** Small positive numbers (variances, information in nats) to 3 significant digits. */
export function small(value) {
  if (value === 0) return "0";
  return Math.abs(value) >= 0.001 ? value.toFixed(Math.max(3, 2 - Math.floor(Math.log10(Math.abs(value))))) : value.toExponential(2);
}

/**
 * Bead colours of a box: [{index, squares}], squares[0] being the square the colour plays.
 * The data draw each box as the printed kit does (menace_lib.machine.printed), each
 * class ascending, so squares[0] is also the colour's index, as on the box's label.
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
  const images = data.boards.map((b) => imagesOf(b, data.transforms));

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
    placeholder: "e.g. O../.X.",
    "aria-describedby": `ins-search-hint-${++viewCount}`,
    size: 14,
  });
  const searchHint = h("p", {
    class: "mw-caption",
    id: `ins-search-hint-${viewCount}`,
    "aria-live": "polite",
    "data-testid": "ins-search-hint",
  });
  const resetButton = h("button", { type: "button", class: "mw-button", "data-testid": "ins-reset" }, "Reset to defaults");
  sourceSelect.addEventListener("change", () => commit({ source: sourceSelect.value }));
  filterSelect.addEventListener("change", () => commit({ filter: filterSelect.value }));
  moveSelect.addEventListener("change", () => update());
  search.addEventListener("input", () => update());
  resetButton.addEventListener("click", () => {
    search.value = "";
    moveSelect.value = "";
    commit({ source: "class", filter: "michie", selected: 0, ...(model.get("defaults") || {}) });
    update();
  });

  const thumbs = data.boards.map((b, i) => thumbnail(b, i, (k) => commit({ selected: k })));
  const groups = plies.map((p) => {
    const members = thumbs.filter((_, i) => data.ply[i] === p);
    const heading = h("h3", {}, `X's move ${p / 2 + 1} (${p} pieces on the board)`);
    return { ply: p, el: h("div", { class: "mw-thumb-group" }, heading, h("div", { class: "mw-thumb-row" }, members)) };
  });
  const grid = h(
    "div",
    {
      class: "mw-thumbs",
      role: "group",
      "aria-label": "Matchboxes: arrow keys move between them, Enter opens one",
      "data-testid": "ins-thumbs",
    },
    groups.map((g) => g.el),
  );
  grid.addEventListener("keydown", (event) => {
    const visible = thumbs.filter((b) => !b.hidden);
    const target = nextThumb(visible, document.activeElement, event.key, (b) => b.getBoundingClientRect());
    if (!target) return;
    event.preventDefault();
    rove(target);
    target.focus();
  });
  const shownCount = h("p", { class: "mw-caption", "data-testid": "ins-count" });
  const detail = h("div", { class: "mw-detail", "data-testid": "ins-detail" });

  // Exactly one thumbnail is in the tab order: the one the reader moved to last, or the
  // open box, or the first visible one.
  let current = null;
  function rove(button) {
    if (current && current !== button) current.setAttribute("tabindex", "-1");
    current = button;
    if (button) button.setAttribute("tabindex", "0");
  }

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
      resetButton,
    ),
    searchHint,
    shownCount,
    grid,
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
    return h("div", { class: "mw-board", role: "group", "aria-label": `Board: ${boardDescription(board)}` }, cells);
  }

  function drawDetail(s) {
    const i = s.selected;
    const board = data.boards[i];
    const src = data[s.source];
    const table = s.source === "class" ? src.beads : src.beads[s.filter];
    const groupsHere = colourGroups(data, s.source, i);
    const heading = h(
      "h3",
      { "data-testid": "ins-title" },
      `${boxName(board, data.numbers[s.filter][i])} (X's move ${data.ply[i] / 2 + 1})`,
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
        // Wide enough for every colour's count label (9 colours in the thesis layout).
        { class: "mw-bar-chart", "data-testid": `ins-chart-${k}`, style: { "--mw-n": String(groupsHere.length) } },
        h("h4", {}, `after ${n.toLocaleString("en-GB")} games`),
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
      h("th", { scope: "col" }, "Colour: squares"),
      series.map(({ n }) => h("th", { scope: "col" }, `after ${n.toLocaleString("en-GB")}`)),
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
            stat(`ins-mean-${k}-${g.index}`, st && st.mean ? st.mean[g.index] : null, (v) => v.toFixed(3)),
            h("br"),
            stat(`ins-var-${k}-${g.index}`, st && st.variance ? st.variance[g.index] : null, small, "mw-muted"),
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
      stats.map((st, k) => h("td", {}, stat(`ins-mi-${k}`, st ? st.mi : null, small))),
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
    const typed = search.value.trim();
    const { pattern, error } = parsePattern(typed);
    const ply = moveSelect.value === "" ? null : Number(moveSelect.value);
    let shown = 0;
    thumbs.forEach((button, i) => {
      const visible =
        inFilter(data, s.filter, i) &&
        (ply === null || data.ply[i] === ply) &&
        (!pattern || matchesAnyImage(images[i], pattern));
      button.hidden = !visible;
      button.setAttribute("aria-label", boxName(data.boards[i], data.numbers[s.filter][i]));
      button.setAttribute("aria-pressed", i === s.selected ? "true" : "false");
      if (visible) shown += 1;
    });
    groups.forEach((g) => {
      g.el.hidden = !thumbs.some((b, i) => data.ply[i] === g.ply && !b.hidden);
    });
    if (typed === "") searchHint.textContent = `Board search: ${SEARCH_HELP}`;
    else if (error) searchHint.textContent = `Not understood: ${error}.`;
    else searchHint.textContent = `Searching for ${describePattern(pattern)}: ${shown} found.`;
    shownCount.textContent = `${shown} of ${counts[s.filter]} boxes shown; pick one to open it.`;
    // Keep one tab stop in the grid, on a visible box.
    const visible = thumbs.filter((b) => !b.hidden);
    if (!current || current.hidden) rove(visible.includes(thumbs[s.selected]) ? thumbs[s.selected] : (visible[0] ?? null));
    detail.replaceChildren(...drawDetail(s));
  }

  model.on("change", update);
  update();
  return () => model.off("change", update);
}

export default { render };
