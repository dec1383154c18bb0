"""Progress bars' figures in the run's language: rich writes ``12/40`` with Latin digits; Bengali has its own."""

from __future__ import annotations

from rich.progress import ProgressColumn, Task
from rich.text import Text

from foursquare.i18n import Translator


class CountColumn(ProgressColumn):
    """``done/total``, like rich's ``MofNCompleteColumn``, in ``t``'s digits."""

    def __init__(self, t: Translator) -> None:
        super().__init__()
        self.t = t

    def render(self, task: Task) -> Text:
        done = self.t.number(int(task.completed))
        total = "?" if task.total is None else self.t.number(int(task.total))
        return Text(f"{done}/{total}", style="progress.download")
