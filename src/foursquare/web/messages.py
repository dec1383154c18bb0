"""Every sentence the server says to a person comes from the catalogue's ``server.*`` messages.

An error's key is also the ``code`` of the API's error answer (``docs/api.md``); the page shows its own
message for that code (the catalogue's ``error.code.*``), and the sentence is the answer's ``detail``, for
scripts — in English unless the request's ``Accept-Language`` asks for another language of the game.

>>> say("nothing_to_undo")
'there is nothing to undo'
>>> say("bad_request", problems=Phrase("missing", field="row"))
'bad request: row is missing'
>>> say_in(translator("qps"), "not_your_game", what=Phrase("doing.undo")).startswith("⟦")
True

Numbers in a detail (turns, limits, deal numbers) are written as typed, in ASCII digits: scripts read them.
"""

from __future__ import annotations

from foursquare.i18n import ENGLISH, Language, Translator, negotiate, parse_accept_language, translator


class Phrase:
    """A part of a sentence said later, in the language of the whole (``say`` fills it in)."""

    def __init__(self, key: str, /, **params: object) -> None:
        self.key = key
        self.params = params

    def say(self, t: Translator) -> str:
        return say_in(t, self.key, **self.params)

    def __str__(self) -> str:
        return self.say(english())


def english() -> Translator:
    return translator(ENGLISH.code)


# What ``foursquare serve`` prints is the command line's (``cli.serve.*``, in the user's language: the command
# passes its own words to :func:`foursquare.web.server.serve`); called as a library, serve() says it in English.
_SERVE = ("serving", "metrics", "cannot_listen", "bad_port", "open_to_any_host")


def say(key: str, /, **params: object) -> str:
    """The server's message ``server.<key>`` in English, ``params`` filled in."""
    if key in _SERVE:
        return english()(f"cli.serve.{key}", **{name: _plain(value, english()) for name, value in params.items()})
    return say_in(english(), key, **params)


def say_in(t: Translator, key: str, /, **params: object) -> str:
    """The server's message ``server.<key>`` in ``t``'s language, ``params`` filled in."""
    return t(f"server.{key}", **{name: _plain(value, t) for name, value in params.items()})


def _plain(value: object, t: Translator) -> object:
    if isinstance(value, Phrase):
        return value.say(t)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return value


def request_language(accept_language: str | None) -> Language:
    """The language a request's ``Accept-Language`` header asks for; English when it names none of ours."""
    return negotiate(parse_accept_language(accept_language or "")) or ENGLISH


def request_translator(accept_language: str | None) -> Translator:
    return translator(request_language(accept_language).code)
