// The MENACE lab's settings: the choices and limits of each (the library's), and the
// settings as a link, the value of the key "lab" in the page's URL fragment (fragment.js
// keeps other widgets' keys and plain anchors). For example
//
//   #lab=opp:perfect;tie:uniform;side:X;layout:class;filter:decision;beads:4-3-2-1;
//        inc:3,1,-1;restock:box;empty:resign;floor:0;refill:initial;seed:1;speed:3;log:0
//
// (one line). Fields are "name:value", separated by ";", in any order:
//
//   opp      opponent: human, random, defensive, perfect, menace
//   tie      the perfect player's tie-break: uniform, lowest, priority
//   side     the side MENACE plays: X or O
//   layout   boxes: class (Michie's move classes) or square (one colour per square)
//   filter   which positions get a box: all, decision, michie
//   beads    initial beads per MENACE move, "-" between moves: 4-3-2-1
//   inc      beads added after a win, a draw and a loss: 3,1,-1
//   restock  box, move or none
//   empty    at an empty box nothing refills: resign, stop, web
//   floor    the clamp level (a number >= 0)
//   refill   beads a colour is refilled to under move restock; "initial" for its initial count
//   seed     the random stream's seed: a whole number from 0 to 4294967295
//   speed    the speed menu's entry, 0 (one move at a time) to 5 (as fast as possible)
//   log      the plots' games axis: 1 log scale, 0 linear
//
// The first twelve are menace_lib.widgets.lab_games.LabSettings (with the same checks), so a link and
// the same settings chosen by hand play the same games. Reading a link never fails: a
// field left out keeps its default, and a bad field (unknown, unreadable, out of range,
// repeated, or at odds with another) is dropped and named in `problems`.
import { MAX_BEADS } from "./beads.js";

/** The key of the lab's settings in the page's fragment. */
export const FRAGMENT_KEY = "lab";
// The library's option lists and limits (menace_lib.widgets.lab_games, .opponents, .menace,
// .statespace, .beads, .limits); tests/test_lab_link.py checks that they agree.
export const OPPONENTS = ["human", "random", "defensive", "perfect", "menace"];
export const TIE_BREAKS = ["uniform", "lowest", "priority"];
export const LAYOUTS = ["class", "square"];
export const FILTERS = ["all", "decision", "michie"];
export const RESTOCKS = ["box", "move", "none"];
export const EMPTY_BOX_RULES = ["resign", "stop", "web"];
export const MAX_REINFORCEMENT = 1e6;
export const MAX_SCHEDULE_LENGTH = 9;
const MAX_SEED = 2 ** 32;
/** A link longer than this is not read at all (a pasted page, not a setting). */
export const MAX_LINK_LENGTH = 600;

const SHORT = 40; // longest piece of a bad link quoted back to the reader

/** `text` quoted for a message, cut short when long. */
function quoted(text) {
  return `"${text.length > SHORT ? `${text.slice(0, SHORT - 1)}…` : text}"`;
}

function choice(options) {
  return (text) => {
    if (!options.includes(text)) throw new Error(`is not one of ${options.join(", ")}`);
    return text;
  };
}

function number(text, lo, hi) {
  const v = Number(text);
  if (text.trim() === "" || !Number.isFinite(v)) throw new Error("is not a number");
  if (v < lo || v > hi) throw new Error(`is outside ${lo}–${hi}`);
  return v;
}

function wholeNumber(text, lo, hiExclusive) {
  if (!/^\d{1,12}$/.test(text)) throw new Error(`is not a whole number from ${lo} to ${hiExclusive - 1}`);
  const v = Number(text);
  if (v < lo || v >= hiExclusive) throw new Error(`is not a whole number from ${lo} to ${hiExclusive - 1}`);
  return v;
}

function numbers(text, sep, lo, hi) {
  return text.split(sep).map((part) => number(part, lo, hi));
}

/** Each field: its name in the link, the setting it sets, how to write and read it. */
const FIELDS = [
  { key: "opp", name: "opponent", read: choice(OPPONENTS) },
  { key: "tie", name: "tie_break", read: choice(TIE_BREAKS) },
  { key: "side", name: "side", read: choice(["X", "O"]) },
  { key: "layout", name: "layout", read: choice(LAYOUTS) },
  { key: "filter", name: "filter", read: choice(FILTERS) },
  {
    key: "beads",
    name: "schedule",
    write: (v) => v.join("-"),
    read: (text) => {
      const v = numbers(text, /(?<![eE])-/, 0, MAX_BEADS); // the "-" of "1e-7" is no separator
      if (v.length > MAX_SCHEDULE_LENGTH) throw new Error(`lists more than ${MAX_SCHEDULE_LENGTH} moves`);
      return v;
    },
  },
  {
    key: "inc",
    name: "reinforcement",
    write: (v) => v.join(","),
    read: (text) => {
      const v = numbers(text, ",", -MAX_REINFORCEMENT, MAX_REINFORCEMENT);
      if (v.length !== 3) throw new Error("must be three numbers (win, draw, loss)");
      return v;
    },
  },
  { key: "restock", name: "restock", read: choice(RESTOCKS) },
  { key: "empty", name: "empty_box", read: choice(EMPTY_BOX_RULES) },
  { key: "floor", name: "floor", read: (text) => number(text, 0, MAX_BEADS) },
  {
    key: "refill",
    name: "move_restock_beads",
    write: (v) => (v === null || v === undefined ? "initial" : String(v)),
    read: (text) => (text === "initial" ? null : number(text, 0, MAX_BEADS)),
  },
  { key: "seed", name: "seed", read: (text) => wholeNumber(text, 0, MAX_SEED) },
  { key: "speed", name: "speed", read: (text, speeds) => wholeNumber(text, 0, speeds) },
  {
    key: "log",
    name: "log",
    write: (v) => (v ? "1" : "0"),
    read: (text) => {
      if (text !== "0" && text !== "1") throw new Error("is not 0 or 1");
      return text === "1";
    },
  },
];
/** The names of the settings a link holds (LabSettings' fields, then speed and log). */
export const LINK_SETTINGS = FIELDS.map((f) => f.name);

/** `settings` (every LINK_SETTINGS name) as the lab key's value. */
export function formatLink(settings) {
  return FIELDS.map((f) => `${f.key}:${(f.write ?? String)(settings[f.name])}`).join(";");
}

/**
 * Why these settings cannot go together (LabSettings' cross-checks): null, or
 * {names, text} with the settings involved, the one to give up first first.
 */
export function combinationProblem(s) {
  if (s.schedule.some((b) => b < s.floor)) {
    return { names: ["floor", "schedule"], text: `the initial beads ${s.schedule.join("-")} go below the clamp level ${s.floor}` };
  }
  const refill = s.move_restock_beads;
  if (refill !== null && refill !== undefined && refill <= s.floor) {
    return { names: ["floor", "move_restock_beads"], text: `the move-restock beads ${refill} are not above the clamp level ${s.floor}` };
  }
  return null;
}

/**
 * Read a link's value. `base` holds every LINK_SETTINGS name (the defaults, a valid
 * combination); `speeds` is the number of entries in the speed menu. Returns
 * {settings, used, problems}: settings are `base` with the link's good fields, `used`
 * names the fields taken from the link, `problems` says in words what was dropped and why.
 */
export function parseLink(text, base, speeds) {
  const settings = { ...base };
  const problems = [];
  const raw = new Map(); // setting -> how the link wrote it, for the good fields
  const seen = new Set();
  if (text.length > MAX_LINK_LENGTH) {
    problems.push(`the settings are too long (${text.length} characters), so none were used`);
    return { settings, used: [], problems };
  }
  for (const item of text.split(";")) {
    if (item === "") continue;
    const colon = item.indexOf(":");
    const key = colon < 0 ? item : item.slice(0, colon);
    const value = colon < 0 ? "" : item.slice(colon + 1);
    const field = FIELDS.find((f) => f.key === key);
    if (!field) {
      problems.push(`${quoted(key)} is not a setting (use ${FIELDS.map((f) => f.key).join(", ")})`);
    } else if (seen.has(key)) {
      problems.push(`${key} is given twice (only the first is read)`);
    } else {
      seen.add(key);
      try {
        settings[field.name] = field.read(value, speeds);
        raw.set(field.name, `${key} ${quoted(value)}`);
      } catch (error) {
        problems.push(`${key} ${quoted(value)} ${error.message}`);
      }
    }
  }
  // A combination LabSettings refuses: give up the link's part in it (its clamp level
  // first) until what is left goes together; `base` alone always does.
  for (let problem = combinationProblem(settings); problem !== null; problem = combinationProblem(settings)) {
    const name = problem.names.find((n) => raw.has(n));
    if (name === undefined) break; // base's own fault: nothing of the link's to drop
    problems.push(`${raw.get(name)} was not used: ${problem.text}`);
    settings[name] = base[name];
    raw.delete(name);
  }
  return { settings, used: [...raw.keys()], problems };
}
