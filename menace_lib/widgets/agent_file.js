// The play widget's MENACE as an agent file, in the format menace_lib.menace.Menace.to_dict
// writes and Menace.load reads ({format, version, config, frozen, games_trained, boxes}).
//
// Reading mirrors menace_lib.menace.read_json_file and Menace.from_dict, check for check
// and in the same order, and is stricter in three ways: a size cap before parsing,
// unknown keys at the top level and in boxes are refused, and the file must hold one of
// the widget's two MENACEs (the widget's box structure and rules), because the browser
// only knows those boxes. The format's names, defaults and enumerations come from the
// payload (data.agent_file), built by menace_lib/widgets/play_data.py from the library.

import { digits } from "./common.js";
import { numberProblem, show } from "./play_state.js";

const TOP_KEYS = ["boxes", "config", "format", "frozen", "games_trained", "version"];
const BOX_KEYS = ["beads", "board", "moves"];

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const isInt = (v) => typeof v === "number" && Number.isInteger(v);
const sameValue = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** The MENACE in play as an agent-file object (what the Export button saves). */
export function exportAgent(data, s) {
  const side = s.human === "O" ? "X" : "O";
  const d = data.sides[side];
  return {
    format: data.agent_file.format,
    version: data.agent_file.version,
    config: { ...d.config },
    frozen: !s.learn,
    games_trained: d.games_trained[String(s.checkpoint)] + s.games_learned,
    boxes: d.boxes.map((board, b) => ({ board, moves: digits(d.entries[b]), beads: s.live_beads[b].slice() })),
  };
}

/** A file name for the export, e.g. "menace-X-1003-games.json". */
export function exportName(doc) {
  return `menace-${doc.config.player}-${doc.games_trained}-games.json`;
}

/**
 * Bytes of a file -> {doc} or {error}: size cap, UTF-8, JSON (no NaN or Infinity; JSON
 * itself has no such literals, and a number too large for a double is refused below).
 */
export function parseAgentBytes(bytes, spec) {
  if (bytes.length > spec.max_bytes) {
    return { error: `the file is ${bytes.length.toLocaleString("en-GB")} bytes; an agent file is at most ${spec.max_bytes.toLocaleString("en-GB")}` };
  }
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { error: "not valid JSON (not UTF-8 text)" };
  }
  try {
    return { doc: JSON.parse(text) };
  } catch (err) {
    return { error: `not valid JSON (${err && err.message ? err.message : "unreadable"})` };
  }
}

function configProblem(raw, spec) {
  if (!isObject(raw)) return { error: "config: must be an object" };
  const allowed = Object.keys(spec.config_defaults);
  const extra = Object.keys(raw).filter((k) => !allowed.includes(k)).sort();
  if (extra.length > 0) return { error: `config: unknown field(s) ${show(extra)}` };
  const cfg = { ...spec.config_defaults, ...raw };
  if (cfg.player !== "X" && cfg.player !== "O") return { error: `config.player: must be 'X' or 'O', got ${show(cfg.player)}` };
  for (const key of ["schedule", "reinforcement"]) {
    if (!Array.isArray(cfg[key])) return { error: `config.${key}: must be a list of numbers` };
  }
  // What MenaceConfig.__post_init__ checks, in its order.
  const checks = [
    [!spec.filters.includes(cfg.filter), `unknown filter ${show(cfg.filter)}; choose one of ${show(spec.filters)}`],
    [!spec.restocks.includes(cfg.restock), `unknown restock ${show(cfg.restock)}; choose one of ${show(spec.restocks)}`],
    [!spec.layouts.includes(cfg.layout), `unknown layout ${show(cfg.layout)}; choose one of ${show(spec.layouts)}`],
    [cfg.schedule.length === 0, "schedule must list at least one bead count"],
  ];
  for (const [bad, message] of checks) if (bad) return { error: `config: ${message}` };
  const numbers = (list) => {
    for (const [name, value, minimum] of list) {
      const problem = numberProblem(name, value, minimum);
      if (problem) return `config: ${problem}`;
    }
    return "";
  };
  let problem = numbers(cfg.schedule.map((b, i) => [`schedule[${i}]`, b, 0]));
  if (problem) return { error: problem };
  if (cfg.reinforcement.length !== 3) return { error: "config: reinforcement must be (win, draw, loss)" };
  const rest = ["win", "draw", "loss"].map((name, i) => [`reinforcement[${name}]`, cfg.reinforcement[i], -Infinity]);
  rest.push(["floor", cfg.floor, 0]);
  if (cfg.move_restock_beads !== null) rest.push(["move_restock_beads", cfg.move_restock_beads, 0]);
  problem = numbers(rest);
  if (problem) return { error: problem };
  if (cfg.move_restock_beads !== null && cfg.move_restock_beads <= cfg.floor) {
    return { error: "config: move_restock_beads must exceed floor" };
  }
  return { cfg };
}

function boxesProblem(boxes, d) {
  if (!Array.isArray(boxes)) return "boxes: must be a list";
  if (boxes.length !== d.boxes.length) {
    return `boxes: filter ${show(d.config.filter)} has ${d.boxes.length} boxes, file has ${boxes.length}`;
  }
  for (let b = 0; b < boxes.length; b++) {
    const box = boxes[b];
    const where = `boxes[${b}]`;
    if (!isObject(box)) return `${where}: must be an object`;
    const extra = Object.keys(box).filter((k) => !BOX_KEYS.includes(k)).sort();
    if (extra.length > 0) return `${where}: unknown field(s) ${show(extra)}`;
    if (box.board !== d.boxes[b]) return `${where}.board: expected ${show(d.boxes[b])}, got ${show(box.board)}`;
    const moves = digits(d.entries[b]);
    if (!Array.isArray(box.moves) || !box.moves.every(isInt) || !sameValue(box.moves, moves)) {
      return `${where}.moves: expected ${show(moves)}, got ${show(box.moves)}`;
    }
    if (!Array.isArray(box.beads) || box.beads.length !== moves.length) return `${where}.beads: must list ${moves.length} counts`;
    for (let j = 0; j < box.beads.length; j++) {
      if (numberProblem("beads", box.beads[j], 0)) {
        return `${where}.beads[${j}]: must be a finite number ≥ 0, got ${show(box.beads[j])}`;
      }
    }
  }
  return "";
}

/**
 * Check a parsed agent file as Menace.from_dict does -> {agent} or {error}. `agent` is
 * {side, config, frozen, games_trained, beads}: one of the widget's MENACEs.
 */
export function readAgent(doc, data) {
  const spec = data.agent_file;
  if (!isObject(doc)) return { error: "agent file: top level must be a JSON object" };
  if (doc.format !== spec.format) return { error: `format: expected ${show(spec.format)}, got ${show(doc.format)}` };
  if (doc.version !== spec.version) {
    return { error: `version: this library reads version ${spec.version}, got ${show(doc.version)}` };
  }
  const extra = Object.keys(doc).filter((k) => !TOP_KEYS.includes(k)).sort();
  if (extra.length > 0) return { error: `agent file: unknown field(s) ${show(extra)}` };
  const { cfg, error } = configProblem(doc.config, spec);
  if (error) return { error };
  const frozen = doc.frozen === undefined ? false : doc.frozen;
  if (typeof frozen !== "boolean") return { error: `frozen: must be true or false, got ${show(frozen)}` };
  const games = doc.games_trained === undefined ? 0 : doc.games_trained;
  if (!isInt(games) || games < 0) return { error: `games_trained: must be an integer ≥ 0, got ${show(games)}` };
  // The browser knows the boxes of the widget's two MENACEs only.
  const d = data.sides[cfg.player];
  if (cfg.filter !== d.config.filter || cfg.layout !== d.config.layout) {
    return {
      error:
        `config: the play widget's ${cfg.player} MENACE has filter ${show(d.config.filter)} and layout ` +
        `${show(d.config.layout)}; this file has filter ${show(cfg.filter)} and layout ${show(cfg.layout)}`,
    };
  }
  const problem = boxesProblem(doc.boxes, d);
  if (problem) return { error: problem };
  return { agent: { side: cfg.player, config: cfg, frozen, games_trained: games, beads: doc.boxes.map((box) => box.beads.slice()) } };
}

/**
 * Where an agent goes in the widget (as PlayWidget.import_agent and
 * play_state.check_agent_fits) -> {settings} or {error}: MENACE's side is the agent's
 * player; the checkpoint is the largest one at or below its games_trained, and the rest
 * counts as games learnt; learning is on unless the agent is frozen.
 */
export function placeAgent(agent, data) {
  const d = data.sides[agent.side];
  for (const [key, ours] of Object.entries(d.config)) {
    if (!sameValue(agent.config[key], ours)) {
      return { error: `config.${key}: the play widget's ${agent.side} MENACE uses ${show(ours)}, this agent has ${show(agent.config[key])}` };
    }
  }
  const eligible = data.checkpoints.filter((n) => d.games_trained[String(n)] <= agent.games_trained);
  if (eligible.length === 0) {
    const first = Math.min(...Object.values(d.games_trained));
    return {
      error: `games_trained: the play widget counts from its first checkpoint (${first} games); this agent has trained ${agent.games_trained}`,
    };
  }
  const checkpoint = Math.max(...eligible);
  return {
    settings: {
      checkpoint,
      human: agent.side === "X" ? "O" : "X",
      learn: !agent.frozen,
      live_beads: agent.beads,
      games_learned: agent.games_trained - d.games_trained[String(checkpoint)],
    },
  };
}

/** The whole import: bytes of a file -> {settings} or {error} (never throws). */
export function importAgentBytes(bytes, data) {
  try {
    const parsed = parseAgentBytes(bytes, data.agent_file);
    if (parsed.error) return parsed;
    const read = readAgent(parsed.doc, data);
    return read.error ? read : placeAgent(read.agent, data);
  } catch (err) {
    return { error: `the file could not be read (${err && err.message ? err.message : err})` };
  }
}
