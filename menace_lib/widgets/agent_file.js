// The play widget's MENACE as an agent file, in the format menace_lib.menace.Menace.to_dict
// writes and Menace.load reads ({format, version, config, frozen, games_trained, boxes}).
//
// Reading mirrors Menace.load: the shapes, types, ranges and allowed keys come from the
// format's own JSON Schema (menace_lib/schemas, shipped in data.agent_file.schema), and
// the checks a schema cannot make follow Menace.from_dict and MenaceConfig (defaults for
// missing config fields, schedule and refill against the clamp level, beads at or above
// it, no empty box under move or box restock). Two rules are the browser's own: a size
// cap before parsing (data.agent_file.max_bytes), and the file must hold one of the
// widget's two MENACEs (its boxes and rules), because the browser only knows those boxes.

import { digits } from "./common.js";
import { numberProblem, show } from "./play_state.js";

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const isInt = (v) => typeof v === "number" && Number.isInteger(v);
const sameValue = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** Keys of `value` that `schemaNode` does not list (its additionalProperties is false). */
function unknownKeys(value, schemaNode) {
  return Object.keys(value).filter((k) => !(k in schemaNode.properties)).sort();
}

/** A number within a schema node's [minimum, maximum] (and >= `atLeast`), or a message. */
function rangeProblem(where, value, node, atLeast = -Infinity) {
  const low = Math.max(node.minimum, atLeast);
  return (
    numberProblem(where, value, low) ||
    (value > node.maximum ? `${where} must be ≤ ${node.maximum}, got ${show(value)}` : "")
  );
}

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
  const schema = spec.schema.$defs.config;
  const defs = spec.schema.$defs;
  if (!isObject(raw)) return "config: must be an object";
  const extra = unknownKeys(raw, schema);
  if (extra.length > 0) return `config: unknown field(s) ${show(extra)}`;
  const cfg = { ...spec.config_defaults, ...raw };
  for (const key of ["filter", "restock", "empty_box", "layout", "player"]) {
    const allowed = schema.properties[key].enum;
    if (!allowed.includes(cfg[key])) return `config.${key}: must be one of ${show(allowed)}, got ${show(cfg[key])}`;
  }
  const lists = { schedule: defs.beads, reinforcement: defs.reinforcement };
  for (const [key, item] of Object.entries(lists)) {
    const node = schema.properties[key];
    const list = cfg[key];
    if (!Array.isArray(list) || list.length < node.minItems || list.length > node.maxItems) {
      return `config.${key}: must list ${node.minItems} to ${node.maxItems} numbers, got ${show(list)}`;
    }
    for (let i = 0; i < list.length; i++) {
      const problem = rangeProblem(`config.${key}[${i}]`, list[i], item);
      if (problem) return problem;
    }
  }
  const problem =
    rangeProblem("config.floor", cfg.floor, defs.beads) ||
    (cfg.move_restock_beads === null ? "" : rangeProblem("config.move_restock_beads", cfg.move_restock_beads, defs.beads));
  if (problem) return problem;
  // MenaceConfig's own rules, beyond the schema.
  if (cfg.move_restock_beads !== null && cfg.move_restock_beads <= cfg.floor) {
    return `config: move_restock_beads must exceed floor (${cfg.floor}), got ${cfg.move_restock_beads}`;
  }
  for (let i = 0; i < cfg.schedule.length; i++) {
    if (cfg.schedule[i] < cfg.floor) return `config: schedule[${i}] must be ≥ floor (${cfg.floor}), got ${cfg.schedule[i]}`;
  }
  return { cfg };
}

function boxesProblem(boxes, d, cfg, spec) {
  const defs = spec.schema.$defs;
  if (!Array.isArray(boxes)) return "boxes: must be a list";
  if (boxes.length !== d.boxes.length) {
    return `boxes: filter ${show(d.config.filter)} has ${d.boxes.length} boxes, file has ${boxes.length}`;
  }
  for (let b = 0; b < boxes.length; b++) {
    const box = boxes[b];
    const where = `boxes[${b}]`;
    if (!isObject(box)) return `${where}: must be an object`;
    const extra = unknownKeys(box, defs.box);
    if (extra.length > 0) return `${where}: unknown field(s) ${show(extra)}`;
    if (box.board !== d.boxes[b]) return `${where}.board: expected ${show(d.boxes[b])}, got ${show(box.board)}`;
    const moves = digits(d.entries[b]);
    if (!Array.isArray(box.moves) || !box.moves.every(isInt) || !sameValue(box.moves, moves)) {
      return `${where}.moves: expected ${show(moves)}, got ${show(box.moves)}`;
    }
    if (!Array.isArray(box.beads) || box.beads.length !== moves.length) return `${where}.beads: must list ${moves.length} counts`;
    for (let j = 0; j < box.beads.length; j++) {
      const problem = rangeProblem(`${where}.beads[${j}]`, box.beads[j], defs.beads, cfg.floor);
      if (problem) return problem;
    }
    if (cfg.restock !== "none" && box.beads.reduce((a, x) => a + x, 0) <= 0) {
      return `${where}.beads: an empty box cannot arise under restock ${show(cfg.restock)}`;
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
  const top = spec.schema;
  if (!isObject(doc)) return { error: "agent file: top level must be a JSON object" };
  if (doc.format !== spec.format) return { error: `format: expected ${show(spec.format)}, got ${show(doc.format)}` };
  if (doc.version !== spec.version) {
    return { error: `version: this library reads version ${spec.version}, got ${show(doc.version)}` };
  }
  const extra = unknownKeys(doc, top);
  if (extra.length > 0) return { error: `agent file: unknown field(s) ${show(extra)}` };
  const missing = top.required.filter((k) => !(k in doc));
  if (missing.length > 0) return { error: `agent file: missing field(s) ${show(missing)}` };
  const checked = configProblem(doc.config, spec);
  if (typeof checked === "string") return { error: checked };
  const { cfg } = checked;
  const frozen = doc.frozen === undefined ? false : doc.frozen;
  if (typeof frozen !== "boolean") return { error: `frozen: must be true or false, got ${show(frozen)}` };
  const games = doc.games_trained === undefined ? 0 : doc.games_trained;
  const range = top.properties.games_trained;
  if (!isInt(games) || games < range.minimum || games > range.maximum) {
    return { error: `games_trained: must be an integer from ${range.minimum} to ${range.maximum}, got ${show(games)}` };
  }
  // The browser knows the boxes of the widget's two MENACEs only.
  const d = data.sides[cfg.player];
  if (cfg.filter !== d.config.filter || cfg.layout !== d.config.layout) {
    return {
      error:
        `config: the play widget's ${cfg.player} MENACE has filter ${show(d.config.filter)} and layout ` +
        `${show(d.config.layout)}; this file has filter ${show(cfg.filter)} and layout ${show(cfg.layout)}`,
    };
  }
  const problem = boxesProblem(doc.boxes, d, cfg, spec);
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
