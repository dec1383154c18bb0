"""``foursquare play --list``, ``--pick N`` and ``--delete N``: the games kept in the data directory, newest
first, numbered."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from foursquare import record
from foursquare.i18n import Translator
from foursquare.tui import saved
from foursquare.tui.session import PlayError, outcome_words
from foursquare.tui.text import COMMAND_LIST, COMMAND_PLAY, cards, saved_when


def list_lines(t: Translator) -> list[str]:
    """The numbered list of kept games: file, deal (a random deal's number only once it is over), cards placed,
    when saved, state; then how to continue one."""
    paths = saved.kept_files()
    directory = str(saved.games_dir())
    if not paths:
        return [t("term.list_none", path=directory)]
    lines = [t("term.list_title", path=directory)]
    for number, path in enumerate(paths, start=1):
        lines.append(_line(t, number, path))
    lines.append(t("term.list_pick", pick=f"{COMMAND_PLAY} --pick NUMBER", play=f"{COMMAND_PLAY} FILE"))
    return lines


def _line(t: Translator, number: int, path: Path) -> str:
    try:
        game = record.read(path)
        stamp = path.stat().st_mtime
    except (record.RecordError, OSError):
        return t("term.list_unreadable", number=str(number), file=path.name)
    kind = saved.kind_of(path)
    over = game.is_over()
    if kind == "deal" or over:
        deal = t("term.deal_number", deal=str(game.deal))
    else:  # the number of a random deal is the player's secret until the game ends
        deal = t(f"term.deal_{kind}_short")
    what = t("term.what_resume", deal=deal, placed=cards(t, game.turn))
    state = outcome_words(game.outcome(), t) if over else t("term.list_unfinished")
    when = saved_when(t, stamp)
    # The numbers are typed back after --pick: in the digits the command line reads, as deal numbers are.
    return t("term.list_line", number=str(number), file=path.name, what=what, when=when, state=state)


def picked(number: int, t: Translator) -> str:
    """The file of kept game ``number`` of :func:`list_lines` (1 is the newest); :class:`PlayError` when there
    is none."""
    paths = saved.kept_files()
    if not paths:
        raise PlayError(t("term.play.pick_none", number=str(number), path=str(saved.games_dir())))
    if not 1 <= number <= len(paths):
        last = str(len(paths))
        raise PlayError(t("term.play.pick_out_of_range", number=str(number), command=COMMAND_LIST, last=last))
    return str(paths[number - 1])


def delete(number: int, t: Translator, ask: Callable[[str], str] | None = None) -> list[str]:
    """Delete kept game ``number`` of :func:`list_lines` (:class:`PlayError` when there is none), once ``ask``
    (``input`` on a terminal, by default; None elsewhere: a script asks nothing) is answered ``y``; what to
    print. A finished game stays in the statistics, which are kept apart (``games.db``)."""
    path = Path(picked(number, t))
    if ask is None and sys.stdin.isatty() and sys.stdout.isatty():
        ask = input
    if ask is not None:
        try:
            answer = ask(t("term.delete_question", game=_line(t, number, path), y="y", n="N"))
        except EOFError:
            answer = ""
        if answer.strip().lower() not in ("y", "yes"):
            return [t("term.not_deleted")]
    try:
        path.unlink()
    except FileNotFoundError:  # gone meanwhile (another run): as asked
        pass
    except OSError as exc:
        raise PlayError(t("term.delete_failed", path=str(path), error=str(exc.strerror or exc))) from None
    return [t("term.deleted", file=path.name, path=str(path.parent))]
