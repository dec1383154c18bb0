"""Many games stepped in one compiled call: the reinforcement-learning environments' engine room.

:mod:`foursquare.rl` exposes Foursquare as a Gymnasium environment. Its per-step work — checking the
action, placing the card, judging, the reward, the next observation and action mask, and starting a new
deal when a game has ended — lives here so that ``N`` environments advance in a single call of compiled
code, with no Python per environment per step.

Actions
-------
An action is a cell of the 7 × 7 area every game stays inside, numbered as the game names cells
(A1 … G7, the first card at D4): ``action = 7 * (row_number - 1) + column_index``, so engine
coordinates (r, c) are action ``7 * (r + 3) + (c + 3)`` and D4 is action :data:`FIRST_ACTION`.

Observation
-----------
One ``int8`` vector of :data:`OBS_SIZE` entries holding only what a player sees. First
:data:`CELL_FEATURES` blocks of :data:`ACTIONS` entries, one entry per cell in action order:

- ``OBS_OCCUPIED``: 1 when the cell holds a pile;
- ``OBS_RANK``: the rank of its top card, 1–10 (face down too: the player laid it and knows it), else 0;
- ``OBS_FACE_UP``: 1 when the top card faces up;
- ``OBS_HEIGHT``: the pile height, 0–4;
- ``OBS_BURIED``: the face-down cards buried under the top, 0–3;

then the scalars: the rank of the card to place (``OBS_CARD``, 0 once the game is over), the unseen cards of
each rank (``OBS_UNSEEN`` … ``+ 9``, 0–4, the stock below the card to place, as counts only), the cards not
yet laid (``OBS_STOCK``, the card to place included: 40 − turn), the face-down cards counting towards the
limit (``OBS_FACE_DOWN``) and the two house-rule flags (``OBS_DIAGONAL``, ``OBS_COUNT_BURIED``). The stock
order beyond the card to place is never in it. :data:`OBS_HIGH` holds every entry's upper bound.

>>> action_of(0, 0) == FIRST_ACTION, cell_of_action(FIRST_ACTION)  # D4: the middle of the 9 × 9 kernel area
(True, 40)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from foursquare.cards import DECK_SIZE
from foursquare.engine import AREA_REACH, PILE_CAP, WINNING_CELLS
from foursquare.engine import AREA_SIDE as NAMED_SIDE
from foursquare.kernel.boards import lay, legal_bits, update_mask, write_mask
from foursquare.kernel.policies import policy_choice
from foursquare.kernel.rng import GOLDEN, mix, remainder
from foursquare.kernel.rows import contiguous, row, unmanaged
from foursquare.kernel.rules import face_down, legal, place, rank_of
from foursquare.kernel.state import (
    AREA_ORIGIN,
    AREA_SIDE,
    BURIED_FACE_DOWN,
    COUNT_BURIED_FLAG,
    DIAGONAL_FLAG,
    FACE_DOWN_TOPS,
    MAX_MOVES,
    PILE_BURIED,
    PILE_HEIGHT,
    RANK_COUNT,
    SCORE,
    STATE_SIZE,
    STATUS,
    STATUS_PLAYING,
    STATUS_WON,
    TOP_CARD,
    TOP_FACE_UP,
    TURN,
    Array,
    IntArray,
    Weights,
    copy_state,
)

Floats = npt.NDArray[np.float32]
Flags = npt.NDArray[np.bool_]
Deals = npt.NDArray[np.uint64]
#: Per environment: the occupied cells, the piles below the cap and the legal actions as bit boards
#: (:mod:`foursquare.kernel.boards`), shape (N, :data:`BOARDS`).
Boards = npt.NDArray[np.uint64]

ACTIONS = NAMED_SIDE * NAMED_SIDE
FIRST_ACTION = AREA_REACH * NAMED_SIDE + AREA_REACH
# The named 7 × 7 area sits inside the kernel's 9 × 9 one, this many rows and columns from its corner.
_SHIFT = AREA_ORIGIN - AREA_REACH

OBS_OCCUPIED = 0
OBS_RANK = ACTIONS
OBS_FACE_UP = 2 * ACTIONS
OBS_HEIGHT = 3 * ACTIONS
OBS_BURIED = 4 * ACTIONS
CELL_FEATURES = 5
OBS_CARD = CELL_FEATURES * ACTIONS
OBS_UNSEEN = OBS_CARD + 1
OBS_STOCK = OBS_UNSEEN + RANK_COUNT
OBS_FACE_DOWN = OBS_STOCK + 1
OBS_DIAGONAL = OBS_FACE_DOWN + 1
OBS_COUNT_BURIED = OBS_DIAGONAL + 1
OBS_SIZE = OBS_COUNT_BURIED + 1

# The face-down count can exceed the limit after the losing move: at most every top and, when they
# count, every buried card of full piles.
_MOST_FACE_DOWN = WINNING_CELLS * PILE_CAP
OBS_HIGH = np.concatenate(
    [
        np.full(ACTIONS, 1),
        np.full(ACTIONS, RANK_COUNT),
        np.full(ACTIONS, 1),
        np.full(ACTIONS, PILE_CAP),
        np.full(ACTIONS, PILE_CAP - 1),
        [RANK_COUNT],
        np.full(RANK_COUNT, DECK_SIZE // RANK_COUNT),
        [DECK_SIZE, _MOST_FACE_DOWN, 1, 1],
    ]
).astype(np.int8)

# Reward modes and what an illegal action does (the arguments of :func:`step_envs`).
REWARD_SCORE = 0  # the game's score at the end: cards left after a win, 0 after a loss
REWARD_WIN = 1  # 1 for a win, 0 for a loss
ILLEGAL_RAISE = 0  # step_envs changes nothing and returns the first offending environment
ILLEGAL_LOSE = 1  # the offending environment's episode ends with the illegal reward

# Which deals a new game may be (the environments' ``split``): the test split is deals 1 to TEST_DEALS, the
# train split every other deal number, and no split any of them.
SPLIT_ANY = 0
SPLIT_TRAIN = 1
SPLIT_TEST = 2
TEST_DEALS = 20_000

BOARD_OCCUPIED = 0
BOARD_OPEN = 1
BOARD_LEGAL = 2
BOARDS = 3


def action_of(row: int, col: int) -> int:
    """The action of engine coordinates (row, col), both in ``-3..3``."""
    return (row + AREA_REACH) * NAMED_SIDE + (col + AREA_REACH)


@njit(cache=True, inline="always")
def cell_of_action(action: int) -> int:
    """The kernel cell index of an action."""
    return (action // NAMED_SIDE + _SHIFT) * AREA_SIDE + action % NAMED_SIDE + _SHIFT


@njit(cache=True, inline="always")
def deal_into(stock: Array, deal: np.uint64) -> None:
    """Write the stock order of deal number ``deal`` into ``stock`` (as :func:`foursquare.cards.deal_stock`)."""
    for i in range(DECK_SIZE):
        stock[i] = i
    state = np.uint64(deal)  # the generator's state in a register: no array to allocate per deal
    for i in range(DECK_SIZE - 1, 0, -1):
        state += GOLDEN
        j = remainder(mix(state), i + 1)
        t = stock[i]
        stock[i] = stock[j]
        stock[j] = t


@njit(cache=True, inline="always")
def _action_of_cell(cell: int) -> int:
    """The action of a kernel cell index of the action area (:func:`cell_of_action` undone)."""
    return (cell // AREA_SIDE - _SHIFT) * NAMED_SIDE + cell % AREA_SIDE - _SHIFT


@njit(cache=True)
def _observe_cell(state: Array, cell: int, obs: Array) -> None:
    a = _action_of_cell(cell)
    top = state[TOP_CARD + cell]
    if top >= 0:
        obs[OBS_OCCUPIED + a] = 1
        obs[OBS_RANK + a] = rank_of(top)
        obs[OBS_FACE_UP + a] = state[TOP_FACE_UP + cell]
        obs[OBS_HEIGHT + a] = state[PILE_HEIGHT + cell]
        obs[OBS_BURIED + a] = state[PILE_BURIED + cell]


@njit(cache=True)
def _observe_scalars(state: Array, stock: Array, obs: Array) -> None:
    turn = state[TURN]
    obs[OBS_CARD] = rank_of(stock[turn]) if state[STATUS] == STATUS_PLAYING else 0
    obs[OBS_STOCK] = DECK_SIZE - turn
    obs[OBS_FACE_DOWN] = face_down(state, state[FACE_DOWN_TOPS], state[BURIED_FACE_DOWN])
    obs[OBS_DIAGONAL] = state[DIAGONAL_FLAG]
    obs[OBS_COUNT_BURIED] = state[COUNT_BURIED_FLAG]


@njit(cache=True)
def observe(state: Array, stock: Array, obs: Array) -> None:
    """Write the observation of ``state`` (see the module's documentation) into ``obs``."""
    obs[:] = 0
    for a in range(ACTIONS):
        _observe_cell(state, cell_of_action(a), obs)
    # The unseen cards: below the card to place, or every card not laid once the game is over (the card
    # that would have come next was never seen).
    start = state[TURN] + 1 if state[STATUS] == STATUS_PLAYING else state[TURN]
    for i in range(start, DECK_SIZE):
        obs[OBS_UNSEEN + rank_of(stock[i]) - 1] += 1
    _observe_scalars(state, stock, obs)


@njit(cache=True, inline="always")
def observe_new_game(state: Array, stock: Array, obs: Array) -> None:
    """Write the observation of a new game's empty grid: what :func:`observe` writes there, faster."""
    obs[:] = 0
    for rank in range(RANK_COUNT):
        obs[OBS_UNSEEN + rank] = DECK_SIZE // RANK_COUNT
    card = rank_of(stock[0])
    obs[OBS_UNSEEN + card - 1] -= 1
    obs[OBS_CARD] = card
    obs[OBS_STOCK] = DECK_SIZE
    obs[OBS_DIAGONAL] = state[DIAGONAL_FLAG]
    obs[OBS_COUNT_BURIED] = state[COUNT_BURIED_FLAG]


@njit(cache=True, inline="always")
def observe_after_move(state: Array, stock: Array, obs: Array, cell: int) -> None:
    """Bring ``obs``, the observation before a card was laid at ``cell``, up to date: what :func:`observe`
    writes, faster.

    A move changes only the cell it was laid on and the faces of the lines that turned over; while the game
    goes on it also takes the new card to place out of the unseen ones. All 49 faces are copied, empty cells
    included (0 in the state as in the observation): a fixed copy costs less than asking which lines turned.
    """
    a = _action_of_cell(cell)
    obs[OBS_OCCUPIED + a] = 1
    obs[OBS_RANK + a] = rank_of(state[TOP_CARD + cell])
    obs[OBS_HEIGHT + a] = state[PILE_HEIGHT + cell]
    obs[OBS_BURIED + a] = state[PILE_BURIED + cell]
    for r in range(NAMED_SIDE):
        for c in range(NAMED_SIDE):
            obs[OBS_FACE_UP + r * NAMED_SIDE + c] = state[TOP_FACE_UP + (r + _SHIFT) * AREA_SIDE + c + _SHIFT]
    turn = state[TURN]
    if state[STATUS] == STATUS_PLAYING:
        card = rank_of(stock[turn])
        obs[OBS_CARD] = card
        obs[OBS_UNSEEN + card - 1] -= 1
    else:
        obs[OBS_CARD] = 0
    obs[OBS_STOCK] = DECK_SIZE - turn
    obs[OBS_FACE_DOWN] = face_down(state, state[FACE_DOWN_TOPS], state[BURIED_FACE_DOWN])


@njit(cache=True, inline="always")
def _potential(state: Array) -> float:
    """The shaping potential: minus the face-down cards counting towards the limit, 0 once the game is over."""
    if state[STATUS] != STATUS_PLAYING:
        return 0.0
    return -float(face_down(state, state[FACE_DOWN_TOPS], state[BURIED_FACE_DOWN]))


@njit(cache=True, inline="always")
def play_action(state: Array, stock: Array, action: int, reward_mode: int, shaping: float) -> float:
    """Lay the card to place at the (legal) ``action``; return the reward of the step."""
    before = _potential(state) if shaping else 0.0
    place(state, cell_of_action(action), stock[state[TURN]])
    reward = shaping * (_potential(state) - before) if shaping else 0.0
    if state[STATUS] == STATUS_WON:
        reward += 1.0 if reward_mode == REWARD_WIN else float(state[SCORE])
    return reward


@njit(cache=True, inline="always")
def start_game(state: Array, stock: Array, template: Array, deal: np.uint64) -> None:
    """Set ``state`` to a new game (``template``: an empty state of the variant) of deal number ``deal``."""
    copy_state(state, template)
    deal_into(stock, deal)


@njit(cache=True)
def _fits(matrix: npt.NDArray[Any], games: int, width: int) -> bool:
    """Whether ``matrix`` is C-contiguous with one row of ``width`` per game."""
    return contiguous(matrix) and matrix.shape[0] == games and matrix.shape[1] == width


@njit(cache=True)
def _check_rows(states: Array, stocks: Array, obs: Array, masks: Array, boards: Boards) -> None:
    """The per-game matrices must be C-contiguous, one row per game of their width: the steps read and write
    them as :func:`unmanaged` rows, which nothing else checks."""
    n = states.shape[0]
    if not (_fits(states, n, STATE_SIZE) and _fits(stocks, n, DECK_SIZE) and _fits(obs, n, OBS_SIZE)):
        raise ValueError("the states, stocks and observations must be C-contiguous, one row per game")
    if not (_fits(masks, n, ACTIONS) and _fits(boards, n, BOARDS)):
        raise ValueError("the masks and boards must be C-contiguous, one row per game")


@njit(cache=True)
def _check_entries(entries: npt.NDArray[Any], games: int) -> None:
    """A per-game vector (deals, generators, actions, rewards, terminations, pending flags) needs one entry per
    game."""
    if entries.shape[0] != games:
        raise ValueError(
            "the deals, generators, actions, rewards, terminations and pending flags need one entry per game"
        )


@njit(cache=True)
def _check_template(template: Array) -> None:
    if template.shape[0] != STATE_SIZE:
        raise ValueError("the template must be one empty state")


@njit(cache=True)
def reset_envs(
    states: Array,
    stocks: Array,
    template: Array,
    deals: Deals,
    obs: Array,
    masks: Array,
    boards: Boards,
    pending: Array,
) -> None:
    """Start a new game of ``deals[i]`` in every environment i; write the observations and masks."""
    _check_rows(states, stocks, obs, masks, boards)
    _check_entries(deals, states.shape[0])
    _check_entries(pending, states.shape[0])
    _check_template(template)
    # Unmanaged, so that the per-game calls below pay no reference counting (see foursquare.kernel.rows).
    states, stocks, obs, masks = unmanaged(states), unmanaged(stocks), unmanaged(obs), unmanaged(masks)
    boards = unmanaged(boards)
    for i in range(states.shape[0]):
        _new_game(states, stocks, template, deals, obs, masks, boards, i)
        pending[i] = 0


@njit(cache=True, inline="always")
def _new_game(
    states: Array, stocks: Array, template: Array, deals: Deals, obs: Array, masks: Array, boards: Boards, i: int
) -> None:
    """Start environment i's game of ``deals[i]``: its state, stock, observation, boards and mask."""
    state, stock = row(states, i), row(stocks, i)
    start_game(state, stock, template, deals[i])
    observe_new_game(state, stock, row(obs, i))
    boards[i, BOARD_OCCUPIED] = 0
    boards[i, BOARD_OPEN] = 0
    boards[i, BOARD_LEGAL] = legal_bits(state, np.uint64(0), np.uint64(0))
    write_mask(row(masks, i), boards[i, BOARD_LEGAL])


@njit(cache=True, inline="always")
def draw_deal(rngs: Deals, i: int, split: int) -> np.uint64:
    """The next deal number of environment i's generator (SplitMix64, state ``rngs[i]``) in ``split``: a test
    deal from its 64 bits modulo :data:`TEST_DEALS`, a train deal by drawing again past any test deal."""
    while True:
        rngs[i] = rngs[i] + GOLDEN
        z = mix(rngs[i])
        if split == SPLIT_TEST:
            deal: np.uint64 = np.uint64(1) + z % np.uint64(TEST_DEALS)
            return deal
        if split != SPLIT_TRAIN or z == 0 or z > TEST_DEALS:
            return z


@njit(cache=True)
def draw_deals(rngs: Deals, split: int, deals: Deals) -> None:
    """``deals[i]`` = the next deal of environment i's generator in ``split`` (:func:`draw_deal`), for every i."""
    _check_entries(rngs, deals.shape[0])
    for i in range(deals.shape[0]):
        deals[i] = draw_deal(rngs, i, split)


@njit(cache=True)
def first_illegal(actions: IntArray, masks: Array, pending: Array) -> int:
    """The first environment whose action is not legal (ignoring those about to reset), or -1."""
    for i in range(actions.shape[0]):
        a = actions[i]
        if pending[i] == 0 and (a < 0 or a >= ACTIONS or masks[i, a] == 0):
            return i
    return -1


@njit(cache=True)
def step_envs(
    states: Array,
    stocks: Array,
    template: Array,
    deals: Deals,
    rngs: Deals,
    split: int,
    actions: IntArray,
    illegal_mode: int,
    illegal_reward: float,
    reward_mode: int,
    shaping: float,
    obs: Array,
    masks: Array,
    boards: Boards,
    rewards: Floats,
    terminated: Flags,
    pending: Array,
    scores: Array,
) -> int:
    """Advance every environment one step, with Gymnasium's next-step autoreset; return -1, or the first
    environment with an illegal action when ``illegal_mode`` is :data:`ILLEGAL_RAISE` (then nothing changed).

    An environment whose episode ended at the previous step (``pending[i]``) ignores its action and starts
    a new game of a deal number drawn in ``split`` from its own generator ``rngs[i]`` (:func:`draw_deal`; stored
    in ``deals[i]``), so that each environment's deals depend on its seed alone. Any other plays its action,
    or under :data:`ILLEGAL_LOSE` ends its episode with ``illegal_reward`` when the action is illegal. The
    observations, masks, rewards and terminations are written in place, and for an episode that ends, its game's
    score in ``scores[i]``: the cards left after a win, -1 after a loss or an illegal action.
    """
    _check_rows(states, stocks, obs, masks, boards)
    n = states.shape[0]
    _check_entries(deals, n)
    _check_entries(rngs, n)
    _check_entries(actions, n)
    _check_entries(rewards, n)
    _check_entries(terminated, n)
    _check_entries(pending, n)
    _check_entries(scores, n)
    _check_template(template)
    if illegal_mode == ILLEGAL_RAISE:
        bad = first_illegal(actions, masks, pending)
        if bad >= 0:
            return bad
    # Unmanaged, so that the per-game calls below pay no reference counting (see foursquare.kernel.rows).
    states, stocks, obs, masks = unmanaged(states), unmanaged(stocks), unmanaged(obs), unmanaged(masks)
    boards = unmanaged(boards)
    for i in range(states.shape[0]):
        a = actions[i]
        if pending[i]:
            deals[i] = draw_deal(rngs, i, split)
            _new_game(states, stocks, template, deals, obs, masks, boards, i)
            rewards[i] = 0.0
            terminated[i] = False
            pending[i] = 0
        elif a < 0 or a >= ACTIONS or masks[i, a] == 0:
            rewards[i] = illegal_reward
            terminated[i] = True
            pending[i] = 1
            scores[i] = -1
            boards[i, BOARD_LEGAL] = 0
            row(masks, i)[:] = 0  # the position is unchanged: its observation stands
        else:
            rewards[i] = _play(states, stocks, obs, masks, boards, i, a, reward_mode, shaping)
            status = states[i, STATUS]
            done = status != STATUS_PLAYING
            terminated[i] = done
            pending[i] = 1 if done else 0
            if done:
                scores[i] = states[i, SCORE] if status == STATUS_WON else -1
    return -1


@njit(cache=True, inline="always")
def _play(
    states: Array,
    stocks: Array,
    obs: Array,
    masks: Array,
    boards: Boards,
    i: int,
    action: int,
    reward_mode: int,
    shaping: float,
) -> float:
    """Environment i plays its legal ``action``: its state, observation, boards and mask; the step's reward."""
    state, stock, cell = row(states, i), row(stocks, i), cell_of_action(action)
    reward = play_action(state, stock, action, reward_mode, shaping)
    observe_after_move(state, stock, row(obs, i), cell)
    occupied, open_piles = lay(boards[i, BOARD_OCCUPIED], boards[i, BOARD_OPEN], state, action, cell)
    boards[i, BOARD_OCCUPIED] = occupied
    boards[i, BOARD_OPEN] = open_piles
    legal_now = legal_bits(state, occupied, open_piles)
    update_mask(row(masks, i), boards[i, BOARD_LEGAL], legal_now)
    boards[i, BOARD_LEGAL] = legal_now
    return reward


@njit(cache=True)
def rollout_actions(states: Array, stocks: Array, pending: Array, weights: Weights, out: IntArray) -> None:
    """Write into ``out`` the action the best player's rollout policy
    (:func:`~foursquare.kernel.policies.policy_choice`) takes in every environment: demonstrations for
    imitation learning. The policy reads only what the player sees, the board and the card to place. An
    environment about to reset (``pending``) gets 0, which its next step ignores."""
    n = states.shape[0]
    if not (_fits(states, n, STATE_SIZE) and _fits(stocks, n, DECK_SIZE)):
        raise ValueError("the states and stocks must be C-contiguous, one row per game")
    _check_entries(pending, n)
    _check_entries(out, n)
    states, stocks = unmanaged(states), unmanaged(stocks)
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    work = np.empty(STATE_SIZE, dtype=np.int8)
    for i in range(states.shape[0]):
        state = row(states, i)
        out[i] = 0
        if pending[i] == 0 and state[STATUS] == STATUS_PLAYING:
            n = legal(state, moves)
            cell = policy_choice(state, stocks[i, state[TURN]], moves, n, weights, work)
            out[i] = _action_of_cell(cell)
