"""The hint list and the analysis panel in a real headless Chromium: the hint is ordered by the number it
shows first and says so; the analysis draws the game's curve, its mistakes stand out, a point opens the replay.
"""

from __future__ import annotations

import re
from typing import Any

from browser_support import (
    BROWSER_MARKS,
    PHONE,
    WAIT_MS,
    browser,
    click_cell,
    expect,
    new_page,
    no_horizontal_overflow,
    open_home,
    page_with_deal,
    server,
    shot,
    start_deal,
    winning,
)
from foursquare.engine import Game, Move

pytestmark = BROWSER_MARKS
# Fixtures are found by name in this module's namespace.
__all__ = ["browser", "server", "winning"]

MISTAKES = (3, 5)  # the moves (0-based indices) the made-up analysis calls mistakes


def number(text: str) -> float:
    match = re.search(r"\d+(?:\.\d+)?", text)
    assert match, text
    return float(match.group())


def game_id(page: Any) -> str:
    match = re.fullmatch(r".*#/game/([A-Za-z0-9_-]+)", page.url)
    assert match, page.url
    return match.group(1)


def test_hint_list_is_ranked_by_the_number_it_shows_first(browser: Any, server: str) -> None:
    page = page_with_deal(browser, server, 5)
    game = Game(deal=5)
    for turn in range(6):
        if turn:
            move = game.legal_moves[turn % len(game.legal_moves)]  # a few ordinary, not always best, moves
            click_cell(page, *move)
            game.place(*move)
        page.click("#btn-hint")
        items = page.locator(".hint-item")
        expect(items.first).to_be_visible(timeout=WAIT_MS)
        expect(page.locator("#hint-ranked")).to_have_text("Ranked by expected score (a loss scores 0)")
        answer = page.request.get(f"{server}/api/games/{game_id(page)}/hint").json()
        ranked = answer["moves"]
        assert [m["expected_score"] for m in ranked] == sorted((m["expected_score"] for m in ranked), reverse=True)
        assert {m["cell"] for m in ranked} == {m.name for m in game.legal_moves}
        # the page shows the first three as the server ranked them, by cell name, score first and bold
        shown = min(3, len(ranked))
        expect(items).to_have_count(shown)
        wheres = items.locator(".hint-where").all_inner_texts()
        assert [w.split(" ")[0] for w in wheres] == [m["cell"] for m in ranked[:shown]]
        scores = [number(text) for text in items.locator(".hint-score").all_inner_texts()]
        assert scores == sorted(scores, reverse=True)
        first = items.first.locator("span").first.evaluate("s => s.nextElementSibling.className")
        assert first == "hint-score"
        for index in range(shown):
            expect(items.nth(index).locator(".hint-win")).to_have_text(re.compile(r"^\d+\s?% win$"))
        if turn == 3:
            shot(page, "desktop-hint-ranked")
    page.set_viewport_size(PHONE)
    expect(page.locator("#hint-ranked")).to_be_visible()
    no_horizontal_overflow(page)
    shot(page, "phone-hint-ranked")
    page.evaluate("document.documentElement.dataset.theme = 'dark'")
    shot(page, "phone-hint-ranked-dark")
    assert page.errors == []
    page.context.close()


def made_up_analysis(deal: int, line: list[Move]) -> dict[str, Any]:
    """An analysis of ``line`` in the server's shape, with a curve and two mistakes that are known."""
    game = Game(deal=deal)
    entries = []
    for index, move in enumerate(line):
        card = game.card_to_place
        assert card is not None
        mistake = index in MISTAKES
        exact = index >= MISTAKES[-1]  # the end of the game judged exactly, the last mistake with it
        best = next((m for m in game.legal_moves if m != move), move) if mistake else move
        win = 0.5 + 0.5 * index / (len(line) - 1) - (0.2 if mistake else 0)
        entries.append({
            "index": index, "card": card.name,
            "played": list(move), "played_cell": move.name, "best": list(best), "best_cell": best.name,
            "played_win_probability": win, "best_win_probability": win + (0.2 if mistake else 0),
            "played_expected_score": 20 * win, "best_expected_score": 20 * win + (4 if mistake else 0),
            "win_probability_loss": 0.2 if mistake else 0.0, "expected_score_loss": 4.0 if mistake else 0.0,
            "expected_score_loss_low": (4.0 if exact else 3.2) if mistake else 0.0,
            "forced": len(game.legal_moves) == 1, "mistake": mistake,
            "evaluation": "exact" if exact else "playouts",
        })
        game.place(move.row, move.col)
    outcome = game.outcome()
    return {
        "outcome": outcome.status, "reason": outcome.reason, "score": outcome.score, "deal": deal,
        "moves": entries, "costliest": list(reversed(MISTAKES)),
        "perfect": {"status": "optimal", "winnable": True, "best_score": 20, "upper_bound": 20, "line": [],
                    "line_cells": []},
    }


def test_analysis_chart_marks_the_mistakes_and_a_point_opens_the_replay(
    browser: Any, server: str, winning: tuple[int, list[Move]]
) -> None:
    deal, line = winning
    analysis = made_up_analysis(deal, line)
    page = page_with_deal(browser, server, deal)
    page.route("**/api/games/*/analysis", lambda route: route.fulfill(json=analysis))
    for move in line:
        click_cell(page, *move)
    expect(page.locator("#analysis")).to_have_attribute("aria-busy", "false")
    chart = page.locator("#replay-chart svg.chart")
    expect(chart).to_be_visible()
    # Accessible: the chart is a named group with a description; every point is a labelled button.
    expect(chart).to_have_attribute("role", "group")
    expect(page.get_by_role("group", name="Win chance and expected score after every move")).to_be_visible()
    description = chart.locator("desc").text_content() or ""
    assert "2 mistakes, marked in red: moves 4, 6." in description
    points = chart.locator(".chart-point")
    expect(points).to_have_count(len(line))
    expect(chart.get_by_role("button")).to_have_count(len(line))
    expect(points.nth(0)).to_have_attribute("aria-label", re.compile(rf"^Move 1: .+ to {line[0].name}\. Win chance"))
    # The mistakes stand out: their own class, a bigger red dot, a band behind them.
    mistakes = chart.locator(".chart-point.mistake")
    expect(mistakes).to_have_count(len(MISTAKES))
    assert [int(m.get_attribute("data-move") or 0) for m in mistakes.all()] == [i + 1 for i in MISTAKES]
    expect(mistakes.first).to_have_attribute("aria-label", re.compile(r"Mistake: [A-G][1-7] was better by 4\.0 points"))
    radius = [float(points.nth(i).locator(".chart-dot").get_attribute("r") or 0) for i in (0, MISTAKES[0])]
    assert radius[1] > radius[0]
    colours = [points.nth(i).locator(".chart-dot").evaluate("d => getComputedStyle(d).fill") for i in (0, MISTAKES[0])]
    assert colours[0] != colours[1]
    expect(chart.locator(".chart-band")).to_have_count(len(MISTAKES))
    # The costliest moves name their cells.
    costly = page.locator(".costly-move .costly-line").first
    played, best = analysis["moves"][5]["played_cell"], analysis["moves"][5]["best_cell"]
    expect(costly).to_have_text(re.compile(rf"^Move 6: .+ to {played}; better: {best}$"))
    # An exact judgement has no noise, so no lower bound; the panel says how many moves were judged exactly.
    losses = page.locator(".costly-move .costly-loss")
    expect(losses.first).to_have_text(re.compile(r"^−4\.0 expected score \(exact\), −20\s?% win chance$"))
    expect(losses.nth(1)).to_have_text(re.compile(r"at least −3\.2"))
    exact = len(line) - MISTAKES[-1]
    expect(page.locator(".analysis-exact")).to_have_text(
        f"The last {exact} moves were judged exactly, over every order in which the unseen cards could come."
    )
    # A click on a point jumps the replay to the position after that move; the chart's cursor follows.
    points.nth(2).click()
    expect(page.locator("#board")).to_have_attribute("data-replay-turn", "3")
    expect(points.nth(2)).to_have_class(re.compile(r"\bcurrent\b"))
    # A mistake's point also marks the cell played and the better one.
    mistakes.nth(1).click()
    expect(page.locator("#board")).to_have_attribute("data-replay-turn", str(MISTAKES[1] + 1))
    best_move = Move.from_name(best)
    marker = page.locator(f'#board .slot.marker-best[data-row="{best_move.row}"][data-col="{best_move.col}"]')
    expect(marker).to_have_count(1)
    shot(page, "desktop-analysis-chart")
    # The keyboard reaches every point: one tab stop, arrows move, Enter opens.
    points.nth(0).focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(points.nth(2)).to_be_focused()
    page.keyboard.press("End")
    expect(points.nth(len(line) - 1)).to_be_focused()
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    expect(page.locator("#board")).to_have_attribute("data-replay-turn", "2")
    assert chart.locator('.chart-point[tabindex="0"]').count() == 1
    page.evaluate("document.documentElement.dataset.theme = 'dark'")
    shot(page, "desktop-analysis-chart-dark")
    assert page.errors == []
    page.context.close()


def test_the_servers_own_analysis_draws_its_chart_on_a_phone(
    browser: Any, server: str, winning: tuple[int, list[Move]]
) -> None:
    deal, line = winning
    page = new_page(browser, PHONE)
    open_home(page, server)
    start_deal(page, deal)
    for move in line:
        click_cell(page, *move)
    expect(page.locator("#analysis")).to_have_attribute("aria-busy", "false", timeout=WAIT_MS)
    chart = page.locator("#replay-chart svg.chart")
    expect(chart.locator(".chart-point")).to_have_count(len(line))
    analysis = page.request.get(f"{server}/api/games/{game_id(page)}/analysis").json()
    flagged = [int(p.get_attribute("data-move") or 0) for p in chart.locator(".chart-point.mistake").all()]
    assert flagged == [m["index"] + 1 for m in analysis["moves"] if m["mistake"]]
    for m in analysis["moves"]:
        assert m["best_expected_score"] >= m["played_expected_score"]
    last = chart.locator(".chart-point").last
    expect(last).to_have_attribute("aria-label", re.compile(r"Win chance 100\s?%"))
    chart.scroll_into_view_if_needed()
    no_horizontal_overflow(page)
    shot(page, "phone-analysis-chart")
    page.evaluate("document.documentElement.dataset.theme = 'dark'")
    shot(page, "phone-analysis-chart-dark")
    last.click()
    expect(page.locator("#board")).to_have_attribute("data-replay-turn", str(len(line)))
    assert page.errors == []
    page.context.close()
