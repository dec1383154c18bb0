"""The kernel's functions compiled ahead of time, with the types they are compiled for.

``setup.py`` builds them with numba's ahead-of-time compiler (``numba.pycc``) into the extension module
``foursquare.kernel._compiled`` when the package is built, so that the player's install needs neither numba
nor a compile: :mod:`foursquare.kernel.compiled` calls them. They are what Python calls of the kernel: the
hint's and the best player's Monte Carlo, greedy play, the expert's survival chances, the rules, the
benchmarks' whole games. The differential test (``tests/test_compiled_kernel.py``) checks that each gives
exactly what numba's just-in-time compilation of the same source gives.

Each signature is numba's: arrays are C-contiguous (``[::1]``), and :mod:`~foursquare.kernel.compiled`
refuses any other argument, since the compiled code reads memory as these types without checking.
"""

from __future__ import annotations

from typing import NamedTuple


class Export(NamedTuple):
    """One compiled function: the kernel module that defines it, its name there, its numba signature."""

    module: str
    name: str
    signature: str


STATE = "int8[::1]"
EXPORTS = (
    Export("state", "empty_state", "int8[::1](int64, int64)"),
    Export("rules", "legal", f"int64({STATE}, int64[::1])"),
    Export("rules", "place", f"void({STATE}, int64, int64)"),
    Export("rules", "evaluate", f"UniTuple(int64, 3)({STATE}, int64, int64)"),
    Export("policies", "greedy_choice", f"int64({STATE}, int64, int64[::1], int64)"),
    Export("policies", "greedy_move", f"int64({STATE}, int64)"),
    Export("policies", "greedy_games", "int64[::1](int8[:, ::1], int64, int64)"),
    Export("policies", "policy_choice", f"int64({STATE}, int64, int64[::1], int64, float64[::1], {STATE})"),
    Export("policies", "policy_games", f"int64[::1](int8[:, ::1], {STATE}, float64[::1])"),
    Export(
        "policies", "_random_games",
        "Tuple((int8[:, ::1], int64[:, ::1], int64[::1]))(int64, uint64[::1], int64, int64)",
    ),
    Export(
        "montecarlo", "monte_carlo",
        f"void({STATE}, int64, {STATE}, int64[::1], uint64[::1], int8[:, ::1], float64[::1])",
    ),
    Export("survival", "survival_after", f"void({STATE}, int64, int64[::1], int64[::1], int64, float64[::1])"),
)
#: The kernel's modules whose code the exports are compiled from (those they import, and this table): the
#: fingerprint the module bakes in is theirs, so an edit of another module (the vector environments') leaves it
#: current. The differential test fails if an export comes to need another.
SOURCE_MODULES = ("exports", "montecarlo", "policies", "rng", "rules", "state", "survival")
#: The name of the compiled function that returns the build's fingerprint of the kernel's sources (see
#: :func:`foursquare.kernel.compiled.fingerprint_word`).
FINGERPRINT = "build_fingerprint"
#: The extension module, in this package.
MODULE = "_compiled"
