"""``foursquare serve``: the web app."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser("serve", help="play in the browser", description="Serve the web app.")
    p.add_argument("--host", default="127.0.0.1", help="default 127.0.0.1 (this machine only)")
    p.add_argument("--port", type=int, default=8000, help="default 8000")
    p.add_argument("--db", metavar="PATH", help="SQLite database (default: in the user data directory)")
    p.add_argument(
        "--allowed-hosts",
        metavar="HOST[,HOST…]",
        type=host_list,
        help="the host names the server answers to (e.g. games.example.org,*.example.org; '*': any); "
        "default: localhost, 127.0.0.1 and ::1 when --host is a loopback address",
    )
    p.add_argument("--open", action="store_true", help="open the page in a browser")
    p.set_defaults(run=run_serve)


def host_list(text: str) -> list[str]:
    hosts = [name.strip() for name in text.split(",") if name.strip()]
    if not hosts:
        raise argparse.ArgumentTypeError("give at least one host name, e.g. --allowed-hosts games.example.org")
    return hosts


def run_serve(args: argparse.Namespace) -> int:
    from foursquare.web.server import serve  # FastAPI and uvicorn: imported only to serve

    return serve(args.host, args.port, args.db, args.open, allowed_hosts=args.allowed_hosts)
