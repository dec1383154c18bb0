"""Arrays that carry no reference count, for the vector environments' per-game loop.

An array in compiled code shares a reference count with its parent, and numba raises and lowers that count
(an atomic operation) around each function the array is passed to unless its clean-up pass can prove the
pair useless, which it cannot across branches. In the N-game step that cost more than the rules themselves
(docs/performance.md has the figures, measured by ``benchmarks/kernel_parts.py``).
:func:`unmanaged` and :func:`row` make arrays that point into the same memory with no reference count, so
passing them around costs nothing. The memory must be
C-contiguous (:func:`contiguous`) and outlive them, as a compiled call's arguments do: they are for compiled
code that received the parent as an argument, never to be returned to Python, where nothing would keep the
parent alive.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from typing import Any, cast

import numpy.typing as npt
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.numpy_support import carray

from foursquare.kernel.state import Array


@intrinsic
def _pointer(typingctx: object, address: types.Integer) -> tuple[object, object]:
    """The ``void *`` at an integer address (numba's ``carray`` takes a pointer, not an address)."""
    signature = types.voidptr(address)

    def codegen(context: object, builder: object, sig: object, args: list[object]) -> object:
        return builder.inttoptr(args[0], cgutils.voidptr_t)  # type: ignore[attr-defined]

    return signature, codegen


# What the compiled code calls: typed for mypy as what it does (numba's intrinsic wrapper hides it).
_address_pointer = cast(Callable[[int], ctypes.c_void_p], _pointer)


@njit(cache=True)
def unmanaged(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """The C-contiguous ``array`` again, without a reference count."""
    view: npt.NDArray[Any] = carray(_address_pointer(array.ctypes.data), array.shape, array.dtype)
    return view


@njit(cache=True)
def row(array: Array, i: int) -> Array:
    """Row ``i`` of the C-contiguous matrix ``array``, without a reference count."""
    view: Array = carray(_address_pointer(array.ctypes.data + i * array.strides[0]), (array.shape[1],), array.dtype)
    return view


@njit(cache=True)
def contiguous(array: npt.NDArray[Any]) -> bool:
    """Whether ``array`` is C-contiguous, as :func:`row` needs."""
    return bool(array.flags.c_contiguous)
