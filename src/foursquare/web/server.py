"""``foursquare serve``: check the database, listen, print the URL and serve the app until interrupted.

The application itself is built by :func:`foursquare.web.app.create_app`.
"""

from __future__ import annotations

import logging
import os
import socket
import sys
import threading
import time
import webbrowser
from pathlib import Path

import platformdirs

from foursquare.web.app import create_app
from foursquare.web.messages import say


class ServeError(ValueError):
    """``foursquare serve`` cannot start."""


def default_db_path() -> Path:
    """``games.db`` in the user's data directory (created if missing)."""
    directory = Path(platformdirs.user_data_dir("foursquare", appauthor=False))
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ServeError(f"cannot create the data directory {directory}: {exc}") from None
    return directory / "games.db"


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket, or :class:`ServeError` saying why there cannot be one."""
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
        sock.listen(128)
    except (OSError, OverflowError) as exc:
        sock.close()
        reason = getattr(exc, "strerror", None) or exc
        raise ServeError(say("cannot_listen", host=host, port=port, error=reason)) from None
    sock.set_inheritable(True)
    return sock


def _url(sock: socket.socket, host: str) -> str:
    port = sock.getsockname()[1]
    shown = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)  # where this machine reaches it
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def _warm_up_players() -> None:
    try:
        from foursquare.players import warm_up

        warm_up()
    except Exception:  # a failed warm-up only means the first hint is slow; the hint endpoint reports errors
        logging.getLogger("foursquare").exception("warming up the players failed")


def serve(host: str, port: int, db: str | os.PathLike[str] | None = None, open_browser: bool = False) -> int:
    """Check the database, listen, print the URL, serve until interrupted (``foursquare serve``)."""
    import uvicorn

    db = Path(db).expanduser() if db else default_db_path()
    app = create_app(db)
    sock = _listen(host, port)
    url = _url(sock, host)
    print(say("serving", url=url, db=os.fspath(db)), flush=True)
    server = uvicorn.Server(uvicorn.Config(app, log_level="info"))
    # Load (or compile) the AI's kernel now, so the first hint does not pay for it.
    threading.Thread(target=_warm_up_players, daemon=True).start()
    if open_browser:

        def open_when_ready() -> None:
            deadline = time.monotonic() + 30
            while not server.started and time.monotonic() < deadline and not server.should_exit:
                time.sleep(0.05)
            if server.started:
                webbrowser.open(url)

        threading.Thread(target=open_when_ready, daemon=True).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass  # uvicorn has shut down gracefully and re-raised Ctrl+C: stopping as asked is a success
    finally:
        sock.close()
    sys.stdout.flush()
    return 0
