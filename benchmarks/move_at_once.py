"""Click to card-and-flips shown in the page, with every move's answer held back (issue 42, part 4).

    .venv/bin/python benchmarks/move_at_once.py              # 50 moves, each answer held 800 ms (about 2 minutes)
    .venv/bin/python benchmarks/move_at_once.py --moves 100 --hold-ms 800

It starts ``foursquare serve`` on a free port of localhost with a fresh SQLite database, opens the page in Debian's
Chromium (``/usr/bin/chromium``, headless, driven by Playwright) and plays random legal moves of random deals
(a new game when one ends). Each move's request is held by the test (``page.route``) and let go ``--hold-ms``
after the click. The page notes, for each click, its event's time (``event.timeStamp``), when the DOM first shows
the move (the hand's next card pending, the card placed and the cards it turned: a MutationObserver) and when that
frame is presented (the next ``requestAnimationFrame`` and a message after it). It checks that the move was shown
while its answer was still held, and reports the median, 95th percentile and most of click to shown, in ms.
docs/performance.md quotes its figures.
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]

# Notes each click's time and when the move it made is first drawn and presented.
RECORDER = """() => {
  window.__moves = [];
  const hand = document.getElementById("hand-card");
  document.addEventListener("click", (event) => {
    const move = {click: event.timeStamp, dom: null, frame: null};
    window.__moves.push(move);
    const seen = () => {
      if (move.dom !== null || hand.dataset.pending !== "true") return;
      move.dom = performance.now();
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => { move.frame = performance.now(); };
        channel.port2.postMessage(null);
      });
    };
    new MutationObserver((_, observer) => { seen(); if (move.dom !== null) observer.disconnect(); })
      .observe(hand, {attributes: true, attributeFilter: ["data-pending"]});
    queueMicrotask(seen);
  }, true);
}"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_turn(page: Any, turn: int) -> None:
    page.wait_for_selector(f'#board[data-turn="{turn}"]')
    page.wait_for_function("() => document.body.dataset.busy !== 'true'")
    page.wait_for_function(
        "() => document.getElementById('board').dataset.armed === 'true'"
        " || document.getElementById('view-game').dataset.outcome !== 'playing'"
    )


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=50)
    parser.add_argument("--hold-ms", type=int, default=800)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    choose = random.Random(args.seed)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "games.db"
        env = {key: value for key, value in os.environ.items() if not key.startswith("FOURSQUARE_RATE")}
        server = subprocess.Popen(
            [sys.executable, "-m", "foursquare.cli", "serve", "--port", str(port), "--db", str(db)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(base + "/", timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline:
                    raise SystemExit("the server did not answer within 60 s")
                time.sleep(0.2)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                page = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US").new_page()
                held: list[Any] = []

                def hold(route: Any) -> None:
                    held.append(route)  # not answered until let go below

                page.route("**/api/games/*/moves", hold)
                page.goto(base + "/")
                wait_turn(page, 0)
                page.evaluate(RECORDER)
                shown: list[float] = []
                drawn: list[float] = []
                while len(shown) < args.moves:
                    if page.get_attribute("#view-game", "data-outcome") != "playing":
                        page.click("#btn-again")
                        wait_turn(page, 0)
                    turn = int(page.get_attribute("#board", "data-turn") or 0)
                    cells = page.locator("#board .slot.legal")
                    slot = cells.nth(choose.randrange(cells.count()))
                    slot.click()
                    page.wait_for_function("() => { const m = window.__moves.at(-1); return m && m.frame !== null; }")
                    assert len(held) == 1, "the move was not held"  # shown while its answer was held
                    move = page.evaluate("window.__moves.at(-1)")
                    shown.append(move["frame"] - move["click"])
                    drawn.append(move["dom"] - move["click"])
                    page.wait_for_timeout(max(0.0, args.hold_ms - (move["frame"] - move["click"])))
                    held.pop().continue_()
                    wait_turn(page, turn + 1)
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)
    load = " ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"{len(shown)} moves, each answer held {args.hold_ms} ms; load average {load}")
    for name, values in (("click to presented frame", shown), ("click to DOM", drawn)):
        print(
            f"{name}: median {statistics.median(values):.1f} ms, p95 {percentile(values, 0.95):.1f} ms,"
            f" max {max(values):.1f} ms"
        )


if __name__ == "__main__":
    main()
