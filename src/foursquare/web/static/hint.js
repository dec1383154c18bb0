// @ts-check
// The hint: the server's ranking of the legal moves, shown only for the state it was asked about. The
// server lists them by expected score, the number each item shows first (and the box says so).

import { $, el } from "./dom.js";
import { cardSymbol, decimal, percent, t } from "./i18n.js";
import { currentGame, isPlaying, stateVersion } from "./store.js";
import { board } from "./table.js";

const SHOWN = 3;

/** @typedef {import("./api.js").HintMove} HintMove */

/** @type {{version: number, moves: HintMove[] | null} | null} */
let hint = null; // the state version it is for; moves: null while the server thinks

/** The hint of the current state, or null. */
function currentHint() {
  return hint !== null && hint.version === stateVersion() && isPlaying() ? hint : null;
}

/** A hint for the current state is being computed. */
export function hintAsked() {
  hint = { version: stateVersion(), moves: null };
}

/**
 * The server's answer for the state of `version` (dropped if a newer state has arrived).
 * @param {number} version
 * @param {HintMove[]} moves
 */
export function hintAnswered(version, moves) {
  if (version === stateVersion()) hint = { version, moves };
}

export function forgetHint() {
  hint = null;
}

/**
 * The best moves as badges for the board.
 * @returns {import("./board.js").HintBadge[]}
 */
export function hintBadges() {
  const moves = currentHint()?.moves ?? [];
  return moves.slice(0, SHOWN).map((move) => ({
    row: move.row,
    col: move.col,
    label: t("hint.badge", { pct: percent(move.win_probability), score: decimal(move.expected_score) }),
  }));
}

/** "Best: D3, expected score 13.2, 85 % to win." */
export function hintAnnouncement() {
  const best = currentHint()?.moves?.[0];
  if (!best) return null;
  return t("hint.announce", { cell: best.cell, pct: percent(best.win_probability), score: decimal(best.expected_score) });
}

export function renderHintBox() {
  const box = $("hint-box");
  const current = currentHint();
  box.hidden = current === null;
  if (current === null) return;
  const moves = current.moves ?? [];
  $("hint-loading").hidden = current.moves !== null;
  $("hint-ranked").hidden = current.moves === null;
  const cellsByKey = new Map(currentGame().cells.map((c) => [`${c.row},${c.col}`, c]));
  // What the win percentage means: the computer's chance playing on from the move, not the player's.
  let note = box.querySelector(".hint-note");
  if (!note) {
    note = el("p", { class: "hint-note" });
    box.append(note);
  }
  note.textContent = t("hint.winNote");
  note.toggleAttribute("hidden", current.moves === null);
  $("hint-list").replaceChildren(
    ...moves.slice(0, SHOWN).map((move, index) => {
      const pile = cellsByKey.get(`${move.row},${move.col}`);
      const where = t("hint.move", { cell: move.cell });
      const button = el(
        "button",
        {
          type: "button",
          class: `hint-item hint-item-${index + 1}`,
          onclick: () => board.slotFor(move.row, move.col)?.focus(),
        },
        el("span", {
          class: "hint-where",
          text: pile ? t("hint.whereOnPile", { where, pile: t("hint.onPile", { top: cardSymbol(pile.card) }) }) : where,
        }),
        el("span", { class: "hint-score", text: t("hint.score", { score: decimal(move.expected_score) }) }),
        el("span", { class: "hint-win", text: t("hint.win", { pct: percent(move.win_probability) }) }),
      );
      return el("li", {}, button);
    }),
  );
}
