// The page: a board a person sets up or shuffles, and the service's scrambles, hints and
// solutions, played back move by move.
import "./style.css";

import {
  type Move,
  type Shape,
  TILE_DIRECTION,
  applyMove,
  formatBoard,
  goal,
  movedTile,
  parseBoard,
  randomWalk,
  replay,
  sameBoard,
  shuffled,
} from "./board";
import { describeError, millis, randomSeed, solver } from "./client";
import { Sampling, type SearchStats } from "./gen/solver/v2/solver_pb";

/** The shapes Solve and Hint take; Scramble takes only 3x3 and 4x4. */
const MIN_SIDE = 2;
const MAX_SIDE = 8;
/** The largest optimal distance of each shape Scramble draws for. */
const SCRAMBLE_LIMIT: Record<string, number> = { "3x3": 31, "4x4": 80 };
/** How long a Solve may take before the page gives up on it. */
const SOLVE_TIMEOUT_MS = 120_000;

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (found === null) {
    throw new Error(`the page has no #${id}`);
  }
  return found as T;
}

const ui = {
  board: element<HTMLDivElement>("board"),
  boardText: element<HTMLParagraphElement>("board-text"),
  rows: element<HTMLSelectElement>("rows"),
  cols: element<HTMLSelectElement>("cols"),
  tiles: element<HTMLTextAreaElement>("tiles"),
  useTiles: element<HTMLButtonElement>("use-tiles"),
  reset: element<HTMLButtonElement>("reset"),
  shuffle: element<HTMLButtonElement>("shuffle"),
  distance: element<HTMLInputElement>("distance"),
  scramble: element<HTMLButtonElement>("scramble"),
  scrambleNote: element<HTMLParagraphElement>("scramble-note"),
  ratio: element<HTMLInputElement>("ratio"),
  hint: element<HTMLButtonElement>("hint"),
  solve: element<HTMLButtonElement>("solve"),
  status: element<HTMLDivElement>("status"),
  hints: element<HTMLUListElement>("hints"),
  first: element<HTMLButtonElement>("first"),
  back: element<HTMLButtonElement>("back"),
  play: element<HTMLButtonElement>("play"),
  forward: element<HTMLButtonElement>("forward"),
  last: element<HTMLButtonElement>("last"),
  speed: element<HTMLInputElement>("speed"),
  progress: element<HTMLParagraphElement>("progress"),
  moves: element<HTMLParagraphElement>("moves"),
};

/** A solution being shown: every board from the start, and the one on screen. */
interface Playback {
  moves: string;
  frames: number[][];
  index: number;
}

const state = {
  shape: { rows: 3, cols: 3 } as Shape,
  board: goal({ rows: 3, cols: 3 }),
  tiles: [] as HTMLDivElement[],
  playback: null as Playback | null,
  timer: undefined as number | undefined,
  busy: false,
};

const shapeKey = ({ rows, cols }: Shape) => `${rows}x${cols}`;
/** Scramble answers these shapes only. */
const scrambledByService = (shape: Shape) => shapeKey(shape) in SCRAMBLE_LIMIT;

// ---- drawing ----

function buildTiles(): void {
  const { rows, cols } = state.shape;
  ui.board.style.setProperty("--rows", String(rows));
  ui.board.style.setProperty("--cols", String(cols));
  ui.board.replaceChildren();
  state.tiles = [];
  for (let tile = 1; tile < rows * cols; tile++) {
    const node = document.createElement("div");
    node.className = "tile";
    node.dataset.tile = String(tile);
    const face = document.createElement("span");
    face.textContent = String(tile);
    node.append(face);
    node.addEventListener("click", () => slideTile(tile));
    ui.board.append(node);
    state.tiles[tile] = node;
  }
}

function draw(board: readonly number[]): void {
  const { cols } = state.shape;
  board.forEach((tile, cell) => {
    const row = Math.floor(cell / cols);
    const col = cell % cols;
    if (tile !== 0) {
      const node = state.tiles[tile];
      node.style.setProperty("--row", String(row));
      node.style.setProperty("--col", String(col));
      node.dataset.row = String(row);
      node.dataset.col = String(col);
    }
  });
  state.board = board.slice();
  ui.board.dataset.tiles = board.join(" ");
  ui.tiles.value = formatBoard(board, state.shape);
  const blank = board.indexOf(0);
  ui.boardText.textContent =
    formatBoard(board, state.shape)
      .split("\n")
      .map((line, row) => `Row ${row + 1}: ${line.replace(/\b0\b/, "gap")}.`)
      .join(" ") + ` The gap is in row ${Math.floor(blank / cols) + 1}, column ${(blank % cols) + 1}.`;
}

function setStatus(text: string, error = false): void {
  ui.status.textContent = text;
  ui.status.classList.toggle("error", error);
}

function clearHints(): void {
  ui.hints.replaceChildren();
  for (const node of state.tiles) {
    node?.classList.remove("hinted");
  }
}

// ---- setting the board up ----

/** Shows a new board, dropping any solution and hint of the old one. */
function setBoard(board: number[]): void {
  stop();
  state.playback = null;
  clearHints();
  draw(board);
  updatePlayer();
}

function setShape(shape: Shape): void {
  state.shape = shape;
  ui.rows.value = String(shape.rows);
  ui.cols.value = String(shape.cols);
  ui.tiles.rows = shape.rows + 1;
  buildTiles();
  setBoard(goal(shape));
  const limit = SCRAMBLE_LIMIT[shapeKey(shape)];
  ui.distance.max = String(limit ?? 400);
  ui.scrambleNote.textContent = scrambledByService(shape)
    ? `The service draws a board exactly this many moves from the goal (0 to ${limit}).`
    : "The service scrambles 3×3 and 4×4 boards; for this size the page walks this many random " +
      "moves from the goal itself, so the board is at most that far.";
}

/** The blank's move that slides `tile` into the gap, if the tile is next to it. */
function slideTile(tile: number): void {
  for (const move of ["u", "d", "l", "r"] as Move[]) {
    if (movedTile(state.board, state.shape, move) === tile) {
      userMove(move);
      return;
    }
  }
}

function userMove(move: Move): void {
  const tile = movedTile(state.board, state.shape, move);
  const next = applyMove(state.board, state.shape, move);
  if (next === null) {
    return;
  }
  setBoard(next);
  const solved = sameBoard(next, goal(state.shape));
  setStatus(`Tile ${tile} slid ${TILE_DIRECTION[move]}.${solved ? " Solved!" : ""}`);
}

// Arrow keys slide the tile on that side of the gap towards it: Left moves the tile to the
// gap's right leftwards, so the gap goes right.
const ARROWS: Record<string, Move> = { ArrowLeft: "r", ArrowRight: "l", ArrowUp: "d", ArrowDown: "u" };

// ---- the service ----

async function call<T>(what: string, work: () => Promise<T>): Promise<T | undefined> {
  setBusy(true);
  setStatus(`${what}…`);
  try {
    return await work();
  } catch (error) {
    setStatus(`${what} failed. ${describeError(error)}`, true);
    return undefined;
  } finally {
    setBusy(false);
  }
}

function setBusy(busy: boolean): void {
  state.busy = busy;
  ui.status.setAttribute("aria-busy", String(busy));
  for (const button of [ui.solve, ui.hint, ui.scramble, ui.shuffle, ui.useTiles, ui.reset]) {
    button.disabled = busy;
  }
}

function describeStats(stats: SearchStats | undefined, roundTrip: number): string {
  if (stats === undefined) {
    return `${roundTrip.toFixed(0)} ms round trip.`;
  }
  const method = stats.method ? `, ${stats.method}` : "";
  return (
    `Search took ${formatMillis(millis(stats.elapsed))} on the server ` +
    `(${stats.nodes.toLocaleString("en")} nodes${method}); ${roundTrip.toFixed(0)} ms round trip.`
  );
}

function formatMillis(ms: number): string {
  return ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : ms < 1000 ? `${ms.toFixed(1)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

async function solve(): Promise<void> {
  const start = state.board.slice();
  const shape = state.shape;
  const ratio = Number(ui.ratio.value);
  const began = performance.now();
  const reply = await call("Solving", () =>
    solver.solve(
      {
        puzzle: { case: "sliding", value: { rows: shape.rows, cols: shape.cols, start } },
        quality: ratio > 1 ? { maxRatio: ratio } : undefined,
      },
      { timeoutMs: SOLVE_TIMEOUT_MS },
    ),
  );
  if (reply === undefined) {
    return;
  }
  const roundTrip = performance.now() - began;
  const stats = describeStats(reply.stats, roundTrip);
  const cached = reply.cached ? " (from the server's cache)" : "";
  const outcome = reply.outcome;
  if (outcome.case === "unsolvable") {
    setStatus(`This board can never reach the goal: ${outcome.value.reason}\n${stats}`, true);
    return;
  }
  if (outcome.case !== "solution" || outcome.value.kind.case !== "sliding") {
    setStatus(`The service answered with something else (${outcome.case ?? "nothing"}).`, true);
    return;
  }
  const { moves, length, lowerBound } = outcome.value.kind.value;
  const quality =
    lowerBound >= length ? "optimal" : `at most ${(length / Math.max(lowerBound, 1)).toFixed(2)}× optimal: no answer is shorter than ${lowerBound}`;
  setStatus(`Solution: ${length} moves (${quality})${cached}.\n${stats}`);
  clearHints();
  state.playback = { moves, frames: replay(start, shape, moves), index: 0 };
  renderMoves();
  updatePlayer();
  play();
}

async function hint(): Promise<void> {
  const start = state.board.slice();
  const shape = state.shape;
  const began = performance.now();
  const reply = await call("Asking for a hint", () =>
    solver.hint({ rows: shape.rows, cols: shape.cols, start }, { timeoutMs: SOLVE_TIMEOUT_MS }),
  );
  if (reply === undefined) {
    return;
  }
  const stats = describeStats(reply.stats, performance.now() - began);
  clearHints();
  if (reply.distance === 0) {
    setStatus(`This is the goal: nothing to do.\n${stats}`);
    return;
  }
  const best = reply.moves[0];
  const bestTile = movedTile(start, shape, best.direction as Move);
  setStatus(
    `The goal is ${reply.distance} moves away. Best: slide tile ${bestTile} ` +
      `${TILE_DIRECTION[best.direction as Move]}.\n${stats}`,
  );
  for (const move of reply.moves) {
    const direction = move.direction as Move;
    const tile = movedTile(start, shape, direction);
    if (move.distanceAfter < reply.distance) {
      state.tiles[tile]?.classList.add("hinted");
    }
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = `Slide ${tile} ${TILE_DIRECTION[direction]}`;
    button.addEventListener("click", () => userMove(direction));
    const verdict = move.distanceAfter < reply.distance ? "closer" : "farther";
    item.append(button, ` then ${move.distanceAfter} moves left (${verdict})`);
    ui.hints.append(item);
  }
}

async function scramble(): Promise<void> {
  const shape = state.shape;
  const distance = Math.max(0, Math.floor(Number(ui.distance.value) || 0));
  if (!scrambledByService(shape)) {
    setBoard(randomWalk(shape, distance));
    setStatus(`Walked ${distance} random moves from the goal (at most ${distance} moves away).`);
    return;
  }
  const began = performance.now();
  const reply = await call("Scrambling", () =>
    solver.scramble(
      { rows: shape.rows, cols: shape.cols, distance, seed: randomSeed() },
      { timeoutMs: SOLVE_TIMEOUT_MS },
    ),
  );
  if (reply === undefined) {
    return;
  }
  setBoard(reply.board);
  const how = reply.sampling === Sampling.UNIFORM ? "uniformly at random" : "by a random walk";
  setStatus(
    `A board exactly ${reply.distance} moves from the goal, drawn ${how} (seed ${reply.seed}).\n` +
      describeStats(reply.stats, performance.now() - began),
  );
}

// ---- playback ----

function showFrame(index: number): void {
  const playback = state.playback;
  if (playback === null) {
    return;
  }
  playback.index = Math.max(0, Math.min(index, playback.frames.length - 1));
  draw(playback.frames[playback.index]);
  for (const node of state.tiles) {
    node?.classList.remove("moving");
  }
  if (playback.index > 0) {
    const previous = playback.frames[playback.index - 1];
    state.tiles[movedTile(previous, state.shape, playback.moves[playback.index - 1] as Move)]?.classList.add("moving");
  }
  renderMoves();
  updatePlayer();
}

function renderMoves(): void {
  const playback = state.playback;
  if (playback === null) {
    ui.moves.replaceChildren();
    return;
  }
  const done = document.createElement("span");
  done.className = "done";
  done.textContent = playback.moves.slice(0, Math.max(playback.index - 1, 0));
  const current = document.createElement("span");
  current.className = "current";
  current.textContent = playback.index > 0 ? playback.moves[playback.index - 1] : "";
  ui.moves.replaceChildren(done, current, playback.moves.slice(playback.index));
}

function updatePlayer(): void {
  const playback = state.playback;
  const playing = state.timer !== undefined;
  ui.board.dataset.playing = String(playing);
  ui.play.textContent = playing ? "Pause" : "Play";
  const none = playback === null;
  const atStart = none || playback.index === 0;
  const atEnd = none || playback.index === playback.frames.length - 1;
  ui.first.disabled = atStart;
  ui.back.disabled = atStart;
  ui.forward.disabled = atEnd;
  ui.last.disabled = atEnd;
  ui.play.disabled = none || (atEnd && playback.moves.length === 0);
  if (none) {
    ui.progress.textContent = "No solution loaded.";
    delete ui.board.dataset.step;
    return;
  }
  const total = playback.moves.length;
  ui.board.dataset.step = String(playback.index);
  let text = `Move ${playback.index} of ${total}`;
  if (playback.index > 0) {
    const move = playback.moves[playback.index - 1] as Move;
    const tile = movedTile(playback.frames[playback.index - 1], state.shape, move);
    text += `: tile ${tile} slid ${TILE_DIRECTION[move]}`;
  }
  if (atEnd && total > 0) {
    text += ". Solved.";
  } else if (total === 0) {
    text = "The board is already the goal: 0 moves.";
  }
  ui.progress.textContent = text;
}

function stepTime(): number {
  return Number(ui.speed.value);
}

function play(): void {
  const playback = state.playback;
  if (playback === null || state.timer !== undefined) {
    return;
  }
  if (playback.index === playback.frames.length - 1) {
    showFrame(0);
  }
  const tick = () => {
    const current = state.playback;
    if (current === null || current.index >= current.frames.length - 1) {
      stop();
      return;
    }
    ui.board.style.setProperty("--slide", `${Math.min(stepTime() * 0.8, 250)}ms`);
    showFrame(current.index + 1);
    state.timer = window.setTimeout(tick, stepTime());
  };
  state.timer = window.setTimeout(tick, Math.min(stepTime(), 200));
  updatePlayer();
}

function stop(): void {
  if (state.timer !== undefined) {
    window.clearTimeout(state.timer);
    state.timer = undefined;
  }
  updatePlayer();
}

function step(delta: number): void {
  stop();
  if (state.playback !== null) {
    showFrame(state.playback.index + delta);
  }
}

// ---- wiring ----

function start(): void {
  for (let side = MIN_SIDE; side <= MAX_SIDE; side++) {
    ui.rows.append(new Option(String(side), String(side)));
    ui.cols.append(new Option(String(side), String(side)));
  }
  const changeShape = () => setShape({ rows: Number(ui.rows.value), cols: Number(ui.cols.value) });
  ui.rows.addEventListener("change", changeShape);
  ui.cols.addEventListener("change", changeShape);

  ui.useTiles.addEventListener("click", () => {
    const board = parseBoard(ui.tiles.value, state.shape);
    if (typeof board === "string") {
      setStatus(`Those tiles do not make a board: ${board}.`, true);
      ui.tiles.focus();
      return;
    }
    setBoard(board);
    setStatus("Board set.");
  });
  ui.reset.addEventListener("click", () => {
    setBoard(goal(state.shape));
    setStatus("The goal.");
  });
  ui.shuffle.addEventListener("click", () => {
    setBoard(shuffled(state.shape));
    setStatus("Shuffled: a random board that can reach the goal.");
  });
  ui.scramble.addEventListener("click", () => void scramble());
  ui.hint.addEventListener("click", () => void hint());
  ui.solve.addEventListener("click", () => void solve());

  ui.play.addEventListener("click", () => (state.timer === undefined ? play() : stop()));
  ui.first.addEventListener("click", () => step(-Infinity));
  ui.back.addEventListener("click", () => step(-1));
  ui.forward.addEventListener("click", () => step(1));
  ui.last.addEventListener("click", () => step(Infinity));

  ui.board.addEventListener("keydown", (event) => {
    const move = ARROWS[event.key];
    if (move !== undefined) {
      event.preventDefault();
      userMove(move);
    }
  });

  setShape({ rows: 3, cols: 3 });
  document.documentElement.dataset.ready = "true";
}

start();
