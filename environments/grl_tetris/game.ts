// NeMo Gym's grl_tetris TetrisEnv: a small board, pieces pre-drawn from CPython's seeded random, Left/Right/Down moves.
import { z } from "../sdk/index.js";
import { PyRandom } from "./mt.js";

type Cell = readonly [number, number];
const SHAPES: Record<string, Cell[]> = {
  I: [
    [0, 0],
    [0, -1],
  ],
  "-": [
    [0, 0],
    [-1, 0],
  ],
  O3: [
    [0, 0],
    [-1, 0],
    [0, -1],
    [-1, -1],
  ],
  O1: [[0, 0]],
};

/** The shape names of a box_type, in TetrisEnv's order (box_type 3's "O" is the 2x2 square, any other's a single cell). */
export function shapeNames(boxType: number): string[] {
  if (boxType === 2) return ["I", "-"];
  if (boxType === 3) return ["I", "-", "O3"];
  return ["O1"];
}

const Point = z.tuple([z.number().int(), z.number().int()]);
export const Game = z.object({
  width: z.number().int(),
  height: z.number().int(),
  /** board[x][y], as TetrisEnv's np.zeros((width, height)). */
  board: z.array(z.array(z.boolean())),
  anchor: Point,
  shape: z.string(),
  pieces: z.array(z.tuple([Point, z.string()])),
  pieceIndex: z.number().int(),
  time: z.number().int(),
  score: z.number().int(),
});
export type Game = z.output<typeof Game>;

function occupied(shape: Cell[], anchor: Cell, game: Game): boolean {
  for (const [dx, dy] of shape) {
    const x = anchor[0] + dx;
    const y = anchor[1] + dy;
    if (y < 0) continue;
    if (x < 0 || x >= game.width || y >= game.height || game.board[x]![y]) return true;
  }
  return false;
}

/** _choose_shape then _generate_piece: a weighted shape (rarer ones likelier) and its column on the top row. */
function drawPiece(random: PyRandom, names: string[], counts: number[], width: number): [[number, number], string] {
  const max = Math.max(...counts);
  const weights = counts.map((count) => 5 + max - count);
  let r = random.randint(
    1,
    weights.reduce((a, b) => a + b, 0),
  );
  let name = names[0]!;
  for (let i = 0; i < weights.length; i++) {
    r -= weights[i]!;
    if (r <= 0) {
      counts[i]! += 1;
      name = names[i]!;
      break;
    }
  }
  const wide = SHAPES[name]!.some(([dx, dy]) => dx === -1 && dy === 0);
  return [[wide ? random.randint(1, width - 1) : random.randint(0, width - 1), 0], name];
}

/**
 * The shape counts TetrisEnv carries into reset(seed): its constructor's reset() draws width*height+1 pieces from
 * the process's unseeded random (the state is restored, the counts are not), so NeMo Gym's boards depend on them.
 */
export function constructorShapeCounts(width: number, height: number, boxType: number, random: PyRandom): number[] {
  const names = shapeNames(boxType);
  const counts = names.map(() => 0);
  for (let n = 0; n < width * height + 1; n++) drawPiece(random, names, counts, width);
  return counts;
}

/** TetrisEnv.reset(seed): an empty board and width*height+1 pieces drawn from random.seed(seed), counts carried over. */
export function newGame(width: number, height: number, boxType: number, seed: number, shapeCounts: number[]): Game {
  const random = new PyRandom(seed);
  const names = shapeNames(boxType);
  if (shapeCounts.length !== names.length) throw new RangeError(`box_type ${boxType} has ${names.length} shapes, shape_counts has ${shapeCounts.length}`);
  const counts = [...shapeCounts];
  const pieces: [[number, number], string][] = [];
  for (let n = 0; n < width * height + 1; n++) pieces.push(drawPiece(random, names, counts, width));
  const board = Array.from({ length: width }, () => new Array<boolean>(height).fill(false));
  const [anchor, shape] = pieces[0]!;
  return { width, height, board, anchor, shape, pieces, pieceIndex: 1, time: 0, score: 0 };
}

function nextPiece(game: Game): void {
  // width*height+1 pieces outlast any game (it ends once a line clears or the top row fills); NeMo Gym would draw unseeded.
  const piece = game.pieces[game.pieceIndex++];
  if (!piece) throw new Error("grl_tetris: the pre-drawn pieces ran out");
  [game.anchor, game.shape] = [piece[0], piece[1]];
}

function setPiece(game: Game, on: boolean): void {
  for (const [dx, dy] of SHAPES[game.shape]!) {
    const x = game.anchor[0] + dx;
    const y = game.anchor[1] + dy;
    if (x >= 0 && x < game.width && y >= 0 && y < game.height) game.board[x]![y] = on;
  }
}

/** render("text"): rows top to bottom, _ empty, # settled, X the falling piece's visible cells. */
export function render(game: Game): string {
  const lines = Array.from({ length: game.height }, (_, y) => Array.from({ length: game.width }, (_, x): string => (game.board[x]![y] ? "#" : "_")));
  for (const [dx, dy] of SHAPES[game.shape]!) {
    const x = game.anchor[0] + dx;
    const y = game.anchor[1] + dy;
    if (y >= 0 && y < lines.length && x >= 0 && x < game.width) lines[y]![x] = "X";
  }
  return lines.map((line) => line.join("")).join("\n");
}

export interface StepInfo {
  action_is_effective: boolean;
  action_is_valid: boolean;
  success: boolean;
  dropped: boolean;
}

/** TetrisEnv.step(action) for 0 Left, 1 Right, 2 Down: (state, reward, done, info). */
export function step(game: Game, action: number): { state: string; reward: number; done: boolean; info: StepInfo } {
  const shape = SHAPES[game.shape]!;
  const previous: Cell = [game.anchor[0], game.anchor[1]];
  const moved: Cell = action === 0 ? [previous[0] - 1, previous[1]] : action === 1 ? [previous[0] + 1, previous[1]] : [previous[0], previous[1] + 1];
  if (!occupied(shape, moved, game)) game.anchor = [moved[0], moved[1]];
  game.time += 1;
  let reward = -0.1;
  let done = false;
  let dropped = false;
  let linesCleared = 0;
  if (occupied(SHAPES[game.shape]!, [game.anchor[0], game.anchor[1] + 1], game)) {
    dropped = true;
    setPiece(game, true);
    linesCleared = clearLines(game);
    reward += linesCleared * 10;
    if (game.board.some((column) => column[0])) done = true;
    else nextPiece(game);
  }
  setPiece(game, true);
  const state = render(game);
  setPiece(game, false);
  const effective = previous[0] !== game.anchor[0] || previous[1] !== game.anchor[1];
  if (linesCleared > 0) done = true;
  return { state, reward, done, info: { action_is_effective: effective, action_is_valid: true, success: linesCleared > 0, dropped } };
}

function clearLines(game: Game): number {
  const full = Array.from({ length: game.height }, (_, y) => game.board.every((column) => column[y]));
  const board = Array.from({ length: game.width }, () => new Array<boolean>(game.height).fill(false));
  let write = game.height - 1;
  for (let y = game.height - 1; y >= 0; y--) {
    if (full[y]) continue;
    for (let x = 0; x < game.width; x++) board[x]![write] = game.board[x]![y]!;
    write -= 1;
  }
  const cleared = full.filter(Boolean).length;
  game.score += cleared;
  game.board = board;
  return cleared;
}
