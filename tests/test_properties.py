"""Hypothesis property tests over random legal games, in every variant."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from foursquare import record
from foursquare.cards import ALL_CARDS
from foursquare.engine import MAX_FACE_DOWN, PILE_CAP, Game, Variant

variants = st.builds(
    Variant, adjacency=st.sampled_from(["orthogonal", "diagonal"]), count_buried=st.booleans()
)
deals = st.integers(min_value=0, max_value=2**64 - 1)


@st.composite
def games(draw: st.DrawFn) -> Game:
    """A game after a random number of random legal moves."""
    game = Game(deal=draw(deals), variant=draw(variants))
    length = draw(st.integers(min_value=0, max_value=40))
    for _ in range(length):
        moves = game.legal_moves
        if not moves:
            break
        game.place(*draw(st.sampled_from(moves)))
    return game


def check_invariants(game: Game) -> None:
    cells = game.cells()
    placed = [card for cell in cells for card in cell.cards]
    # cards conserved: what is on the grid is exactly the first `turn` cards of the stock
    assert Counter(placed) == Counter(game.stock[: game.turn])
    assert len(placed) == game.turn == 40 - game.stock_left
    assert all(1 <= cell.height <= PILE_CAP for cell in cells)
    bounds = game.bounds()
    if bounds is not None:
        min_r, max_r, min_c, max_c = bounds
        assert max_r - min_r < 4 and max_c - min_c < 4
    down_tops = sum(not cell.top_face_up for cell in cells)
    buried = sum(cell.face_up[:-1].count(False) for cell in cells)
    assert game.face_down == down_tops + (buried if game.variant.count_buried else 0)
    outcome = game.outcome()
    if outcome.status == "playing":
        assert game.face_down <= MAX_FACE_DOWN and game.turn < 40 and game.legal_moves
    elif outcome.status == "won":
        assert len(cells) == 16 and down_tops == 0 and outcome.score == game.stock_left
    else:
        assert outcome.reason in ("too_many_face_down", "stock_empty") and outcome.score == 0


@settings(max_examples=150, deadline=None)
@given(games())
def test_invariants_hold_in_every_reachable_position(game: Game) -> None:
    check_invariants(game)
    while game.can_undo:
        game.undo()
        check_invariants(game)


@settings(max_examples=100, deadline=None)
@given(games(), st.data())
def test_undo_then_redo_restores_the_same_position(game: Game, data: st.DataObject) -> None:
    snapshot = (game.key(), game.cells(), game.outcome(), game.face_down, game.moves)
    steps = data.draw(st.integers(min_value=0, max_value=game.turn))
    for _ in range(steps):
        game.undo()
    for _ in range(steps):
        game.redo()
    assert (game.key(), game.cells(), game.outcome(), game.face_down, game.moves) == snapshot


@settings(max_examples=100, deadline=None)
@given(games())
def test_records_round_trip(game: Game) -> None:
    again = record.loads(record.dumps(game))
    assert again.cells() == game.cells()
    assert again.outcome() == game.outcome()
    assert again.moves == game.moves and again.variant == game.variant and again.deal == game.deal
    assert record.replay_json(again) == record.replay_json(game)


@settings(max_examples=50, deadline=None)
@given(games())
def test_explicit_stock_records_round_trip(game: Game) -> None:
    explicit = Game(stock=list(game.stock), variant=game.variant)
    for move in game.moves:
        explicit.place(*move)
    data = record.to_json(explicit)
    assert "stock" in data and "deal" not in data
    assert record.load(data).cells() == game.cells()


@settings(max_examples=100, deadline=None)
@given(games())
def test_view_shows_only_what_a_player_may_know(game: Game) -> None:
    view = game.view()
    assert view.turn == game.turn and view.card == game.card_to_place
    seen = {card for cell in view.cells for card in cell.cards}
    if view.card is not None:
        seen.add(view.card)
    assert sorted(seen | set(view.unseen)) == list(ALL_CARDS)
    assert list(view.unseen) == sorted(view.unseen)
    # the view does not depend on the order of the unseen cards
    if view.card is not None:
        imagined = Game.from_view(view, list(reversed(view.unseen)))
        assert imagined.view() == view
        assert imagined.key() == game.key()


def snapshot(game: Game) -> tuple[object, ...]:
    """Everything about a game that a change to it could alter."""
    return (game.turn, game.moves, game.cells(), game.outcome(), game.face_down, game.can_redo, game.key())


def change(game: Game) -> None:
    """Change a game: lay a card when one can be laid, else take the last one back."""
    if game.legal_moves:
        game.place(*game.legal_moves[0])
    else:
        game.undo()  # a finished game has laid at least one card


@settings(max_examples=100, deadline=None)
@given(games())
def test_copy_is_independent(game: Game) -> None:
    original = snapshot(game)
    twin = game.copy()
    assert snapshot(twin) == original
    change(twin)
    assert snapshot(twin) != original
    assert snapshot(game) == original  # changing the copy leaves the original alone
    copied = snapshot(twin)
    change(game)
    assert snapshot(game) != original
    assert snapshot(twin) == copied  # and changing the original leaves the copy alone
