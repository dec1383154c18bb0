"""How the solver's search is compiled: the helper decorator, a prefetch intrinsic and a clock for numba code."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt
from llvmlite import ir
from numba.core import cgutils
from numba.extending import intrinsic

from foursquare import jitcache

# The search's cache in the package (solver/_jit), checked by the sources' content: the build fills it (setup.py).
jitcache.use_package_cache()

_Function = TypeVar("_Function", bound=Callable[..., Any])


# llvm.prefetch's arguments: a read (not a write), kept in every cache level, of data (not instructions)
PREFETCH_READ = 0
PREFETCH_KEEP_ALL_LEVELS = 3
PREFETCH_DATA = 1


def helper(function: _Function) -> _Function:
    """Compile one of the search's helpers without numba's reference counting (``_nrt=False``).

    They never allocate, and with it every call increments and decrements the count of each array
    it is passed, with atomic instructions, which cost the search more than the work of many helpers
    (benchmarks/solver_history.md).
    """
    return cast(_Function, numba.njit(cache=True, _nrt=False)(function))  # type: ignore[call-overload]


def inlined(function: _Function) -> _Function:
    """A :func:`helper` that numba inlines into its caller (``inline="always"``): a step of the search's loop.

    A call that is not inlined passes every field of every array it is handed; the steps are handed many.
    Their caller must not count references either, or every array they unpack would be counted.
    """
    return cast(_Function, numba.njit(cache=True, _nrt=False, inline="always")(function))  # type: ignore[call-overload]


def search_entry(function: _Function) -> _Function:
    """Compile the search's entry point, which Python calls: as :func:`helper` (its arrays come from the
    caller, so it needs no reference counting either, and the steps :func:`inlined` into it count none), and
    without the GIL (``nogil``), so that threads search side by side."""
    return cast(_Function, numba.njit(cache=True, nogil=True, _nrt=False)(function))  # type: ignore[call-overload]


@intrinsic
def _prefetch_intrinsic(typingctx: Any, table: Any, index: Any) -> Any:  # pragma: no cover - compiled
    """Start loading ``table[index]`` into the cache (LLVM's prefetch: a hint, it never faults).

    The tables are far larger than the cache, so a lookup waits for memory; the search asks for the
    entries of all of a position's children first and looks them up after.
    """

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        array_type = signature.args[0]
        array = context.make_array(array_type)(context, builder, args[0])
        pointer = cgutils.get_item_pointer(  # type: ignore[no-untyped-call]
            context, builder, array_type, array, [args[1]], wraparound=False
        )
        raw = builder.bitcast(pointer, cgutils.voidptr_t)
        i32 = ir.IntType(32)
        name = "llvm.prefetch." + ("p0" if getattr(raw.type, "is_opaque", False) else "p0i8")
        function = cgutils.get_or_insert_function(  # type: ignore[no-untyped-call]
            builder.module, ir.FunctionType(ir.VoidType(), [cgutils.voidptr_t, i32, i32, i32]), name
        )
        builder.call(function, [raw, i32(PREFETCH_READ), i32(PREFETCH_KEEP_ALL_LEVELS), i32(PREFETCH_DATA)])
        return context.get_dummy_value()

    return numba.types.void(table, index), codegen


prefetch = cast(Callable[[npt.NDArray[np.uint64], Any], None], _prefetch_intrinsic)


@numba.njit(cache=True)
def now() -> float:  # pragma: no cover - compiled
    """``time.perf_counter()``, from compiled code."""
    with numba.objmode(t="float64"):
        t = time.perf_counter()
    return t
