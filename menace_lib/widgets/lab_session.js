// The MENACE lab's sessions: MENACE (and a second MENACE, when it is the opponent) playing,
// learning and being evaluated exactly, all in the browser, on the widgets' one game
// engine (lab_engine.js: machineMove, machineLearn) over the tables of lab_tables.js, with
// exact evaluation by lab_exact.js. Only the lab (lab.js) uses it; the play widgets need
// the engine alone. menace_lib/lab.py is the Python twin built from the library's own
// rules (Menace.choose, Menace.reinforce, TableOpponent.move): with the same seed both
// play the same games, because both read the Philox stream in the same order (the
// machine's moves as lab_engine.js says, and):
//
//   scripted opponent's move:        integers(k) if it picks among k > 1 moves, else nothing
//   the reader's move:               nothing
import { RESIGN } from "./beads.js";
import { machineLearn, machineMove, randomStream } from "./lab_engine.js";
import { exactEvaluator } from "./lab_exact.js";
import { LOSS, O, ONGOING, WIN, X, menaceStructure, moveTo, resultFor } from "./lab_tables.js";

export const RESULTS = ["win", "draw", "loss"];
/** Settings that change the boxes themselves: changing one starts MENACE afresh. */
export const STRUCTURAL = ["side", "layout", "filter", "schedule"];
const SIDES = { X, O };

/** The other side's letter. */
export function otherSide(side) {
  return side === "X" ? "O" : "X";
}

/** A MENACE for one side: its boxes (lab_tables.menaceStructure) and live beads. */
function makeMenace(T, settings, side, beads) {
  const structure = menaceStructure(T, {
    layout: settings.layout,
    filter: settings.filter,
    player: SIDES[side],
    schedule: settings.schedule,
  });
  const fresh = !beads || beads.length === 0;
  if (!fresh && beads.length !== structure.states.length) {
    throw new RangeError(`${beads.length} bead lists for ${structure.states.length} boxes`);
  }
  const weights = fresh ? structure.initial.map((w) => w.slice()) : beads.map((w) => w.map(Number));
  const refillCount = settings.move_restock_beads;
  const refill =
    refillCount === null || refillCount === undefined ? structure.initial : structure.initial.map((w) => w.map(() => refillCount));
  const opening = [];
  structure.states.forEach((s, b) => {
    if (structure.opening[s]) opening.push(b);
  });
  return { side, player: SIDES[side], structure, weights, refill, opening };
}

function total(w) {
  let t = 0;
  for (const x of w) t += x;
  return t;
}

/**
 * A growing series in bounded memory (menace_lib.widgets.lab_games.Series): the first `head` points are
 * all kept (the first games, for a log-scale axis); after them every `stride`-th point is
 * kept, and when more than `max` are, every other one is dropped and the stride doubles.
 */
export class Series {
  constructor(saved = null, head = 400, max = 800) {
    this.head = head;
    this.max = max;
    this.stride = saved ? saved.stride : 1;
    this.seen = saved ? saved.seen : 0;
    this.x = saved ? saved.x.slice() : [];
    this.y = saved ? saved.y.map((col) => col.slice()) : null;
  }

  push(x, ys) {
    if (this.y === null || this.y.length === 0) this.y = ys.map(() => []);
    const early = this.seen < this.head;
    if (early || (this.seen - this.head) % this.stride === 0) {
      this.x.push(x);
      ys.forEach((v, i) => this.y[i].push(v));
      if (this.x.length > this.head + this.max) {
        const keep = (_, i) => i < this.head || (i - this.head) % 2 === 0;
        this.x = this.x.filter(keep);
        this.y = this.y.map((col) => col.filter(keep));
        this.stride *= 2;
      }
    }
    this.seen += 1;
  }

  toJSON() {
    return { stride: this.stride, seen: this.seen, x: this.x, y: this.y ?? [] };
  }
}

/**
 * A lab session: settings, both MENACEs, the random stream, the game in progress and the
 * records. `state` (optional) resumes a saved session: {games, position, tally, beads,
 * beads2, stopped, history}.
 */
export class LabSession {
  constructor(T, settings, state = {}) {
    this.T = T;
    this.settings = { ...settings };
    this.menace = makeMenace(T, settings, settings.side, state.beads);
    this.menace2 = makeMenace(T, settings, otherSide(settings.side), state.beads2);
    this.rng = randomStream(settings.seed, state.position ?? 0);
    this.games = state.games ?? 0;
    this.tally = { win: 0, draw: 0, loss: 0, ...(state.tally ?? {}) };
    this.stopped = state.stopped ?? "";
    this.lastBox = -1;
    this.lastResult = null;
    this.lastPath = [];
    const history = state.history ?? {};
    this.beadSeries = new Series(history.beads ?? null);
    this.tallySeries = new Series(history.tally ?? null);
    this.exactSeries = new Series(history.exact ?? null);
    this.exact = state.exact && state.exact.games !== undefined ? { ...state.exact } : null;
    this.evaluator = exactEvaluator(T, this.menace.structure, settings.restock);
    this.newGame();
  }

  /** Change rule settings that keep the boxes (opponent, incentives, restock, ...). */
  updateRules(changes) {
    Object.assign(this.settings, changes);
    const refillCount = this.settings.move_restock_beads;
    for (const m of [this.menace, this.menace2]) {
      m.refill =
        refillCount === null || refillCount === undefined
          ? m.structure.initial
          : m.structure.initial.map((w) => w.map(() => refillCount));
    }
    if ("restock" in changes) this.evaluator = exactEvaluator(this.T, this.menace.structure, this.settings.restock);
    if ("restock" in changes || "empty_box" in changes) this.stopped = "";
    if ("opponent" in changes) this.newGame();
  }

  newGame() {
    this.game = { pid: 0, moves: [], path1: [], path2: [], over: false, result: null, resigned: "" };
    return this.game;
  }

  /** Who moves in the game in progress: "menace", "menace2", "human" or "opponent". */
  mover() {
    const player = this.T.player[this.game.pid];
    if (player === this.menace.player) return "menace";
    const opponent = this.settings.opponent;
    if (opponent === "menace") return "menace2";
    return opponent === "human" ? "human" : "opponent";
  }

  opponentNext(name = this.settings.opponent) {
    const key = name === "perfect" ? `perfect-${this.settings.tie_break}` : name;
    const next = this.T.opponents[key];
    if (!next) throw new RangeError(`unknown opponent ${key}`);
    return next;
  }

  /** A MENACE's move: the next position, or RESIGN / STOP at an empty box (beads rules). */
  menaceMove(m, path) {
    const step = machineMove(m.structure, m.weights, this.game.pid, this.rng, this.settings);
    if (step.index < 0) {
      this.game.emptyBox = step.box;
      return step.move;
    }
    if (step.colour >= 0) {
      path.push([step.box, step.colour]);
      if (m === this.menace) this.lastBox = step.box;
    }
    this.game.moves.push(step.move);
    return step.next;
  }

  /**
   * One move of the game in progress. Returns "moved", "over" (the game just ended and
   * was learnt from), "human" (waiting for the reader), or "stopped" (MENACE met an
   * empty box under the "stop" rule; the game is dropped and the session halts).
   */
  move() {
    if (this.stopped) return "stopped";
    if (this.game.over) this.newGame();
    const who = this.mover();
    if (who === "human") return "human";
    let next;
    if (who === "menace") next = this.menaceMove(this.menace, this.game.path1);
    else if (who === "menace2") next = this.menaceMove(this.menace2, this.game.path2);
    else {
      const options = this.opponentNext()[this.game.pid];
      const j = options.length === 1 ? 0 : this.rng.integers(options.length);
      next = options[j];
      this.game.moves.push(moveTo(this.T, this.game.pid, next));
    }
    if (next < 0) return this.emptyBox(who, next);
    return this.advance(next);
  }

  /** The reader plays `move` (a square); false if it is not their move or it is illegal. */
  humanMove(move) {
    if (this.stopped) return false;
    if (this.game.over) this.newGame();
    if (this.mover() !== "human") return false;
    if (!Number.isInteger(move) || move < 0 || move >= this.T.nMoves) return false;
    const next = this.T.succ[this.game.pid * this.T.nMoves + move];
    if (next < 0) return false;
    this.game.moves.push(move);
    this.advance(next);
    return true;
  }

  advance(next) {
    this.game.pid = next;
    const outcome = this.T.outcome[next];
    if (outcome === ONGOING) return "moved";
    const r1 = resultFor(this.menace.player, outcome);
    this.finish(r1, resultFor(this.menace2.player, outcome));
    return "over";
  }

  /** A MENACE found an empty box that nothing refills: it resigned, or it stops the session. */
  emptyBox(who, move) {
    const m = who === "menace" ? this.menace : this.menace2;
    const opening = m.opening.includes(this.game.emptyBox);
    if (move !== RESIGN) {
      const name = who === "menace" ? "MENACE" : "MENACE 2";
      this.stopped = `${name}'s ${opening ? "opening box" : "box"} ${this.game.emptyBox + 1} is empty`;
      this.newGame();
      return "stopped";
    }
    this.game.resigned = who;
    if (who === "menace") this.finish(LOSS, WIN);
    else this.finish(WIN, LOSS);
    return "over";
  }

  finish(r1, r2) {
    const m1 = this.menace;
    machineLearn(m1.weights, m1.structure.initial, m1.refill, this.game.path1, r1, this.settings);
    if (this.settings.opponent === "menace") {
      const m2 = this.menace2;
      machineLearn(m2.weights, m2.structure.initial, m2.refill, this.game.path2, r2, this.settings);
    }
    this.game.over = true;
    this.game.result = r1;
    this.lastPath = this.game.path1.slice();
    this.lastResult = r1;
    this.games += 1;
    this.tally[RESULTS[r1]] += 1;
    this.beadSeries.push(this.games, this.openingChange());
    this.tallySeries.push(this.games, [this.tally.win, this.tally.draw, this.tally.loss]);
  }

  /** Per opening box of MENACE: its bead total now minus its initial total. */
  openingChange() {
    const m = this.menace;
    return m.opening.map((b) => total(m.weights[b]) - total(m.structure.initial[b]));
  }

  /** Play the game in progress to its end (not against the reader). Returns move()'s last word. */
  playGame() {
    if (this.game.over) this.newGame();
    for (;;) {
      const step = this.move();
      if (step !== "moved") return step;
    }
  }

  /** Exact rates now: draw and loss against the perfect player, win against random. */
  evaluate() {
    const w = this.menace.weights;
    const perfect = this.evaluator(w, this.opponentNext("perfect"));
    const random = this.evaluator(w, this.opponentNext("random"));
    this.exact = { games: this.games, draw: perfect.draw, loss: perfect.loss, win: perfect.win, win_random: random.win };
    const last = this.exactSeries.x.length ? this.exactSeries.x[this.exactSeries.x.length - 1] : -1;
    if (last !== this.games) this.exactSeries.push(this.games, [perfect.draw, perfect.loss, random.win]);
    return this.exact;
  }

  /** The plain state a model stores (and a session resumes from). */
  state() {
    return {
      games: this.games,
      position: this.rng.position,
      tally: { ...this.tally },
      beads: this.menace.weights.map((w) => w.slice()),
      beads2: this.menace2.weights.map((w) => w.slice()),
      stopped: this.stopped,
      exact: this.exact ? { ...this.exact } : {},
      history: { beads: this.beadSeries.toJSON(), tally: this.tallySeries.toJSON(), exact: this.exactSeries.toJSON() },
    };
  }

  /** MENACE (1 or 2) as an agent file that menace_lib.machine.menace.Menace.load reads. */
  agentFile(which = 1, gamesBefore = 0) {
    const m = which === 1 ? this.menace : this.menace2;
    const s = this.settings;
    const boards = this.T.boards;
    return {
      format: "menace_lib.menace",
      version: 1,
      config: {
        filter: s.filter,
        schedule: s.schedule.slice(),
        reinforcement: s.reinforcement.slice(),
        restock: s.restock,
        empty_box: s.empty_box,
        layout: s.layout,
        player: m.side,
        floor: s.floor,
        move_restock_beads: s.move_restock_beads ?? null,
      },
      frozen: false,
      games_trained: gamesBefore + this.games,
      boxes: m.structure.states.map((pid, b) => ({
        board: Array.from(boards.subarray(pid * 9, pid * 9 + 9), (v) => ".XO"[v]).join(""),
        moves: m.structure.entries[b].slice(),
        beads: m.weights[b].slice(),
      })),
    };
  }
}
