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

Where the cache lives: :func:`use_package_cache` gives numba a locator of its own for the package's modules
(:func:`package_locator`), which keeps each subpackage's cache in its ``_jit`` folder inside the package (the
installed one too) and checks a source by a digest of its content, not by its time. So the cache that the build
fills (``setup.py``: the solver, compiled once when the package is built) ships in the wheel, and ``pip install``,
which writes every file anew, leaves it current: the first ``solve`` loads it instead of compiling. Where
``NUMBA_CACHE_DIR`` is set (a server under systemd: docs/deploy.md) the cache lives there, as numba's own would,
and where the package cannot be written (installed by root, run by a user) in numba's user-wide cache folder: that
folder is then filled from the package's first (:func:`seed`), while the package's is current.

numba is an extra (``solver``): the player's install runs the kernel ahead-of-time compiled
(:mod:`foursquare.kernel.compiled`) and has no numba. :func:`njit` is then a stand-in whose functions
say what is missing when called; the kernel's modules stay importable for their constants and helpers.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable
from functools import cache
from importlib.util import find_spec
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

from foursquare.cards import DECK_SIZE, SUITS
from foursquare.engine import GRID, MAX_FACE_DOWN, PILE_CAP, WINNING_CELLS
from foursquare.files import FileWriteError, atomic_path, write_text

STAMP_NAME = "foursquare.fingerprint"
#: The folder, beside a compiled module, that holds the on-disk cache of its functions (:func:`use_package_cache`).
CACHE_FOLDER = "_jit"
#: The package whose modules' functions :func:`package_locator`'s locator places: this one.
PACKAGE = Path(__file__).resolve().parent
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
    """``numba.njit(**options)`` when numba is installed, its cache in the package (:func:`use_package_cache`);
    else a stand-in (see :class:`_Uncompiled`)."""
    if NUMBA:
        import numba

        use_package_cache()

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


@cache
def _source_digest(path: str, mtime_ns: int, ctime_ns: int, size: int) -> str:
    """The digest of a source file's content (the times and size only key the memo: a file edited while the
    process runs is read again, even one whose time was set back; the inode's change time cannot be)."""
    with open(path, "rb") as source:
        return "sha256:" + hashlib.sha256(source.read()).hexdigest()


def source_stamp(path: str) -> str:
    """What :func:`package_locator`'s locator checks a cached function's source by: a digest of its content, so
    that the same file written anew (by ``pip install``, a checkout) keeps its cache, and any edit flushes it."""
    status = os.stat(path)
    return _source_digest(path, status.st_mtime_ns, status.st_ctime_ns, status.st_size)


def in_package(path: str | Path) -> bool:
    """Whether ``path`` is a file of this package (of the copy this module was imported from)."""
    return Path(path).resolve().is_relative_to(PACKAGE)


@cache
def package_locator() -> type:
    """numba's cache locator for this package's functions, ``PackageCacheLocator``: made once, when first asked
    for (it needs numba, an extra: not imported with this module)."""
    from numba.core import caching, config

    class PackageCacheLocator(caching._CacheLocator):
        """numba's cache of a function of this package, the source checked by its content's digest: in the
        ``_jit`` folder beside its module, or where ``NUMBA_CACHE_DIR`` says, or in numba's user-wide folder if
        the package cannot be written (those two filled from the package's first: :func:`seed`). None (numba's
        next locator) for another file."""

        def __init__(self, py_func: Callable[..., Any], py_file: str, cache_path: str) -> None:
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            self._cache_path = cache_path

        def get_cache_path(self) -> str:
            return self._cache_path

        def get_source_stamp(self) -> str:
            return source_stamp(self._py_file)

        def get_disambiguator(self) -> str:
            return str(self._lineno)

        @classmethod
        def from_function(cls, py_func: Callable[..., Any], py_file: str) -> Any:
            if not (os.path.isfile(py_file) and in_package(py_file)):
                return None
            shipped = Path(py_file).parent / CACHE_FOLDER
            if getattr(config, "CACHE_DIR", ""):  # NUMBA_CACHE_DIR (numba sets it when its config loads)
                where = _numba_class(caching, "UserProvidedCacheLocator")(py_func, py_file).get_cache_path()
            elif _writable(str(shipped)):
                where = str(shipped)
            else:
                where = _numba_class(caching, "UserWideCacheLocator")(py_func, py_file).get_cache_path()
            locator = cls(py_func, py_file, where)
            try:
                locator.ensure_cache_path()  # type: ignore[no-untyped-call]
            except OSError:
                return None
            if Path(where) != shipped:
                seed(str(shipped), where)
            return locator

    return PackageCacheLocator


@cache
def _writable(folder: str) -> bool:
    """Whether ``folder`` is, or can be made, a folder this process can write in (asked once per process)."""
    try:
        Path(folder).mkdir(exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return False
    return True


@cache
def seed(shipped: str, target: str) -> bool:
    """Fill the cache folder ``target`` from ``shipped``, the ``_jit`` folder of a subpackage (the build's cache),
    if ``shipped`` is current (its fingerprint is that of the subpackage's sources); return whether it did. Once
    per process and folder.

    ``target`` keeps what it has while its fingerprint is the same (the functions it compiled since, for other
    types too); the functions it lacks are copied, each index after the data it names. A ``target`` of other
    sources (another version's) is emptied first, and takes the fingerprint last: :func:`refresh` would otherwise
    flush what was just copied, or keep what another version compiled.
    """
    source, folder = Path(shipped), Path(target)
    try:
        stamp = (source / STAMP_NAME).read_text()
        if stamp != fingerprint(package_sources(str(source.parent / "__init__.py"))):
            return False  # a checkout edited since its cache was filled: refresh flushes that one in its turn
        indexes = sorted(source.glob("*.nbi"))
    except OSError:
        return False  # nothing shipped
    with contextlib.suppress(OSError, FileWriteError):
        try:
            same = (folder / STAMP_NAME).read_text() == stamp
        except FileNotFoundError:
            same = False
        if not same:
            for old in [*folder.glob("*.nbi"), *folder.glob("*.nbc")]:
                old.unlink(missing_ok=True)
        for index in indexes:
            if same and (folder / index.name).exists():
                continue
            for part in [*source.glob(f"{_glob_escape(index.stem)}.*.nbc"), index]:
                with atomic_path(folder / part.name) as temporary:
                    shutil.copyfile(part, temporary)
        if not same:
            write_text(folder / STAMP_NAME, stamp)
        return True
    return False


def _glob_escape(text: str) -> str:
    """``text`` matched literally by :meth:`Path.glob` (a function's qualified name may hold ``[``)."""
    return "".join(f"[{c}]" if c in "*?[" else c for c in text)


def _numba_class(module: ModuleType, name: str) -> Any:
    """``module.name``, or ``module._name`` as older numba versions name their caching classes."""
    return getattr(module, name, None) or getattr(module, f"_{name}")


def use_package_cache() -> None:
    """Have numba cache the functions of this package's modules with :func:`package_locator`'s, before numba's own
    locators (it honours ``NUMBA_CACHE_DIR`` itself, and fills that folder from the package's). Each module that
    compiles with ``cache=True`` calls it before its decorators run (numba picks a function's locator then); calls
    after the first do nothing."""
    from numba.core import caching

    classes: list[type] = _numba_class(caching, "CacheImpl")._locator_classes
    locator = package_locator()
    if locator not in classes:
        classes.insert(0, locator)
