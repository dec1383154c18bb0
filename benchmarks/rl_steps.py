"""Environment steps per second of foursquare.rl, with observations and action masks: ``foursquare bench --rl``.

    taskset -c 0 .venv/bin/python benchmarks/rl_steps.py --seconds 3          # a table
    taskset -c 0 .venv/bin/python benchmarks/rl_steps.py --seconds 3 --json   # one JSON object

The measurement lives in :mod:`foursquare.rl.bench` and the command is ``foursquare bench --rl [--sizes 1,64,1024]
[--seconds S] [--json] [house rules]``; this script only runs it, so that the commands quoted in
docs/performance.md from before the command existed still work.
"""

from __future__ import annotations

import sys

from foursquare.cli import main

if __name__ == "__main__":
    sys.exit(main(["bench", "--rl", *sys.argv[1:]]))
