// The MENACE lab's matchboxes: every box as a small board, grouped by MENACE's move. Each
// empty square shows the beads of the colour that plays there, tinted by that colour's
// share of the box; the other squares of its move class are striped in its colour. The
// boxes opened in the last game are outlined. Only boxes whose beads changed since the
// last draw are touched, so redrawing all 304 a few times a second stays cheap.
import { BEAD_COLOURS, COLOUR_NAMES, h } from "./common.js";

/** A bead count in at most four characters: 7, 2.5, 1.2k, 35k, 2M. */
export function beadLabel(v) {
  if (v >= 999500) return `${Math.round(v / 1e6)}M`;
  if (v >= 10000) return `${Math.round(v / 1000)}k`;
  if (v >= 1000) return `${(v / 1000).toFixed(1)}k`;
  return Number.isInteger(v) ? String(v) : v.toFixed(1);
}

/**
 * The box of position `pid` as the printed kit draws it: turned by the symmetry the data
 * give (T.printedTransform, from menace_lib.machine.printed), each colour on the lowest
 * square of its class and the class's other squares striped.
 */
function boxCells(T, pid, members, colours) {
  const perm = T.moveMaps[T.printedTransform[pid]];
  const board = new Array(9);
  for (let i = 0; i < 9; i++) board[perm[i]] = T.boards[pid * 9 + i];
  const colourAt = new Map();
  members.forEach((cls, j) => {
    const printed = cls.map((sq) => perm[sq]).sort((a, b) => a - b);
    printed.forEach((sq, k) => colourAt.set(sq, { j, main: k === 0 }));
  });
  const spans = [];
  const cells = Array.from({ length: 9 }, (_, i) => {
    const v = board[i];
    if (v) return h("span", { class: v === 1 ? "mw-tx" : "mw-to" }, v === 1 ? "X" : "O");
    const c = colourAt.get(i);
    if (!c) return h("span", {});
    const style = { "--mw-class": BEAD_COLOURS[colours[c.j]] };
    if (!c.main) return h("span", { class: "mw-lab-member", style });
    spans[c.j] = h("span", { class: "mw-lab-bead", style });
    return spans[c.j];
  });
  return { cells, spans };
}

export class BoxGrid {
  /** `area` receives the boxes; `caption` (a <p>) explains them. */
  constructor(area, caption) {
    this.area = area;
    this.caption = caption;
    this.views = [];
    this.highlighted = [];
  }

  /** Build one element per box of `menace` (lab_session's MENACE: structure, weights). */
  build(T, menace) {
    const { states, members, colours, numbers } = menace.structure;
    const groups = new Map();
    this.views = states.map((pid, b) => {
      const { cells, spans } = boxCells(T, pid, members[b], colours[b]);
      const box = h("div", { class: "mw-lab-box", "data-testid": "lab-box", "data-box": b, "data-number": numbers[b], role: "img" }, cells);
      return { box, spans, shown: [], total: -1 };
    });
    // The boxes stand in the printed kit's order (its numbers), grouped by MENACE's move.
    const order = states.map((_, b) => b).sort((a, b) => numbers[a] - numbers[b]);
    for (const b of order) {
      const move = Math.floor(T.ply[states[b]] / 2) + 1;
      if (!groups.has(move)) groups.set(move, []);
      groups.get(move).push(this.views[b].box);
    }
    this.area.replaceChildren(
      ...[...groups.entries()].map(([move, boxes]) =>
        h(
          "div",
          { class: "mw-lab-box-group" },
          h("h5", {}, `MENACE's move ${move} · ${boxes.length} box${boxes.length === 1 ? "" : "es"}`),
          h("div", { class: "mw-lab-box-row" }, boxes),
        ),
      ),
    );
    this.highlighted = [];
    this.caption.textContent =
      `${this.views.length.toLocaleString("en-GB")} matchboxes, grouped by MENACE's move; each square shows the beads ` +
      "of the colour that plays there (striped: the same move class). Outlined: the boxes MENACE opened in the last game.";
  }

  drawBox(view, b, w, colours, number) {
    let total = 0;
    for (const x of w) total += x;
    let changed = total !== view.total;
    for (let j = 0; !changed && j < w.length; j++) changed = w[j] !== view.shown[j];
    if (!changed) return;
    view.total = total;
    view.shown = w.slice();
    w.forEach((x, j) => {
      const label = beadLabel(x);
      view.spans[j].textContent = label;
      view.spans[j].classList.toggle("mw-lab-long", label.length > 3);
      // The tint stops at 60% so the count stays legible on every bead colour.
      view.spans[j].style.setProperty("--mw-share", `${total > 0 ? Math.round((60 * x) / total) : 0}%`);
    });
    const names = colours.map((c, j) => `${COLOUR_NAMES[c]} ${beadLabel(w[j])}`).join(", ");
    view.box.setAttribute("aria-label", `box ${number}: ${names}`);
    view.box.classList.toggle("mw-lab-empty", total <= 0);
  }

  /** Show the beads of `session.menace` now, and outline the boxes of the last game. */
  draw(session) {
    const m = session.menace;
    this.views.forEach((view, b) => this.drawBox(view, b, m.weights[b], m.structure.colours[b], m.structure.numbers[b]));
    for (const b of this.highlighted) this.views[b]?.box.classList.remove("mw-lab-used", "mw-lab-last");
    const path = session.game.path1.length ? session.game.path1 : session.lastPath;
    this.highlighted = path.map(([b]) => b);
    this.highlighted.forEach((b, k) => {
      this.views[b].box.classList.add("mw-lab-used");
      if (k === this.highlighted.length - 1) this.views[b].box.classList.add("mw-lab-last");
    });
  }
}
