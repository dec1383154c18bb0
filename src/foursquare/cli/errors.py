"""What went wrong, in the player's language: the command line's own errors, and the library's that a user can cause.

A command raises :class:`CommandError` with a message already in its language. The library's errors are
English texts for developers; those a user can cause carry a stable ``code`` and their details (a record
file's :class:`~foursquare.record.RecordError`, the games database's :class:`~foursquare.store.StoreError`, a
study's :class:`~foursquare.study.StudyError`),
which :func:`user_message` words from the catalogue. Any other error's English text is shown as it is: it
is unexpected, and the English is better than nothing.
"""

from __future__ import annotations

from foursquare.i18n import Translator


class CommandError(ValueError):
    """A command was asked something it cannot do; printed as ``foursquare: error: …``, exit 2.

    Its text is already in the language of the run (commands word it with ``args.translator``).
    """


def user_message(exc: BaseException, t: Translator) -> str:
    """``exc``'s message for the person at the terminal, in ``t``'s language where the catalogue has it."""
    from foursquare.record import RecordError
    from foursquare.store import StoreError
    from foursquare.study.export import PARQUET_EXTRA
    from foursquare.study.work import StudyError

    if isinstance(exc, RecordError) and exc.code:
        return record_message(exc, t)
    if isinstance(exc, StoreError) and exc.code:
        path, error = str(exc.path), str(exc.error or "")
        directory = str(getattr(exc.path, "parent", ""))
        return t(f"cli.store.{exc.code}", path=path, error=error, directory=directory, option="--db")
    if isinstance(exc, StudyError) and exc.code and t.has(f"cli.study.error.{exc.code}"):
        # Counts are numbers in the language's digits; paths, addresses and values stay as written.
        params = {k: v if k in ("seconds", "line", "first") else str(v) for k, v in exc.params.items()}
        names = {
            "library": "Dask",
            "format": "Parquet",
            "package": "pyarrow",
            "command": f"pip install '{PARQUET_EXTRA}'",
            "export": "foursquare study export",
        }
        return t(f"cli.study.error.{exc.code}", **names, **params)
    return str(exc)


def record_message(exc: BaseException, t: Translator) -> str:
    """What is wrong with a game record, from :class:`~foursquare.record.RecordError`'s code and details."""
    code: str = getattr(exc, "code", "")
    params: dict[str, object] = dict(getattr(exc, "params", {}))
    path: str | None = getattr(exc, "path", None)
    key = f"cli.record.{code}"
    if not code or not t.has(key):
        return str(exc)
    if "index" in params:
        params["move"] = int(str(params.pop("index"))) + 1  # people count moves from 1
    if code == "illegal_move":
        reason = f"error.illegal.{params.get('reason')}"
        params["reason"] = t(reason) if t.has(reason) else str(params.get("reason"))
    for name in ("found", "expected"):
        if name in params:
            params[name] = str(params[name])  # as written in the file or by the program: not a number to localise
    params.setdefault("deal", '"deal"')
    params.setdefault("stock", '"stock"')
    params.setdefault("pair", "[row, col]")
    message = t(key, **params)
    return t("cli.record.error", path=path, message=message) if path is not None else message
