"""The daily deal as a shared moment, in headless Chromium: two players (two browser contexts, two cookies) each play
today's daily deal to the end (the first through the API, the second on the page); the second sees everyone's
scores, the first's among them, and where their own stands ("better than N % of today's players"); the Share button
copies a text that shows no card, no cell and no deal number, and carries the link to today's daily deal — in
English and in Bengali, at desktop and phone sizes (screenshots in test-artifacts/screenshots)."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import pytest

from browser_support import (
    BROWSER_MARKS,
    DESKTOP,
    browser,
    catalogue,
    expect,
    new_page,
    server,
    shot,
    turn_of,
    wait_turn,
)

pytestmark = BROWSER_MARKS

# Fixtures are found by name in this module's namespace.
__all__ = ["browser", "server"]

PHONE = {"width": 390, "height": 844}
ACCEPT = {"en": "en-GB", "bn": "bn-BD"}
CARD = re.compile(r"(?<![A-Za-z0-9])(?:A|[2-9]|10|J|Q|K)[CDHS](?![A-Za-z0-9])|[♣♦♥♠]")
CELL = re.compile(r"(?<![A-Za-z0-9])[A-G][1-7](?![A-Za-z0-9])")
LONG_NUMBER = re.compile(r"[0-9০-৯]{5,}")  # a deal number has up to 20 digits; nothing else here has five


def play_daily_through_the_api(page: Any, server: str) -> int:
    """Another player's daily game of today, played out through the API with the page's cookie (as quick as a
    script, since the page's own way is the second player's): its score."""
    request = page.context.request
    request.get(f"{server}/api/stats")  # the player cookie
    state = request.post(f"{server}/api/games", data={"daily": True}).json()
    while state["outcome"] == "playing":
        row, col = state["legal"][0]
        move = {"row": row, "col": col, "turn": state["turn"]}
        state = request.post(f"{server}/api/games/{state['id']}/moves", data=move).json()
    return int(state["score"] or 0)  # a loss scores 0


def play_daily_to_the_end(page: Any, server: str) -> None:
    """Open today's daily deal (/daily) and play it out, a card at a time on the first legal cell."""
    page.goto(f"{server}/daily")
    wait_turn(page, 0)
    while page.get_attribute("#view-game", "data-outcome") == "playing":
        turn = turn_of(page)
        page.locator("#board .slot.legal").first.click()
        wait_turn(page, turn + 1)
    expect(page.locator("#over")).to_be_visible()


@pytest.mark.parametrize("code", ["en", "bn"])
def test_two_players_compare_todays_daily_and_share_it_without_a_card(browser: Any, server: str, code: str) -> None:
    words = catalogue(code)
    clipboard = ["clipboard-read", "clipboard-write"]
    first = new_page(browser, DESKTOP, locale=ACCEPT[code], permissions=clipboard)
    second = new_page(browser, DESKTOP, locale=ACCEPT[code], permissions=clipboard, timezone_id="Asia/Kolkata")
    first_score = play_daily_through_the_api(first, server)
    today = first.evaluate("new Date().toISOString().slice(0, 10)")

    # The second player has not played: today's results are not theirs yet (another's finish is not enough).
    second.goto(f"{server}/")
    wait_turn(second, 0)
    refused = second.context.request.get(f"{server}/api/daily/{today}/results")
    assert refused.status == 409 and refused.json()["code"] == "daily_secret"
    play_daily_to_the_end(second, server)
    answer = second.context.request.get(f"{server}/api/daily/{today}/results").json()
    assert answer["players"] >= 2 and sum(answer["scores"].values()) == answer["players"]
    section = second.locator("#daily-results")
    expect(section).to_be_visible()
    expect(section).to_have_attribute("data-players", str(answer["players"]))
    expect(section.locator("h3")).to_have_text(words["daily.results.title"])

    # The first player's score is in the distribution; the second's own bar is marked.
    first_bar = second.locator(f'.daily-chart rect[data-score="{first_score}"]')
    assert int(first_bar.get_attribute("data-count")) >= 1
    own = second.locator(".daily-bar-own")
    expect(own).to_have_count(1)
    score = int(own.get_attribute("data-score"))
    assert int(own.get_attribute("data-count")) == answer["scores"][str(score)]
    expect(second.locator(".daily-own-label")).to_contain_text(words["daily.results.yours"])
    # "Better than N %": the other players whose score is strictly lower, of all the others, rounded down.
    lower = sum(count for key, count in answer["scores"].items() if int(key) < score)
    percent = lower * 100 // (answer["players"] - 1)
    better = second.locator(".daily-results-better")
    expect(better).to_have_attribute("data-percent", str(percent))
    before, _, after = words["daily.results.better"].partition("{percent}")
    expect(better).to_contain_text(before.strip())
    expect(better).to_contain_text(after.strip())
    shot(second, f"daily-results-{code}")

    # Share copies the spoiler-free text: the date, the result, squares, the standing, the link to /daily.
    second.click("#btn-over-share")
    expect(second.locator(".toast-text").last).to_have_text(words["daily.share.copied"])
    text = second.evaluate("navigator.clipboard.readText()")
    lines = text.split("\n")
    assert lines[-1] == f"{server}/daily", text
    body = "\n".join(lines[:-1])
    assert not CARD.search(body) and not CELL.search(body) and not LONG_NUMBER.search(body), text
    for card in second.evaluate("[...document.querySelectorAll('#board [data-card]')].map((e) => e.dataset.card)"):
        assert card not in body
    assert words["daily.share.title"].split("{")[0].strip() in lines[0]
    game_id = second.url.rsplit("/", 1)[1]
    state = second.context.request.get(f"{server}/api/games/{game_id}").json()
    face_up = sum(cell["face_up"] for cell in state["cells"])
    assert lines[2] == "🟩" * face_up + "⬛" * (len(state["cells"]) - face_up), text  # counts of piles, no place
    if code == "bn":  # numbers in Bengali digits
        assert not re.search("[0-9]", body), text
    # Where the page may not write to the clipboard, the text is shown selected to copy by hand.
    second.evaluate("() => { navigator.clipboard.writeText = () => Promise.reject(new Error('denied')); }")
    second.click("#btn-over-share")
    expect(second.locator("#share-dialog")).to_be_visible()
    expect(second.locator("#share-text")).to_be_visible()
    expect(second.locator("#share-link")).to_be_hidden()
    assert second.locator("#share-text").input_value() == text
    shot(second, f"daily-share-dialog-{code}")
    second.click("#share-close")

    # Opened again, the finished daily shows the results once more; on a phone too.
    second.reload()
    expect(second.locator("#daily-results")).to_be_visible()
    expect(second.locator(".daily-bar-own")).to_have_count(1)
    second.set_viewport_size(PHONE)
    second.locator("#daily-results").scroll_into_view_if_needed()
    shot(second, f"daily-results-{code}-phone")
    width = second.evaluate("document.querySelector('.daily-chart').getBoundingClientRect().right")
    assert width <= PHONE["width"]

    # Asked for again, today's daily deal is the game already played, and the toast says when the next one comes in
    # the player's own time (the page's clock: UTC+5:30 here), not "midnight UTC".
    second.goto(f"{server}/daily")
    before, _, after = words["new.dailyDone"].partition("{time}")
    toast = second.locator(".toast-text", has_text=before.strip())
    expect(toast).to_be_visible()
    text = toast.inner_text()
    assert after.strip() in text and "UTC" not in text, text
    assert int("".join(str(unicodedata.digit(c)) for c in text if c.isdigit())) == 530, text  # 05:30 or 5:30
    assert first.errors == [] and second.errors == []
    first.context.close()
    second.context.close()
