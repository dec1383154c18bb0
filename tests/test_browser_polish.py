"""The page as players meet it (issue 44, part 3), driven in Chromium at desktop and phone sizes, in English and
Bengali: what Share gives a friend, the waiting states and the tap that comes too soon, a daily game's analysis
and when it opens, toasts that leave the board and its controls uncovered, the phone's bar of buttons, "tap" on a
touch screen, the lesson's card to place, the daily deal in the navigation — and axe finds no serious or critical
fault on any view, each with one ``h1``.

Nothing waits for a duration: an answer the page waits for is held by the test (``page.route``) until it has seen
the waiting state, and the 250 ms guard is met by tapping in the same task that draws the next card.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_support import (
    BROWSER_MARKS,
    DESKTOP,
    ROOT,
    WAIT_MS,
    browser,
    catalogue,
    expect,
    new_page,
    open_home,
    shot,
    start_deal,
    wait_turn,
)
from test_browser_daily import play_daily_through_the_api
from test_browser_offline import Server

pytestmark = BROWSER_MARKS
__all__ = ["browser"]  # fixtures are found by name in this module's namespace

# Games are played out through the API as fast as a script goes: no rate limit may refuse a move of theirs.
UNLIMITED = {"FOURSQUARE_RATE_MOVES": "1000000/second", "FOURSQUARE_RATE_GAMES": "1000000/second"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    served = Server(tmp_path_factory.mktemp("polish"), env=UNLIMITED)
    served.start()
    try:
        yield served.url
    finally:
        served.stop()


PHONE = {"width": 390, "height": 844}
SIZES = {"desktop": DESKTOP, "phone": PHONE}
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
SHOTS = Path("/tmp/shots44a")
KOLKATA = "Asia/Kolkata"  # UTC+5:30: the next daily deal comes at 5:30 in the morning there


def page_at(browser: Any, size: str, code: str, **options: Any) -> Any:
    touch = {"has_touch": True, "is_mobile": True} if size == "phone" else {}
    return new_page(browser, SIZES[size], locale="en-US" if code == "en" else code, **touch, **options)


def snap(page: Any, name: str) -> None:
    shot(page, name)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), animations="disabled")


def words(code: str) -> dict[str, str]:
    return catalogue(code)


def box(page: Any, selector: str) -> dict[str, float] | None:
    found: dict[str, float] | None = page.evaluate(
        """(selector) => { const e = document.querySelector(selector); if (!e) return null;
          const r = e.getBoundingClientRect();
          return r.width && r.height ? {l: r.left, t: r.top, r: r.right, b: r.bottom} : null; }""",
        selector,
    )
    return found


def overlaps(a: dict[str, float] | None, b: dict[str, float] | None) -> bool:
    if a is None or b is None:
        return False
    return min(a["r"], b["r"]) > max(a["l"], b["l"]) and min(a["b"], b["b"]) > max(a["t"], b["t"])


def toast_clear(page: Any) -> None:
    """The toasts on screen cover neither the board, the replay's controls, the bar of buttons nor the device note."""
    page.wait_for_function("document.getElementById('toasts').dataset.place !== undefined")
    toasts = box(page, "#toasts")
    for kept in ("#board-wrap", ".replay-controls", "#actions", "#offline-tag"):
        assert not overlaps(toasts, box(page, kept)), (kept, toasts, box(page, kept))
    assert page.get_attribute("#toasts", "data-place") == "clear"


# --- 1. Share says what the friend gets --------------------------------------------------------------------


@pytest.mark.parametrize(("size", "code"), [("desktop", "en"), ("phone", "bn")])
def test_share_during_a_game_says_what_the_friend_gets(browser: Any, server: str, size: str, code: str) -> None:
    said = words(code)
    live = f"{said['share.copiedShort']} {said['share.whatLive']}"
    page = page_at(browser, size, code, permissions=["clipboard-read", "clipboard-write"])
    game = open_home(page, server)
    page.locator("#board .slot.legal").first.click()
    wait_turn(page, 1)
    page.click("#btn-share")
    expect(page.locator(".toast-text").last).to_have_text(live)
    assert page.evaluate("navigator.clipboard.readText()") == f"{server}/game/{game}"
    toast_clear(page)
    snap(page, f"share-live-{size}-{code}")
    # Where the page may not write to the clipboard, the dialog says it under the link.
    page.context.clear_permissions()
    page.evaluate("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    # The notice closed first: placed anew as the page scrolls to the button, it could come under the click.
    for close in page.locator(".toast-close").all():
        close.click()
    page.click("#btn-share")
    expect(page.locator("#share-dialog")).to_be_visible()
    expect(page.locator("#share-what")).to_have_text(said["share.whatLive"])
    snap(page, f"share-dialog-{size}-{code}")
    page.click("#share-close")
    # A numbered deal's link starts a fresh game of it: that is what it says.
    start_deal_in(page, code, 7)
    page.click("#btn-share")
    expect(page.locator("#share-what")).to_have_text(said["share.whatDeal"])
    assert page.errors == []
    page.context.close()


def start_deal_in(page: Any, code: str, deal: int) -> None:
    if code == "en":
        start_deal(page, deal)
        return
    page.click("#btn-new")
    page.check('input[name="dealkind"][value="numbered"]')
    page.fill("#new-deal", str(deal))
    page.click("#new-start")
    page.wait_for_function(
        "(deal) => location.hash.startsWith('#/game/') && document.body.dataset.busy === 'false'", arg=deal
    )
    wait_turn(page, 0)


# --- 2. Waiting states, and a tap too soon ------------------------------------------------------------------


class Held:
    """Every request to `pattern`, kept until the test lets it go."""

    def __init__(self, page: Any, pattern: str, method: str = "POST") -> None:
        self.routes: list[Any] = []
        self.method = method
        page.route(pattern, self.hold)

    def hold(self, route: Any) -> None:
        if route.request.method == self.method:
            self.routes.append(route)
        else:
            route.continue_()

    def release(self, page: Any) -> None:
        page.wait_for_function("document.body.dataset.busy === 'true'")
        assert len(self.routes) == 1, len(self.routes)
        self.routes.pop().continue_()


BUSY_NOTE_SHOWN = """() => { const note = document.getElementById('busy-note');
  return getComputedStyle(note).display !== 'none' && getComputedStyle(note).opacity === '1'; }"""

# Taps the cell the moment the next card is drawn (in the same task: surely within the 250 ms guard).
TAP_AT_TURN = """([selector, turn]) => {
  const board = document.getElementById('board');
  const observer = new MutationObserver(() => {
    if (board.dataset.turn !== String(turn) || document.getElementById('hand-card').dataset.pending === 'true') return;
    observer.disconnect();
    window.__armedAtTap = board.dataset.armed;
    document.querySelector(selector).click();
  });
  observer.observe(document.getElementById('game-table'), {subtree: true, attributes: true});
}"""


@pytest.mark.parametrize(("size", "code"), [("desktop", "en"), ("phone", "kn")])
def test_slow_answers_show_waiting_and_a_tap_too_soon_is_said(browser: Any, server: str, size: str, code: str) -> None:
    said = words(code)
    page = page_at(browser, size, code)
    open_home(page, server)
    tap = page.tap if size == "phone" else page.click
    # A move whose answer is held: the next card shows pending; a tap meanwhile is refused, and said to be.
    moves = Held(page, "**/api/games/*/moves")
    tap("#board .slot.legal >> nth=0")
    expect(page.locator('#hand-card[data-pending="true"]')).to_be_visible()
    page.locator("#board .slot.legal").first.click()
    expect(page.locator("#board-message")).to_have_text(said["move.pending"])
    snap(page, f"wait-move-{size}-{code}")
    moves.release(page)
    wait_turn(page, 1)
    page.unroute("**/api/games/*/moves")
    # A tap in the guard after the new card: refused, and said to be; the card stays to place.
    target = "#board .slot.legal"
    page.evaluate(TAP_AT_TURN, [target, 2])
    tap(f"{target} >> nth=0")
    expect(page.locator("#board-message")).to_have_text(said["move.tooSoon"])
    assert page.evaluate("window.__armedAtTap") == "false"
    snap(page, f"too-soon-{size}-{code}")
    wait_turn(page, 2)
    expect(page.locator("#board-message")).to_have_text(said["move.tooSoon"])
    assert page.get_attribute("#board", "data-turn") == "2"
    # An undo whose answer is slow: the page says it waits, then shows the answer.
    undo = Held(page, "**/api/games/*/undo")
    tap("#btn-undo")
    page.wait_for_function(BUSY_NOTE_SHOWN)
    expect(page.locator("#busy-note")).to_contain_text(said["busy.waiting"])
    snap(page, f"wait-undo-{size}-{code}")
    undo.release(page)
    wait_turn(page, 1)
    expect(page.locator("#busy-note")).to_be_hidden()
    # The first winnable deal: found by the server, waited for in words and with the note.
    games = Held(page, "**/api/games")
    tap("#btn-new")
    page.check('input[name="dealkind"][value="winnable"]')
    page.click("#new-start")
    expect(page.locator("#board-message")).to_have_text(said["new.findingWinnable"])
    page.wait_for_function(BUSY_NOTE_SHOWN)
    snap(page, f"wait-winnable-{size}-{code}")
    games.release(page)
    wait_turn(page, 0)
    expect(page.locator("#busy-note")).to_be_hidden()
    assert page.errors == []
    page.context.close()


WAITING_SAID = """(selector) => { const view = document.querySelector(selector);
  const before = getComputedStyle(view, '::before');
  return view.getAttribute('aria-busy') === 'true' && before.opacity === '1' ? before.content : null; }"""


@pytest.mark.parametrize(("size", "code"), [("desktop", "en"), ("phone", "kn")])
def test_the_statistics_and_the_lesson_say_they_wait_for_a_slow_answer(
    browser: Any, server: str, size: str, code: str
) -> None:
    said = words(code)
    page = page_at(browser, size, code)
    open_home(page, server)
    for route, selector, ready in (
        ("stats", "#view-stats", "#stats-tiles > *"),
        ("learn", "#lesson", "[data-tutorial-target]"),
    ):
        held = Held(page, f"**/api/{'stats' if route == 'stats' else 'lesson'}", method="GET")
        page.evaluate(f"location.hash = '#/{route}'")
        shown = page.wait_for_function(WAITING_SAID, arg=selector).json_value()
        assert shown == f'"{said["busy.waiting"]}"', shown
        snap(page, f"wait-{route}-{size}-{code}")
        assert len(held.routes) == 1, held.routes  # (its request went before the view said it waits)
        held.routes.pop().continue_()
        page.wait_for_selector(ready)
        expect(page.locator(selector)).to_have_attribute("aria-busy", "false")
    assert page.errors == []
    page.context.close()


# --- 3. A daily game's analysis, the Analyse button, toasts -----------------------------------------------


@pytest.mark.parametrize(("size", "code"), [("desktop", "en"), ("phone", "bn")])
def test_a_daily_games_analysis_says_when_it_opens_in_local_time(
    browser: Any, server: str, size: str, code: str
) -> None:
    said = words(code)
    page = page_at(browser, size, code, timezone_id=KOLKATA)
    play_daily_through_the_api(page, server)
    page.goto(f"{server}/daily")
    expect(page.locator("#over")).to_be_visible()
    opens = page.locator(".analysis-opens")
    expect(opens).to_be_visible()
    tomorrow = dt.datetime.now(dt.UTC).date() + dt.timedelta(days=1)
    assert opens.get_attribute("data-opens") == f"{tomorrow.isoformat()}T00:00:00.000Z"
    before, _, after = said["over.analysisOpens"].partition("{time}")
    text = opens.inner_text()
    assert text.startswith(before) and text.endswith(after), text
    assert ("5:30" if code == "en" else "৫:৩০") in text, text  # the player's own time: UTC+5:30
    expect(page.locator("#analysis-body button")).to_have_count(0)  # no "Try again" that cannot work
    page.click("#btn-analyze")
    expect(page.locator("#btn-analyze")).to_be_hidden()
    expect(page.locator("#analysis-title")).to_be_focused()
    snap(page, f"daily-analysis-{size}-{code}")
    # A toast at the game's end covers neither the board nor the replay's controls.
    page.evaluate("window.scrollTo(0, 0)")
    page.evaluate("Object.defineProperty(navigator, 'clipboard', {value: {writeText: async () => {}}})")
    page.click("#btn-over-share")
    expect(page.locator(".toast-text").last).to_have_text(said["daily.share.copied"])
    toast_clear(page)
    snap(page, f"daily-toast-{size}-{code}")
    assert page.errors == []
    page.context.close()


# --- 4. The phone ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("code", ["en", "bn"])
def test_the_phone_keeps_undo_and_hint_in_reach_and_says_tap(browser: Any, server: str, code: str) -> None:
    said = words(code)
    page = page_at(browser, "phone", code)
    open_home(page, server)
    expect(page.locator("#hand-help")).to_have_text(said["panel.dragHintTouch"])
    page.locator("#board .slot.legal").first.tap()
    wait_turn(page, 1)
    for scroll in ("0", "document.documentElement.scrollHeight", "document.getElementById('board').offsetTop"):
        page.evaluate(f"window.scrollTo(0, {scroll})")
        for button in ("#btn-undo", "#btn-hint"):
            placed = box(page, button)
            assert placed is not None and placed["t"] >= 0 and placed["b"] <= PHONE["height"], (button, scroll, placed)
        assert not overlaps(box(page, "#actions"), box(page, "#hand-card"))
    page.evaluate("window.scrollTo(0, 0)")
    snap(page, f"phone-bar-{code}")
    page.tap("#btn-undo")
    wait_turn(page, 0)
    # A toast on the phone leaves the bar (its Undo row) and the board uncovered.
    page.tap("#btn-share")
    toast_clear(page)
    snap(page, f"phone-toast-{code}")
    # The lesson shows the card to place as a card on the phone too.
    page.goto(f"{server}/#/learn")
    expect(page.locator("#lesson-hand .card")).to_be_visible()
    snap(page, f"phone-lesson-{code}")
    # The rules' controls say tap too, and name no keys.
    page.goto(f"{server}/#/rules")
    controls = page.locator("#rules-controls li")
    expect(controls).to_have_text([said["panel.dragHintTouch"], said["rules.controls.4"]])
    assert page.errors == []
    page.context.close()
    # On a desktop, with a mouse, the same line says click.
    page = page_at(browser, "desktop", code)
    open_home(page, server)
    expect(page.locator("#hand-help")).to_have_text(said["panel.dragHint"])
    page.goto(f"{server}/#/rules")
    expect(page.locator("#rules-controls li")).to_have_count(4)
    page.context.close()


# --- 6. The daily deal in the navigation ----------------------------------------------------------------


@pytest.mark.parametrize(("size", "code"), [("desktop", "en"), ("phone", "bn")])
def test_the_daily_deal_is_in_the_navigation_with_the_next_ones_local_time(
    browser: Any, server: str, size: str, code: str
) -> None:
    said = words(code)
    page = page_at(browser, size, code, timezone_id=KOLKATA)
    open_home(page, server)
    link = page.locator(".site-nav a.nav-daily")
    expect(link).to_be_visible()
    expect(link).to_contain_text(said["new.daily"])
    note = link.locator(".nav-daily-next")
    expect(note).to_contain_text("5:30" if code == "en" else "৫:৩০")
    before = said["nav.dailyNext"].split("{time}")[0]
    expect(note).to_contain_text(before)
    assert box(page, ".nav-daily")["r"] <= SIZES[size]["width"]  # type: ignore[index]
    snap(page, f"nav-daily-{size}-{code}")
    link.click()
    page.wait_for_function(
        "document.getElementById('deal-label').textContent.length > 0 && location.hash.startsWith('#/game/')"
    )
    today = dt.datetime.now(dt.UTC).date().isoformat()
    assert (
        page.evaluate("fetch('/api/games/' + location.hash.split('/')[2]).then(r => r.json()).then(s => s.daily)")
        == today
    )
    assert page.errors == []
    page.context.close()


# --- 5. Accessibility: axe on every view, one h1 each ---------------------------------------------------

AXE_RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')}`);
}"""
H1S = """() => [...document.querySelectorAll('h1')].filter((h) => h.getClientRects().length > 0
  && !h.closest('[hidden]')).map((h) => h.textContent)"""


def play_through_the_api(page: Any, server: str, deal: int) -> str:
    """A game of ``deal`` played out through the API with the page's cookie, a card at a time on the first legal
    cell: its id."""
    request = page.context.request
    state = request.post(f"{server}/api/games", data={"deal": deal}).json()
    while state["outcome"] == "playing":
        row, col = state["legal"][0]
        move = {"row": row, "col": col, "turn": state["turn"]}
        state = request.post(f"{server}/api/games/{state['id']}/moves", data=move).json()
    return str(state["id"])


def audit(page: Any, view: str) -> None:
    page.evaluate(AXE.read_text())
    assert page.evaluate(AXE_RUN) == [], view
    assert len(page.evaluate(H1S)) == 1, (view, page.evaluate(H1S))


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not in node_modules (npm ci installs it)")
@pytest.mark.parametrize(("size", "code"), [("desktop", "en"), ("phone", "bn")])
def test_axe_finds_no_serious_fault_on_any_view(browser: Any, server: str, size: str, code: str) -> None:
    page = page_at(browser, size, code)
    open_home(page, server)
    audit(page, "game")
    page.click("#btn-hint")
    expect(page.locator("#hint-list li").first).to_be_visible()
    audit(page, "hint")
    page.click("#btn-new")
    expect(page.locator("#new-dialog")).to_be_visible()
    audit(page, "new game dialog")
    page.click("#new-cancel")
    page.click("#btn-settings")
    expect(page.locator("#settings-dialog")).to_be_visible()
    audit(page, "settings dialog")
    page.click("#settings-close")
    play_daily_through_the_api(page, server)
    page.goto(f"{server}/daily")
    expect(page.locator("#over")).to_be_visible()
    expect(page.locator(".analysis-opens")).to_be_visible()
    audit(page, "a finished daily game")
    page.goto(f"{server}/game/nosuchgame")
    expect(page.locator("#no-game")).to_be_visible()
    audit(page, "no such game")
    # A finished numbered game: its analysis (the curve, the costliest moves), its replay, its share dialog.
    finished = play_through_the_api(page, server, deal=5)
    page.goto(f"{server}/game/{finished}")
    expect(page.locator(".costly-list, .analysis-clean").first).to_be_visible(timeout=WAIT_MS)
    audit(page, "a finished game and its analysis")
    page.click("#replay-first")
    audit(page, "its replay")
    page.evaluate("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    page.click("#btn-over-share")
    expect(page.locator("#share-dialog")).to_be_visible()
    audit(page, "the share dialog")
    page.click("#share-close")
    # Another player's game, shown read-only.
    other = page_at(browser, size, code)
    theirs = open_home(other, server)
    page.goto(f"{server}/game/{theirs}")
    expect(page.locator("#readonly")).to_be_visible()
    audit(page, "another player's game")
    other.context.close()
    for route, ready in (
        ("stats", "#stats-tiles > *"),
        ("rules", "#rules-body > *"),
        ("learn", "[data-tutorial-target]"),
    ):
        page.goto(f"{server}/{route}")
        page.wait_for_selector(ready)
        audit(page, route)
    for step in range(2, 100):
        page.locator("[data-tutorial-target]").click()
        page.wait_for_selector(f'#lesson[data-tutorial-step="{step}"]')
        if page.locator("#lesson-done").is_visible():
            break
    expect(page.locator("#lesson-done")).to_be_visible()
    audit(page, "the lesson's end")
    assert page.errors == []
    page.context.close()


# --- 3. The offline banner leaves the "On this device" note uncovered ---------------------------------------


@pytest.mark.parametrize(("size", "code"), [("desktop", "en"), ("phone", "bn")])
def test_the_offline_banner_never_covers_the_on_this_device_note(
    browser: Any, server: str, size: str, code: str
) -> None:
    page = page_at(browser, size, code)
    open_home(page, server)
    page.route("**/api/**", lambda route: route.abort())  # the server out of reach: a new game is the device's
    page.click("#btn-new")
    page.click("#new-start")
    expect(page.locator("#offline-tag")).to_be_visible()
    expect(page.locator("#offline-banner")).to_have_text(words(code)["connection.lost"])
    for scroll in ("0", "document.getElementById('offline-tag').getBoundingClientRect().top + window.scrollY - 4"):
        page.evaluate(f"window.scrollTo(0, {scroll})")
        assert not overlaps(box(page, "#offline-banner"), box(page, "#offline-tag")), scroll
    page.click("#btn-share")  # a toast, with the banner and the note on screen
    toast_clear(page)
    snap(page, f"offline-note-{size}-{code}")
    assert page.errors == []
    page.context.close()
