"""Fair use of the hint pool: one client floods the server with analyses while a player asks a hint every 5 s.

    .venv/bin/python benchmarks/hint_fairness.py                       # about 2.5 minutes
    .venv/bin/python benchmarks/hint_fairness.py --src /tmp/old/src    # the server of another checkout
    .venv/bin/python benchmarks/hint_fairness.py --json                # the same figures as JSON

It starts ``foursquare serve`` on a free port of localhost with a fresh database and its default pool (worker
processes, ``cores - 1`` of them), with rate limits far above what the flood sends (``FOURSQUARE_RATE_*``), so
that what is measured is how the pool shares its workers, not the limits. It waits until a hint is answered
(the workers are warm), then:

1. **the flood**, from 127.0.0.1: ``--loops`` loops at once, each dealing a game, losing it fast (a random
   legal card placement, back to back: about 15 moves) and asking for its analysis; a refusal (503 ``busy``)
   is not honoured: the loop deals its next game at once;
2. after ``--ramp`` seconds (the pool is full), **the player**, from 127.0.0.2 (another client for the server):
   a hint every ``--every`` seconds for ``--seconds`` seconds, playing the hint's best move each time (and a new
   game when one is over).

It reports the player's hints asked, answered and refused, the latency of those answered (p50, p95, max, from
sending the request to reading the answer), and the analyses the flood got and was refused. ``--src`` serves
the ``foursquare`` package of another checkout's ``src`` (its ``PYTHONPATH``), e.g. a clone at an older
commit, to compare with the same load. The load generator runs on the same machine as the server.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import shlex
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import numpy as np
from serving import GENEROUS_LIMITS, error_kind, first_hint, served  # this script's folder (benchmarks/) is sys.path[0]

FLOOD_ADDRESS = "127.0.0.1"
PLAYER_ADDRESS = "127.0.0.2"


@dataclass
class Figures:
    """What the run saw."""

    hint_latencies: list[float] = field(default_factory=list)
    hints_busy: int = 0
    hint_errors: Counter[str] = field(default_factory=Counter)
    flood_games: int = 0
    flood_analyses: int = 0
    flood_busy: int = 0
    flood_errors: Counter[str] = field(default_factory=Counter)

    def summary(self) -> dict[str, Any]:
        ms = np.array(self.hint_latencies) * 1000

        def pct(q: float) -> float | None:
            return round(float(np.percentile(ms, q)), 1) if len(ms) else None

        asked = len(ms) + self.hints_busy + sum(self.hint_errors.values())
        return {
            "hints_asked": asked,
            "hints_answered": len(ms),
            "hints_busy": self.hints_busy,
            "hint_errors": dict(self.hint_errors),
            "hint_p50_ms": pct(50),
            "hint_p95_ms": pct(95),
            "hint_max_ms": round(float(ms.max()), 1) if len(ms) else None,
            "flood_games": self.flood_games,
            "flood_analyses": self.flood_analyses,
            "flood_busy": self.flood_busy,
            "flood_errors": dict(self.flood_errors),
        }


@asynccontextmanager
async def client_from(
    url: str, address: str, timeout: float, keep_alive: bool = True
) -> AsyncIterator[httpx.AsyncClient]:
    """A client of its own (its own player cookie) whose connections come from ``address``.

    Without ``keep_alive``, a connection for each request: a request every 5 s on a kept connection would race
    the server closing it after 5 s idle, and fail now and then.
    """
    limits = httpx.Limits(max_keepalive_connections=None if keep_alive else 0)
    transport = httpx.AsyncHTTPTransport(local_address=address, limits=limits)
    async with httpx.AsyncClient(base_url=url, timeout=timeout, trust_env=False, transport=transport) as client:
        (await client.get("/api/stats")).raise_for_status()  # the cookie, before any request that changes a game
        yield client


async def flood_loop(url: str, figures: Figures, stop: asyncio.Event, seed: int) -> None:
    """Deal, lose fast, ask for the analysis; again, until ``stop``."""
    rng = random.Random(seed)
    async with client_from(url, FLOOD_ADDRESS, timeout=600) as client:
        while not stop.is_set():
            try:
                response = await lose_a_game(client, rng)
            except httpx.TransportError as exc:
                figures.flood_errors[type(exc).__name__] += 1
                continue
            figures.flood_games += 1
            if response.status_code == 200:
                figures.flood_analyses += 1
            elif response.status_code == 503 and response.json().get("code") == "busy":
                figures.flood_busy += 1  # not honoured: the next game at once
            else:
                figures.flood_errors[error_kind(response)] += 1


async def lose_a_game(client: httpx.AsyncClient, rng: random.Random) -> httpx.Response:
    """Deal, place cards at random until the game is over (lost, almost always), ask for its analysis."""
    response = await client.post("/api/games", json={})
    response.raise_for_status()
    state = response.json()
    while state["outcome"] == "playing":
        row, col = rng.choice(state["legal"])
        body = {"row": row, "col": col, "turn": state["turn"]}
        response = await client.post(f"/api/games/{state['id']}/moves", json=body)
        response.raise_for_status()
        state = response.json()
    return await client.get(f"/api/games/{state['id']}/analysis")


async def player(url: str, figures: Figures, every: float, seconds: float) -> None:
    """A hint every ``every`` seconds (or as soon as the last is answered, if later), its best move played."""
    async with client_from(url, PLAYER_ADDRESS, timeout=600, keep_alive=False) as client:
        state: dict[str, Any] = {"outcome": "over"}
        start = time.monotonic()
        asked = 0
        while time.monotonic() - start < seconds:
            if state["outcome"] != "playing":
                dealt = await client.post("/api/games", json={})
                dealt.raise_for_status()
                state = dealt.json()
            sent = time.perf_counter()
            asked += 1
            response: httpx.Response | None
            try:
                response = await client.get(f"/api/games/{state['id']}/hint")
            except httpx.TransportError as exc:
                figures.hint_errors[type(exc).__name__] += 1
                response = None
            latency = time.perf_counter() - sent
            if response is None:
                pass
            elif response.status_code == 200:
                figures.hint_latencies.append(latency)
                best = response.json()["moves"][0]
                body = {"row": best["row"], "col": best["col"], "turn": state["turn"]}
                move = await client.post(f"/api/games/{state['id']}/moves", json=body)
                move.raise_for_status()
                state = move.json()
            elif response.status_code == 503 and response.json().get("code") == "busy":
                figures.hints_busy += 1
            else:
                figures.hint_errors[error_kind(response)] += 1
            await asyncio.sleep(max(0.0, start + asked * every - time.monotonic()))


async def warm_up(url: str, seconds: float = 300) -> None:
    """Wait until the server answers a hint (its workers have loaded the kernel, or compiled it on a cold cache)."""
    async with client_from(url, PLAYER_ADDRESS, timeout=seconds) as client:
        await first_hint(client, seconds)


async def measure(args: argparse.Namespace, url: str) -> Figures:
    await warm_up(url)
    figures, stop = Figures(), asyncio.Event()
    loops = [asyncio.create_task(flood_loop(url, figures, stop, args.seed + i)) for i in range(args.loops)]
    await asyncio.sleep(args.ramp)
    await player(url, figures, args.every, args.seconds)
    stop.set()
    _, waiting = await asyncio.wait(loops, timeout=60)  # each loop ends its game or analysis, or is cancelled
    for task in waiting:
        task.cancel()
    results = await asyncio.gather(*loops, return_exceptions=True)
    failures = [r for r in results if isinstance(r, BaseException) and not isinstance(r, asyncio.CancelledError)]
    if failures:
        raise SystemExit(f"{len(failures)} flood loops failed, the first with {failures[0]!r}")
    return figures


def commit_of(src: str | None) -> str:
    """The commit of the code served (and whether its working tree differs), if it is a git checkout."""
    folder = Path(src).resolve() if src else Path(__file__).resolve().parent.parent / "src"
    try:
        head = subprocess.run(["git", "-C", str(folder), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()  # fmt: skip
        dirty = subprocess.run(["git", "-C", str(folder), "status", "--porcelain", "--", "."], capture_output=True,
                               text=True, check=True).stdout.strip()  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return f"{head} (with uncommitted changes)" if dirty else head


def load_average() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def table(result: dict[str, Any]) -> str:
    """The report as Markdown, to paste into docs/performance.md."""
    s, m, f = result["settings"], result["machine"], result["figures"]
    lines = [
        f"Command: `{result['command']}`",
        "",
        f"Code served: {result['code']}; {s['loops']} flood loops, a hint every {s['every']} s for {s['seconds']} s "
        f"after {s['ramp']} s of flood. Machine: {m['cpus']} CPUs, load average {m['load_before']} before, "
        f"{m['load_after']} after; Python {m['python']}.",
        "",
        "| player's hints asked | answered | refused busy | other errors | p50 ms | p95 ms | max ms "
        "| flood games | flood analyses answered | flood analyses refused |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    cells = [f["hints_asked"], f["hints_answered"], f["hints_busy"], sum(f["hint_errors"].values()),
             f["hint_p50_ms"], f["hint_p95_ms"], f["hint_max_ms"], f["flood_games"], f["flood_analyses"],
             f["flood_busy"]]  # fmt: skip
    lines.append("| " + " | ".join("–" if c is None else str(c) for c in cells) + " |")
    for kind in ("hint_errors", "flood_errors"):
        if f[kind]:
            lines.append(f"\n{kind.replace('_', ' ').capitalize()}: {f[kind]}")
    return "\n".join(lines)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--loops", type=int, default=16, help="the flood's loops at once (default 16)")
    p.add_argument("--ramp", type=float, default=15, help="seconds of flood before the player starts (default 15)")
    p.add_argument("--every", type=float, default=5, help="seconds between the player's hints (default 5)")
    p.add_argument("--seconds", type=float, default=120, help="seconds the player plays (default 120)")
    p.add_argument("--src", help="serve the foursquare package of this src folder (another checkout's)")
    p.add_argument("--seed", type=int, default=0, help="seed of the flood's random moves")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    machine: dict[str, Any] = {"cpus": os.cpu_count(), "python": platform.python_version(),
                               "load_before": load_average()}  # fmt: skip
    env = {**GENEROUS_LIMITS, **({"PYTHONPATH": str(Path(args.src).resolve())} if args.src else {})}
    with tempfile.TemporaryDirectory(prefix="foursquare-fairness-") as tmp, served(Path(tmp), env) as (url, _):
        figures = asyncio.run(measure(args, url))
        machine["load_after"] = load_average()
    result = {
        "command": "benchmarks/hint_fairness.py " + shlex.join(sys.argv[1:] if argv is None else argv),
        "code": commit_of(args.src),
        "settings": {k: getattr(args, k) for k in ("loops", "ramp", "every", "seconds")},
        "machine": machine,
        "figures": figures.summary(),
    }
    print(json.dumps(result, indent=2) if args.json else table(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
