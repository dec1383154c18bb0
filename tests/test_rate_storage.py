"""The in-memory storage of the rate limits (one server on SQLite): a moving window per key, forgotten as it goes,
with no timer thread; its clock is the test's."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from foursquare.web import rate_limits
from foursquare.web.rate_limits import SWEEP_EVERY, LocalStorage, RateLimits


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def time(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(rate_limits, "time", SimpleNamespace(time=clock.time))
    return clock


def test_a_key_takes_its_limit_in_a_window_then_again_once_the_oldest_hit_left_it(clock: Clock) -> None:
    storage = LocalStorage()
    assert storage.acquire_entry("k", 2, 10)
    clock.now += 4
    assert storage.acquire_entry("k", 2, 10)
    assert not storage.acquire_entry("k", 2, 10)
    assert storage.get_moving_window("k", 2, 10) == (clock.now - 4, 2)
    clock.now += 6.5  # the first hit left the window, the second is still in it
    assert storage.get_moving_window("k", 2, 10) == (clock.now - 6.5, 1)
    assert storage.acquire_entry("k", 2, 10)
    assert not storage.acquire_entry("k", 2, 10)
    assert not storage.acquire_entry("other", 1, 10, amount=2)  # more than the limit at once


def test_clients_gone_quiet_are_forgotten_by_the_sweep(clock: Clock) -> None:
    storage = LocalStorage()
    for client in range(100):
        storage.acquire_entry(f"gone-{client}", 5, 10)
    clock.now += SWEEP_EVERY + 1
    storage.acquire_entry("here", 5, 10)
    assert storage.reset() == 1  # "here" alone was left


def test_the_limits_refuse_with_the_seconds_until_a_place_frees(clock: Clock) -> None:
    limits = RateLimits(hints="2/minute")
    assert [limits.retry_after("hints", "192.0.2.1") for _ in range(2)] == [None, None]
    clock.now += 20
    assert limits.retry_after("hints", "192.0.2.1") == 40
    assert limits.retry_after("hints", "192.0.2.2") is None  # another client
    clock.now += 40
    assert limits.retry_after("hints", "192.0.2.1") is None
