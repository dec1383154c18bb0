"""The build step pyproject.toml cannot say: the kernel compiled ahead of time into ``foursquare.kernel._compiled``.

numba's ahead-of-time compiler (``numba.pycc``, a build requirement only) compiles the functions listed in
``foursquare.kernel.exports`` into a C extension module, with a fingerprint of the kernel's sources baked in, so
that the installed game gives its first hint at once and needs no numba (docs/performance.md, "Cold start").
The machine code is for this machine's processor, as numba's own would be; set ``FOURSQUARE_TARGET_CPU`` (an
LLVM processor name, ``generic`` for any x86-64) to build a wheel for others.
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

from setuptools import Extension, setup

SOURCE = Path(__file__).resolve().parent / "src"


def kernel_extension() -> tuple[Extension, type]:
    """The compiled kernel's extension, and the ``build_ext`` command that compiles its functions."""
    sys.path.insert(0, str(SOURCE))
    os.environ["FOURSQUARE_KERNEL"] = "jit"  # the kernel's functions as numba dispatchers, whatever is built already
    import llvmlite.binding as llvm
    from numba.pycc import CC
    from setuptools.command import build_ext

    from foursquare.kernel import compiled, exports

    cc = CC(exports.MODULE, source_module=exports)
    cc.target_cpu = os.environ.get("FOURSQUARE_TARGET_CPU") or llvm.get_host_cpu_name()
    for export in exports.EXPORTS:
        module = importlib.import_module(f"foursquare.kernel.{export.module}")
        cc.export(export.name, export.signature)(getattr(module, export.name).py_func)
    word = compiled.fingerprint_word()
    cc.export(exports.FINGERPRINT, "int64()")(eval(f"lambda: {word}"))  # the sources' fingerprint, a constant
    # depends: rebuilt whenever a source changes (setuptools compares their times with the module's)
    extension = cc.distutils_extension(depends=[str(path) for path in compiled.sources()])
    # (distutils_extension also teaches setuptools' build_ext to compile the exported functions first)
    return extension, build_ext.build_ext


extension, build_command = kernel_extension()
# The data files are pyproject.toml's package-data, listed there: setuptools' search of the manifest for more would
# meet numba's C sources of the extension (absolute paths, outside the project) and refuse them.
setup(ext_modules=[extension], cmdclass={"build_ext": build_command}, include_package_data=False)
