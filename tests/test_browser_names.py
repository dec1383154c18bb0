"""Every cell has one name on the page, for the whole game: the engine's ``Move.name`` (D4 for the first card).

The board shows the names' letters and numbers on its edges, every slot carries its name (``data-cell``) and
says it in its accessible label, the messages name cells, and when the board re-centres it glides rather than
jumps, each cell keeping its name.
"""

from __future__ import annotations

from typing import Any

from browser_support import (
    BROWSER_MARKS,
    PHONE,
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
    symbol,
    wait_turn,
    winning,
)
from foursquare.engine import Game, Move

pytestmark = BROWSER_MARKS
# Fixtures are found by name in this module's namespace.
__all__ = ["browser", "server", "winning"]

# Records each re-centring of the board as it starts: how many slots and edge labels are gliding then.
SHIFT_RECORDER = """() => {
  window.__shifts = [];
  const board = document.getElementById('board');
  new MutationObserver(() => {
    if (!board.classList.contains('recentring')) return;
    const gliding = document.getAnimations().filter((a) =>
      a.transitionProperty === 'transform' && a.effect && a.effect.target.closest('#board'));
    window.__shifts.push({
      gliding: gliding.length,
      slots: gliding.filter((a) => a.effect.target.classList.contains('slot')).map((a) => a.effect.target.dataset.cell),
      edges: gliding.filter((a) => a.effect.target.classList.contains('edge')).length,
    });
  }).observe(board, {attributes: true, attributeFilter: ['class']});
}"""

# Every slot of the board as the page draws it: position, name, label, classes, and where it lies on screen.
SLOTS = """() => [...document.querySelectorAll('#board > .slot')].map((s) => {
  const r = s.getBoundingClientRect();
  return {row: Number(s.dataset.row), col: Number(s.dataset.col), cell: s.dataset.cell,
          label: s.getAttribute('aria-label'), legal: s.classList.contains('legal'),
          pile: s.querySelector('.pile') ? s.querySelector('.pile').dataset.cell : null,
          x: r.left + r.width / 2, y: r.top + r.height / 2};
})"""

EDGES = """() => [...document.querySelectorAll('#board > .edge')].map((e) => {
  const r = e.getBoundingClientRect();
  return {kind: e.classList.contains('edge-column') ? 'column' : 'row', text: e.textContent,
          x: r.left + r.width / 2, y: r.top + r.height / 2};
})"""


def edge(page: Any, kind: str) -> list[str]:
    """The letters below the board from left to right (``"column"``), or the numbers beside it from the top."""
    edges = [e for e in page.evaluate(EDGES) if e["kind"] == kind]
    return [e["text"] for e in sorted(edges, key=lambda e: e["x"] if kind == "column" else e["y"])]


SETTLED = """() => {
  const board = document.getElementById('board');
  const moving = board.getAnimations({subtree: true}).filter(
    (a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity);
  return !board.classList.contains('recentring') && !board.querySelector('.flying, .flipping') && moving.length === 0;
}"""
"""Whether the board is still: no glide under way, nor any other finite animation or transition of its parts, nor
a card still marked as flying in or flipping. Each class comes off when its own timer ends, which a busy machine
may run after the last frame of the motion: a card still marked as flying when the next move glides the board
is left out of the glide (board.js), so the next move's shift would miss its cell."""


def settle(page: Any) -> None:
    """Wait until no slot or edge label is gliding any more."""
    page.wait_for_function(SETTLED)


def check_names(page: Any, game: Game) -> list[dict[str, Any]]:
    """Every slot is named as the engine names its cell, says it first in its label, and lines up with the
    letter below its column and the number left of its row; the legal slots are exactly the engine's."""
    settle(page)
    slots = page.evaluate(SLOTS)
    edges = page.evaluate(EDGES)
    columns = [e for e in edges if e["kind"] == "column"]
    rows = [e for e in edges if e["kind"] == "row"]
    for slot in slots:
        name = Move(slot["row"], slot["col"]).name
        assert slot["cell"] == name, slot
        if slot["label"] is not None:
            assert slot["label"].startswith(name), slot
        if slot["pile"] is not None:
            assert slot["pile"] == name, slot
        below = min(columns, key=lambda e: abs(e["x"] - slot["x"]))
        beside = min(rows, key=lambda e: abs(e["y"] - slot["y"]))
        assert (below["text"], beside["text"]) == (name[0], name[1:]), (slot, below, beside)
        assert abs(below["x"] - slot["x"]) < 2 and abs(beside["y"] - slot["y"]) < 2
    legal = sorted((s["row"], s["col"]) for s in slots if s["legal"])
    if not game.is_over():
        assert legal == sorted((m.row, m.col) for m in game.legal_moves)
    return slots


def test_every_cell_keeps_its_name_while_the_board_grows_and_glides(browser: Any, server: str) -> None:
    page = new_page(browser)
    open_home(page, server)
    start_deal(page, 1)  # 3♠, then A♥: placed right of the 3♠ it is the lowest of the row and turns it down
    game = Game(deal=1)
    messages = catalogue()

    # Before the first card: one cell, D4, the centre of the 7 × 7 area, named on both edges.
    slots = check_names(page, game)
    assert [(s["cell"], s["legal"]) for s in slots] == [("D4", True)]
    d4 = page.locator('#board .slot[data-cell="D4"]')
    expect(d4).to_have_attribute("aria-label", messages["board.cellEmpty"].format(cell="D4", card="3 of spades"))
    assert edge(page, "column") == ["D"]
    assert edge(page, "row") == ["4"]
    page.evaluate("document.querySelector('#board .slot[data-cell=\"D4\"]').__first = true")
    page.evaluate(SHIFT_RECORDER)

    # The first card: the board grows from one cell to three by three, and glides there.
    placement = game.place(0, 0)
    click_cell(page, 0, 0)
    expect(page.locator("#board-message")).to_have_text(f"{symbol(placement.card.name)} placed at D4.")
    check_names(page, game)
    assert edge(page, "column") == ["C", "D", "E"]
    assert edge(page, "row") == ["3", "4", "5"]
    shifts = page.evaluate("window.__shifts")
    assert len(shifts) == 1 and shifts[0]["edges"] == 2, shifts  # "D" and "4" glide (the card flies into D4)
    assert page.evaluate("document.querySelector('#board .slot[data-cell=\"D4\"]').__first") is True  # same cell
    label = messages["board.cellPile"].format(cell="D4", top="3 of spades", pile="pile of 1 card", card="ace of hearts")
    expect(d4).to_have_attribute("aria-label", label)

    # The A♥ right of it, at E4: the message names both cells, the one placed and the one turned.
    placement = game.place(0, 1)
    click_cell(page, 0, 1)
    message = page.locator("#board-message").text_content() or ""
    assert message.startswith("A♥ placed at E4. Row: A♥ is lower than every other face-up card, so"), message
    assert "3♠ on D4 turned face down" in message, message
    check_names(page, game)
    assert edge(page, "column") == ["C", "D", "E", "F"]
    shifts = page.evaluate("window.__shifts")
    assert len(shifts) == 2 and "D4" in shifts[1]["slots"], shifts  # the board grew a column: D4 glided left

    # More cards, up and to the left: the frame shifts each way, and every cell keeps its name.
    for move in [Move(-1, 0), Move(-1, -1), Move(1, 1), Move(0, -1)]:
        if move not in game.legal_moves:
            continue
        game.place(move.row, move.col)
        click_cell(page, move.row, move.col)
        check_names(page, game)
        assert page.evaluate("document.querySelector('#board .slot[data-cell=\"D4\"]').__first") is True
    assert page.errors == []
    shot(page, "names-desktop")
    page.context.close()


def test_names_on_a_phone_and_without_motion(browser: Any, server: str) -> None:
    page = new_page(browser, PHONE, reduced_motion="reduce", has_touch=True, is_mobile=True)
    open_home(page, server)
    start_deal(page, 1)
    game = Game(deal=1)
    for move in [Move(0, 0), Move(0, 1), Move(-1, 1), Move(1, 0)]:
        game.place(move.row, move.col)
        turn = game.turn - 1
        page.tap(f'#board .slot.legal[data-cell="{move.name}"]')  # a cell found by its name
        wait_turn(page, turn + 1)
        check_names(page, game)
    # With reduced motion the board re-centres at once: nothing glides.
    assert page.evaluate("document.getElementById('board').dataset.recentred") is None
    no_horizontal_overflow(page)
    assert page.errors == []
    shot(page, "names-phone")
    page.evaluate("document.documentElement.dataset.theme = 'dark'")  # the edges stay legible on the dark felt
    shot(page, "names-phone-dark")
    page.context.close()


def test_the_replay_names_the_cell_of_each_card(browser: Any, server: str, winning: tuple[int, list[Move]]) -> None:
    deal, line = winning
    page = new_page(browser)
    open_home(page, server)
    start_deal(page, deal)
    game = Game(deal=deal)
    for move in line:
        game.place(move.row, move.col)
        click_cell(page, move.row, move.col)
    expect(page.locator("#replay")).to_be_visible()
    page.click("#replay-first")
    expect(page.locator("#board")).to_have_attribute("data-replay-turn", "0")
    replayed = Game(deal=deal)
    for turn, move in enumerate(line[:3], start=1):
        placement = replayed.place(move.row, move.col)
        page.click("#replay-next")
        expect(page.locator("#board")).to_have_attribute("data-replay-turn", str(turn))
        caption = page.locator("#replay-caption")
        expect(caption).to_contain_text(f"{symbol(placement.card.name)} to {move.name}.")
        check_names(page, game)  # the replay keeps the final grid's frame: the same names in the same places
    shot(page, "names-replay-desktop")
    assert page.errors == []
    page.context.close()
