"""Keep numba's on-disk cache consistent across the modules of a compiled package (the kernel, the solver).

numba checks only the source file of the function it loads from its cache, and bakes in the module
globals that function read (numba issue #1833; "Notes on caching" in numba's documentation). So after
an edit of ``kernel/rules.py`` the cached policies of ``kernel/policies.py`` would go on playing the old
rules, an edit of ``solver/ranks.py`` would leave the cached search using the old rank tests, and after a
change of the engine's constants every cached function would keep the old ones. :func:`refresh`
fingerprints a package's sources and those constants and flushes the cache of every compiled function of
the package whenever the fingerprint differs from the one stored beside the cache. Each compiled package
calls it once its modules are imported; code outside them that compiles their functions into cached
functions of its own (the tests' helpers) calls it too, with its own file added to the sources.

numba is an extra (``solver``): the player's install runs the kernel ahead-of-time compiled
(:mod:`foursquare.kernel.compiled`) and has no numba. :func:`njit` is then a stand-in whose functions
say what is missing when called; the kernel's modules stay importable for their constants and helpers.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable, Iterable
from importlib.util import find_spec
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

from foursquare.cards import DECK_SIZE, SUITS
from foursquare.engine import GRID, MAX_FACE_DOWN, PILE_CAP, WINNING_CELLS
from foursquare.files import FileWriteError, write_text

STAMP_NAME = "foursquare.fingerprint"
#: Whether numba is installed (the ``solver`` extra): without it nothing is compiled at run time.
NUMBA = find_spec("numba") is not None

_Function = TypeVar("_Function", bound=Callable[..., Any])


class CompilerMissing(RuntimeError):
    """A compiled function was called that neither numba nor the ahead-of-time kernel provides."""


class _Uncompiled:
    """What :func:`njit` gives without numba: the Python function, kept for its name, refusing to run (its loops
    in pure Python would take minutes where the compiled code takes a second)."""

    def __init__(self, function: Callable[..., Any]) -> None:
        self.py_func = function
        self.__name__ = function.__name__
        self.__doc__ = function.__doc__

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise CompilerMissing(
            f"{self.py_func.__module__}.{self.__name__} needs numba, which is not installed, and the ahead-of-time "
            "compiled kernel does not provide it: pip install 'foursquare-solitaire[solver]'"
        )


def njit(**options: Any) -> Callable[[_Function], _Function]:
    """``numba.njit(**options)`` when numba is installed; else a stand-in (see :class:`_Uncompiled`)."""
    if NUMBA:
        import numba

        return numba.njit(**options)  # type: ignore[no-any-return]

    def stand_in(function: _Function) -> _Function:
        return _Uncompiled(function)  # type: ignore[return-value]

    return stand_in


def package_sources(package_file: str) -> tuple[Path, ...]:
    """The modules of the package whose ``__init__.py`` is ``package_file``."""
    return tuple(sorted(Path(package_file).parent.glob("*.py")))


def fingerprint(sources: Iterable[Path]) -> str:
    """A digest of the given source files and of the engine constants that compiled code bakes in."""
    digest = hashlib.sha256(repr((DECK_SIZE, SUITS, GRID, MAX_FACE_DOWN, PILE_CAP, WINNING_CELLS)).encode())
    for path in sources:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def compiled_functions(modules: Iterable[ModuleType]) -> list[Any]:
    """The numba dispatchers defined (not merely imported) in ``modules`` (none without numba)."""
    if not NUMBA:
        return []
    from numba.core.dispatcher import Dispatcher

    return [
        obj
        for module in modules
        for obj in vars(module).values()
        if isinstance(obj, Dispatcher) and obj.py_func.__module__ == module.__name__
    ]


def refresh(modules: Iterable[ModuleType], sources: Iterable[Path]) -> bool:
    """Flush the on-disk cache of the compiled functions of ``modules`` if ``sources`` changed since
    it was written; return whether it did. A cache that cannot be written is left to numba."""
    functions = compiled_functions(modules)
    if not functions:  # no numba, or NUMBA_DISABLE_JIT=1: nothing is compiled, nothing is cached
        return False
    stamp = Path(functions[0].stats.cache_path) / STAMP_NAME
    current = fingerprint(sources)
    try:
        if stamp.read_text() == current:
            return False
    except OSError:
        pass  # no stamp yet
    # A cache folder numba cannot write holds nothing of ours to keep in step: then leave it all to numba.
    with contextlib.suppress(OSError, FileWriteError):
        for function in functions:
            function._cache.flush()  # numba's own invalidation: an empty index, so the next call compiles
        write_text(stamp, current)
    return True
