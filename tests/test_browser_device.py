"""Games played on the device, without the server (issue 42, "Offline play"): driven in Chromium.

After one online visit (which installs the service worker and keeps the page's files and catalogue), the
network is cut — the browser context goes offline and the server is stopped — and the page deals and plays a
whole game with its own copy of the rules (static/engine.js, static/offline.js), kept in IndexedDB. The tests
compare what the page shows after every click with :mod:`foursquare.engine` playing the same moves, and reopen
the game after a reload and in a new browser on the same profile. They wait for the page's states, never for
a time.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from browser_support import (
    BROWSER_MARKS,
    CHROMIUM,
    CHROMIUM_ARGS,
    DESKTOP,
    PHONE,
    WAIT_MS,
    browser,
    catalogue,
    expect,
    new_page,
    no_horizontal_overflow,
    open_home,
    shot,
    under_csp,
    winning,
)
from foursquare.engine import Game, Move, Variant
from test_browser_offline import Server, server, wait_for_kept_catalogue

pytestmark = BROWSER_MARKS
__all__ = ["browser", "server", "winning"]  # fixtures are found by name in this module's namespace

MAX_DEAL = 2**64 - 1

# What the page shows of a game, read from the DOM that the issue names (and the legal cells to click).
POSITION_JS = """() => {
  const view = document.getElementById("view-game");
  const hand = document.querySelector("#hand-card .card[data-card]");
  const piles = [...document.querySelectorAll("#board .pile[data-cell][data-height] > .card[data-card][data-face]")]
    .map((card) => ({cell: card.parentElement.dataset.cell, height: Number(card.parentElement.dataset.height),
                     card: card.dataset.card, face: card.dataset.face}));
  const legal = [...document.querySelectorAll("#board .slot.legal[data-cell]")].map((slot) => slot.dataset.cell);
  return {turn: Number(view.dataset.turn), outcome: view.dataset.outcome, hand: hand ? hand.dataset.card : null,
          piles: piles.sort((a, b) => a.cell.localeCompare(b.cell)), legal: legal.sort()};
}"""

# Every game this browser keeps in IndexedDB (offline.js's database "foursquare", store "games").
DEVICE_GAMES_JS = """async () => {
  if (!(await indexedDB.databases()).some((db) => db.name === "foursquare")) return [];
  return new Promise((resolve, reject) => {
  const opened = indexedDB.open("foursquare");
  opened.onerror = () => reject(opened.error);
  opened.onsuccess = () => {
    const db = opened.result;
    if (!db.objectStoreNames.contains("games")) { db.close(); resolve([]); return; }
    const all = db.transaction("games").objectStore("games").getAll();
    all.onsuccess = () => { db.close(); resolve(all.result); };
    all.onerror = () => reject(all.error);
  };
});
}"""


# Every toast the page shows, noted as it appears: a toast leaves by itself after a few seconds, which a test on a
# loaded machine may reach only later.
NOTE_TOASTS_JS = """
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
"""


def toast_shown(page: Any, text: str) -> None:
    page.wait_for_function("(text) => (window.toastsShown || []).includes(text)", arg=text)


def expected(game: Game) -> dict[str, Any]:
    """What the page must show of ``game``: the same fields as POSITION_JS reads."""
    playing = game.outcome().status == "playing"
    card = game.card_to_place
    return {
        "turn": game.turn,
        "outcome": game.outcome().status,
        "hand": card.name if playing and card is not None else None,
        "piles": sorted(
            (
                {"cell": c.cell_name, "height": c.height, "card": c.top.name, "face": "up" if c.top_face_up else "down"}
                for c in game.cells()
            ),
            key=lambda pile: str(pile["cell"]),
        ),
        "legal": sorted(move.name for move in game.legal_moves) if playing else [],
    }


def wait_shown(page: Any, turn: int) -> None:
    """Wait until the game shows ``turn`` and takes a click (or is over, its last position drawn)."""
    page.wait_for_selector(f'#view-game[data-turn="{turn}"]')
    page.wait_for_function("document.body.dataset.busy !== 'true'")
    page.wait_for_function(
        "document.getElementById('board').dataset.armed === 'true'"
        " || (document.getElementById('view-game').dataset.outcome !== 'playing'"
        f" && document.getElementById('board').dataset.replayTurn === '{turn}')"
    )


def same_as_engine(page: Any, game: Game) -> None:
    wait_shown(page, game.turn)
    assert page.evaluate(POSITION_JS) == expected(game)


def play(page: Any, game: Game, move: Move) -> None:
    """Click ``move``'s cell, as a player would, and play it in ``game`` too; the page must agree."""
    page.click(f'#board .slot[data-cell="{move.name}"]')
    game.place(move.row, move.col)
    same_as_engine(page, game)


def undo(page: Any, game: Game) -> None:
    page.click("#btn-undo")
    game.undo()
    same_as_engine(page, game)


def redo(page: Any, game: Game) -> None:
    page.click("#btn-redo")
    game.redo()
    same_as_engine(page, game)


def go_offline(page: Any, server: Server) -> None:
    """Once the service worker keeps the page and its catalogue: no network for the browser, no server."""
    page.wait_for_function("async () => (await navigator.serviceWorker.ready).active !== null", polling=200)
    wait_for_kept_catalogue(page)
    page.context.set_offline(True)
    server.stop()


def shows_device_game(page: Any, deal: int | None = None, *, asked_the_server: bool = True) -> None:
    """The page shows a game of this device, and says so; and that the server cannot be reached, if it asked it
    anything (a game of this device alone needs nothing of the server)."""
    expect(page.locator("#offline-tag")).to_be_visible()
    expect(page.locator("#offline-tag")).to_contain_text(catalogue()["offline.tag"])
    if asked_the_server:
        expect(page.locator("#offline-banner")).to_have_text(catalogue()["connection.lost"])
    if deal is not None:
        expect(page.locator("#deal-label")).to_have_text(f"Deal #{deal}")
    assert re.fullmatch(r".*#/game/device-[A-Za-z0-9_-]{22}", href(page)), href(page)


def href(page: Any) -> str:
    """The page's address as it is now (page.url can miss an address the page set with history.replaceState)."""
    address: str = page.evaluate("location.href")
    return address


def shown_deal(page: Any) -> int:
    match = re.fullmatch(r"Deal #(\d+)", page.locator("#deal-label").inner_text())
    assert match
    return int(match.group(1))


RULE_SETS = [
    pytest.param("", Variant(), MAX_DEAL, "random", id="standard"),
    pytest.param("?adjacency=diagonal", Variant(adjacency="diagonal"), None, "winning", id="diagonal"),
    pytest.param("?count_buried=true", Variant(count_buried=True), 42, "random", id="count_buried"),
    pytest.param(
        "?adjacency=diagonal&count_buried=true",
        Variant(adjacency="diagonal", count_buried=True),
        7,
        "random",
        id="diagonal_count_buried",
    ),
]


@pytest.mark.parametrize(("query", "variant", "deal", "line"), RULE_SETS)
def test_a_whole_game_of_a_numbered_deal_is_played_offline_as_the_engine_plays_it(
    browser: Any,
    server: Server,
    winning: tuple[int, list[Move]],
    query: str,
    variant: Variant,
    deal: int | None,
    line: str,
) -> None:
    page = new_page(browser)
    page.context.add_init_script(NOTE_TOASTS_JS)
    open_home(page, server.url)  # the one online visit
    go_offline(page, server)
    # The standard rules' winning line wins under diagonal adjacency too: it adds legal cells, not flips.
    winning_deal, winning_line = winning
    number = winning_deal if deal is None else deal
    page.goto(f"{server.url}/deal/{number}{query}")
    game = Game(deal=number, variant=variant)
    same_as_engine(page, game)
    shows_device_game(page, number)
    toast_shown(page, catalogue()["offline.started"])
    rules = page.locator("#variant-tags")
    if variant.adjacency == "diagonal":
        expect(rules).to_contain_text(catalogue()["variant.diagonal"])
    if variant.count_buried:
        expect(rules).to_contain_text(catalogue()["variant.countBuried"])

    if line == "winning":
        for index, move in enumerate(winning_line):
            play(page, game, move)
            if index == 2:
                undo(page, game)
                redo(page, game)
    else:
        rng = random.Random(f"{number}{query}")
        while game.outcome().status == "playing":
            if game.turn > 1 and rng.random() < 0.15:
                undo(page, game)
                if rng.random() < 0.5:
                    redo(page, game)
                    continue
            play(page, game, rng.choice(game.legal_moves))
    assert game.outcome().status == ("won" if line == "winning" else "lost")

    # The end screen, as online: its title, reason and score; the replay works on the device; the analysis
    # says it needs the server.
    outcome = game.outcome()
    over = page.locator("#over")
    expect(over).to_be_visible()
    expect(page.locator("#over-title")).to_have_text(catalogue()[f"over.{outcome.status}"])
    expect(page.locator("#over-reason")).to_have_text(catalogue()[f"over.reason.{outcome.reason}"])
    expect(page.locator("#over-score")).to_have_text(str(outcome.score))
    expect(page.locator("#analysis-body")).to_have_text(catalogue()["offline.analysisNeeds"])
    page.click("#replay-first")
    page.wait_for_selector('#board[data-replay-turn="0"]')
    assert page.locator("#board .pile").count() == 0
    page.click("#replay-next")
    page.wait_for_selector('#board[data-replay-turn="1"]')
    first = game.placements[0]
    piles = page.evaluate(POSITION_JS)["piles"]
    assert piles == [{"cell": "D4", "height": 1, "card": first.card.name, "face": "up"}]
    shot(page, f"device-over-{'-'.join(part for part in query.strip('?').split('&') if part) or 'standard'}")
    assert page.locator(".toast-error").count() == 0
    assert page.errors == []
    page.context.close()


def launch(chromium: Any, profile: Path, viewport: dict[str, int] = DESKTOP) -> tuple[Any, Any]:
    """A browser on the profile folder ``profile`` (its IndexedDB, service worker and caches), and its page."""
    context = chromium.launch_persistent_context(
        str(profile), executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, viewport=viewport, locale="en-US"
    )
    page = under_csp(context.pages[0] if context.pages else context.new_page())
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    page.set_default_timeout(WAIT_MS)
    return context, page


def test_a_game_on_the_device_survives_a_reload_and_a_restarted_browser(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    profile = tmp_path / "profile"
    chromium = browser.browser_type  # the tests' Playwright, whose Chromium starts on a profile folder
    context, page = launch(chromium, profile)
    open_home(page, server.url)  # a game of the server: its stock stays there, nothing of it is kept here
    assert page.evaluate(DEVICE_GAMES_JS) == []
    go_offline(page, server)

    # The start page, offline: the game remembered is the server's, so a random deal is drawn on the device.
    page.goto(server.url + "/")
    wait_shown(page, 0)
    shows_device_game(page)
    game = Game(deal=shown_deal(page))
    same_as_engine(page, game)
    for _ in range(3):
        play(page, game, game.legal_moves[-1])
    undo(page, game)
    expect(page.locator("#btn-redo")).to_be_enabled()
    # The hint, ranked on the device (policy.js): every legal move, the best one marked on the board.
    page.click("#btn-hint")
    expect(page.locator("#hint-ranked")).to_be_visible()
    expect(page.locator("#hint-list li")).to_have_count(min(3, len(game.legal_moves)))
    best = page.locator("#board .slot.legal.hint-1")
    expect(best).to_have_count(1)
    assert best.get_attribute("data-cell") in {move.name for move in game.legal_moves}
    expect(page.locator("#assisted-tag")).to_be_hidden()
    shot(page, "device-game-desktop")

    # Kept in IndexedDB as a record of docs/records.md (the deal in digits) with the move undone to redo.
    [kept] = page.evaluate(DEVICE_GAMES_JS)
    assert kept["id"] == href(page).rsplit("/", 1)[1]
    assert kept["record"] == {
        "format": "foursquare-game",
        "version": 1,
        "deal": str(game.deal),
        "variant": {"adjacency": "orthogonal", "count_buried": False},
        "moves": [[m.row, m.col] for m in game.moves],
    }
    assert kept["redo"] == [[m.row, m.col] for m in game.redo_moves]
    assert (kept["turn"], kept["outcome"], kept["random"]) == (2, "playing", True)

    # A reload, still offline: the same game, position and redo.
    url = href(page)
    page.reload()
    same_as_engine(page, game)
    assert href(page) == url
    shows_device_game(page, game.deal, asked_the_server=False)
    expect(page.locator("#btn-redo")).to_be_enabled()
    assert page.errors == []
    context.close()

    # The browser restarted on the same profile, with no network and no server: the start page shows it.
    context, page = launch(chromium, profile, PHONE)
    context.set_offline(True)
    page.goto(server.url + "/")
    same_as_engine(page, game)
    assert href(page) == url
    shows_device_game(page, game.deal, asked_the_server=False)
    redo(page, game)
    no_horizontal_overflow(page)
    shot(page, "device-game-phone")
    while game.outcome().status == "playing":
        play(page, game, game.legal_moves[0])
    expect(page.locator("#over-title")).to_have_text(catalogue()[f"over.{game.outcome().status}"])
    shot(page, "device-over-phone")

    # The statistics view counts the device's games, and says so.
    page.goto(server.url + "/stats")
    expect(page.locator("#stats-offline")).to_have_text(catalogue()["offline.statsNote"])
    expect(page.locator(".tile-played dd")).to_have_text("1")
    expect(page.locator(".games-table .badge-offline")).to_have_text(catalogue()["offline.tag"])
    expect(page.locator(".games-table td.col-deal")).to_have_text(f"#{game.deal}")
    shot(page, "device-stats-phone")

    # The daily deal needs the server, and says so.
    page.goto(server.url + "/daily")
    expect(page.locator("#no-game-text")).to_have_text(catalogue()["offline.dailyNeeds"])
    expect(page.locator("#no-game-title")).to_have_text(catalogue()["new.daily"])
    assert page.locator(".toast-error").count() == 0
    assert page.errors == []
    context.close()


def test_a_server_game_opened_offline_waits_for_the_server_and_new_game_plays_on_the_device(
    browser: Any, server: Server
) -> None:
    page = new_page(browser)
    page.context.add_init_script(NOTE_TOASTS_JS)
    game_id = open_home(page, server.url)
    go_offline(page, server)
    page.reload()  # #/game/<the server's game>: its stock is the server's, so it waits for the server
    expect(page.locator("#no-game-title")).to_have_text(catalogue()["offline.serverGameTitle"])
    expect(page.locator("#no-game-text")).to_have_text(catalogue()["offline.serverGame"])
    assert page.evaluate(DEVICE_GAMES_JS) == []
    shot(page, "device-server-game-offline")

    # New game, a numbered deal: dealt and played on the device.
    page.click("#btn-no-game-new")
    page.check('input[name="dealkind"][value="numbered"]')
    page.fill("#new-deal", "12345")
    page.check("#new-diagonal")
    page.click("#new-start")
    game = Game(deal=12345, variant=Variant(adjacency="diagonal"))
    same_as_engine(page, game)
    shows_device_game(page, 12345)
    play(page, game, game.legal_moves[0])

    # New game, the daily deal: it needs the server; the game shown stays.
    page.click("#btn-new")
    page.check('input[name="dealkind"][value="daily"]')
    page.click("#new-start")
    toast_shown(page, catalogue()["offline.dailyNeeds"])
    same_as_engine(page, game)

    # New game, a random deal: drawn on the device (its number shown: its stock is here anyway).
    numbered = href(page).rsplit("/", 1)[1]  # read before the click: the new game may be shown by the next line
    page.click("#btn-new")
    page.check('input[name="dealkind"][value="random"]')
    page.click("#new-start")
    page.wait_for_function(f"() => !location.hash.endsWith('{numbered}')")
    game = Game(deal=shown_deal(page), variant=Variant(adjacency="diagonal"))
    same_as_engine(page, game)
    shows_device_game(page, game.deal)
    play(page, game, game.legal_moves[0])

    # The server back: the server's game opens again as it was, and plays on the server.
    page.context.set_offline(False)
    server.start()
    page.goto(f"{server.url}/game/{game_id}")
    page.wait_for_selector('#view-game[data-turn="0"]')
    expect(page.locator("#offline-tag")).to_be_hidden()
    expect(page.locator("#deal-label")).to_have_text(catalogue()["panel.dealHidden"])
    assert page.errors == []
    page.context.close()


def test_two_tabs_of_one_game_on_the_device_never_overwrite_each_others_moves(browser: Any, server: Server) -> None:
    first = new_page(browser)
    open_home(first, server.url)
    go_offline(first, server)
    first.goto(f"{server.url}/deal/99")
    game = Game(deal=99)
    same_as_engine(first, game)
    second = first.context.new_page()
    second.on("pageerror", lambda exc: first.errors.append(str(exc)))
    second.goto(href(first))
    same_as_engine(second, game)

    # A card placed in the first tab; the second, still showing the first position, places another: the device
    # refuses it as stale (as the server does), and the second tab shows the game as it now is and says so.
    play(first, game, game.legal_moves[0])
    second.add_init_script(NOTE_TOASTS_JS)
    second.reload()
    same_as_engine(second, game)
    play(first, game, game.legal_moves[0])
    second.click(f'#board .slot.legal[data-cell="{game.legal_moves[-1].name}"]')
    toast_shown(second, catalogue()["notice.stale"])
    same_as_engine(second, game)
    play(second, game, game.legal_moves[-1])
    first.reload()
    same_as_engine(first, game)
    assert first.errors == []
    first.context.close()


def test_a_game_on_the_device_speaks_the_pages_language(browser: Any, server: Server) -> None:
    page = new_page(browser, PHONE, locale="bn-BD")
    open_home(page, server.url)
    # The Bengali catalogue and font, fetched by this first visit past the service worker, which keeps them then.
    page.wait_for_function(
        "async () => !!(await caches.match('/api/messages/bn'))"
        " && !!(await caches.match('/static/fonts/NotoSansBengali-Regular.woff2'))"
        " && !!(await caches.match('/static/fonts/NotoSansBengali-Bold.woff2'))",
        polling=200,
    )
    go_offline(page, server)
    page.goto(f"{server.url}/deal/5?count_buried=true")
    game = Game(deal=5, variant=Variant(count_buried=True))
    same_as_engine(page, game)
    words = catalogue("bn")
    expect(page.locator("#offline-tag")).to_contain_text(words["offline.tag"])
    expect(page.locator("#offline-tag")).to_contain_text(words["offline.tagNote"])
    play(page, game, game.legal_moves[0])
    no_horizontal_overflow(page)
    # Drawn in the shipped font (kept by the service worker), not in boxes.
    page.wait_for_function(
        "() => [...document.fonts].some((f) => f.family.includes('Foursquare Bengali') && f.status === 'loaded')"
    )
    shot(page, "device-game-phone-bn")
    assert page.errors == []
    page.context.close()
