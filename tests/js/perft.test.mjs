// The page's two copies of the rules count the golden perft table (tests/golden/perft.json, written by
// tools/perft.py from the Python engine; tests/perft_support.py says what each count is): engine.js's Game, and
// policy.js's compact board (the kernel's layout, whose legal cells and placements the page's hint plays).
//
//   node --test tests/js/perft.test.mjs

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { Game, cardIndex, dealStock } from "../../src/foursquare/web/static/engine.js";
import {
  MAX_MOVES,
  STATUS_LOST_FACE_DOWN,
  STATUS_LOST_STOCK,
  STATUS_WON,
  cellOf,
  emptyBoard,
  legal,
  place,
  reading,
} from "../../src/foursquare/web/static/policy.js";

const GOLDEN = JSON.parse(readFileSync(new URL("../golden/perft.json", import.meta.url), "utf8"));
assert.equal(GOLDEN.format, "foursquare-perft");
const CELLS = 81; // policy.js's board: a 9 × 9 area around the first card

/** @param {number} depth */
const emptyTable = (depth) =>
  Array.from({ length: depth + 1 }, () => ({
    positions: 0,
    moves: 0,
    covers: 0,
    flips: 0,
    face_down: 0,
    won: 0,
    too_many_face_down: 0,
    stock_empty: 0,
  }));

/** Count one position into a depth's row. */
function tally(row, faceDown, moves, ending) {
  row.positions += 1;
  row.moves += moves;
  row.face_down += faceDown;
  if (ending !== null) row[ending] += 1;
}

/** The perft counts of engine.js's Game in the root's position. */
function enginePerft(root) {
  const game = new Game({ deal: root.deal, variant: root.variant });
  for (const [row, col] of root.moves) game.place(row, col);
  const rows = emptyTable(root.depth);
  const visit = (d) => {
    const moves = game.legalMoves;
    const { status, reason } = game.outcome;
    tally(rows[d], game.faceDown, moves.length, status === "won" ? "won" : status === "lost" ? reason : null);
    if (d === root.depth) return;
    for (const { row, col } of moves) {
      rows[d + 1].covers += game.pile(row, col) === null ? 0 : 1;
      rows[d + 1].flips += game.place(row, col).flips.length;
      visit(d + 1);
      game.pop();
    }
  };
  visit(0);
  return rows;
}

const ENDINGS = { [STATUS_WON]: "won", [STATUS_LOST_FACE_DOWN]: "too_many_face_down", [STATUS_LOST_STOCK]: "stock_empty" };

/** The perft counts of policy.js's board, played from the empty board with its own place(). */
function boardPerft(root) {
  const stock = dealStock(root.deal).map(cardIndex);
  const board = emptyBoard(root.variant.adjacency === "diagonal", root.variant.count_buried);
  let turn = 0;
  for (const [row, col] of root.moves) place(board, cellOf(row, col), stock[turn++]);
  const rows = emptyTable(root.depth);
  const visit = (board, d) => {
    const out = new Int32Array(MAX_MOVES);
    const n = legal(board, out);
    tally(rows[d], reading.faceDown(board), n, ENDINGS[reading.status(board)] ?? null);
    if (d === root.depth) return;
    for (const cell of out.subarray(0, n)) {
      const child = board.slice();
      place(child, cell, stock[turn + d]);
      rows[d + 1].covers += reading.occupied(board, cell) ? 1 : 0;
      for (let other = 0; other < CELLS; other += 1) {
        if (other !== cell && reading.faceUp(child, other) !== reading.faceUp(board, other)) rows[d + 1].flips += 1;
      }
      visit(child, d + 1);
    }
  };
  visit(board, 0);
  return rows;
}

const ruleSet = ({ adjacency, count_buried }) => `${adjacency}${count_buried ? "+buried" : ""}`;

for (const [copy, perft] of [
  ["engine.js", enginePerft],
  ["policy.js's board", boardPerft],
]) {
  test(`${copy} counts the golden perft table`, () => {
    for (const root of GOLDEN.roots) {
      assert.deepEqual(perft(root), root.counts, `${copy}: ${ruleSet(root.variant)}-${root.name}`);
    }
  });
}
