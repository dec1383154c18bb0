"""The rows of a store, one per deal, as JSON lines, CSV or Parquet, named as ``solve --json`` and
``autoplay`` name them (:mod:`~foursquare.study.importing` reads them back)."""

from __future__ import annotations

import csv
import itertools
import json
from collections.abc import Iterator
from typing import Any, TextIO

from foursquare.study.store import StudyStore
from foursquare.study.work import DealResult, StudyError, StudySettings

FORMATS = ("jsonl", "csv", "parquet")
PARQUET_EXTRA = "foursquare-solitaire[parquet]"  # what to install for Parquet files
PARQUET_BATCH = 65_536  # rows per row group
# Every column a table export has, solver and player fields side by side (empty where they do not apply).
COLUMNS = (
    "what", "deal", "adjacency", "count_buried", "timeout", "node_budget", "seed", "time_budget",
    "status", "best_score", "upper_bound", "nodes", "outcome", "score", "moves", "seconds",
)  # fmt: skip


def row_json(settings: StudySettings, row: DealResult) -> dict[str, Any]:
    """One deal's record: what, deal, the variant, the study's settings and the result fields."""
    data: dict[str, Any] = {"what": settings.what, "deal": row.deal, **settings.variant.to_json()}
    data.update(settings.to_json())
    if settings.is_solver:
        data.update(
            status=row.status, best_score=row.score, upper_bound=row.upper_bound, seconds=row.seconds, nodes=row.nodes
        )
    else:
        data.update(outcome=row.status, score=row.score, moves=row.moves, seconds=row.seconds)
    return data


def records(store: StudyStore) -> Iterator[dict[str, Any]]:
    """Every row of every study, study by study, deal by deal, read as they are written (any size)."""
    for study in store.studies():
        for row in store.iter_results(study):
            yield row_json(study.settings, row)


def write_jsonl(store: StudyStore, out: TextIO) -> int:
    n = 0
    for record in records(store):
        out.write(json.dumps(record) + "\n")
        n += 1
    return n


def write_csv(store: StudyStore, out: TextIO) -> int:
    writer = csv.DictWriter(out, fieldnames=COLUMNS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    n = 0
    for record in records(store):
        writer.writerow({k: "" if record.get(k) is None else record[k] for k in COLUMNS})
        n += 1
    return n


def pyarrow_modules() -> tuple[Any, Any]:
    """``pyarrow`` and ``pyarrow.parquet`` (an extra: ``pip install 'foursquare-solitaire[parquet]'``)."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise StudyError(f"Parquet needs pyarrow: pip install '{PARQUET_EXTRA}'", "needs_pyarrow") from None
    return pa, pq


def write_parquet(store: StudyStore, path: str) -> int:
    """A Parquet file (needs pyarrow: ``pip install 'foursquare-solitaire[parquet]'``)."""
    pa, pq = pyarrow_modules()
    types = {
        "what": pa.string(), "deal": pa.uint64(), "adjacency": pa.string(), "count_buried": pa.bool_(),
        "timeout": pa.float64(), "node_budget": pa.int64(), "seed": pa.uint64(), "time_budget": pa.float64(),
        "status": pa.string(), "best_score": pa.int32(),
        "upper_bound": pa.int32(), "nodes": pa.int64(), "outcome": pa.string(), "score": pa.int32(),
        "moves": pa.int32(), "seconds": pa.float64(),
    }  # fmt: skip
    schema = pa.schema([(k, types[k]) for k in COLUMNS])
    n = 0
    with pq.ParquetWriter(path, schema) as writer:  # in batches: a store of any size in bounded memory
        for batch in _batches(records(store), PARQUET_BATCH):
            writer.write_table(pa.table({k: pa.array([r.get(k) for r in batch], type=types[k]) for k in COLUMNS}))
            n += len(batch)
    if n == 0:  # a file with the columns and no row, as an empty table would be written
        pq.write_table(schema.empty_table(), path)
    return n


def _batches(items: Iterator[dict[str, Any]], size: int) -> Iterator[list[dict[str, Any]]]:
    while batch := list(itertools.islice(items, size)):
        yield batch


__all__ = [
    "COLUMNS",
    "FORMATS",
    "PARQUET_EXTRA",
    "pyarrow_modules",
    "records",
    "row_json",
    "write_csv",
    "write_jsonl",
    "write_parquet",
]
