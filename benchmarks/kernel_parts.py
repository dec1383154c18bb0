"""The kernel's parts timed one by one: the figures quoted in docs/performance.md and the kernel's docstrings.

    taskset -c 0 .venv/bin/python benchmarks/kernel_parts.py

Prints, each the fastest of five runs:

- ``place``: ns per placement over positions of random games (the copy of the state each needs subtracted);
- ``legal`` and ``legal_bits``: ns per position for the legal cells by scanning and from the bit boards;
- ``scalars, counted`` and ``scalars, unmanaged``: ns to write the observation's scalars through rows of a
  matrix made by indexing (numba counts references around the call) and by :func:`foursquare.kernel.rows.row`;
- ``deal, dividing`` and ``deal, multiplying``: ns to shuffle a deal with a 64-bit division per card, as the
  kernel's shuffle did (it also put the generator in an array, which costs nothing measurable), and with
  :func:`foursquare.kernel.rng.remainder`, as it does;
- ``rollout policy``: games per second of ``kernel.policy_games`` over deals 1–10,000;
- ``rollout_actions``: µs per game at N = 1024, ten moves into the games;
- ``steps a game``: how many steps of ``foursquare bench --rl``'s agent (the first legal cell of every mask) an
  episode lasts, its reset included: how often the vector step starts a new game.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
from numba import njit

from foursquare import kernel as K
from foursquare.cards import deal_stock
from foursquare.engine import Variant
from foursquare.kernel import boards as B
from foursquare.kernel import rng, rules
from foursquare.kernel import vector as V
from foursquare.kernel.rows import row, unmanaged
from foursquare.kernel.state import copy_state
from foursquare.rl import FoursquareVectorEnv

POSITIONS = 1500
REPEATS = 100
DEALS = 200_000


def fastest(run: Callable[[], object], runs: int = 5) -> float:
    run()  # compiles
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def trace() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """States before each move of random games, the move's cell and card, and the bit boards of the state."""
    stocks, moves, lengths = K.random_games(100, seed=1, variant=Variant())
    states, cells, cards, boards = [], [], [], []
    for g in range(len(stocks)):
        state, occupied, open_piles = K.new_state(), np.uint64(0), np.uint64(0)
        for t in range(int(lengths[g])):
            states.append(state.copy())
            cells.append(int(moves[g, t]))
            cards.append(int(stocks[g, t]))
            boards.append((occupied, open_piles))
            move = K.move_of(int(moves[g, t]))
            K.place(state, int(moves[g, t]), int(stocks[g, t]))
            occupied, open_piles = B.lay(occupied, open_piles, state, V.action_of(move.row, move.col), cells[-1])
    n = POSITIONS
    return np.array(states[:n]), np.array(cells[:n]), np.array(cards[:n], np.int8), np.array(boards[:n], np.uint64)


@njit
def _places(states: np.ndarray, work: np.ndarray, cells: np.ndarray, cards: np.ndarray, place: bool) -> int:
    states, work = unmanaged(states), unmanaged(work)
    down = 0  # read back, so that the placements are not optimised away
    for _ in range(REPEATS):
        for i in range(states.shape[0]):
            copy_state(row(work, i), row(states, i))
            if place:
                rules.place(row(work, i), cells[i], cards[i])
            down += work[i, K.FACE_DOWN_TOPS]
    return down


@njit
def _legal(states: np.ndarray, boards: np.ndarray, bits: bool) -> int:
    states = unmanaged(states)
    moves = np.empty(K.MAX_MOVES, dtype=np.int64)
    found = 0
    for _ in range(REPEATS):
        for i in range(states.shape[0]):
            if bits:
                found += B.legal_bits(row(states, i), boards[i, 0], boards[i, 1]) != 0
            else:
                found += rules.legal(row(states, i), moves)
    return found


@njit
def _scalars(states: np.ndarray, stocks: np.ndarray, obs: np.ndarray, counted: bool) -> None:
    for _ in range(REPEATS):
        for i in range(states.shape[0]):
            if counted:
                V._observe_scalars(states[i], stocks[i], obs[i])
            else:
                V._observe_scalars(row(states, i), row(stocks, i), row(obs, i))


@njit
def _deals(stock: np.ndarray, count: int, dividing: bool) -> None:
    for deal in range(count):
        if dividing:  # the shuffle as it was, with a 64-bit division per card
            for i in range(40):
                stock[i] = i
            state = np.uint64(deal)
            for i in range(39, 0, -1):
                state += rng.GOLDEN
                j = int(rng.mix(state) % np.uint64(i + 1))
                stock[i], stock[j] = stock[j], stock[i]
        else:
            V.deal_into(stock, np.uint64(deal))


def main() -> None:
    states, cells, cards, boards = trace()
    work = states.copy()
    per = POSITIONS * REPEATS
    copy = fastest(lambda: _places(states, work, cells, cards, False))
    place = fastest(lambda: _places(states, work, cells, cards, True))
    print(f"place               {(place - copy) / per * 1e9:8.1f} ns")
    print(f"legal               {fastest(lambda: _legal(states, boards, False)) / per * 1e9:8.1f} ns")
    print(f"legal_bits          {fastest(lambda: _legal(states, boards, True)) / per * 1e9:8.1f} ns")
    stocks = np.zeros((POSITIONS, 40), dtype=np.int8)
    obs = np.zeros((POSITIONS, V.OBS_SIZE), dtype=np.int8)
    for counted in (True, False):
        seconds = fastest(lambda counted=counted: _scalars(states, stocks, obs, counted))
        print(f"scalars, {'counted  ' if counted else 'unmanaged'}  {seconds / per * 1e9:8.1f} ns")
    stock = np.zeros(40, dtype=np.int8)
    for dividing in (True, False):
        seconds = fastest(lambda dividing=dividing: _deals(stock, DEALS, dividing))
        print(f"deal, {'dividing   ' if dividing else 'multiplying'}   {seconds / DEALS * 1e9:8.1f} ns")
    deals = np.array([[int(c) for c in deal_stock(d)] for d in range(1, 10_001)], dtype=np.int8)
    seconds = fastest(lambda: K.policy_games(deals, K.new_state(), K.POLICY_WEIGHTS), runs=3)
    print(f"rollout policy      {len(deals) / seconds:8.0f} games/s")
    envs = FoursquareVectorEnv(1024, copy=False, illegal_action="raise")  # as foursquare bench --rl measures
    envs.reset(seed=0)
    for _ in range(10):  # into the middle game, where there are cells to choose among
        envs.step(envs.rollout_actions())
    print(f"rollout_actions     {fastest(envs.rollout_actions) / 1024 * 1e6:8.2f} µs a game")
    _, info = envs.reset(seed=0)
    steps, episodes = 0, 0
    for _ in range(500):
        _, _, terminated, _, info = envs.step(info["action_mask"].argmax(1))
        steps, episodes = steps + len(terminated), episodes + int(terminated.sum())
    print(f"steps a game        {steps / episodes:8.1f}")


if __name__ == "__main__":
    main()
