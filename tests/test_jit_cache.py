"""numba's cache of the package's functions (foursquare.jitcache.use_package_cache): in the package's ``_jit`` folders,
checked by the sources' content, so that the cache the build fills (setup.py) survives ``pip install``.

The fresh processes stand for a fresh install's first command: a module compiled with the cache, written again with
the same content and a new time (as pip writes it), is loaded from the cache; an edited one is compiled again. The
module is a scratch one, in a folder the subprocess takes for the package (``jitcache.PACKAGE``): a function of a
few lines compiles in a fraction of a second, where the solver takes a minute.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numba
import pytest
from numba.core import caching

from foursquare import jitcache

SOURCE = """
import numba


@numba.njit(cache=True)
def step(x):
    return x + {increment}
"""

# The first process of an install: the scratch folder taken for the package, the locator registered before the
# module's decorator runs, one call, and what numba's dispatcher says of it.
PROBE = """
import json, sys
from pathlib import Path
from foursquare import jitcache
jitcache.PACKAGE = Path(sys.argv[1]).resolve()
jitcache.use_package_cache()
sys.path.insert(0, sys.argv[1])
import scratch
value = scratch.step(1)
stats = scratch.step.stats
print(json.dumps({"value": value, "hits": sum(stats.cache_hits.values()), "misses": sum(stats.cache_misses.values()),
                  "path": stats.cache_path}))
"""


def first_call(package: Path, **env: str) -> dict[str, object]:
    """What a fresh process's first call of ``scratch.step`` did: its value, cache hits and misses, cache folder."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")} | env
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(package)], env=environment, capture_output=True, text=True, check=True
    )
    return dict(json.loads(done.stdout))


def write_scratch(package: Path, increment: int, mtime: float | None = None) -> Path:
    path = package / "scratch.py"
    path.write_text(SOURCE.format(increment=increment))
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


def test_the_same_source_written_anew_loads_from_the_cache_and_an_edited_one_compiles(tmp_path: Path) -> None:
    package = tmp_path / "package"
    package.mkdir()
    path = write_scratch(package, 1, mtime=1_000_000_000)
    first = first_call(package)
    assert first == {"value": 2, "hits": 0, "misses": 1, "path": str(package.resolve() / jitcache.CACHE_FOLDER)}
    assert any((package / jitcache.CACHE_FOLDER).glob("scratch.step-*.nbc"))  # in the package, not __pycache__

    write_scratch(package, 1, mtime=2_000_000_000)  # what pip install does: the same bytes, a new time
    assert path.stat().st_mtime == 2_000_000_000
    assert first_call(package) == {**first, "hits": 1, "misses": 0}

    write_scratch(package, 2, mtime=2_000_000_000)  # an edit that keeps the size and even the time
    assert first_call(package) == {**first, "value": 3}
    assert first_call(package) == {**first, "value": 3, "hits": 1, "misses": 0}


def test_numba_cache_dir_still_wins(tmp_path: Path) -> None:
    package = tmp_path / "package"
    package.mkdir()
    write_scratch(package, 1)
    elsewhere = tmp_path / "elsewhere"
    result = first_call(package, NUMBA_CACHE_DIR=str(elsewhere))
    assert result["value"] == 2 and Path(str(result["path"])).is_relative_to(elsewhere)
    assert not (package / jitcache.CACHE_FOLDER).exists()


def test_the_locator_is_registered_once_after_the_user_provided_one() -> None:
    jitcache.use_package_cache()
    jitcache.use_package_cache()
    classes = caching.CacheImpl._locator_classes
    assert classes.count(jitcache.package_locator()) == 1
    assert classes.index(jitcache.package_locator()) == classes.index(caching.UserProvidedCacheLocator) + 1


def test_a_folder_that_cannot_be_written_leaves_the_function_to_numba_s_locators(tmp_path: Path) -> None:
    locator = jitcache.package_locator()
    module = Path(jitcache.__file__)
    assert locator.from_function(test_the_locator_is_registered_once_after_the_user_provided_one, __file__) is None
    assert locator.from_function(jitcache.njit, str(module)) is not None  # a module of the package
    (tmp_path / jitcache.CACHE_FOLDER).write_text("a file where the folder would be")  # root may write anywhere
    source = tmp_path / "inside.py"
    source.write_text("")
    original = jitcache.PACKAGE
    try:
        jitcache.PACKAGE = tmp_path
        assert locator.from_function(jitcache.njit, str(source)) is None
    finally:
        jitcache.PACKAGE = original


def test_the_source_stamp_is_the_content_s_digest(tmp_path: Path) -> None:
    path = tmp_path / "module.py"
    path.write_text("x = 1\n")
    stamp = jitcache.source_stamp(str(path))
    os.utime(path, (1, 1))
    assert jitcache.source_stamp(str(path)) == stamp
    path.write_text("x = 2\n")
    os.utime(path, (1, 1))
    assert jitcache.source_stamp(str(path)) != stamp


@pytest.mark.skipif(os.environ.get("NUMBA_CACHE_DIR") is not None, reason="NUMBA_CACHE_DIR sends the cache elsewhere")
def test_the_solver_and_the_kernel_cache_in_their_package_with_the_fingerprint_beside() -> None:
    from foursquare.kernel import rules
    from foursquare.solver import search

    for dispatcher, package in ((search._search, "solver"), (rules.legal, "kernel")):
        assert isinstance(dispatcher, numba.core.dispatcher.Dispatcher)
        folder = Path(dispatcher.stats.cache_path)
        assert folder == Path(jitcache.__file__).parent / package / jitcache.CACHE_FOLDER
        assert (folder / jitcache.STAMP_NAME).is_file()  # jitcache.refresh keeps its fingerprint there
