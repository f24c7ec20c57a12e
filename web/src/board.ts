// Sliding boards as the service sees them: `rows` x `cols` cells, row by row from the top-left,
// tiles 1 .. rows*cols-1 and 0 for the blank. A move is the direction the blank goes
// (`u`, `d`, `l`, `r`), as in the service's answers.

export type Move = "u" | "d" | "l" | "r";

export interface Shape {
  rows: number;
  cols: number;
}

/** The standard goal: tiles in order, the blank last. */
export function goal({ rows, cols }: Shape): number[] {
  const cells = rows * cols;
  return Array.from({ length: cells }, (_, i) => (i + 1) % cells);
}

export function sameBoard(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((tile, i) => tile === b[i]);
}

const STEP: Record<Move, [number, number]> = { u: [-1, 0], d: [1, 0], l: [0, -1], r: [0, 1] };

/** The board after the blank moves `move`, or null when that would leave the board. */
export function applyMove(board: readonly number[], shape: Shape, move: Move): number[] | null {
  const blank = board.indexOf(0);
  const [dr, dc] = STEP[move];
  const row = Math.floor(blank / shape.cols) + dr;
  const col = (blank % shape.cols) + dc;
  if (row < 0 || row >= shape.rows || col < 0 || col >= shape.cols) {
    return null;
  }
  const next = board.slice();
  const cell = row * shape.cols + col;
  next[blank] = next[cell];
  next[cell] = 0;
  return next;
}

/** Every board from `start` through `moves`, start included; throws on an illegal move. */
export function replay(start: readonly number[], shape: Shape, moves: string): number[][] {
  const frames = [start.slice()];
  for (const letter of moves) {
    const next = applyMove(frames[frames.length - 1], shape, letter as Move);
    if (next === null) {
      throw new Error(`move ${frames.length} (${letter}) leaves the board`);
    }
    frames.push(next);
  }
  return frames;
}

/** The tile a move slides (the one the blank swaps with). */
export function movedTile(board: readonly number[], shape: Shape, move: Move): number {
  const next = applyMove(board, shape, move);
  return next === null ? 0 : board[next.indexOf(0)];
}

/** Which way the tile slides when the blank moves `move`: the opposite direction. */
export const TILE_DIRECTION: Record<Move, string> = { u: "down", d: "up", l: "right", r: "left" };

/**
 * Reads a board typed by a person: numbers separated by spaces, commas or new lines, `0`, `x` or
 * `_` for the blank. Returns the board, or a sentence saying what is wrong.
 */
export function parseBoard(text: string, shape: Shape): number[] | string {
  const cells = shape.rows * shape.cols;
  const tokens = text.split(/[\s,;]+/).filter((token) => token !== "");
  if (tokens.length !== cells) {
    return `a ${shape.rows}×${shape.cols} board has ${cells} cells; ${tokens.length} given`;
  }
  const board: number[] = [];
  for (const token of tokens) {
    const tile = /^[xX_]$/.test(token) ? 0 : /^\d+$/.test(token) ? Number(token) : NaN;
    if (!Number.isInteger(tile) || tile < 0 || tile >= cells) {
      return `"${token}" is not a tile: use 1 to ${cells - 1} and 0 (or x) for the blank`;
    }
    if (board.includes(tile)) {
      return `tile ${tile === 0 ? "0 (the blank)" : tile} appears twice`;
    }
    board.push(tile);
  }
  return board;
}

export function formatBoard(board: readonly number[], shape: Shape): string {
  const lines = [];
  for (let row = 0; row < shape.rows; row++) {
    lines.push(board.slice(row * shape.cols, (row + 1) * shape.cols).join(" "));
  }
  return lines.join("\n");
}

/**
 * Whether `board` can reach the standard goal: the permutation's parity must equal the parity
 * of the blank's distance from its goal cell (each move is one swap and one step of the blank).
 */
export function solvable(board: readonly number[], shape: Shape): boolean {
  const target = goal(shape);
  const where = new Map(target.map((tile, cell) => [tile, cell]));
  const seen = new Array<boolean>(board.length).fill(false);
  let swaps = 0;
  for (let start = 0; start < board.length; start++) {
    let length = 0;
    for (let cell = start; !seen[cell]; cell = where.get(board[cell]) ?? cell) {
      seen[cell] = true;
      length++;
    }
    swaps += Math.max(length - 1, 0);
  }
  const blank = board.indexOf(0);
  const home = board.length - 1;
  const distance =
    Math.abs(Math.floor(blank / shape.cols) - Math.floor(home / shape.cols)) +
    Math.abs((blank % shape.cols) - (home % shape.cols));
  return swaps % 2 === distance % 2;
}

/** A uniformly random board that can reach the goal. */
export function shuffled(shape: Shape, random: () => number = Math.random): number[] {
  const board = goal(shape);
  for (let i = board.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [board[i], board[j]] = [board[j], board[i]];
  }
  if (!solvable(board, shape)) {
    // Swapping two tiles (not the blank) flips the parity.
    const [a, b] = [0, 1, 2].filter((cell) => board[cell] !== 0);
    [board[a], board[b]] = [board[b], board[a]];
  }
  return board;
}

const OPPOSITE: Record<Move, Move> = { u: "d", d: "u", l: "r", r: "l" };

/** The goal after `steps` random moves, never undoing the previous one. */
export function randomWalk(shape: Shape, steps: number, random: () => number = Math.random): number[] {
  let board = goal(shape);
  let last: Move | null = null;
  for (let i = 0; i < steps; i++) {
    const choices = (["u", "d", "l", "r"] as Move[]).filter(
      (move) => move !== (last && OPPOSITE[last]) && applyMove(board, shape, move) !== null,
    );
    const move = choices[Math.floor(random() * choices.length)];
    board = applyMove(board, shape, move) ?? board;
    last = move;
  }
  return board;
}
