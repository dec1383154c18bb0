"""The example's MaskablePPO training, keeping the clone too: the ``clone`` and ``ppo`` rows of docs/benchmark.md.

Runs examples/train_maskable_ppo.py's phases with its options (budgets of counts, so a seed trains the same
models), saves the clone before the critic and PPO, then the model after PPO, and prints the budgets spent:

    .venv/bin/python benchmarks/train_clone_and_ppo.py OUT_FOLDER --demos 800000 --clone-updates 8000 --steps 163840
    FOURSQUARE_MODEL=OUT_FOLDER/clone.zip foursquare rl evaluate examples/maskable_ppo_agent.py:policy --name clone ...
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))

import train_maskable_ppo as example

from foursquare.rl.sb3 import MaskableVecEnv


def main(folder: str, argv: list[str]) -> None:
    args = example.parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)

    def log(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    start = time.monotonic()
    model = example.make_model(MaskableVecEnv(args.envs, args.seed), args)
    demos = example.clone(model.policy, args, log)
    clone_seconds = time.monotonic() - start
    model.save(Path(folder) / "clone.zip")
    example.fit_critic(model.policy, args, log)
    model.learn(total_timesteps=args.steps, callback=example.Progress(float("inf"), log))
    model.save(Path(folder) / "ppo.zip")
    spent = {
        "demos": demos,
        "clone_seconds": clone_seconds,
        "ppo_steps": int(model.num_timesteps),
        "train_seconds": time.monotonic() - start,
    }
    print(json.dumps(spent), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
