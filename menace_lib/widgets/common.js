// Shared helpers for the book's widgets: DOM building, kernel-free syncing and the
// Okabe–Ito palette (the seeded stream is prng.js, read through lab_engine.js). Inlined into each widget's ESM by
// menace_lib/widgets/_bundle.py (a static page cannot resolve relative imports).

/**
 * Bead colours, one per square as in menace_lib.base.palette.BEAD_COLOURS: a bead that plays
 * square i of its box's printed drawing is drawn in BEAD_COLOURS[i]. Which colour each
 * bead of a box gets travels in the widgets' data (menace_lib.machine.printed), so the
 * widgets and the printed kit agree. The seven non-black Okabe–Ito colours, then mid-grey and a
 * dark rose (colour-blind safe); every colour is also named in text next to it.
 */
export const BEAD_COLOURS = [
  "#E69F00",
  "#56B4E9",
  "#009E73",
  "#F0E442",
  "#0072B2",
  "#D55E00",
  "#CC79A7",
  "#999999",
  "#882255",
];
export const COLOUR_NAMES = [
  "orange",
  "sky blue",
  "green",
  "yellow",
  "blue",
  "vermillion",
  "pink",
  "grey",
  "rose",
];

/** Colour of the bead that plays `square` (0-8). */
export function beadColour(square) {
  return BEAD_COLOURS[square];
}

/**
 * Create an element: `h("button", {class: "x", "data-testid": "y"}, child, "text")`.
 * Attributes starting with "on" are event listeners; `null`/`false` attributes are skipped.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === "style" && typeof value === "object") {
      // setProperty also handles custom properties ("--mw-class"), which assignment ignores.
      for (const [prop, v] of Object.entries(value)) el.style.setProperty(prop, v);
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/**
 * Push local trait changes to the kernel when there is one. On the static site the
 * model has no comm and `save_changes` throws; the local state is all there is, so the
 * error carries no information and is dropped.
 */
export function sync(model) {
  try {
    model.save_changes();
  } catch {
    // no kernel (static page): nothing to sync with
  }
}

/** A number with `digits` decimals, as the test ids expose them. */
export function fixed(value, places = 6) {
  return Number(value).toFixed(places);
}

/** Bead counts print as integers when they are whole. */
export function beadText(value) {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/** Base-3 code sum(board[i] * 3^i), the key of menace_lib.statespace's `codes`. */
export function boardCode(board) {
  let code = 0;
  for (let i = 8; i >= 0; i--) code = code * 3 + board[i];
  return code;
}

/** Digits "048" -> [0, 4, 8]; classes "0268/1357/4" -> [[0,2,6,8],[1,3,5,7],[4]]. */
export function digits(text) {
  return Array.from(text, (c) => Number(c));
}

export function classesOf(text) {
  return text === "" ? [] : text.split("/").map(digits);
}
