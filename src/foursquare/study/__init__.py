"""Studies: a computation over many deals (the solver or a player), stored one row per deal, reported.

* :mod:`~foursquare.study.work`: the settings of a study and the row of one deal (:func:`compute_chunk` is
  the task a worker runs).
* :mod:`~foursquare.study.store`: the SQLite store, one row per deal, resumable, never a deal twice.
* :mod:`~foursquare.study.run`: running the missing deals in chunks on a Dask cluster, local or remote
  (:class:`~foursquare.study.run.Deals`: ranges of deals of any size).
* :mod:`~foursquare.study.report`: the figures of each study (Wilson intervals, Solvitaire-style bounds).
* :mod:`~foursquare.study.plots`: the report's plots as PNG (matplotlib).
* :mod:`~foursquare.study.export`: the rows as JSON lines, CSV or Parquet.

``docs/studies.md`` shows the command and the deployments; ``docs/results.md`` the published figures.
"""

from foursquare.study.run import Deals, StudyProgress, deal_list, run_study
from foursquare.study.store import Study, StudyStore
from foursquare.study.work import PLAYERS, WHATS, DealResult, StudyError, StudySettings, compute_chunk

__all__ = [
    "PLAYERS",
    "WHATS",
    "DealResult",
    "Deals",
    "Study",
    "StudyError",
    "StudyProgress",
    "StudySettings",
    "StudyStore",
    "compute_chunk",
    "deal_list",
    "run_study",
]
