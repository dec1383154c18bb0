"""Progress bars' figures in the run's language: rich writes ``12/40`` with Latin digits; Bengali has its own.
And :func:`working`: a spinner with what is being done and the time it has taken, for long work of unknown
length (a solve, an analysis, the first run that compiles the kernel), so that a terminal is never silent.

A count of any size stays readable: a total past a trillion is written ``1.8E19`` (the deals of a study can
number 2**64), and a time left past a thousand hours is only said to be that long.
"""

from __future__ import annotations

import contextlib
import math
import sys
from collections.abc import Iterator

from rich.progress import ProgressColumn, Task
from rich.table import Column
from rich.text import Text

from foursquare.i18n import Translator

EXACT_UP_TO = 10**12  # a count up to this is written whole; above it, as mantissa and power of ten
LONGEST_HOURS = 1000  # a time left of more hours than this is written ">999:59:59"


def count_text(value: int, t: Translator) -> str:
    """``value`` in ``t``'s digits: whole (``2,000``) up to a trillion, else ``1.8E19``."""
    if value <= EXACT_UP_TO:
        return t.number(value)
    exponent = int(math.log10(value))
    mantissa = value / 10**exponent
    if round(mantissa, 1) >= 10:  # 9.96 rounds up to 10.0: one more power of ten
        exponent, mantissa = exponent + 1, mantissa / 10
    return f"{t.number(mantissa, 1)}E{t.number(exponent)}"


class CountColumn(ProgressColumn):
    """``done/total``, like rich's ``MofNCompleteColumn``, in ``t``'s digits (``?`` for an unknown total)."""

    def __init__(self, t: Translator, table_column: Column | None = None) -> None:
        super().__init__(table_column)
        self.t = t

    def render(self, task: Task) -> Text:
        done = count_text(int(task.completed), self.t)
        total = "?" if task.total is None else count_text(int(task.total), self.t)
        return Text(f"{done}/{total}", style="progress.download")


class TimeLeftColumn(ProgressColumn):
    """The time left as ``h:mm:ss`` in ``t``'s digits; ``-:--:--`` while unknown, ``>999:59:59`` when longer.

    A task's field ``left`` (seconds, or None while unknown), when it has one, is the time left: the one its
    shown rate gives (rich's own estimate follows only the last seconds' speed, and would disagree with it)."""

    max_refresh = 0.5  # rich's own estimate jumps about less when it is not redrawn at every frame

    def __init__(self, t: Translator, table_column: Column | None = None) -> None:
        super().__init__(table_column)
        self.t = t

    def render(self, task: Task) -> Text:
        fields = getattr(task, "fields", {})
        left = fields.get("left", task.time_remaining)
        if left is None or task.total is None:
            return Text("-:--:--", style="progress.remaining")
        if left >= LONGEST_HOURS * 3600:
            return Text(">" + self._clock(LONGEST_HOURS * 3600 - 1), style="progress.remaining")
        return Text(self._clock(int(left)), style="progress.remaining")

    def _clock(self, seconds: int) -> str:
        hours, rest = divmod(seconds, 3600)
        minutes, seconds = divmod(rest, 60)
        return self._digits(f"{hours}:{minutes:02d}:{seconds:02d}")

    def _digits(self, text: str) -> str:
        return "".join(self.t.number(int(c)) if c.isdigit() else c for c in text)


class ElapsedColumn(TimeLeftColumn):
    """The time taken so far as ``h:mm:ss``, in ``t``'s digits."""

    def render(self, task: Task) -> Text:
        return Text(self._clock(int(task.elapsed or 0)), style="progress.elapsed")


@contextlib.contextmanager
def working(text: str, t: Translator) -> Iterator[None]:
    """While the block runs, a spinner, ``text`` and the time elapsed on standard error, where it is a terminal
    (a log or a pipe gets nothing); the line goes when the block ends, before the answer is printed."""
    if not sys.stderr.isatty():
        yield
        return
    from rich.console import Console
    from rich.markup import escape
    from rich.progress import Progress, SpinnerColumn, TextColumn

    columns = (SpinnerColumn(), TextColumn(escape(text)), ElapsedColumn(t))
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        progress.add_task("", total=None)
        yield
