"""Which machine code runs the kernel's functions that Python calls: the ahead-of-time module, or numba's.

The package's build compiles the functions of :data:`~foursquare.kernel.exports.EXPORTS` into the extension
module ``foursquare.kernel._compiled``, with a fingerprint of the kernel's sources baked in (see ``setup.py``).
:func:`entry` gives that module's function while its fingerprint matches the sources beside it: a hint or a
greedy game then starts at once, with no compile and no numba. After an edit of the kernel (a developer's
checkout) the module is stale, and numba compiles the edited sources just in time, if it is installed; without
it, the function says to reinstall. ``FOURSQUARE_KERNEL=jit`` asks for numba's even when the module is
current (the differential test compares the two).
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from foursquare import jitcache
from foursquare.kernel.exports import EXPORTS, FINGERPRINT, MODULE, SOURCE_MODULES, Export

#: ``jit``: numba's compilation even when the ahead-of-time module is current.
KERNEL_ENV = "FOURSQUARE_KERNEL"
#: Hex digits of the sources' fingerprint that the module bakes in (a 60-bit int: a constant numba returns).
FINGERPRINT_DIGITS = 15

_EXPORTS = {export.name: export for export in EXPORTS}
_ARRAY = re.compile(r"(\w+)\[([^\]]*)\]")


class CompiledArgumentError(TypeError):
    """An argument that is not of the type a function was compiled for: a bug in its caller."""


def sources() -> tuple[Path, ...]:
    """The files the ahead-of-time module is compiled from (:data:`~foursquare.kernel.exports.SOURCE_MODULES`)."""
    return tuple(Path(__file__).with_name(f"{name}.py") for name in SOURCE_MODULES)


def fingerprint_word() -> int:
    """The part of :func:`foursquare.jitcache.fingerprint` of :func:`sources` that the module bakes in."""
    return int(jitcache.fingerprint(sources())[:FINGERPRINT_DIGITS], 16)


@cache
def module() -> ModuleType | None:
    """The ahead-of-time module if it is built and current (and not declined by :data:`KERNEL_ENV`), else None."""
    if os.environ.get(KERNEL_ENV) == "jit":
        return None
    try:
        built = importlib.import_module(f"foursquare.kernel.{MODULE}")
    except ImportError:
        return None
    return built if getattr(built, FINGERPRINT)() == fingerprint_word() else None


def _arguments(signature: str) -> list[str]:
    """The argument types of a numba signature ``ret(a, b, ...)``, as written."""
    depth, start, args = 0, _opening(signature) + 1, []
    for i in range(start, len(signature) - 1):
        if signature[i] in "([":
            depth += 1
        elif signature[i] in ")]":
            depth -= 1
        elif signature[i] == "," and depth == 0:
            args.append(signature[start:i].strip())
            start = i + 1
    last = signature[start:-1].strip()
    return [*args, last] if last else args


def _opening(signature: str) -> int:
    """The index of the ``(`` that opens the argument list: the one the final ``)`` closes."""
    depth = 0
    for i in range(len(signature) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(signature[i], 0)
        if depth == 0:
            return i
    raise ValueError(f"unbalanced signature {signature!r}")


def _checks(export: Export) -> list[tuple[int, np.dtype[Any], int]]:
    """(position, dtype, dimensions) of each array argument of ``export``."""
    checks = []
    for i, argument in enumerate(_arguments(export.signature)):
        array = _ARRAY.fullmatch(argument)
        if array is not None:
            checks.append((i, np.dtype(array.group(1)), array.group(2).count(",") + 1))
    return checks


def _checked(function: Callable[..., Any], export: Export) -> Callable[..., Any]:
    """``function`` refusing arrays of another type, dimension or layout than it was compiled for (the compiled
    code would read them as its own type)."""
    checks = _checks(export)

    def call(*args: Any) -> Any:
        for i, dtype, ndim in checks:
            value = args[i]
            if not (isinstance(value, np.ndarray) and value.dtype == dtype and value.ndim == ndim
                    and value.flags.c_contiguous):
                raise CompiledArgumentError(
                    f"{export.name}: argument {i + 1} must be a C-contiguous {ndim}-d {dtype} array, not "
                    f"{getattr(value, 'dtype', type(value).__name__)} of shape {getattr(value, 'shape', None)}"
                )
        return function(*args)

    call.__name__ = export.name
    call.__doc__ = function.__doc__
    return call


def _missing(name: str) -> Callable[..., Any]:
    def call(*args: Any) -> Any:
        raise jitcache.CompilerMissing(
            f"the compiled kernel (foursquare.kernel.{MODULE}) is missing or was built from other sources, and "
            f"numba is not installed to compile {name}: reinstall Foursquare (pip install --force-reinstall "
            "foursquare-solitaire, or pip install . in a checkout), or pip install 'foursquare-solitaire[solver]'"
        )

    return call


@cache
def entry(name: str) -> Callable[..., Any]:
    """The function of :data:`~foursquare.kernel.exports.EXPORTS` called ``name``, as it runs here: ahead of time
    compiled, else numba's, else one that says what is missing."""
    export = _EXPORTS[name]
    built = module()
    if built is not None:
        return _checked(getattr(built, name), export)
    if not jitcache.NUMBA:
        return _missing(name)
    jitted: Callable[..., Any] = getattr(importlib.import_module(f"foursquare.kernel.{export.module}"), name)
    return jitted


def origin() -> str:
    """Where :func:`entry`'s functions come from: ``"ahead-of-time"``, ``"numba"`` or ``"missing"``."""
    if module() is not None:
        return "ahead-of-time"
    return "numba" if jitcache.NUMBA else "missing"
