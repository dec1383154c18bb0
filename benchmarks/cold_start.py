"""First use against warm use on a fresh install: the hint, ``solve --deal 3``, ``autoplay --deal 3`` (the best and
the expert player), ``analyze`` and a fresh server's first winnable deal, each run twice, a new process each time.

Builds the checkout's wheel once, as ``pip install`` does (the kernel compiled ahead of time, and the solver's numba
cache filled: setup.py; the build's numba is the lock's, as the installs' is), then two fresh virtual environments
from it: the player's (no extra: the hint and autoplay) and one with the ``web`` extra (numba's solver: ``solve``,
the expert, ``analyze`` and the server). ``--ref`` builds a commit instead of the work tree (``git archive``).
A command's time is the whole process's, start-up included. The server's is the
``POST /api/games {"winnable": true}`` after ``/readyz`` first answers ready (it waits for the pools' workers), then
more on the same server, for ``--servers`` fresh servers: the median first winnable deal of a fresh server against
the median warm one (each deal is a random one: a single pair compares two deals). ``--sizes`` also installs the
wheel with each extra alone and prints site-packages' size (README.md, "Install"). docs/performance.md, "Cold
start", reports it::

    python benchmarks/cold_start.py [--sizes] [--ref HEAD]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements" / "ci.txt"
EXTRAS = ("solver", "exact", "web", "postgres", "study", "rl")


def pip(python: Path, *args: str) -> None:
    subprocess.run([str(python), "-m", "pip", "--quiet", *args], check=True)


def checkout_copy(target: Path) -> Path:
    """The checkout's files as git sees them (tracked, and new ones not ignored), so the build writes nothing here."""
    listed = (
        subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
        .stdout.decode()
        .split("\0")
    )
    for name in filter(None, listed):
        if (ROOT / name).is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, target / name)
    return target


def commit_copy(target: Path, ref: str) -> Path:
    """The files of commit ``ref`` (``git archive``): what a clean clone of it holds."""
    target.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", ref], cwd=ROOT, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return target


def build_wheel(folder: Path, source: Path) -> tuple[Path, float, str]:
    """The wheel of ``source``, the seconds its build took (the kernel's compile and the solver's cache), and what
    the build said of the solver's cache. The lock constrains the build's own environment too (PIP_CONSTRAINT: pip
    passes no --constraint to it), so that the cache's numba is the installs' numba."""
    builder = folder / "builder"
    venv.create(builder, with_pip=True)
    started = time.perf_counter()
    built = subprocess.run(
        [
            str(builder / "bin" / "python"),
            "-m",
            "pip",
            "wheel",
            "-v",
            "--no-deps",
            "--constraint",
            str(LOCK),
            "--wheel-dir",
            str(folder),
            str(source),
        ],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "PIP_CONSTRAINT": str(LOCK)},
    )
    said = re.findall(r"foursquare: (.*)", built.stdout + built.stderr)
    return next(folder.glob("foursquare_solitaire-*.whl")), time.perf_counter() - started, "; ".join(said)


def fresh_install(folder: Path, wheel: Path, extras: str = "") -> Path:
    """A new virtual environment with the wheel (and ``extras``) installed; its bin folder."""
    venv.create(folder, with_pip=True)
    target = f"{wheel}[{extras}]" if extras else str(wheel)
    pip(folder / "bin" / "python", "install", "--constraint", str(LOCK), target)
    return folder / "bin"


def site_packages_mb(home: Path) -> float:
    site = next(home.glob("lib/python3*/site-packages"))
    return sum(p.lstat().st_size for p in site.rglob("*") if p.is_file() and not p.is_symlink()) / 2**20


def timed(command: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def record_file(bin_folder: Path, folder: Path) -> Path:
    """A game of deal 5 two moves in, written by the installed package."""
    path = folder / "game.json"
    script = (
        "import json, sys; from foursquare import record; from foursquare.engine import Game, Move\n"
        "g = Game(deal=5)\nfor n in ('D4', 'D3'): g.place(*Move.from_name(n))\n"
        "open(sys.argv[1], 'w').write(json.dumps(record.to_json(g)))"
    )
    subprocess.run([str(bin_folder / "python"), "-c", script, str(path)], check=True)
    return path


def finished_record_file(bin_folder: Path, folder: Path) -> Path:
    """A finished game of deal 5 (its first legal cell at every turn), for ``analyze``."""
    path = folder / "finished.json"
    script = (
        "import json, sys; from foursquare import record; from foursquare.engine import Game\n"
        "g = Game(deal=5)\nwhile not g.is_over(): m = g.view().legal_moves[0]; g.place(m.row, m.col)\n"
        "open(sys.argv[1], 'w').write(json.dumps(record.to_json(g)))"
    )
    subprocess.run([str(bin_folder / "python"), "-c", script, str(path)], check=True)
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_deals(bin_folder: Path, folder: Path, env: dict[str, str], deals: int) -> tuple[float, list[float]]:
    """A fresh server's seconds to ready, then the seconds of its first ``deals`` winnable deals, in order."""
    port = free_port()
    command = [str(bin_folder / "foursquare"), "serve", "--port", str(port), "--db", str(folder / "games.db")]
    started = time.perf_counter()
    server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=600) as client:
            while True:
                try:
                    if client.get("/readyz").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if server.poll() is not None:
                    raise SystemExit("the server did not start")
                time.sleep(0.05)
            ready = time.perf_counter() - started
            client.get("/api/stats")  # the session's cookie
            times = []
            for _ in range(deals):
                t0 = time.perf_counter()
                answer = client.post("/api/games", json={"winnable": True})
                answer.raise_for_status()
                times.append(time.perf_counter() - t0)
            return ready, times
    finally:
        server.terminate()
        server.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", action="store_true", help="also site-packages with each extra alone")
    parser.add_argument("--ref", help="build this commit (git archive) instead of the work tree's files")
    parser.add_argument("--servers", type=int, default=7, help="fresh servers started (default 7)")
    parser.add_argument("--warm-deals", type=int, default=5, help="warm deals asked of each after its first")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="foursquare-cold-"))
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    source = commit_copy(folder / "checkout", args.ref) if args.ref else checkout_copy(folder / "checkout")
    wheel, build_seconds, said = build_wheel(folder, source)
    print(f"wheel built in {build_seconds:.1f} s: {wheel.name}, {wheel.stat().st_size / 2**20:.1f} MB ({said})")
    player = fresh_install(folder / "player", wheel)
    web = fresh_install(folder / "web", wheel, "web")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FOURSQUARE_", "NUMBA_"))}
    env.update({"FOURSQUARE_DATA_DIR": str(folder / "data"), "LANG": "C.UTF-8"})
    game, finished = record_file(player, folder), finished_record_file(player, folder)
    # --delay 0: the demo's pause between moves (0.4 s) would hide what the first game costs more
    commands = {
        "hint (player's install)": [str(player / "foursquare"), "hint", str(game)],
        "autoplay --deal 3 (player's install)": [str(player / "foursquare"), "autoplay", "--deal", "3", "--delay", "0"],
        "--version (player's install)": [str(player / "foursquare"), "--version"],
        "hint (web extra: numba installed)": [str(web / "foursquare"), "hint", str(game)],
        "solve --deal 3 (web extra)": [str(web / "foursquare"), "solve", "--deal", "3"],
        "autoplay --player expert (web extra)": [
            str(web / "foursquare"),
            "autoplay",
            "--player",
            "expert",
            "--deal",
            "3",
            "--delay",
            "0",
        ],
        "analyze (web extra)": [str(web / "foursquare"), "analyze", str(finished)],
    }
    print(f"{'':40} {'first s':>8} {'warm s':>8} {'ratio':>6}")
    for name, command in commands.items():
        first, warm = timed(command, env), timed(command, env)
        print(f"{name:40} {first:8.2f} {warm:8.2f} {first / warm:6.2f}")
    # Each winnable deal is a random one, found by the solver in anything from milliseconds to a third of a second:
    # one pair of deals compares two deals, not a cold server with a warm one. So several fresh servers each give
    # their first deal and then warm ones, and the medians are compared.
    readies, firsts, warms = [], [], []
    for _ in range(args.servers):
        ready, times = server_deals(web, folder, env, deals=1 + args.warm_deals)
        readies.append(ready)
        firsts.append(times[0])
        warms.extend(times[1:])
    first, warm = statistics.median(firsts), statistics.median(warms)
    print(
        f"{'server: first winnable deal after ready':40} {first:8.2f} {warm:8.2f} {first / warm:6.2f}"
        f"   (medians: the first deals of {args.servers} fresh servers, their {len(warms)} later ones;"
        f" ready after {min(readies):.1f}-{max(readies):.1f} s)"
    )
    print(
        f"site-packages: player's install {site_packages_mb(folder / 'player'):.0f} MB, "
        f"with the web extra {site_packages_mb(folder / 'web'):.0f} MB"
    )
    if args.sizes:
        core = site_packages_mb(folder / "player")
        for extra in EXTRAS:
            fresh_install(folder / extra, wheel, extra)
            size = site_packages_mb(folder / extra)
            print(f"[{extra}]: {size:.0f} MB in all, {size - core:+.0f} MB")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
