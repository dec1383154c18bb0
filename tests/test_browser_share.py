"""Sharing in a real headless Chromium: share links, the Share button, another player's game (read-only,
with "play this deal"), the "no such game" page, and the daily and winnable deals of the new-game dialog.

Each browser context is a player of its own (its own ``fs_player`` cookie).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import pytest

from browser_support import (
    BROWSER_MARKS,
    PHONE,
    WAIT_MS,
    browser,
    catalogue,
    click_cell,
    expect,
    new_page,
    no_horizontal_overflow,
    open_home,
    server,
    shot,
    start_deal,
    wait_turn,
    winning,
)
from foursquare.engine import Game, Move, Variant

pytestmark = BROWSER_MARKS
# Fixtures are found by name in this module's namespace.
__all__ = ["browser", "server", "winning"]

GAME_URL = re.compile(r".*#/game/([A-Za-z0-9_-]+)$")


def game_id(page: Any) -> str:
    match = GAME_URL.fullmatch(page.url)
    assert match, page.url
    return match.group(1)


def hand_card(page: Any) -> str:
    return str(page.locator("#hand-card .card").get_attribute("aria-label"))


def first_card_label(deal: int, variant: Variant | None = None) -> str:
    card = Game(deal=deal, variant=variant or Variant()).card_to_place
    assert card is not None
    return f"{card.label}, face up"


def api_games(page: Any) -> dict[str, Any]:
    answer: dict[str, Any] = page.evaluate("fetch('/api/games').then((r) => r.json())")
    return answer


def test_a_share_link_starts_a_fresh_game_of_its_deal_with_its_house_rules(browser: Any, server: str) -> None:
    page = new_page(browser)
    page.goto(f"{server}/deal/42?adjacency=diagonal&count_buried=true")
    expect(page.locator("#deal-label")).to_have_text("Deal #42")
    wait_turn(page, 0)
    expect(page.locator("#hand-card .card")).to_have_attribute(
        "aria-label", first_card_label(42, Variant(adjacency="diagonal", count_buried=True))
    )
    expect(page.locator("#variant-tags .tag")).to_have_text(["Diagonal adjacency", "Buried cards count"])
    first = game_id(page)  # the link's address gave way to the game's own
    click_cell(page, 0, 0)
    shot(page, "share-link-opened")
    # Reloading plays on in the same game; opening the link again deals a fresh one.
    page.reload()
    wait_turn(page, 1)
    assert game_id(page) == first
    page.goto(f"{server}/deal/42")
    wait_turn(page, 0)
    assert game_id(page) != first
    expect(page.locator("#variant-tags .tag")).to_have_text(["Standard rules"])
    assert page.errors == []
    page.context.close()


def test_a_malformed_share_link_says_so_and_deals_nothing(browser: Any, server: str) -> None:
    page = new_page(browser)
    page.goto(f"{server}/deal/forty-two")
    expect(page.locator("#no-game-text")).to_have_text(catalogue()["share.badNumber"])
    page.goto(f"{server}/deal/42?adjacency=sideways")
    expect(page.locator("#no-game-text")).to_have_text(catalogue()["share.badRules"])
    assert api_games(page)["total"] == 0
    shot(page, "share-bad-link")
    assert page.errors == []
    page.context.close()


def test_share_copies_the_deal_link_or_shows_it_selected(browser: Any, server: str) -> None:
    page = new_page(browser, permissions=["clipboard-read", "clipboard-write"])
    open_home(page, server)
    start_deal(page, 42)
    page.click("#btn-share")
    expect(page.locator(".toast-text").last).to_have_text(catalogue()["share.copied"])
    assert page.evaluate("navigator.clipboard.readText()") == f"{server}/deal/42"
    # Where the page may not write to the clipboard, the link is shown selected, to copy by hand.
    page.evaluate("() => { navigator.clipboard.writeText = () => Promise.reject(new Error('denied')); }")
    page.click("#btn-share")
    expect(page.locator("#share-dialog")).to_be_visible()
    expect(page.locator("#share-link")).to_have_value(f"{server}/deal/42")
    selected = page.evaluate("(() => { const f = document.getElementById('share-link'); "
                             "return f.value.slice(f.selectionStart, f.selectionEnd); })()")  # fmt: skip
    assert selected == f"{server}/deal/42"
    shot(page, "share-dialog")
    page.click("#share-close")
    expect(page.locator("#share-dialog")).to_be_hidden()
    assert page.errors == []
    page.context.close()


def test_another_players_live_game_is_read_only_and_followed(browser: Any, server: str) -> None:
    owner = new_page(browser)
    owner_game = open_home(owner, server)
    click_cell(owner, 0, 0)
    first = owner.locator('#board .slot[data-row="0"][data-col="0"] .card').first.get_attribute("aria-label")
    assert first

    visitor = new_page(browser)
    visitor.goto(f"{server}/game/{owner_game}")
    expect(visitor.locator("#readonly-text")).to_have_text(catalogue()["share.watching"])
    expect(visitor.locator("#board")).to_have_attribute("data-turn", "1")
    expect(visitor.locator("#board .slot.legal")).to_have_count(0)
    expect(visitor.locator("#actions")).to_be_hidden()
    expect(visitor.locator("#deal-label")).to_have_text("Random deal")
    shot(visitor, "share-read-only-desktop")
    # The server refuses the visitor's move even if the page were to send one.
    status = visitor.evaluate(
        f"fetch('/api/games/{owner_game}/moves', {{method: 'POST', headers: {{'Content-Type': 'application/json'}},"
        " body: JSON.stringify({row: 0, col: 1, turn: 1})}).then((r) => r.status)"
    )
    assert status == 403
    visitor.set_viewport_size(PHONE)
    no_horizontal_overflow(visitor)
    shot(visitor, "share-read-only-phone")
    visitor.click("#theme-toggle")
    shot(visitor, "share-read-only-phone-dark")
    visitor.click("#theme-toggle")
    visitor.set_viewport_size({"width": 1280, "height": 800})

    # A live game's deal is not offered: its copy would show the cards to come (tests/test_browser_offline.py
    # plays the deal of a finished game).
    expect(visitor.locator("#btn-play-deal")).to_be_hidden()
    # The owner plays on, undisturbed; a visitor still watching sees the card placed.
    watcher = new_page(browser)
    watcher.goto(f"{server}/game/{owner_game}")
    expect(watcher.locator("#board")).to_have_attribute("data-turn", "1")
    click_cell(owner, *[int(v) for v in owner.locator("#board .slot.legal").first.evaluate(
        "(s) => [s.dataset.row, s.dataset.col]")])  # fmt: skip
    expect(watcher.locator("#board")).to_have_attribute("data-turn", "2", timeout=WAIT_MS)
    assert watcher.errors == []
    watcher.context.close()
    assert owner.errors == [] and visitor.errors == []
    owner.context.close()
    visitor.context.close()


@pytest.mark.parametrize("address", ["/game/nonsense", "/#/game/abc/def", "/#/game/"])
def test_an_unknown_game_address_shows_no_such_game_and_creates_none(browser: Any, server: str, address: str) -> None:
    page = new_page(browser)
    page.goto(f"{server}{address}")
    expect(page.locator("#no-game-title")).to_have_text(catalogue()["missing.title"])
    expect(page.locator("#no-game-text")).to_have_text(catalogue()["missing.text"])
    expect(page.locator("#game-table")).to_be_hidden()
    assert api_games(page)["total"] == 0
    if address == "/game/nonsense":
        shot(page, "share-no-such-game")
        page.set_viewport_size(PHONE)
        shot(page, "share-no-such-game-phone")
    assert page.errors == []
    page.context.close()


def test_the_daily_deal_through_the_dialog(browser: Any, server: str) -> None:
    page = new_page(browser)
    open_home(page, server)
    page.click("#btn-new")
    page.check('input[name="dealkind"][value="daily"]')
    shot(page, "share-new-game-dialog")
    page.click("#new-start")
    today = datetime.now(UTC).date()
    expect(page.locator("#deal-label")).to_have_text(f"Daily deal — {today.day} {today:%B} {today.year}")
    wait_turn(page, 0)
    daily = game_id(page)
    card = hand_card(page)
    shot(page, "share-daily")
    # Another player gets the same deal; this player, asking again, the same game.
    other = new_page(browser)
    open_home(other, server)
    other.click("#btn-new")
    other.check('input[name="dealkind"][value="daily"]')
    other.click("#new-start")
    expect(other.locator("#deal-label")).to_have_text(re.compile("^Daily deal"))
    wait_turn(other, 0)
    assert hand_card(other) == card and game_id(other) != daily
    page.click("#btn-new")
    page.check('input[name="dealkind"][value="daily"]')
    page.click("#new-start")
    page.wait_for_url(re.compile(f".*#/game/{daily}$"))
    # The daily's own address (the link of a daily share text) opens the game started today, too.
    page.goto(f"{server}/daily")
    page.wait_for_url(re.compile(f".*#/game/{daily}$"))
    wait_turn(page, 0)
    assert api_games(page)["total"] == 2  # the game of the first visit, and the daily: none new
    assert page.errors == [] and other.errors == []
    page.context.close()
    other.context.close()


def test_a_winnable_deal_through_the_dialog(browser: Any, server: str) -> None:
    page = new_page(browser)
    open_home(page, server)
    page.click("#btn-new")
    page.check('input[name="dealkind"][value="winnable"]')
    page.click("#new-start")
    expect(page.locator("#deal-label")).to_have_text("Winnable deal", timeout=180_000)
    wait_turn(page, 0)
    click_cell(page, 0, 0)
    page.click("#btn-hint")  # a hint marks the game assisted
    expect(page.locator("#assisted-tag")).to_be_visible(timeout=WAIT_MS)
    shot(page, "share-winnable-assisted")
    page.goto(f"{server}/#/stats")
    expect(page.locator(".tile-cleanWon dd")).to_have_text("0")
    expect(page.locator(".tile-dailyStreak dd")).to_have_text("0")
    shot(page, "share-stats")
    assert page.errors == []
    page.context.close()


def test_the_over_screen_offers_share_and_analyze(browser: Any, server: str, winning: tuple[int, list[Move]]) -> None:
    deal, line = winning
    page = new_page(browser, permissions=["clipboard-read", "clipboard-write"])
    page.goto(f"{server}/deal/{deal}")
    wait_turn(page, 0)
    for move in line:
        click_cell(page, move.row, move.col)
    expect(page.locator("#over")).to_be_visible()
    expect(page.locator("#over-title")).to_be_focused()  # the page moves the focus to the result first
    page.click("#btn-over-share")
    expect(page.locator(".toast-text").last).to_have_text(catalogue()["share.copied"])
    assert page.evaluate("navigator.clipboard.readText()") == f"{server}/deal/{deal}"
    page.click("#btn-analyze")
    expect(page.locator("#analysis-title")).to_be_focused()
    expect(page.locator("#analysis-body")).not_to_be_empty(timeout=120_000)
    shot(page, "share-over-screen")
    assert page.errors == []
    page.context.close()


def test_a_hidden_deal_is_shared_by_its_games_address(browser: Any, server: str) -> None:
    page = new_page(browser, permissions=["clipboard-read", "clipboard-write"])
    game = open_home(page, server)
    page.click("#btn-share")
    words = catalogue()
    expect(page.locator(".toast-text").last).to_have_text(f"{words['share.copiedShort']} {words['share.whatLive']}")
    assert page.evaluate("navigator.clipboard.readText()") == f"{server}/game/{game}"
    assert page.errors == []
    page.context.close()
