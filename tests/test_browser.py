"""The web page in a real headless Chromium, against the real server (``foursquare serve``).

The server, the browser and the helpers that drive the page live in ``browser_support``.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any, get_args

import pytest

from browser_support import (
    BROWSER_MARKS,
    FLIP_RECORDER,
    PHONE,
    STATIC,
    WAIT_MS,
    browser,
    catalogue,
    click_cell,
    expect,
    flip_reasons,
    new_page,
    no_horizontal_overflow,
    open_home,
    page_with_deal,
    server,
    shot,
    turn_of,
    wait_turn,
    winning,
)
from foursquare.engine import FlipReason, Game, Move
from foursquare.i18n import page_messages
from foursquare.web.errors import ERROR_CODES

pytestmark = BROWSER_MARKS
# Fixtures are found by name in this module's namespace.
__all__ = ["browser", "server", "winning"]


# --- scenarios -----------------------------------------------------------------------------------------


def test_win_a_numbered_deal_with_hint_undo_flips_game_over_replay_and_stats(
    browser: Any, server: str, winning: tuple[int, list[Move]]
) -> None:
    deal, line = winning
    game = Game(deal=deal)
    flips_at = []
    for index, move in enumerate(line):
        if game.place(move.row, move.col).flips:
            flips_at.append(index)
    assert game.outcome().status == "won"
    score = game.outcome().score
    page = new_page(browser)
    open_home(page, server)

    # New game dialog: a numbered deal, standard rules.
    page.click("#btn-new")
    expect(page.locator("#new-dialog")).to_be_visible()
    page.check('input[name="dealkind"][value="numbered"]')
    page.fill("#new-deal", "not a number")
    page.click("#new-start")
    expect(page.locator("#new-deal-error")).to_have_text(re.compile("whole number"))
    page.fill("#new-deal", str(deal))
    page.click("#new-start")
    expect(page.locator("#new-dialog")).to_be_hidden()
    expect(page.locator("#deal-label")).to_have_text(f"Deal #{deal}")
    wait_turn(page, 0)
    first_card = Game(deal=deal).card_to_place
    assert first_card is not None
    expect(page.locator("#hand-card .card")).to_have_attribute("aria-label", f"{first_card.label}, face up")
    expect(page.locator("#btn-undo")).to_be_disabled()

    # Two cards, then the hint ranks the moves and marks the best cell.
    click_cell(page, *line[0])
    click_cell(page, *line[1])
    page.click("#btn-hint")
    expect(page.locator(".hint-item").first).to_be_visible(timeout=WAIT_MS)
    count = page.locator(".hint-item").count()
    assert 1 <= count <= 3
    expect(page.locator("#board .slot.legal.hint-1 .hint-badge")).to_have_text(re.compile(r"\d+\s?%"))
    expect(page.locator(".hint-item-1 .hint-win")).to_have_text(re.compile(r"\d+\s?% win"))

    # Undo takes the second card back (and clears the hint); redo plays it again.
    page.click("#btn-undo")
    wait_turn(page, 1)
    expect(page.locator("#hint-box")).to_be_hidden()
    expect(page.locator("#btn-redo")).to_be_enabled()
    page.click("#btn-redo")
    wait_turn(page, 2)

    # Play the rest; the first placement that turns cards over must animate a flip and say why, in the
    # words of the catalogue for the reason the engine gives.
    page.evaluate(FLIP_RECORDER)
    first_flip = next(i for i in flips_at if i >= 2)
    replayed = Game(deal=deal)
    for index in range(2, len(line)):
        click_cell(page, *line[index])
        if index == first_flip:
            for move in line[: index + 1]:
                placement = replayed.place(move.row, move.col)
            page.wait_for_function("window.__flipSeen > 0", timeout=WAIT_MS)
            message = page.locator("#board-message").text_content() or ""
            assert re.search(r"(Row|Column): .*turned face (up|down)", message), message
            for said in flip_reasons(placement):
                assert said in message, (said, message)

    # Game over: outcome, score, the analysis (with a spinner while it runs) and the replay viewer.
    expect(page.locator("#over")).to_be_visible()
    expect(page.locator("#over-title")).to_have_text("You won!")
    expect(page.locator("#over-score")).to_have_text(str(score))
    expect(page.locator("#actions")).to_be_hidden()
    expect(page.locator("#replay")).to_be_visible()
    face_down_labels = page.locator('#board .card[aria-label^="face-down card ("]').count()
    assert face_down_labels == 0  # a win: sixteen face-up cards
    assert page.locator('#board .card[aria-label$=", face up"]').count() == 16

    page.click("#replay-first")
    expect(page.locator("#board")).to_have_attribute("data-replay-turn", "0")
    expect(page.locator("#replay-caption")).to_have_text("Before the first card")
    page.click("#replay-next")
    page.click("#replay-next")
    expect(page.locator("#board")).to_have_attribute("data-replay-turn", "2")
    replay_game = Game(deal=deal)
    for move in line[:2]:
        replay_game.place(move.row, move.col)
    expect(page.locator("#board .slot.occupied")).to_have_count(len(replay_game.cells()))
    expect(page.locator("#board .slot.marker-placed")).to_have_count(1)
    page.click("#replay-last")
    expect(page.locator("#board")).to_have_attribute("data-replay-turn", str(len(line)))

    analysis = page.locator("#analysis")
    expect(analysis).to_have_attribute("aria-busy", "false", timeout=WAIT_MS)
    expect(page.locator(".analysis-verdict")).to_have_text(re.compile("could be won"))
    shot(page, "desktop-game-over")

    # Statistics: the win is counted and drawn in the histogram; the games list links back.
    page.click('.site-nav a[data-route="stats"]')
    expect(page.locator(".tile-won dd")).to_have_text("1")
    expect(page.locator(f'#histogram rect[data-score="{score}"]')).to_have_attribute("data-count", "1")
    expect(page.locator(".games-table .outcome-won")).to_have_count(1)
    expect(page.locator(".games-table .outcome-playing")).to_have_count(1)  # the random game of the start page
    shot(page, "desktop-stats")
    page.click(".games-table .outcome-won a")
    expect(page.locator("#over")).to_be_visible()
    assert page.errors == []
    page.context.close()


def test_keyboard_placement_reload_resume_and_rules(browser: Any, server: str) -> None:
    page = new_page(browser)
    game_id = open_home(page, server)

    # The first card: the skip link takes the focus to the only highlighted cell; Enter places the card.
    page.focus(".skip-link")
    page.keyboard.press("Enter")
    expect(page.locator('#board .slot.legal[data-row="0"][data-col="0"]')).to_be_focused()
    page.keyboard.press("Enter")
    wait_turn(page, 1)
    # Arrow keys move the focus ring among the highlighted cells; Space places the card there.
    page.locator("#board .slot.legal").first.focus()
    before = page.evaluate("document.activeElement.dataset.key")
    page.keyboard.press("ArrowRight")
    after = page.evaluate("document.activeElement.dataset.key")
    assert after != before
    assert page.evaluate("document.activeElement.classList.contains('legal')")
    assert page.evaluate("document.activeElement.tabIndex") == 0
    row, col = (int(x) for x in after.split(","))
    page.keyboard.press("Space")
    wait_turn(page, 2)
    expect(page.locator(f'#board .slot.occupied[data-row="{row}"][data-col="{col}"]')).to_have_count(1)
    # Keyboard focus stays on the grid after a move.
    assert page.evaluate("document.getElementById('board').contains(document.activeElement)")
    # Shortcut U undoes.
    page.keyboard.press("u")
    wait_turn(page, 1)
    page.keyboard.press("r")
    wait_turn(page, 2)

    # Reload mid-game: the same game comes back from the URL …
    cells = page.locator("#board .slot.occupied").count()
    page.reload()
    wait_turn(page, 2)
    assert page.url.endswith(f"#/game/{game_id}")
    expect(page.locator("#board .slot.occupied")).to_have_count(cells)
    # … and from localStorage when the start page is opened without one.
    page.goto(server + "/#/rules")
    expect(page.locator("#rules-title")).to_be_visible()
    expect(page.locator("#rules-body h2")).to_have_count(8)  # the full rules: cards, laying, turning, … example
    # and how a game played on the device (offline) counts
    expect(page.locator("#rules-body")).to_contain_text(catalogue()["rules.offline.text"])
    expect(page.locator("#rules-controls li")).to_have_count(4)
    page.goto(server + "/")
    wait_turn(page, 2)
    assert page.url.endswith(f"#/game/{game_id}")
    assert page.errors == []
    page.context.close()


def test_drag_and_drop_places_the_card(browser: Any, server: str) -> None:
    page = new_page(browser)
    open_home(page, server)
    click_cell(page, 0, 0)
    source = page.locator("#hand-card .card").bounding_box()
    target_slot = page.locator("#board .slot.legal:not(.occupied)").first
    row = int(target_slot.get_attribute("data-row"))
    col = int(target_slot.get_attribute("data-col"))
    target = target_slot.bounding_box()
    assert source and target
    page.mouse.move(source["x"] + source["width"] / 2, source["y"] + source["height"] / 2)
    page.mouse.down()
    tx, ty = target["x"] + target["width"] / 2, target["y"] + target["height"] / 2
    page.mouse.move(tx, ty, steps=12)
    expect(page.locator(".drag-ghost")).to_have_count(1)
    expect(page.locator("#board .slot.drop-target")).to_have_count(1)
    page.mouse.up()
    wait_turn(page, 2)
    expect(page.locator(".drag-ghost")).to_have_count(0)
    expect(page.locator(f'#board .slot.occupied[data-row="{row}"][data-col="{col}"]')).to_have_count(1)
    assert page.errors == []
    page.context.close()


def test_touch_drag_places_the_card_on_a_phone(browser: Any, server: str) -> None:
    page = new_page(browser, PHONE, has_touch=True, is_mobile=True)
    open_home(page, server)
    page.tap('#board .slot.legal[data-row="0"][data-col="0"]')
    wait_turn(page, 1)
    source = page.locator("#hand-card .card").bounding_box()
    target_slot = page.locator("#board .slot.legal:not(.occupied)").last
    row = int(target_slot.get_attribute("data-row"))
    col = int(target_slot.get_attribute("data-col"))
    target = target_slot.bounding_box()
    assert source and target
    cdp = page.context.new_cdp_session(page)
    x0, y0 = source["x"] + source["width"] / 2, source["y"] + source["height"] / 2
    x1, y1 = target["x"] + target["width"] / 2, target["y"] + target["height"] / 2
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for i in range(1, 11):
        x, y = x0 + (x1 - x0) * i / 10, y0 + (y1 - y0) * i / 10
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    expect(page.locator(".drag-ghost")).to_have_count(1)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    wait_turn(page, 2)
    expect(page.locator(f'#board .slot.occupied[data-row="{row}"][data-col="{col}"]')).to_have_count(1)
    no_horizontal_overflow(page)
    assert page.errors == []
    page.context.close()


DEAD_TIME = re.search(r"DEAD_TIME_MS = (\d+);", (STATIC / "view.js").read_text(encoding="utf-8"))
assert DEAD_TIME, "view.js names its dead time DEAD_TIME_MS"
DEAD_TIME_MS = int(DEAD_TIME.group(1))


def server_turn(page: Any, server: str, game_id: str) -> int:
    """The turn of the game as the server has it (the moves it has taken)."""
    response = page.request.get(f"{server}/api/games/{game_id}")
    assert response.ok, response.text()
    turn: int = response.json()["turn"]
    return turn


# The centre of the element, once it stood still for a frame and is what a click there reaches: a mouse click at a
# point computed while the page still moves (its fonts, a banner) would land beside it.
STEADY_CENTRE = """(selector) => {
  const el = document.querySelector(selector);
  if (!el) return false;
  const r = el.getBoundingClientRect();
  const key = [r.x, r.y, r.width, r.height].join();
  const steady = window.__centreOf === key;
  window.__centreOf = key;
  const x = r.x + r.width / 2, y = r.y + r.height / 2;
  const hit = document.elementFromPoint(x, y);
  return steady && hit !== null && el.contains(hit) ? [x, y] : false;
}"""


def centre_of(page: Any, selector: str) -> tuple[float, float]:
    x, y = page.wait_for_function(STEADY_CENTRE, arg=selector, polling="raf").json_value()
    return x, y


def settled_turn(page: Any, server: str, game_id: str) -> tuple[int, int]:
    """The turn the page shows and the server's, once anything a stray click started has had time to land."""
    page.wait_for_timeout(DEAD_TIME_MS + 500)
    page.wait_for_function("document.body.dataset.busy !== 'true'")
    return turn_of(page), server_turn(page, server, game_id)


# Notes, for every click, whether the page could place a card then: the card shown long enough and no request
# under way. Recorded before the board's own handler runs (capture phase).
_NOTE_CLICKS = """() => {
  window.clicksThatCouldPlace = [];
  document.addEventListener("click", () => window.clicksThatCouldPlace.push(
    document.getElementById("board").dataset.armed === "true" && document.body.dataset.busy !== "true"), true);
}"""


def test_a_double_click_places_one_card(browser: Any, server: str) -> None:
    """A real double-click, quick or slow (its clicks ~80 ms apart), places exactly one card, the one shown.

    On a loaded machine the browser can deliver a slow double-click's second click after the next card has been
    on screen for the whole dead time: that click places a card the player has seen, rightly. So the test counts
    the clicks that came while a card could be placed and checks that exactly those placed one, and that the
    first click of each double-click did."""
    page = new_page(browser)
    game_id = open_home(page, server)
    page.evaluate(_NOTE_CLICKS)
    page.dblclick('#board .slot.legal[data-row="0"][data-col="0"]')
    # A move shows at once, before its answer: a second click that placed a card may already show the turn after.
    page.wait_for_function("Number(document.getElementById('board').dataset.turn) >= 1")
    settled = settled_turn(page, server, game_id)
    turn = settled[0]
    could = page.evaluate("window.clicksThatCouldPlace")
    assert could[0] and settled == (sum(could), sum(could)), could
    # The pile at (0, 0) stays a legal cell: a second card would land on it. A slow double-click lets the
    # first move come back before the second click.
    page.evaluate("window.clicksThatCouldPlace = []")
    page.dblclick('#board .slot.legal[data-row="0"][data-col="0"]', delay=80)
    page.wait_for_function(f"Number(document.getElementById('board').dataset.turn) >= {turn + 1}")
    settled = settled_turn(page, server, game_id)  # then every click has been noted, a late second one too
    could = page.evaluate("window.clicksThatCouldPlace")
    assert could[0] and settled == (turn + sum(could), turn + sum(could)), could
    assert page.errors == []
    page.context.close()


def test_two_clicks_100_ms_apart_place_one_card(browser: Any, server: str) -> None:
    page = new_page(browser)
    game_id = open_home(page, server)
    x, y = centre_of(page, '#board .slot.legal[data-row="0"][data-col="0"]')
    page.mouse.click(x, y)
    page.wait_for_timeout(100)
    page.mouse.click(x, y)
    wait_turn(page, 1)
    assert settled_turn(page, server, game_id) == (1, 1)
    assert page.errors == []
    page.context.close()


CLICK_AGAIN_AT_TURN_1 = """(selector) => {
  const board = document.getElementById('board');
  const observer = new MutationObserver(() => {
    if (board.dataset.turn !== '1') return;
    observer.disconnect();
    window.__armedAtClick = board.dataset.armed;
    document.querySelector(selector).click();
    // The page took the click and showed it was too soon (so the click did reach the board, and was ignored).
    window.__signalled = document.getElementById('hand-card').classList.contains('too-soon');
  });
  observer.observe(board, {attributes: true, attributeFilter: ['data-turn']});
}"""


def test_a_click_within_the_dead_time_is_ignored_and_one_after_it_places_the_next_card(
    browser: Any, server: str
) -> None:
    page = new_page(browser)
    game_id = open_home(page, server)
    bodies: list[Any] = []
    page.on("request", lambda r: bodies.append(r.post_data_json) if r.url.endswith("/moves") else None)
    shown = [page.locator("#hand-card .card").get_attribute("data-card")]
    x, y = centre_of(page, '#board .slot.legal[data-row="0"][data-col="0"]')
    # The second click comes the moment the next card is drawn, in the same task: within the dead time however
    # busy the machine is (a click sent from here after seeing turn 1 could come after it).
    page.evaluate(CLICK_AGAIN_AT_TURN_1, '#board .slot[data-row="0"][data-col="0"]')
    page.mouse.click(x, y)
    page.wait_for_function("window.__armedAtClick !== undefined")
    # (The page marks the end of the dead time on the board: this click did come within it.)
    assert page.evaluate("[window.__armedAtClick, window.__signalled]") == ["false", True]
    assert settled_turn(page, server, game_id) == (1, 1)
    # The dead time is over (settled_turn waited it out): the same click places the next card.
    expect(page.locator("#board")).to_have_attribute("data-armed", "true")
    shown.append(page.locator("#hand-card .card").get_attribute("data-card"))
    page.mouse.click(x, y)
    wait_turn(page, 2)
    assert settled_turn(page, server, game_id) == (2, 2)
    # Each move named the card the page showed (the server refuses it, wrong_card, if it has another one).
    assert [body["card"] for body in bodies] == shown
    assert page.errors == []
    page.context.close()


def test_stale_move_shows_a_toast_and_refetches(browser: Any, server: str) -> None:
    page = new_page(browser)
    game_id = open_home(page, server)
    other = page.context.new_page()
    other.goto(f"{server}/#/game/{game_id}")
    wait_turn(other, 0)
    click_cell(page, 0, 0)
    # The second tab still shows turn 0: its move is refused (409) and it catches up. The toast says so,
    # neutrally (no fault of the player), in the catalogue's words, not in the server's English detail.
    other.click('#board .slot.legal[data-row="0"][data-col="0"]')
    expect(other.locator(".toast-info .toast-text")).to_have_text(catalogue()["notice.stale"])
    wait_turn(other, 1)
    assert page.errors == []
    page.context.close()


def test_phone_layout_and_dark_theme(browser: Any, server: str) -> None:
    page = new_page(browser, PHONE)
    open_home(page, server)
    click_cell(page, 0, 0)
    for _ in range(5):
        if page.locator("#over").is_visible():
            break
        cell = page.locator("#board .slot.legal").last
        click_cell(page, int(cell.get_attribute("data-row")), int(cell.get_attribute("data-col")))
    no_horizontal_overflow(page)
    shot(page, "phone-game-light")

    # The browser's theme colour is style.css's page background, in either theme.
    assert page.get_attribute("html", "data-theme") == "light"
    theme_color = page.locator('meta[name="theme-color"]')
    expect(theme_color).to_have_attribute("content", "#f3efe6")
    page.click("#theme-toggle")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    expect(theme_color).to_have_attribute("content", "#12161b")
    expect(page.locator("#theme-toggle")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("localStorage.getItem('fs.theme')") == "dark"
    turn = turn_of(page)
    page.reload()
    wait_turn(page, turn)
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    no_horizontal_overflow(page)
    shot(page, "phone-game-dark")

    page.click('.site-nav a[data-route="stats"]')
    expect(page.locator(".tile-played")).to_be_visible()
    no_horizontal_overflow(page)
    page.click('.site-nav a[data-route="rules"]')
    expect(page.locator("#rules-title")).to_be_visible()
    no_horizontal_overflow(page)
    page.click("#theme-toggle")
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    assert page.errors == []
    page.context.close()


def test_reduced_motion_turns_cards_without_animation(
    browser: Any, server: str, winning: tuple[int, list[Move]]
) -> None:
    deal, line = winning
    game = Game(deal=deal)
    page = page_with_deal(browser, server, deal)
    page.emulate_media(reduced_motion="reduce")
    page.evaluate(FLIP_RECORDER)
    for move in line:
        flips = game.place(move.row, move.col).flips
        click_cell(page, move.row, move.col)
        if flips:
            flip = flips[0]
            face = "up" if flip.face_up else "down"
            card = page.locator(f'#board .slot[data-row="{flip.row}"][data-col="{flip.col}"] .card')
            expect(card).to_have_attribute("data-face", face)
            break
    assert page.evaluate("window.__flipSeen") == 0
    duration = page.evaluate("getComputedStyle(document.querySelector('#board .card-inner')).transitionDuration")
    assert duration == "0s"
    assert page.errors == []
    page.context.close()


def test_analysis_panel_lists_costliest_moves_and_shows_them_in_the_replay(
    browser: Any, server: str, winning: tuple[int, list[Move]]
) -> None:
    """The analysis panel draws the contract's JSON; the server's answer is replaced by a known one."""
    deal, line = winning
    game = Game(deal=deal)
    entries = []
    best_cells: dict[int, Move] = {}
    for index, move in enumerate(line):
        card = game.card_to_place
        assert card is not None
        others = [m for m in game.legal_moves if m != move]
        best = others[0] if others else move
        best_cells[index] = best
        mistake = index in (3, 5)
        entries.append(
            {
                "index": index,
                "card": card.name,
                "played": list(move),
                "played_cell": move.name,
                "best": list(best if mistake else move),
                "best_cell": (best if mistake else move).name,
                "played_win_probability": 0.5 if mistake else 0.9,
                "best_win_probability": 0.9,
                "played_expected_score": 5.0 if mistake else 9.0,
                "best_expected_score": 9.0,
                "win_probability_loss": 0.4 if mistake else 0.0,
                "expected_score_loss": 4.0 if mistake else 0.0,
                "forced": len(game.legal_moves) == 1,
                "mistake": mistake,
            }
        )
        game.place(move.row, move.col)
    outcome = game.outcome()
    analysis = {
        "outcome": outcome.status,
        "reason": outcome.reason,
        "score": outcome.score,
        "deal": deal,
        "moves": entries,
        "costliest": [5, 3],
        "perfect": {"status": "optimal", "winnable": True, "best_score": 20, "upper_bound": 20, "line": []},
    }
    page = page_with_deal(browser, server, deal)
    held: list[Any] = []  # the analysis request, answered only once the spinner has been seen
    page.route("**/api/games/*/analysis", lambda route: held.append(route))
    for move in line:
        click_cell(page, *move)
    expect(page.locator("#analysis .analysis-loading .spinner")).to_be_visible()
    expect(page.locator("#analysis")).to_have_attribute("aria-busy", "true")
    page.wait_for_function("true")  # let the route handler run
    assert len(held) == 1
    held[0].fulfill(json=analysis)
    expect(page.locator("#analysis")).to_have_attribute("aria-busy", "false")
    expect(page.locator(".analysis-verdict")).to_have_text(re.compile("could be won"))
    expect(page.locator(".analysis-best")).to_have_text("Best possible score: 20.")
    expect(page.locator(".analysis-mistakes")).to_have_text("2 mistakes.")
    costly = page.locator(".costly-move")
    expect(costly).to_have_count(2)
    expect(costly.first.locator(".costly-line")).to_have_text(re.compile(r"^Move 6: "))
    expect(costly.first.locator(".costly-loss")).to_have_text(re.compile(r"40\s?% win chance"))
    costly.first.locator("button").click()
    expect(page.locator("#board")).to_have_attribute("data-replay-turn", "5")
    played, best = line[5], best_cells[5]
    for kind, cell in (("played", played), ("best", best)):
        marker = page.locator(f'#board .slot.marker-{kind}[data-row="{cell.row}"][data-col="{cell.col}"]')
        expect(marker).to_have_count(1)
    # The mistakes are marked under the replay slider too; a mark opens the position before that move.
    expect(page.locator("#replay-marks .replay-mark")).to_have_count(2)
    page.click("#replay-first")
    page.locator("#replay-marks .replay-mark").nth(1).click()
    expect(page.locator("#board")).to_have_attribute("data-replay-turn", "5")
    shot(page, "desktop-analysis")
    # After the game the keys step through the replay.
    page.locator("#board").focus()
    for key, turn in (("Home", 0), ("ArrowRight", 1), ("ArrowRight", 2), ("ArrowLeft", 1), ("End", len(line))):
        page.keyboard.press(key)
        expect(page.locator("#board")).to_have_attribute("data-replay-turn", str(turn))
    # Another game, then back to this one: its final position, replay and analysis come back.
    page.click("#btn-again")
    wait_turn(page, 0)
    expect(page.locator("#over")).to_be_hidden()
    page.go_back()
    wait_turn(page, len(line))
    page.wait_for_function("true")  # let the route handler run
    assert len(held) == 2
    held[1].fulfill(json=analysis)
    expect(page.locator("#over")).to_be_visible()
    expect(page.locator("#board .slot.occupied")).to_have_count(len(game.cells()))
    expect(page.locator("#replay-marks .replay-mark")).to_have_count(2)
    expect(page.locator("#board")).to_have_attribute("data-replay-turn", str(len(line)))
    assert page.errors == []
    page.context.close()


def test_a_refused_move_is_told_in_the_catalogues_words_for_its_code(browser: Any, server: str) -> None:
    """The page words an error from its code (and an illegal move from its reason), never from ``detail``."""
    page = new_page(browser)
    open_home(page, server)
    refusal = {
        "detail": "cannot place a card at (0, 0): the pile there already holds 4 cards",
        "code": "illegal_move",
        "reason": "pile_full",
    }
    page.route("**/api/games/*/moves", lambda route: route.fulfill(status=422, json=refusal))
    page.click('#board .slot.legal[data-row="0"][data-col="0"]')
    expect(page.locator(".toast-error .toast-text")).to_have_text(catalogue()["error.illegal.pile_full"])
    wait_turn(page, 0)  # nothing changed
    page.unroute("**/api/games/*/moves")
    page.route(
        "**/api/games/*/moves",
        lambda route: route.fulfill(status=503, json={"detail": "the server's own words", "code": "not_available"}),
    )
    page.click('#board .slot.legal[data-row="0"][data-col="0"]')
    expect(page.locator(".toast-error .toast-text").last).to_have_text(catalogue()["error.code.not_available"])
    assert "own words" not in (page.locator("#toasts").text_content() or "")
    # The database away for a moment (docs/api.md): the server's answer, not a lost connection; asked again, played.
    page.unroute("**/api/games/*/moves")
    away = {"detail": "the games database cannot be reached just now: try again in 5 s", "code": "database_unavailable"}
    page.route(
        "**/api/games/*/moves", lambda route: route.fulfill(status=503, json=away, headers={"Retry-After": "5"})
    )
    page.click('#board .slot.legal[data-row="0"][data-col="0"]')
    text = catalogue()["error.code.database_unavailable"]
    expect(page.locator(".toast-error .toast-text").last).to_have_text(text)
    expect(page.locator("#offline-banner")).to_be_hidden()
    shot(page, "database-unavailable-toast")
    wait_turn(page, 0)
    page.unroute("**/api/games/*/moves")
    page.click('#board .slot.legal[data-row="0"][data-col="0"]')
    wait_turn(page, 1)
    assert page.errors == []
    page.context.close()


def test_a_wrong_card_refusal_is_told_and_the_game_shown_as_it_is(browser: Any, server: str) -> None:
    page = new_page(browser)
    open_home(page, server)
    refusal = {"detail": "the card to place is 7H, not 5C: …", "code": "wrong_card"}
    page.route("**/api/games/*/moves", lambda route: route.fulfill(status=409, json=refusal))
    page.click('#board .slot.legal[data-row="0"][data-col="0"]')
    expect(page.locator(".toast-error .toast-text")).to_have_text(catalogue()["error.code.wrong_card"])
    wait_turn(page, 0)
    assert page.errors == []
    page.context.close()


def test_an_unknown_game_is_told_and_a_new_one_offered_and_restart_asks_first(browser: Any, server: str) -> None:
    page = new_page(browser)
    page.goto(f"{server}/#/game/no-such-game-0000")
    expect(page.locator("#no-game-text")).to_have_text(catalogue()["missing.text"])
    assert page.url.endswith("no-such-game-0000")  # nothing was dealt in its place
    page.click("#btn-no-game-new")
    page.click("#new-start")
    wait_turn(page, 0)
    expect(page.locator("#no-game")).to_be_hidden()
    click_cell(page, 0, 0)
    # Restart asks first: cancelling keeps the card, confirming takes it back.
    page.click("#btn-restart")
    expect(page.locator("#confirm-dialog")).to_be_visible()
    page.click("#confirm-cancel")
    expect(page.locator("#confirm-dialog")).to_be_hidden()
    assert turn_of(page) == 1
    page.click("#btn-restart")
    page.click("#confirm-ok")
    wait_turn(page, 0)
    expect(page.locator("#board-message")).to_have_text(catalogue()["toast.restarted"])
    assert page.errors == []
    page.context.close()


SWAPPED_REASON = {"highest": "none_face_up", "lowest": "highest", "none_face_up": "lowest"}


def test_the_flip_message_tells_the_reason_the_server_gives(
    browser: Any, server: str, winning: tuple[int, list[Move]]
) -> None:
    """The page says why cards turned from each flip's ``reason``: given another reason, it says that one."""
    deal, line = winning
    game = Game(deal=deal)
    page = page_with_deal(browser, server, deal)

    def swap_reasons(route: Any) -> None:
        response = route.fetch()
        data = response.json()
        for flip in data["flips"]:
            flip["reason"] = SWAPPED_REASON[flip["reason"]]
        route.fulfill(response=response, json=data)

    page.route("**/api/games/*/moves", swap_reasons)
    for move in line:
        placement = game.place(move.row, move.col)
        click_cell(page, move.row, move.col)
        if placement.flips:
            flips = tuple(f._replace(reason=SWAPPED_REASON[f.reason]) for f in placement.flips)
            swapped = placement._replace(flips=flips)
            message = page.locator("#board-message").text_content() or ""
            for said in flip_reasons(swapped):
                assert said in message, (said, message)
            break
    else:
        pytest.fail("no card of the winning line turned another over")
    assert page.errors == []
    page.context.close()


def test_the_face_down_meter_uses_the_servers_limit(browser: Any, server: str) -> None:
    """The meter has as many pips as the state's max_face_down says (here a server that allows 6)."""

    def allow_six(route: Any) -> None:
        response = route.fetch()
        data = response.json()
        if isinstance(data, dict) and "max_face_down" in data:
            data["max_face_down"] = 6
        route.fulfill(response=response, json=data)

    page = new_page(browser)
    page.route(re.compile(r".*/api/games(/[\w-]+(/\w+)?)?$"), allow_six)
    open_home(page, server)
    expect(page.locator("#face-down-meter .pip")).to_have_count(6)
    expect(page.locator("#face-down")).to_have_text("0 of 6")
    click_cell(page, 0, 0)
    expect(page.locator("#face-down")).to_have_text("0 of 6")
    expect(page.locator("#face-down-meter .pip")).to_have_count(6)
    assert page.errors == []
    page.context.close()


def test_new_game_dialog_sends_the_house_rules(browser: Any, server: str) -> None:
    page = new_page(browser)
    open_home(page, server)
    page.keyboard.press("n")
    expect(page.locator("#new-dialog")).to_be_visible()
    page.check("#new-diagonal")
    page.check("#new-buried")
    page.click("#new-start")
    expect(page.locator("#variant-tags .tag")).to_have_text(["Diagonal adjacency", "Buried cards count"])
    expect(page.locator("#deal-label")).to_have_text("Random deal")
    wait_turn(page, 0)
    click_cell(page, 0, 0)
    # Diagonal adjacency: the eight neighbours of the first card and its own pile take the next card.
    expect(page.locator("#board .slot.legal")).to_have_count(9)
    expect(page.locator('#board .slot.legal[data-row="1"][data-col="1"]')).to_have_count(1)
    assert page.errors == []
    page.context.close()


# --- the message catalogue -------------------------------------------------------------------------------

# IllegalMoveError.reason's codes, as its docstring lists them.
ILLEGAL_MOVE_REASONS = ("game_over", "first_card", "pile_full", "not_adjacent", "outside_4x4", "bad_cell")
DYNAMIC_KEYS = [
    *(f"over.reason.{r}" for r in ("sixteen_face_up", "too_many_face_down", "stock_empty")),
    *(f"stats.result.{o}" for o in ("playing", "won", "lost")),
    *(f"suit.{s}" for s in "CDHS"),
    "flip.line.row",
    "flip.line.column",
    *(f"flip.reason.{r}" for r in get_args(FlipReason)),
    *(f"error.code.{code}" for code in ERROR_CODES),
    *(f"error.illegal.{r}" for r in ILLEGAL_MOVE_REASONS),
]


class _VisibleText(HTMLParser):
    """Collects text the markup itself would show (outside script, style, title and SVG)."""

    def __init__(self) -> None:
        super().__init__()
        self.skipping: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "title", "svg"):
            self.skipping.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if self.skipping and self.skipping[-1] == tag:
            self.skipping.pop()

    def handle_data(self, data: str) -> None:
        if not self.skipping and data.strip():
            self.text.append(data.strip())


def test_every_message_the_page_shows_comes_from_the_catalogue() -> None:
    keys = set(page_messages("en"))
    used: set[str] = set(DYNAMIC_KEYS)
    for script in STATIC.glob("*.js"):
        used.update(re.findall(r'\bt\("([\w.]+)"', script.read_text(encoding="utf-8")))
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    used.update(re.findall(r'data-i18n(?:-label|-title|-placeholder)?="([\w.]+)"', html))
    assert sorted(used - keys) == []
    parser = _VisibleText()
    parser.feed(html)
    assert parser.text == [], "text in index.html that is not from the catalogue"
