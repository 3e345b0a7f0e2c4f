// Test driver for the MENACE lab's JavaScript (tests/test_lab_js.py). Reads a JSON job on
// stdin -- {data: lab_data(), prng?, structures?, opponents?, exact?, replays?} -- runs it
// with the widget's own modules and prints the results as JSON.
import { counterRng, philox4x32 } from "../../menace_lib/widgets/prng.js";
import { LabSession, Series } from "../../menace_lib/widgets/lab_session.js";
import { readAgentFile } from "../../menace_lib/widgets/lab_agent_file.js";
import { gameTables, menaceStructure } from "../../menace_lib/widgets/lab_tables.js";
import { exactEvaluator } from "../../menace_lib/widgets/lab_exact.js";

let text = "";
for await (const chunk of process.stdin) text += chunk;
const job = JSON.parse(text);
const out = {};

if (job.philox) out.philox = job.philox.map(([ctr, key]) => philox4x32(ctr, key));
if (job.streams) {
  out.streams = job.streams.map(({ seed, position, calls }) => {
    const rng = counterRng(seed, position);
    return calls.map((n) => (n === 0 ? rng.random() : rng.integers(n)));
  });
}

if (job.series) {
  out.series = job.series.map((n) => {
    const series = new Series();
    for (let i = 1; i <= n; i++) series.push(i, [i % 7, 0.5 * i]);
    return series.toJSON();
  });
}

const T = job.data ? gameTables(job.data) : null;
if (T && job.tables) {
  out.tables = {
    succ: Array.from(T.succ),
    canon: Array.from(T.canon),
    player: Array.from(T.player),
    ply: Array.from(T.ply),
  };
}
if (T && job.structures) {
  out.structures = job.structures.map((config) => {
    const s = menaceStructure(T, config);
    return {
      states: s.states,
      entries: s.entries,
      members: s.members,
      initial: s.initial,
      rawBox: Array.from(s.rawBox),
      rawSquares: s.rawSquares,
    };
  });
}
if (T && job.opponents) out.opponents = T.opponents;
if (T && job.exact) {
  out.exact = job.exact.map(({ config, restock, beads, opponents }) => {
    const structure = menaceStructure(T, config);
    const evaluate = exactEvaluator(T, structure, restock);
    return opponents.map((name) => evaluate(beads, T.opponents[name]));
  });
}
if (T && job.replays) {
  out.replays = job.replays.map(({ settings, games, state }) => {
    const session = new LabSession(T, settings, state ?? {});
    let played = 0;
    while (played < games && session.playGame() === "over") played += 1;
    return { played, state: session.state(), exact: session.evaluate(), agent: session.agentFile(1) };
  });
}
if (T && job.agentFiles) {
  out.agentFiles = job.agentFiles.map((doc) => {
    try {
      return readAgentFile(T, doc, menaceStructure);
    } catch (error) {
      return { error: error.message };
    }
  });
}
process.stdout.write(JSON.stringify(out));
