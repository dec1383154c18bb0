// @ts-check
// The move shows at once (issue 42, part 4): what placing the card to place at (row, col) does to a game of the
// server, foreseen by the page's copy of the rules (engine.js) from what the page knows of the game — its piles'
// top cards, which way they face and how high they are, the face-down count, the card to place and the turn.
// The stock stays on the server: the next card is not foreseen (the state foreseen has none), and the server,
// asked meanwhile, stays the judge: its answer is what the page shows in the end (game.js).
//
// engine.js plays a game from its stock, so the position is set into a Game as Game.copy() sets one, with a
// stock whose card at the turn is the card to place (the cards under the tops are never seen, nor needed: a
// flip turns a top, a win needs the tops, and the face-down count says how many buried cards face down). The
// position made is checked against the state it was made from (cells, legal cells, face-down count) before
// anything is foreseen: if it is not the same, nothing is, and the page waits for the server as before.

import { ALL_CARDS, AREA_REACH, AREA_SIDE, Game, cardIndex } from "./engine.js";

/**
 * @typedef {import("./api.js").GameState} GameState
 * @typedef {import("./api.js").Placed} Placed
 * @typedef {import("./api.js").Flip} Flip
 * @typedef {{state: GameState, placed: Placed, flips: Flip[]}} Foreseen a move's result as the server will
 *   answer it (docs/api.md, a MoveAnswer), but for the next card: `state.card` is null until the server says it
 */

/**
 * What the page knows of a position, as the state object shows it: the moment's own text, to compare.
 * @param {Pick<GameState, "cells" | "legal" | "face_down" | "turn">} state
 */
const known = ({ cells, legal, face_down: faceDown, turn }) =>
  JSON.stringify({
    cells: [...cells]
      .sort((a, b) => a.row - b.row || a.col - b.col)
      .map(({ row, col, height, card, face_up: up }) => [row, col, height, card, up]),
    legal: [...legal].sort((a, b) => a[0] - b[0] || a[1] - b[1]),
    faceDown,
    turn,
  });

/**
 * The rules of `state`'s position, or null if the page cannot set it up (a game over, or a state the rules do
 * not give back as it is).
 * @param {GameState} state
 * @returns {Game | null}
 */
export function positionOf(state) {
  if (state.outcome !== "playing" || state.card === null) return null;
  const card = state.card;
  if (!Number.isInteger(state.turn) || state.turn < 0 || state.turn >= ALL_CARDS.length) return null;
  const stock = ALL_CARDS.filter((name) => name !== card);
  stock.splice(state.turn, 0, card);
  const game = new Game({ stock, variant: state.variant });
  const topsDown = state.cells.filter((cell) => !cell.face_up).length;
  let buriedDown = state.variant.count_buried ? state.face_down - topsDown : 0;
  /** @type {Map<number, {row: number, col: number, cards: number[], faceUp: boolean[]}>} */
  const piles = new Map();
  for (const cell of state.cells) {
    const top = cardIndex(cell.card);
    const cards = Array.from({ length: cell.height }, () => top); // the buried cards' names are never read
    const faceUp = cards.map((_, index) => {
      if (index === cell.height - 1) return cell.face_up;
      if (buriedDown <= 0) return true;
      buriedDown -= 1;
      return false;
    });
    piles.set((cell.row + AREA_REACH) * AREA_SIDE + (cell.col + AREA_REACH), { row: cell.row, col: cell.col, cards, faceUp });
  }
  if (buriedDown !== 0) return null;
  game._piles = piles;
  game._turn = state.turn;
  try {
    if (game.cardToPlace !== card || known(game.state()) !== known(state)) return null;
  } catch {
    return null;
  }
  return game;
}

/**
 * The result of placing `state`'s card at (row, col), foreseen; null if it cannot be (see positionOf), or if
 * the rules say the card may not go there (the server then says why).
 * @param {GameState} state
 * @param {number} row
 * @param {number} col
 * @returns {Foreseen | null}
 */
export function foresee(state, row, col) {
  const game = positionOf(state);
  if (game === null || !game.isLegal(row, col)) return null;
  const placement = game.place(row, col);
  const after = game.state();
  return {
    state: {
      ...state,
      ...after,
      card: null, // the server's secret until it answers
      can_undo: after.outcome === "playing",
      can_redo: false,
    },
    placed: { row, col, cell: placement.cell, card: placement.card },
    flips: placement.flips.map((flip) => ({ ...flip })),
  };
}
