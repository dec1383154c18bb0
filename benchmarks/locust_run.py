"""The web app under Locust, per configuration: one server on SQLite, one on PostgreSQL, two on one PostgreSQL.

    .venv/bin/python benchmarks/locust_run.py                       # the three configurations, about 8 minutes
    .venv/bin/python benchmarks/locust_run.py --configs pg2 --json  # one, as JSON

For each configuration it makes a fresh database (an SQLite file, or a database of a throwaway PostgreSQL 15
cluster made with Debian's ``initdb``, ``tests/postgres_support.py``: ``fsync`` on, ``synchronous_commit=off``,
which like SQLite's ``synchronous=NORMAL`` may lose the last commits when the machine loses power, never when a
server or PostgreSQL's own processes crash), starts the servers (``foursquare serve`` with
``--trusted-proxies 127.0.0.1``) and waits until each answers a hint. Then it runs Locust
(``benchmarks/locust/locustfile.py``) headless in processes of its own — a master and ``--workers`` workers —
three times, with fresh statistics after the users are spawned (``--reset-stats``):

1. **saturation**: ``--players`` players moving flat out (rate limits far above what they send): the moves per
   second the servers take;
2. **with hints**: ``--players`` players at a human pace (a move every ``--think`` seconds on average) and
   ``--hint-clients`` clients asking for a hint and playing its move back to back (503 ``busy`` honoured);
3. **abuse**: the same, with the default fair-use limits, each user behind an address of its own
   (``X-Forwarded-For``), and one abusive client flooding the servers with new games, hints, malformed,
   oversized, cross-site and other players' requests.

It reports, per configuration and phase, Locust's figures (read from its ``--csv`` files): moves per second and
the move latency (p50/p95/p99), the hints answered, refused as busy and their latency, the abuser's refusals, and
every failure; the CPU seconds of the servers (with their hint workers), of PostgreSQL and of Locust; and, per
move, the server's and PostgreSQL's CPU, PostgreSQL's statements and transactions (``pg_stat_statements``), the
bytes of a move's answer, and the growth of the ``games`` table per game. Exit status 1 if Locust counted any
failure.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from serving import GENEROUS_LIMITS, served  # this script's folder (benchmarks/) is sys.path[0]

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import postgres_support  # the tests' throwaway cluster

LOCUSTFILE = Path(__file__).resolve().parent / "locust" / "locustfile.py"
CONFIGS = {"sqlite1": ("sqlite", 1), "pg1": ("postgresql", 1), "pg2": ("postgresql", 2)}
PHASES = ("saturation", "with hints", "abuse")
BENCH_SETTINGS = {"synchronous_commit": "off", "shared_preload_libraries": "'pg_stat_statements'"}
TICK = os.sysconf("SC_CLK_TCK")


def cpu_of(pid: int) -> float:
    """CPU seconds (user + system) used so far by a process, 0 once it is gone (Linux's /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def family(pid: int) -> list[int]:
    """A process and its descendants."""
    found = [pid]
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError):
            for child in task.read_text().split():
                found += family(int(child))
    return found


@dataclass
class Setup:
    """What one configuration runs on: the servers' URLs and processes, and the database."""

    name: str
    urls: list[str]
    server_pids: list[int]
    database: str
    cluster: postgres_support.Cluster | None = None
    folder: Path = field(default_factory=Path)

    def cpu(self) -> dict[str, float]:
        used = {"servers": sum(cpu_of(p) for pid in self.server_pids for p in family(pid))}
        if self.cluster is not None:
            postmaster = int((self.cluster.root / "data" / "postmaster.pid").read_text().split()[0])
            used["postgresql"] = sum(cpu_of(p) for p in family(postmaster))
        return used

    def pg(self, sql: str) -> list[tuple[Any, ...]]:
        import psycopg

        with psycopg.connect(self.database, autocommit=True) as conn:
            return list(conn.execute(sql).fetchall())  # type: ignore[arg-type]

    def database_counters(self) -> dict[str, float]:
        """PostgreSQL's counters: statements run, transactions committed, the games table's bytes and rows."""
        if self.cluster is None:
            return {}
        ((statements,),) = self.pg(
            "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements "
            "WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())"
        )
        ((commits,),) = self.pg("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")
        ((size, games),) = self.pg("SELECT pg_total_relation_size('games'), (SELECT count(*) FROM games)")
        return {
            "statements": float(statements),
            "commits": float(commits),
            "games_bytes": float(size),
            "games": float(games),
        }


@contextmanager
def setup(name: str, folder: Path, env: dict[str, str]) -> Iterator[Setup]:
    """The configuration ``name``'s database and servers, started with ``env``; stopped after."""
    engine, count = CONFIGS[name]
    with ExitStack() as stack:
        cluster = None
        if engine == "postgresql":
            cluster = postgres_support.Cluster.start(durable=True, settings=BENCH_SETTINGS)
            stack.callback(cluster.stop)
            database = cluster.new_database()
            with contextlib.closing(__import__("psycopg").connect(database, autocommit=True)) as conn:
                conn.execute("CREATE EXTENSION pg_stat_statements")
        else:
            database = str(folder / "games.db")
        options = ["--trusted-proxies", "127.0.0.1"]
        started = [stack.enter_context(served(folder, env, database=database, options=options)) for _ in range(count)]
        for url, _ in started:
            warm_up(url)
        yield Setup(name, [u for u, _ in started], [p for _, p in started], database, cluster, folder)


def warm_up(url: str, seconds: float = 300) -> None:
    """Until the server answers a hint: its workers have loaded the compiled kernel."""
    deadline = time.monotonic() + seconds
    with httpx.Client(base_url=url, timeout=seconds) as client:
        client.get("/api/stats").raise_for_status()
        game = client.post("/api/games", json={}).json()["id"]
        while client.get(f"/api/games/{game}/hint").status_code != 200:
            if time.monotonic() > deadline:
                raise SystemExit(f"{url} answered no hint within {seconds:.0f} s")
            time.sleep(0.5)


def run_locust(setup: Setup, phase: str, args: argparse.Namespace) -> dict[str, Any]:
    """One phase: Locust's master and workers as processes of their own; Locust's statistics and the CPU used."""
    think = 0.0 if phase == "saturation" else args.think
    hint_clients = 0 if phase == "saturation" else args.hint_clients
    abusers = 1 if phase == "abuse" else 0
    users = args.players + hint_clients + abusers
    env = {
        **os.environ,
        "FOURSQUARE_LOCUST_SERVERS": ",".join(setup.urls),
        "FOURSQUARE_LOCUST_THINK": str(think),
        "FOURSQUARE_LOCUST_PLAYERS": str(args.players),
        "FOURSQUARE_LOCUST_HINT_CLIENTS": str(hint_clients),
        "FOURSQUARE_LOCUST_ABUSERS": str(abusers),
        "FOURSQUARE_LOCUST_ADDRESSES": "1" if abusers else "0",
    }
    prefix = setup.folder / f"{setup.name}-{phase.replace(' ', '-')}"
    classes = ["Player", *(["HintClient"] if hint_clients else []), *(["Abuser"] if abusers else [])]
    locust = [sys.executable, "-m", "locust", "-f", str(LOCUSTFILE)]
    master = [
        *locust,
        "--master",
        "--headless",
        "--expect-workers",
        str(args.workers),
        "--users",
        str(users),
        "--spawn-rate",
        str(max(users // 2, 1)),
        "--run-time",
        f"{args.seconds}s",
        "--reset-stats",
        "--csv",
        str(prefix),
        "--only-summary",
        "--stop-timeout",
        "10",
        "--host",
        setup.urls[0],
        *classes,
    ]
    before_cpu, before_db = setup.cpu(), setup.database_counters()
    with open(f"{prefix}.log", "wb") as log:
        processes = [subprocess.Popen(master, env=env, stdout=log, stderr=subprocess.STDOUT)]
        processes += [
            subprocess.Popen([*locust, "--worker"], env=env, stdout=log, stderr=subprocess.STDOUT)
            for _ in range(args.workers)
        ]
        locust_cpu = 0.0
        try:
            while processes[0].poll() is None:
                locust_cpu = max(locust_cpu, sum(cpu_of(p.pid) for p in processes))
                time.sleep(0.5)
        finally:
            for process in processes:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(timeout=30)
                if process.poll() is None:
                    process.kill()
    after_cpu, after_db = setup.cpu(), setup.database_counters()
    stats = read_stats(Path(f"{prefix}_stats.csv"))
    failures = read_failures(Path(f"{prefix}_failures.csv"))
    cpu = {name: after_cpu[name] - before_cpu[name] for name in after_cpu}
    cpu["locust"] = locust_cpu
    database = {name: after_db[name] - before_db[name] for name in after_db}
    return summary(stats, failures, cpu, database, args)


def read_stats(path: Path) -> dict[str, dict[str, str]]:
    with path.open(newline="") as file:
        return {row["Name"]: row for row in csv.DictReader(file)}


def read_failures(path: Path) -> list[str]:
    if not path.exists():
        return []
    with path.open(newline="") as file:
        return [f"{row['Occurrences']}× {row['Method']} {row['Name']}: {row['Error']}" for row in csv.DictReader(file)]


def summary(
    stats: dict[str, dict[str, str]],
    failures: list[str],
    cpu: dict[str, float],
    database: dict[str, float],
    args: argparse.Namespace,
) -> dict[str, Any]:
    def figure(name: str, column: str) -> float | None:
        row = stats.get(name)
        return None if row is None or row[column] in ("", "N/A") else float(row[column])

    moves = figure("move", "Request Count") or 0.0
    seconds = moves / (figure("move", "Requests/s") or float("inf")) if moves else 0.0
    all_moves = moves + (figure("move (hint)", "Request Count") or 0.0)
    abuse = {name: int(float(row["Request Count"])) for name, row in stats.items() if name.startswith("abuse: ")}
    per_move = {}
    if all_moves:
        per_move = {
            "server_cpu_ms": 1000 * cpu["servers"] / all_moves,
            "move_answer_bytes": figure("move", "Average Content Size"),
        }
        if "statements" in database:
            per_move |= {"postgresql_cpu_ms": 1000 * cpu["postgresql"] / all_moves}
    return {
        "seconds": round(seconds, 1),
        "moves": int(moves),
        "moves_per_s": rounded(figure("move", "Requests/s")),
        "move_p50_ms": figure("move", "50%"),
        "move_p95_ms": figure("move", "95%"),
        "move_p99_ms": figure("move", "99%"),
        "move_max_ms": rounded(figure("move", "Max Response Time")),
        "hints": int(figure("hint", "Request Count") or 0),
        "hints_busy": int(figure("hint (busy)", "Request Count") or 0),
        "hints_limited": int(figure("hint (limited)", "Request Count") or 0),
        "hint_p50_ms": figure("hint", "50%"),
        "hint_p95_ms": figure("hint", "95%"),
        "failures": int(figure("Aggregated", "Failure Count") or 0),
        "failure_kinds": failures,
        "abuse_requests": sum(abuse.values()),
        "cpu_s": {name: round(value, 1) for name, value in cpu.items()},
        "database": database,
        "per_move": per_move,
        "all_moves": int(all_moves),
    }


def rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def measure(args: argparse.Namespace) -> dict[str, Any]:
    results: dict[str, Any] = {}
    for name in args.configs:
        with tempfile.TemporaryDirectory(prefix=f"foursquare-locust-{name}-") as tmp:
            phases: dict[str, Any] = {}
            for phase in args.phases:  # each phase on servers of its own: the abuse phase has the default limits
                env = {} if phase == "abuse" else dict(GENEROUS_LIMITS)
                with setup(name, Path(tmp), env) as configuration:
                    phases[phase] = run_locust(configuration, phase, args)
                print(
                    f"{name} {phase}: {phases[phase]['moves_per_s']} moves/s, p95 {phases[phase]['move_p95_ms']} ms, "
                    f"{phases[phase]['failures']} failures",
                    file=sys.stderr,
                    flush=True,
                )
            results[name] = phases
    return results


def table(result: dict[str, Any]) -> str:
    lines = [
        f"Command: `{result['command']}`",
        "",
        f"{result['players']} players (a move every {result['think']} s on average, flat out when saturating), "
        f"{result['hint_clients']} hint clients, 1 abuser in the abuse phase; Locust {result['locust']} with "
        f"{result['workers']} worker processes; {result['seconds']} s a phase. Machine: {result['machine']}.",
        "",
        "| config | phase | moves/s | move p50 ms | p95 ms | p99 ms | max ms | hints | busy | limited | hint p50 ms "
        "| hint p95 ms | abuse requests | failures | CPU s: servers / PostgreSQL / Locust |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for config, phases in result["results"].items():
        for phase, p in phases.items():
            cpu = " / ".join(str(p["cpu_s"].get(k, "–")) for k in ("servers", "postgresql", "locust"))
            cells = [
                config,
                phase,
                p["moves_per_s"],
                p["move_p50_ms"],
                p["move_p95_ms"],
                p["move_p99_ms"],
                p["move_max_ms"],
                p["hints"],
                p["hints_busy"],
                p["hints_limited"],
                p["hint_p50_ms"],
                p["hint_p95_ms"],
                p["abuse_requests"],
                p["failures"],
                cpu,
            ]
            lines.append("| " + " | ".join("–" if c is None else str(c) for c in cells) + " |")
    lines += ["", "Per move answered (player and hint client moves), saturation phase:", ""]
    for config, phases in result["results"].items():
        if "saturation" not in phases:
            continue
        p = phases["saturation"]
        db = p["database"]
        moves = max(p["all_moves"], 1)
        text = ", ".join(f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}" for k, v in p["per_move"].items())
        if db:
            games = max(db["games"], 1)
            text += (
                f", PostgreSQL statements {db['statements'] / moves:.2f} and commits {db['commits'] / moves:.2f}; "
                f"games table +{db['games_bytes'] / games:.0f} bytes a game ({db['games']:.0f} games)"
            )
        lines.append(f"- {config}: {text}")
    for config, phases in result["results"].items():
        for phase, p in phases.items():
            lines += [f"- failures, {config} {phase}: {kind}" for kind in p["failure_kinds"]]
    return "\n".join(lines)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--configs", nargs="+", choices=list(CONFIGS), default=list(CONFIGS))
    parser.add_argument("--phases", nargs="+", choices=PHASES, default=list(PHASES))
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--hint-clients", type=int, default=20)
    parser.add_argument("--think", type=float, default=1.0, help="a player's mean seconds between moves")
    parser.add_argument("--seconds", type=int, default=30, help="each phase's length, after the users are spawned")
    parser.add_argument("--workers", type=int, default=2, help="Locust worker processes")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not postgres_support.available() and any(CONFIGS[c][0] == "postgresql" for c in args.configs):
        parser.error("PostgreSQL is not installed (Debian: apt-get install postgresql)")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    import locust

    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    results = measure(args)
    machine = (
        f"{os.cpu_count()} CPUs, load average {load} before, "
        f"{' '.join(f'{x:.1f}' for x in os.getloadavg())} after; Python {platform.python_version()}"
    )
    command = " ".join([".venv/bin/python benchmarks/locust_run.py", *(argv if argv is not None else sys.argv[1:])])
    result = {
        "command": command,
        "players": args.players,
        "hint_clients": args.hint_clients,
        "think": args.think,
        "seconds": args.seconds,
        "workers": args.workers,
        "locust": locust.__version__,
        "machine": machine,
        "results": results,
    }
    print(json.dumps(result, indent=2) if args.json else table(result))
    failed = any(p["failures"] for phases in results.values() for p in phases.values())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
