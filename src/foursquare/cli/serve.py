"""``foursquare serve``: the web app."""

from __future__ import annotations

import argparse
from typing import Any

from foursquare.cli.extras import require_extra
from foursquare.cli.parser import OptionError, help_text
from foursquare.i18n import Translator

PORT_LIMIT = 65535


def register(sub: Any, t: Translator | None = None) -> None:
    t = t or sub.translator
    p = sub.add_parser("serve", help=help_text(t, "cli.serve.help"), description=t("cli.serve.description"))
    p.add_argument("--host", default="127.0.0.1", help=help_text(t, "cli.serve.host.help"))
    p.add_argument("--port", type=port_number, default=8000, metavar="PORT", help=help_text(t, "cli.serve.port.help"))
    p.add_argument("--db", metavar="PATH", help=help_text(t, "cli.serve.db.help"))
    p.add_argument(
        "--allowed-hosts",
        metavar="HOST[,HOST…]",
        type=host_list,
        help=help_text(
            t,
            "cli.serve.allowed_hosts.help",
            example="games.example.org,*.example.org",
            any="'*'",
            loopback="localhost, 127.0.0.1, ::1",
            host="--host",
        ),
    )
    p.add_argument("--open", action="store_true", help=help_text(t, "cli.serve.open.help"))
    p.set_defaults(run=run_serve)


def host_list(text: str) -> list[str]:
    hosts = [name.strip() for name in text.split(",") if name.strip()]
    if not hosts:
        raise OptionError("cli.serve.no_hosts", example="--allowed-hosts games.example.org")
    return hosts


def port_number(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise OptionError("cli.serve.port_not_number", value=repr(text)) from None
    if not 0 <= value <= PORT_LIMIT:
        raise OptionError("cli.serve.bad_port")
    return value


def run_serve(args: argparse.Namespace) -> int:
    t: Translator = args.translator
    require_extra("web", "foursquare serve", t)
    from foursquare.web.server import serve  # FastAPI and uvicorn: imported only to serve


    def say(key: str, **params: object) -> str:
        """What ``serve`` prints, in the run's language (``cli.serve.*``)."""
        if key == "open_to_any_host" and not args.host:
            params["host"] = t("cli.serve.every_address")
        if isinstance(params.get("port"), int):
            params["port"] = str(params["port"])  # as typed, like the address beside it
        if "error" in params and not isinstance(params["error"], str):
            params["error"] = str(params["error"])
        params.update(keys="Ctrl+C", option="--allowed-hosts", any="'*'")
        return t(f"cli.serve.{key}", **params)

    return serve(args.host, args.port, args.db, args.open, allowed_hosts=args.allowed_hosts, say=say)
