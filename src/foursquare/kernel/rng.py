"""The kernel's random numbers: SplitMix64, so that seeded results are the same on every machine."""

from __future__ import annotations

import numpy as np

from foursquare.jitcache import njit
from foursquare.kernel.state import Array, Rng

_MASK64 = 2**64 - 1
GOLDEN = np.uint64(0x9E3779B97F4A7C15)

# Exact remainders without a division, the slowest instruction of a shuffle (benchmarks/kernel_parts.py times
# a deal both ways), for divisors d up to 2**L, L = _DIVISOR_BITS: Lemire, Kaser and Kurz's direct
# computation ("Faster remainder by direct computation", 2019, theorem 1). With F fraction bits and
# c = ceil(2**F / d), c / 2**F lies within 1 / (d * 2**(F - L)) above 1 / d, so for every n below 2**(F - L)
# the fraction of c * n / 2**F, times d, rounds down to n % d. A 64-bit n is first folded to
# (n >> 32) * (2**32 % d) + (n & (2**32 - 1)), which has the same remainder and lies below d * 2**32 <= 2**38;
# F = 64 - L = 58 keeps that below 2**(F - L) = 2**52 and the product with d below 2**64.
_DIVISOR_BITS = 6
MAX_DIVISOR = 1 << _DIVISOR_BITS
_FRACTION_BITS = 64 - _DIVISOR_BITS
_FRACTION_MASK = np.uint64((1 << _FRACTION_BITS) - 1)
_MAGIC = np.array([0] + [-(-(1 << _FRACTION_BITS) // d) for d in range(1, MAX_DIVISOR + 1)], dtype=np.uint64)
_WRAP = np.array([0] + [(1 << 32) % d for d in range(1, MAX_DIVISOR + 1)], dtype=np.uint64)
_LOW32 = np.uint64(0xFFFFFFFF)
_32 = np.uint64(32)
_F = np.uint64(_FRACTION_BITS)


def make_rng(seed: int) -> Rng:
    """A generator state for the compiled functions (the seed taken modulo 2⁶⁴)."""
    return np.array([seed & _MASK64], dtype=np.uint64)


@njit(cache=True, inline="always")
def mix(z: np.uint64) -> np.uint64:
    """SplitMix64's output for the generator state ``z`` (already advanced)."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    result: np.uint64 = z ^ (z >> np.uint64(31))
    return result


@njit(cache=True, inline="always")
def next_random(rng: Rng) -> np.uint64:
    """The next 64-bit number of the generator whose state is ``rng[0]``."""
    rng[0] = rng[0] + GOLDEN
    return mix(rng[0])


@njit(cache=True, inline="always")
def remainder(n: np.uint64, d: int) -> int:
    """``n % d`` for a divisor ``d`` from 1 to :data:`MAX_DIVISOR`, exactly, by multiplications alone (the
    caller keeps ``d`` in that range: any other reads past the tables)."""
    folded = (n >> _32) * _WRAP[d] + (n & _LOW32)
    low = (_MAGIC[d] * folded) & _FRACTION_MASK
    return int((low * np.uint64(d)) >> _F)


@njit(cache=True)
def below(rng: Rng, n: int) -> int:
    """A random int in 0..n-1."""
    if 0 < n <= MAX_DIVISOR:
        return remainder(next_random(rng), n)
    return int(next_random(rng) % np.uint64(n))


@njit(cache=True)
def shuffle_tail(stock: Array, start: int, rng: Rng) -> None:
    """Shuffle ``stock[start:]`` in place (Fisher–Yates)."""
    for i in range(stock.shape[0] - 1, start, -1):
        j = start + below(rng, i - start + 1)
        t = stock[i]
        stock[i] = stock[j]
        stock[j] = t
