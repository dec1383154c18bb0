"""Keep numba's on-disk cache of the kernel consistent across the package's modules.

numba checks only the source file of the function it loads from its cache, and bakes in the module
globals that function read (numba issue #1833; "Notes on caching" in numba's documentation). So after
an edit of ``rules.py`` the cached policies of ``policies.py`` would go on playing the old rules, and
after a change of the engine's constants every cached function would keep the old ones.
:func:`refresh` fingerprints the package's sources and those constants and flushes the cache of every
compiled kernel function whenever the fingerprint differs from the one stored beside the cache. Code
outside the package that compiles kernel functions into its own cached functions (the tests' helpers)
calls it too, with its own file added to the sources.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

from numba.core.dispatcher import Dispatcher

from foursquare.cards import DECK_SIZE, SUITS
from foursquare.engine import GRID, MAX_FACE_DOWN, PILE_CAP, WINNING_CELLS

STAMP_NAME = "foursquare-kernel.fingerprint"
SOURCES = tuple(sorted(Path(__file__).parent.glob("*.py")))


def fingerprint(sources: Iterable[Path] = SOURCES) -> str:
    """A digest of the given source files and of the engine constants the kernel compiles in."""
    digest = hashlib.sha256(repr((DECK_SIZE, SUITS, GRID, MAX_FACE_DOWN, PILE_CAP, WINNING_CELLS)).encode())
    for path in sources:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def compiled_functions(modules: Iterable[ModuleType]) -> list[Any]:
    """The numba dispatchers defined (not merely imported) in ``modules``."""
    return [
        obj
        for module in modules
        for obj in vars(module).values()
        if isinstance(obj, Dispatcher) and obj.py_func.__module__ == module.__name__
    ]


def refresh(modules: Iterable[ModuleType], sources: Iterable[Path] = SOURCES) -> bool:
    """Flush the on-disk cache of the compiled functions of ``modules`` if ``sources`` changed since
    it was written; return whether it did. A cache that cannot be written is left to numba."""
    functions = compiled_functions(modules)
    if not functions:  # e.g. NUMBA_DISABLE_JIT=1: nothing is compiled, nothing is cached
        return False
    stamp = Path(functions[0].stats.cache_path) / STAMP_NAME
    current = fingerprint(sources)
    try:
        if stamp.read_text() == current:
            return False
    except OSError:
        pass  # no stamp yet
    # A cache folder numba cannot write holds nothing of ours to keep in step: then leave it all to numba.
    with contextlib.suppress(OSError):
        for function in functions:
            function._cache.flush()  # numba's own invalidation: an empty index, so the next call compiles
        stamp.write_text(current)
    return True
