"""How fast each command starts (issue 43: at most 0.3 s, ``--version`` at most 0.12 s): the median wall time of
``foursquare --version``, ``foursquare --help``, each command's ``--help`` and ``play`` to its first frame, each run
``--runs`` times in a new process, the runs of all commands interleaved so that a busy moment of the machine is
shared among them. ``foursquare stats`` (an empty games folder) is timed too.

The command is this Python's ``python -m foursquare`` (what ``foursquare`` runs, without the console script's own
few milliseconds); ``--program`` times another installation's ``foursquare``. ``play`` is started on a
pseudo-terminal (80x24) and timed to the end of its first frame (the game's frames end by erasing below them),
then closed. docs/performance.md, "Start-up", reports it::

    python benchmarks/startup.py [--runs 21] [--program PATH] [--json]
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import select
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time

#: Every command whose ``--help`` is timed, as ``foursquare --help`` lists them (and the two groups' commands).
COMMANDS = (
    "play",
    "learn",
    "stats",
    "deal",
    "replay",
    "autoplay",
    "hint",
    "analyze",
    "solve",
    "bench",
    "rl",
    "rl dataset",
    "study",
    "study run",
    "serve",
)
FRAME_END = b"\x1b[J"  # tui.terminal.Screen.draw_lines ends each frame with it


def timed(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.decode()[-500:]}")
    return elapsed


def first_frame(argv: list[str], env: dict[str, str]) -> float:
    """Seconds from starting ``argv`` on a pseudo-terminal to the end of its first frame."""
    controller, terminal = os.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    start = time.perf_counter()
    process = subprocess.Popen(
        argv, stdin=terminal, stdout=terminal, stderr=terminal, env=env, start_new_session=True, close_fds=True
    )
    os.close(terminal)
    output = b""
    try:
        while FRAME_END not in output:
            ready, _, _ = select.select([controller], [], [], 30)
            if not ready:
                raise SystemExit(f"{' '.join(argv)}: no frame in 30 s; it wrote {output[-300:]!r}")
            try:
                chunk = os.read(controller, 65536)
            except OSError:  # the program ended
                chunk = b""
            if not chunk:
                raise SystemExit(f"{' '.join(argv)} ended before its first frame: {output[-300:]!r}")
            output += chunk
        return time.perf_counter() - start
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            while os.read(controller, 65536):  # drained, so that it can exit
                pass
        except OSError:
            pass
        process.wait()
        os.close(controller)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=21, help="runs of each command (default 21)")
    parser.add_argument("--program", help="a foursquare executable (default: this Python's -m foursquare)")
    parser.add_argument("--json", action="store_true", help="print the medians as JSON")
    options = parser.parse_args()
    program = [options.program] if options.program else [sys.executable, "-m", "foursquare"]
    with tempfile.TemporaryDirectory() as data:
        env = {**os.environ, "FOURSQUARE_DATA_DIR": data, "LANG": "C.UTF-8", "TERM": "xterm-256color"}
        env.pop("LANGUAGE", None)
        cases: dict[str, tuple[str, list[str]]] = {
            "--version": ("run", [*program, "--version"]),
            "--help": ("run", [*program, "--help"]),
            **{f"{command} --help": ("run", [*program, *command.split(), "--help"]) for command in COMMANDS},
            "stats": ("run", [*program, "stats"]),
            "play (first frame)": ("pty", [*program, "play", "--deal", "1", "--no-mouse"]),
        }
        times: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(options.runs):
            for name, (how, argv) in cases.items():
                times[name].append((first_frame if how == "pty" else timed)(argv, env))
    medians = {name: statistics.median(values) for name, values in times.items()}
    if options.json:
        print(json.dumps({name: round(value, 4) for name, value in medians.items()}, indent=2))
        return
    print(f"median of {options.runs} runs, load average {os.getloadavg()[0]:.2f} at the end")
    for name, value in medians.items():
        print(f"{name:<22} {value:6.3f} s   (min {min(times[name]):.3f}, max {max(times[name]):.3f})")


if __name__ == "__main__":
    main()
