// The page's copy of the rules (src/foursquare/web/static/engine.js) against the Python engine: it replays the
// engine's random games written by tests/js_engine_support.py — every action, what it did, the state after it,
// the legal cells, why one more cell is illegal — and shuffles the same stocks for the same deal numbers.
//
//   node --test tests/js/*.test.mjs                                          the committed games (engine_cases.jsonl)
//   FOURSQUARE_JS_ENGINE_CASES=cases.jsonl node --test tests/js/*.test.mjs   a file of more (tests/test_js_engine.py)

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import {
  ALL_CARDS,
  AREA,
  Game,
  IllegalMoveError,
  RulesError,
  cardIndex,
  cardName,
  cardRank,
  cellName,
  cellOfName,
  checkDealNumber,
  dealStock,
  randomDealNumber,
  splitmix64,
  variantOf,
} from "../../src/foursquare/web/static/engine.js";

const CASES = process.env.FOURSQUARE_JS_ENGINE_CASES || new URL("engine_cases.jsonl", import.meta.url);
const [header, ...games] = readFileSync(CASES, "utf8")
  .split("\n")
  .filter((line) => line !== "")
  .map((line) => JSON.parse(line));

// --- the comparison's terms: the same words as tests/js_engine_support.py writes ---------------------------

/** @param {import("../../src/foursquare/web/static/engine.js").Pile} pile */
const pileText = (pile) => `${pile.cell}=${pile.cards.map((card, i) => card + (pile.face_up[i] ? "+" : "-")).join("")}`;

/** @param {import("../../src/foursquare/web/static/engine.js").Outcome} outcome */
const outcomeText = (outcome) => `${outcome.status}/${outcome.reason ?? "-"}/${outcome.score ?? "-"}`;

/** @param {Game} game */
function stateText(game) {
  return [
    `turn=${game.turn}`,
    `card=${game.cardToPlace ?? "-"}`,
    `left=${game.stockLeft}`,
    `down=${game.faceDown}`,
    `outcome=${outcomeText(game.outcome)}`,
    `undo=${game.canUndo ? 1 : 0}`,
    `redo=${game.redoMoves.map(({ row, col }) => cellName(row, col)).join(",")}`,
    `piles=${game.piles().map(pileText).join(" ")}`,
  ].join(" ");
}

/** @param {import("../../src/foursquare/web/static/engine.js").Placement} placement */
function placementText(placement) {
  const flips = placement.flips
    .map((flip) => `${flip.cell}:${flip.card}${flip.face_up ? "+" : "-"}${flip.line}/${flip.reason}`)
    .join(" ");
  return `${placement.cell} ${placement.card} flips=${flips} outcome=${outcomeText(placement.outcome)}`;
}

/**
 * @typedef {import("../../src/foursquare/web/static/engine.js").Placement} Placement
 */

/**
 * Do one of a recorded game's actions; what it did, in the comparison's words, and the card it placed if any.
 * @param {Game} game
 * @param {string} action
 * @returns {[string, Placement | null]}
 */
function act(game, action) {
  switch (action) {
    case "start":
      return ["", null];
    case "restart":
      game.restart();
      return ["", null];
    case "undo":
      return [placementText(game.undo()), null];
    case "pop":
      return [placementText(game.pop()), null];
    case "redo": {
      let placement;
      try {
        placement = game.redo();
      } catch (error) {
        if (!(error instanceof IllegalMoveError)) throw error;
        return [`illegal ${error.reason}`, null];
      }
      return [placementText(placement), placement];
    }
    default: {
      const { row, col } = cellOfName(action);
      const placement = game.place(row, col);
      return [placementText(placement), placement];
    }
  }
}

/**
 * What the page reads of the game (Game.state(), the API's shape) says the same as the engine's own terms.
 * @param {Game} game
 * @param {string} where
 */
function checkState(game, where) {
  const state = game.state();
  const outcome = game.outcome;
  assert.deepEqual(
    [state.turn, state.card, state.stock_left, state.face_down, state.outcome, state.reason, state.score],
    [game.turn, game.cardToPlace, game.stockLeft, game.faceDown, outcome.status, outcome.reason, outcome.score],
    where,
  );
  assert.deepEqual(state.legal_cells, game.legalCells, where);
  assert.deepEqual(state.legal.map(([row, col]) => cellName(row, col)), game.legalCells, where);
  assert.deepEqual(
    state.cells,
    game.piles().map((pile) => ({
      row: pile.row,
      col: pile.col,
      cell: pile.cell,
      height: pile.cards.length,
      card: pile.cards[pile.cards.length - 1],
      face_up: pile.face_up[pile.face_up.length - 1],
    })),
    where,
  );
  assert.equal(state.can_undo, game.canUndo && !game.isOver, where);
  assert.equal(state.can_redo, game.canRedo && !game.isOver, where);
  for (const { row, col } of game.legalMoves) assert.equal(game.illegality(row, col), null, where);
}

/**
 * Replay one recorded game and compare every step.
 * @param {any} record
 * @param {number} index
 */
function replay(record, index) {
  const game =
    record.deal === null
      ? new Game({ stock: record.stock.split(" "), variant: record.variant })
      : new Game({ deal: BigInt(record.deal), variant: record.variant });
  const name = `game ${index} (${record.deal === null ? "an explicit stock" : `deal ${record.deal}`}, ${JSON.stringify(record.variant)})`;
  assert.deepEqual(game.variant, record.variant, name);
  assert.equal(game.deal, record.deal === null ? null : BigInt(record.deal), name);
  const answers = new Map(record.answers);
  for (const [step, [action, did, state, legal, probe]] of record.steps.entries()) {
    const where = `${name}, step ${step} (${action})`;
    const [done, placement] = act(game, action);
    assert.equal(done, did, `${where}: what it did`);
    const answer = answers.get(step);
    if (answer !== undefined) {
      // The server's answer to this move (foursquare.web.views): the page can draw engine.js's as it draws it.
      const { placed, flips, ...fields } = answer;
      assert.ok(placement !== null, where);
      const { row, col, cell, card } = placement;
      assert.deepEqual({ ...game.state(), placed: { row, col, cell, card }, flips: placement.flips }, { ...fields, placed, flips }, `${where}: the server's answer`);
    }
    const text = stateText(game);
    assert.equal(text, state, `${where}: the state after it`);
    assert.equal(game.legalCells.join(","), legal, `${where}: the legal cells`);
    const [row, col, reason, message] = probe;
    const error = game.illegality(row, col);
    assert.deepEqual(error === null ? [null, null] : [error.reason, error.message], [reason, message], `${where}: cell (${row}, ${col})`);
    if (error !== null) {
      assert.throws(() => game.place(row, col), (thrown) => thrown instanceof IllegalMoveError && thrown.reason === reason);
      assert.equal(stateText(game), text, `${where}: an illegal placement changed the game`);
    }
    checkState(game, where);
  }
  return game;
}

// --- the games -----------------------------------------------------------------------------------------------

test("the file holds the games its header announces, in the four rule sets", () => {
  assert.equal(header.format, "foursquare-js-engine-cases");
  assert.equal(games.length, header.games);
  assert.ok(games.every((record) => record.answers.length > 0), "each game has one of the server's answers at least");
  const sets = new Set(games.map((record) => JSON.stringify(record.variant)));
  assert.equal(sets.size, Math.min(4, games.length));
});

for (const adjacency of ["orthogonal", "diagonal"]) {
  for (const countBuried of [false, true]) {
    test(`the engine's games replay identically: ${adjacency}, count_buried ${countBuried}`, (t) => {
      let steps = 0;
      let ended = 0;
      for (const [index, record] of games.entries()) {
        if (record.variant.adjacency !== adjacency || record.variant.count_buried !== countBuried) continue;
        const game = replay(record, index);
        steps += record.steps.length;
        ended += game.isOver ? 1 : 0;
      }
      t.diagnostic(`${steps} steps compared, ${ended} games ended over`);
    });
  }
}

test("a copy plays on without touching the game it was copied from", () => {
  const record = games.find((candidate) => candidate.steps.length > 12) ?? games[0];
  const game = replay({ ...record, steps: record.steps.slice(0, 10) }, 0);
  const before = stateText(game);
  const copy = game.copy();
  assert.equal(stateText(copy), before);
  while (copy.canUndo) copy.undo();
  const [first] = copy.legalMoves;
  copy.place(first.row, first.col);
  assert.equal(stateText(game), before);
  while (game.canUndo) game.undo();
  while (game.canRedo) game.redo();
  assert.equal(stateText(game), before, "undoing every card and redoing them all comes back");
});

// --- numbered deals ------------------------------------------------------------------------------------------

test("numbered deals shuffle the same stock as the Python engine", () => {
  assert.ok(header.deals.length >= 14);
  for (const [deal, stock] of header.deals) {
    assert.equal(dealStock(BigInt(deal)).join(" "), stock, `deal ${deal}`);
    assert.equal(dealStock(deal).join(" "), stock, `deal "${deal}"`);
    if (BigInt(deal) <= BigInt(Number.MAX_SAFE_INTEGER)) assert.equal(dealStock(Number(deal)).join(" "), stock);
    assert.equal(new Game({ deal }).stock.join(" "), stock);
  }
  const last = header.deals.find(([deal]) => deal === "18446744073709551615");
  assert.ok(last, "the deals include 2**64 - 1");
});

test("SplitMix64 draws the Python engine's numbers", () => {
  for (const [seed, numbers] of header.splitmix64) {
    const drawn = splitmix64(BigInt(seed));
    assert.deepEqual(numbers.map(() => String(drawn.next().value)), numbers, `seed ${seed}`);
  }
});

test("a deal number is a whole number from 0 to 2**64 - 1", () => {
  assert.equal(checkDealNumber("18446744073709551615"), 18446744073709551615n);
  assert.equal(checkDealNumber(0), 0n);
  for (const bad of [-1, 2 ** 53, 1.5, NaN, -1n, 18446744073709551616n, "18446744073709551616", "-3", "1e3", " 7", "", "0x10"]) {
    assert.throws(() => checkDealNumber(/** @type {any} */ (bad)), RulesError, String(bad));
  }
  const random = randomDealNumber();
  assert.ok(random >= 0n && random < 1n << 64n);
  assert.equal(new Game().stock.length, 40);
});

// --- names, house rules and errors ---------------------------------------------------------------------------

test("cards and cells have the engine's names", () => {
  assert.deepEqual(ALL_CARDS.slice(0, 5), ["AC", "AD", "AH", "AS", "2C"]);
  assert.equal(ALL_CARDS[39], "10S");
  assert.deepEqual([cardIndex("10s"), cardIndex(" ah "), cardName(0), cardRank("10H"), cardRank("AS")], [39, 2, "AC", 10, 1]);
  for (const bad of ["1C", "11S", "AX", "", "010S", "K"]) assert.throws(() => cardIndex(bad), RulesError, bad);
  assert.equal(cellName(0, 0), "D4");
  assert.equal(cellName(-1, 2), "F3");
  assert.deepEqual(cellOfName("a7"), { row: 3, col: -3 });
  assert.throws(() => cellName(4, 0), RulesError);
  assert.throws(() => cellOfName("H1"), RulesError);
  assert.deepEqual(AREA.column_names, ["A", "B", "C", "D", "E", "F", "G"]);
  assert.deepEqual(AREA.row_names, ["1", "2", "3", "4", "5", "6", "7"]);
});

test("house rules are checked as the engine checks them", () => {
  assert.deepEqual(variantOf(undefined), { adjacency: "orthogonal", count_buried: false });
  assert.deepEqual(variantOf({ count_buried: true }), { adjacency: "orthogonal", count_buried: true });
  for (const bad of [{ adjacency: "hex" }, { adjacency: null }, { count_buried: "yes" }, { colour: "red" }, [], "diagonal"]) {
    assert.throws(() => variantOf(bad), RulesError, JSON.stringify(bad));
  }
});

test("a game is made of a deal or a stock, and says why a move is refused", () => {
  assert.throws(() => new Game({ deal: 1, stock: [...ALL_CARDS] }), RulesError);
  assert.throws(() => new Game({ stock: ALL_CARDS.slice(1) }), /missing: AC/);
  assert.throws(() => new Game({ stock: [...ALL_CARDS.slice(1), "AD"] }), /duplicate card AD/);
  const game = new Game({ deal: 1 });
  assert.equal(game.illegality(0.5, 0)?.reason, "bad_cell");
  assert.equal(game.illegality(/** @type {any} */ ("0"), 0)?.reason, "bad_cell");
  assert.equal(game.illegality(0, 1)?.message, "cannot place a card at (0, 1): the first card goes to D4");
  assert.throws(() => game.undo(), RangeError);
  assert.throws(() => game.redo(), RangeError);
  // Deal 1 as docs/rules.md plays it.
  assert.equal(game.place(0, 0).flips.length, 0);
  assert.deepEqual(game.place(0, 1).flips, [{ row: 0, col: 0, cell: "D4", card: "3S", face_up: false, line: "row", reason: "lowest" }]);
  assert.equal(game.place(1, 1).flips[0].card, "AH");
  assert.equal(game.faceDown, 2);
  assert.deepEqual(
    game.place(1, 0).flips.map((flip) => [flip.card, flip.face_up, flip.line]),
    [["5C", false, "row"], ["3S", true, "column"]],
  );
  assert.ok(Object.isFrozen(game.placements[0]), "a game's history cannot be changed from outside");
});

test("a pop keeps the redo list, whose next move may no longer be legal: redoing it throws and drops it", () => {
  // As the engine: Game(deal=1), place D4 and E4, undo, pop; redo raises first_card and the redo list is empty.
  const game = new Game({ deal: 1 });
  game.place(0, 0);
  game.place(0, 1);
  game.undo();
  game.pop();
  assert.deepEqual(game.redoMoves, [{ row: 0, col: 1 }]);
  assert.throws(() => game.redo(), (error) => error instanceof IllegalMoveError && error.reason === "first_card");
  assert.deepEqual([game.canRedo, game.turn], [false, 0]);
});
