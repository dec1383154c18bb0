"""``foursquare serve``: the web app."""

from __future__ import annotations

import argparse
import ipaddress
import math
import os
from typing import Any

from foursquare.cli.extras import require_extra
from foursquare.cli.parser import OptionError, help_text
from foursquare.i18n import Translator

POSTGRES_EXAMPLE = "postgresql://user@host/foursquare"
#: ``foursquare.store.DATABASE_ENV``, named here so that ``serve --help`` need not load the store (issue 43;
#: tests/test_startup.py checks they agree).
DATABASE_ENV = "FOURSQUARE_DATABASE_URL"

PORT_LIMIT = 65535
REQUEST_TIMEOUT = 10.0
"""Seconds a connection has to send a whole request (``foursquare.web.connections.DEFAULT_REQUEST_TIMEOUT``)."""
REQUEST_TIMEOUT_RANGE = (1.0, 3600.0)
METRICS_HOST = "127.0.0.1"
"""Where ``--metrics-port`` serves the metrics unless ``--metrics-host`` says otherwise: this machine only."""
LOG_FORMATS = ("text", "json")


def register(sub: Any, t: Translator | None = None) -> None:
    t = t or sub.translator
    p = sub.add_parser("serve", help=help_text(t, "cli.serve.help"), description=t("cli.serve.description"))
    p.add_argument("--host", default="127.0.0.1", help=help_text(t, "cli.serve.host.help"))
    p.add_argument("--port", type=port_number, default=8000, metavar="PORT", help=help_text(t, "cli.serve.port.help"))
    p.add_argument(
        "--db",
        metavar="PATH|URL",
        help=help_text(t, "cli.serve.database.help", example=POSTGRES_EXAMPLE, variable=DATABASE_ENV),
    )
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
    p.add_argument(
        "--trusted-proxies",
        metavar="ADDRESS[,ADDRESS…]",
        type=proxy_list,
        default=[],
        help=help_text(
            t,
            "cli.serve.trusted_proxies.help",
            headers="X-Forwarded-For, X-Forwarded-Proto",
            example="127.0.0.1,10.0.0.0/8",
        ),
    )
    p.add_argument(
        "--request-timeout",
        metavar="SECONDS",
        type=request_timeout,
        default=REQUEST_TIMEOUT,
        help=help_text(t, "cli.serve.request_timeout.help", default="10"),
    )
    p.add_argument(
        "--metrics-port",
        type=port_number,
        metavar="PORT",
        help=help_text(t, "cli.serve.metrics_port.help", path="/metrics", prometheus="Prometheus"),
    )
    p.add_argument(
        "--metrics-host",
        default=METRICS_HOST,
        metavar="ADDRESS",
        help=help_text(t, "cli.serve.metrics_host.help", default=METRICS_HOST),
    )
    p.add_argument(
        "--log-format",
        choices=LOG_FORMATS,
        default=LOG_FORMATS[0],
        help=help_text(t, "cli.serve.log_format.help", text=LOG_FORMATS[0], json=LOG_FORMATS[1]),
    )
    p.add_argument("--open", action="store_true", help=help_text(t, "cli.serve.open.help"))
    p.set_defaults(run=run_serve)


def host_list(text: str) -> list[str]:
    hosts = [name.strip() for name in text.split(",") if name.strip()]
    if not hosts:
        raise OptionError("cli.serve.no_hosts", example="--allowed-hosts games.example.org")
    return hosts


def proxy_list(text: str) -> list[str]:
    """IP addresses and networks (``10.0.0.0/8``), comma-separated: each written as Python writes it."""
    proxies = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        try:
            proxies.append(str(ipaddress.ip_network(item) if "/" in item else ipaddress.ip_address(item)))
        except ValueError:
            raise OptionError("cli.serve.bad_proxy", value=repr(item), example="127.0.0.1, ::1, 10.0.0.0/8") from None
    if not proxies:
        raise OptionError("cli.serve.no_proxies", example="--trusted-proxies 127.0.0.1")
    return proxies


def request_timeout(text: str) -> float:
    low, high = REQUEST_TIMEOUT_RANGE
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not low <= value <= high:  # NaN too
        raise OptionError("cli.serve.bad_request_timeout", value=repr(text), low=f"{low:g}", high=f"{high:g}")
    return value


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
    database = args.db or os.environ.get(DATABASE_ENV) or None
    from foursquare.store import is_database_url

    if is_database_url(database):
        require_extra("postgres", "foursquare serve --db postgresql://…", t)
    from foursquare.web.server import serve  # FastAPI and uvicorn: imported only to serve

    def say(key: str, **params: object) -> str:
        """What ``serve`` prints, in the run's language (``cli.serve.*``)."""
        if key == "open_to_any_host" and not args.host:
            params["host"] = t("cli.serve.every_address")
        if isinstance(params.get("port"), int):
            params["port"] = str(params["port"])  # as typed, like the address beside it
        if "error" in params and not isinstance(params["error"], str):
            params["error"] = str(params["error"])
        params.update(keys="Ctrl+C", option="--allowed-hosts", any="'*'", prometheus="Prometheus")
        return t(f"cli.serve.{key}", **params)

    return serve(
        args.host,
        args.port,
        database,
        args.open,
        allowed_hosts=args.allowed_hosts,
        say=say,
        request_timeout=args.request_timeout,
        trusted_proxies=args.trusted_proxies,
        metrics_port=args.metrics_port,
        metrics_host=args.metrics_host,
        log_format=args.log_format,
    )
