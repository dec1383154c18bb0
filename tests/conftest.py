"""Every test runs in English unless it asks for another language, with the signals a terminal sends.

The command line and the terminal game follow the POSIX environment (``LANGUAGE`` first), so a developer
whose machine is set to Bengali would otherwise read Bengali where a test expects English. Tests of other
languages set ``LANGUAGE``/``LANG`` or pass ``--lang`` themselves.

A suite started in the background (``make test &``, ``nohup``, some CI runners) ignores SIGINT or SIGHUP, and a
process it starts inherits that: the command then rightly leaves them ignored (as ``nohup`` asks), and the tests
that send them would see nothing happen. So the tests' processes get the dispositions a terminal's foreground
job has; the tests of an ignored signal ignore it themselves.

Every process a test starts (a server, a browser, a cluster, a worker) ends with the test process that started it,
however that ends: a watchdog ends those left behind (``process_support.end_with_this_process``), and another stops
the PostgreSQL cluster (``postgres_support``).
"""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import postgres_support
import process_support

os.environ["LANGUAGE"] = "en"
process_support.end_with_this_process()
# A test plays its moves back to back, far faster than any person: the servers it starts (in-process or not) take
# them all, unless a test sets the limit itself (the tests of the limit do).
os.environ.setdefault("FOURSQUARE_RATE_MOVES", "1000000/minute")
# The servers' workers run at the tests' own priority: at the default nice 10, beside another make test and
# tools/busy.py, a worker got about 1 % of a core and an analysis of 5 CPU seconds outlasted the 300 s guard.
os.environ.setdefault("FOURSQUARE_POOL_NICENESS", "0")

if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
if signal.getsignal(signal.SIGHUP) is signal.SIG_IGN:
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


# --- the two engines of the games database ----------------------------------------------------------------

ENGINES = ("sqlite", "postgresql")
"""The engines of the games database that the store's and the API's tests run on (``database`` below)."""


POSTGRES_FIXTURES = {"postgres_cluster", "postgres_url"}

COSTS: dict[str, int] = json.loads(Path(__file__).with_name("costs.json").read_text(encoding="utf-8"))
"""Seconds each test file took in a whole run (``tools/test_costs.py`` writes it)."""
NEW_FILE_COST = 30
"""The seconds a test file not in :data:`COSTS` counts as."""
DOCTEST_COST = 1
"""The seconds a file of doctests (docs/, src/, the README) counts as: under a second each, they fill the end."""
RUN_LAST = {"tests/test_flood.py": -1}
"""Files that go after all others, whatever their cost: the flood compares a player's move times with and without
it, and run first it shared the machine with the longest files' bursts, measured again (3 attempts: 135 s against
40 s for one at the end)."""


@pytest.hookimpl(tryfirst=True)  # before ``-m "not slow"`` deselects by the marks
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests on PostgreSQL (Debian's, from apt) are ``slow``: ``make test`` runs them, ``make check`` keeps to
    SQLite, whose store is the same code above the engine's few lines.

    The files go longest first: the workers take whole files in this order (``--dist loadfile
    --no-loadscope-reorder``), so that short files fill the end rather than a long one running on alone. Each file
    keeps its tests' order."""

    def cost(item: pytest.Item) -> int:
        path = item.nodeid.split("::", 1)[0]
        unknown = NEW_FILE_COST if path.startswith("tests/") else DOCTEST_COST
        return RUN_LAST.get(path, COSTS.get(path, unknown))

    items.sort(key=lambda item: -cost(item))
    for item in items:
        callspec = getattr(item, "callspec", None)
        on_postgres = callspec is not None and callspec.params.get("database") == "postgresql"
        if on_postgres or POSTGRES_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def postgres_cluster() -> postgres_support.Cluster:
    """A throwaway PostgreSQL cluster for this test process (``fsync`` off: its data is thrown away)."""
    if not postgres_support.available():
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL is not installed: make test installs Debian's postgresql package")
        pytest.skip("PostgreSQL is not installed (make test installs it)")
    return postgres_support.Cluster.start()


@pytest.fixture
def postgres_url(postgres_cluster: postgres_support.Cluster) -> str:
    """The URL of a new, empty PostgreSQL schema for one test: a database of its own as far as the store sees."""
    return postgres_cluster.new_schema()


@pytest.fixture(params=ENGINES)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new games database for one test, on each engine in turn: an SQLite file's path, or a PostgreSQL URL."""
    if request.param == "postgresql":
        url: str = request.getfixturevalue("postgres_url")
        return url
    return str(tmp_path / "games.db")


# --- a failing browser test says what its pages showed -------------------------------------------------------


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Each test's report describes its own pages, not those of the tests before it on this worker."""
    browser_support = sys.modules.get("browser_support")
    if browser_support is not None:
        browser_support.PAGES.clear()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """A wait for the page that ran out names only what it waited for: the report adds what each open page shows
    (its address, state, toasts, errors and console), so that a failure seen once on a loaded CI machine can be
    understood without running it again."""
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    browser_support = sys.modules.get("browser_support")
    if report.failed and report.when == "call" and browser_support is not None:
        described = browser_support.describe_pages()
        if described:
            report.sections.append(("what the pages showed", described))
