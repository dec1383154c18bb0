"""The kernel's random numbers: SplitMix64, so that seeded results are the same on every machine."""

from __future__ import annotations

import numpy as np
from numba import njit

from foursquare.kernel.state import Array, Rng

_MASK64 = 2**64 - 1


def make_rng(seed: int) -> Rng:
    """A generator state for the compiled functions (the seed taken modulo 2⁶⁴)."""
    return np.array([seed & _MASK64], dtype=np.uint64)


@njit(cache=True)
def next_random(rng: Rng) -> np.uint64:
    """The next 64-bit number of the generator whose state is ``rng[0]``."""
    rng[0] = rng[0] + np.uint64(0x9E3779B97F4A7C15)
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    result: np.uint64 = z ^ (z >> np.uint64(31))
    return result


@njit(cache=True)
def below(rng: Rng, n: int) -> int:
    """A random int in 0..n-1."""
    return int(next_random(rng) % np.uint64(n))


@njit(cache=True)
def shuffle_tail(stock: Array, start: int, rng: Rng) -> None:
    """Shuffle ``stock[start:]`` in place (Fisher–Yates)."""
    for i in range(stock.shape[0] - 1, start, -1):
        j = start + below(rng, i - start + 1)
        t = stock[i]
        stock[i] = stock[j]
        stock[j] = t
