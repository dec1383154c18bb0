// @ts-check
// The best player's rollout policy and the hint, in the page: so that a hint works without the server.
//
// The server's hint (GET /api/games/{id}/hint, foursquare.players.hint) races the legal moves against each other
// on sampled futures of the unseen cards, each future played out by the `best` player's rollout policy in the
// compiled kernel (src/foursquare/kernel/policies.py, docs/ai.md). This module is a copy of that machinery, kept
// honest like engine.js: the kernel's compact board and rules (kernel/state.py, kernel/rules.py), its SplitMix64
// and Fisher–Yates shuffle (kernel/rng.py), the rollout policy (policy_value, policy_choice, policy_playout),
// the Monte Carlo of a position (kernel/montecarlo.py) and the race of players/evaluation.py (rank_moves, race,
// the survivors' test with numpy's summation order) and players/hints.py. tests/js/policy.test.mjs checks,
// on positions of random games written by tests/js_policy_support.py (tests/test_js_policy.py: 10,000 of them),
// that the policy here chooses the kernel's move and values every move as the kernel does, and that hint()
// gives the server's answer number for number; tests/js/perft.test.mjs, that its board counts the golden perft
// table (tests/golden/perft.json) as every copy of the rules must. Change the policy or the race in Python first,
// then here.
//
// A hint sees what the player sees: the piles, the card to place and which cards are still unseen (never the
// stock's order, which a Game knows). With the same seed (0, the server's) it samples the same futures as the
// server and answers the same. No DOM: Node imports it as it is, and so can a Web Worker.

import { DECK_SIZE, GRID, MAX_FACE_DOWN, PILE_CAP, WINNING_CELLS, cardIndex, cellName } from "./engine.js";

/**
 * @typedef {import("./engine.js").Game} Game
 * @typedef {import("./engine.js").Move} Move
 * @typedef {Int8Array} Board a position in the kernel's layout (STATE_SIZE entries; see kernel/state.py)
 * @typedef {ArrayLike<number>} Weights the rollout policy's weights (POLICY_WEIGHTS)
 * @typedef {{row: number, col: number, cell: string, win_probability: number, expected_score: number,
 *   playouts: number}} MoveAdvice a legal move with its estimates, as the API's MoveAdvice
 * @typedef {{turn: number, moves: MoveAdvice[]}} Hint the API's hint: every legal move, highest expected score
 *   first (ties: the higher win probability, then the race's order)
 * @typedef {{index: number, wins: number, scores: number, samples: number, value: number, left: number}} Entry
 *   one move in a race: its wins, summed scores, futures met, summed value, and the round it left (-1: never)
 */

// --- the race's settings (players/evaluation.py and players/hints.py) ------------------------------------------

/** Playouts per ranking of a hint (players.HINT_PLAYOUTS). */
export const HINT_PLAYOUTS = 400;
/** Futures per round of the race between moves. */
export const BATCH = 16;
/** Rounds before a race may end with a single move left. */
export const MIN_ROUNDS = 2;
/** Standard errors by which a move must trail the leader to leave the race. */
export const CONFIDENCE = 2.5;
/** Points a won playout is worth on top of its score in the first race. */
export const WIN_BONUS = 0;
/** A position is risky when the first race's leader wins less often than this. */
export const RISKY_BELOW = 0.85;
/** The win bonus of the second race in a risky position. */
export const RISK_BONUS = 20;
/** The rollout policy's weights: face-down cards, occupied cells, tops the next card may turn down, and up. */
export const POLICY_WEIGHTS = Object.freeze([1.0, 3.286, 0.585, 0.348]);

// --- the board (kernel/state.py) ---------------------------------------------------------------------------------

const SUIT_COUNT = 4;
const RANK_COUNT = DECK_SIZE / SUIT_COUNT;
// A square of (2 GRID + 1)² cells around the first card, with an always-empty ring around the reachable ones.
const ORIGIN = GRID;
const SIDE = 2 * GRID + 1;
const CELLS = SIDE * SIDE;
const ORIGIN_CELL = ORIGIN * SIDE + ORIGIN;
const REACH = GRID - 1;
// Per-cell blocks: board[BLOCK + cell].
const TOP_CARD = 0;
const TOP_FACE_UP = CELLS;
const PILE_HEIGHT = 2 * CELLS;
const PILE_BURIED = 3 * CELLS;
// Scalars: the occupied box (area rows and columns), occupied cells, turn, face-down tops and buried cards,
// status, score, the house rules.
const MIN_ROW = 4 * CELLS;
const MAX_ROW = MIN_ROW + 1;
const MIN_COL = MIN_ROW + 2;
const MAX_COL = MIN_ROW + 3;
const OCCUPIED = MIN_ROW + 4;
const TURN = MIN_ROW + 5;
const FACE_DOWN_TOPS = MIN_ROW + 6;
const BURIED_FACE_DOWN = MIN_ROW + 7;
const STATUS = MIN_ROW + 8;
const SCORE = MIN_ROW + 9;
const DIAGONAL_FLAG = MIN_ROW + 10;
const COUNT_BURIED_FLAG = MIN_ROW + 11;
export const STATE_SIZE = MIN_ROW + 12;

export const STATUS_PLAYING = 0;
export const STATUS_WON = 1;
export const STATUS_LOST_FACE_DOWN = 2;
export const STATUS_LOST_STOCK = 3;
/** Room for every legal cell. */
export const MAX_MOVES = (2 * GRID - 1) ** 2;
/** What lineTops leaves out to count every cell of a line. */
const NO_CELL = CELLS;
/** The value of a losing move: above any position's, lower the more cells it fills. */
const LOSING_VALUE = 1e9;

/**
 * The board's cell of (row, col).
 * @param {number} row
 * @param {number} col
 */
export const cellOf = (row, col) => (row + ORIGIN) * SIDE + (col + ORIGIN);

/**
 * The (row, col) of a board's cell.
 * @param {number} cell
 * @returns {Move}
 */
export const moveOf = (cell) => ({ row: Math.floor(cell / SIDE) - ORIGIN, col: (cell % SIDE) - ORIGIN });

/**
 * The board of a new game.
 * @param {boolean} diagonal
 * @param {boolean} countBuried
 * @returns {Board}
 */
export function emptyBoard(diagonal, countBuried) {
  const board = new Int8Array(STATE_SIZE);
  board.fill(-1, TOP_CARD, TOP_CARD + CELLS);
  board[MIN_ROW] = SIDE;
  board[MIN_COL] = SIDE;
  board[MAX_ROW] = -1;
  board[MAX_COL] = -1;
  board[DIAGONAL_FLAG] = diagonal ? 1 : 0;
  board[COUNT_BURIED_FLAG] = countBuried ? 1 : 0;
  return board;
}

/**
 * The board of `game`'s position, from what its player sees: the piles, the turn, the outcome, the house rules
 * (the card to place is not part of it).
 * @param {Game} game
 * @returns {Board}
 */
export function boardOf(game) {
  const variant = game.variant;
  const board = emptyBoard(variant.adjacency === "diagonal", variant.count_buried);
  for (const pile of game.piles()) {
    const cell = cellOf(pile.row, pile.col);
    const top = pile.cards.length - 1;
    const buried = pile.face_up.slice(0, top).filter((up) => !up).length;
    board[TOP_CARD + cell] = cardIndex(pile.cards[top]);
    board[TOP_FACE_UP + cell] = pile.face_up[top] ? 1 : 0;
    board[PILE_HEIGHT + cell] = pile.cards.length;
    board[PILE_BURIED + cell] = buried;
    const row = Math.floor(cell / SIDE);
    const col = cell % SIDE;
    board[MIN_ROW] = Math.min(board[MIN_ROW], row);
    board[MAX_ROW] = Math.max(board[MAX_ROW], row);
    board[MIN_COL] = Math.min(board[MIN_COL], col);
    board[MAX_COL] = Math.max(board[MAX_COL], col);
    board[OCCUPIED] += 1;
    board[FACE_DOWN_TOPS] += pile.face_up[top] ? 0 : 1;
    board[BURIED_FACE_DOWN] += buried;
  }
  const outcome = game.outcome;
  board[TURN] = game.turn;
  if (outcome.status === "won") board[STATUS] = STATUS_WON;
  else if (outcome.status === "lost") {
    board[STATUS] = outcome.reason === "too_many_face_down" ? STATUS_LOST_FACE_DOWN : STATUS_LOST_STOCK;
  }
  board[SCORE] = outcome.score ?? 0;
  return board;
}

/**
 * The cards the player of `game` has not seen, lowest index first (cards are 0-39, as in engine.js): neither on
 * the board, buried or not, nor the card to place. Their order in the stock is what a hint samples.
 * @param {Game} game
 * @returns {Int8Array}
 */
export function unseenOf(game) {
  const seen = new Uint8Array(DECK_SIZE);
  for (const pile of game.piles()) for (const name of pile.cards) seen[cardIndex(name)] = 1;
  const card = game.cardToPlace;
  if (card !== null) seen[cardIndex(card)] = 1;
  const unseen = [];
  for (let i = 0; i < DECK_SIZE; i += 1) if (seen[i] === 0) unseen.push(i);
  return Int8Array.from(unseen);
}

// --- the rules (kernel/rules.py) ----------------------------------------------------------------------------

/**
 * Whether an occupied cell touches `cell` (diagonally too in the diagonal variant).
 * @param {Board} board
 * @param {number} cell
 */
function adjacent(board, cell) {
  if (board[cell - SIDE] >= 0 || board[cell + SIDE] >= 0 || board[cell - 1] >= 0 || board[cell + 1] >= 0) return true;
  return (
    board[DIAGONAL_FLAG] !== 0 &&
    (board[cell - SIDE - 1] >= 0 || board[cell - SIDE + 1] >= 0 || board[cell + SIDE - 1] >= 0 || board[cell + SIDE + 1] >= 0)
  );
}

/**
 * Write the legal cells, in (row, col) order, into `out`; return how many.
 * @param {Board} board
 * @param {Int32Array} out room for MAX_MOVES
 */
export function legal(board, out) {
  if (board[STATUS] !== STATUS_PLAYING) return 0;
  if (board[OCCUPIED] === 0) {
    out[0] = ORIGIN_CELL;
    return 1;
  }
  let n = 0;
  const rowEnd = board[MIN_ROW] + REACH;
  const colStart = board[MAX_COL] - REACH;
  const colEnd = board[MIN_COL] + REACH;
  for (let r = board[MAX_ROW] - REACH; r <= rowEnd; r += 1) {
    for (let c = colStart; c <= colEnd; c += 1) {
      const cell = r * SIDE + c;
      if (board[TOP_CARD + cell] >= 0) {
        if (board[PILE_HEIGHT + cell] < PILE_CAP) out[n++] = cell;
      } else if (adjacent(board, cell)) {
        out[n++] = cell;
      }
    }
  }
  return n;
}

// What lineTops found (module variables rather than a new array for each of the millions of lines a hint scans).
let tallyUp = 0;
let tallyDown = 0;
let upMax = 0;
let upMin = 0;

/**
 * Count the face-up and face-down tops of the line `first, first + step, …` (`count` cells), `skip` left out,
 * and the highest and lowest face-up rank (0 and RANK_COUNT + 1 when none is face up), into tallyUp, tallyDown,
 * upMax and upMin.
 * @param {Board} board
 * @param {number} skip
 * @param {number} first
 * @param {number} step
 * @param {number} count
 */
function lineTops(board, skip, first, step, count) {
  let up = 0;
  let down = 0;
  let high = 0;
  let low = RANK_COUNT + 1;
  for (let k = 0, other = first; k < count; k += 1, other += step) {
    const card = board[TOP_CARD + other];
    if (other === skip || card < 0) continue;
    if (board[TOP_FACE_UP + other] !== 0) {
      up += 1;
      const rank = (card >> 2) + 1;
      if (rank > high) high = rank;
      if (rank < low) low = rank;
    } else {
      down += 1;
    }
  }
  tallyUp = up;
  tallyDown = down;
  upMax = high;
  upMin = low;
}

/**
 * Apply the row or column check of a placement: turn the other tops over when the card is extreme.
 * @param {Board} board
 * @param {number} cell
 * @param {number} rank
 * @param {number} first
 * @param {number} step
 * @param {number} count
 */
function flipLine(board, cell, rank, first, step, count) {
  lineTops(board, cell, first, step, count);
  if (tallyUp + tallyDown === 0 || (rank <= upMax && rank >= upMin)) return;
  for (let k = 0, other = first; k < count; k += 1, other += step) {
    if (other !== cell && board[TOP_CARD + other] >= 0) board[TOP_FACE_UP + other] ^= 1;
  }
  board[FACE_DOWN_TOPS] += tallyUp - tallyDown;
}

/**
 * Face-down cards counting towards the limit: the tops, and the buried ones when the house rule counts them.
 * @param {Board} board
 * @param {number} tops
 * @param {number} buried
 */
const faceDownOf = (board, tops, buried) => tops + (board[COUNT_BURIED_FLAG] !== 0 ? buried : 0);

/**
 * What a board says of its position, for the tests that count the rules' tree on it (tests/js/perft.test.mjs):
 * the status (a STATUS_ code), the face-down cards counting towards the limit, whether `cell` holds a pile, and
 * whether its top faces up.
 */
export const reading = Object.freeze({
  /** @param {Board} board */
  status: (board) => board[STATUS],
  /** @param {Board} board */
  faceDown: (board) => faceDownOf(board, board[FACE_DOWN_TOPS], board[BURIED_FACE_DOWN]),
  /**
   * @param {Board} board
   * @param {number} cell
   */
  occupied: (board, cell) => board[TOP_CARD + cell] >= 0,
  /**
   * @param {Board} board
   * @param {number} cell
   */
  faceUp: (board, cell) => board[TOP_FACE_UP + cell] !== 0,
});

/**
 * The status after a move that leaves `occupied` cells, `topsDown` face-down tops and `down` face-down cards
 * counting, `turn` cards having been laid.
 * @param {number} occupied
 * @param {number} topsDown
 * @param {number} down
 * @param {number} turn
 */
function verdict(occupied, topsDown, down, turn) {
  if (occupied === WINNING_CELLS && topsDown === 0) return STATUS_WON;
  if (down > MAX_FACE_DOWN) return STATUS_LOST_FACE_DOWN;
  if (turn === DECK_SIZE) return STATUS_LOST_STOCK;
  return STATUS_PLAYING;
}

/**
 * Place `card` at `cell` (which must be legal) and judge the position.
 * @param {Board} board
 * @param {number} cell
 * @param {number} card
 */
export function place(board, cell, card) {
  const r = Math.floor(cell / SIDE);
  const c = cell % SIDE;
  if (board[TOP_CARD + cell] >= 0) {
    if (board[TOP_FACE_UP + cell] === 0) {
      // covering a face-down top buries it
      board[PILE_BURIED + cell] += 1;
      board[BURIED_FACE_DOWN] += 1;
      board[FACE_DOWN_TOPS] -= 1;
    }
  } else {
    board[OCCUPIED] += 1;
    if (r < board[MIN_ROW]) board[MIN_ROW] = r;
    if (r > board[MAX_ROW]) board[MAX_ROW] = r;
    if (c < board[MIN_COL]) board[MIN_COL] = c;
    if (c > board[MAX_COL]) board[MAX_COL] = c;
  }
  board[TOP_CARD + cell] = card;
  board[TOP_FACE_UP + cell] = 1;
  board[PILE_HEIGHT + cell] += 1;
  const rank = (card >> 2) + 1;
  flipLine(board, cell, rank, r * SIDE + board[MIN_COL], 1, board[MAX_COL] - board[MIN_COL] + 1);
  flipLine(board, cell, rank, board[MIN_ROW] * SIDE + c, SIDE, board[MAX_ROW] - board[MIN_ROW] + 1);
  board[TURN] += 1;
  const status = verdict(
    board[OCCUPIED],
    board[FACE_DOWN_TOPS],
    faceDownOf(board, board[FACE_DOWN_TOPS], board[BURIED_FACE_DOWN]),
    board[TURN],
  );
  if (status !== STATUS_PLAYING) board[STATUS] = status;
  if (status === STATUS_WON) board[SCORE] = DECK_SIZE - board[TURN];
}

// --- the rollout policy (kernel/policies.py) ----------------------------------------------------------------

/**
 * How bad a position is for the rollout policy (lower is better): a weighted sum of the face-down cards
 * counting towards the limit, minus the occupied cells, plus the risk carried by every row and column (the
 * chance that a random next rank fires its check, times the tops it would turn down), minus the same chance
 * times the tops it would turn up. The same sums in the same order as the kernel, so the same number.
 * @param {Board} board
 * @param {Weights} [weights]
 */
export function policyValue(board, weights = POLICY_WEIGHTS) {
  const down = faceDownOf(board, board[FACE_DOWN_TOPS], board[BURIED_FACE_DOWN]);
  let risk = 0.0;
  let gain = 0.0;
  for (let line = 0; line < 2; line += 1) {
    const rows = line === 0;
    const aLow = rows ? board[MIN_ROW] : board[MIN_COL];
    const aHigh = rows ? board[MAX_ROW] : board[MAX_COL];
    const bLow = rows ? board[MIN_COL] : board[MIN_ROW];
    const bHigh = rows ? board[MAX_COL] : board[MAX_ROW];
    const aStep = rows ? SIDE : 1;
    const bStep = rows ? 1 : SIDE;
    for (let a = aLow; a <= aHigh; a += 1) {
      lineTops(board, NO_CELL, a * aStep + bLow * bStep, bStep, bHigh - bLow + 1);
      if (tallyUp + tallyDown === 0) continue;
      const p = tallyUp === 0 ? 1.0 : (RANK_COUNT - upMax + (upMin - 1)) / RANK_COUNT;
      risk += p * tallyUp;
      gain += p * tallyDown;
    }
  }
  return weights[0] * down - weights[1] * board[OCCUPIED] + weights[2] * risk - weights[3] * gain;
}

// The rollout policy judges each legal move by policyValue() of the position after it. The kernel copies the
// board, places the card and scans every row and column, for each move. Here policyChoice() tallies the board's
// lines once (tallyLines), keeping for each line the count of its face-up tops and of its face-down tops, and of
// each kind the two highest and the two lowest ranks; a move then finds each line's terms of the value from the
// tally: its own row and column lose the top it covers (the second highest or lowest rank takes the first's
// place if it goes), turn over (the face-down tops' ranks become the face-up ones) and gain the card; a line that
// crosses a row or column the move turns over has one top turned; the other lines keep their terms. The terms
// are summed in the kernel's order (the rows, then the columns, each from the top or the left; an empty line adds
// nothing, here a zero), so that the value is the kernel's to the last bit.

// By line (area row a: a; area column b: SIDE + b): how many tops face up (UP_COUNT) and down (DOWN_COUNT), the
// highest and second highest, lowest and second lowest of their ranks (0 and RANK_COUNT + 1 where there are
// none), and the line's terms of the value: the chance that the next card fires the line's check, times the tops
// it would turn down (LINE_RISK) and up (LINE_GAIN).
const LINES = 2 * SIDE;
const UP_COUNT = new Int32Array(LINES);
const UP_HIGH = new Int32Array(LINES);
const UP_HIGH_2 = new Int32Array(LINES);
const UP_LOW = new Int32Array(LINES);
const UP_LOW_2 = new Int32Array(LINES);
const DOWN_COUNT = new Int32Array(LINES);
const DOWN_HIGH = new Int32Array(LINES);
const DOWN_HIGH_2 = new Int32Array(LINES);
const DOWN_LOW = new Int32Array(LINES);
const DOWN_LOW_2 = new Int32Array(LINES);
const LINE_RISK = new Float64Array(LINES);
const LINE_GAIN = new Float64Array(LINES);
const NO_RANK_BELOW = RANK_COUNT + 1;
// The chance that a random rank lies outside face-up ranks spread over `low .. high`: FIRES[RANK_COUNT - high +
// low - 1], the same quotient as policyValue() divides out (0 .. RANK_COUNT - 1 above; a table, not a division).
const FIRES = Float64Array.from({ length: RANK_COUNT + 1 }, (_, outside) => outside / RANK_COUNT);
// The area row and column of each cell.
const ROW_OF = Int8Array.from({ length: CELLS }, (_, cell) => Math.floor(cell / SIDE));
const COLUMN_OF = Int8Array.from({ length: CELLS }, (_, cell) => cell % SIDE);

/**
 * Count a rank in `line` of one kind of the tally (face up, or face down): its count, two highest, two lowest.
 * @param {Int32Array} count
 * @param {Int32Array} high
 * @param {Int32Array} high2
 * @param {Int32Array} low
 * @param {Int32Array} low2
 * @param {number} line
 * @param {number} rank
 */
function tallyRank(count, high, high2, low, low2, line, rank) {
  count[line] += 1;
  if (rank > high[line]) {
    high2[line] = high[line];
    high[line] = rank;
  } else if (rank > high2[line]) {
    high2[line] = rank;
  }
  if (rank < low[line]) {
    low2[line] = low[line];
    low[line] = rank;
  } else if (rank < low2[line]) {
    low2[line] = rank;
  }
}

/**
 * Tally every row and column of `board`, and clear the tally of the empty lines next to them (where a card may
 * go: every line on an empty board).
 * @param {Board} board
 */
function tallyLines(board) {
  const empty = board[OCCUPIED] === 0;
  const rowFirst = empty ? 0 : board[MIN_ROW] - 1;
  const rowLast = empty ? SIDE - 1 : board[MAX_ROW] + 1;
  const colFirst = empty ? SIDE : SIDE + board[MIN_COL] - 1;
  const colLast = empty ? LINES - 1 : SIDE + board[MAX_COL] + 1;
  for (let line = rowFirst; line <= colLast; line += 1) {
    if (line > rowLast && line < colFirst) line = colFirst;
    UP_COUNT[line] = UP_HIGH[line] = UP_HIGH_2[line] = DOWN_COUNT[line] = DOWN_HIGH[line] = DOWN_HIGH_2[line] = 0;
    UP_LOW[line] = UP_LOW_2[line] = DOWN_LOW[line] = DOWN_LOW_2[line] = NO_RANK_BELOW;
    LINE_RISK[line] = LINE_GAIN[line] = 0.0;
  }
  for (let a = board[MIN_ROW]; a <= board[MAX_ROW]; a += 1) {
    for (let b = board[MIN_COL]; b <= board[MAX_COL]; b += 1) {
      const top = board[TOP_CARD + a * SIDE + b];
      if (top < 0) continue;
      const rank = (top >> 2) + 1;
      if (board[TOP_FACE_UP + a * SIDE + b] !== 0) {
        tallyRank(UP_COUNT, UP_HIGH, UP_HIGH_2, UP_LOW, UP_LOW_2, a, rank);
        tallyRank(UP_COUNT, UP_HIGH, UP_HIGH_2, UP_LOW, UP_LOW_2, SIDE + b, rank);
      } else {
        tallyRank(DOWN_COUNT, DOWN_HIGH, DOWN_HIGH_2, DOWN_LOW, DOWN_LOW_2, a, rank);
        tallyRank(DOWN_COUNT, DOWN_HIGH, DOWN_HIGH_2, DOWN_LOW, DOWN_LOW_2, SIDE + b, rank);
      }
    }
  }
  for (let line = rowFirst; line <= colLast; line += 1) {
    if (line > rowLast && line < colFirst) line = colFirst;
    const up = UP_COUNT[line];
    const down = DOWN_COUNT[line];
    if (up + down === 0) continue;
    const p = up === 0 ? 1.0 : FIRES[RANK_COUNT - UP_HIGH[line] + (UP_LOW[line] - 1)];
    LINE_RISK[line] = p * up;
    LINE_GAIN[line] = p * down;
  }
}

// The terms lineTerms() computed last, risk and gain (in a typed array, like VALUE).
const TERMS = new Float64Array(2);

/**
 * The terms of the value of a line with `up` tops face up, their ranks from `low` to `high`, and `down` face
 * down (into TERMS): policyValue()'s for one line.
 * @param {number} up
 * @param {number} high
 * @param {number} low
 * @param {number} down
 */
function lineTerms(up, high, low, down) {
  if (up + down === 0) {
    TERMS[0] = TERMS[1] = 0.0;
    return;
  }
  const p = up === 0 ? 1.0 : FIRES[RANK_COUNT - high + (low - 1)];
  TERMS[0] = p * up;
  TERMS[1] = p * down;
}

/**
 * The terms of tallied `line` once its top at `cell` (occupied) has turned over.
 * @param {Board} board
 * @param {number} line
 * @param {number} cell
 */
function turnedTerms(board, line, cell) {
  const rank = (board[TOP_CARD + cell] >> 2) + 1;
  if (board[TOP_FACE_UP + cell] !== 0) {
    const high = rank === UP_HIGH[line] ? UP_HIGH_2[line] : UP_HIGH[line];
    const low = rank === UP_LOW[line] ? UP_LOW_2[line] : UP_LOW[line];
    lineTerms(UP_COUNT[line] - 1, high, low, DOWN_COUNT[line] + 1);
  } else {
    lineTerms(UP_COUNT[line] + 1, Math.max(UP_HIGH[line], rank), Math.min(UP_LOW[line], rank), DOWN_COUNT[line] - 1);
  }
}

/** What judge() values a move that wins at once. */
const WINS = -Infinity;
// The value judge() found last (in a typed array: V8 may box a fractional number that a function returns or that
// a module's variable holds, a new box for each).
const VALUE = new Float64Array(1);

/**
 * moveValue() on a board whose lines tallyLines() has tallied, into VALUE[0] (WINS for a move that wins at once).
 * @param {Board} board
 * @param {number} cell
 * @param {number} card
 * @param {Weights} weights
 */
function judge(board, cell, card, weights) {
  const r = ROW_OF[cell];
  const c = COLUMN_OF[cell];
  const column = SIDE + c;
  const rank = (card >> 2) + 1;
  let topsDown = board[FACE_DOWN_TOPS];
  let buried = board[BURIED_FACE_DOWN];
  let occupied = board[OCCUPIED];
  // The other tops of the card's row and of its column: the line's tally, less the top the card covers.
  let rowUp = UP_COUNT[r];
  let rowUpHigh = UP_HIGH[r];
  let rowUpLow = UP_LOW[r];
  let rowDown = DOWN_COUNT[r];
  let rowDownHigh = DOWN_HIGH[r];
  let rowDownLow = DOWN_LOW[r];
  let colUp = UP_COUNT[column];
  let colUpHigh = UP_HIGH[column];
  let colUpLow = UP_LOW[column];
  let colDown = DOWN_COUNT[column];
  let colDownHigh = DOWN_HIGH[column];
  let colDownLow = DOWN_LOW[column];
  const top = board[TOP_CARD + cell];
  if (top < 0) {
    occupied += 1;
  } else {
    const covered = (top >> 2) + 1;
    if (board[TOP_FACE_UP + cell] === 0) {
      // covering a face-down top buries it
      topsDown -= 1;
      buried += 1;
      rowDown -= 1;
      if (covered === rowDownHigh) rowDownHigh = DOWN_HIGH_2[r];
      if (covered === rowDownLow) rowDownLow = DOWN_LOW_2[r];
      colDown -= 1;
      if (covered === colDownHigh) colDownHigh = DOWN_HIGH_2[column];
      if (covered === colDownLow) colDownLow = DOWN_LOW_2[column];
    } else {
      rowUp -= 1;
      if (covered === rowUpHigh) rowUpHigh = UP_HIGH_2[r];
      if (covered === rowUpLow) rowUpLow = UP_LOW_2[r];
      colUp -= 1;
      if (covered === colUpHigh) colUpHigh = UP_HIGH_2[column];
      if (covered === colUpLow) colUpLow = UP_LOW_2[column];
    }
  }
  // The row check, then the column check.
  const rowTurns = rowUp + rowDown > 0 && (rank > rowUpHigh || rank < rowUpLow) ? 1 : 0;
  const columnTurns = colUp + colDown > 0 && (rank > colUpHigh || rank < colUpLow) ? 1 : 0;
  topsDown += rowTurns * (rowUp - rowDown) + columnTurns * (colUp - colDown);
  const down = faceDownOf(board, topsDown, buried);
  const status = verdict(occupied, topsDown, down, board[TURN] + 1);
  if (status !== STATUS_PLAYING) {
    VALUE[0] = status === STATUS_WON ? WINS : LOSING_VALUE - occupied;
    return;
  }
  const rowLow = Math.min(board[MIN_ROW], r);
  const rowHigh = Math.max(board[MAX_ROW], r);
  const colLow = Math.min(board[MIN_COL], c);
  const colHigh = Math.max(board[MAX_COL], c);
  let risk = 0.0;
  let gain = 0.0;
  for (let a = rowLow; a <= rowHigh; a += 1) {
    if (a === r) {
      // the card face up, and the other tops turned over if the check fired
      if (rowTurns !== 0) lineTerms(rowDown + 1, Math.max(rowDownHigh, rank), Math.min(rowDownLow, rank), rowUp);
      else lineTerms(rowUp + 1, Math.max(rowUpHigh, rank), Math.min(rowUpLow, rank), rowDown);
    } else if (columnTurns !== 0 && board[TOP_CARD + a * SIDE + c] >= 0) {
      turnedTerms(board, a, a * SIDE + c);
    } else {
      risk += LINE_RISK[a];
      gain += LINE_GAIN[a];
      continue;
    }
    risk += TERMS[0];
    gain += TERMS[1];
  }
  for (let b = colLow; b <= colHigh; b += 1) {
    if (b === c) {
      if (columnTurns !== 0) lineTerms(colDown + 1, Math.max(colDownHigh, rank), Math.min(colDownLow, rank), colUp);
      else lineTerms(colUp + 1, Math.max(colUpHigh, rank), Math.min(colUpLow, rank), colDown);
    } else if (rowTurns !== 0 && board[TOP_CARD + r * SIDE + b] >= 0) {
      turnedTerms(board, SIDE + b, r * SIDE + b);
    } else {
      risk += LINE_RISK[SIDE + b];
      gain += LINE_GAIN[SIDE + b];
      continue;
    }
    risk += TERMS[0];
    gain += TERMS[1];
  }
  VALUE[0] = weights[0] * down - weights[1] * occupied + weights[2] * risk - weights[3] * gain;
}

/**
 * What the rollout policy thinks of placing `card` at `cell` (lower is better): null for a move that wins at
 * once, a number above any position's for a losing one, else policyValue() of the position after the move.
 * @param {Board} board
 * @param {number} cell
 * @param {number} card
 * @param {Weights} [weights]
 * @returns {number | null}
 */
export function moveValue(board, cell, card, weights = POLICY_WEIGHTS) {
  tallyLines(board);
  judge(board, cell, card, weights);
  return VALUE[0] === WINS ? null : VALUE[0];
}

/**
 * The rollout policy's cell among `moves[0 .. n - 1]`: a move that wins at once, else the lowest value after
 * the move, a losing move counting as worst (the first in (row, col) order on ties).
 * @param {Board} board
 * @param {number} card
 * @param {Int32Array} moves
 * @param {number} n
 * @param {Weights} [weights]
 */
export function policyChoice(board, card, moves, n, weights = POLICY_WEIGHTS) {
  tallyLines(board);
  let best = -1;
  let bestValue = 1e18;
  for (let i = 0; i < n; i += 1) {
    const cell = moves[i];
    judge(board, cell, card, weights);
    const value = VALUE[0];
    if (value === WINS) return cell;
    if (value < bestValue) {
      bestValue = value;
      best = cell;
    }
  }
  return best;
}

// Scratch space of the playouts.
const PLAYOUT_MOVES = new Int32Array(MAX_MOVES);

/**
 * Play the rollout policy from `board` (changed in place) drawing `stock[turn]` each move; return the status.
 * @param {Board} board
 * @param {Int8Array} stock
 * @param {Weights} weights
 */
export function policyPlayout(board, stock, weights = POLICY_WEIGHTS) {
  while (board[STATUS] === STATUS_PLAYING) {
    const n = legal(board, PLAYOUT_MOVES);
    const card = stock[board[TURN]];
    place(board, policyChoice(board, card, PLAYOUT_MOVES, n, weights), card);
  }
  return board[STATUS];
}

/**
 * The rollout policy's move for the card to place in `game` (null once the game is over).
 * @param {Game} game
 * @returns {Move | null}
 */
export function policyMove(game) {
  const card = game.cardToPlace;
  if (card === null) return null;
  const board = boardOf(game);
  const moves = new Int32Array(MAX_MOVES);
  const n = legal(board, moves);
  return moveOf(policyChoice(board, cardIndex(card), moves, n));
}

// --- random numbers (kernel/rng.py) -----------------------------------------------------------------------

const TWO_32 = 2 ** 32;
// The product mul64() computed last.
let productHigh = 0;
let productLow = 0;

/**
 * The 64-bit product (a * b) mod 2⁶⁴ of two numbers given as unsigned 32-bit halves, into productHigh and
 * productLow; exact (every partial product stays below 2⁵³).
 * @param {number} aHigh
 * @param {number} aLow
 * @param {number} bHigh
 * @param {number} bLow
 */
function mul64(aHigh, aLow, bHigh, bLow) {
  const a0 = aLow & 0xffff;
  const a1 = aLow >>> 16;
  const b0 = bLow & 0xffff;
  const b1 = bLow >>> 16;
  const middle = a0 * b1 + a1 * b0; // below 2³³
  const low = a0 * b0 + (middle % 65536) * 65536; // below 2³³
  productLow = low >>> 0;
  const high = a1 * b1 + Math.floor(middle / 65536) + Math.floor(low / TWO_32);
  productHigh = (high + Math.imul(aHigh, bLow) + Math.imul(aLow, bHigh)) >>> 0;
}

/**
 * SplitMix64, the kernel's generator (the engine's deals use the same one, on BigInt: engine.js's splitmix64),
 * here on two 32-bit halves, which is many times faster than BigInt.
 */
export class SplitMix64 {
  /** @param {bigint | number} seed taken modulo 2⁶⁴ */
  constructor(seed) {
    const state = BigInt.asUintN(64, BigInt(seed));
    this.high = Number(state >> 32n);
    this.low = Number(state & 0xffffffffn);
    /** The last number drawn, as two 32-bit halves. */
    this.outHigh = 0;
    this.outLow = 0;
  }

  /** Draw the next number into outHigh and outLow. */
  step() {
    const low = this.low + 0x7f4a7c15;
    this.high = (this.high + 0x9e3779b9 + (low >= TWO_32 ? 1 : 0)) >>> 0;
    this.low = low >>> 0;
    let hi = this.high;
    let lo = this.low;
    lo = (lo ^ ((lo >>> 30) | (hi << 2))) >>> 0;
    hi = (hi ^ (hi >>> 30)) >>> 0;
    mul64(hi, lo, 0xbf58476d, 0x1ce4e5b9);
    hi = productHigh;
    lo = productLow;
    lo = (lo ^ ((lo >>> 27) | (hi << 5))) >>> 0;
    hi = (hi ^ (hi >>> 27)) >>> 0;
    mul64(hi, lo, 0x94d049bb, 0x133111eb);
    hi = productHigh;
    lo = productLow;
    this.outLow = (lo ^ ((lo >>> 31) | (hi << 1))) >>> 0;
    this.outHigh = (hi ^ (hi >>> 31)) >>> 0;
  }

  /** The next 64-bit number. */
  next() {
    this.step();
    return (BigInt(this.outHigh) << 32n) | BigInt(this.outLow);
  }

  /**
   * A random whole number in 0 .. n - 1: the next number modulo n, as the kernel's below().
   * @param {number} n a positive whole number below 2²⁰
   */
  below(n) {
    this.step();
    return ((this.outHigh % n) * (TWO_32 % n) + (this.outLow % n)) % n;
  }
}

/**
 * Shuffle `stock[start ..]` in place (Fisher–Yates, as the kernel's shuffle_tail).
 * @param {Int8Array} stock
 * @param {number} start
 * @param {SplitMix64} random
 */
export function shuffleTail(stock, start, random) {
  for (let i = stock.length - 1; i > start; i -= 1) {
    const j = start + random.below(i - start + 1);
    const card = stock[i];
    stock[i] = stock[j];
    stock[j] = card;
  }
}

// --- Monte Carlo and the race (kernel/montecarlo.py, players/evaluation.py) -----------------------------------

/**
 * Try each of `cells` against `futures` random orders of `unseen`: results[f * cells.length + i] becomes the
 * final score of placing `card` at cells[i] and playing future f out with the rollout policy, -1 for a loss.
 * Every cell meets the same futures (common random numbers); each future shuffles the previous one again.
 * @param {Board} board
 * @param {number} card
 * @param {Int8Array} unseen
 * @param {readonly number[]} cells
 * @param {SplitMix64} random
 * @param {number} futures
 * @param {Int8Array} results
 * @param {Weights} weights
 */
export function monteCarlo(board, card, unseen, cells, random, futures, results, weights = POLICY_WEIGHTS) {
  const turn = board[TURN];
  const stock = new Int8Array(DECK_SIZE);
  stock[turn] = card;
  stock.set(unseen, turn + 1);
  const work = new Int8Array(STATE_SIZE);
  for (let f = 0; f < futures; f += 1) {
    shuffleTail(stock, turn + 1, random);
    for (let i = 0; i < cells.length; i += 1) {
      work.set(board);
      place(work, cells[i], card);
      if (work[STATUS] === STATUS_PLAYING) policyPlayout(work, stock, weights);
      results[f * cells.length + i] = work[STATUS] === STATUS_WON ? work[SCORE] : -1;
    }
  }
}

/**
 * The sum of `values` in numpy's order (pairwise summation, blocks of 8 up to 128), so that a standard
 * deviation here is the bit-for-bit the one numpy computes on the server.
 * @param {Float64Array} values
 * @param {number} start
 * @param {number} n
 * @returns {number}
 */
function pairwiseSum(values, start, n) {
  if (n < 8) {
    let sum = 0.0;
    for (let i = 0; i < n; i += 1) sum += values[start + i];
    return sum;
  }
  if (n <= 128) {
    const r = Array.from(values.subarray(start, start + 8));
    let i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (let j = 0; j < 8; j += 1) r[j] += values[start + i + j];
    }
    let sum = r[0] + r[1] + (r[2] + r[3]) + (r[4] + r[5] + (r[6] + r[7]));
    for (; i < n; i += 1) sum += values[start + i];
    return sum;
  }
  let half = Math.floor(n / 2);
  half -= half % 8;
  return pairwiseSum(values, start, half) + pairwiseSum(values, start + half, n - half);
}

/**
 * The moves still in the race: the leader by mean value, and every move that the paired differences on the
 * shared futures do not show below it by CONFIDENCE standard errors.
 * @param {number[]} alive
 * @param {number[][]} paired per move: its value on each future it met
 * @param {Entry[]} entries
 */
function survivors(alive, paired, entries) {
  let lead = alive[0];
  for (const i of alive) {
    if (entries[i].value / entries[i].samples > entries[lead].value / entries[lead].samples) lead = i;
  }
  const leader = paired[lead];
  const m = leader.length;
  const diff = new Float64Array(m);
  const squares = new Float64Array(m);
  return alive.filter((i) => {
    if (i === lead) return true;
    const values = paired[i];
    for (let k = 0; k < m; k += 1) diff[k] = values[k] - leader[k];
    const mean = pairwiseSum(diff, 0, m) / m;
    for (let k = 0; k < m; k += 1) squares[k] = (diff[k] - mean) * (diff[k] - mean);
    const se = Math.sqrt(pairwiseSum(squares, 0, m) / m) / Math.sqrt(m);
    return mean + CONFIDENCE * se >= 0;
  });
}

/**
 * The seed of one decision, as the server's: the player's seed mixed with the turn and the card to place.
 * @param {bigint | number} seed
 * @param {number} turn
 * @param {number} card
 */
const decisionSeed = (seed, turn, card) =>
  BigInt.asUintN(64, BigInt(seed) * 0x9e3779b97f4a7c15n + BigInt(turn) * 0x100000001b3n + BigInt(card));

/**
 * Race the legal `cells` against each other by mean `score + bonus * won`: rounds of BATCH futures played out
 * after every move still in the race, until `playouts` playouts in all, or one move is left after MIN_ROUNDS
 * rounds; a move clearly behind the leader leaves. Moves still in the race first, by mean value; the others
 * after them, last to leave first.
 * @param {Board} board
 * @param {number} card
 * @param {Int8Array} unseen
 * @param {readonly number[]} cells
 * @param {bigint} seed the decision's seed
 * @param {number} playouts
 * @param {number} bonus
 * @param {Weights} weights
 * @returns {Entry[]}
 */
export function race(board, card, unseen, cells, seed, playouts, bonus, weights = POLICY_WEIGHTS) {
  /** @type {Entry[]} */
  const entries = cells.map((_, index) => ({ index, wins: 0, scores: 0, samples: 0, value: 0, left: -1 }));
  /** @type {number[][]} */
  const paired = cells.map(() => []);
  const random = new SplitMix64(seed);
  const unboxed = Float64Array.from(weights); // read unboxed in the playouts
  let alive = cells.map((_, i) => i);
  let spent = 0;
  let rounds = 0;
  for (;;) {
    const results = new Int8Array(BATCH * alive.length);
    monteCarlo(board, card, unseen, alive.map((i) => cells[i]), random, BATCH, results, unboxed);
    for (const [j, i] of alive.entries()) {
      const entry = entries[i];
      let value = 0;
      for (let k = 0; k < BATCH; k += 1) {
        const score = results[k * alive.length + j];
        const worth = score >= 0 ? score + bonus : 0;
        if (score >= 0) {
          entry.wins += 1;
          entry.scores += score;
        }
        value += worth;
        paired[i].push(worth);
      }
      entry.value += value;
      entry.samples += BATCH;
    }
    spent += BATCH * alive.length;
    rounds += 1;
    alive = survivors(alive, paired, entries);
    for (const entry of entries) if (entry.left < 0 && !alive.includes(entry.index)) entry.left = rounds;
    if (spent >= playouts || (alive.length === 1 && rounds >= MIN_ROUNDS)) break;
  }
  const rank = (/** @type {Entry} */ entry) => (entry.left < 0 ? 1e9 : entry.left);
  return [...entries].sort(
    (a, b) =>
      rank(b) - rank(a) ||
      b.value / b.samples - a.value / a.samples ||
      b.wins / b.samples - a.wins / a.samples ||
      a.index - b.index,
  );
}

/**
 * The best player's ranking of `cells`, best first: a plain race, and in a risky position (its leader wins
 * less often than RISKY_BELOW) a second race on the same futures that values a win RISK_BONUS points more.
 * @param {Board} board
 * @param {number} card
 * @param {Int8Array} unseen
 * @param {readonly number[]} cells
 * @param {bigint} seed the decision's seed
 * @param {number} playouts
 * @param {Weights} weights
 */
export function rankMoves(board, card, unseen, cells, seed, playouts, weights = POLICY_WEIGHTS) {
  const first = race(board, card, unseen, cells, seed, playouts, WIN_BONUS, weights);
  const leader = first[0].wins / first[0].samples;
  if (leader > 0 && leader < RISKY_BELOW && cells.length > 1) {
    return race(board, card, unseen, cells, seed, playouts, RISK_BONUS, weights);
  }
  return first;
}

/**
 * Every legal move of `game` with its chance of winning and expected score, highest expected score first
 * (ties: the higher win probability, then the race's order), as the server's hint estimates them: the best
 * player's race of `playouts` playouts per ranking (two rankings in a risky position) on futures drawn from the
 * unseen cards with `seed`. With the server's seed, 0, the answer is the server's (GET /api/games/{id}/hint),
 * number for number. Reads only what the player sees of the game. Throws a RangeError once the game is over.
 * @param {Game} game
 * @param {{playouts?: number, seed?: bigint | number}} [options]
 * @returns {Hint}
 */
export function hint(game, { playouts = HINT_PLAYOUTS, seed = 0 } = {}) {
  const card = game.cardToPlace;
  if (card === null) throw new RangeError("the game is over: there is no move to rank");
  if (!Number.isSafeInteger(playouts) || playouts < 1) throw new RangeError(`playouts must be a positive whole number, not ${playouts}`);
  const board = boardOf(game);
  const index = cardIndex(card);
  const moves = game.legalMoves;
  const cells = moves.map(({ row, col }) => cellOf(row, col));
  const ranked = rankMoves(board, index, unseenOf(game), cells, decisionSeed(seed, game.turn, index), playouts);
  const advice = ranked.map((entry) => {
    const { row, col } = moves[entry.index];
    return {
      row,
      col,
      cell: cellName(row, col),
      win_probability: entry.wins / entry.samples,
      expected_score: entry.scores / entry.samples,
      playouts: entry.samples,
    };
  });
  advice.sort((a, b) => b.expected_score - a.expected_score || b.win_probability - a.win_probability);
  return { turn: game.turn, moves: advice };
}
