"""The optional parts of Foursquare: which commands need which extra, and the one line that says so.

``pip install foursquare-solitaire`` gives the rules, the command line, the terminal game, the lesson and the
hints (the kernel compiled ahead of time); the solver (numba), its exact stage (OR-Tools), the web app, studies
and the reinforcement-learning environments are extras. A command checks its extra before it imports
anything of it, so a missing one is a clear line and exit 2, not an ``ImportError``'s traceback.
"""

from __future__ import annotations

from importlib.util import find_spec

from foursquare.cli.errors import CommandError
from foursquare.i18n import Translator

DISTRIBUTION = "foursquare-solitaire"

#: Each extra, with the top-level modules it installs that the commands import. A command asks for its whole
#: extra, as ``pip`` installs it, rather than for the one module it happens to import first.
EXTRAS: dict[str, tuple[str, ...]] = {
    "solver": ("numba", "llvmlite"),
    "exact": ("ortools",),
    "web": ("fastapi", "uvicorn", "pydantic", "webauthn", "limits", "fastapi_offline", "prometheus_client", "numba"),
    "postgres": ("psycopg", "psycopg_pool"),
    "study": ("distributed", "matplotlib", "numba"),
    "rl": ("gymnasium", "PIL", "numba"),
    "data": ("minari", "pyarrow"),
}


def missing_modules(extra: str) -> list[str]:
    """The modules of ``extra`` that this Python cannot import (none when the extra is installed)."""
    return [name for name in EXTRAS[extra] if find_spec(name) is None]


def require_extra(extra: str, command: str, t: Translator) -> None:
    """Refuse ``command`` (as a person types it) with the ``pip install`` line when ``extra`` is missing."""
    if missing_modules(extra):
        install = f"pip install '{DISTRIBUTION}[{extra}]'"
        raise CommandError(t("cli.needs_extra", command=command, extra=extra, install=install))
