"""The smallest agent of the benchmark (docs/benchmark.md): the first legal cell of every mask.

    foursquare rl evaluate examples/first_cell_agent.py:policy --test quick -o first_cell.json
    foursquare rl leaderboard first_cell.json benchmarks/leaderboard/*.json.gz
"""

import numpy as np


def policy(observation: np.ndarray, mask: np.ndarray) -> int:
    """``observation`` and ``mask`` as ``FoursquareEnv`` gives them; the cell to play, 0 (A1) to 48 (G7)."""
    return int(np.flatnonzero(mask)[0])
