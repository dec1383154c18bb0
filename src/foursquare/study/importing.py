"""Rows written by ``study export`` read back, so that studies made elsewhere join a store.

A file is JSON lines, CSV or Parquet as :mod:`~foursquare.study.export` writes them, gzip-compressed or
not (found from its first bytes, not its name). The whole file is checked before anything is stored, so a
bad line leaves the store as it was; a deal the store already has for the same study keeps its row.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import math
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from foursquare.cards import MAX_DEAL
from foursquare.engine import Variant
from foursquare.study.store import StudyStore
from foursquare.study.work import WHATS, DealResult, StudyError, StudySettings

SOLVER_STATUSES = ("optimal", "unwinnable", "bounds")
OUTCOMES = ("won", "lost")
Rows = dict[StudySettings, list[DealResult]]


def read_rows(path: str | Path) -> Rows:
    """Every row of an exported file, by study, in the file's order."""
    path = Path(path)
    rows: Rows = {}
    for line, record in _records(path):
        settings, result = _parse(record, _Where(path, line))
        rows.setdefault(settings, []).append(result)
    return rows


def import_rows(store: StudyStore, rows: Rows) -> int:
    """Store ``rows`` in one transaction (a deal already stored keeps its row); returns the rows added."""
    return store.add_studies((store.study(settings), results) for settings, results in rows.items())


def _records(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line, record)`` for each row; ``line`` counts from 1 (a CSV's header is line 1)."""
    data = _read_bytes(path)
    if data.startswith(b"\x1f\x8b"):
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as exc:
            raise StudyError(f"cannot read {path}: {exc}", "cannot_read", path=str(path), error=str(exc)) from None
    if data.startswith(b"PAR1"):
        yield from enumerate(_parquet(path, data), start=1)
        return
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise StudyError(f"{path} is not an export of studies", "unknown_format", path=str(path)) from None
    if text.lstrip().startswith("{"):
        yield from _jsonl(path, text)
    elif text.startswith("what,"):
        reader = csv.DictReader(io.StringIO(text, newline=""))
        for record in reader:
            yield reader.line_num, {k: (None if v == "" else v) for k, v in record.items() if k is not None}
    else:
        raise StudyError(f"{path} is not an export of studies", "unknown_format", path=str(path))


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise StudyError(f"no such file: {path}", "no_such_file", path=str(path)) from None
    except OSError as exc:
        raise StudyError(f"cannot read {path}: {exc}", "cannot_read", path=str(path), error=str(exc)) from None


def _jsonl(path: Path, text: str) -> Iterator[tuple[int, dict[str, Any]]]:
    for line, content in enumerate(text.splitlines(), start=1):
        if not content.strip():
            continue
        try:
            record = json.loads(content)
        except json.JSONDecodeError:
            record = None
        if not isinstance(record, dict):
            raise StudyError(f"{path}, line {line}: not a JSON object", "not_json", path=str(path), line=line)
        yield line, record


def _parquet(path: Path, data: bytes) -> list[dict[str, Any]]:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise StudyError(
            "Parquet needs pyarrow: pip install 'foursquare-solitaire[parquet]'", "needs_pyarrow"
        ) from None
    try:
        records: list[dict[str, Any]] = pq.read_table(pa.BufferReader(data)).to_pylist()
    except (OSError, pa.ArrowException) as exc:
        raise StudyError(f"cannot read {path}: {exc}", "cannot_read", path=str(path), error=str(exc)) from None
    return records


class _Where:
    """Where a record stands, to say what is wrong with it."""

    def __init__(self, path: Path, line: int) -> None:
        self.path, self.line = path, line

    def missing(self, field: str) -> StudyError:
        return StudyError(
            f"{self.path}, line {self.line}: no {field}",
            "missing_field",
            path=str(self.path),
            line=self.line,
            field=field,
        )

    def bad(self, field: str, value: object) -> StudyError:
        return StudyError(
            f"{self.path}, line {self.line}: {field} cannot be {value!r}",
            "bad_field",
            path=str(self.path),
            line=self.line,
            field=field,
            value=str(value),
        )


def _parse(record: dict[str, Any], where: _Where) -> tuple[StudySettings, DealResult]:
    def get(field: str, read: Callable[[object], Any], *, required: bool = True) -> Any:
        value = record.get(field)
        if value is None:
            if required:
                raise where.missing(field)
            return None
        try:
            return read(value)
        except (TypeError, ValueError):
            raise where.bad(field, value) from None

    what = get("what", _choice(WHATS))
    deal = get("deal", _int_in(0, MAX_DEAL - 1))
    variant = Variant(get("adjacency", _choice(("orthogonal", "diagonal"))), get("count_buried", _bool))
    seconds = get("seconds", _float_at_least(0.0))
    if what == "solver":
        settings = StudySettings(what, variant, timeout=get("timeout", _float_above(0.0)))
        status = get("status", _choice(SOLVER_STATUSES))
        score = get("best_score", _int_in(0, 40), required=status == "optimal")
        upper = get("upper_bound", _int_in(-1, 40))
        nodes = get("nodes", _int_in(0, 2**63 - 1))
        return settings, DealResult(deal, status, score, seconds, upper_bound=upper, nodes=nodes)
    budget = get("time_budget", _float_above(0.0), required=False) if what == "best" else None
    settings = StudySettings(what, variant, seed=get("seed", _int_in(0, 2**64 - 1)), time_budget=budget)
    outcome = get("outcome", _choice(OUTCOMES))
    score = get("score", _int_in(0, 40))
    moves = get("moves", _int_in(0, 40))
    return settings, DealResult(deal, outcome, score, seconds, moves=moves)


def _choice(options: tuple[str, ...]) -> Callable[[object], str]:
    def read(value: object) -> str:
        if value not in options:
            raise ValueError(value)
        return str(value)

    return read


def _int_in(low: int, high: int) -> Callable[[object], int]:
    def read(value: object) -> int:
        if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
            raise ValueError(value)
        number = int(value) if isinstance(value, int | float) else int(str(value), 10)
        if not low <= number <= high:
            raise ValueError(value)
        return number

    return read


def _float_at_least(low: float) -> Callable[[object], float]:
    def read(value: object) -> float:
        if isinstance(value, bool):
            raise ValueError(value)
        number = float(value) if isinstance(value, int | float) else float(str(value))
        if not math.isfinite(number) or number < low:
            raise ValueError(value)
        return number

    return read


def _float_above(low: float) -> Callable[[object], float]:
    at_least = _float_at_least(low)

    def read(value: object) -> float:
        number = at_least(value)
        if number <= low:
            raise ValueError(value)
        return number

    return read


def _bool(value: object) -> bool:
    if isinstance(value, bool):
        return value
    if value in ("True", "true"):
        return True
    if value in ("False", "false"):
        return False
    raise ValueError(value)


__all__ = ["import_rows", "read_rows"]
