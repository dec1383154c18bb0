"""How long ``foursquare serve`` takes to stop on SIGTERM under load, and whether any request is lost.

    .venv/bin/python benchmarks/drain.py                 # about 20 s
    .venv/bin/python benchmarks/drain.py --load 30 --players 100

It starts ``foursquare serve`` on a free port of localhost with a fresh SQLite database and the default settings
(every ``FOURSQUARE_RATE_*`` and ``FOURSQUARE_POOL*``/``FOURSQUARE_HEAVY*`` variable removed, so hints run on
worker processes), waits until a hint is answered, then lets ``--players`` players (each from an address of its
own, 127.0.1.x) play random moves back to back and ``--hint-clients`` clients (127.0.2.x) ask hints back to back
for ``--load`` seconds, and sends SIGTERM. It reports the seconds from the signal to the process's exit, the
server's log from the signal on, and the requests: answered, refused at the door (a connection error before
anything was sent: a proxy retries those elsewhere) and lost (a connection that broke after the request was sent:
the client cannot tell whether it was played). docs/deploy.md ("Stopping: draining") quotes its figures.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--load", type=float, default=8.0, help="seconds of load before SIGTERM (default 8)")
    parser.add_argument("--players", type=int, default=40, help="players moving back to back (default 40)")
    parser.add_argument("--hint-clients", type=int, default=10, help="clients asking hints (default 10)")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="foursquare-drain-"))
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FOURSQUARE_RATE_", "FOURSQUARE_POOL",
                                                                     "FOURSQUARE_HEAVY"))}  # fmt: skip
    command = [sys.executable, "-m", "foursquare.cli", "serve", "--port", str(port), "--db", str(folder / "g.db")]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    lines: list[tuple[float, str]] = []
    assert server.stderr is not None
    stderr = server.stderr

    def read_log() -> None:
        lines.extend((time.monotonic(), line.rstrip()) for line in stderr)

    threading.Thread(target=read_log, daemon=True).start()
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        try:
            httpx.get(f"{url}/healthz")
            break
        except httpx.TransportError:
            if server.poll() is not None or time.monotonic() > deadline:
                print("the server did not start", file=sys.stderr)
                return 1
            time.sleep(0.1)
    with httpx.Client(base_url=url, timeout=60) as client:  # the workers have loaded the kernel
        client.get("/api/stats")
        game = client.post("/api/games", json={}).json()
        while client.get(f"/api/games/{game['id']}/hint").status_code != 200:
            time.sleep(0.2)

    stop = threading.Event()
    outcomes: Counter[str] = Counter()
    guard = threading.Lock()

    def count(outcome: str) -> None:
        with guard:
            outcomes[outcome] += 1

    def client_loop(address: str, hints: bool) -> None:
        transport = httpx.HTTPTransport(local_address=address)
        with httpx.Client(base_url=url, timeout=60, transport=transport) as own:
            state: dict[str, object] = {"outcome": "over"}
            while not stop.is_set():
                try:
                    if state.get("outcome") != "playing":
                        answer = own.post("/api/games", json={}) if own.cookies else own.get("/api/stats")
                    elif hints:
                        answer = own.get(f"/api/games/{state['id']}/hint")
                    else:
                        legal = state["legal"]
                        assert isinstance(legal, list)
                        row, col = random.choice(legal)
                        answer = own.post(f"/api/games/{state['id']}/moves",
                                          json={"row": row, "col": col, "turn": state["turn"]})  # fmt: skip
                except httpx.ConnectError:
                    count("refused at the door")
                    time.sleep(0.05)
                    continue
                except httpx.TransportError as exc:
                    count(f"lost ({type(exc).__name__})")
                    time.sleep(0.05)
                    continue
                count(f"answered {answer.status_code}")
                if answer.status_code in (200, 201) and "outcome" in answer.json():
                    state = answer.json()

    threads = [threading.Thread(target=client_loop, args=(f"127.0.1.{i + 1}", False)) for i in range(args.players)]
    threads += [threading.Thread(target=client_loop, args=(f"127.0.2.{i + 1}", True)) for i in range(args.hint_clients)]
    for thread in threads:
        thread.start()
    time.sleep(args.load)
    signalled = time.monotonic()
    server.send_signal(signal.SIGTERM)
    status = server.wait()
    exited = time.monotonic() - signalled
    stop.set()
    for thread in threads:
        thread.join()
    time.sleep(0.2)
    print(f"exit status {status}, {exited:.2f} s after SIGTERM")
    for moment, line in lines:
        if moment >= signalled:
            print(f"  +{moment - signalled:5.2f} s  {line}")
    for outcome, number in sorted(outcomes.items()):
        print(f"{number:7d}  {outcome}")
    return 0 if status == 0 and not any(outcome.startswith("lost") for outcome in outcomes) else 1


if __name__ == "__main__":
    raise SystemExit(main())
