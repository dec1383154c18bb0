"""The doctests of the package's modules (``--doctest-modules`` on ``src/foursquare``) import each module: those of
an extra that is not installed are left out, as ``make check``'s install leaves out the baseline (torch)."""

from __future__ import annotations

import importlib.util

#: Modules of the package whose imports need an extra, by the module each needs.
NEEDS = {"src/foursquare/rl/sb3.py": "stable_baselines3"}

collect_ignore = [path for path, module in NEEDS.items() if importlib.util.find_spec(module) is None]
