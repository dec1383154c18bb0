"""The terminal game in the player's language, played as a person plays it: on a pseudo-terminal,
the screen read back with a terminal emulator (pyte).

The pseudo-language ``qps`` writes every message accented and bracketed (``⟦Çåŕđ ţö þļåçé~~~⟧``), so an
ASCII letter on its screens can only come from outside the catalogue, or from what stays as typed: the
explicit allow-list of :func:`untranslated` (keys, cell names, commands, paths). The real languages are
checked against their catalogues, so these tests hold before and after the translations arrive: the screen
shows ``translator(code)(key)``, and not the English where a translation exists.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.console import Console, Group

from cli_support import run_main
from foursquare import tui
from foursquare.engine import Game, Move
from foursquare.i18n import LANGUAGES, Translator, english, translator
from foursquare.i18n.catalogue import translations
from foursquare.i18n.pseudo import _KEEP
from foursquare.tui.board import BOARD_HEIGHT, BOARD_WIDTH, LastAction, Marks
from foursquare.tui.glyphs import UNICODE
from foursquare.tui.screens import MIN_HEIGHT, MIN_WIDTH, Hint, View, draw_frame, help_lines
from foursquare.tui.session import Session
from foursquare.tui.terminal import Screen
from foursquare.tui.text import keys
from pty_support import ANSI, Terminal
from test_play import WON_ORTHOGONAL, greedy_game

QPS = translator("qps")
#: Where the finished game of :func:`frames` is kept: longer than a small terminal is wide.
END_PATH = "/tmp/foursquare-tests/a-rather-long-folder-name/won.json"
#: What the command line reads to choose a language (tests/conftest.py sets LANGUAGE=en for everyone).
LANGUAGE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

# --- what may stay as typed ----------------------------------------------------------------------------------

#: The allow-list: a key or a column letter (one letter), a cell name (D4, typed e4), a card's name in the record's
#: letters (10D, line mode), and commands with their paths, the data directory's variable and the database's
#: file name (kept whole: they are to be typed).
ALLOWED_WORD = re.compile(r"[A-Za-z]|[A-Ga-g][1-7]|(?:10|[2-9A])[CDHS]")
COMMAND = re.compile(r"foursquare(?: (?:play|stats|analyze))?(?: --deal)?|FOURSQUARE_DATA_DIR|games\.db")
PATH = re.compile(r"/[^\s⟧]+")


def untranslated(text: str) -> list[str]:
    """The words of ``text`` in ASCII letters that are not on the allow-list: English that escaped the catalogue."""
    text = PATH.sub(" ", COMMAND.sub(" ", text))
    return [word for word in re.findall(r"[A-Za-z][A-Za-z0-9]*", text) if not ALLOWED_WORD.fullmatch(word)]


def head(text: str, length: int = 12) -> str:
    """The start of a message, enough to find it on a screen where the rest may be wrapped: at most ``length``
    characters, and none from its first placeholder on (filled with a NUL)."""
    return text.split("\0")[0][:length]


def game_keys(game: Game) -> list[str]:
    """The cell key of each move of ``game``, as the screen labels them."""
    replay = Game(deal=game.deal, variant=game.variant)
    labels = []
    for move in game.moves:
        labels.append(tui.cell_labels(replay)[move])
        replay.place(*move)
    return labels


@pytest.fixture
def data_dir() -> Iterator[Path]:
    """A data directory with a short path, so that the kept game's path fits on one line of the screen."""
    with tempfile.TemporaryDirectory(prefix="fs-") as directory:
        yield Path(directory)


@pytest.fixture
def terminals(data_dir: Path) -> Iterator[list[Terminal]]:
    opened: list[Terminal] = []
    yield opened
    for term in opened:
        term.close()


def start(opened: list[Terminal], *args: str, data_dir: Path, **options: object) -> Terminal:
    term = Terminal(*args, data_dir=data_dir, **options)  # type: ignore[arg-type]
    opened.append(term)
    return term


# --- (a) the pseudo-language: nothing escapes the catalogue ------------------------------------------------


@pytest.mark.slow  # pseudo-terminals
def test_a_whole_game_in_the_pseudo_language_shows_no_english(terminals: list[Terminal], data_dir: Path) -> None:
    game = greedy_game(WON_ORTHOGONAL)
    labels = game_keys(game)
    term = start(terminals, "--lang", "qps", "--deal", str(WON_ORTHOGONAL), data_dir=data_dir)
    shown = {"first": term.wait_screen(QPS("term.to_place"))}
    term.press(labels[0])
    term.wait_screen(QPS("term.move", turn=2, total=40))
    term.press(labels[1])
    shown["placed"] = term.wait_screen(QPS("term.move", turn=3, total=40))
    term.press("!")  # no cell has that key
    shown["no such cell"] = term.wait_screen(head(QPS("term.no_such_cell", key="'!'", **keys())))
    term.press("u")
    shown["undone"] = term.wait_screen(head(QPS("term.last_undone", card="\0", cell="\0")))
    term.press("r")
    shown["redone"] = term.wait_screen(head(QPS("term.last_redone", card="\0", cell="\0")))
    term.press("h")
    shown["hint"] = term.wait_screen(head(QPS("term.hint_title.expected_score")), timeout=300)  # may compile the kernel
    assert "#1" in shown["hint"]
    term.press("?")
    term.wait_screen(QPS("rules.title"))
    pages = term.page_through()
    shown |= {f"help page {number}": page for number, page in enumerate(pages, start=1)}
    help_text = " ".join(" ".join(page.split()) for page in pages)
    for key in ("rules.example.fourth", "rules.reading.winFirst", "term.help_symbols", "term.help_keys"):
        assert head(QPS(key)) in help_text, key  # the whole rules, readings and example, then symbols and keys
    term.press("x")
    term.wait_screen(QPS("term.move", turn=3, total=40))
    term.press("".join(labels[2:]))
    score = game.outcome().score
    shown["end"] = term.wait_screen(head(QPS("term.won_banner", score=score), 8))
    assert head(QPS("term.end_stats", command="foursquare stats")) in shown["end"]
    term.press("q")
    assert term.finish() == 0
    goodbye = ANSI.sub("", term.output[term.output.rfind("\x1b[?1049l") :])  # printed after the game's screen
    assert f"foursquare analyze {data_dir}" in goodbye
    shown["goodbye"] = goodbye
    for name, screen in shown.items():
        assert not untranslated(screen), (name, untranslated(screen), screen)


@pytest.mark.slow  # pseudo-terminals
@pytest.mark.parametrize("size", [(40, 12), (60, 20), (80, 22), (120, 40)])
def test_the_pseudo_languages_longer_words_keep_every_layout_whole(
    terminals: list[Terminal], data_dir: Path, size: tuple[int, int]
) -> None:
    width, height = size
    game = Game(deal=1)  # 3♠ at D4, then A♥ at E4 turns it face down: a sentence about why
    game.place(0, 0)
    term = start(terminals, "--lang", "qps", "--deal", "1", data_dir=data_dir, size=size)
    term.wait_screen(QPS("term.title"))
    term.press("i" + tui.cell_labels(game)[Move(0, 1)])
    screen = term.wait_screen("5♣")
    lines = screen.splitlines()
    while lines and not lines[0].strip():  # a large terminal has the game in its middle: from its first line on
        lines.pop(0)
    indent = min(len(line) - len(line.lstrip()) for line in lines if line.strip())
    lines = [line[indent:] for line in lines]
    assert lines[0].startswith(QPS("term.title")), screen  # nothing scrolled off the top,
    footer = [line for line in lines if line.strip()][-2:]  # and the keys are the last line (or two)
    forms = [QPS(f"term.footer_play{form}", **keys()) for form in ("", "_medium", "_short")]
    assert any(line.startswith(form[:10]) for form in forms for line in footer), screen
    assert not untranslated(screen), untranslated(screen)
    if width >= 80 and height >= 22:  # the framed board, whole, whatever the side panel beside it says
        assert lines[1].startswith("╭" + "─" * (BOARD_WIDTH - 2) + "╮")
        assert lines[BOARD_HEIGHT].startswith("╰" + "─" * (BOARD_WIDTH - 2) + "╯")
        assert all(line[0] == "│" and line[BOARD_WIDTH - 1] == "│" for line in lines[2:BOARD_HEIGHT])
    else:  # the compact board: the row numbers, then the column letters under the cells
        assert any(re.fullmatch(r" +C +D +E +F", line.rstrip()) for line in lines), screen
        assert "⟦" in lines[1] and "/" in lines[1]  # the face-down count ends the status line


# --- (b), (c), (d) the six languages ---------------------------------------------------------------------


def english_where_translated(code: str, keys_: tuple[str, ...]) -> list[str]:
    """The longest stretch without placeholders of the English of each of ``keys_`` that ``code``'s catalogue
    translates: it must not show."""
    done = {} if code == "en" else translations(code)
    found = []
    for key in keys_:
        if key in done and done[key] != english()[key]:
            text = max(re.split(r"\{\w+\}", str(english()[key])), key=len).strip()
            if len(text) > 3:
                found.append(text)
    return found


@pytest.mark.slow  # pseudo-terminals
def test_the_terminal_follows_lang_of_the_environment(terminals: list[Terminal], data_dir: Path) -> None:
    bn = translator("bn")
    term = start(
        terminals, "--deal", "1", data_dir=data_dir, env={"LANG": "bn_BD.UTF-8"}, unset=LANGUAGE_VARIABLES[:3]
    )
    screen = term.wait_screen(bn("term.move", turn=1, total=40))
    assert "১" in screen and "৪০" in screen  # Bengali digits (deal numbers and cell names stay Latin)
    assert bn("term.to_place") in screen
    term.press("i")
    screen = term.wait_screen(bn("flip.placed", card="3♠", cell="D4"))
    for text in english_where_translated("bn", ("term.to_place", "term.stock_left", "flip.placed")):
        assert text not in screen
    term.press("q")
    assert term.finish() == 0
    goodbye = bn("term.goodbye_unfinished", placed=bn("term.cards", count=1), path="\0").split("\0")[0]
    assert goodbye in term.plain
    again = start(terminals, data_dir=data_dir, env={"LANG": "bn_BD.UTF-8"}, unset=LANGUAGE_VARIABLES[:3])
    offer = again.wait_screen(head(bn("term.offer_resume", what="\0", when="\0", **keys()), 8))
    assert "AM" not in offer and "PM" not in offer  # when it was saved: a 24-hour clock in Bengali digits
    again.press("nq")  # a new game, then quit
    assert again.finish() == 0


@pytest.mark.slow  # pseudo-terminals
def test_the_terminal_speaks_kannada_with_lang_kn(terminals: list[Terminal], data_dir: Path) -> None:
    kn = translator("kn")
    term = start(terminals, "--lang", "kn", "--deal", "1", data_dir=data_dir)
    screen = term.wait_screen(kn("term.to_place"))
    assert kn("term.move", turn=1, total=40) in screen
    term.press("i?")
    term.wait_screen(kn("rules.title"))
    term.press("x")
    screen = term.wait_screen(kn("flip.placed", card="3♠", cell="D4"))
    for text in english_where_translated("kn", ("term.to_place", "rules.title", "flip.placed")):
        assert text not in screen
    term.press("q")
    assert term.finish() == 0


@pytest.mark.slow  # pseudo-terminals
@pytest.mark.parametrize("code", list(LANGUAGES))
def test_each_languages_first_screen_is_its_own(terminals: list[Terminal], data_dir: Path, code: str) -> None:
    t = translator(code)
    term = start(terminals, "--lang", code, "--deal", "5", data_dir=data_dir, size=(120, 32))
    screen = " ".join(term.wait_screen(t("term.to_place")).split())
    assert t("term.move", turn=1, total=40) in screen
    footer = [" ".join(t(key, **keys()).split()) for key in ("term.footer_play", "term.footer_play_short")]
    assert any(form[:12] in screen for form in footer), screen
    for text in english_where_translated(code, ("term.to_place", "term.footer_play", "term.key_hint")):
        assert text not in screen, text


# --- line mode and --help ------------------------------------------------------------------------------------


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return run_main(*args, stdin=stdin)


def test_line_mode_speaks_the_language_too() -> None:
    result = run("play", "--lang", "qps", "--deal", "1", stdin="D4\nE4\nu\n9 9 9\n9 9\nq\n")
    assert result.returncode == 0
    assert QPS("term.card_to_place", card="3S", left=QPS("term.cards", count=40)) in result.stdout
    assert QPS("term.illegal", cell="9 9", why=QPS("error.illegal.not_adjacent")) in result.stderr
    assert not untranslated(result.stdout + result.stderr), untranslated(result.stdout + result.stderr)
    bengali = run("play", "--lang", "bn", "--deal", "1", stdin="D4\n")
    assert translator("bn")("term.face_down_count", count=0, limit=4) in bengali.stdout  # ০ of ৪


def test_play_help_epilog_comes_from_the_catalogue() -> None:
    out = run("play", "--lang", "qps", "--help").stdout
    epilog = out[out.index(QPS("term.play.epilog_keys")) :]
    assert "i-z, 0-9" in epilog and "Backspace" not in epilog  # the keys as typed, their names translated
    assert not untranslated(epilog), untranslated(epilog)


# --- widths in terminal cells, whatever the script --------------------------------------------------------

_BENGALI, _KANNADA = "কি", "ಕಿ"  # a letter and a vowel sign: two characters, one terminal cell


def stand_in(code: str, letters: str, stretch: float) -> Translator:
    """``code``'s translator with every message in stand-in words: each English letter written ``letters``
    (a consonant with a combining vowel sign), words ``stretch`` times as long; placeholders and markup kept."""
    t = Translator(LANGUAGES[code])

    def words(text: str) -> str:
        def word(match: re.Match[str]) -> str:
            return letters * max(1, round(len(match.group()) * stretch))

        pieces, position = [], 0
        for keep in _KEEP.finditer(text):
            pieces += [re.sub(r"[A-Za-z]+", word, text[position : keep.start()]), keep.group()]
            position = keep.end()
        return "".join([*pieces, re.sub(r"[A-Za-z]+", word, text[position:])])

    t._messages = {
        key: words(value) if isinstance(value, str) else {form: words(text) for form, text in value.items()}
        for key, value in english().items()
    }
    return t


def frames(t: Translator) -> Iterator[tuple[str, View]]:
    """Views of a game at its start, after cards turned (with and without the hint), and at its end."""
    game = Game(deal=1)
    session = Session(game, game.variant, deal_shown=False, winnable=False, save=None, t=t)
    yield "start", View(session, Marks(), UNICODE)
    for move in ((0, 0), (0, 1), (1, 1), (1, 0)):  # the rules' example: cards turn both ways
        placement = game.place(*move)
    marks = Marks(last=LastAction("placed", placement))
    yield "turned", View(session, marks, UNICODE, message=t("term.nothing_to_redo"))
    hints = [Hint(move, 0.5, 3.25) for move in game.legal_moves[:5]]
    yield "hint", View(session, marks, UNICODE, hints=hints)
    won = greedy_game(WON_ORTHOGONAL)
    ended = Session(won, won.variant, deal_shown=False, winnable=False, save=END_PATH, t=t)
    ended.history = Path("/tmp/fs/games.db")
    ended.written = list(won.moves)  # its file holds it as it ended
    yield "end", View(ended, Marks(last=LastAction("placed", won.placements[-1])), UNICODE)


@pytest.mark.parametrize(
    ("code", "letters", "stretch"), [("bn", _BENGALI, 1.0), ("kn", _KANNADA, 1.2), ("hr", "ž", 1.5), ("fil", "ng", 1.0)]
)
@pytest.mark.parametrize("size", [(MIN_WIDTH, MIN_HEIGHT), (60, 20), (80, 22), (120, 40)])
def test_frames_fit_the_terminal_in_any_script(code: str, letters: str, stretch: float, size: tuple[int, int]) -> None:
    width, height = size
    t = stand_in(code, letters, stretch)
    screen = Screen(Console(width=width, height=height, color_system=None, legacy_windows=False, record=False))
    for name, view in frames(t):
        lines = screen.lines(draw_frame(view, width, height).renderable)
        assert len(lines) <= height, (name, "\n".join(lines))
        assert all(cell_len(line) <= width for line in lines), (name, "\n".join(lines))
        assert lines[-1].strip(), (name, "\n".join(lines))  # the keys line comes last, never cut off
    for line in screen.lines(Group(*help_lines(t, UNICODE))):
        assert cell_len(line) <= width, line


def test_no_line_runs_longer_on_the_terminal_than_it_is_wide() -> None:
    """Bengali and Kannada spacing vowel signs take a cell on xterm, tmux and VTE but none for rich: lines are
    laid out narrower so that none wraps there (a wrapped line would push the whole frame down)."""
    import io

    from rich.cells import cell_len
    from rich.console import Console
    from rich.text import Text

    from foursquare.tui.screens import as_lines
    from foursquare.tui.terminal import _ESCAPES, Screen
    from foursquare.tui.text import terminal_cells

    for code in ("bn", "kn"):
        rules = " ".join(translator(code)(key) for key in ("rules.intro", "rules.turning.row", "rules.end.win"))
        assert terminal_cells(rules) > cell_len(rules)  # the text has spacing vowel signs
        for width in (40, 61, 80):
            screen = Screen(Console(file=io.StringIO(), width=width, force_terminal=True, color_system="standard"))
            drawn = screen.lines(Text(rules, style="bold"))
            assert max(terminal_cells(_ESCAPES.sub("", line)) for line in drawn) <= width
            assert max(terminal_cells(line.plain) for line in as_lines(Text(rules), width)) <= width


@pytest.mark.parametrize("code", ["bn", "kn", "hr", "fil", "uz"])
@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
def test_the_board_keeps_its_frame_beside_a_long_language(code: str, size: tuple[int, int]) -> None:
    """The side panel's lines, which Bengali and Kannada make wider on the terminal than rich counts, never
    squeeze the board (cut with "…"), and each hint keeps to one line, in a shorter form where needed."""
    from foursquare.tui.text import terminal_cells

    width, height = size
    t = translator(code)
    screen = Screen(Console(width=width, height=height, color_system=None, legacy_windows=False, record=False))
    for name, view in frames(t):
        lines = screen.lines(draw_frame(view, width, height).renderable)
        board = [line[:BOARD_WIDTH] for line in lines[1 : 1 + BOARD_HEIGHT]]
        assert board[0].endswith("╮") and board[-1].endswith("╯"), (name, "\n".join(lines))
        assert all(line.endswith("│") for line in board[1:-1]), (name, "\n".join(lines))
        assert all(terminal_cells(line) <= width for line in lines), (name, "\n".join(lines))
        if name == "hint":  # the side panel: beside the board, and under it while the board's column is blank
            beside_board = [line for line in lines[1:] if line[:1] in "╭│╰" or not line[:BOARD_WIDTH].strip()]
            side = "\n".join(line[BOARD_WIDTH + 2 :].rstrip() for line in beside_board)
            assert t("term.hint_title.expected_score")[:8] in side, side  # says what the moves are ranked by
            for rank in range(1, 6):
                assert re.search(rf"^{t.number(rank)}\. ?[A-G][1-7] .*[0-9০-৯]\s?%?$", side, re.M), (rank, side)
