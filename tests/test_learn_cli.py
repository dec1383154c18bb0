"""``foursquare learn``, as a new player meets it: the lesson to its end on a pseudo-terminal (keys in, the
screen read back with pyte) in English and Bengali, with the game's own keys (the key marked on the step's cell
places the card there, in the lesson as in ``foursquare play``), at the smallest, a usual and a large terminal
size; a wrong cell corrected, ``q`` leaving; line mode through a pipe and on a ``TERM=dumb`` terminal."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import pty_support
from cli_support import run_main
from foursquare.cards import SUIT_SYMBOLS
from foursquare.i18n import LANGUAGES, translator
from foursquare.lesson import Lesson, steps
from foursquare.tui.keys import CellKeys
from pty_support import Terminal

LEARN = [sys.executable, "-m", "foursquare.cli", "learn"]
#: The language variables tests/conftest.py sets; each test says which language it speaks.
LANGUAGE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def face(code: str, name: str) -> str:
    card = next(step.card for step in steps() if step.card.name == name)
    return (translator(code)("rank.short.1") if card.rank == 1 else str(card.rank)) + SUIT_SYMBOLS[card.suit]


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture
def learn(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[list[Terminal]]:
    """Pseudo-terminals running ``foursquare learn`` (pty_support starts ``play``: its command is swapped)."""
    monkeypatch.setattr(pty_support, "PLAY", LEARN)
    opened: list[Terminal] = []
    yield opened
    for term in opened:
        with contextlib.suppress(OSError):
            term.close()


def start(opened: list[Terminal], tmp_path: Path, language: str, size: tuple[int, int] = (100, 32)) -> Terminal:
    env = {"LANG": f"{language}_{'BD' if language == 'bn' else 'US'}.UTF-8", "LANGUAGE": language}
    term = Terminal(data_dir=tmp_path / "data", size=size, env=env)
    opened.append(term)
    return term


def marked_keys() -> list[str]:
    """The key marked on each step's cell: the key the game gives that cell in that position."""
    lesson, keys, marked = Lesson(), CellKeys(), []
    while (step := lesson.current) is not None:
        marked.append(keys.update(lesson.game)[step.move])
        lesson.place(step.move)
    return marked


def progress(code: str, number: int) -> str:
    t = translator(code)
    return t("lesson.progress", number=t.number(number), total=t.number(len(steps())))


@pytest.mark.slow  # a pseudo-terminal
def test_the_lesson_to_its_end_by_keys_in_english(learn: list[Terminal], tmp_path: Path) -> None:
    t = translator("en")
    term = start(learn, tmp_path, "en")
    term.wait_screen(progress("en", 1))
    assert "Every game starts with one card in the middle, on D4. Place 3♣ there." in term.side_text()
    term.press("\r")  # the cursor starts on D4, the first step's cell
    term.wait_screen(progress("en", 2))
    side = term.side_text()
    assert "3♣ placed at D4. Nothing turned over." in side
    assert "Place 10♣ on E4. It is higher than every other face-up card in its row" in side

    term.press("\x1b[D ")  # left, to C4, and Space: not this step's cell
    screen = flat(term.wait_screen("Not there: this card goes on E4."))
    assert progress("en", 2) in screen  # corrected, not advanced
    term.press("\x1b[C\x1b[C\r")  # two to the right, to E4, and Enter
    term.wait_screen(progress("en", 3))
    side = term.side_text()
    assert "Row: 10♣ is higher than every other face-up card, so 3♣ on D4 turned face down." in side
    assert "Face down: 1 of 4" in side

    for step in steps()[2:]:
        term.press(step.cell.lower() + "\r")  # a cell named by typing it, then Enter
        if step.number == len(steps()):
            break
        term.wait_screen(progress("en", step.number + 1))
        following = steps()[step.number]
        sentence = t(
            f"lesson.step.{following.code}", card=face("en", following.card.name), cell=following.cell, limit=4
        )
        assert sentence in term.side_text()
        if step.code == "four_face_down":
            assert "Face down: 4 of 4" in term.side_text()
    term.wait_screen("You won the lesson!")
    side = term.side_text()
    assert "Start a real game with: foursquare play" in side and "Face down: 0 of 4" in side
    term.press("x")  # any key leaves
    assert term.finish() == 0
    after = flat(term.plain.split("\x1b[?1049l")[-1])  # what stays on the terminal after the screen closes
    assert "You won the lesson!" in after and "Start a real game with: foursquare play" in after


@pytest.mark.slow  # a pseudo-terminal
def test_the_lesson_to_its_end_in_bengali(learn: list[Terminal], tmp_path: Path) -> None:
    t = translator("bn")
    term = start(learn, tmp_path, "bn")
    term.wait_screen(progress("bn", 1))
    screen = flat(term.display())
    assert t("lesson.title") in screen and "D4" in screen
    for step, key in zip(steps(), marked_keys(), strict=True):
        term.press(key)  # the key marked on the step's cell
        if step.number < len(steps()):
            term.wait_screen(progress("bn", step.number + 1))
    screen = flat(term.wait_screen(t("lesson.done.title")))
    assert t("term.lesson.play", command="foursquare play") in screen
    assert "Step" not in screen and "Place" not in screen  # no English left
    term.press("q")
    assert term.finish() == 0


@pytest.mark.slow  # a pseudo-terminal
def test_a_click_places_and_q_leaves_the_lesson_saying_how_to_come_back(learn: list[Terminal], tmp_path: Path) -> None:
    term = start(learn, tmp_path, "en")
    term.wait_screen(progress("en", 1))
    term.press("d4\r")
    term.wait_screen(progress("en", 2))
    term.press("g9")  # no such cell: said, nothing placed
    term.wait_screen("There is no cell G9: names run from A1 to G7.")
    term.click(*term.find(f" {marked_keys()[1]} "))  # the step's cell, marked with its key on the board, clicked
    term.wait_screen(progress("en", 3))
    term.press("q")
    assert term.finish() == 0
    assert "Lesson left at step 3 of 17. Take it again with: foursquare learn" in term.plain


@pytest.mark.slow  # a pseudo-terminal
def test_a_small_terminal_gets_the_small_board(learn: list[Terminal], tmp_path: Path) -> None:
    term = start(learn, tmp_path, "en", size=(60, 24))
    term.wait_screen(progress("en", 1))
    for key in marked_keys()[:3]:
        term.press(key)
    screen = term.wait_screen(progress("en", 4))
    assert "A♦" in flat(screen) and all(len(line) <= 60 for line in screen.splitlines())
    term.press("q")
    assert term.finish() == 0


def line_answers() -> str:
    """Every step's cell, with a wrong cell and a malformed name on the way."""
    cells = [step.cell for step in steps()]
    return "\n".join(["C4", "zz", "", *cells]) + "\n"


def test_line_mode_plays_the_lesson_to_its_end() -> None:
    done = run_main("learn", stdin=line_answers())
    assert done.returncode == 0 and done.stderr == ""
    out = done.stdout
    assert out.startswith("Learn Foursquare\n")
    assert "Cell for 3♣ (q quits): Not there: this card goes on D4." in out
    assert "There is no cell ZZ: names run from A1 to G7." in out
    assert out.count("Step ") == len(steps())
    assert "Row: 10♣ is higher than every other face-up card, so 3♣ on D4 turned face down." in out
    assert "Face down: 4 of 4" in out
    assert out.rstrip().endswith("Start a real game with: foursquare play")


def test_line_mode_stops_at_the_end_of_its_input_with_how_to_come_back() -> None:
    done = run_main("learn", stdin="D4\nE4\n")
    assert done.returncode == 0
    assert done.stdout.rstrip().endswith("Lesson left at step 3 of 17. Take it again with: foursquare learn")


@pytest.mark.slow  # a process
@pytest.mark.parametrize("language", ["en", "bn"])
def test_line_mode_through_a_pipe(language: str) -> None:
    env = {k: v for k, v in os.environ.items() if k not in LANGUAGE_VARIABLES}
    env.update({"LANGUAGE": language, "LANG": "C.UTF-8" if language == "en" else "bn_BD.UTF-8"})
    t = translator(language)
    done = subprocess.run(LEARN, input=line_answers(), capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert t("lesson.wrong", cell="D4") in done.stdout
    assert t("lesson.done.title") in done.stdout and "foursquare play" in done.stdout


@pytest.mark.slow  # a pseudo-terminal
def test_a_dumb_terminal_gets_line_mode(learn: list[Terminal], tmp_path: Path) -> None:
    term = Terminal(data_dir=tmp_path / "data", env={"TERM": "dumb", "LANGUAGE": "en"})
    learn.append(term)
    term.wait_for("Cell for 3♣ (q quits): ")
    term.press("D4\n")
    term.wait_for("Cell for 10♣ (q quits): ")
    term.press("q\n")
    assert term.finish() == 0
    assert "\x1b[?1049h" not in term.output  # never the full screen
    assert "Lesson left at step 2 of 17" in term.plain


def test_learn_is_listed_and_has_its_help() -> None:
    listed = run_main("--help")
    assert "learn the game in a minute" in flat(listed.stdout)
    helped = run_main("learn", "--help")
    assert helped.returncode == 0 and "A short lesson in the terminal" in flat(helped.stdout)


# --- the game's keys, and every size ---------------------------------------------------------------------------


@pytest.mark.slow  # a pseudo-terminal
def test_the_lesson_has_the_games_keys_and_no_other(learn: list[Terminal], tmp_path: Path) -> None:
    term = start(learn, tmp_path, "en")
    term.wait_screen(progress("en", 1))
    key = marked_keys()[0]
    assert "the marked key places · arrows move, Enter or Space places" in flat(term.display())
    assert "h j k l" not in flat(term.display())
    term.press(key)  # the key marked on D4, as the game marks it
    term.wait_screen(progress("en", 2))
    key = marked_keys()[1]
    for other in "hu":  # the game's hint and undo: not the cursor, not a card, in the lesson
        term.press(other)
        term.wait_screen(f"The key {other} does nothing in the lesson: press {key} to place the card on E4.")
    term.press("e4")  # a cell's name moves the cursor there, as in the game
    term.wait_screen("Cursor on E4: Enter or space places the 10♣ there.")
    assert progress("en", 2) in flat(term.display())
    term.press("\r")
    term.wait_screen(progress("en", 3))
    term.press("q")
    assert term.finish() == 0


@pytest.mark.slow  # a pseudo-terminal
def test_the_key_the_lesson_marks_places_the_card_there_in_the_game(tmp_path: Path) -> None:
    """The lesson's position after its first step, continued in ``foursquare play``: the key the lesson marks on
    E4 is the key the game gives E4, and it places the card there."""
    from foursquare import record

    lesson = Lesson()
    lesson.place(lesson.steps[0].move)
    path = tmp_path / "lesson.json"
    record.write(lesson.game, path)
    term = Terminal(str(path), data_dir=tmp_path / "data", env={"LANGUAGE": "en"})
    try:
        term.wait_screen("Move 2 of 40")
        term.press(marked_keys()[1])
        term.wait_screen("10♣ placed at E4.")
        term.press("q")
        assert term.finish() == 0
    finally:
        term.close()


def words(lines: list[str]) -> str:
    """The words of a screen's lines, those beside the board (right of its frame) alone where it is framed."""
    corner = next((line.index("╮") for line in lines if "╮" in line), None)
    if corner is not None:
        lines = [line[corner + 2 :] if line[corner : corner + 1] in ("╮", "│", "╯") else line for line in lines]
    return flat("\n".join(lines))


def shown_step(code: str, screen: str, number: int) -> bool:
    """Whether ``screen`` shows step ``number``'s instruction whole: its sentence, or its short form (a small
    terminal)."""
    t = translator(code)
    step = steps()[number - 1]
    card = face(code, step.card.name)
    sentence = t(f"lesson.step.{step.code}", card=card, cell=step.cell, limit=t.number(4))
    return flat(sentence) in flat(screen) or flat(t("lesson.target", cell=step.cell, card=card)) in flat(screen)


@pytest.mark.slow  # a pseudo-terminal
@pytest.mark.parametrize(("code", "size"), [("en", (37, 11)), ("bn", (37, 11)), ("en", (80, 24)), ("en", (200, 50))])
def test_the_lesson_is_whole_at_every_size(
    learn: list[Terminal], tmp_path: Path, code: str, size: tuple[int, int]
) -> None:
    """The smallest terminal the docs promise, a usual one and a large one: every step's instruction shows whole,
    no line is cut, and the end says that the lesson is won."""
    term = start(learn, tmp_path, code, size=size)
    term.wait_screen(translator(code)("lesson.step.first_card", cell="D4", card=face(code, "3C"))[-10:])
    for step, key in zip(steps(), marked_keys(), strict=True):
        screen = term.display()
        assert shown_step(code, words(screen.splitlines()), step.number), screen
        assert "…" not in screen, screen
        since = len(term.output)
        term.press(key)
        term.wait_frame(since)
        term.read(0.05)
    screen = term.wait_screen(translator(code)("lesson.done.title"))
    if size[0] >= 80:  # the board in the middle of a large terminal, not in its top left corner
        row, column = term.find("╭")
        assert (row > 0 and column > 20) == (size == (200, 50)), screen
    term.press("x")
    assert term.finish() == 0


@pytest.mark.parametrize("code", list(LANGUAGES))
@pytest.mark.parametrize("size", [(37, 11), (40, 12), (60, 24), (80, 24), (200, 50)])
def test_every_frame_of_the_lesson_is_whole(code: str, size: tuple[int, int]) -> None:
    """Frame by frame, in every language: what the step asks and what the last card turned over, each whole in
    one of its forms (the board's words skipped beside it), no line past the terminal, and the end won."""
    from rich.console import Console

    from foursquare.tui.glyphs import UNICODE
    from foursquare.tui.lesson import LessonScreen, what_happened_forms
    from foursquare.tui.terminal import Screen
    from foursquare.tui.text import terminal_cells

    width, height = size
    screen = Screen(Console(width=width, height=height, color_system=None, legacy_windows=False))
    shown = LessonScreen(translator(code), None, screen, UNICODE)  # type: ignore[arg-type]  # no keys read
    t = translator(code)
    last = None
    while True:
        lines = screen.lines(shown.frame())
        assert len(lines) <= height and all(terminal_cells(line) <= width for line in lines), "\n".join(lines)
        text = words(lines)
        step = shown.lesson.current
        if step is None:
            assert flat(t("lesson.done.title")) in text
            break
        assert shown_step(code, text, step.number), "\n".join(lines)
        if last is not None:
            forms = what_happened_forms(t, last, 4, True)
            assert any(all(flat(line) in text for line in form) for form in forms), "\n".join(lines)
        last = step
        shown.place(step.move)


@pytest.mark.slow  # a pseudo-terminal
def test_question_mark_shows_the_steps_words_whole_on_the_smallest_terminal(
    learn: list[Terminal], tmp_path: Path
) -> None:
    """At 37 × 11 a step's sentence gives way to its short form, which says that ? tells why: ? shows the step's
    words whole (what the last card turned over and why, then what to do and why), paged; any key goes back."""
    t = translator("en")
    term = start(learn, tmp_path, "en", size=(37, 11))
    term.wait_screen("Place 3♣ there.")
    for key in marked_keys()[:10]:
        since = len(term.output)
        term.press(key)
        term.wait_frame(since)
    screen = flat(term.wait_screen("(? tells why)"))
    assert "F4: place 9♦ here (? tells why)" in screen
    term.press("?")
    term.wait_screen("Space/arrows: scroll; other key: back")
    pages = flat(" ".join(term.page_through("\x1b[6~")))  # Page Down, as the game's help
    step = steps()[10]
    sentence = t(f"lesson.step.{step.code}", card=face("en", step.card.name), cell=step.cell, limit=4)
    assert flat(sentence) in pages
    assert "Row: 10♦ is higher than every other face-up card, so 3♥ on E5 turned face down" in pages
    term.press("x")
    term.wait_screen("F4: place 9♦ here")
    term.press(marked_keys()[10])  # and the lesson goes on
    term.wait_screen("E6: place 8♣ here")
    term.press("q")
    assert term.finish() == 0
