"""The move shows at once (issue 42, part 4), driven in Chromium as a player would.

Each move's answer is held back by the test (``page.route`` on the moves URL keeps the request until the test
lets it go), so nothing depends on time: while it is held, the page must already show the card placed and every
card it turned (foreseen by the page's copy of the rules), and show that the next card is pending; once it is let
go, the page shows exactly the server's state, compared with ``foursquare.engine`` playing the same moves. A move
refused because the game moved on elsewhere shows the server's position and says so; a move whose answer is lost
on the way after the server made it says that it was made.
"""

from __future__ import annotations

import random
from typing import Any

from browser_support import (
    BROWSER_MARKS,
    browser,
    catalogue,
    expect,
    new_page,
    open_home,
    server,
    shot,
    start_deal,
    wait_turn,
)
from foursquare.engine import Game
from test_browser_device import POSITION_JS, expected, toast_shown

pytestmark = BROWSER_MARKS
__all__ = ["browser", "server"]  # fixtures are found by name in this module's namespace

MOVES = "**/api/games/*/moves"

# Every toast the page shows, noted as it appears (a toast leaves by itself after a few seconds).
NOTE_TOASTS_JS = """() => {
  window.toastsShown = [];
  new MutationObserver((changes) => {
    for (const change of changes) {
      for (const node of change.addedNodes) {
        if (node instanceof HTMLElement && node.classList.contains("toast")) {
          window.toastsShown.push(node.dataset.message);
        }
      }
    }
  }).observe(document, {childList: true, subtree: true});
}"""


def piles_of(game: Game) -> list[dict[str, Any]]:
    return sorted(
        (
            {"cell": c.cell_name, "height": c.height, "card": c.top.name, "face": "up" if c.top_face_up else "down"}
            for c in game.cells()
        ),
        key=lambda pile: str(pile["cell"]),
    )


class Held:
    """Every request to the moves URL, kept until the test lets it go (``release``)."""

    def __init__(self, page: Any) -> None:
        self.routes: list[Any] = []
        page.route(MOVES, self.hold)

    def hold(self, route: Any) -> None:
        self.routes.append(route)  # not answered: the request waits

    def release(self) -> None:
        assert len(self.routes) == 1, len(self.routes)
        self.routes.pop().continue_()


def shown_now(page: Any, game: Game) -> None:
    """The board shows ``game``'s piles (its legal cells clickable) and its turn, with the next card pending."""
    page.wait_for_function(
        """(piles) => {
          const cards = "#board .pile[data-cell][data-height] > .card[data-card][data-face]";
          const drawn = [...document.querySelectorAll(cards)]
            .map((card) => ({cell: card.parentElement.dataset.cell, height: Number(card.parentElement.dataset.height),
                             card: card.dataset.card, face: card.dataset.face}))
            .sort((a, b) => a.cell.localeCompare(b.cell));
          return JSON.stringify(drawn) === JSON.stringify(piles);
        }""",
        arg=piles_of(game),
    )
    expect(page.locator("#view-game")).to_have_attribute("data-turn", str(game.turn))
    expect(page.locator('#hand-card[data-pending="true"] .pending-card')).to_have_count(1)
    expect(page.locator("#hand-card .card[data-card]")).to_have_count(0)  # the next card is the server's to say
    assert page.get_attribute("#board", "data-armed") == "false"


def test_each_move_shows_before_its_answer_and_ends_at_the_servers_state(browser: Any, server: str) -> None:
    page = new_page(browser)
    open_home(page, server)
    start_deal(page, 11)
    game = Game(deal=11)
    held = Held(page)
    choose = random.Random(11)
    flipped = 0
    while game.outcome().status == "playing" and game.turn < 14:
        move = choose.choice(game.legal_moves)
        placement = game.place(move.row, move.col)
        flipped += len(placement.flips)
        page.click(f'#board .slot.legal[data-row="{move.row}"][data-col="{move.col}"]')
        # The answer is held: what the page shows now, it foresaw.
        shown_now(page, game)
        assert len(held.routes) == 1
        if placement.flips and flipped == len(placement.flips):
            shot(page, "move-at-once-pending-desktop")
        held.release()
        wait_turn(page, game.turn)
        assert page.evaluate(POSITION_JS) == expected(game)
        expect(page.locator("#hand-card")).not_to_have_attribute("data-pending", "true")
    assert flipped > 0, "no move of the test turned a card"
    assert page.errors == []
    page.context.close()


def test_a_stale_move_shows_the_servers_position_and_says_so(browser: Any, server: str) -> None:
    page = new_page(browser)
    game_id = open_home(page, server)
    start_deal(page, 5)
    game_id = page.url.rsplit("/", 1)[1]
    page.evaluate(NOTE_TOASTS_JS)
    game = Game(deal=5)
    first = game.card_to_place
    assert first is not None
    # The game moves on elsewhere: a move through the API, with this browser's cookie, from outside the page.
    answer = page.request.post(
        f"{server}/api/games/{game_id}/moves", data={"row": 0, "col": 0, "turn": 0, "card": first.name}
    )
    assert answer.ok, answer.text()
    game.place(0, 0)
    held = Held(page)
    page.click('#board .slot.legal[data-row="0"][data-col="0"]')  # the page still shows turn 0
    expect(page.locator('#hand-card[data-pending="true"]')).to_have_count(1)
    held.release()
    toast_shown(page, catalogue()["notice.stale"])
    wait_turn(page, 1)
    assert page.evaluate(POSITION_JS) == expected(game)
    shot(page, "move-at-once-stale-desktop")
    assert page.errors == []
    page.context.close()


def test_an_answer_lost_after_the_move_was_made_is_told(browser: Any, server: str) -> None:
    page = new_page(browser)
    open_home(page, server)
    start_deal(page, 3)
    page.evaluate(NOTE_TOASTS_JS)
    game = Game(deal=3)
    game.place(0, 0)
    page.click('#board .slot.legal[data-row="0"][data-col="0"]')
    wait_turn(page, 1)
    got: list[int] = []

    def lose_the_answer(route: Any) -> None:
        got.append(route.fetch().status)  # the server makes the move...
        route.abort()  # ...and its answer never reaches the page

    page.route(MOVES, lose_the_answer)
    move = game.legal_moves[-1]
    game.place(move.row, move.col)
    page.click(f'#board .slot.legal[data-row="{move.row}"][data-col="{move.col}"]')
    toast_shown(page, catalogue()["move.answerLost"])
    wait_turn(page, 2)
    assert got == [200]
    assert page.evaluate(POSITION_JS) == expected(game)
    shot(page, "move-at-once-answer-lost-desktop")

    # A move that never reached the server: the page finds the game as it was, and says to play it again.
    page.unroute(MOVES)
    page.route(MOVES, lambda route: route.abort())
    move = game.legal_moves[0]
    page.click(f'#board .slot.legal[data-row="{move.row}"][data-col="{move.col}"]')
    toast_shown(page, catalogue()["move.notSent"])
    wait_turn(page, 2)
    assert page.evaluate(POSITION_JS) == expected(game)
    assert page.errors == []
    page.context.close()
