"""Keep processor cores busy, to run the tests on a loaded machine: a check that passes only on idle cores is a
check that depends on the machine's speed.

    python tools/busy.py                  # every core, until killed (Ctrl-C, SIGTERM)
    python tools/busy.py --cores 2 --seconds 600
    python tools/busy.py & pytest -q tests/test_rl.py; kill %1

Each core gets a process spinning at nice 0 (the tests' own priority, so that they really compete); the
spinners end with this process, however it ends.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import signal
import sys
import time


def spin(parent: int) -> None:
    """Burn one core until killed, or until ``parent`` is gone (killed with no chance to stop us)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    with contextlib.suppress(PermissionError):  # nice 0, even when started under nice (needs the right to)
        os.setpriority(os.PRIO_PROCESS, 0, 0)
    n = 0
    while os.getppid() == parent:
        for _ in range(1_000_000):
            n = (n * 1103515245 + 12345) & 0xFFFFFFFF


def positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number above 0, not {text}")
    return value


def positive_float(text: str) -> float:
    value = float(text)
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0, not {text}")
    return value


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cores", type=positive_int, default=os.cpu_count() or 1, help="cores to keep busy (default: all)")
    p.add_argument("--seconds", type=positive_float, help="stop after this long (default: when killed)")
    args = p.parse_args(argv)

    def stop(signum: int, frame: object) -> None:
        raise SystemExit(0)

    # Stop on SIGTERM and on Ctrl-C, even when started in the background of a shell that ignores SIGINT there.
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    spinners = [multiprocessing.Process(target=spin, args=(os.getpid(),), daemon=True) for _ in range(args.cores)]
    try:
        for process in spinners:
            process.start()
        if args.seconds is None:
            while True:
                time.sleep(3600)
        time.sleep(args.seconds)
    except KeyboardInterrupt:
        pass
    finally:
        started = [process for process in spinners if process.pid is not None]
        for process in started:
            process.kill()
        for process in started:
            process.join()
    return 0


if __name__ == "__main__":
    sys.exit(main())
