"""How fast each command starts (issue 43: at most 0.3 s, ``--version`` at most 0.12 s): the median wall time of
``foursquare --version``, ``foursquare --help``, each command's ``--help`` and ``play`` to its first frame, each run
``--runs`` times in a new process, the runs of all commands interleaved so that a busy moment of the machine is
shared among them. ``foursquare stats`` (an empty games folder) is timed too. Each median is given as wall time
and as CPU time (user and system): on a shared machine the wall time is mostly waiting for a core, and the CPU
time is what a quiet machine's wall time comes close to.

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


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """The wall and CPU (user and system) seconds of a run of ``argv``."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert process.stderr is not None
    errors = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({process.returncode}): {errors.decode()[-500:]}")
    return elapsed, usage.ru_utime + usage.ru_stime


def first_frame(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Seconds from starting ``argv`` on a pseudo-terminal to the end of its first frame, and the CPU seconds of
    the whole run (stopped by SIGTERM once the frame is read)."""
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
        elapsed = time.perf_counter() - start
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            while os.read(controller, 65536):  # drained, so that it can exit
                pass
        except OSError:
            pass
        _, _, usage = os.wait4(process.pid, 0)
        process.returncode = 0
        os.close(controller)
    return elapsed, usage.ru_utime + usage.ru_stime


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
        load = os.getloadavg()[0]
        times: dict[str, list[float]] = {name: [] for name in cases}
        cpu: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(options.runs):
            for name, (how, argv) in cases.items():
                wall, used = (first_frame if how == "pty" else timed)(argv, env)
                times[name].append(wall)
                cpu[name].append(used)
    medians = {name: (statistics.median(times[name]), statistics.median(cpu[name])) for name in cases}
    if options.json:
        print(json.dumps({name: {"wall": round(w, 4), "cpu": round(c, 4)} for name, (w, c) in medians.items()}))
        return
    print(f"median of {options.runs} runs; load average {load:.2f} before, {os.getloadavg()[0]:.2f} after")
    print(f"{'':<22} {'wall':>7}  {'CPU':>7}  (wall min-max)")
    for name, (wall, used) in medians.items():
        print(f"{name:<22} {wall:6.3f}s  {used:6.3f}s  ({min(times[name]):.3f}-{max(times[name]):.3f})")


if __name__ == "__main__":
    main()
