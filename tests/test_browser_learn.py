"""The lesson at /learn, in Chromium, as a new player meets it: offered on the first visit (and not again once
dismissed), played to its end by clicking each step's cell (``[data-tutorial-target]``) in English and Bengali
at desktop and phone sizes, and once by keyboard alone; a click elsewhere only hints. Screenshots go to
test-artifacts/screenshots/ for a person to look at."""

from __future__ import annotations

from typing import Any

import pytest

from browser_support import BROWSER_MARKS, DESKTOP, browser, catalogue, expect, new_page, server, shot, symbol
from foursquare.lesson import steps

pytestmark = BROWSER_MARKS
__all__ = ["browser", "server"]

PHONE_SIZE = {"width": 390, "height": 844}
LOCALES = {"en": "en-US", "bn": "bn-BD"}


def sentence(messages: dict[str, str], key: str, **params: str) -> str:
    text = messages[key]
    for name, value in params.items():
        text = text.replace("{" + name + "}", value)
    return text


def digits(code: str, number: int) -> str:
    return str(number).translate(str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯")) if code == "bn" else str(number)


def open_lesson(page: Any, server: str) -> None:
    page.goto(server + "/learn")
    expect(page.locator("#lesson")).to_have_attribute("data-tutorial-step", "1")
    expect(page.locator("[data-tutorial-target]")).to_have_count(1)


def check_step(page: Any, code: str, number: int) -> None:
    """The page shows step ``number``: its cell alone is the target, its sentence is said."""
    messages = catalogue(code)
    step = steps()[number - 1]
    expect(page.locator("#lesson")).to_have_attribute("data-tutorial-step", str(number))
    target = page.locator("[data-tutorial-target]")
    expect(target).to_have_count(1)
    expect(target).to_have_attribute("data-tutorial-target", step.cell)
    limit = digits(code, 4)
    words = sentence(messages, f"lesson.step.{step.code}", card=symbol(step.card.name), cell=step.cell, limit=limit)
    expect(page.locator("#lesson-sentence")).to_have_text(words)


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("code", ["en", "bn"])
def test_the_lesson_to_its_end_by_clicks(browser: Any, server: str, code: str, size: str) -> None:
    page = new_page(browser, DESKTOP if size == "desktop" else PHONE_SIZE, locale=LOCALES[code])
    messages = catalogue(code)
    open_lesson(page, server)
    check_step(page, code, 1)
    assert page.get_attribute("#lesson-say", "aria-live") == "polite"
    shot(page, f"learn-{code}-{size}-1")
    # A click on another cell: a gentle hint, and the lesson stays where it is.
    page.click('.lesson-slot[data-cell="C4"]')
    expect(page.locator("#lesson-hint")).to_have_text(sentence(messages, "lesson.wrong", cell="D4"))
    check_step(page, code, 1)
    for step in steps():
        page.click("[data-tutorial-target]")
        if step.number < len(steps()):
            check_step(page, code, step.number + 1)
        if step.code == "row_flip_high":
            # What happened, in the game's words: the engine's flip, as the server sent it.
            turned = step.flips[0]
            expect(page.locator("#lesson-said")).to_contain_text(f"{symbol(turned.card.name)}")
            expect(page.locator(f'.lesson-slot[data-cell="{turned.cell_name}"] .card')).to_have_attribute(
                "data-face", "down"
            )
        if step.code == "four_face_down":
            limit = digits(code, 4)
            expect(page.locator("#lesson-facedown")).to_have_text(
                sentence(messages, "lesson.faceDown", count=limit, limit=limit)
            )
            shot(page, f"learn-{code}-{size}-four-face-down")
    last = len(steps()) + 1
    expect(page.locator("#lesson")).to_have_attribute("data-tutorial-step", str(last))
    expect(page.locator("[data-tutorial-target]")).to_have_count(0)
    expect(page.locator("#lesson-done")).to_be_visible()
    expect(page.locator("#lesson-done-title")).to_have_text(messages["lesson.done.title"])
    faces = page.locator(".lesson-slot .card")
    expect(faces).to_have_count(16)
    expect(page.locator('.lesson-slot .card[data-face="down"]')).to_have_count(0)
    shot(page, f"learn-{code}-{size}-done")
    # The done panel's button starts a real game.
    page.click("#btn-lesson-play")
    page.wait_for_url("**/#/game/*")
    expect(page.locator("#view-game")).to_be_visible()
    assert page.errors == []


def test_the_lesson_by_keyboard_alone(browser: Any, server: str) -> None:
    page = new_page(browser)
    open_lesson(page, server)
    for step in steps():
        # The step's cell has the focus: Enter places its card.
        expect(page.locator(f'[data-tutorial-target="{step.cell}"]')).to_be_focused()
        label = page.get_attribute("[data-tutorial-target]", "aria-label")
        assert label is not None and step.cell in label
        page.keyboard.press("Enter")
    expect(page.locator("#lesson")).to_have_attribute("data-tutorial-step", str(len(steps()) + 1))
    expect(page.locator("#lesson-done-title")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.locator("#btn-lesson-play")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.locator("#btn-lesson-again")).to_be_focused()
    page.keyboard.press("Enter")  # the lesson again, its first cell focused
    expect(page.locator("#lesson")).to_have_attribute("data-tutorial-step", "1")
    expect(page.locator('[data-tutorial-target="D4"]')).to_be_focused()
    assert page.errors == []


def test_the_offer_on_a_first_visit_dismissed_is_not_shown_again(browser: Any, server: str) -> None:
    page = new_page(browser)
    page.goto(server + "/")
    offer = page.locator("#lesson-offer")
    expect(offer).to_be_visible()
    expect(offer).to_contain_text(catalogue("en")["lesson.offer.text"])
    expect(page.locator("#board .slot.legal")).to_have_count(1)  # the game is dealt and playable beneath it
    assert page.locator("dialog[open]").count() == 0  # never a modal
    shot(page, "learn-offer-en-desktop")
    page.click("#btn-offer-dismiss")
    expect(offer).to_be_hidden()
    page.reload()
    expect(page.locator("#board .slot.legal")).to_have_count(1)
    expect(offer).to_be_hidden()
    assert page.errors == []


def test_the_offers_learn_button_opens_the_lesson_and_the_menu_replays_it(browser: Any, server: str) -> None:
    page = new_page(browser, PHONE_SIZE)
    page.goto(server + "/")
    expect(page.locator("#lesson-offer")).to_be_visible()
    shot(page, "learn-offer-en-phone")
    page.click("#btn-offer-learn")
    check_step(page, "en", 1)
    page.click("[data-tutorial-target]")
    check_step(page, "en", 2)
    page.goto(server + "/")  # back to the game: the offer is not shown to a player who has a game now
    expect(page.locator("#board")).to_be_visible()
    expect(page.locator("#lesson-offer")).to_be_hidden()
    page.click('.site-nav a[data-route="learn"]')
    check_step(page, "en", 1)  # replayed from the start
    assert page.errors == []
