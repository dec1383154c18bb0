"""A throwaway PostgreSQL cluster for the tests and the load tests: Debian's ``initdb`` and ``pg_ctl``.

The cluster lives in a temporary folder, listens on a Unix socket there (no TCP port to race for) and trusts
every local connection; it is stopped (``immediate``: nothing in it is kept) when the process that started it
ends, however it ends: at exit, or, if the process is killed (SIGKILL, a crashed xdist worker), by a small
watchdog process that waits for it to end (:func:`watch`). PostgreSQL refuses to run as root, so as root the
cluster runs as the ``postgres`` user that Debian's package creates (``make test`` installs the package when it
is missing, as it does Chromium).

>>> cluster = Cluster.start()                      # doctest: +SKIP
>>> url = cluster.new_database()                   # doctest: +SKIP
>>> url                                            # doctest: +SKIP
'postgresql://foursquare@/fs_1?host=/tmp/fspg-…'
"""

from __future__ import annotations

import atexit
import contextlib
import glob
import itertools
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from urllib.parse import quote

import process_support

USER = "foursquare"
"""The cluster's superuser, whom every URL names."""

SETTINGS = {
    "listen_addresses": "''",  # the Unix socket only
    "max_connections": "300",  # several servers, each with its pool, and Locust's tests
    "shared_buffers": "128MB",
}
"""The server's settings; a test cluster may add ``fsync=off`` (its data is thrown away)."""


class ClusterError(RuntimeError):
    """PostgreSQL's programs are missing, or the cluster would not start."""


def binaries() -> Path | None:
    """The folder of Debian's PostgreSQL programs (the newest version installed), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(Path(p).parts[4]))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("pg_ctl")
    return Path(on_path).resolve().parent if on_path else None


def available() -> bool:
    return binaries() is not None and (os.geteuid() != 0 or _has_user("postgres"))


def _has_user(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


class Cluster:
    """A running cluster in ``root``: :meth:`new_database` gives each test a database of its own."""

    def __init__(self, root: Path, bindir: Path, run_as: str | None) -> None:
        self.root = root
        self.bindir = bindir
        self.run_as = run_as
        self._names = itertools.count(1)
        self._lock = threading.RLock()  # new_schema makes the shared database under it
        self._shared: str | None = None

    @property
    def socket_dir(self) -> Path:
        return self.root

    @classmethod
    def start(cls, *, durable: bool = False, settings: dict[str, str] | None = None) -> Cluster:
        """Create and start a cluster; ``durable=False`` turns ``fsync`` off (tests), ``True`` keeps the defaults;
        ``settings`` are more lines of ``postgresql.conf`` (a benchmark's)."""
        bindir = binaries()
        if bindir is None:
            raise ClusterError("PostgreSQL is not installed (Debian: apt-get install postgresql)")
        run_as = "postgres" if os.geteuid() == 0 else None
        root = Path(tempfile.mkdtemp(prefix="fspg-", dir="/tmp"))  # short: a socket path has 107 bytes at most
        cluster = cls(root, bindir, run_as)
        cluster._start_watchdog()  # before the server exists: a kill at any moment after leaves nothing behind
        if run_as:
            shutil.chown(root, run_as)
        conf = dict(SETTINGS, unix_socket_directories=f"'{root}'")
        if not durable:
            conf.update(fsync="off", synchronous_commit="off", full_page_writes="off")
        conf.update(settings or {})
        cluster._run("initdb", "-D", str(root / "data"), "-U", USER, "-A", "trust", "-E", "UTF8", "--locale=C",
                     "--no-sync", "--no-instructions")  # fmt: skip
        with open(root / "data" / "postgresql.conf", "a", encoding="utf-8") as file:
            file.writelines(f"{name} = {value}\n" for name, value in conf.items())
        cluster._run("pg_ctl", "-D", str(root / "data"), "-l", str(root / "server.log"), "-w", "-t", "60", "start")
        atexit.register(cluster.stop)
        return cluster

    def _start_watchdog(self) -> None:
        """Start :func:`watch` for this process."""
        # Untagged (process_support.TAG): the watchdog of the tests' own processes would end this one mid-stop.
        process_support.detach([sys.executable, __file__, str(os.getpid()), str(self.root), str(self.bindir),
                                self.run_as or ""])  # fmt: skip

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bindir / program), *args]
        if self.run_as:
            command = ["runuser", "-u", self.run_as, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, cwd="/", check=False)
        if done.returncode != 0:
            log = self.root / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise ClusterError(f"{program} failed ({done.returncode}): {done.stderr.strip()}\n{tail}")

    def url(self, database: str = "postgres") -> str:
        """The ``postgresql://`` URL of ``database`` in this cluster (through its Unix socket)."""
        return f"postgresql://{USER}@/{database}?host={quote(str(self.socket_dir), safe='/')}"

    def new_database(self) -> str:
        """A new, empty database; its URL."""
        import psycopg

        with self._lock:
            name = f"fs_{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
        return self.url(name)

    def new_schema(self) -> str:
        """The URL of a new, empty schema of one database that the tests share, the first of its ``search_path``:
        as empty as a new database for the store (which keeps to the current schema), in milliseconds instead of
        the quarter of a second a ``CREATE DATABASE`` takes."""
        import psycopg

        with self._lock:
            if self._shared is None:
                self._shared = self.new_database()
            name = f"fs_{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self._shared, autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{name}"')
        return f"{self._shared}&options={quote(f'-csearch_path={name}')}"

    def restart(self) -> None:
        """Stop the server and start it again: every connection a client held is broken."""
        self.halt()
        self.resume()

    def halt(self) -> None:
        """Stop the server (``fast``: it ends every connection, and keeps what was committed even without
        ``fsync``), keeping its folder for :meth:`resume`."""
        self._run("pg_ctl", "-D", str(self.root / "data"), "-m", "fast", "-w", "stop")

    def resume(self) -> None:
        """Start the server that :meth:`halt` stopped."""
        data, log = str(self.root / "data"), str(self.root / "server.log")
        self._run("pg_ctl", "-D", data, "-l", log, "-w", "-t", "60", "start")

    def stop(self) -> None:
        """Stop the server at once and remove its folder (nothing in it is kept)."""
        if not self.root.exists():
            return
        with contextlib.suppress(ClusterError):  # already stopped
            self._run("pg_ctl", "-D", str(self.root / "data"), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)


def watch(parent: int, cluster: Cluster) -> None:
    """Wait until the process ``parent`` has ended, then stop ``cluster`` if it still runs (its folder exists)."""
    process_support.wait_for_end(parent)
    cluster.stop()


if __name__ == "__main__":  # the watchdog: postgres_support.py PARENT_PID ROOT BINDIR RUN_AS
    parent, root, bindir, run_as = sys.argv[1:]
    watch(int(parent), Cluster(Path(root), Path(bindir), run_as or None))
