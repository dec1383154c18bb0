// The page's copy of the best player's rollout policy and of the hint (src/foursquare/web/static/policy.js)
// against the compiled kernel's: it replays the games written by tests/js_policy_support.py through engine.js and,
// at every position before a card is placed, asks policy.js for the rollout policy's move and its value of every
// legal move, which must be the kernel's; where the file holds the server's hint, policy.js's hint must be the
// same, number for number; and its generator draws the kernel's numbers.
//
//   node --test tests/js/*.test.mjs                                          the committed positions (policy_cases.jsonl)
//   FOURSQUARE_JS_POLICY_CASES=cases.jsonl node --test tests/js/policy.test.mjs   a file of more (tests/test_js_policy.py)

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { Game, cardIndex, cellName, cellOfName, dealStock } from "../../src/foursquare/web/static/engine.js";
import {
  BATCH,
  CONFIDENCE,
  HINT_PLAYOUTS,
  MAX_MOVES,
  MIN_ROUNDS,
  POLICY_WEIGHTS,
  RISKY_BELOW,
  RISK_BONUS,
  STATE_SIZE,
  STATUS_PLAYING,
  SplitMix64,
  WIN_BONUS,
  boardOf,
  cellOf,
  hint,
  emptyBoard,
  legal,
  moveOf,
  moveValue,
  place,
  policyChoice,
  policyMove,
  policyValue,
  shuffleTail,
  unseenOf,
} from "../../src/foursquare/web/static/policy.js";

const CASES = process.env.FOURSQUARE_JS_POLICY_CASES || new URL("policy_cases.jsonl", import.meta.url);
const [header, ...games] = readFileSync(CASES, "utf8")
  .split("\n")
  .filter((line) => line !== "")
  .map((line) => JSON.parse(line));

/**
 * Replay one recorded game, checking the policy at every position (and the hint where the file has one).
 * @param {any} record
 * @param {number} index
 * @returns {{positions: number, hints: number, risky: number}}
 */
function replay(record, index) {
  const game = new Game({ deal: BigInt(record.deal), variant: record.variant });
  const name = `game ${index} (deal ${record.deal}, ${JSON.stringify(record.variant)})`;
  const hints = new Map(record.hints.map(([/** @type {number} */ position, answer, risky]) => [position, [answer, risky]]));
  const moves = new Int32Array(MAX_MOVES);
  let risky = 0;
  assert.equal(record.policy.length, record.moves.length, name);
  for (const [position, played] of record.moves.entries()) {
    const where = `${name}, position ${position} (turn ${game.turn}, card ${game.cardToPlace})`;
    const board = boardOf(game);
    const card = cardIndex(/** @type {string} */ (game.cardToPlace));
    const n = legal(board, moves);
    const cells = [...moves.subarray(0, n)];
    assert.deepEqual(cells.map((cell) => moveOf(cell)), game.legalMoves, `${where}: the legal cells`);
    assert.deepEqual(cells.map((cell) => moveValue(board, cell, card)), record.values[position], `${where}: the values`);
    const choice = policyChoice(board, card, moves, n);
    const { row, col } = moveOf(choice);
    assert.equal(cellName(row, col), record.policy[position], `${where}: the policy's move`);
    assert.deepEqual(policyMove(game), { row, col }, where);
    const asked = hints.get(position);
    if (asked !== undefined) {
      const [answer, wasRisky] = asked;
      assert.deepEqual(hint(game), answer, `${where}: the hint`);
      risky += wasRisky ? 1 : 0;
    }
    const move = cellOfName(played);
    game.place(move.row, move.col);
  }
  assert.ok(game.isOver, `${name} is played to its end`);
  return { positions: record.moves.length, hints: hints.size, risky };
}

// --- the positions -------------------------------------------------------------------------------------------

test("the file holds the games and positions its header announces, in the four rule sets", () => {
  assert.equal(header.format, "foursquare-js-policy-cases");
  assert.equal(games.length, header.games);
  assert.equal(games.reduce((sum, record) => sum + record.moves.length, 0), header.positions);
  assert.equal(games.reduce((sum, record) => sum + record.hints.length, 0), header.hints);
  const sets = new Set(games.map((record) => JSON.stringify(record.variant)));
  assert.equal(sets.size, Math.min(4, games.length));
});

test("the policy and the race have the kernel's settings", () => {
  assert.deepEqual([...POLICY_WEIGHTS], header.weights);
  assert.deepEqual(
    [HINT_PLAYOUTS, BATCH, MIN_ROUNDS, CONFIDENCE, WIN_BONUS, RISKY_BELOW, RISK_BONUS, "expected_score"],
    [header.hint_playouts, header.batch, header.min_rounds, header.confidence, header.win_bonus, header.risky_below, header.risk_bonus, header.hint_ranked_by],
  );
});

for (const adjacency of ["orthogonal", "diagonal"]) {
  for (const countBuried of [false, true]) {
    test(`the rollout policy moves as the kernel's, and the hint is the server's: ${adjacency}, count_buried ${countBuried}`, (t) => {
      let positions = 0;
      let hints = 0;
      let risky = 0;
      for (const [index, record] of games.entries()) {
        if (record.variant.adjacency !== adjacency || record.variant.count_buried !== countBuried) continue;
        const done = replay(record, index);
        positions += done.positions;
        hints += done.hints;
        risky += done.risky;
      }
      t.diagnostic(`${positions} positions, ${hints} hints (${risky} risky) compared`);
    });
  }
}

/**
 * Whether moveValue() (which values a move from a tally of the board's lines) gives what the kernel's way gives:
 * placing the card on a copy of the board and valuing the copy with policyValue(); null for a win at once.
 * @param {Int8Array} board
 * @param {number} cell
 * @param {number} card
 * @param {Int8Array} work
 */
function valuedAsPlaced(board, cell, card, work) {
  work.set(board);
  place(work, cell, card);
  const value = moveValue(board, cell, card);
  if (work[STATUS_INDEX] !== STATUS_PLAYING) return value === null || value >= 1e9 - 16;
  return value === policyValue(work);
}

const STATUS_INDEX = STATE_SIZE - 4; // the layout of kernel/state.py: STATUS, SCORE and the two house rules last

test("a move's value from the tally of the lines is the value of the board with the card placed", (t) => {
  const random = new SplitMix64(42n);
  const moves = new Int32Array(MAX_MOVES);
  const work = new Int8Array(STATE_SIZE);
  let judged = 0;
  for (let game = 0; game < 2000; game += 1) {
    const board = emptyBoard(game % 2 === 1, game % 4 >= 2);
    const stock = Int8Array.from({ length: 40 }, (_, i) => i);
    shuffleTail(stock, 0, random);
    for (let turn = 0; board[STATUS_INDEX] === STATUS_PLAYING; turn += 1) {
      const n = legal(board, moves);
      for (let i = 0; i < n; i += 1) {
        judged += 1;
        assert.ok(valuedAsPlaced(board, moves[i], stock[turn], work), `game ${game}, turn ${turn}, cell ${moves[i]}`);
      }
      // mostly random moves (boards the policy would not make), now and then the policy's own
      const cell = random.below(4) === 0 ? policyChoice(board, stock[turn], moves, n) : moves[random.below(n)];
      place(board, cell, stock[turn]);
    }
  }
  t.diagnostic(`${judged} moves valued both ways`);
});

// --- the hint sees what the player sees --------------------------------------------------------------------------

test("a hint reads only the player's view: another order of the unseen cards gives the same hint", () => {
  const stock = dealStock(7);
  const game = new Game({ stock });
  for (let i = 0; i < 9; i += 1) {
    const move = /** @type {import("../../src/foursquare/web/static/engine.js").Move} */ (policyMove(game));
    game.place(move.row, move.col);
  }
  const seen = game.turn + 1; // the cards placed and the card to place
  const other = new Game({ stock: [...stock.slice(0, seen), ...stock.slice(seen).reverse()] });
  for (const { row, col } of game.moves) other.place(row, col);
  assert.notDeepEqual(other.stock, game.stock);
  assert.deepEqual([...unseenOf(other)], [...unseenOf(game)]);
  assert.deepEqual(hint(other, { playouts: 64 }), hint(game, { playouts: 64 }));
});

test("a hint ranks every legal move, highest expected score first; another seed samples other futures", () => {
  const game = new Game({ deal: 11, variant: { adjacency: "diagonal", count_buried: false } });
  for (let i = 0; i < 5; i += 1) {
    const move = /** @type {import("../../src/foursquare/web/static/engine.js").Move} */ (policyMove(game));
    game.place(move.row, move.col);
  }
  const answer = hint(game, { playouts: 96 });
  assert.equal(answer.turn, 5);
  assert.deepEqual(answer.moves.map((advice) => advice.cell).sort(), [...game.legalCells].sort());
  for (const advice of answer.moves) {
    assert.equal(advice.cell, cellName(advice.row, advice.col));
    assert.ok(advice.win_probability >= 0 && advice.win_probability <= 1 && advice.playouts >= BATCH);
  }
  const scores = answer.moves.map((advice) => advice.expected_score);
  assert.deepEqual(scores, [...scores].sort((a, b) => b - a));
  assert.deepEqual(hint(game, { playouts: 96, seed: 0n }), answer, "seed 0 is the default, the server's");
  assert.notDeepEqual(hint(game, { playouts: 96, seed: 5 }), answer);
});

test("no hint once the game is over, nor with a playout count that is not a positive whole number", () => {
  const game = new Game({ deal: 3 });
  for (const bad of [0, -1, 1.5, NaN]) assert.throws(() => hint(game, { playouts: bad }), RangeError, String(bad));
  while (!game.isOver) {
    const move = /** @type {import("../../src/foursquare/web/static/engine.js").Move} */ (policyMove(game));
    game.place(move.row, move.col);
  }
  assert.equal(policyMove(game), null);
  assert.throws(() => hint(game), RangeError);
});

test("the first card has one place, and the hint says so", () => {
  const answer = hint(new Game({ deal: 5 }));
  assert.deepEqual(answer.moves.map((advice) => [advice.cell, advice.playouts]), [["D4", BATCH * MIN_ROUNDS]]);
  assert.equal(cellOf(0, 0), cellOf(moveOf(cellOf(0, 0)).row, moveOf(cellOf(0, 0)).col));
});

// --- random numbers ----------------------------------------------------------------------------------------------

test("the generator draws the kernel's numbers, remainders and shuffles", () => {
  assert.ok(header.random.length >= 5);
  for (const { seed, next, below, shuffle } of header.random) {
    const numbers = new SplitMix64(BigInt(seed));
    assert.deepEqual(next.map(() => String(numbers.next())), next, `seed ${seed}`);
    const remainders = new SplitMix64(BigInt(seed));
    assert.deepEqual(below.map(([/** @type {number} */ n]) => [n, remainders.below(n)]), below, `seed ${seed}`);
    const stock = Int8Array.from({ length: 40 }, (_, i) => i);
    shuffleTail(stock, 5, new SplitMix64(BigInt(seed)));
    assert.deepEqual([...stock], shuffle, `seed ${seed}`);
  }
});
