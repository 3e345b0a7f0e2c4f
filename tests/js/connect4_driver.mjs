// Test driver for the Connect-4 widget's JavaScript (tests/test_connect4_widget.py). Reads
// a JSON job on stdin -- {data, codes?, games?, states?} -- runs it with the widget's own
// module and prints the results as JSON.
import { counterRng } from "../../menace_lib/widgets/prng.js";
import {
  boxOf,
  humanMove,
  machine,
  newGame,
  stateProblem,
  turnOf,
} from "../../menace_lib/widgets/connect4.js";

let text = "";
for await (const chunk of process.stdin) text += chunk;
const job = JSON.parse(text);
const data = job.data;
const { rules } = machine(data);
const out = {};

// Every position by code: result, cells, children, canonical code and MENACE's box, one
// array per field (columns, not one object per position: parsing 161,029 objects' keys
// again and again cost the test more than the check itself).
if (job.codes) {
  const cols = { code: [], cells: [], result: [], children: [], canonical: [], win: [], box: [] };
  for (const code of job.codes) {
    const board = rules.split(code);
    const cells = [];
    for (let r = 0; r < rules.height; r++) for (let c = 0; c < rules.width; c++) cells.push(rules.cell(board, r, c));
    const result = rules.result(board);
    const free = result === 0 ? rules.legal(board[1]) : [];
    const children = [];
    for (let c = 0; c < rules.width; c++) children.push(free.includes(c) ? rules.code(rules.play(board, c)) : -1);
    const mine = result === 0 && rules.toMove(board) === data.player;
    const box = mine ? boxOf(data, board) : null;
    cols.code.push(rules.code(board));
    cols.cells.push(cells.join(""));
    cols.result.push(result);
    cols.children.push(children);
    cols.canonical.push(rules.canonical(board).code);
    cols.win.push(rules.winningCells(board));
    cols.box.push(box && [box.code, box.columns, box.beads]);
  }
  out.positions = cols;
}

// Whole games: MENACE's draws from `seed`, the reader's columns from a second stream.
if (job.games) {
  out.games = job.games.map(({ seed, learn, games, reader }) => {
    const pick = counterRng(reader);
    let s = {
      seed, learn, moves: [], result: "", tally: { menace: 0, draw: 0, human: 0 }, draws: 0,
      learned: {}, games_learned: 0, path: [], last: {},
    };
    const played = [];
    for (let g = 0; g < games; g++) {
      s = newGame(data, s);
      while (turnOf(data, s) === "human") {
        const free = rules.legal(boardOf(s)[1]);
        s = humanMove(data, s, free[pick.integers(free.length)]);
      }
      played.push({ moves: s.moves, result: s.result, path: s.path, last: s.last });
    }
    return { played, state: s };
  });
}

function boardOf(s) {
  let board = rules.start();
  for (const c of s.moves) board = rules.play(board, c);
  return board;
}

if (job.states) out.states = job.states.map((s) => stateProblem(data, s));

process.stdout.write(JSON.stringify(out));
