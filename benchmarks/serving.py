"""``foursquare serve`` for the benchmarks that load a real server (``load_test.py``, ``hint_fairness.py``), and
what they share.

They run as scripts (``.venv/bin/python benchmarks/load_test.py``), so this folder is ``sys.path[0]`` and they
import this module as ``serving``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

import httpx

GENEROUS_LIMITS = {
    "FOURSQUARE_RATE_GAMES": "1000000/minute",
    "FOURSQUARE_RATE_HINTS": "1000000/minute",
    "FOURSQUARE_RATE_ANALYSES": "1000000/minute",
}
"""Rate limits (docs/api.md, "Limits") far above what a benchmark sends: every client of a benchmark comes from
one address or two, and what it measures is the server (its capacity, how its pool shares the workers), not how
the limits turn away one client's excess."""


@contextmanager
def served(
    folder: Path, env: Mapping[str, str] | None = None, *, database: str | None = None, options: Sequence[str] = ()
) -> Iterator[tuple[str, int]]:
    """``foursquare serve`` on a free port of localhost with a fresh database in ``folder`` (or ``database``, a
    PostgreSQL URL), its log in ``folder``, its environment this process's with ``env`` over it, and more command
    line ``options``; yields its URL and process id, and stops it after."""
    environment = {**os.environ, **(env or {}), "PYTHONUNBUFFERED": "1"}
    log_path = folder / f"serve-{os.urandom(4).hex()}.log" if database else folder / "serve.log"
    db = database or str(folder / "games.db")
    command = [sys.executable, "-m", "foursquare.cli", "serve", "--port", "0", "--db", db, *options]
    with log_path.open("wb") as log:  # a file, not a pipe: a pipe nobody reads fills up and blocks the server
        proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=environment)
    try:
        deadline = time.monotonic() + 60
        while not (found := re.search(r"served at (\S+)/ ", log_path.read_text(errors="replace"))):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"foursquare serve did not start:\n{log_path.read_text(errors='replace')}")
            time.sleep(0.1)
        yield found.group(1), proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def error_kind(response: httpx.Response) -> str:
    """An answer that is not the one hoped for, as its status and its error code: ``429 rate_limited``."""
    try:
        code = response.json().get("code", "")
    except ValueError:
        code = ""
    return f"{response.status_code} {code}".strip()


async def first_hint(client: httpx.AsyncClient, seconds: float) -> None:
    """Deal a game with ``client`` (which has its player cookie) and ask for its hint until one is answered: the
    server's workers have loaded the kernel (or compiled it, on a cold cache). Exits after ``seconds`` without."""
    deadline = time.monotonic() + seconds
    dealt = await client.post("/api/games", json={})
    dealt.raise_for_status()
    hint = f"/api/games/{dealt.json()['id']}/hint"
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.TransportError):
            if (await client.get(hint)).status_code == 200:
                return
        await asyncio.sleep(0.5)
    raise SystemExit(f"the server at {client.base_url} answered no hint within {seconds:.0f} s")
