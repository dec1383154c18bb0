"""What a review of the page saw, each fixed and driven in Chromium as a player meets it.

Undo and redo are said in the board's live caption; a change of language renames every card; neither the
preview of the next card nor a pile's height badge hides a card; on a phone the links stay on one line in
every language (four of them too); the recent games show that they scroll; a tap that comes too soon is shown
to be ignored; a notice is not stacked twice; a lost game's face-down count says that the limit was passed;
the hint says whose chance of winning it gives. Screenshots: ``test-artifacts/screenshots/review-*.png``.
"""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest

from browser_support import (
    BROWSER_MARKS,
    DESKTOP,
    GUARD_S,
    browser,
    catalogue,
    click_cell,
    expect,
    new_page,
    open_home,
    page_with_deal,
    server,
    shot,
    symbol,
    turn_of,
    wait_turn,
)
from foursquare.engine import Game
from foursquare.i18n import LANGUAGES

pytestmark = BROWSER_MARKS
__all__ = ["browser", "server"]

PHONE = {"width": 390, "height": 844}
SIZES = {"desktop": DESKTOP, "phone": PHONE}
ACCEPT = {"en": "en-US", "uz": "uz-Latn-UZ", "hr": "hr-HR", "fil": "tl", "kn": "kn-IN", "bn": "bn-BD"}
# A fourth link ("Learn") is coming to the navigation; until the catalogue has its word, one as long as the
# language's likely word stands in for it.
DIGITS = {"en": {}, "bn": str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯")}  # Intl writes Bengali's own digits
LEARN = {"en": "Learn", "uz": "Oʻrganish", "hr": "Nauči", "fil": "Matuto", "kn": "ಕಲಿಯಿರಿ", "bn": "শিখুন"}


def game_id(page: Any) -> str:
    return str(page.url.rsplit("/", 1)[-1])


def player_client(page: Any, server: str) -> httpx.Client:
    """An HTTP client with the page's player cookie: the same player, in another "tab"."""
    cookies = {c["name"]: c["value"] for c in page.context.cookies() if c["name"] == "fs_player"}
    return httpx.Client(base_url=server, cookies=cookies, timeout=GUARD_S)


def choose_language(page: Any, code: str) -> None:
    page.click("#btn-settings")
    page.check(f'#settings-languages input[value="{code}"]')
    expect(page.locator("html")).to_have_attribute("lang", code)
    page.click("#settings-close")
    expect(page.locator("#settings-dialog")).to_be_hidden()


# --- undo and redo are heard ---------------------------------------------------------------------------


@pytest.mark.parametrize("code", ["en", "bn"])
def test_undo_and_redo_say_what_they_did_in_the_live_caption(browser: Any, server: str, code: str) -> None:
    page = page_with_deal(browser, server, 7)
    if code != "en":
        choose_language(page, code)
    messages = catalogue(code)
    caption = page.locator("#board-message")
    assert caption.get_attribute("aria-live") == "polite"
    first = page.locator("#hand-card .card").get_attribute("data-card")
    click_cell(page, 0, 0)
    second = page.locator("#hand-card .card").get_attribute("data-card")
    click_cell(page, 0, 1)
    page.click("#btn-undo")
    wait_turn(page, 1)
    expect(caption).to_have_text(messages["flip.undone"].format(card=symbol(second), cell="E4"))
    page.click("#btn-undo")
    wait_turn(page, 0)
    expect(caption).to_have_text(messages["flip.undone"].format(card=symbol(first), cell="D4"))
    page.keyboard.press("r")  # the shortcut says it too
    wait_turn(page, 1)
    expect(caption).to_have_text(messages["flip.redone"].format(card=symbol(first), cell="D4"))
    page.click("#btn-redo")
    wait_turn(page, 2)
    expect(caption).to_have_text(messages["flip.redone"].format(card=symbol(second), cell="E4"))
    shot(page, f"review-undo-{code}-desktop")
    assert page.errors == []
    page.context.close()


# --- a change of language renames every card ----------------------------------------------------------


def accessible_tree(page: Any) -> list[str]:
    """What a screen reader gets of the game, line by line in any order (the grid's cells are in the order
    they were drawn), its board message aside (a change of language clears it)."""
    page.wait_for_function("document.body.dataset.busy !== 'true'")
    page.wait_for_function("document.getElementById('analysis').getAttribute('aria-busy') !== 'true'")
    tree: str = page.locator("#game-table").aria_snapshot()
    return sorted(line.strip() for line in tree.splitlines() if "board-message" not in line)


def cards_named(page: Any) -> list[str]:
    names: list[str] = page.eval_on_selector_all("#game-table .card[aria-label]", "els => els.map(e => e.ariaLabel)")
    return sorted(names)


@pytest.mark.parametrize("finished", [False, True], ids=["playing", "finished"])
def test_a_change_of_language_renames_every_card_as_a_fresh_page_names_it(
    browser: Any, server: str, finished: bool
) -> None:
    page = page_with_deal(browser, server, 1)
    for row, col in [(0, 0), (0, 0), (-1, 0), (0, 1)]:
        click_cell(page, row, col)
    if finished:
        # The rest of a random line of play, made elsewhere by the same player; the page then shows its end.
        with player_client(page, server) as client:
            state = client.get(f"/api/games/{game_id(page)}").json()
            rng = random.Random(1)
            while state["outcome"] == "playing":
                row, col = rng.choice(state["legal"])
                body = {"row": row, "col": col, "turn": state["turn"]}
                state = client.post(f"/api/games/{state['id']}/moves", json=body).json()
        page.reload()
        expect(page.locator("#over")).to_be_visible()
        # The replay's caption says the last move only once its position came back from the server.
        expect(page.locator("#board")).to_have_attribute("data-replay-turn", str(state["turn"]))
    english = cards_named(page)
    assert english and all(name.isascii() for name in english)
    choose_language(page, "bn")
    switched = accessible_tree(page)
    renamed = cards_named(page)
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "bn")
    page.wait_for_selector("#board .slot.occupied .card[aria-label]")
    if finished:
        expect(page.locator("#over")).to_be_visible()
        expect(page.locator("#board")).to_have_attribute("data-replay-turn", str(state["turn"]))
    assert renamed == cards_named(page)
    assert switched == accessible_tree(page)
    assert not any(name in renamed for name in english)
    assert page.errors == []
    page.context.close()


# --- neither the preview nor the pile's badge hides a card ---------------------------------------------

# For each pile's height badge: whether it lies inside its own card, whether another card overlaps it, and
# whether the point at its centre belongs to its own cell (nothing else drawn over it there).
BADGES = """() => [...document.querySelectorAll('#board .pile-badge')].filter(b => b.textContent).map(badge => {
  const box = badge.getBoundingClientRect();
  const slot = badge.closest('.slot');
  const own = slot.querySelector('.pile > .card').getBoundingClientRect();
  const inside = box.left >= own.left - 0.5 && box.right <= own.right + 0.5 && box.top >= own.top - 0.5
    && box.bottom <= own.bottom + 0.5;
  const overlapped = [...document.querySelectorAll('#board .pile > .card')]
    .filter(card => card.closest('.slot') !== slot).some(card => { const r = card.getBoundingClientRect();
      return r.left < box.right && box.left < r.right && r.top < box.bottom && box.top < r.bottom; });
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  const ownPoint = hit?.closest('.slot') === slot;
  return {cell: slot.dataset.cell, text: badge.textContent, inside, overlapped, ownPoint};
})"""


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_neither_the_preview_nor_a_piles_badge_hides_a_card(browser: Any, server: str, size: str) -> None:
    page = new_page(browser, SIZES[size])
    open_home(page, server)
    # A pile of two at D4 under a card at D3 (the row above), then a pile of two at D3 as well.
    for row, col in [(0, 0), (0, 0), (-1, 0), (-1, 0)]:
        click_cell(page, row, col)
    # Measured once the last card has landed (a card still flying from the hand overlaps others on its way).
    page.evaluate("""() => Promise.all(document.getAnimations()
      .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
      .map((animation) => animation.finished))""")
    badges = page.evaluate(BADGES)
    assert {badge["cell"] for badge in badges} == {"D3", "D4"}, badges
    for badge in badges:
        assert badge["inside"] and not badge["overlapped"] and badge["ownPoint"], badge
    if size == "desktop":
        # The pointer stays on the cell just played: the next card's preview does not cover the card placed.
        placed = page.locator('#board .slot[data-cell="D3"]')
        box = placed.bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.move(box["x"] + box["width"] / 2 + 3, box["y"] + box["height"] / 2 + 3)
        page.wait_for_timeout(300)
        assert placed.locator(".card.preview").count() == 0
        shot(page, "review-preview-desktop")
        # Elsewhere the preview shows as before; and back on the cell once the pointer has left it.
        other = page.locator('#board .slot.legal[data-cell="D2"]')
        other.hover()
        expect(other.locator(".card.preview")).to_have_count(1)
        placed.hover()
        expect(placed.locator(".card.preview")).to_have_count(1)
        expect(other.locator(".card.preview")).to_have_count(0)
    page.mouse.move(1, 1)
    shot(page, f"review-badges-{size}")
    assert page.errors == []
    page.context.close()


# --- the navigation on a phone ---------------------------------------------------------------------------

ADD_LINK = """(word) => {
  const nav = document.querySelector('.site-nav');
  if (nav.querySelectorAll('a').length < 4) {
    const link = document.createElement('a');
    link.href = '#/learn';
    link.textContent = word;
    nav.append(link);
  }
  return nav.querySelectorAll('a').length;
}"""

# The links but the daily deal's, which on a phone has its own place on the logo's line (see DAILY).
NAV = """() => {
  const nav = document.querySelector('.site-nav');
  const links = [...nav.querySelectorAll('a:not(.nav-daily)')].map(a => {
    const r = a.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height, text: a.textContent,
            wraps: a.getClientRects().length > 1};
  });
  return {links, overflow: nav.scrollWidth - nav.clientWidth, width: window.innerWidth,
          page: document.documentElement.scrollWidth};
}"""


DAILY = """() => {
  const box = (selector) => document.querySelector(selector).getBoundingClientRect();
  const daily = box('.nav-daily');
  return {left: daily.left, right: daily.right, bottom: daily.bottom, brand: box('.brand').right,
          buttons: box('#theme-toggle').left};
}"""


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_on_a_phone_the_links_stay_on_one_line_in_every_language_four_of_them_too(
    browser: Any, server: str, code: str
) -> None:
    page = new_page(browser, PHONE, locale=ACCEPT[code], has_touch=True)
    open_home(page, server)
    expect(page.locator("html")).to_have_attribute("lang", code)
    messages = catalogue(code)
    count = page.evaluate(ADD_LINK, messages.get("nav.learn", LEARN[code]))
    assert count >= 4
    nav = page.evaluate(NAV)
    tops = [link["top"] for link in nav["links"]]
    heights = [link["height"] for link in nav["links"]]
    assert max(tops) - min(tops) < 1 and max(heights) - min(heights) < 1, nav  # one line
    assert not any(link["wraps"] for link in nav["links"]), nav
    assert nav["overflow"] <= 1 and nav["page"] <= nav["width"], nav  # every link seen whole
    assert all(link["left"] >= 0 and link["right"] <= nav["width"] for link in nav["links"]), nav
    daily = page.evaluate(DAILY)
    assert daily["brand"] <= daily["left"] and daily["right"] <= daily["buttons"], daily  # whole, between them
    assert daily["bottom"] <= min(link["top"] for link in nav["links"]), daily  # above the other links
    if code in ("en", "bn", "fil", "kn", "uz"):
        shot(page, f"review-nav-{code}-phone")
    assert page.errors == []
    page.context.close()


def test_on_a_desktop_four_links_keep_the_header_on_one_line(browser: Any, server: str) -> None:
    for code in LANGUAGES:
        page = new_page(browser, DESKTOP, locale=ACCEPT[code])
        open_home(page, server)
        page.evaluate(ADD_LINK, catalogue(code).get("nav.learn", LEARN[code]))
        nav = page.evaluate(NAV)
        tops = [link["top"] for link in nav["links"]]
        assert max(tops) - min(tops) < 1, (code, nav)
        if code in ("en", "bn"):
            shot(page, f"review-nav-{code}-desktop")
        page.context.close()


# --- the recent games show that they scroll ------------------------------------------------------------


def finish_games(client: httpx.Client, count: int) -> None:
    """Play ``count`` random deals to their end (their long numbers then shown) for the client's player."""
    rng = random.Random(count)
    for _ in range(count):
        state = client.post("/api/games", json={}).json()
        while state["outcome"] == "playing":
            row, col = rng.choice(state["legal"])
            body = {"row": row, "col": col, "turn": state["turn"]}
            state = client.post(f"/api/games/{state['id']}/moves", json=body).json()


@pytest.mark.parametrize("code", ["en", "bn", "kn"])
def test_the_recent_games_fade_where_more_of_them_is_and_cut_no_word(browser: Any, server: str, code: str) -> None:
    page = new_page(browser, PHONE, locale=ACCEPT[code], has_touch=True)
    open_home(page, server)
    with player_client(page, server) as client:
        finish_games(client, 3)
    page.goto(server + "/#/stats")
    page.wait_for_selector(".games-table tbody tr:nth-child(4)")
    box = page.locator("#games")
    wide = page.evaluate("(b => b.scrollWidth - b.clientWidth)(document.getElementById('games'))")
    mask = "getComputedStyle(document.getElementById('games')).maskImage"
    if wide > 1:
        expect(box).to_have_attribute("data-scroll", "start")
        assert "gradient" in page.evaluate(mask)
        shot(page, f"review-games-{code}-phone")
        page.evaluate("document.getElementById('games').scrollLeft = 100000")
        expect(box).to_have_attribute("data-scroll", "end")
        assert "gradient" in page.evaluate(mask)
    else:
        expect(box).to_have_attribute("data-scroll", "none")
        assert page.evaluate(mask) == "none"
        shot(page, f"review-games-{code}-phone")
    # No word is broken over two lines: only a deal's number (digits) may be.
    broken = page.evaluate("""() => [...document.querySelectorAll('.games-table td:not(.deal-number), .games-table th')]
      .flatMap(td => [...td.querySelectorAll('*'), td]).filter(e => e.children.length === 0 && e.textContent.trim())
      .filter(e => e.textContent.trim().split(/\\s+/).length < e.getClientRects().length)
      .map(e => e.textContent)""")
    assert broken == [], broken
    if code == "en":
        assert wide <= 1, "the English table fits a phone"
    assert page.errors == []
    page.context.close()


# --- a tap too soon -------------------------------------------------------------------------------------

TOO_SOON_RECORDER = """() => {
  window.__tooSoon = [];
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.target.classList.contains('too-soon')) window.__tooSoon.push(r.target.id || r.target.dataset.cell);
    }
  }).observe(document.getElementById('game-table'), {subtree: true, attributes: true, attributeFilter: ['class']});
}"""


# Taps the cell again the moment the next card is drawn (in the same task, so surely within the dead time,
# however busy the machine): the tap a player makes a moment too soon.
TAP_AGAIN_AT_ONCE = """(selector) => {
  const board = document.getElementById('board');
  const observer = new MutationObserver(() => {
    if (board.dataset.turn !== '1') return;
    observer.disconnect();
    window.__armedAtTap = board.dataset.armed;
    document.querySelector(selector).click();
  });
  observer.observe(board, {attributes: true, attributeFilter: ['data-turn']});
}"""


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_tap_before_the_new_card_was_seen_is_shown_to_be_ignored(browser: Any, server: str, size: str) -> None:
    page = new_page(browser, SIZES[size], has_touch=size == "phone")
    open_home(page, server)
    page.evaluate(TOO_SOON_RECORDER)
    target = '#board .slot.legal[data-row="0"][data-col="0"]'
    page.evaluate(TAP_AGAIN_AT_ONCE, target)
    page.tap(target) if size == "phone" else page.click(target)
    page.wait_for_function("window.__tooSoon.includes('hand-card')")
    assert page.evaluate("window.__armedAtTap") == "false"
    shot(page, f"review-too-soon-{size}")
    recorded = page.evaluate("window.__tooSoon")
    assert "hand-card" in recorded and "D4" in recorded, recorded
    # Ignored, not kept for later: the card shown too briefly is still the card to place.
    wait_turn(page, 1)
    page.wait_for_timeout(1000)
    assert turn_of(page) == 1
    expect(page.locator(".too-soon")).to_have_count(0)  # the sign goes by itself
    # A tap once the card has been seen places it, with no sign.
    page.evaluate("window.__tooSoon = []")
    page.tap(target) if size == "phone" else page.click(target)
    wait_turn(page, 2)
    assert page.evaluate("window.__tooSoon") == []
    assert page.errors == []
    page.context.close()


# --- one notice, not two -------------------------------------------------------------------------------


def test_a_notice_already_shown_is_not_shown_twice(browser: Any, server: str) -> None:
    page = new_page(browser)
    game = open_home(page, server)
    notice = catalogue()["notice.stale"]
    toasts = page.locator(".toast", has_text=notice)
    with player_client(page, server) as client:
        for _ in range(2):
            # A move made elsewhere by the same player: this tab's click is refused (stale) and it catches up.
            state = client.get(f"/api/games/{game}").json()
            row, col = state["legal"][0]
            client.post(f"/api/games/{game}/moves", json={"row": row, "col": col, "turn": state["turn"]})
            page.click('#board .slot.legal[data-row="0"][data-col="0"]')
            wait_turn(page, state["turn"] + 1)
            expect(toasts).to_have_count(1)
    assert page.locator(".toast").count() == 1
    assert page.errors == []
    page.context.close()


# --- a lost game's face-down count ---------------------------------------------------------------------


def lost_line() -> tuple[int, list[tuple[int, int]]]:
    """A deal and a line of it lost by too many face-down cards."""
    for deal in range(1, 200):
        game, rng = Game(deal=deal), random.Random(deal)
        moves = []
        while game.outcome().status == "playing":
            move = rng.choice(list(game.legal_moves))
            game.place(move.row, move.col)
            moves.append((move.row, move.col))
        if game.outcome().reason == "too_many_face_down":
            return deal, moves
    pytest.fail("no deal lost by too many face-down cards")


@pytest.mark.parametrize("code", ["en", "bn"])
def test_a_lost_game_says_the_limit_was_passed_not_five_of_four(browser: Any, server: str, code: str) -> None:
    deal, moves = lost_line()
    page = page_with_deal(browser, server, deal)
    with player_client(page, server) as client:
        for row, col in moves:
            turn = client.get(f"/api/games/{game_id(page)}").json()["turn"]
            client.post(f"/api/games/{game_id(page)}/moves", json={"row": row, "col": col, "turn": turn})
        state = client.get(f"/api/games/{game_id(page)}").json()
    assert state["outcome"] == "lost" and state["face_down"] > state["max_face_down"]
    page.reload()
    expect(page.locator("#over")).to_be_visible()
    if code != "en":
        choose_language(page, code)
    said = catalogue(code)["panel.faceDownOver"].format(count=state["face_down"], max=state["max_face_down"])
    expect(page.locator("#face-down")).to_have_text(said.translate(DIGITS[code]))
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.locator("#face-down").scroll_into_view_if_needed()
        shot(page, f"review-face-down-{code}-{size}")
    assert page.errors == []
    page.context.close()


# --- what the hint's number means ---------------------------------------------------------------------


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_the_hint_says_its_win_chance_is_the_computers_playing_on(browser: Any, server: str, code: str) -> None:
    page = new_page(browser, DESKTOP, locale=ACCEPT[code])
    open_home(page, server)
    click_cell(page, 0, 0)
    page.click("#btn-hint")
    page.wait_for_selector("#hint-list li")
    note = page.locator("#hint-box .hint-note")
    expect(note).to_be_visible()
    expect(note).to_have_text(catalogue(code)["hint.winNote"])
    if code in ("en", "bn"):
        shot(page, f"review-hint-{code}-desktop")
        page.set_viewport_size(PHONE)
        note.scroll_into_view_if_needed()
        shot(page, f"review-hint-{code}-phone")
    assert page.errors == []
    page.context.close()
