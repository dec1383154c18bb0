"""Measure the terminal game's front end against the Textual prototype on a pseudo-terminal.

For each: start-up (spawn to the first frame showing the card to place), input latency (a key written to the
pty until the screen shows its effect: undo and redo, alternately), and the screen each draws at 40 x 12,
80 x 24 and 120 x 40 (saved as text next to this file). Usage, from the repository root:

    python benchmarks/terminal_ui/measure.py HAND_PYTHON TEXTUAL_PYTHON

where each Python can import foursquare (and the second also textual), e.g. with PYTHONPATH=src.
"""

from __future__ import annotations

import fcntl
import os
import select
import statistics
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pyte

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
RUNS = 5
KEYS = 20


def start(command: list[str], size: tuple[int, int]) -> tuple[subprocess.Popen[bytes], int, pyte.Screen, pyte.ByteStream]:
    columns, lines = size
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "PYTHONPATH": str(ROOT / "src"), "FOURSQUARE_DATA_DIR": "/tmp/fs-bench"}
    process = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True)
    os.close(slave)
    screen = pyte.Screen(columns, lines)
    return process, master, screen, pyte.ByteStream(screen)


def wait(master: int, stream: pyte.ByteStream, screen: pyte.Screen, text: str, timeout: float = 60) -> float:
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        if select.select([master], [], [], 0.005)[0]:
            stream.feed(os.read(master, 65536))
            if any(text in line for line in screen.display):
                return time.perf_counter()
    raise TimeoutError(text)


def measure(name: str, command: list[str]) -> dict[str, object]:
    startups, latencies = [], []
    for _ in range(RUNS):
        began = time.perf_counter()
        process, master, screen, stream = start(command, (80, 24))
        startups.append(wait(master, stream, screen, "Move 1") - began)
        os.write(master, b"i")
        wait(master, stream, screen, "Move 2")
        for index in range(KEYS):
            key, shows = (b"u", "Move 1") if index % 2 == 0 else (b"r", "Move 2")
            sent = time.perf_counter()
            os.write(master, key)
            latencies.append(wait(master, stream, screen, shows) - sent)
        process.kill()
        process.wait()
        os.close(master)
    for size in ((40, 12), (80, 24), (120, 40)):
        process, master, screen, stream = start(command, size)
        wait(master, stream, screen, "Move 1")
        os.write(master, b"ij")
        wait(master, stream, screen, "Move 3")
        time.sleep(0.5)
        while select.select([master], [], [], 0.2)[0]:
            stream.feed(os.read(master, 65536))
        (HERE / f"{name}-{size[0]}x{size[1]}.txt").write_text("\n".join(line.rstrip() for line in screen.display) + "\n")
        process.kill()
        process.wait()
        os.close(master)
    return {
        "startup_median_s": round(statistics.median(startups), 3),
        "startup_max_s": round(max(startups), 3),
        "latency_median_ms": round(statistics.median(latencies) * 1000, 1),
        "latency_p90_ms": round(sorted(latencies)[int(len(latencies) * 0.9)] * 1000, 1),
    }


def main() -> None:
    hand, textual = sys.argv[1], sys.argv[2]
    results = {
        "hand-written": measure("hand-written", [hand, "-m", "foursquare.cli", "play", "--deal", "5"]),
        "textual": measure("textual", [textual, str(HERE / "textual_prototype.py"), "5"]),
    }
    for name, numbers in results.items():
        print(name, numbers)


if __name__ == "__main__":
    main()
