"""``foursquare serve``: check the database, listen, print the URL and serve the app until interrupted.

The application itself is built by :func:`foursquare.web.app.create_app`; the connections are uvicorn's, with a
deadline for each request to arrive (:mod:`foursquare.web.connections`). Forwarded headers (``X-Forwarded-For``,
``X-Forwarded-Proto``) are honoured only from the reverse proxies named in ``trusted_proxies``.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import os
import signal
import socket
import sys
import threading
import time
import webbrowser
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from foursquare.store import data_dir, is_database_url
from foursquare.web.app import create_app
from foursquare.web.connections import DEFAULT_REQUEST_TIMEOUT, KEEP_ALIVE_TIMEOUT, deadline_protocol
from foursquare.web.messages import say
from foursquare.web.observe import LogFormat, log_config
from foursquare.web.pool import stop_every_pool
from foursquare.web.security import LOOPBACK_HOSTS

BACKLOG = 2048
"""Connections the kernel keeps waiting to be accepted (capped by ``net.core.somaxconn``): a burst of new
connections waits there rather than being refused."""

OPEN_FILES_WANTED = 65536
"""Open files (each connection is one) the server raises its soft limit to, if the hard limit allows."""

DRAIN_TIMEOUT = 10
"""Seconds a server told to stop (SIGTERM, SIGINT, SIGHUP) gives the requests in flight to be answered; then it
cancels those still running and exits. With what follows (the app's shutdown, the workers ended) it exits within
:data:`EXIT_WITHIN` seconds of the signal (docs/deploy.md: a unit's ``TimeoutStopSec`` must exceed it)."""

EXIT_WITHIN = 15.0
"""Seconds from the signal to the process's exit, at most: :data:`DRAIN_TIMEOUT` and the shutdown's steps."""


class ServeError(ValueError):
    """``foursquare serve`` cannot start."""


def default_db_path() -> Path:
    """``games.db`` in the user's data directory (``FOURSQUARE_DATA_DIR`` if set; created if missing), the one the
    terminal game and ``foursquare stats`` use."""
    directory = data_dir()
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ServeError(f"cannot create the data directory {directory}: {exc}") from None
    return directory / "games.db"


@contextlib.contextmanager
def _hang_up_stops(server: Any) -> Iterator[None]:
    """SIGHUP (the terminal closed) shuts the server down gracefully, as uvicorn does on SIGINT and SIGTERM; a
    SIGHUP ignored by the caller (``nohup``) stays ignored. Only the main thread may set a handler."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGHUP)
    if previous != signal.SIG_IGN:
        signal.signal(signal.SIGHUP, server.handle_exit)
    try:
        yield
    finally:
        signal.signal(signal.SIGHUP, previous)


def _listen(host: str, port: int, say: Callable[..., str] = say) -> socket.socket:
    """A listening socket, or :class:`ServeError` saying why there cannot be one (in ``say``'s words)."""
    if not 0 <= port <= 65535:
        raise ServeError(say("cannot_listen", host=host, port=port, error=say("bad_port")))
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
    except (OSError, OverflowError) as exc:
        raise ServeError(say("cannot_listen", host=host, port=port, error=exc)) from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(BACKLOG)
    except (OSError, OverflowError) as exc:
        sock.close()
        reason = getattr(exc, "strerror", None) or exc
        raise ServeError(say("cannot_listen", host=host, port=port, error=reason)) from None
    sock.set_inheritable(True)
    return sock


def raise_open_file_limit(wanted: int = OPEN_FILES_WANTED) -> int:
    """Raise the soft limit of open files towards ``wanted`` (never above the hard limit); the limit now in force.

    The usual soft limit, 1024, is soon reached by a flood of connections, and then the server cannot even
    accept a legitimate one (or open its database); the hard limit is often far higher. (Windows has no such
    limit: ``-1``.)
    """
    if sys.platform == "win32":
        return -1
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (OSError, ValueError):
            pass  # not allowed here: the server works with the limit it has
    return soft


def _url(sock: socket.socket, host: str) -> str:
    port = sock.getsockname()[1]
    shown = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)  # where this machine reaches it
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def _warm_up(in_threads: bool) -> None:
    """Import the players, the solver and the analysis now (numba's import takes a second), so that no request
    pays for it; compile (or load) the players' kernel too if hints are computed ``in_threads`` of this process.
    With worker processes, the workers compile what they run, never this process (:mod:`foursquare.web.pool`)."""
    try:
        import foursquare.analysis  # noqa: F401  # imports the players and the solver
        from foursquare.players import warm_up

        if in_threads:
            warm_up()
    except Exception:  # a failed warm-up only means the first hint is slow; the hint endpoint reports errors
        logging.getLogger("foursquare").exception("warming up the players failed")


def is_loopback(host: str) -> bool:
    """``host`` (a name or an address) is this machine only: ``localhost``, ``127.x.x.x``, ``::1``.

    >>> [is_loopback(h) for h in ("127.0.0.1", "localhost", "::1", "0.0.0.0", "", "192.168.1.2")]
    [True, True, True, False, False, False]
    """
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a name: it may resolve to a public address


def hosts_to_allow(host: str, allowed_hosts: Sequence[str] | None) -> tuple[str, ...]:
    """The ``Host`` names to answer: those given; else the loopback names on a loopback address, any on others.

    Any host on a public address without ``--allowed-hosts`` is what a server reached by an unknown name needs;
    :func:`serve` warns about it.
    """
    if allowed_hosts is not None:
        return tuple(allowed_hosts)
    return LOOPBACK_HOSTS if is_loopback(host) else ("*",)


def serve(
    host: str,
    port: int,
    db: str | os.PathLike[str] | None = None,
    open_browser: bool = False,
    allowed_hosts: Sequence[str] | None = None,
    say: Callable[..., str] = say,
    *,
    request_timeout: float = DEFAULT_REQUEST_TIMEOUT,
    trusted_proxies: Sequence[str] = (),
    metrics_port: int | None = None,
    metrics_host: str = "127.0.0.1",
    log_format: LogFormat = "text",
) -> int:
    """Check the database, listen, print the URL, serve until interrupted (``foursquare serve``).

    ``allowed_hosts``: the ``Host`` names to answer (see :func:`hosts_to_allow`); others get 400 ``bad_host``.
    ``request_timeout``: the seconds a connection has to send a whole request before it is closed.
    ``trusted_proxies``: the addresses and networks (``10.0.0.0/8``) of the reverse proxies whose
    ``X-Forwarded-For`` and ``X-Forwarded-Proto`` give the client's address and scheme; the headers of any
    other client, and of every client when there are none, are ignored; their ``X-Request-ID`` is taken too.
    ``metrics_port``: serve the metrics (:mod:`foursquare.web.metrics`) at ``http://metrics_host:PORT/metrics``
    (loopback by default: never the public port); None: no metrics served.
    ``log_format``: ``text`` (uvicorn's lines) or ``json`` (one object a line, one line per request:
    :mod:`foursquare.web.observe`).
    ``say(key, **params)`` words what is printed (``serving``, ``metrics``, ``open_to_any_host``,
    ``cannot_listen``, ``bad_port``): the command line passes its own, in the user's language.

    On SIGTERM (or SIGINT, SIGHUP) the server stops accepting connections and reports not ready at once, answers
    the requests in flight (for :data:`DRAIN_TIMEOUT` seconds at most) and each with ``Connection: close``, then
    ends its workers and exits.
    """
    import uvicorn

    # A postgresql:// URL as given; a file's path with ~ expanded; nothing: the file in the user's data directory.
    database = str(db) if is_database_url(db) else Path(db).expanduser() if db else default_db_path()
    app = create_app(
        database,
        allowed_hosts=hosts_to_allow(host, allowed_hosts),
        trusted_proxies=trusted_proxies,
        access_log=log_format == "json",
    )
    sock = _listen(host, port, say)
    metrics_server = None
    if metrics_port is not None:
        metrics_server = _serve_metrics(app.state.metrics, metrics_host, metrics_port, say, sock)
    if allowed_hosts is None and not is_loopback(host):
        example = socket.gethostname() or "games.example.org"
        print(say("open_to_any_host", host=host or "every address", example=example), file=sys.stderr, flush=True)
    url = _url(sock, host)
    print(say("serving", url=url, db=app.state.store.database.name), flush=True)  # a URL without its password
    if metrics_server is not None:
        metrics_url = _url(metrics_server.socket, metrics_host) + "metrics"
        print(say("metrics", url=metrics_url, prometheus="Prometheus"), flush=True)
    raise_open_file_limit()
    config = uvicorn.Config(
        app,
        log_level="info",
        log_config=log_config(log_format) or uvicorn.config.LOGGING_CONFIG,
        access_log=log_format == "text",  # the JSON lines are the app's own (without the path)
        http=deadline_protocol(request_timeout),
        timeout_keep_alive=KEEP_ALIVE_TIMEOUT,
        timeout_graceful_shutdown=DRAIN_TIMEOUT,
        proxy_headers=False,  # the app reads them itself (create_app's trusted_proxies)
        server_header=False,  # no need to tell every client which server software and version to try
    )
    server = uvicorn.Server(config)
    stop = server.handle_exit

    def drain(signum: int, frame: Any) -> None:
        """The signal handler: not ready from now on (the probes, the metrics), then uvicorn's graceful stop."""
        app.state.health.draining = True
        stop(signum, frame)

    server.handle_exit = drain  # type: ignore[method-assign,assignment]  # uvicorn installs it when it runs
    # Import (and with a pool of threads, compile) the AI now, so the first hint does not pay for it.
    threading.Thread(target=_warm_up, args=(app.state.pool.settings.kind == "thread",), daemon=True).start()
    if open_browser:

        def open_when_ready() -> None:
            # However long the start takes on a slow machine: a server that fails to start ends the process.
            while not server.started and not server.should_exit:
                time.sleep(0.05)
            if server.started:
                webbrowser.open(url)

        threading.Thread(target=open_when_ready, daemon=True).start()
    try:
        with _hang_up_stops(server):
            server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass  # uvicorn has shut down gracefully and re-raised Ctrl+C: stopping as asked is a success
    finally:
        sock.close()
        stop_every_pool()  # every request is answered: nothing to wait for in the workers
        if metrics_server is not None:
            metrics_server.shutdown()
            metrics_server.server_close()
    sys.stdout.flush()
    return 0


def _serve_metrics(metrics: Any, host: str, port: int, say: Callable[..., str], public: socket.socket) -> Any:
    """prometheus_client's server of ``metrics`` on ``host:port``, or :class:`ServeError` saying why not (the
    public socket ``public`` is closed then)."""
    from foursquare.web.metrics import serve_metrics

    if not 0 <= port <= 65535:
        public.close()
        raise ServeError(say("cannot_listen", host=host, port=port, error=say("bad_port")))
    try:
        return serve_metrics(metrics, host, port)
    except (OSError, OverflowError) as exc:
        public.close()
        reason = getattr(exc, "strerror", None) or exc
        raise ServeError(say("cannot_listen", host=host, port=port, error=reason)) from None
