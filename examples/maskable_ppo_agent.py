"""A model trained by train_maskable_ppo.py as an agent of the benchmark (docs/benchmark.md):

    python examples/train_maskable_ppo.py --save ppo.zip
    FOURSQUARE_MODEL=ppo.zip foursquare rl evaluate examples/maskable_ppo_agent.py:policy --name ppo -o ppo.json

``policy(observation, mask)`` is what ``foursquare rl evaluate`` asks of an agent: the environments' observation and
action mask in, a cell out. It plays the model's most likely legal cell, as the example's own evaluation does.
"""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the example's module, whose network the model names

import train_maskable_ppo as example
from sb3_contrib import MaskablePPO


@functools.cache
def model() -> MaskablePPO:
    """The model of ``FOURSQUARE_MODEL`` (default ``ppo.zip``), loaded once."""
    torch.set_num_threads(1)  # one observation a call: more threads only wait for each other
    return MaskablePPO.load(os.environ.get("FOURSQUARE_MODEL", "ppo.zip"), device="cpu")


def policy(observation: np.ndarray, mask: np.ndarray) -> int:
    return int(example.choose(model().policy, observation[None], mask[None])[0])


model()  # loaded with the agent, so that its time is not counted as the first move's
