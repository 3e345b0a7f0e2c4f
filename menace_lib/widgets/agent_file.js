// The play widget's MENACE as an agent file, in the format menace_lib.machine.menace.Menace.to_dict
// writes and Menace.load reads ({format, version, config, frozen, games_trained, boxes}).
//
// Reading is agent_schema.js's menaceFileProblem, the one browser reader generated from
// the library's JSON Schema and MenaceConfig's rules (the lab uses it too); then the
// boxes' boards and moves against the widget's tables. Two rules are the browser's own: a size
// cap before parsing (data.agent_file.max_bytes), and the file must hold one of the
// widget's two MENACEs (its boxes and rules), because the browser only knows those boxes.

import { digits } from "./common.js";
import { show } from "./play_state.js";
import { menaceConfig, menaceFileProblem, parseAgentBytes as parseBytes } from "./agent_schema.js";

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
 * Bytes of a file -> {doc} or {error}: the one reader of agent files' bytes
 * (agent_schema.js), under the play widget's size cap.
 */
export function parseAgentBytes(bytes, spec) {
  return parseBytes(bytes, spec.max_bytes);
}

/** The boxes' boards and moves against the widget's MENACE (the rest is menaceFileProblem's). */
function boxesProblem(boxes, d) {
  if (boxes.length !== d.boxes.length) {
    return `boxes: filter ${show(d.config.filter)} has ${d.boxes.length} boxes, file has ${boxes.length}`;
  }
  for (let b = 0; b < boxes.length; b++) {
    const box = boxes[b];
    const where = `boxes[${b}]`;
    if (box.board !== d.boxes[b]) return `${where}.board: expected ${show(d.boxes[b])}, got ${show(box.board)}`;
    const moves = digits(d.entries[b]);
    if (!sameValue(box.moves, moves)) return `${where}.moves: expected ${show(moves)}, got ${show(box.moves)}`;
  }
  return "";
}

/**
 * Check a parsed agent file as Menace.from_dict does -> {agent} or {error}. `agent` is
 * {side, config, frozen, games_trained, beads}: one of the widget's MENACEs.
 */
export function readAgent(doc, data) {
  const problem = menaceFileProblem(doc); // the library's schema and rules (agent_schema.js)
  if (problem) return { error: problem };
  const cfg = menaceConfig(doc);
  const frozen = doc.frozen === undefined ? false : doc.frozen;
  const games = doc.games_trained === undefined ? 0 : doc.games_trained;
  // The browser knows the boxes of the widget's two MENACEs only.
  const d = data.sides[cfg.player];
  if (cfg.filter !== d.config.filter || cfg.layout !== d.config.layout) {
    return {
      error:
        `config: the play widget's ${cfg.player} MENACE has filter ${show(d.config.filter)} and layout ` +
        `${show(d.config.layout)}; this file has filter ${show(cfg.filter)} and layout ${show(cfg.layout)}`,
    };
  }
  const boxes = boxesProblem(doc.boxes, d);
  if (boxes) return { error: boxes };
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
