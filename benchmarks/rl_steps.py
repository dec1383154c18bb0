"""Environment steps per second of foursquare.rl, with observations and action masks, on one core.

    taskset -c 0 .venv/bin/python benchmarks/rl_steps.py            # a table
    taskset -c 0 .venv/bin/python benchmarks/rl_steps.py --json     # one JSON object per line

For N = 1, 64 and 1024 environments it steps :class:`FoursquareVectorEnv` (the compiled N-game step) and
Gymnasium's ``SyncVectorEnv`` of N plain :class:`FoursquareEnv`, each agent playing the first legal cell
of every mask. ``loop`` counts the whole loop (choosing the actions from the masks with numpy included);
``step`` counts the time inside ``step()`` alone. Each is given by the wall clock and by the process's CPU
time (``_cpu``), the fairer figure on a shared machine. The vector environment runs with ``copy=False``
(its arrays, not copies); ``copy`` is the default ``copy=True``. docs/performance.md has the figures.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

import gymnasium as gym

import foursquare.rl as R


def measure(envs: Any, seconds: float) -> dict[str, float]:
    """Step ``envs`` for about ``seconds``; steps per second of the loop and of ``step()`` alone, by the wall
    clock and by this process's CPU time (``*_cpu``: what one core does, however busy the machine is)."""
    _, info = envs.reset(seed=0)
    masks = info["action_mask"]
    for _ in range(3):  # compile / warm up
        _, _, _, _, info = envs.step(masks.argmax(1))
        masks = info["action_mask"]
    n = envs.num_envs
    steps = 0
    in_step = in_step_cpu = 0.0
    start, start_cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        for _ in range(10):
            actions = masks.argmax(1)
            t, t_cpu = time.perf_counter(), time.process_time()
            _, _, _, _, info = envs.step(actions)
            in_step += time.perf_counter() - t
            in_step_cpu += time.process_time() - t_cpu
            masks = info["action_mask"]
            steps += n
    total, total_cpu = time.perf_counter() - start, time.process_time() - start_cpu
    return {
        "loop": steps / total,
        "step": steps / in_step,
        "loop_cpu": steps / total_cpu,
        "step_cpu": steps / max(in_step_cpu, 1e-9),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=2.0, help="per measurement (default 2)")
    p.add_argument("--sizes", default="1,64,1024", help="numbers of environments")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    makers: dict[str, Callable[[int], Any]] = {
        "vector": lambda n: R.FoursquareVectorEnv(n, copy=False),
        "vector-copy": lambda n: R.FoursquareVectorEnv(n),
        "sync": lambda n: gym.vector.SyncVectorEnv([R.FoursquareEnv for _ in range(n)]),
    }
    rows = []
    for n in (int(s) for s in args.sizes.split(",")):
        row: dict[str, Any] = {"num_envs": n}
        for name, make in makers.items():
            row[name] = measure(make(n), args.seconds)
        row["speedup_loop"] = row["vector"]["loop"] / row["sync"]["loop"]
        row["speedup_loop_cpu"] = row["vector"]["loop_cpu"] / row["sync"]["loop_cpu"]
        rows.append(row)
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            for clock in ("", "_cpu"):
                vec, copy, sync = row["vector"], row["vector-copy"], row["sync"]
                print(
                    f"N={n:>5} {clock or 'wall':>4}: vector {vec['loop' + clock]:>10,.0f} steps/s"
                    f" (step() alone {vec['step' + clock]:>10,.0f}), with copies {copy['loop' + clock]:>10,.0f};"
                    f" SyncVectorEnv {sync['loop' + clock]:>7,.0f} (step() alone {sync['step' + clock]:>7,.0f});"
                    f" {row['speedup_loop' + clock]:,.0f}x",
                    flush=True,
                )


if __name__ == "__main__":
    main()
