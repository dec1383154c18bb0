"""One test per rule clause of docs/rules.md, on hand-built positions."""

from __future__ import annotations

import pytest

from foursquare.cards import ALL_CARDS, Card, CardError, deal_stock
from foursquare.engine import (
    Flip,
    Game,
    IllegalMoveError,
    Move,
    MoveError,
    Outcome,
    Variant,
    VariantError,
    column_name,
    row_name,
)
from helpers import game_with, stock_starting, tops

DIAGONAL = Variant(adjacency="diagonal")
BURIED = Variant(count_buried=True)


def flips_of(game: Game, row: int, col: int) -> list[tuple[int, int, str, bool, str]]:
    return [(f.row, f.col, f.card.name, f.face_up, f.line) for f in game.place(row, col).flips]


# --- cards and deals -------------------------------------------------------------------------------


def test_deal_one_matches_the_published_vector() -> None:
    expected = (
        "3S AH 5C 7H 8C 5H 7C 4C 8D 9S 10H 8H 2D 6H 2C 5D 4D 6C 9H 2H 4S 3H 3D 9C 10D 8S AD "
        "AC 9D 7S 2S 3C AS 10S 6S 6D 10C 4H 5S 7D"
    )
    assert " ".join(c.name for c in deal_stock(1)) == expected


def test_deals_are_permutations_and_differ() -> None:
    for deal in (0, 2, 2**64 - 1):
        assert sorted(deal_stock(deal)) == list(ALL_CARDS)
    assert deal_stock(0) != deal_stock(2)


@pytest.mark.parametrize("deal", [-1, 2**64, 1.5, True, "3"])
def test_deal_numbers_outside_the_range_are_refused(deal: object) -> None:
    with pytest.raises(CardError):
        deal_stock(deal)  # type: ignore[arg-type]


def test_card_names_round_trip() -> None:
    for card in ALL_CARDS:
        assert Card.parse(card.name) == card
        assert Card.parse(card.name.lower()) == card
    assert Card.parse("10H").symbol == "10♥"
    assert Card.parse("AC").symbol == "A♣"
    assert Card.parse("AC").rank == 1 and Card.parse("10S").rank == 10


@pytest.mark.parametrize("name", ["", "1C", "11H", "AX", "KS", "010H", "A", "♥"])
def test_bad_card_names_say_what_is_wrong(name: str) -> None:
    with pytest.raises(CardError, match="card name"):
        Card.parse(name)


def test_explicit_stock_must_be_a_permutation() -> None:
    with pytest.raises(CardError, match="duplicate card AC"):
        Game(stock=["AC", "AC", *[c.name for c in ALL_CARDS[2:]]])
    with pytest.raises(CardError, match="not 40"):
        Game(stock=[c.name for c in ALL_CARDS[:39]])
    game = Game(stock=stock_starting("7H 2C"))
    assert game.deal is None and game.card_to_place == Card.parse("7H")


def test_a_game_without_a_deal_number_picks_one() -> None:
    game = Game()
    assert game.deal is not None and 0 <= game.deal < 2**64
    assert game.stock == deal_stock(game.deal)


# --- placement --------------------------------------------------------------------------------------


def test_first_card_defines_cell_zero_zero() -> None:
    game = game_with("5C")
    assert game.legal_moves == [Move(0, 0)]
    with pytest.raises(IllegalMoveError, match=r"\(1, 1\).*first card goes to D4") as info:
        game.place(1, 1)
    assert info.value.reason == "first_card"
    assert game.turn == 0


def test_a_lone_card_turns_nothing() -> None:
    game = game_with("5C")
    placement = game.place(0, 0)
    assert placement.flips == () and placement.card == Card.parse("5C")
    assert tops(game) == {(0, 0): ("5C", True)}


def test_empty_cells_must_be_orthogonally_adjacent() -> None:
    game = game_with("AC AD", [(0, 0)])
    assert game.legal_moves == [Move(-1, 0), Move(0, -1), Move(0, 0), Move(0, 1), Move(1, 0)]
    with pytest.raises(IllegalMoveError, match="not orthogonally next to a card") as info:
        game.place(1, 1)
    assert info.value.reason == "not_adjacent"
    with pytest.raises(IllegalMoveError, match="not orthogonally"):
        game.place(0, 2)


def test_diagonal_variant_allows_the_corners() -> None:
    game = game_with("AC AD", [(0, 0)], variant=DIAGONAL)
    assert len(game.legal_moves) == 9
    game.place(1, 1)
    assert set(tops(game)) == {(0, 0), (1, 1)}


def test_pile_holds_at_most_four_cards() -> None:
    game = game_with("5C 5D 5H 5S 6C", [(0, 0)] * 4)
    assert game.pile(0, 0) is not None and game.pile(0, 0).height == 4  # type: ignore[union-attr]
    assert Move(0, 0) not in game.legal_moves
    with pytest.raises(IllegalMoveError, match="already holds 4 cards") as info:
        game.place(0, 0)
    assert info.value.reason == "pile_full"


@pytest.mark.parametrize(
    ("line", "outside"),
    [
        ([(0, 1), (0, 2), (0, 3)], [(0, 4), (0, -1)]),  # rightward
        ([(0, -1), (0, -2), (0, -3)], [(0, -4), (0, 1)]),  # leftward, negative columns
        ([(1, 0), (2, 0), (3, 0)], [(4, 0), (-1, 0)]),  # downward
        ([(-1, 0), (-2, 0), (-3, 0)], [(-4, 0), (1, 0)]),  # upward, negative rows
    ],
)
def test_grid_never_exceeds_four_by_four(line: list[tuple[int, int]], outside: list[tuple[int, int]]) -> None:
    game = Game(stock=list(ALL_CARDS))  # four aces first: ties, so nothing turns
    game.place(0, 0)
    for row, col in line:
        game.place(row, col)
    for row, col in outside:
        assert Move(row, col) not in game.legal_moves
        with pytest.raises(IllegalMoveError, match="more than 4") as info:
            game.place(row, col)
        assert info.value.reason == "outside_4x4"
    # the perpendicular direction is still open
    assert any(m.row != line[0][0] or m.col != line[0][1] for m in game.legal_moves)


def test_grid_box_is_four_by_four_in_both_directions_at_once() -> None:
    game = Game(stock=list(ALL_CARDS))
    for move in [(0, 0), (0, 1), (0, 2), (0, 3), (1, 3), (2, 3), (3, 3)]:
        game.place(*move)
    assert all(0 <= m.row <= 3 and 0 <= m.col <= 3 for m in game.legal_moves)


# --- the row and column checks ----------------------------------------------------------------------


def test_higher_than_every_face_up_card_turns_the_row() -> None:
    game = game_with("5C 7C", [(0, 0)])
    assert flips_of(game, 0, 1) == [(0, 0, "5C", False, "row")]


def test_lower_than_every_face_up_card_turns_the_row() -> None:
    game = game_with("5C 3C", [(0, 0)])
    assert flips_of(game, 0, 1) == [(0, 0, "5C", False, "row")]


def _row_of_two_and_nine(card: str) -> Game:
    # 2C at (0,0), 9C at (0,1) turns it down, 4C below it turns it back up (all-face-down column).
    return game_with(f"2C 9C 4C {card}", [(0, 0), (0, 1), (1, 0)])


def test_setup_for_between_cases() -> None:
    game = _row_of_two_and_nine("5C")
    assert tops(game) == {(0, 0): ("2C", True), (0, 1): ("9C", True), (1, 0): ("4C", True)}


def test_between_the_face_up_cards_turns_nothing() -> None:
    assert flips_of(_row_of_two_and_nine("5C"), 0, 2) == []


def test_tie_with_the_highest_is_not_highest() -> None:
    assert flips_of(_row_of_two_and_nine("9D"), 0, 2) == []


def test_tie_with_the_lowest_is_not_lowest() -> None:
    assert flips_of(_row_of_two_and_nine("2D"), 0, 2) == []


def test_tie_with_the_only_face_up_card_turns_nothing() -> None:
    game = game_with("5C 5D", [(0, 0)])
    assert flips_of(game, 0, 1) == []


def test_strictly_highest_turns_every_other_top_card() -> None:
    assert flips_of(_row_of_two_and_nine("10C"), 0, 2) == [(0, 0, "2C", False, "row"), (0, 1, "9C", False, "row")]


def test_all_others_face_down_turns_them_all_face_up() -> None:
    game = game_with("5C 7C 6C", [(0, 0), (1, 0)])  # 7C below turns 5C face down (column)
    assert tops(game)[(0, 0)] == ("5C", False)
    assert flips_of(game, 0, 1) == [(0, 0, "5C", True, "row")]
    assert game.face_down == 0


def test_face_down_cards_take_no_part_but_are_turned() -> None:
    # row: 9C face down, 5C face up; 6C is higher than the only face-up rank, so both turn over
    game = game_with("9C 5C 6C", [(0, 0), (0, 1)])
    assert tops(game) == {(0, 0): ("9C", False), (0, 1): ("5C", True)}
    assert flips_of(game, 0, 2) == [(0, 0, "9C", True, "row"), (0, 1, "5C", False, "row")]


def test_row_check_comes_before_column_check() -> None:
    game = game_with("5C 3C 8C 9C", [(0, 0), (0, 1), (1, 1)])
    assert tops(game) == {(0, 0): ("5C", False), (0, 1): ("3C", False), (1, 1): ("8C", True)}
    flips = game.place(1, 0).flips
    assert flips == (
        Flip(1, 1, Card.parse("8C"), False, "row", "highest"),
        Flip(0, 0, Card.parse("5C"), True, "column", "none_face_up"),
    )
    assert tops(game)[(1, 0)] == ("9C", True)  # the placed card itself never turns


def test_cards_under_a_top_card_take_no_part() -> None:
    # AC is buried under 9C; 5C is lower than 9C (the ace below does not count), so 9C turns
    game = game_with("AC 9C 5C", [(0, 0), (0, 0)])
    assert flips_of(game, 0, 1) == [(0, 0, "9C", False, "row")]


def test_a_card_may_go_on_a_face_down_card() -> None:
    game = game_with("5C 3C 7C", [(0, 0), (0, 1)])
    assert tops(game)[(0, 0)] == ("5C", False)
    assert Move(0, 0) in game.legal_moves
    flips = flips_of(game, 0, 0)
    assert flips == [(0, 1, "3C", False, "row")]
    assert tops(game)[(0, 0)] == ("7C", True)
    assert game.face_down == 1  # the buried 5C no longer counts


def test_count_buried_keeps_covered_face_down_cards_counting() -> None:
    game = game_with("5C 3C 7C", [(0, 0), (0, 1), (0, 0)], variant=BURIED)
    assert game.face_down == 2


def test_count_buried_can_lose_where_the_standard_rules_play_on() -> None:
    moves = [(0, 0), (-1, 0), (1, 0), (-2, 0), (0, -1), (0, -2), (-2, -1), (1, -1), (0, -3), (1, -3), (1, -2),
             (-1, -3), (-2, 0), (0, -1), (-2, -3), (-2, -3), (-2, -3), (-2, -3), (1, 0)]
    standard, buried = Game(deal=1), Game(deal=1, variant=BURIED)
    for move in moves:
        standard.place(*move)
        buried.place(*move)
    assert standard.outcome().status == "playing" and standard.face_down == 4
    assert buried.outcome().status == "lost" and buried.outcome().reason == "too_many_face_down"
    assert buried.face_down == 5


# --- the end of the game ----------------------------------------------------------------------------

WIN_16 = "2C 2D 2H 4C 4D 4H 8C 8D 8H 8S 6S 2S 4S 6C 6D 6H"
WIN_16_MOVES = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2), (2, 3), (3, 3), (0, 3),
                (1, 3), (3, 0), (3, 1), (3, 2)]


def test_win_with_the_sixteenth_card_scores_24() -> None:
    game = game_with(WIN_16, WIN_16_MOVES[:-1])
    assert game.outcome().status == "playing" and len(game.cells()) == 15
    placement = game.place(*WIN_16_MOVES[-1])
    assert placement.outcome.status == "won" and placement.outcome.reason == "sixteen_face_up"
    assert placement.outcome.score == 24 == game.stock_left
    assert game.card_to_place is None and game.legal_moves == []
    with pytest.raises(IllegalMoveError, match="game is over") as info:
        game.place(0, 0)
    assert info.value.reason == "game_over"


WIN_40_DEAL = 2
WIN_40_MOVES = [(0, 0), (1, 0), (1, 1), (1, -1), (0, 0), (2, 0), (0, 1), (1, -1), (1, 1), (2, 0), (0, 2), (-1, 0),
                (1, -1), (1, -1), (1, 0), (-1, 0), (0, 2), (0, 1), (-1, 0), (1, 2), (2, -1), (-1, 0), (1, 0),
                (2, 1), (2, 2), (2, 2), (2, -1), (-1, -1), (-1, -1), (2, -1), (2, 2), (2, 2), (-1, 2), (-1, -1),
                (1, 2), (0, 1), (1, 2), (-1, 1), (0, 2), (0, -1)]


def test_win_with_the_fortieth_card_scores_zero() -> None:
    game = Game(deal=WIN_40_DEAL)
    for move in WIN_40_MOVES[:-1]:
        assert game.place(*move).outcome.status == "playing"
    outcome = game.place(*WIN_40_MOVES[-1]).outcome
    assert (outcome.status, outcome.reason, outcome.score) == ("won", "sixteen_face_up", 0)


def test_fifth_face_down_card_loses() -> None:
    game = game_with("5C 5D 6C 6D 7C 8C", [(0, 0), (0, 1), (1, 0), (1, 1), (1, 2)])
    assert game.face_down == 4 and game.outcome().status == "playing"  # four is still allowed
    outcome = game.place(2, 2).outcome
    assert (outcome.status, outcome.reason, outcome.score) == ("lost", "too_many_face_down", 0)
    assert game.face_down == 5


def test_empty_stock_loses() -> None:
    # stack the aces and twos... every card on the 4x4 without winning: piles of 4 on ten cells
    game = Game(stock=list(ALL_CARDS))
    cells = [(0, 0), (0, 1), (0, 2), (0, 3), (1, 3), (1, 2), (1, 1), (1, 0), (2, 0), (2, 1)]
    # deck order: four cards of each rank in turn; each rank goes on its own cell as a pile of four
    for index in range(40):
        game.place(*cells[index // 4])
        if index < 39:
            assert not game.is_over(), (index, game)
    outcome = game.outcome()
    assert (outcome.status, outcome.reason, outcome.score) == ("lost", "stock_empty", 0)


def test_winning_is_judged_before_losing() -> None:
    game = game_with(WIN_16, WIN_16_MOVES)
    assert game.outcome().status == "won"


# --- undo, redo, views ------------------------------------------------------------------------------


def test_undo_and_redo_restore_positions() -> None:
    game = game_with("5C 3C 8C 9C", [(0, 0), (0, 1), (1, 1), (1, 0)])
    before = game.key()
    undone = game.undo()
    assert undone.move == Move(1, 0) and game.turn == 3 and game.can_redo
    assert tops(game) == {(0, 0): ("5C", False), (0, 1): ("3C", False), (1, 1): ("8C", True)}
    game.redo()
    assert game.key() == before and not game.can_redo
    game.undo()
    game.place(2, 1)  # a different move drops the redo list
    assert not game.can_redo
    with pytest.raises(IndexError):
        game.redo()


def test_undo_after_the_end_reopens_the_game() -> None:
    game = game_with("5C 5D 6C 6D 7C 8C", [(0, 0), (0, 1), (1, 0), (1, 1), (1, 2), (2, 2)])
    assert game.is_over()
    game.undo()
    assert game.outcome().status == "playing" and game.card_to_place == Card.parse("8C")


def test_restart_goes_back_to_the_first_card() -> None:
    game = game_with("5C 3C 8C", [(0, 0), (0, 1), (1, 1)])
    game.restart()
    assert game.turn == 0 and game.cells() == [] and game.card_to_place == Card.parse("5C")


def test_view_hides_the_stock_order() -> None:
    game = game_with("5C 3C 8C 9C", [(0, 0)])
    view = game.view()
    assert view.card == Card.parse("3C")
    assert list(view.unseen) == sorted(view.unseen)
    assert len(view.unseen) == 38 and Card.parse("8C") in view.unseen
    assert not hasattr(view, "stock") and not hasattr(view, "deal")


def test_key_ignores_translation_but_not_content() -> None:
    # aces tie, so nothing turns: two piles of two, the same tops, one column apart
    a = game_with("AC AD AH AS", [(0, 0), (0, 1), (0, 0), (0, 1)])
    b = game_with("AC AD AH AS", [(0, 0), (0, -1), (0, -1), (0, 0)])
    assert a.key() == b.key()
    c = game_with("AC AD AH AS", [(0, 0), (1, 0), (0, 0), (1, 0)])
    assert a.key() != c.key()


def test_from_view_continues_with_an_imagined_stock() -> None:
    game = game_with("5C 3C 8C 9C", [(0, 0), (0, 1)])
    view = game.view()
    future = list(reversed(view.unseen))
    imagined = Game.from_view(view, future)
    assert imagined.view() == view
    imagined.place(1, 1)
    assert imagined.card_to_place == future[0]
    with pytest.raises(ValueError, match="ordering of the unseen"):
        Game.from_view(view, future[1:])


def test_bad_coordinates_and_variants_are_value_errors() -> None:
    game = game_with("5C", [(0, 0)])
    with pytest.raises(IllegalMoveError, match="integers"):
        game.place("0", 1)  # type: ignore[arg-type]
    with pytest.raises(VariantError, match="adjacency"):
        Variant(adjacency="hexagonal")  # type: ignore[arg-type]
    with pytest.raises(VariantError, match="unknown variant field"):
        Variant.from_json({"adjacency": "orthogonal", "wrap": True})
    assert issubclass(IllegalMoveError, ValueError) and issubclass(VariantError, ValueError)


# --- why a line turned, the move codec, immutable piles -------------------------------------------------


@pytest.mark.parametrize(
    ("names", "moves", "cell", "reason"),
    [
        ("5C 3C", [(0, 0)], (0, 1), "lowest"),  # 3 below the only face-up 5
        ("5C 9C", [(0, 0)], (0, 1), "highest"),  # 9 above it
    ],
)
def test_a_flip_says_why_its_line_turned(
    names: str, moves: list[tuple[int, int]], cell: tuple[int, int], reason: str
) -> None:
    game = game_with(names, moves)
    flips = game.place(*cell).flips
    assert flips and {f.reason for f in flips} == {reason}


def test_a_line_with_no_face_up_top_turns_with_reason_none_face_up() -> None:
    # 5C then 3C: the 5C turns down. 3C then sits face up; the column of (1, 0) holds only the 5C, face down
    game = game_with("5C 3C 7C", [(0, 0), (0, 1)])
    assert tops(game)[(0, 0)] == ("5C", False)
    flips = game.place(1, 0).flips
    assert [(f.row, f.col, f.line, f.reason) for f in flips] == [(0, 0, "column", "none_face_up")]


def test_a_card_neither_strictly_highest_nor_lowest_turns_nothing() -> None:
    game = game_with("5C 5D", [(0, 0)])
    assert game.place(0, 1).flips == ()


def test_move_text_and_json_round_trip() -> None:
    for move in (Move(0, 0), Move(-3, 2), Move(3, -3)):
        assert Move.parse(str(move)) == move
        assert Move.from_json(move.to_json()) == move
    assert Move.parse(" 1, -2 ") == Move(1, -2)


@pytest.mark.parametrize("text", ["", "1", "1 2 3", "a b", "1.5 2"])
def test_move_parse_says_what_is_wrong(text: str) -> None:
    with pytest.raises(MoveError, match="two whole numbers"):
        Move.parse(text)


@pytest.mark.parametrize("data", [None, "0 0", [0], [0, 0, 0], [0, "1"], [True, 0], [0.0, 1], (0, 1)])
def test_move_from_json_refuses_anything_but_a_pair_of_integers(data: object) -> None:
    with pytest.raises(MoveError, match=r"expected \[row, col\] with two integers"):
        Move.from_json(data)
    assert issubclass(MoveError, ValueError)


def test_a_pile_is_an_immutable_view() -> None:
    game = game_with("5C 3C", [(0, 0)])
    pile = game.pile(0, 0)
    assert pile is not None and pile.cards == (Card.parse("5C"),) and pile.face_up == (True,)
    with pytest.raises(AttributeError):
        pile.cards = ()  # type: ignore[misc]
    game.place(0, 1)  # turns the 5C down: the view taken before does not change
    assert pile.face_up == (True,) and game.pile(0, 0).face_up == (False,)  # type: ignore[union-attr]
    assert game.pile(5, 5) is None


def test_outcomes_word_themselves_and_know_their_score() -> None:
    assert str(Outcome("playing")) == "playing" and Outcome("playing").score is None
    assert str(Outcome("won", "sixteen_face_up", 7)) == "won with score 7"
    assert str(Outcome("lost", "too_many_face_down", 0)) == "lost: more than 4 cards face down"
    assert str(Outcome("lost", "stock_empty", 0)) == "lost: the stock ran out"


# --- cell names -----------------------------------------------------------------------------------------


def test_the_first_card_lies_at_d4_and_names_follow_columns_and_rows() -> None:
    assert Move(0, 0).name == "D4"
    assert (Move(-3, -3).name, Move(-3, 3).name, Move(3, -3).name, Move(3, 3).name) == ("A1", "G1", "A7", "G7")
    assert Move(1, 0).name == "D5" and Move(0, 1).name == "E4"  # rows grow downward, columns rightward


def test_every_cell_of_the_area_has_one_name_that_reads_back() -> None:
    cells = [Move(r, c) for r in range(-3, 4) for c in range(-3, 4)]
    names = [m.name for m in cells]
    assert len(set(names)) == 49
    assert [Move.from_name(n) for n in names] == cells
    assert [Move.from_name(n.lower()) for n in names] == cells


@pytest.mark.parametrize("name", ["", "D", "H4", "D0", "D8", "4D", "D44", "DD"])
def test_a_bad_cell_name_says_what_is_wrong(name: str) -> None:
    with pytest.raises(MoveError, match="A1 to G7"):
        Move.from_name(name)


def test_columns_and_rows_have_the_letters_and_numbers_of_the_names() -> None:
    assert [column_name(c) for c in range(-3, 4)] == list("ABCDEFG")
    assert [row_name(r) for r in range(-3, 4)] == list("1234567")
    assert column_name(4) == row_name(-4) == ""
    for r in range(-3, 4):
        for c in range(-3, 4):
            assert Move(r, c).name == column_name(c) + row_name(r)


def test_piles_and_flips_carry_the_name_of_their_cell() -> None:
    game = Game(deal=1)
    game.place(0, 0)
    game.place(0, 1)
    assert [c.cell_name for c in game.cells()] == ["D4", "E4"]
    flips = [f for p in game.placements for f in p.flips]
    assert all(f.cell_name == Move(f.row, f.col).name for f in flips)


def test_a_cell_outside_the_area_has_no_name() -> None:
    with pytest.raises(MoveError, match="outside the 7 × 7 area"):
        _ = Move(4, 0).name


@pytest.mark.parametrize("variant", [Variant(), DIAGONAL], ids=["orthogonal", "diagonal"])
def test_every_game_stays_inside_the_named_area(variant: Variant) -> None:
    for deal in range(1, 41):
        game = Game(deal=deal, variant=variant)
        while not game.is_over():
            moves = game.legal_moves
            assert all(m.name for m in moves)
            move = moves[(deal * 7 + game.turn * 3) % len(moves)]
            game.place(move.row, move.col)
