"""Honest hint traffic under the default limits: 100 players, each a loopback address of its own, at a move a second,
alone and then beside 20 clients asking for hints back to back (each an address of its own too).

    .venv/bin/python benchmarks/hint_traffic.py            # about two minutes
    .venv/bin/python benchmarks/hint_traffic.py --json     # the same figures as JSON
    .venv/bin/python benchmarks/hint_traffic.py --src /tmp/old/src    # the server of another checkout

It starts ``foursquare serve`` on a free port of localhost with a fresh SQLite database and the default settings
(every ``FOURSQUARE_RATE_*`` and ``FOURSQUARE_POOL*``/``FOURSQUARE_HEAVY*`` variable removed from its
environment), and first times a winnable deal asked at once, and a second one (the heavy worker compiles or loads
the solver when the server starts: the first deal should not pay for it). It waits until a hint is answered, then:

1. **alone**: ``--players`` players, from 127.0.1.1, 127.0.1.2, …, each playing whole games (random deals, a
   random legal move) with a pause of 0.5–1.5 times ``--think`` seconds between moves, for ``--alone`` seconds;
2. **with hints**: the same players, for ``--loaded`` seconds, while ``--hint-clients`` clients, from 127.0.2.1,
   127.0.2.2, …, ask for a hint and play its best move, back to back, each waiting the ``Retry-After`` of a 503
   ``busy`` or a 429 before asking again, as a real client does.

Each client has a connection of its own, bound to its address (httpx's ``local_address``): the server's limits
and its pool count each apart. It reports, per phase, the players' moves (p50/p95/p99/max from sending the request
to reading the answer, and any answer but 200), the hints answered, refused busy and refused past the limit, and
the CPU seconds of the load generator, the server's process and its workers. The load generator runs on the
same machine as the server.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import shlex
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import numpy as np
from load_test import cpu_seconds  # this script's folder (benchmarks/) is sys.path[0]
from serving import error_kind, first_hint, served

PHASES = ("alone", "with hints")


@dataclass
class Phase:
    """What one phase measured."""

    seconds: float = 0.0
    moves: list[float] = field(default_factory=list)
    move_errors: Counter[str] = field(default_factory=Counter)
    hints: list[float] = field(default_factory=list)
    hints_refused: Counter[str] = field(default_factory=Counter)
    cpu: dict[str, float] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        moves, hints = np.array(self.moves) * 1000, np.array(self.hints) * 1000

        def pct(values: np.ndarray[Any, Any], q: float) -> float | None:
            return round(float(np.percentile(values, q)), 1) if len(values) else None

        return {
            "seconds": round(self.seconds, 1),
            "moves": len(moves),
            "move_p50_ms": pct(moves, 50),
            "move_p95_ms": pct(moves, 95),
            "move_p99_ms": pct(moves, 99),
            "move_max_ms": pct(moves, 100),
            "move_errors": dict(self.move_errors),
            "hints": len(hints),
            "hint_p50_ms": pct(hints, 50),
            "hint_p95_ms": pct(hints, 95),
            "hints_refused": dict(self.hints_refused),
            "cpu_seconds": self.cpu,
        }


class Run:
    """The clients' shared state: the phase, whether the hint clients ask, the figures."""

    def __init__(self, url: str, think: float) -> None:
        self.url = url
        self.think = think
        self.phase = PHASES[0]
        self.hinting = asyncio.Event()
        self.stopping = False
        self.stats = {name: Phase() for name in PHASES}

    @property
    def now(self) -> Phase:
        return self.stats[self.phase]

    async def client(self, address: str) -> httpx.AsyncClient:
        """A client from ``address`` with its player cookie (got by a GET, as the page does)."""
        transport = httpx.AsyncHTTPTransport(local_address=address)
        client = httpx.AsyncClient(base_url=self.url, timeout=120, transport=transport, trust_env=False)
        (await client.get("/api/stats")).raise_for_status()
        return client


async def new_game(client: httpx.AsyncClient) -> dict[str, Any]:
    while (response := await client.post("/api/games", json={})).status_code == 429:
        await asyncio.sleep(int(response.headers["retry-after"]))
    response.raise_for_status()
    state: dict[str, Any] = response.json()
    return state


async def place(client: httpx.AsyncClient, run: Run, state: dict[str, Any], row: int, col: int) -> dict[str, Any]:
    """Place the card as the page does; the new state (timed when ``timed``), or the game reloaded after a refusal."""
    body = {"row": row, "col": col, "turn": state["turn"], "card": state["card"]}
    start = time.perf_counter()
    response = await client.post(f"/api/games/{state['id']}/moves", json=body)
    elapsed = time.perf_counter() - start
    if response.status_code != 200:
        return await refused(client, run, state, response)
    run.now.moves.append(elapsed)
    moved: dict[str, Any] = response.json()
    return moved


async def refused(client: httpx.AsyncClient, run: Run, state: dict[str, Any], response: httpx.Response) -> Any:
    run.now.move_errors[error_kind(response)] += 1
    return (await client.get(f"/api/games/{state['id']}")).json()


async def player(run: Run, address: str, seed: int) -> None:
    rng = random.Random(seed)
    client = await run.client(address)
    await asyncio.sleep(rng.uniform(0, 1) * run.think)  # not all at the same instant
    state = await new_game(client)
    while not run.stopping:
        if state["outcome"] != "playing":
            state = await new_game(client)
        row, col = rng.choice(state["legal"])
        state = await place(client, run, state, row, col)
        await asyncio.sleep(rng.uniform(0.5, 1.5) * run.think)
    await client.aclose()


async def hint_client(run: Run, address: str) -> None:
    client = await run.client(address)
    await run.hinting.wait()
    state = await new_game(client)
    while not run.stopping:
        if state["outcome"] != "playing":
            state = await new_game(client)
        start = time.perf_counter()
        response = await client.get(f"/api/games/{state['id']}/hint")
        if response.status_code in (429, 503):
            run.now.hints_refused[error_kind(response)] += 1
            await asyncio.sleep(int(response.headers.get("retry-after", "1")))
            continue
        response.raise_for_status()
        run.now.hints.append(time.perf_counter() - start)
        best = response.json()["moves"][0]
        body = {"row": best["row"], "col": best["col"], "turn": state["turn"], "card": state["card"]}
        moved = await client.post(f"/api/games/{state['id']}/moves", json=body)
        state = moved.json() if moved.status_code == 200 else (await client.get(f"/api/games/{state['id']}")).json()
    await client.aclose()


async def first_winnable(url: str) -> list[float]:
    """Seconds to answer a winnable deal asked as soon as the server listens, and a second one asked after it."""
    async with httpx.AsyncClient(base_url=url, timeout=300, trust_env=False) as client:
        (await client.get("/api/stats")).raise_for_status()
        seconds = []
        for _ in range(2):
            start = time.perf_counter()
            response = await client.post("/api/games", json={"winnable": True})
            response.raise_for_status()
            seconds.append(time.perf_counter() - start)
        return seconds


async def load(args: argparse.Namespace, url: str, server_pid: int) -> tuple[Run, list[float]]:
    winnable = await first_winnable(url)
    async with httpx.AsyncClient(base_url=url, timeout=300, trust_env=False) as warm:
        (await warm.get("/api/stats")).raise_for_status()
        await first_hint(warm, 300)
    run = Run(url, args.think)
    tasks = [asyncio.create_task(player(run, f"127.0.1.{i + 1}", i)) for i in range(args.players)]
    tasks += [asyncio.create_task(hint_client(run, f"127.0.2.{i + 1}")) for i in range(args.hint_clients)]
    await asyncio.sleep(args.think * 3)  # every player has made a move or two: the start-up is not measured
    for name, seconds in zip(PHASES, (args.alone, args.loaded), strict=True):
        run.phase = name
        run.now.moves.clear()
        if name == "with hints":
            run.hinting.set()
        before, start = cpu_seconds(server_pid), time.perf_counter()
        await asyncio.sleep(seconds)
        run.now.seconds = time.perf_counter() - start
        after = cpu_seconds(server_pid)
        run.now.cpu = {key: round(after[key] - before.get(key, 0.0), 1) for key in after}
    run.stopping = True
    run.hinting.set()
    await asyncio.gather(*tasks)
    return run, winnable


def table(result: dict[str, Any]) -> str:
    lines = [
        f"Command: `{result['command']}`",
        "",
        f"{result['players']} players (a move every {result['think']} s on average), {result['hint_clients']} hint "
        f"clients, each an address of its own; default settings. Machine: {result['cpus']} CPUs "
        f"({result['cpu_model']}), load average {result['load_before']} before, {result['load_after']} after; "
        f"Python {result['python']}. Winnable deals asked as the server starts: {result['winnable_s'][0]:.2f} s, "
        f"then {result['winnable_s'][1]:.2f} s.",
        "",
        "| phase | s | moves | p50 ms | p95 ms | p99 ms | max ms | move errors | hints | hint p50 ms | hint p95 ms "
        "| hints refused | CPU s: generator / server / workers |",
        "|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---|---|",
    ]
    for name, p in result["phases"].items():
        cpu = p["cpu_seconds"]
        lines.append(
            f"| {name} | {p['seconds']} | {p['moves']} | {p['move_p50_ms']} | {p['move_p95_ms']} | {p['move_p99_ms']} "
            f"| {p['move_max_ms']} | {p['move_errors'] or 0} | {p['hints']} | {p['hint_p50_ms'] or '–'} "
            f"| {p['hint_p95_ms'] or '–'} | {p['hints_refused'] or 0} "
            f"| {cpu.get('load generator')} / {cpu.get('server')} / {cpu.get('workers')} |"
        )
    return "\n".join(lines)


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--hint-clients", type=int, default=20)
    parser.add_argument("--think", type=float, default=1.0, help="a player's mean seconds between moves")
    parser.add_argument("--alone", type=float, default=30.0, help="seconds of the first phase")
    parser.add_argument("--loaded", type=float, default=45.0, help="seconds of the phase with the hint clients")
    parser.add_argument("--src", help="serve the foursquare package of this src folder (another checkout's)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    for key in [k for k in os.environ if k.startswith(("FOURSQUARE_RATE_", "FOURSQUARE_POOL", "FOURSQUARE_HEAVY"))]:
        del os.environ[key]  # the server's defaults (served passes this process's environment on)
    env = {"PYTHONPATH": str(Path(args.src).resolve())} if args.src else {}
    result: dict[str, Any] = {
        "command": shlex.join(["benchmarks/hint_traffic.py", *(argv if argv is not None else sys.argv[1:])]),
        "players": args.players, "hint_clients": args.hint_clients, "think": args.think, "cpus": os.cpu_count(),
        "cpu_model": cpu_model(), "python": platform.python_version(), "load_before": load_average(),
    }  # fmt: skip
    with tempfile.TemporaryDirectory() as folder, served(Path(folder), env=env) as (url, pid):
        run, winnable = asyncio.run(load(args, url, pid))
    result["load_after"] = load_average()
    result["winnable_s"] = [round(seconds, 2) for seconds in winnable]
    result["phases"] = {name: stats.summary() for name, stats in run.stats.items()}
    print(json.dumps(result, indent=2) if args.json else table(result))
    return 0


def load_average() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


if __name__ == "__main__":
    sys.exit(main())
