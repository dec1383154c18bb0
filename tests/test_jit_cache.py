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
jitcache.refresh([scratch], jitcache.package_sources(sys.argv[1] + "/__init__.py"))  # as each subpackage does
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


def test_numba_cache_dir_still_wins_and_is_filled_from_the_package_s_cache(tmp_path: Path) -> None:
    package = tmp_path / "package"
    package.mkdir()
    write_scratch(package, 1)
    elsewhere = tmp_path / "elsewhere"
    result = first_call(package, NUMBA_CACHE_DIR=str(elsewhere))
    assert result["value"] == 2 and result["misses"] == 1 and Path(str(result["path"])).is_relative_to(elsewhere)
    assert not (package / jitcache.CACHE_FOLDER).exists()  # nothing shipped yet

    first_call(package)  # the build's fill: the package's own folder, with its fingerprint
    assert (package / jitcache.CACHE_FOLDER / jitcache.STAMP_NAME).is_file()
    other = tmp_path / "other"  # a server's NUMBA_CACHE_DIR (docs/deploy.md), new
    result = first_call(package, NUMBA_CACHE_DIR=str(other))
    assert result["hits"] == 1 and result["misses"] == 0 and Path(str(result["path"])).is_relative_to(other)


def test_the_locator_comes_first_once() -> None:
    jitcache.use_package_cache()
    jitcache.use_package_cache()
    classes = caching.CacheImpl._locator_classes
    assert classes.count(jitcache.package_locator()) == 1
    assert classes.index(jitcache.package_locator()) == 0


def test_a_package_that_cannot_be_written_caches_in_numba_s_user_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    locator = jitcache.package_locator()
    assert locator.from_function(test_the_locator_comes_first_once, __file__) is None  # not the package's
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home-cache"))
    monkeypatch.setattr(numba.config, "CACHE_DIR", "")
    monkeypatch.setattr(jitcache, "PACKAGE", tmp_path / "package")
    (tmp_path / "package").mkdir()
    source = tmp_path / "package" / "inside.py"
    source.write_text("")
    (tmp_path / "package" / jitcache.CACHE_FOLDER).write_text("a file where the folder would be")  # root writes all
    found = locator.from_function(jitcache.njit, str(source))
    assert Path(found.get_cache_path()).is_relative_to(tmp_path / "home-cache")


def shipped_cache(package: Path, stamp: str | None = None) -> Path:
    """A subpackage's ``_jit`` folder as the build leaves it: two functions' indexes and data, its fingerprint."""
    folder = package / jitcache.CACHE_FOLDER
    folder.mkdir(parents=True)
    (package / "module.py").write_text("x = 1\n")
    for name in ("module.f-3.py311.nbi", "module.f-3.py311.1.nbc", "module.g-9.py311.nbi", "module.g-9.py311.1.nbc"):
        (folder / name).write_text(f"shipped {name}")
    current = jitcache.fingerprint(jitcache.package_sources(str(package / "__init__.py")))
    (folder / jitcache.STAMP_NAME).write_text(stamp or current)
    return folder


def test_seeding_copies_what_is_missing_and_replaces_another_version_s(tmp_path: Path) -> None:
    shipped = shipped_cache(tmp_path / "package")
    target = tmp_path / "target"
    target.mkdir()
    assert jitcache.seed.__wrapped__(str(shipped), str(target))
    assert sorted(p.name for p in target.iterdir()) == sorted(p.name for p in shipped.iterdir())
    # the same fingerprint: what the target compiled since stays, a function it lacks is copied
    (target / "module.f-3.py311.1.nbc").write_text("compiled here")
    (target / "module.g-9.py311.nbi").unlink()
    assert jitcache.seed.__wrapped__(str(shipped), str(target))
    assert (target / "module.f-3.py311.1.nbc").read_text() == "compiled here"
    assert (target / "module.g-9.py311.nbi").read_text() == "shipped module.g-9.py311.nbi"
    # another version's cache: emptied, then the shipped one, its fingerprint last
    (target / jitcache.STAMP_NAME).write_text("another version")
    (target / "module.h-1.py311.nbi").write_text("another version's function")
    assert jitcache.seed.__wrapped__(str(shipped), str(target))
    assert not (target / "module.h-1.py311.nbi").exists()
    assert (target / "module.f-3.py311.1.nbc").read_text() == "shipped module.f-3.py311.1.nbc"
    assert (target / jitcache.STAMP_NAME).read_text() == (shipped / jitcache.STAMP_NAME).read_text()


def test_a_stale_shipped_cache_is_not_copied(tmp_path: Path) -> None:
    shipped = shipped_cache(tmp_path / "package", stamp="the sources before an edit")
    target = tmp_path / "target"
    target.mkdir()
    assert not jitcache.seed.__wrapped__(str(shipped), str(target))
    assert not any(target.iterdir())


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
