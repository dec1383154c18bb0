// The page's foresight of a move (src/foursquare/web/static/predict.js) against the page's rules playing the game
// from its stock (engine.js, itself bound to the Python engine by engine.test.mjs): from what a state object shows
// (never the stock), every legal move of every position of random games of the four rule sets is foreseen with
// the same cells, flips, legal cells, face-down count and outcome as the game's own placement; only the next card
// is left unsaid.

import assert from "node:assert/strict";
import { test } from "node:test";

import { Game } from "../../src/foursquare/web/static/engine.js";
import { foresee, positionOf } from "../../src/foursquare/web/static/predict.js";

const VARIANTS = [
  { adjacency: "orthogonal", count_buried: false },
  { adjacency: "orthogonal", count_buried: true },
  { adjacency: "diagonal", count_buried: false },
  { adjacency: "diagonal", count_buried: true },
];

/** A small deterministic generator, so a failure names its game. */
function* numbers(seed) {
  let x = seed >>> 0 || 1;
  for (;;) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    yield (x >>> 0) / 2 ** 32;
  }
}

/** The state object of `game` as the server shows it (docs/api.md): what the page knows. */
const shown = (game) => ({ ...game.state(), id: "g", deal: null, yours: true });

test("every legal move of 200 random games is foreseen as the rules play it", () => {
  let foreseen = 0;
  for (let index = 0; index < 200; index += 1) {
    const variant = VARIANTS[index % VARIANTS.length];
    const game = new Game({ deal: index, variant });
    const random = numbers(index + 1);
    while (!game.isOver) {
      const state = shown(game);
      assert.ok(positionOf(/** @type {any} */ (state)), `deal ${index}, turn ${game.turn}: position not set up`);
      for (const { row, col } of game.legalMoves) {
        const result = foresee(/** @type {any} */ (state), row, col);
        assert.ok(result, `deal ${index}, turn ${game.turn}: (${row}, ${col}) not foreseen`);
        const truth = game.copy();
        const placement = truth.place(row, col);
        const after = truth.state();
        assert.deepEqual(result.placed, { row, col, cell: placement.cell, card: placement.card });
        assert.deepEqual(result.flips, placement.flips.map((flip) => ({ ...flip })));
        const { card, can_redo: _redo, ...rest } = after;
        const { card: none, can_redo: _redo2, id: _id, deal: _deal, yours: _yours, ...guess } = result.state;
        assert.equal(none, null);
        assert.deepEqual(guess, rest, `deal ${index}, turn ${game.turn}: (${row}, ${col})`);
        foreseen += 1;
      }
      const moves = game.legalMoves;
      const { row, col } = moves[Math.floor(random.next().value * moves.length)];
      game.place(row, col);
    }
    assert.equal(positionOf(/** @type {any} */ (shown(game))), null, "a game over has no move to foresee");
  }
  assert.ok(foreseen > 10_000, `only ${foreseen} moves foreseen`);
});

test("an illegal cell, or a state the rules do not give back, is not foreseen", () => {
  const game = new Game({ deal: 7 });
  game.place(0, 0);
  const state = shown(game);
  assert.equal(foresee(/** @type {any} */ (state), 3, 3), null);
  assert.equal(foresee(/** @type {any} */ ({ ...state, face_down: state.face_down + 1 }), 0, 1), null);
  assert.equal(foresee(/** @type {any} */ ({ ...state, legal: [[0, 1]] }), 0, 1), null);
  assert.ok(foresee(/** @type {any} */ (state), 0, 1));
});
