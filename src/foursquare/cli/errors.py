"""What went wrong, in the player's language: the command line's own errors, and the library's that a user can cause.

A command raises :class:`CommandError` with a message already in its language. The library's errors are
English texts for developers; those a user can cause share one base class,
:class:`~foursquare.errors.FoursquareError`, with a stable ``code`` and their details, and :func:`user_message`
words from the catalogue those of a file written (:class:`~foursquare.files.FileWriteError`), a record file
(:class:`~foursquare.record.RecordError`), the games database
(:class:`~foursquare.store.StoreError`) and a study (:class:`~foursquare.study.StudyError`). Any other error's
English text is shown as it is: it is unexpected, and the English is better than nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from foursquare.i18n import Translator

if TYPE_CHECKING:
    from foursquare.record import RecordError
    from foursquare.store import StoreError
    from foursquare.study.work import StudyError


class CommandError(ValueError):
    """A command was asked something it cannot do; printed as ``foursquare: error: …``, exit 2.

    Its text is already in the language of the run (commands word it with ``args.translator``).
    """


def user_message(exc: BaseException, t: Translator) -> str:
    """``exc``'s message for the person at the terminal, in ``t``'s language where the catalogue has it."""
    from foursquare.errors import FoursquareError
    from foursquare.files import FileWriteError
    from foursquare.record import RecordError
    from foursquare.store import StoreError
    from foursquare.study.work import StudyError

    if not isinstance(exc, FoursquareError) or not exc.code:
        return str(exc)
    if isinstance(exc, FileWriteError):
        return t(f"cli.file.{exc.code}", **{name: str(value) for name, value in exc.params.items()})
    if isinstance(exc, RecordError):
        return record_message(exc, t)
    if isinstance(exc, StoreError):
        return store_message(exc, t)
    if isinstance(exc, StudyError) and t.has(f"cli.study.error.{exc.code}"):
        return study_message(exc, t)
    return str(exc)


def store_message(exc: StoreError, t: Translator) -> str:
    """Why the games database cannot be used, from :class:`~foursquare.store.StoreError`'s code and details."""
    path, error = str(exc.path), str(exc.error or "")
    directory = str(getattr(exc.path, "parent", ""))
    example = "postgresql://user@host/foursquare"
    return t(f"cli.store.{exc.code}", path=path, error=error, directory=directory, option="--db", example=example)


def study_message(exc: StudyError, t: Translator) -> str:
    """What went wrong in a study, from :class:`~foursquare.study.StudyError`'s code and details."""
    from foursquare.study.export import PARQUET_EXTRA

    # Counts are numbers in the language's digits; paths, addresses and values stay as written.
    params = {k: v if k in ("seconds", "line", "first") else str(v) for k, v in exc.params.items()}
    names = {
        "library": "Dask",
        "format": "Parquet",
        "package": "pyarrow",
        "command": f"pip install '{PARQUET_EXTRA}'",
        "export": "foursquare study export",
        "report": "foursquare study report",
    }
    return t(f"cli.study.error.{exc.code}", **names, **params)


def json_fault(params: dict[str, object], t: Translator) -> str:
    """Where and how a text is not JSON (a record's ``not_json`` details): ``a comma was expected at line 3,
    column 7``; only where, for a fault the catalogue does not name."""
    key = f"cli.json.{params.get('fault')}"
    return t(key if t.has(key) else "cli.json.other", line=params["line"], column=params["column"])


def record_message(exc: RecordError, t: Translator) -> str:
    """What is wrong with a game record, from :class:`~foursquare.record.RecordError`'s code and details."""
    code, params, path = exc.code, dict(exc.params), exc.path
    key = f"cli.record.{code}"
    if not code or not t.has(key):
        return str(exc)
    if "index" in params:
        params["move"] = int(str(params.pop("index"))) + 1  # people count moves from 1
    if code == "illegal_move":
        reason = f"error.illegal.{params.get('reason')}"
        params["reason"] = t(reason) if t.has(reason) else str(params.get("reason"))
    if code == "not_json" and "line" in params:
        params["detail"] = json_fault(params, t)
    for name in ("found", "expected"):
        if name in params:
            params[name] = str(params[name])  # as written in the file or by the program: not a number to localise
    params.setdefault("deal", '"deal"')
    params.setdefault("stock", '"stock"')
    params.setdefault("pair", "[row, col]")
    params.setdefault("moves", '"moves"')
    message = t(key, **params)
    return t("cli.record.error", path=path, message=message) if path is not None else message
