// The lab's Import: an agent file read against the lab's tables, with the library's rules
// (agent_schema.js, made from its JSON Schema). Kept apart from the engine (lab_engine.js)
// so the play widgets that do not import files do not carry the schema.
import { menaceConfig, menaceFileProblem } from "./agent_schema.js";

const SIDES = { X: 1, O: 2 };

/**
 * Check an agent file (parsed JSON) against the lab's tables; returns {settings, beads,
 * games} for a new session, or throws an Error naming the first bad field: first
 * agent_schema.js's menaceFileProblem (the library's schema and rules), then the boxes'
 * boards and moves against the lab's tables, as menace_lib.machine.menace.Menace.from_dict does.
 * `menaceStructure` is the engine's box builder (lab_tables.menaceStructure).
 */
export function readAgentFile(T, doc, menaceStructure) {
  const problem = menaceFileProblem(doc); // the library's rules, made from its JSON Schema
  if (problem) throw new Error(problem);
  const c = menaceConfig(doc);
  if (c.game !== undefined && c.game !== "noughts-and-crosses") {
    // A file of another game is a good file, just not this lab's: say so, and where it plays.
    throw new Error(
      `config.game: this file holds a MENACE for ${JSON.stringify(c.game)}; this lab plays noughts and crosses ` +
        "(HER's page plays Hexapawn; python -m menace_lib lab --game hexapawn runs it on the command line)",
    );
  }
  const number = (name, v, min = -Infinity) => {
    if (typeof v !== "number" || !Number.isFinite(v) || v < min) throw new Error(`${name}: must be a finite number >= ${min}, got ${JSON.stringify(v)}`);
    return v;
  };
  const settings = {
    filter: c.filter ?? "michie",
    layout: c.layout ?? "square",
    side: c.player ?? "X",
    schedule: (c.schedule ?? [4, 3, 2, 1]).map((v, i) => number(`config.schedule[${i}]`, v, 0)),
    reinforcement: (c.reinforcement ?? [3, 1, -1]).map((v, i) => number(`config.reinforcement[${i}]`, v)),
    restock: c.restock ?? "box",
    empty_box: c.empty_box ?? "resign",
    floor: number("config.floor", c.floor ?? 0, 0),
    move_restock_beads: c.move_restock_beads ?? null,
  };
  if (!T.filters.includes(settings.filter)) throw new Error(`config.filter: unknown filter ${JSON.stringify(settings.filter)}`);
  if (!["square", "class"].includes(settings.layout)) throw new Error(`config.layout: unknown layout ${JSON.stringify(settings.layout)}`);
  if (!(settings.side in SIDES)) throw new Error(`config.player: must be 'X' or 'O', got ${JSON.stringify(settings.side)}`);
  if (!["none", "move", "box"].includes(settings.restock)) throw new Error(`config.restock: unknown restock ${JSON.stringify(settings.restock)}`);
  if (!["resign", "stop", "web"].includes(settings.empty_box)) throw new Error(`config.empty_box: unknown rule ${JSON.stringify(settings.empty_box)}`);
  if (settings.schedule.length === 0) throw new Error("config.schedule: must list at least one bead count");
  if (settings.reinforcement.length !== 3) throw new Error("config.reinforcement: must be (win, draw, loss)");
  if (settings.move_restock_beads !== null) number("config.move_restock_beads", settings.move_restock_beads, 0);
  const structure = menaceStructure(T, { ...settings, player: SIDES[settings.side] });
  const boxes = doc.boxes;
  if (!Array.isArray(boxes) || boxes.length !== structure.states.length) {
    throw new Error(`boxes: filter '${settings.filter}' has ${structure.states.length} boxes, file has ${Array.isArray(boxes) ? boxes.length : "none"}`);
  }
  const beads = boxes.map((box, b) => {
    const pid = structure.states[b];
    const board = Array.from(T.boards.subarray(pid * 9, pid * 9 + 9), (v) => ".XO"[v]).join("");
    if (!box || box.board !== board) throw new Error(`boxes[${b}].board: expected '${board}', got ${JSON.stringify(box && box.board)}`);
    const moves = structure.entries[b];
    if (!Array.isArray(box.moves) || box.moves.join(",") !== moves.join(",")) {
      throw new Error(`boxes[${b}].moves: expected [${moves.join(", ")}]`);
    }
    if (!Array.isArray(box.beads) || box.beads.length !== moves.length) throw new Error(`boxes[${b}].beads: must list ${moves.length} counts`);
    return box.beads.map((v, j) => number(`boxes[${b}].beads[${j}]`, v, 0));
  });
  const games = Number.isInteger(doc.games_trained) && doc.games_trained >= 0 ? doc.games_trained : 0;
  return { settings, beads, games };
}
