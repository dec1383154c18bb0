"""Rows written by ``study export`` read back, so that studies made elsewhere join a store.

A file is JSON lines, CSV or Parquet as :mod:`~foursquare.study.export` writes them, gzip-compressed or
not (found from its first bytes, not its name). The whole file is checked before anything is stored, so a
bad line leaves the store as it was; a deal the store already has for the same study keeps its row.
Values are read as strictly as they are written: numbers as JSON or Parquet numbers, or in a CSV as plain
ASCII decimals; a row that contradicts itself (an unwinnable deal with a score) is refused.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import math
import re
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO, get_args

from foursquare.cards import DECK_SIZE, MAX_DEAL
from foursquare.engine import Variant
from foursquare.solver.driver import Status
from foursquare.study.store import StudyStore
from foursquare.study.work import MAX_NODE_BUDGET, MAX_SEED, WHATS, DealResult, StudyError, StudySettings

SOLVER_STATUSES: tuple[str, ...] = get_args(Status)
OUTCOMES = ("won", "lost")
Rows = dict[StudySettings, list[DealResult]]

_WHOLE = re.compile(r"-?[0-9]+", re.ASCII)
_DECIMAL = re.compile(r"-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?", re.ASCII)


def read_rows(path: str | Path) -> Rows:
    """Every row of an exported file, by study, in the file's order."""
    path = Path(path)
    rows: Rows = {}
    seen: dict[tuple[StudySettings, int], int] = {}
    for line, record, text in _records(path):
        where = _Where(path, line, text)
        settings, result = _parse(record, where)
        first = seen.setdefault((settings, result.deal), line)
        if first != line:
            raise where.duplicate(result.deal, first)
        rows.setdefault(settings, []).append(result)
    return rows


def import_rows(store: StudyStore, rows: Rows) -> int:
    """Store ``rows`` in one transaction (a deal already stored keeps its row); returns the rows added."""
    return store.add_studies((store.study(settings), results) for settings, results in rows.items())


def _records(path: Path) -> Iterator[tuple[int, dict[str, Any], bool]]:
    """``(line, record, textual)`` for each row; ``line`` counts from 1 (a CSV's header is line 1) and
    ``textual`` says the values are a CSV's text rather than typed JSON or Parquet values."""
    data = _read_bytes(path)
    if data.startswith(b"\x1f\x8b"):
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(data)) as unzipped:
                data = _at_most(path, unzipped)
        except (OSError, EOFError, zlib.error) as exc:
            raise _cannot_read(path, exc) from None
    if data.startswith(b"PAR1"):
        for line, record in enumerate(_parquet(path, data), start=1):
            yield line, record, False
        return
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise StudyError(f"{path} is not an export of studies", "unknown_format", path=str(path)) from None
    if not text.strip() or text.lstrip().startswith("{"):  # an export of an empty store is an empty file
        for line, record in _jsonl(path, text):
            yield line, record, False
    elif text.startswith("what,"):
        yield from _csv(path, text)
    else:
        raise StudyError(f"{path} is not an export of studies", "unknown_format", path=str(path))


#: The most bytes a file to import may hold, unzipped: the rows are checked whole before any is stored, in memory
#: (some ten times this), and a device such as /dev/zero, or a small gzip bomb, never ends.
MAX_IMPORT_BYTES = 1 << 30


def _at_most(path: Path, file: BinaryIO | gzip.GzipFile) -> bytes:
    data = file.read(MAX_IMPORT_BYTES + 1)
    if len(data) > MAX_IMPORT_BYTES:
        raise StudyError(
            f"{path} is larger than {MAX_IMPORT_BYTES} bytes: import it in parts",
            "too_large",
            path=str(path),
            limit=MAX_IMPORT_BYTES,
        )
    return data


def _read_bytes(path: Path) -> bytes:
    try:
        with path.open("rb") as file:
            return _at_most(path, file)
    except FileNotFoundError:
        raise StudyError(f"no such file: {path}", "no_such_file", path=str(path)) from None
    except OSError as exc:
        raise _cannot_read(path, exc) from None


def _cannot_read(path: Path, exc: BaseException) -> StudyError:
    return StudyError(f"cannot read {path}: {exc}", "cannot_read", path=str(path), error=str(exc))


def _jsonl(path: Path, text: str) -> Iterator[tuple[int, dict[str, Any]]]:
    for line, content in enumerate(text.splitlines(), start=1):
        if not content.strip():
            continue
        try:
            record = json.loads(content)
        except (ValueError, RecursionError):  # not JSON, a number too long to convert, nesting too deep
            record = None
        if not isinstance(record, dict):
            raise StudyError(f"{path}, line {line}: not a JSON object", "not_json", path=str(path), line=line)
        yield line, record


def _csv(path: Path, text: str) -> Iterator[tuple[int, dict[str, Any], bool]]:
    reader = csv.DictReader(io.StringIO(text, newline=""))
    try:
        for record in reader:
            yield reader.line_num, {k: (None if v == "" else v) for k, v in record.items() if k is not None}, True
    except csv.Error as exc:
        raise _cannot_read(path, exc) from None


def _parquet(path: Path, data: bytes) -> list[dict[str, Any]]:
    from foursquare.study.export import pyarrow_modules

    pa, pq = pyarrow_modules()
    try:
        records: list[dict[str, Any]] = pq.read_table(pa.BufferReader(data)).to_pylist()
    except (OSError, pa.ArrowException) as exc:
        raise _cannot_read(path, exc) from None
    return records


class _Where:
    """Where a record stands (and whether its values are text), to read its values and say what is wrong."""

    def __init__(self, path: Path, line: int, textual: bool) -> None:
        self.path, self.line, self.textual = path, line, textual

    def _error(self, message: str, code: str, **params: object) -> StudyError:
        where = f"{self.path}, line {self.line}"
        return StudyError(f"{where}: {message}", code, path=str(self.path), line=self.line, **params)

    def missing(self, field: str) -> StudyError:
        return self._error(f"no {field}", "missing_field", field=field)

    def bad(self, field: str, value: object) -> StudyError:
        return self._error(f"{field} cannot be {value!r}", "bad_field", field=field, value=str(value))

    def duplicate(self, deal: int, first: int) -> StudyError:
        return self._error(f"deal {deal} again (first on line {first})", "duplicate", deal=str(deal), first=first)


Reader = Callable[[object, bool], Any]


def _parse(record: dict[str, Any], where: _Where) -> tuple[StudySettings, DealResult]:
    def get(field: str, read: Reader, *, required: bool = True) -> Any:
        if required and field not in record:
            raise where.missing(field)
        value = record.get(field)
        if value is None:
            if required:
                raise where.missing(field)
            return None
        try:
            return read(value, where.textual)
        except (TypeError, ValueError):
            raise where.bad(field, value) from None

    what = get("what", _choice(WHATS))
    deal = get("deal", _whole(0, MAX_DEAL - 1))
    variant = Variant(get("adjacency", _choice(("orthogonal", "diagonal"))), get("count_buried", _bool))
    seconds = get("seconds", _decimal(0.0))
    if what == "solver":
        timeout = get("timeout", _decimal(0.0, above=True), required=False)
        budget = get("node_budget", _whole(1, MAX_NODE_BUDGET), required=False)
        if timeout is None and budget is None:  # rows before node budgets always had a timeout
            raise where.missing("node_budget")
        settings = StudySettings(what, variant, timeout=timeout, node_budget=budget)
        status = get("status", _choice(SOLVER_STATUSES))
        score = get("best_score", _whole(0, DECK_SIZE), required=False)
        upper = get("upper_bound", _whole(-1, DECK_SIZE))
        nodes = get("nodes", _whole(0, 2**63 - 1))
        _check_solver(where, status, score, upper)
        return settings, DealResult(deal, status, score, seconds, upper_bound=upper, nodes=nodes)
    # A best study's thinking time always has its column (empty for none): without it, rows of a timed
    # study would join the untimed one.
    budget = get("time_budget", _decimal(0.0, above=True), required=False) if what == "best" else None
    if what == "best" and "time_budget" not in record:
        raise where.missing("time_budget")
    settings = StudySettings(what, variant, seed=get("seed", _whole(0, MAX_SEED)), time_budget=budget)
    outcome = get("outcome", _choice(OUTCOMES))
    score = get("score", _whole(0, DECK_SIZE))
    if outcome == "lost" and score != 0:
        raise where.bad("score", score)
    moves = get("moves", _whole(0, DECK_SIZE))
    return settings, DealResult(deal, outcome, score, seconds, moves=moves)


def _check_solver(where: _Where, status: str, score: int | None, upper: int) -> None:
    """A solver row agrees with itself: a score only where a win was found, never above the bound."""
    if status == "unwinnable" and score is not None:
        raise where.bad("best_score", score)
    if status == "optimal" and score is None:
        raise where.missing("best_score")
    if (score is not None and score > upper) or (status == "optimal" and score != upper):
        raise where.bad("upper_bound", upper)


def _choice(options: tuple[str, ...]) -> Reader:
    def read(value: object, textual: bool) -> str:
        if not isinstance(value, str) or value not in options:
            raise ValueError(value)
        return value

    return read


def _whole(low: int, high: int) -> Reader:
    def read(value: object, textual: bool) -> int:
        if textual and isinstance(value, str) and _WHOLE.fullmatch(value):
            number = int(value)
        elif not textual and isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            raise ValueError(value)
        if not low <= number <= high:
            raise ValueError(value)
        return number

    return read


def _decimal(low: float, *, above: bool = False) -> Reader:
    def read(value: object, textual: bool) -> float:
        text = textual and isinstance(value, str) and _DECIMAL.fullmatch(value)
        typed = not textual and isinstance(value, int | float) and not isinstance(value, bool)
        if not (text or typed):
            raise ValueError(value)
        number = float(value)  # type: ignore[arg-type]
        if not math.isfinite(number) or number < low or (above and number == low):
            raise ValueError(value)
        return number

    return read


def _bool(value: object, textual: bool) -> bool:
    if not textual and isinstance(value, bool):
        return value
    if textual and value in ("True", "False"):
        return value == "True"
    raise ValueError(value)


__all__ = ["import_rows", "read_rows"]
