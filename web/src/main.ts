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
  replay,
  sameBoard,
  shuffled,
  solvable,
} from "./board";
import { describeError, endedWithoutAnswer, isCancel, isDeadline, millis, randomSeed, solver } from "./client";
import {
  Sampling,
  type SearchStats,
  SolvePhase,
  type SolveProgress,
  type SolveResponse,
} from "./gen/solver/v2/solver_pb";

/** The shapes Solve, Hint and Scramble take. */
const MIN_SIDE = 2;
const MAX_SIDE = 8;
/**
 * The largest optimal distance of the shapes whose radius complete searches have measured (the
 * shorter side first): Scramble takes 0 to that. On larger shapes it takes up to
 * rows·cols·(rows+cols), above every known bound on their radius.
 */
const KNOWN_RADIUS: Record<string, number> = {
  "2x2": 6,
  "2x3": 21,
  "2x4": 36,
  "3x3": 31,
  "2x5": 55,
  "3x4": 53,
  "2x6": 80,
  "2x7": 108,
  "3x5": 84,
  "4x4": 80,
  "2x8": 140,
};
/** How long a call may take before the page gives up on it (the server's own limit is shorter). */
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
  tilesError: element<HTMLParagraphElement>("tiles-error"),
  useTiles: element<HTMLButtonElement>("use-tiles"),
  reset: element<HTMLButtonElement>("reset"),
  shuffle: element<HTMLButtonElement>("shuffle"),
  distance: element<HTMLInputElement>("distance"),
  distanceError: element<HTMLParagraphElement>("distance-error"),
  scramble: element<HTMLButtonElement>("scramble"),
  scrambleNote: element<HTMLParagraphElement>("scramble-note"),
  ratio: element<HTMLInputElement>("ratio"),
  ratioError: element<HTMLParagraphElement>("ratio-error"),
  hint: element<HTMLButtonElement>("hint"),
  solve: element<HTMLButtonElement>("solve"),
  status: element<HTMLDivElement>("status"),
  cancel: element<HTMLButtonElement>("cancel"),
  hints: element<HTMLUListElement>("hints"),
  first: element<HTMLButtonElement>("first"),
  back: element<HTMLButtonElement>("back"),
  play: element<HTMLButtonElement>("play"),
  forward: element<HTMLButtonElement>("forward"),
  last: element<HTMLButtonElement>("last"),
  speed: element<HTMLInputElement>("speed"),
  progress: element<HTMLParagraphElement>("progress"),
  moves: element<HTMLParagraphElement>("moves"),
  movesLegend: element<HTMLParagraphElement>("moves-legend"),
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
  /** Aborts the call in flight (Cancel). */
  abort: null as AbortController | null,
};

const shapeName = ({ rows, cols }: Shape) => `${rows}×${cols}`;

/** The farthest distance Scramble takes for `shape`, and whether it is the shape's radius. */
function scrambleLimit({ rows, cols }: Shape): { max: number; radius: boolean } {
  const radius = KNOWN_RADIUS[`${Math.min(rows, cols)}x${Math.max(rows, cols)}`];
  return radius !== undefined ? { max: radius, radius: true } : { max: rows * cols * (rows + cols), radius: false };
}

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

/** Shows `board`; the Tiles box is rewritten to it unless `keepText` (it is what was typed). */
function draw(board: readonly number[], keepText = false): void {
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
  if (!keepText) {
    ui.tiles.value = formatBoard(board, state.shape);
    showTilesNote(board);
  }
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

/** Shows `message` beside `input` (its aria-describedby), or clears it when empty. */
function setFieldError(input: HTMLElement, box: HTMLElement, message: string, invalid = message !== ""): void {
  box.textContent = message;
  if (invalid) {
    input.setAttribute("aria-invalid", "true");
  } else {
    input.removeAttribute("aria-invalid");
  }
}

/** A valid board's note beside the Tiles box: none, or that it can never reach the goal. */
function showTilesNote(board: readonly number[]): void {
  const note = solvable(board, state.shape)
    ? ""
    : "This board can never reach the goal (it is an odd number of swaps from it): Solve will say so.";
  setFieldError(ui.tiles, ui.tilesError, note, false);
}

/** The board typed in the Tiles box, or null with what is wrong shown beside it. */
function typedBoard(): number[] | null {
  const board = parseBoard(ui.tiles.value, state.shape);
  if (typeof board === "string") {
    setFieldError(ui.tiles, ui.tilesError, `Not a board: ${board}.`);
    return null;
  }
  showTilesNote(board);
  return board;
}

/**
 * The board Hint and Solve ask about: the one typed in the Tiles box (put on screen when it is
 * not there yet), or null, with the reason beside the box, when the text is not a board.
 */
function boardToAsk(what: string): number[] | null {
  // A solution still playing would move the board away from the one asked about.
  stop();
  const board = typedBoard();
  if (board === null) {
    setStatus(`${what}: nothing asked, the Tiles box does not hold a board.`, true);
    ui.tiles.focus();
    return null;
  }
  if (!sameBoard(board, state.board)) {
    setBoard(board);
  }
  return board;
}

/** The ratio typed for Solve, or null with what is wrong shown beside the field. */
function typedRatio(): number | null {
  const text = ui.ratio.value.trim();
  const ratio = Number(text);
  let problem = "";
  if (text === "" || !Number.isFinite(ratio)) {
    problem = "Enter a number, 1 or more (1 asks for an optimal answer).";
  } else if (ratio < 1) {
    problem = `${text} is below 1: no answer is shorter than the optimal one. Use 1 (optimal) or more.`;
  }
  setFieldError(ui.ratio, ui.ratioError, problem);
  return problem === "" ? ratio : null;
}

/** The distance typed for Scramble, or null with what is wrong shown beside the field. */
function typedDistance(): number | null {
  const text = ui.distance.value.trim();
  const distance = Number(text);
  const { max } = scrambleLimit(state.shape);
  let problem = "";
  if (text === "" || !Number.isInteger(distance) || distance < 0) {
    problem = `Enter a whole number of moves, 0 to ${max}.`;
  } else if (distance > max) {
    problem = `${distance} is more than a ${shapeName(state.shape)} scramble may ask: 0 to ${max}.`;
  }
  setFieldError(ui.distance, ui.distanceError, problem);
  return problem === "" ? distance : null;
}

function clearHints(): void {
  ui.hints.replaceChildren();
  for (const node of state.tiles) {
    node?.classList.remove("hinted");
  }
}

// ---- setting the board up ----

/** Shows a new board, dropping any solution and hint of the old one. */
function setBoard(board: number[], keepText = false): void {
  stop();
  state.playback = null;
  clearHints();
  draw(board, keepText);
  renderMoves();
  updatePlayer();
}

function setShape(shape: Shape): void {
  state.shape = shape;
  ui.rows.value = String(shape.rows);
  ui.cols.value = String(shape.cols);
  ui.tiles.rows = shape.rows + 1;
  buildTiles();
  setBoard(goal(shape));
  const { max, radius } = scrambleLimit(shape);
  ui.distance.max = String(max);
  if (Number(ui.distance.value) > max) {
    ui.distance.value = String(max);
  }
  const name = shapeName(shape);
  const range = radius
    ? `0 to ${max}, the farthest any ${name} board is`
    : `0 to ${max}; how far a ${name} board can be is not known`;
  let how: string;
  if (name === "3×3") {
    how = "uniformly at random, from its table of every 3×3 board.";
  } else if (name === "4×4") {
    how =
      "uniformly at random for far distances; for near ones, by a random walk from the goal " +
      "kept once its optimal search measures exactly that distance.";
  } else {
    how =
      "by a random walk from the goal, kept once its optimal search measures exactly that " +
      "distance. Far distances on large boards take long and may run out of the server's time limit.";
  }
  ui.scrambleNote.textContent = `The service draws a board exactly this many moves from the goal (${range}), ${how}`;
  typedDistance();
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
  if (state.busy) {
    return;
  }
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

/** How a call that does not answer may end other than as a failure (Solve keeps its best so far). */
interface CallEnd {
  /** The Cancel button's label while the call runs. */
  stopLabel?: string;
  /**
   * Told why the call stopped without its answer (cancelled, past its deadline, failed); returns
   * whether it said so itself, else the page reports it as usual.
   */
  stopped?: (why: string) => boolean;
}

/**
 * Runs one call of the service with the page busy (Cancel aborts it); a failure is reported
 * beside the input it names when there is one, else in the status.
 */
async function call<T>(
  what: string,
  from: HTMLButtonElement,
  work: (signal: AbortSignal) => Promise<T>,
  end: CallEnd = {},
): Promise<T | undefined> {
  const controller = new AbortController();
  state.abort = controller;
  ui.cancel.textContent = end.stopLabel ?? "Cancel";
  setBusy(true);
  setStatus(`${what}…`);
  try {
    return await work(controller.signal);
  } catch (error) {
    const cancelled = controller.signal.aborted || isCancel(error);
    if (end.stopped?.(whyStopped(cancelled, error))) {
      return undefined;
    }
    if (cancelled) {
      setStatus(`${what}: cancelled.`);
    } else {
      reportFailure(what, error);
    }
    return undefined;
  } finally {
    state.abort = null;
    const wasOnCancel = document.activeElement === ui.cancel;
    setBusy(false);
    if (wasOnCancel || document.activeElement === document.body) {
      from.focus();
    }
  }
}

/** Why a call ended without its answer, as the start of a sentence. */
function whyStopped(cancelled: boolean, error: unknown): string {
  if (cancelled) {
    return "Cancelled";
  }
  if (isDeadline(error)) {
    return `The page's time limit (${SOLVE_TIMEOUT_MS / 1000} s) passed`;
  }
  return `The service stopped the search (${describeError(error)})`;
}

/** Where a request's field is typed: the service names it in INVALID_ARGUMENT ("field: why"). */
function inputOf(field: string): [HTMLElement, HTMLElement] | null {
  const name = field.split(".").pop() ?? field;
  if (name === "max_ratio") {
    return [ui.ratio, ui.ratioError];
  }
  if (name === "distance") {
    return [ui.distance, ui.distanceError];
  }
  // The page always asks for the standard goal: a target it cannot reach is the typed board's doing.
  if (["start", "target", "rows", "cols", "sliding", "puzzle"].includes(name)) {
    return [ui.tiles, ui.tilesError];
  }
  return null;
}

function reportFailure(what: string, error: unknown): void {
  const text = describeError(error);
  const named = /^InvalidArgument: ([\w.]+): (.*)$/s.exec(text);
  const input = named === null ? null : inputOf(named[1]);
  if (named !== null && input !== null) {
    setFieldError(input[0], input[1], `The service refused this: ${named[2]}`);
    setStatus(`${what} failed: see beside the field.`, true);
    input[0].focus();
    return;
  }
  setStatus(`${what} failed. ${text}`, true);
}

function setBusy(busy: boolean): void {
  state.busy = busy;
  ui.status.setAttribute("aria-busy", String(busy));
  for (const control of [ui.solve, ui.hint, ui.scramble, ui.shuffle, ui.useTiles, ui.reset, ui.rows, ui.cols]) {
    control.disabled = busy;
  }
  ui.tiles.readOnly = busy;
  ui.cancel.hidden = !busy;
  ui.cancel.disabled = !busy;
}

function cancel(): void {
  state.abort?.abort();
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

/** A SolveWatch call as it goes: its last progress message and when it came. */
interface Watch {
  began: number;
  progress?: SolveProgress;
  /** performance.now() when `progress` came. */
  at: number;
  /** The ratio asked for (1: optimal). */
  ratio: number;
}

/** How often the live line's elapsed time ticks between the server's messages. */
const TICK_MS = 100;
/** A proven ratio, rounded up so that what is shown is still proven (bar float noise). */
const formatRatio = (ratio: number) => (Math.ceil(ratio * 1000 - 1e-6) / 1000).toFixed(3);

function describePhase(watch: Watch): string {
  const progress = watch.progress;
  switch (progress?.phase) {
    case undefined:
      return "asking the service";
    case SolvePhase.TABLES:
      return progress.tablesDone > 0
        ? `building tables ${Math.floor(progress.tablesDone * 100)} %`
        : "loading or building tables";
    case SolvePhase.BOUNDING:
      return "finding a first answer";
    case SolvePhase.SEARCHING:
      return watch.ratio > 1
        ? `searching for an answer within ${watch.ratio}× the optimum`
        : "searching for the optimum";
    default:
      return "waiting for the server";
  }
}

/** The live line: phase · proven bound · best so far · nodes · elapsed (ticking locally). */
function describeWatch(watch: Watch): string {
  const progress = watch.progress;
  const parts = [describePhase(watch)];
  let elapsed = performance.now() - watch.began;
  if (progress !== undefined) {
    if (progress.lowerBound > 0) {
      parts.push(`optimum ≥ ${progress.lowerBound} moves`);
    }
    if (progress.best !== undefined) {
      const ratio = progress.bestRatio > 0 ? ` (≤ ${formatRatio(progress.bestRatio)}× optimal)` : "";
      parts.push(`best so far ${progress.best.length} moves${ratio}`);
    }
    parts.push(`${progress.nodes.toLocaleString("en")} nodes`);
    elapsed = millis(progress.elapsed) + performance.now() - watch.at;
  }
  parts.push(`${(elapsed / 1000).toFixed(1)} s`);
  return parts.join(" · ");
}

// The ticking line is kept out of the status's announcements (aria-live off, and the status is
// aria-busy while solving): a screen reader hears the result, not every tick.
const liveLine = document.createElement("span");
liveLine.setAttribute("aria-live", "off");

function showWatch(watch: Watch): void {
  if (liveLine.parentNode !== ui.status) {
    ui.status.replaceChildren("Solving… (Stop or Escape keeps the best answer found so far)\n", liveLine);
    ui.status.classList.remove("error");
  }
  liveLine.textContent = describeWatch(watch);
}

/** Loads a solution of `start` into the player and plays it. */
function loadSolution(start: number[], shape: Shape, moves: string): void {
  clearHints();
  state.playback = { moves, frames: replay(start, shape, moves), index: 0 };
  renderMoves();
  updatePlayer();
  play();
}

/**
 * A Solve stopped before its answer (`why`): the best answer it had, if any, is kept and loaded
 * into the player, with how far from optimal it is proven to be. Returns whether there was one.
 */
function keepBest(watch: Watch, why: string, start: number[], shape: Shape): boolean {
  const progress = watch.progress;
  const best = progress?.best;
  if (progress === undefined || best === undefined) {
    return false;
  }
  const bound = progress.lowerBound;
  let quality = "not proven optimal: no lower bound proven yet";
  if (bound >= best.length) {
    quality = "proven optimal";
  } else if (progress.bestRatio > 0) {
    quality =
      `not proven optimal: at most ${formatRatio(progress.bestRatio)}× optimal, ` +
      `no answer is shorter than ${bound} moves`;
  }
  const elapsed = millis(progress.elapsed) + performance.now() - watch.at;
  setStatus(
    `${why} after ${(elapsed / 1000).toFixed(1)} s. Kept the best answer found: ${best.length} moves (${quality}).\n` +
      `Searched ${progress.nodes.toLocaleString("en")} nodes on the server.`,
  );
  loadSolution(start, shape, best.moves);
  return true;
}

async function solve(): Promise<void> {
  const ratio = typedRatio();
  const board = boardToAsk("Solve");
  if (board === null) {
    return;
  }
  if (ratio === null) {
    setStatus("Solve: nothing asked, the ratio is not accepted (see beside it).", true);
    ui.ratio.focus();
    return;
  }
  const start = board.slice();
  const shape = state.shape;
  const began = performance.now();
  const watch: Watch = { began, at: began, ratio };
  const reply = await call(
    "Solving",
    ui.solve,
    async (signal) => {
      const ticker = window.setInterval(() => showWatch(watch), TICK_MS);
      try {
        const stream = solver.solveWatch(
          {
            request: {
              puzzle: { case: "sliding", value: { rows: shape.rows, cols: shape.cols, start } },
              quality: ratio > 1 ? { maxRatio: ratio } : undefined,
            },
          },
          { timeoutMs: SOLVE_TIMEOUT_MS, signal },
        );
        // Read to the stream's end (the answer is its last message): leaving early would abort
        // the request.
        let answer: SolveResponse | undefined;
        for await (const message of stream) {
          if (message.event.case === "progress") {
            watch.progress = message.event.value;
            watch.at = performance.now();
            showWatch(watch);
          } else if (message.event.case === "answer") {
            answer = message.event.value;
          }
        }
        if (answer === undefined) {
          throw endedWithoutAnswer();
        }
        return answer;
      } finally {
        window.clearInterval(ticker);
      }
    },
    { stopLabel: "Stop", stopped: (why) => keepBest(watch, why, start, shape) },
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
  const proven = length / Math.max(lowerBound, 1);
  // The service proves what it can within its limits: say so when that is less than was asked.
  const short = ratio > 1 && proven > ratio ? `; not proven within the ${ratio} asked: the service's limits stopped its search first` : "";
  const quality =
    lowerBound >= length ? "optimal" : `at most ${formatRatio(proven)}× optimal: no answer is shorter than ${lowerBound}${short}`;
  setStatus(`Solution: ${length} moves (${quality})${cached}.\n${stats}`);
  loadSolution(start, shape, moves);
}

async function hint(): Promise<void> {
  const board = boardToAsk("Hint");
  if (board === null) {
    return;
  }
  const start = board.slice();
  const shape = state.shape;
  const began = performance.now();
  const reply = await call("Asking for a hint", ui.hint, (signal) =>
    solver.hint({ rows: shape.rows, cols: shape.cols, start }, { timeoutMs: SOLVE_TIMEOUT_MS, signal }),
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
  const distance = typedDistance();
  if (distance === null) {
    setStatus("Scramble: nothing asked, the distance is not accepted (see beside it).", true);
    ui.distance.focus();
    return;
  }
  const began = performance.now();
  const reply = await call("Scrambling", ui.scramble, (signal) =>
    solver.scramble(
      { rows: shape.rows, cols: shape.cols, distance, seed: randomSeed() },
      { timeoutMs: SOLVE_TIMEOUT_MS, signal },
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
  ui.movesLegend.hidden = playback === null;
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

  // What is typed is checked as it is typed, beside the box, and shown on the board once it is
  // one; "Use these tiles" also tidies the text.
  ui.tiles.addEventListener("input", () => {
    stop(); // playback would write over what is being typed
    const board = typedBoard();
    if (board !== null && !sameBoard(board, state.board)) {
      setBoard(board, true);
      setStatus("Board set from the Tiles box.");
    }
  });
  ui.useTiles.addEventListener("click", () => {
    const board = typedBoard();
    if (board === null) {
      ui.tiles.focus();
      return;
    }
    setBoard(board);
    setStatus("Board set.");
  });
  ui.ratio.addEventListener("input", () => void typedRatio());
  ui.distance.addEventListener("input", () => void typedDistance());
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
  ui.cancel.addEventListener("click", cancel);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && state.busy) {
      event.preventDefault();
      cancel();
    }
  });

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
