// Parts the four live figures of the Bayesian-observer chapters share (dirichlet_box.js,
// count_vs_beads.js, efe_box.js, info_reward.js): a matchbox's board drawn small, a bead
// swatch with its square and colour name, result buttons and number formatting. Every
// colour and name arrives in the widgets' data (menace_lib.base.palette,
// menace_lib.machine.printed); nothing here decides one.
import { h } from "./common.js";

/** A number with `places` decimals, never "-0.000"; negatives take the minus sign. */
export function fmt(value, places = 3) {
  const text = Number(value).toFixed(places);
  if (/^-0\.?0*$/.test(text)) return text.slice(1);
  return text.startsWith("-") ? `−${text.slice(1)}` : text;
}

/** Bead counts as whole numbers when they are whole. */
export function count(value) {
  return Number.isInteger(value) ? String(value) : fmt(value, 1);
}

/** The box's position drawn small: X and O, and on each empty square the colour of the
 * bead that plays it (with the square's number 1-9). */
export function miniBoard(box) {
  const cells = Array.from(box.board).map((c, i) => {
    const colour = box.squares.indexOf(i + 1);
    const label = c === "." ? (colour >= 0 ? `square ${i + 1}, ${box.colour_names[colour]} bead` : `square ${i + 1}`) : `square ${i + 1}, ${c}`;
    return h(
      "span",
      { class: `mw-live-cell${c === "X" ? " mw-x" : c === "O" ? " mw-o" : ""}`, role: "img", "aria-label": label },
      c === "." ? h("span", { class: "mw-live-cell-number" }, String(i + 1)) : h("span", { class: "mw-live-mark" }, c),
      c === "." && colour >= 0 ? h("span", { class: "mw-live-dot", style: { background: box.colours[colour] } }) : null,
    );
  });
  return h("div", { class: "mw-live-board", role: "group", "aria-label": "The box's position" }, cells);
}

/** A bead swatch and "square 7 green" for colour `j` of `box` (the colour's name on a
 * line of its own when `stacked`, for narrow tables). */
export function moveLabel(box, j, stacked = false) {
  return h(
    "span",
    { class: stacked ? "mw-live-move mw-live-stacked" : "mw-live-move" },
    h("span", { class: "mw-live-swatch", style: { background: box.colours[j] }, "aria-hidden": "true" }),
    h("span", {}, `square ${box.squares[j]}`, h("span", { class: "mw-live-colour" }, ` ${box.colour_names[j]}`)),
  );
}

/** Buttons "won", "drew", "lost" (colours from the palette's result colours). */
export function resultButtons(results, prefix, onResult) {
  const verbs = { win: "won", draw: "drew", loss: "lost" };
  return results.names.map((name, r) =>
    h(
      "button",
      {
        type: "button",
        class: "mw-button mw-live-result",
        style: { "border-color": results.colours[r], "--mw-live-result": results.colours[r] },
        "data-testid": `${prefix}-${name}`,
        onclick: () => onResult(r),
      },
      verbs[name] ?? name,
    ),
  );
}

/** A horizontal bar, `share` of its track filled (0-1), in `colour`. */
export function bar(share, colour, testid = null) {
  const width = `${(100 * Math.max(0, Math.min(1, share))).toFixed(1)}%`;
  return h(
    "span",
    { class: "mw-live-track", "aria-hidden": "true" },
    h("span", { class: "mw-live-fill", style: { width, background: colour }, "data-testid": testid }),
  );
}
