"""Environment steps per second, with observations and action masks (``foursquare bench --rl``).

For each number of environments N it steps three batches of N games, each agent playing the first legal cell
of every mask:

- ``vector``: :class:`~foursquare.rl.FoursquareVectorEnv` with ``copy=False`` (its own arrays, overwritten at
  the next step; the compiled N-game step and nothing else);
- ``vector_copy``: the same with the default ``copy=True`` (observations, rewards and masks as copies);
- ``sync``: Gymnasium's ``SyncVectorEnv`` of N plain :class:`~foursquare.rl.FoursquareEnv`.

``loop`` counts the whole loop (choosing the actions from the masks with numpy included), ``step`` the time
inside ``step()`` alone. Each is given by the wall clock and by the process's CPU time (``*_cpu``), the
fairer one-core figure on a shared machine. The report also says what it was measured on (:func:`machine`),
so that figures are never quoted without it. docs/performance.md has figures and how to read them.

>>> report = bench_rl([2], seconds=0.01)
>>> sorted(report["sizes"]), sorted(report["sizes"]["2"]["vector"])
(['2'], ['loop', 'loop_cpu', 'step', 'step_cpu', 'steps'])
"""

from __future__ import annotations

import datetime as dt
import os
import platform
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Literal, Protocol, TypedDict

import gymnasium
import numba
import numpy as np

from foursquare import __version__
from foursquare.engine import Variant
from foursquare.rl.env import FoursquareEnv
from foursquare.rl.vector_env import FoursquareVectorEnv

#: The most environments one measurement steps: a ``SyncVectorEnv`` of this many plain environments is already
#: hundreds of megabytes and seconds to build.
MAX_ENVS = 16_384
#: The most seconds one measurement may be given (there are three per size).
MAX_SECONDS = 600.0
#: What ``foursquare bench --rl`` measures unless told otherwise: one game, a small batch and a large one (the
#: sizes docs/performance.md reports).
DEFAULT_SIZES = (1, 64, 1024)
DEFAULT_SECONDS = 2.0
#: Steps taken before the clocks start: the first compiles (or loads numba's cache) and fills the caches.
WARM_UP_STEPS = 3

Kind = Literal["vector", "vector_copy", "sync"]
KINDS: tuple[Kind, ...] = ("vector", "vector_copy", "sync")


class Rates(TypedDict):
    """Steps per second of one measurement (a step of N environments counts N steps)."""

    loop: float
    step: float
    loop_cpu: float
    step_cpu: float
    steps: int


class SizeReport(TypedDict):
    num_envs: int
    vector: Rates
    vector_copy: Rates
    sync: Rates
    #: ``vector`` over ``sync``: how many times faster the compiled batch is than Gymnasium's loop.
    speedup_loop: float
    speedup_loop_cpu: float
    speedup_step: float
    speedup_step_cpu: float


class Machine(TypedDict):
    cpu_count: int | None
    #: CPUs this process may run on (``taskset -c 0`` makes it 1); ``None`` where the system does not say.
    cpus_usable: int | None
    cpu_model: str | None
    system: str
    architecture: str
    python: str
    python_implementation: str
    numpy: str
    numba: str
    gymnasium: str
    foursquare: str
    #: The 1-, 5- and 15-minute load averages before and after the run (``None`` where there are none).
    load_average_before: list[float] | None
    load_average_after: list[float] | None


class Report(TypedDict):
    measured_at: str
    seconds: float
    variant: dict[str, Any]
    machine: Machine
    #: ``str(N)`` → its figures, in the order asked for.
    sizes: dict[str, SizeReport]


class Stepper(Protocol):
    """What :func:`measure` needs of a batch of environments: Gymnasium's ``VectorEnv`` has it."""

    @property
    def num_envs(self) -> int: ...

    def reset(self, *, seed: int | None = None) -> tuple[Any, dict[str, Any]]: ...

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]: ...


def measure(envs: Stepper, seconds: float) -> Rates:
    """Step ``envs`` for about ``seconds`` (at least one step), each agent taking the first legal action of its
    mask; steps per second of the loop and of ``step()`` alone, by the wall clock and by the CPU time."""
    _, info = envs.reset(seed=0)
    masks = info["action_mask"]
    for _ in range(WARM_UP_STEPS):
        _, _, _, _, info = envs.step(masks.argmax(1))
        masks = info["action_mask"]
    n = envs.num_envs
    steps = 0
    in_step = in_step_cpu = 0.0
    start, start_cpu = time.perf_counter(), time.process_time()
    now = start
    while steps == 0 or now - start < seconds:
        actions = masks.argmax(1)
        before, before_cpu = time.perf_counter(), time.process_time()
        _, _, _, _, info = envs.step(actions)
        now, now_cpu = time.perf_counter(), time.process_time()
        in_step += now - before
        in_step_cpu += now_cpu - before_cpu
        masks = info["action_mask"]
        steps += n
    total, total_cpu = time.perf_counter() - start, time.process_time() - start_cpu
    tiny = 1e-9  # a clock that did not tick (CPU time's resolution can be coarse) must not divide by zero
    return {
        "loop": steps / max(total, tiny),
        "step": steps / max(in_step, tiny),
        "loop_cpu": steps / max(total_cpu, tiny),
        "step_cpu": steps / max(in_step_cpu, tiny),
        "steps": steps,
    }


def make_envs(kind: Kind, num_envs: int, variant: Variant) -> Stepper:
    """The batch of ``num_envs`` games that ``kind`` names, under ``variant``'s house rules."""
    # "raise", as docs/performance.md's figures use: the agent plays legal cells only anyway
    rules: dict[str, Any] = {"adjacency": variant.adjacency, "count_buried": variant.count_buried,
                             "illegal_action": "raise"}
    if kind == "vector":
        return FoursquareVectorEnv(num_envs, copy=False, **rules)
    if kind == "vector_copy":
        return FoursquareVectorEnv(num_envs, **rules)
    if kind == "sync":
        return gymnasium.vector.SyncVectorEnv([lambda: FoursquareEnv(**rules) for _ in range(num_envs)])
    raise ValueError(f"no kind of environment {kind!r}; the kinds are {', '.join(KINDS)}")


def check_sizes(sizes: Iterable[int]) -> list[int]:
    """The sizes as given, without repeats; :class:`ValueError` unless each is a whole number 1–:data:`MAX_ENVS`."""
    checked: list[int] = []
    for n in sizes:
        if isinstance(n, bool) or not isinstance(n, int | np.integer) or not 1 <= n <= MAX_ENVS:
            raise ValueError(f"a number of environments must be a whole number from 1 to {MAX_ENVS}, not {n!r}")
        if int(n) not in checked:
            checked.append(int(n))
    if not checked:
        raise ValueError("no numbers of environments to measure")
    return checked


def check_seconds(seconds: float) -> float:
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not 0 < seconds <= MAX_SECONDS:
        raise ValueError(f"seconds per measurement must be more than 0 and at most {MAX_SECONDS:g}, not {seconds!r}")
    return float(seconds)


def bench_size(num_envs: int, seconds: float, variant: Variant) -> SizeReport:
    """The three measurements of one size and the vector environment's speed-up over ``SyncVectorEnv``."""
    rates = {kind: measure(make_envs(kind, num_envs, variant), seconds) for kind in KINDS}
    vector, sync = rates["vector"], rates["sync"]
    return {
        "num_envs": num_envs,
        "vector": vector,
        "vector_copy": rates["vector_copy"],
        "sync": sync,
        "speedup_loop": vector["loop"] / sync["loop"],
        "speedup_loop_cpu": vector["loop_cpu"] / sync["loop_cpu"],
        "speedup_step": vector["step"] / sync["step"],
        "speedup_step_cpu": vector["step_cpu"] / sync["step_cpu"],
    }


def bench_rl(
    sizes: Sequence[int] = DEFAULT_SIZES,
    seconds: float = DEFAULT_SECONDS,
    variant: Variant | None = None,
    progress: Callable[[SizeReport], None] | None = None,
) -> Report:
    """Measure every size in turn (``progress`` is given each size's figures as they are done); the report
    is plain JSON data. :class:`ValueError` for sizes or seconds out of range (:func:`check_sizes`)."""
    checked = check_sizes(sizes)
    seconds = check_seconds(seconds)
    variant = variant if variant is not None else Variant()
    measured_at = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    before = _load_average()
    figures: dict[str, SizeReport] = {}
    for n in checked:
        figures[str(n)] = bench_size(n, seconds, variant)
        if progress is not None:
            progress(figures[str(n)])
    return {
        "measured_at": measured_at,
        "seconds": seconds,
        "variant": variant.to_json(),
        "machine": machine(load_average_before=before),
        "sizes": figures,
    }


def machine(load_average_before: list[float] | None = None) -> Machine:
    """What figures were measured on: the CPUs, the system, the versions, how busy the machine was."""
    usable: int | None = None
    if hasattr(os, "sched_getaffinity"):
        usable = len(os.sched_getaffinity(0))
    return {
        "cpu_count": os.cpu_count(),
        "cpus_usable": usable,
        "cpu_model": _cpu_model(),
        "system": platform.system(),
        "architecture": platform.machine(),
        "python": platform.python_version(),
        "python_implementation": platform.python_implementation(),
        "numpy": np.__version__,
        "numba": str(numba.__version__),
        "gymnasium": gymnasium.__version__,
        "foursquare": __version__,
        "load_average_before": load_average_before,
        "load_average_after": _load_average(),
    }


def _load_average() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):  # Windows has none
        return None


def _cpu_model() -> str | None:
    """The processor's name as Linux gives it (``platform.processor()`` is often empty or just ``x86_64``)."""
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return platform.processor() or None
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() in ("model name", "Processor", "cpu model") and value.strip():
            return value.strip()
    return platform.processor() or None


__all__ = [
    "DEFAULT_SECONDS",
    "DEFAULT_SIZES",
    "KINDS",
    "MAX_ENVS",
    "MAX_SECONDS",
    "Kind",
    "Machine",
    "Rates",
    "Report",
    "SizeReport",
    "Stepper",
    "bench_rl",
    "bench_size",
    "check_seconds",
    "check_sizes",
    "machine",
    "make_envs",
    "measure",
]
