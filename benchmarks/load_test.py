"""Load test of the web server: players moving at a human pace while other clients ask for hints and analyses.

    .venv/bin/python benchmarks/load_test.py                  # about a minute: 100 players, 20 hint clients
    .venv/bin/python benchmarks/load_test.py --pool thread    # hints in the server's own threads, for comparison
    .venv/bin/python benchmarks/load_test.py --json           # the same figures as JSON

It starts ``foursquare serve`` on a free port of localhost with a fresh database and rate limits far above what
its clients send (``FOURSQUARE_RATE_*``: it measures the server's capacity, not fair use), or uses ``--url`` (a
server started with such limits: with the defaults, every client being one address, new games and hints are soon
refused with 429). Each client gets its player cookie by a ``GET /api/stats`` first, as the page does. It waits
until a hint is answered (the workers are warm), then runs three phases with the same players:

1. **alone**: ``--players`` players, each playing whole games (random deals, a random legal move) with about
   ``--think`` seconds between moves (uniform from half to one and a half times it), like a person;
2. **saturation**: the same players moving flat out (no pause), the moves per second the server can take;
3. **with hints**: the players at a human pace again while ``--hint-clients`` clients ask for hints back to back
   (each plays its own game by the hint's best move; after every ``--analysis-every`` hints, and when its game
   is over, it asks for the analysis of a finished game); a 503 ``busy`` is honoured by waiting its
   ``Retry-After``.

For each phase it reports the moves answered per second, the move latency (p50/p95/p99/max, from sending the
request to reading the answer) and the move errors (any answer but 200, or no answer); for the last, the hints
answered, refused as busy, and their latency, and the analyses answered. Then it checks every game: each one a
client finished equals the replay of its record (``GET /api/games/{id}/record``: the same moves as the client
played, the same cells, outcome and score), each unfinished one is at the turn its player left it, and, when the
script started the server, every game in its SQLite database replays to its stored outcome. Exit status 1 if
any move failed or any game does not check.

The load generator runs on the same machine as the server: on a small machine it takes a good share of the cores,
and the saturation figure is as much the generator's limit as the server's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import shlex
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import numpy as np
from serving import GENEROUS_LIMITS, error_kind, first_hint, served  # this script's folder (benchmarks/) is sys.path[0]

from foursquare import record
from foursquare.store import Store, StoreError

PHASES = ("alone", "saturation", "with hints")
SETTINGS = ("players", "hint_clients", "analysis_every", "think", "pool", "workers", "queue")


@dataclass
class PhaseStats:
    """What one phase measured."""

    seconds: float = 0.0
    move_latencies: list[float] = field(default_factory=list)
    move_errors: Counter[str] = field(default_factory=Counter)
    connection_errors: Counter[str] = field(default_factory=Counter)
    hint_latencies: list[float] = field(default_factory=list)
    hints_busy: int = 0
    hint_errors: Counter[str] = field(default_factory=Counter)
    analyses: int = 0
    analyses_busy: int = 0
    analysis_latencies: list[float] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        moves = np.array(self.move_latencies) * 1000
        hints = np.array(self.hint_latencies) * 1000

        def pct(values: np.ndarray[Any, Any], q: float) -> float | None:
            return round(float(np.percentile(values, q)), 1) if len(values) else None

        return {
            "seconds": round(self.seconds, 1),
            "moves": len(moves),
            "moves_per_second": round(len(moves) / self.seconds, 1) if self.seconds else 0.0,
            "move_p50_ms": pct(moves, 50),
            "move_p95_ms": pct(moves, 95),
            "move_p99_ms": pct(moves, 99),
            "move_max_ms": round(float(moves.max()), 1) if len(moves) else None,
            "move_errors": sum(self.move_errors.values()),
            "move_errors_by_kind": dict(self.move_errors),
            "connection_errors": sum(self.connection_errors.values()),
            "connection_errors_by_kind": dict(self.connection_errors),
            "hints": len(hints),
            "hints_busy": self.hints_busy,
            "hint_errors": sum(self.hint_errors.values()),
            "hint_errors_by_kind": dict(self.hint_errors),
            "hint_p50_ms": pct(hints, 50),
            "hint_p95_ms": pct(hints, 95),
            "analyses": self.analyses,
            "analyses_busy": self.analyses_busy,
            "analysis_max_s": round(max(self.analysis_latencies), 1) if self.analysis_latencies else None,
        }


@dataclass
class GameLog:
    """A game as its client played it: the moves the server accepted, in order, and the last state seen."""

    id: str
    moves: list[list[int]] = field(default_factory=list)
    over: bool = False


class Run:
    """The shared state of the clients: the phase, the pace, the statistics and every game played."""

    def __init__(self, think: float) -> None:
        self.phase = PHASES[0]
        self.think = think
        self.stopping = False
        self.ready = 0
        # One connection pool for every client (each keeps its own cookie, so is its own player): a client of
        # its own each would cost the generator a TLS context apiece, a lot of CPU for nothing on plain HTTP.
        self.transport = httpx.AsyncHTTPTransport(limits=httpx.Limits(max_connections=None))
        self.cpu: dict[str, dict[str, float]] = {}
        self.stats = {phase: PhaseStats() for phase in PHASES}
        self.games: list[GameLog] = []

    async def client(self, url: str, timeout: float) -> httpx.AsyncClient:
        """A client of its own on the shared connections, not to be closed, with its own player cookie: got by a
        GET as the page does, before any request that changes something (a POST without it is refused)."""
        client = httpx.AsyncClient(base_url=url, timeout=timeout, transport=self.transport, trust_env=False)
        await answered(self, lambda: client.get("/api/stats"))
        return client

    @property
    def now(self) -> PhaseStats:
        return self.stats[self.phase]

    async def pause(self, rng: random.Random) -> None:
        if self.think > 0:
            await asyncio.sleep(rng.uniform(0.5, 1.5) * self.think)


async def answered(run: Run, send: Callable[[], Awaitable[httpx.Response]]) -> httpx.Response:
    """The answer to a request that may safely be sent again (starting a game, reading one) once it got none."""
    for attempt in range(3):
        try:
            response = await send()
        except httpx.TransportError as exc:
            run.now.connection_errors[type(exc).__name__] += 1
            if attempt == 2:
                raise
            continue
        response.raise_for_status()
        return response
    raise AssertionError("unreachable")


async def new_game(client: httpx.AsyncClient, run: Run) -> tuple[GameLog, dict[str, Any]]:
    response = await answered(run, lambda: client.post("/api/games", json={}))
    state: dict[str, Any] = response.json()
    log = GameLog(state["id"])
    run.games.append(log)
    return log, state


async def place(
    client: httpx.AsyncClient, run: Run, log: GameLog, state: dict[str, Any], move: list[int], timed: bool
) -> dict[str, Any]:
    """Place the card at ``move`` as the page does (naming the turn and the card); the new state."""
    body = {"row": move[0], "col": move[1], "turn": state["turn"], "card": state["card"]}
    stats = run.now
    start = time.perf_counter()
    try:
        response = await client.post(f"/api/games/{log.id}/moves", json=body)
    except httpx.TransportError as exc:  # no answer: the card may or may not have been placed
        stats.connection_errors[type(exc).__name__] += 1
        state = await reload(client, run, log)
        if state["turn"] == len(log.moves) + 1:  # the server placed the card before the connection failed
            log.moves.append(move)
        return state
    if timed:
        stats.move_latencies.append(time.perf_counter() - start)
    if response.status_code != 200:
        stats.move_errors[error_kind(response)] += 1
        return await reload(client, run, log)
    log.moves.append(move)
    new_state: dict[str, Any] = response.json()
    log.over = new_state["outcome"] != "playing"
    return new_state


async def reload(client: httpx.AsyncClient, run: Run, log: GameLog) -> dict[str, Any]:
    response = await answered(run, lambda: client.get(f"/api/games/{log.id}"))
    state: dict[str, Any] = response.json()
    return state


async def player(url: str, run: Run, seed: int) -> None:
    """Plays whole games, a random legal move after a pause, until the run stops."""
    rng = random.Random(seed)
    client = await run.client(url, timeout=60)
    log, state = await new_game(client, run)
    run.ready += 1
    while not run.stopping:
        if state["outcome"] != "playing":
            log, state = await new_game(client, run)
        while state["outcome"] == "playing":
            await run.pause(rng)
            if run.stopping:
                return
            state = await place(client, run, log, state, rng.choice(state["legal"]), timed=True)


async def hint_client(url: str, run: Run, analysis_every: int, seed: int) -> None:
    """Asks for a hint and plays its best move, back to back; after every ``analysis_every`` hints (and at the
    end of its own game) asks for the analysis of a finished game (its own, or a player's)."""
    rng = random.Random(seed)
    client = await run.client(url, timeout=300)
    asked = 0
    while not run.stopping:
        log, state = await new_game(client, run)
        while state["outcome"] == "playing":
            answer = await ask(client, run, f"/api/games/{log.id}/hint", analysis=False)
            asked += 1
            if run.stopping:
                return
            if answer is not None:
                state = await place(client, run, log, state, answer["moves"][0]["move"], timed=False)
            if analysis_every and asked % analysis_every == 0:
                finished = [game.id for game in run.games if game.over]
                if finished:
                    await ask(client, run, f"/api/games/{rng.choice(finished)}/analysis", analysis=True)
        await ask(client, run, f"/api/games/{log.id}/analysis", analysis=True)


async def ask(client: httpx.AsyncClient, run: Run, path: str, *, analysis: bool) -> dict[str, Any] | None:
    """A hint or an analysis: its answer, or None after a refusal (having waited as the server asked)."""
    stats = run.now
    start = time.perf_counter()
    try:
        response = await client.get(path)
    except httpx.TransportError as exc:
        stats.connection_errors[type(exc).__name__] += 1
        return None
    seconds = time.perf_counter() - start
    if response.status_code == 503 and response.json().get("code") == "busy":
        if analysis:
            stats.analyses_busy += 1
        else:
            stats.hints_busy += 1
        await asyncio.sleep(float(response.headers.get("retry-after", "1")))
        return None
    if response.status_code != 200:
        stats.hint_errors[error_kind(response)] += 1
        return None
    if analysis:
        stats.analyses += 1
        stats.analysis_latencies.append(seconds)
    else:
        stats.hint_latencies.append(seconds)
    data: dict[str, Any] = response.json()
    if not analysis:  # the API's hint lists {"row", "col", ...}: keep the move as [row, col]
        for advice in data["moves"]:
            advice["move"] = [advice["row"], advice["col"]]
    return data


async def phase(run: Run, name: str, seconds: float, think: float, server_pid: int | None) -> None:
    run.phase, run.think = name, think
    start, before = time.perf_counter(), cpu_seconds(server_pid)
    await asyncio.sleep(seconds)
    run.stats[name].seconds = time.perf_counter() - start
    after = cpu_seconds(server_pid)
    run.cpu[name] = {k: round(after[k] - before.get(k, 0.0), 1) for k in after}


def cpu_seconds(server_pid: int | None) -> dict[str, float]:
    """CPU seconds used so far by this load generator, the server's process and its worker processes (Linux)."""
    used = {"load generator": time.process_time()}
    if server_pid is None:
        return used
    tick = os.sysconf("SC_CLK_TCK")

    def of(pid: int) -> float:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / tick  # utime + stime

    children: list[int] = []
    for task in Path(f"/proc/{server_pid}/task").glob("*/children"):
        children += [int(pid) for pid in task.read_text().split()]
    used["server"] = of(server_pid)
    used["workers"] = sum(of(pid) for pid in children)
    return used


async def warm_up(url: str, seconds: float = 300) -> None:
    """Wait until the server answers a hint (its workers have loaded the kernel, or compiled it on a cold cache)."""
    async with httpx.AsyncClient(base_url=url, timeout=seconds, trust_env=False) as client:
        (await client.get("/api/stats")).raise_for_status()  # the player cookie, which a POST needs
        await first_hint(client, seconds)


async def load(args: argparse.Namespace, url: str, server_pid: int | None) -> Run:
    await warm_up(url)
    run = Run(args.think)
    players = [asyncio.create_task(player(url, run, args.seed + i)) for i in range(args.players)]
    deadline = time.monotonic() + 120
    while run.ready < args.players and time.monotonic() < deadline:  # every player has its first game
        await asyncio.sleep(0.1)
    await phase(run, "alone", args.alone, args.think, server_pid)
    await phase(run, "saturation", args.saturation, 0.0, server_pid)
    run.think = args.think
    await asyncio.sleep(min(2.0, args.think * 2))  # let the players fall back to a human pace
    hints = [asyncio.create_task(hint_client(url, run, args.analysis_every, args.seed + 10_000 + i))
             for i in range(args.hint_clients)]  # fmt: skip
    await phase(run, "with hints", args.loaded, args.think, server_pid)
    # Stop: each client finishes the request it is making (so every move's fate is known) and then leaves;
    # a client still waiting after a while waits for an analysis, which changes no game: it is cancelled.
    run.stopping = True
    _, waiting = await asyncio.wait([*players, *hints], timeout=30)
    for task in waiting:
        task.cancel()
    results = await asyncio.gather(*players, *hints, return_exceptions=True)
    await run.transport.aclose()
    failures = [r for r in results if isinstance(r, BaseException) and not isinstance(r, asyncio.CancelledError)]
    if failures:
        raise SystemExit(f"{len(failures)} clients failed, the first with {failures[0]!r}")
    return run


# --- the checks ----------------------------------------------------------------------------------------------------


async def check_games(url: str, games: list[GameLog]) -> list[str]:
    """Every game as the server has it against what its client played and the replay of its record."""
    problems: list[str] = []
    limit = asyncio.Semaphore(16)

    async def check(client: httpx.AsyncClient, log: GameLog) -> None:
        async with limit:
            state = (await client.get(f"/api/games/{log.id}")).json()
            if state["turn"] != len(log.moves):
                problems.append(f"game {log.id}: at turn {state['turn']}, its player placed {len(log.moves)} cards")
                return
            if state["outcome"] == "playing":
                return
            data = (await client.get(f"/api/games/{log.id}/record")).json()
            replayed = record.load(data)
            if data["moves"] != log.moves:
                problems.append(f"game {log.id}: its record's moves are not the moves its player made")
            elif (
                record.cells_json(replayed) != state["cells"]
                or record.outcome_json(replayed.outcome()) != {k: state[k] for k in ("outcome", "reason", "score")}
                or replayed.turn != state["turn"]
            ):
                problems.append(f"game {log.id}: the replay of its record differs from the stored game")

    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        await asyncio.gather(*(check(client, log) for log in games))
    return problems


def check_database(db: Path) -> tuple[int, list[str]]:
    """Replay every game stored in ``db`` (the store checks the replay against the stored turn and outcome)."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        ids = [row[0] for row in conn.execute("SELECT id FROM games")]
    store = Store(db)
    problems = []
    try:
        for game_id in ids:
            try:
                store.games.get(game_id).rebuild()
            except StoreError as exc:
                problems.append(str(exc))
    finally:
        store.close()
    return len(ids), problems


# --- the report ----------------------------------------------------------------------------------------------------


def report(args: argparse.Namespace, run: Run, checks: dict[str, Any], machine: dict[str, Any]) -> dict[str, Any]:
    return {
        "command": "benchmarks/load_test.py " + shlex.join(sys.argv[1:]),
        "settings": {k: getattr(args, k) for k in SETTINGS},
        "machine": machine,
        "phases": {name: {**stats.summary(), "cpu_seconds": run.cpu.get(name)} for name, stats in run.stats.items()},
        "checks": checks,
    }


def table(result: dict[str, Any]) -> str:
    """The report as Markdown, to paste into docs/performance.md."""
    s, m = result["settings"], result["machine"]
    pool = s["pool"] or "the server's default"
    queue = "default" if s["queue"] is None else s["queue"]
    lines = [
        f"Command: `{result['command']}`",
        "",
        f"{s['players']} players (a move every {s['think']} s on average), {s['hint_clients']} hint clients "
        f"(an analysis every {s['analysis_every']} hints); "
        f"pool: {pool}, workers: {s['workers'] or 'default'}, queue: {queue}. "
        f"Machine: {m['cpus']} CPUs, load average {m['load_before']} before, {m['load_after']} after; "
        f"Python {m['python']}.",
        "",
        "| phase | s | moves | moves/s | p50 ms | p95 ms | p99 ms | max ms | move errors | no answer "
        "| hints | hints busy | hint p50 ms | hint p95 ms | analyses / busy |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, p in result["phases"].items():
        cells = [name, p["seconds"], p["moves"], p["moves_per_second"], p["move_p50_ms"], p["move_p95_ms"],
                 p["move_p99_ms"], p["move_max_ms"], p["move_errors"], p["connection_errors"], p["hints"],
                 p["hints_busy"], p["hint_p50_ms"], p["hint_p95_ms"],
                 f"{p['analyses']} / {p['analyses_busy']}"]  # fmt: skip
        lines.append("| " + " | ".join("–" if c is None else str(c) for c in cells) + " |")
    lines += ["", "CPU seconds used in each phase: "
              + "; ".join(f"{name}: " + ", ".join(f"{k} {v}" for k, v in (p["cpu_seconds"] or {}).items())
                          for name, p in result["phases"].items()) + "."]  # fmt: skip
    c = result["checks"]
    lines += ["", f"Checks: {c['games']} games played checked against their records"
              + (f", {c['stored_games']} stored games replayed" if c["stored_games"] is not None else "")
              + f": {len(c['problems'])} problems."]  # fmt: skip
    for kind in ("move_errors", "connection_errors", "hint_errors"):
        errors = {name: p[f"{kind}_by_kind"] for name, p in result["phases"].items() if p[kind]}
        if errors:
            lines.append(f"{kind.replace('_', ' ').capitalize()}: {errors}")
    lines += [f"- {problem}" for problem in c["problems"][:20]]
    return "\n".join(lines)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--players", type=int, default=100, help="players moving at a human pace (default 100)")
    p.add_argument("--hint-clients", type=int, default=20, help="clients asking for hints back to back (default 20)")
    p.add_argument("--analysis-every", type=int, default=3,
                   help="a hint client asks for an analysis after this many hints (default 3; 0: never)")
    p.add_argument("--think", type=float, default=1.0, help="mean seconds between a player's moves (default 1)")
    p.add_argument("--alone", type=float, default=15, help="seconds of players alone (default 15)")
    p.add_argument("--saturation", type=float, default=10, help="seconds of players flat out (default 10)")
    p.add_argument("--loaded", type=float, default=30, help="seconds of players with the hint clients (default 30)")
    p.add_argument("--pool", choices=("process", "thread"), help="the server's hint pool (FOURSQUARE_POOL)")
    p.add_argument("--workers", type=int, help="the pool's workers (FOURSQUARE_POOL_WORKERS)")
    p.add_argument("--queue", type=int, help="jobs that may wait for a worker (FOURSQUARE_POOL_QUEUE)")
    p.add_argument("--url", help="load this running server instead of starting one (no database check)")
    p.add_argument("--seed", type=int, default=0, help="seed of the players' random moves")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    return p.parse_args(argv)


def server_env(args: argparse.Namespace) -> dict[str, str]:
    """The environment of the server this script starts: its pool as the options say, and rate limits far above
    what the clients send, all from one address. The load test measures the server's capacity, not fair use: with
    the default limits (docs/api.md, "Limits") the players would be refused new games and the hint clients hints
    within the first minute."""
    env = dict(GENEROUS_LIMITS)
    for option, name in (("pool", "FOURSQUARE_POOL"), ("workers", "FOURSQUARE_POOL_WORKERS"),
                         ("queue", "FOURSQUARE_POOL_QUEUE")):  # fmt: skip
        if getattr(args, option) is not None:
            env[name] = str(getattr(args, option))
    return env


def load_average() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    machine: dict[str, Any] = {"cpus": os.cpu_count(), "python": platform.python_version(),
                               "load_before": load_average()}  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="foursquare-load-") as tmp:
        folder = Path(tmp)
        if args.url:
            url = args.url.rstrip("/")
            run = asyncio.run(load(args, url, None))
            problems = asyncio.run(check_games(url, run.games))
            stored: int | None = None
        else:
            with served(folder, server_env(args)) as (url, pid):
                run = asyncio.run(load(args, url, pid))
                machine["load_after"] = load_average()
                problems = asyncio.run(check_games(url, run.games))
            stored, db_problems = check_database(folder / "games.db")
            problems += db_problems
    machine.setdefault("load_after", load_average())
    checks = {"games": len(run.games), "stored_games": stored, "problems": problems}
    result = report(args, run, checks, machine)
    print(json.dumps(result, indent=2) if args.json else table(result))
    failed = problems or any(p["move_errors"] or p["connection_errors"] for p in result["phases"].values())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
