// Test driver for the HER widget's JavaScript (menace_lib/widgets/her_play.js) and the one
// engine's tables for any game (lab_tables.tablesOf / menaceStructure). Reads a job as JSON
// on stdin and prints what the browser computes:
//   replays:    [{rule, seed, games}]  -> the state after White's moves of `games`
//   structures: [{layout, filter, player, schedule}] -> HER-style boxes on the game
//   links:      [text]                 -> parseLink's answer
import * as her from "../../menace_lib/widgets/her_play.js";
import { menaceStructure, tablesOf } from "../../menace_lib/widgets/lab_tables.js";

let text = "";
for await (const chunk of process.stdin) text += chunk;
const job = JSON.parse(text);
const T = tablesOf(job.data.tables);

const output = {
  replays: (job.replays ?? []).map((r) => {
    try {
      return her.replay(job.data, r.rule, r.seed, r.games);
    } catch (error) {
      return { error: error.message };
    }
  }),
  structures: (job.structures ?? []).map((config) => {
    const s = menaceStructure(T, config);
    return {
      states: s.states,
      entries: s.entries,
      members: s.members,
      initial: s.initial,
      raw_box: Array.from(s.rawBox),
      raw_moves: s.rawSquares.map((row) => row ?? []),
      raw_next: s.rawNext.map((row) => row ?? []),
      opening: Array.from(s.opening, Boolean),
    };
  }),
  links: (job.links ?? []).map((link) => her.parseLink(job.data, link)),
  names: (job.names ?? []).map(([pid, move]) => her.moveName(T, pid, move)),
};
process.stdout.write(JSON.stringify(output));
