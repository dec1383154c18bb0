"""The lesson's line, replayed on the engine: every step does what its code says, in the order the lesson
promises, and a card placed anywhere else is refused with the reason."""

from __future__ import annotations

import pytest

from foursquare.cards import ALL_CARDS, DECK_SIZE
from foursquare.engine import MAX_FACE_DOWN, WINNING_CELLS, Game, Move, Placement
from foursquare.i18n import LANGUAGES, translator
from foursquare.lesson import LINE, STEP_CODES, STOCK, Lesson, LessonError, Step, steps

#: What the lesson must show, in this order (each the first step of its code).
PROMISED = ("first_card", "row_flip_high", "column_flip_low", "turn_back_up", "four_face_down", "finish_square")


def replayed() -> list[tuple[Placement, int, int, bool]]:
    """The line on a fresh engine game: each placement with the face-down count before and after, and whether
    the card went on a pile."""
    game = Game(stock=STOCK)
    out = []
    for cell, _, _ in LINE:
        move = Move.from_name(cell)
        before, on_pile = game.face_down, game.pile(*move) is not None
        placement = game.place(*move)
        out.append((placement, before, game.face_down, on_pile))
    return out


def does(code: str, placement: Placement, before: int, after: int, on_pile: bool) -> bool:
    """Whether a placement does what ``code`` teaches (checked on the engine's own result)."""
    flips = placement.flips
    playing = placement.outcome.status == "playing"
    if code == "first_card":
        return not flips and playing
    if code == "place":
        return not flips and not on_pile and before == after and playing
    if code in ("row_flip_high", "row_flip_low", "column_flip_high", "column_flip_low"):
        line, _, way = code.split("_")
        reason = "highest" if way == "high" else "lowest"
        return bool(flips) and all(f.line == line and f.reason == reason and not f.face_up for f in flips) and playing
    if code == "turn_back_up":
        return bool(flips) and all(f.face_up for f in flips) and after < before and playing
    if code == "turn_both_ways":
        return {f.face_up for f in flips} == {True, False} and playing
    if code == "four_face_down":
        return before < MAX_FACE_DOWN == after and playing
    if code == "finish_square":
        return placement.outcome.status == "won" and after == 0
    raise AssertionError(f"unknown code {code}")


def test_the_stock_is_a_whole_deck() -> None:
    assert len(STOCK) == DECK_SIZE and sorted(STOCK) == sorted(ALL_CARDS)


@pytest.mark.parametrize("number", range(1, len(LINE) + 1))
def test_each_step_does_what_its_code_says(number: int) -> None:
    placement, before, after, on_pile = replayed()[number - 1]
    code = LINE[number - 1][2]
    assert code in STEP_CODES
    assert does(code, placement, before, after, on_pile), (number, code, placement, before, after)


def test_the_line_teaches_in_the_promised_order_and_wins_with_sixteen_face_up() -> None:
    codes: list[str] = [code for _, _, code in LINE]
    firsts = [codes.index(code) for code in PROMISED]
    assert firsts == sorted(firsts) and codes[0] == "first_card" and codes[-1] == "finish_square"
    assert codes.count("four_face_down") == 1 and codes.count("finish_square") == 1
    game = Game(stock=STOCK)
    for cell, _, _ in LINE:
        game.place(*Move.from_name(cell))
    assert game.outcome().status == "won" and game.face_down == 0
    assert len(game.cells()) == WINNING_CELLS and all(cell.top_face_up for cell in game.cells())
    # Never more than the limit face down along the way: the lesson never loses.
    assert max(after for _, _, after, _ in replayed()) == MAX_FACE_DOWN
    # As short as the rules allow: every card fills a cell of the square, but the one that covers the last
    # face-down card.
    assert len(LINE) == WINNING_CELLS + 1


def test_the_steps_carry_the_engines_results() -> None:
    for step, (placement, before, after, on_pile) in zip(steps(), replayed(), strict=True):
        assert isinstance(step, Step)
        assert step.placement == placement and step.flips == placement.flips and step.outcome == placement.outcome
        assert (step.face_down_before, step.face_down, step.on_pile) == (before, after, on_pile)
        assert step.cell == placement.move.name and step.card == placement.card
    assert [step.number for step in steps()] == list(range(1, len(LINE) + 1))


def test_the_lesson_walks_the_line_and_refuses_any_other_cell() -> None:
    lesson = Lesson()
    assert lesson.number == 1 and not lesson.done
    error = lesson.check("C4")
    assert isinstance(error, LessonError) and error.code == "wrong_cell"
    assert dict(error.params) == {"cell": "C4", "target": "D4", "reason": "first_card"}  # the engine's reason
    with pytest.raises(LessonError) as raised:
        lesson.place("C4")
    assert raised.value.params["target"] == "D4" and lesson.game.turn == 0  # nothing placed
    lesson.place("D4")
    # A cell the rules allow but the lesson does not: refused all the same, with no rule broken.
    refused = lesson.check(Move.from_name("C4"))
    assert refused is not None and dict(refused.params) == {"cell": "C4", "target": "E4", "reason": None}
    far = lesson.check("A1")
    assert far is not None and far.params["reason"] == "not_adjacent"
    for step in lesson.steps[1:]:
        assert lesson.current == step
        assert lesson.place(step.cell) == step
    assert lesson.done and lesson.current is None and lesson.number == len(LINE) + 1
    over = lesson.check("D4")
    assert over is not None and over.code == "finished"
    lesson.restart()
    assert lesson.number == 1 and lesson.game.turn == 0


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_every_step_has_its_sentence_in_every_language(code: str) -> None:
    t = translator(code)
    for step in steps():
        text = t(f"lesson.step.{step.code}", card="7♥", cell=step.cell, limit=t.number(MAX_FACE_DOWN))
        assert step.cell in text and "7♥" in text
