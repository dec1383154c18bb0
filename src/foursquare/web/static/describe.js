// @ts-check
// Sentences about what a placement did. Why cards turned over is the server's word (each flip's
// "reason": "highest", "lowest" or "none_face_up"); the page never decides whether or why cards turn.

import { cardSymbol, joinList, t } from "./i18n.js";

/**
 * @typedef {import("./api.js").Flip} Flip
 * @typedef {import("./api.js").Placed} Placed
 * @typedef {import("./api.js").GameState} GameState
 */

/**
 * What turned over and why, line by line, e.g. "Row: 9♣ is higher than every other face-up card, so
 * 4♠ on D4 turned face down." `placedCard` is the card whose placement turned them; each flip names its
 * cell as the server does.
 * @param {Flip[]} flips
 * @param {string} placedCard
 */
export function flipSentence(flips, placedCard) {
  const parts = [];
  for (const line of ["row", "column"]) {
    const inLine = flips.filter((f) => f.line === line);
    if (inLine.length === 0) continue;
    /** @type {string[]} */
    const what = [];
    for (const faceUp of [false, true]) {
      const cards = inLine
        .filter((f) => f.face_up === faceUp)
        .map((f) => (f.cell ? t("flip.cardAt", { card: cardSymbol(f.card), cell: f.cell }) : cardSymbol(f.card)));
      if (cards.length) what.push(t(faceUp ? "flip.up" : "flip.down", { cards: joinList(cards) }));
    }
    const reason = inLine[0].reason; // one check turns a whole line, for one reason
    const lineName = t(`flip.line.${line}`);
    parts.push(
      reason
        ? t("flip.explained", {
            line: lineName,
            reason: t(`flip.reason.${reason}`, { card: cardSymbol(placedCard) }),
            what: joinList(what),
          })
        : t("flip.sentence", { line: lineName, what: joinList(what) }),
    );
  }
  return parts.join(" ");
}

/**
 * "7♥ placed at E4." and what turned over; the cell's name is the server's (`placed.cell`).
 * @param {Placed} placed
 * @param {Flip[]} flips
 * @param {string} [key]
 */
export function placedSentence(placed, flips, key = "flip.placed") {
  const head = t(key, { card: cardSymbol(placed.card), cell: placed.cell });
  const tail = flipSentence(flips, placed.card);
  return tail ? t("text.sentences", { a: head, b: tail }) : head;
}

/**
 * What undo or redo did, from the two states the server sent: "Took back 7♣ from D4." / "Placed 7♣ on D4
 * again." The pile whose height changed is the one the card was taken from (undo) or put back on (redo);
 * the card is its top before the undo, after the redo. Empty if no pile changed (nothing to say).
 * @param {"undo" | "redo"} what
 * @param {GameState} before
 * @param {GameState} after
 */
export function takenBackSentence(what, before, after) {
  const was = new Map(before.cells.map((cell) => [cell.cell, cell]));
  const now = new Map(after.cells.map((cell) => [cell.cell, cell]));
  const height = (/** @type {string} */ name, /** @type {typeof was} */ cells) => cells.get(name)?.height ?? 0;
  const name = [...new Set([...was.keys(), ...now.keys()])].find((cell) => height(cell, was) !== height(cell, now));
  const pile = name === undefined ? undefined : (what === "undo" ? was : now).get(name);
  if (!pile) return "";
  const placed = { row: pile.row, col: pile.col, cell: pile.cell, card: pile.card };
  return placedSentence(placed, [], what === "undo" ? "flip.undone" : "flip.redone");
}
