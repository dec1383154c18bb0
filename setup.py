"""The build step pyproject.toml cannot say: the kernel compiled ahead of time into ``foursquare.kernel._compiled``.

numba's ahead-of-time compiler (``numba.pycc``, a build requirement only) compiles the functions listed in
``foursquare.kernel.exports`` into a C extension module, with a fingerprint of the kernel's sources baked in, so
that the installed game gives its first hint at once and needs no numba (docs/performance.md, "Cold start").
The machine code is for this machine's processor, as numba's own would be; set ``FOURSQUARE_TARGET_CPU`` (an
LLVM processor name, ``generic`` for any x86-64) to build a wheel for others.

Then the solver: numba compiles it just in time (``cache=True``), so the build runs it once
(:func:`foursquare.solver.warm_up`, in a process of its own on the built package) and the wheel ships the cache it
fills (what Python loads of it: about 5 MB), in the package's ``_jit`` folders
(:func:`foursquare.jitcache.use_package_cache`, which checks the sources by their content: the install leaves it
current). The first ``solve`` of a fresh install, and a fresh server's first
winnable deal, then load the solver instead of compiling it. It takes a minute or two of the build, and is for this
machine's processor and the build's numba: a runtime with another numba compiles as before (pip gives its
``--constraint`` files to the install, not to the build's isolated environment: ``PIP_CONSTRAINT``, or pip's
``--build-constraint``, with the same file makes them agree; unconstrained, both take the newest numba). Set
``FOURSQUARE_SOLVER_CACHE=0`` to skip it (an install without numba at run time, a test's build); a wheel for other
processors (``FOURSQUARE_TARGET_CPU``) skips it too.
"""

from __future__ import annotations

import importlib
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

from setuptools import Extension, setup

SOURCE = Path(__file__).resolve().parent / "src"
#: ``0``: build without filling the solver's cache (see the module's docstring).
CACHE_ENV = "FOURSQUARE_SOLVER_CACHE"
TARGET_CPU_ENV = "FOURSQUARE_TARGET_CPU"
#: numba's settings that would send the cache elsewhere or compile nothing: not passed to the build's warm-up.
NUMBA_DIVERTING = ("NUMBA_CACHE_DIR", "NUMBA_DISABLE_JIT", "NUMBA_CACHE_LOCATOR_CLASSES")


def kernel_extension() -> tuple[Extension, type]:
    """The compiled kernel's extension, and the ``build_ext`` command that compiles its functions."""
    sys.path.insert(0, str(SOURCE))
    os.environ["FOURSQUARE_KERNEL"] = "jit"  # the kernel's functions as numba dispatchers, whatever is built already
    import llvmlite.binding as llvm
    from numba.pycc import CC
    from setuptools.command import build_ext

    from foursquare.kernel import compiled, exports

    cc = CC(exports.MODULE, source_module=exports)
    cc.target_cpu = os.environ.get(TARGET_CPU_ENV) or llvm.get_host_cpu_name()
    for export in exports.EXPORTS:
        module = importlib.import_module(f"foursquare.kernel.{export.module}")
        cc.export(export.name, export.signature)(getattr(module, export.name).py_func)
    word = compiled.fingerprint_word()
    cc.export(exports.FINGERPRINT, "int64()")(eval(f"lambda: {word}"))  # the sources' fingerprint, a constant
    # depends: rebuilt whenever a source changes (setuptools compares their times with the module's)
    extension = cc.distutils_extension(depends=[str(path) for path in compiled.sources()])
    # (distutils_extension also teaches setuptools' build_ext to compile the exported functions first)
    return extension, build_ext.build_ext


#: The build's fill of the solver's cache: numba compiles every function the solver's entry points call, each cached.
FILL = "from foursquare.solver import warm_up; warm_up()"
#: Then, in a fresh process, the cache's functions that Python calls load it (each holds the machine code of what it
#: calls, inlined or linked in): the others' entries, which no process loads unless it compiles a caller anew, are
#: dropped from the wheel (three quarters of the cache's 17 MB, which every install, the player's too, would hold).
PRUNE = """
import sys
from pathlib import Path
from numba.core.dispatcher import Dispatcher
from foursquare.solver import warm_up
warm_up()
kept = dropped = 0
for name, module in list(sys.modules.items()):
    if not name.startswith("foursquare."):
        continue
    for function in list(vars(module).values()):
        if not (isinstance(function, Dispatcher) and function.py_func.__module__ == name):
            continue
        folder, base = Path(function.stats.cache_path), function._cache._impl.filename_base
        files = [folder / f"{base}.nbi", *folder.glob(f"{base}.*.nbc")]
        size = sum(path.stat().st_size for path in files if path.exists())
        if sum(function.stats.cache_hits.values()) or not folder.is_relative_to(Path.cwd()):
            kept += size
            continue
        for path in files:
            path.unlink(missing_ok=True)
        dropped += size
print(f"{kept / 2**20:.1f} MB kept, {dropped / 2**20:.1f} MB of functions that Python does not call dropped")
"""


def fill_solver_cache(root: Path, prune: bool = True) -> None:
    """Compile the solver into the on-disk cache of the package under ``root`` (the build's copy, or the checkout
    for an editable install), in a process of its own that imports that copy, then keep only what Python loads
    (:data:`PRUNE`, if ``prune``: not in a checkout, whose cache the tests' own compiles use too); a failure only
    warns (the solver then compiles on first use, as without the cache)."""
    import llvmlite.binding as llvm
    import numba

    if os.environ.get(CACHE_ENV) == "0":
        print(f"foursquare: the solver's cache is not filled ({CACHE_ENV}=0): it compiles on first use", flush=True)
        return
    if (os.environ.get(TARGET_CPU_ENV) or llvm.get_host_cpu_name()) != llvm.get_host_cpu_name():
        print(
            f"foursquare: the solver's cache is not filled: numba's would be for this processor, not for "
            f"{TARGET_CPU_ENV}={os.environ[TARGET_CPU_ENV]}",
            flush=True,
        )
        return
    environment = {k: v for k, v in os.environ.items() if k not in NUMBA_DIVERTING and k != "FOURSQUARE_KERNEL"}
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")]))
    print(
        f"foursquare: compiling the solver into the package's cache with numba {numba.__version__} "
        "(a minute or two; FOURSQUARE_SOLVER_CACHE=0 skips it) ...",
        flush=True,
    )
    started, cpu = time.perf_counter(), _children_cpu()
    try:
        subprocess.run([sys.executable, "-c", FILL], cwd=root, env=environment, check=True)
        kept = "all kept"
        if prune:
            kept = subprocess.run(
                [sys.executable, "-c", PRUNE], cwd=root, env=environment, check=True, capture_output=True, text=True
            ).stdout.strip()
    except (OSError, subprocess.CalledProcessError) as error:
        print(f"foursquare: warning: the solver's cache is not filled ({error}): it compiles on first use", flush=True)
        return
    seconds, cpu = time.perf_counter() - started, _children_cpu() - cpu
    print(f"foursquare: the solver's cache is filled ({seconds:.0f} s, {cpu:.0f} s of CPU; {kept})", flush=True)


def _children_cpu() -> float:
    """The CPU seconds of this process's finished children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def build_with_cache(base: type) -> type:
    """``base`` (setuptools' ``build_ext``, which compiles the kernel) followed by :func:`fill_solver_cache`."""

    class BuildExtension(base):  # type: ignore[misc, valid-type]
        def run(self) -> None:
            super().run()
            if self.inplace:  # an editable install: the checkout's own cache
                fill_solver_cache(SOURCE, prune=False)
            else:
                fill_solver_cache(Path(self.build_lib).resolve())

    return BuildExtension


def build_with_catalogues() -> type:
    """setuptools' ``build_py`` followed by the message catalogues' compilation (:mod:`foursquare.i18n.compile`,
    Babel's reading of each PO file written as JSON beside it): in the package it builds, so that a wheel holds
    them, or in the checkout for an editable install; a command then reads them without Babel."""
    from setuptools.command.build_py import build_py

    class BuildPackage(build_py):  # type: ignore[misc]
        def run(self) -> None:
            super().run()
            from foursquare.i18n.compile import compile_all

            package = SOURCE / "foursquare" if self.editable_mode else Path(self.build_lib).resolve() / "foursquare"
            compiled = compile_all(package / "locale")
            print(f"foursquare: {len(compiled)} message catalogues compiled in {package / 'locale'}", flush=True)

    return BuildPackage


extension, build_command = kernel_extension()
build_command = build_with_cache(build_command)
# The data files are pyproject.toml's package-data, listed there: setuptools' search of the manifest for more would
# meet numba's C sources of the extension (absolute paths, outside the project) and refuse them.
setup(
    ext_modules=[extension],
    cmdclass={"build_ext": build_command, "build_py": build_with_catalogues()},
    include_package_data=False,
)
