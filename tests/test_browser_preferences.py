"""The player's preferences in a real headless Chromium: sound effects, a timer and move counter, card backs, tables.

Each is off by default (silent, no clock, blue backs, a green table), turns on in the settings, survives a reload, and
shows: the chosen back on a face-down card, the chosen felt on the table, the clock counting the cards placed and the
time (the page's clock driven by Playwright's, never waited for), best times in the statistics from the server's
stamps. Sounds are heard through a spy on the page's AudioContext: a tone at each card placed, at each card turned
over, the chord at a win; and a page without audio plays on silently. axe finds no serious or critical violation in
the settings and on the table in either theme. Screenshots: ``test-artifacts/screenshots/preferences-*.png``.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

from browser_support import (
    BROWSER_MARKS,
    DESKTOP,
    GUARD_S,
    ROOT,
    SCREENSHOTS,
    browser,
    click_cell,
    expect,
    new_page,
    no_horizontal_overflow,
    open_home,
    server,
    shot,
    start_deal,
    turn_of,
    wait_turn,
    winning,
)
from foursquare.engine import Game, Move
from foursquare.i18n import translator

pytestmark = BROWSER_MARKS
__all__ = ["browser", "server", "winning"]

PHONE = {"width": 390, "height": 844}

# Every tone the page starts, by its frequency: the page's own AudioContext, watched.
AUDIO_SPY = """(() => {
  window.__tones = [];
  const Real = window.AudioContext;
  if (!Real) return;
  window.AudioContext = class extends Real {
    createOscillator() {
      const oscillator = super.createOscillator();
      const start = oscillator.start.bind(oscillator);
      oscillator.start = (...args) => {
        window.__tones.push(oscillator.frequency.value);
        return start(...args);
      };
      return oscillator;
    }
  };
})();"""
NO_AUDIO = "delete window.AudioContext; delete window.webkitAudioContext;"
# sounds.js's first tone of each sound.
PLACE, FLIP, WON = 196.0, 587.33, [523.25, 659.25, 783.99, 1046.5]

# What each choice draws: a colour of the card back's gradient, of the table's felt (preferences.css).
BACK_COLOURS = {"blue": "rgb(45, 90, 140)", "red": "rgb(155, 44, 51)", "green": "rgb(35, 100, 75)",
                "grey": "rgb(61, 66, 73)"}  # fmt: skip
FELT_COLOURS = {"green": "rgb(228, 239, 230)", "blue": "rgb(231, 240, 249)", "red": "rgb(248, 235, 232)",
                "grey": "rgb(239, 239, 236)"}  # fmt: skip
FACE_DOWN_BACK = (
    "getComputedStyle(document.querySelector('#board .card[data-face=\"down\"] .card-back')).backgroundImage"
)
FELT = "getComputedStyle(document.getElementById('board-wrap')).backgroundImage"
KEYS = ["fs.sound", "fs.clock", "fs.back", "fs.table"]


def tones(page: Any) -> list[str]:
    """The sounds the page played, in order: each tone named by the sound it starts."""
    names = []
    for frequency in page.evaluate("window.__tones"):
        if abs(frequency - PLACE) < 0.01:
            names.append("place")
        elif abs(frequency - FLIP) < 0.01:
            names.append("flip")
        elif abs(frequency - WON[0]) < 0.01:
            names.append("won")
    return names


def open_settings(page: Any) -> None:
    page.click("#btn-settings")
    expect(page.locator("#settings-dialog")).to_be_visible()


def close_settings(page: Any) -> None:
    page.click("#settings-close")
    expect(page.locator("#settings-dialog")).to_be_hidden()


def first_legal(page: Any) -> None:
    cell = page.locator("#board .slot.legal").first
    click_cell(page, int(cell.get_attribute("data-row")), int(cell.get_attribute("data-col")))


def face_down_deal() -> tuple[int, list[tuple[int, int]]]:
    """A deal whose first legal cells, played in turn, leave a card face down within ten cards."""
    for deal in range(1, 300):
        game, moves = Game(deal=deal), []
        while game.turn < 10 and game.outcome().status == "playing":
            move = game.legal_moves[0]
            game.place(move.row, move.col)
            moves.append((move.row, move.col))
            if any(not cell.top_face_up for cell in game.cells()):
                return deal, moves
    raise AssertionError("no deal turns a card face down in ten cards")


def turned_over(deal: int, line: list[Move]) -> list[bool]:
    """For each move of ``line``, whether it turned a card over: the page's sense (the same card on top of a pile,
    the other face up)."""
    game, turned = Game(deal=deal), []
    for move in line:
        before = {(c.row, c.col): (c.top, c.top_face_up) for c in game.cells()}
        game.place(move.row, move.col)
        after = {(c.row, c.col): (c.top, c.top_face_up) for c in game.cells()}
        turned.append(any(key in before and before[key][0] == top and before[key][1] != up
                          for key, (top, up) in after.items()))  # fmt: skip
    return turned


def player_client(page: Any, server: str) -> httpx.Client:
    cookies = {c["name"]: c["value"] for c in page.context.cookies() if c["name"] == "fs_player"}
    return httpx.Client(base_url=server, cookies=cookies, timeout=GUARD_S)


def clock_text(seconds: float) -> str:
    """A duration as clock.js writes it in English: 0:07, 12:34, 1:02:03."""
    whole = int(seconds)
    hours, minutes, rest = whole // 3600, whole // 60 % 60, whole % 60
    return f"{hours}:{minutes:02}:{rest:02}" if hours else f"{minutes}:{rest:02}"


def stamp(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def test_each_preference_is_off_by_default_then_chosen_shown_and_remembered(browser: Any, server: str) -> None:
    deal, moves = face_down_deal()
    page = new_page(browser)
    page.add_init_script(AUDIO_SPY)
    open_home(page, server)
    start_deal(page, deal)
    for row, col in moves:
        click_cell(page, row, col)

    # Off by default: silent, no clock, blue backs on a green table, nothing stored.
    assert (page.get_attribute("html", "data-back"), page.get_attribute("html", "data-table")) == ("blue", "green")
    expect(page.locator("#game-clock")).to_be_hidden()
    assert BACK_COLOURS["blue"] in page.evaluate(FACE_DOWN_BACK)
    assert FELT_COLOURS["green"] in page.evaluate(FELT)
    assert page.evaluate("window.__tones") == []
    assert page.evaluate(f"{json.dumps(KEYS)}.map((key) => localStorage.getItem(key))") == [None] * 4
    open_settings(page)
    expect(page.locator('#settings-form input[name="back"][value="blue"]')).to_be_checked()
    expect(page.locator('#settings-form input[name="table"][value="green"]')).to_be_checked()
    expect(page.locator("#settings-sound")).not_to_be_checked()
    expect(page.locator("#settings-clock")).not_to_be_checked()

    # Each back and table shows at once on the face-down card and the felt.
    for back, colour in BACK_COLOURS.items():
        page.check(f'#settings-form input[name="back"][value="{back}"]')
        expect(page.locator("html")).to_have_attribute("data-back", back)
        assert colour in page.evaluate(FACE_DOWN_BACK), back
    for table, colour in FELT_COLOURS.items():
        page.check(f'#settings-form input[name="table"][value="{table}"]')
        expect(page.locator("html")).to_have_attribute("data-table", table)
        assert colour in page.evaluate(FELT), table
    page.check('#settings-form input[name="back"][value="red"]')
    page.check('#settings-form input[name="table"][value="blue"]')
    page.check("#settings-sound")
    page.check("#settings-clock")
    close_settings(page)

    # The clock counts the cards placed; sounds play from the next card on.
    turn = turn_of(page)
    expect(page.locator("#game-clock")).to_be_visible()
    expect(page.locator("#clock-moves")).to_have_text(str(turn))
    first_legal(page)
    expect(page.locator("#clock-moves")).to_have_text(str(turn + 1))
    assert tones(page)[:1] == ["place"]
    page.click("#btn-undo")
    wait_turn(page, turn)
    expect(page.locator("#clock-moves")).to_have_text(str(turn))

    # All of it survives a reload, read before the first paint.
    page.reload()
    wait_turn(page, turn)
    assert (page.get_attribute("html", "data-back"), page.get_attribute("html", "data-table")) == ("red", "blue")
    assert BACK_COLOURS["red"] in page.evaluate(FACE_DOWN_BACK)
    expect(page.locator("#game-clock")).to_be_visible()
    expect(page.locator("#clock-moves")).to_have_text(str(turn))
    assert page.evaluate(f"{json.dumps(KEYS)}.map((key) => localStorage.getItem(key))") == ["on", "on", "red", "blue"]
    open_settings(page)
    expect(page.locator('#settings-form input[name="back"][value="red"]')).to_be_checked()
    expect(page.locator('#settings-form input[name="table"][value="blue"]')).to_be_checked()
    expect(page.locator("#settings-sound")).to_be_checked()
    expect(page.locator("#settings-clock")).to_be_checked()

    # Back to the defaults: nothing stored, the clock gone, and silence again.
    page.check('#settings-form input[name="back"][value="blue"]')
    page.check('#settings-form input[name="table"][value="green"]')
    page.uncheck("#settings-sound")
    page.uncheck("#settings-clock")
    close_settings(page)
    expect(page.locator("#game-clock")).to_be_hidden()
    assert page.evaluate(f"{json.dumps(KEYS)}.map((key) => localStorage.getItem(key))") == [None] * 4
    heard = page.evaluate("window.__tones.length")
    first_legal(page)
    assert page.evaluate("window.__tones.length") == heard
    assert page.errors == []
    page.context.close()


def test_a_stored_value_the_page_does_not_know_is_the_default(browser: Any, server: str) -> None:
    page = new_page(browser)
    page.add_init_script("localStorage.setItem('fs.back', 'tartan'); localStorage.setItem('fs.table', 'x');")
    open_home(page, server)
    assert (page.get_attribute("html", "data-back"), page.get_attribute("html", "data-table")) == ("blue", "green")
    open_settings(page)
    expect(page.locator('#settings-form input[name="back"][value="blue"]')).to_be_checked()
    assert page.errors == []
    page.context.close()


def test_the_timer_runs_from_the_games_creation_and_the_counter_follows_the_cards(browser: Any, server: str) -> None:
    page = new_page(browser)
    page.clock.install()  # the page's time is Playwright's to move: nothing here waits for seconds to pass
    game_id = open_home(page, server)
    page.evaluate("localStorage.setItem('fs.clock', 'on')")
    page.reload()
    wait_turn(page, 0)
    for _ in range(3):
        first_legal(page)
    expect(page.locator("#clock-moves")).to_have_text("3")
    with player_client(page, server) as client:
        created = stamp(client.get(f"/api/games/{game_id}").json()["created_at"])
    # An hour, a minute and 23.4 s after the game was created; a second later the timer has ticked.
    page.clock.pause_at(created + timedelta(hours=1, minutes=1, seconds=23.4))
    page.clock.run_for(1000)
    expect(page.locator("#clock-time")).to_have_text("1:01:24")
    page.clock.run_for(60_000)
    expect(page.locator("#clock-time")).to_have_text("1:02:24")
    page.clock.resume()
    page.click("#btn-undo")
    wait_turn(page, 2)
    expect(page.locator("#clock-moves")).to_have_text("2")
    assert page.errors == []
    page.context.close()


def test_sounds_mark_each_card_placed_each_card_turned_and_the_win(
    browser: Any, server: str, winning: tuple[int, list[Move]]
) -> None:
    deal, line = winning
    page = new_page(browser)
    page.add_init_script(AUDIO_SPY)
    page.add_init_script("localStorage.setItem('fs.sound', 'on'); localStorage.setItem('fs.clock', 'on')")
    open_home(page, server)
    start_deal(page, deal)
    turned = turned_over(deal, line)
    assert any(turned) and not all(turned)
    for index, move in enumerate(line):
        before = len(tones(page))
        click_cell(page, move.row, move.col)
        last = index == len(line) - 1
        expected = ["place", *(["flip"] if turned[index] else []), *(["won"] if last else [])]
        assert tones(page)[before:] == expected, index
    expect(page.locator("#over")).to_be_visible()

    # The game over: the timer shows the server's time of the game, and the statistics its best time.
    game_id = page.url.rsplit("/", 1)[1]
    with player_client(page, server) as client:
        state = client.get(f"/api/games/{game_id}").json()
        best = client.get("/api/stats").json()["best_time"]
    taken = (stamp(state["updated_at"]) - stamp(state["created_at"])).total_seconds()
    assert best == taken
    expect(page.locator("#clock-time")).to_have_text(clock_text(taken))
    page.click('a[data-route="stats"]')
    expect(page.locator(".tile-bestTime dd")).to_have_text(clock_text(best))
    expect(page.locator(".tile-cleanBestTime dd")).to_have_text(clock_text(best))
    # With the timer off, the statistics show no time.
    open_settings(page)
    page.uncheck("#settings-clock")
    close_settings(page)
    page.click('a[data-route="game"]')
    page.click('a[data-route="stats"]')
    expect(page.locator(".tile-bestScore")).to_be_visible()
    expect(page.locator(".tile-bestTime")).to_have_count(0)
    assert page.errors == []
    page.context.close()


def test_a_page_without_audio_plays_on_silently(browser: Any, server: str) -> None:
    page = new_page(browser)
    page.add_init_script(NO_AUDIO)
    page.add_init_script("localStorage.setItem('fs.sound', 'on')")
    open_home(page, server)
    for _ in range(3):
        first_legal(page)
    assert page.errors == []
    page.context.close()


# --- accessibility and screenshots --------------------------------------------------------------------------------

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


def serious_violations(page: Any, *selectors: str) -> list[str]:
    """axe's serious and critical violations within ``selectors`` as shown."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text())
    found = page.evaluate(
        """(selectors) => axe.run({include: selectors.map((s) => [s])})
             .then((r) => r.violations.map((v) => [v.id, v.impact, v.nodes.map((n) => n.target.join(' '))]))""",
        list(selectors),
    )
    return [f"{rule} ({impact}): {nodes}" for rule, impact, nodes in found if impact in ("serious", "critical")]


def luminance(colour: str) -> float:
    """The relative luminance (WCAG) of a #rrggbb colour."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def mixed(top: str, under: str, share: float) -> str:
    """``top`` at ``share`` opacity over ``under`` (the board's edge labels: the text at 55% over the felt)."""
    channels = [(int(top[i : i + 2], 16), int(under[i : i + 2], 16)) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(share * a + (1 - share) * b):02x}" for a, b in channels)


def contrast(one: str, other: str) -> float:
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


CUSTOM = "(names) => names.map((n) => getComputedStyle(document.documentElement).getPropertyValue(n).trim())"


def test_every_table_keeps_the_contrast_of_the_green_one_and_axe_finds_nothing_serious(
    browser: Any, server: str
) -> None:
    """The board's edge labels (text at 55%) and the legal cells' outlines on each felt, both ends of its gradient,
    are at least as legible as on the default green (axe cannot judge text on a gradient); and axe finds no serious
    or critical violation in the settings dialog nor in the clock, in either theme."""
    deal, moves = face_down_deal()
    page = new_page(browser)
    page.add_init_script("localStorage.setItem('fs.clock', 'on')")
    open_home(page, server)
    start_deal(page, deal)
    for row, col in moves:
        click_cell(page, row, col)
    for theme in ("light", "dark"):
        page.evaluate(f"localStorage.setItem('fs.theme', '{theme}')")
        worst: dict[str, tuple[float, float]] = {}  # the edge labels', the outlines'
        for table in ("green", "blue", "red", "grey"):
            page.evaluate(f"localStorage.setItem('fs.table', '{table}')")
            page.reload()
            wait_turn(page, len(moves))
            text, legal, *felts = page.evaluate(CUSTOM, ["--text", "--legal", "--felt-1", "--felt-2"])
            labels = min(contrast(mixed(text, felt, 0.55), felt) for felt in felts)
            worst[table] = (labels, min(contrast(legal, felt) for felt in felts))
            assert all(a >= b - 1e-9 for a, b in zip(worst[table], worst["green"], strict=True)), (theme, worst)
        assert serious_violations(page, "#game-clock") == [], theme
        open_settings(page)
        assert serious_violations(page, "#settings-dialog") == [], theme
        close_settings(page)
    assert page.errors == []
    page.context.close()


def test_screenshots_of_the_preferences_on_desktop_and_phone_in_english_and_bengali(
    browser: Any, server: str, winning: tuple[int, list[Move]]
) -> None:
    deal, moves = face_down_deal()
    won_deal, line = winning
    for code, locale in (("en", "en-US"), ("bn", "bn-BD")):
        t = translator(code)
        for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            page = new_page(browser, viewport, locale=locale)
            page.add_init_script(  # once: later loads keep what the test chose since
                "if (localStorage.getItem('fs.clock') === null) { localStorage.setItem('fs.clock', 'on');"
                " localStorage.setItem('fs.back', 'red'); localStorage.setItem('fs.table', 'blue'); }"
            )
            open_home(page, server)
            start_numbered(page, deal)
            for row, col in moves:
                click_cell(page, row, col)
            expect(page.locator("#game-clock dt").first).to_have_text(t("clock.time"))
            page.mouse.move(0, 0)
            shot(page, f"preferences-{code}-{size}-game")
            open_settings(page)
            page.locator("#settings-sound").scroll_into_view_if_needed()
            page.screenshot(path=str(shot_path(f"preferences-{code}-{size}-settings")), animations="disabled")
            close_settings(page)
            page.evaluate("localStorage.setItem('fs.theme', 'dark'); localStorage.setItem('fs.back', 'grey')")
            page.reload()
            wait_turn(page, len(moves))
            page.mouse.move(0, 0)
            shot(page, f"preferences-{code}-{size}-dark")
            no_horizontal_overflow(page)
            if size == "desktop":
                start_numbered(page, won_deal)
                for move in line:
                    click_cell(page, move.row, move.col)
                page.click('a[data-route="stats"]')
                expect(page.locator(".tile-bestTime dt")).to_have_text(t("stats.bestTime"))
                shot(page, f"preferences-{code}-{size}-stats")
            assert page.errors == []
            page.context.close()


def start_numbered(page: Any, deal: int) -> None:
    """Start a numbered deal through the new-game dialog, in any language (start_deal reads the English label)."""
    before = page.url
    page.click("#btn-new")
    page.check('input[name="dealkind"][value="numbered"]')
    page.fill("#new-deal", str(deal))
    page.click("#new-start")
    page.wait_for_function("(before) => location.href !== before", arg=before)
    wait_turn(page, 0)


def shot_path(name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS / f"{name}.png"
