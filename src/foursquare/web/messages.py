"""Every sentence the server says to a person, in one place (for translation), keyed by a stable code.

An error's key is also the ``code`` of the API's error answer (``docs/api.md``), which the page maps
to its own catalogue (``static/messages/en.js``); the sentence is the answer's ``detail``, for scripts.
"""

from __future__ import annotations

MESSAGES = {
    # Errors of the API: the key is the answer's "code".
    "game_over": "the game is over ({outcome}): it cannot change any more",
    "stale_turn": "the game is at turn {turn}, not {asked}: it changed since you last looked (reload it)",
    "wrong_card": "the card to place is {card}, not {asked}: the game changed since you last looked (reload it)",
    "illegal_move": "{error}",
    "nothing_to_undo": "there is nothing to undo",
    "nothing_to_redo": "there is nothing to redo",
    "still_playing": "the game is still being played: {what} is available once it is over",
    "bad_replay_turn": "turn must be between 0 and {turn} (the cards placed in this game), not {asked}",
    "not_available": "{what} is not available in this installation ({error})",
    "no_page": "the web page is not installed (missing {path})",
    "not_your_game": "this game is another player's: only the browser that started it may {what}",
    "internal": "internal error",
    "not_found": "not found",
    "bad_host": "the host name {host!r} is not served here (foursquare serve --allowed-hosts names those that are)",
    "busy": "the server is busy with other hints and analyses: try again in {retry_after} s",
    "bad_request": "bad request: {problems}",
    # The problems a bad request names.
    "body_not_json": "the request body is not valid JSON",
    "must_be_object": "{field} must be a JSON object",
    "missing": "{field} is missing",
    "extra": "{field} is not a known field",
    "integer": "{field} must be an integer",
    "boolean": "{field} must be true or false",
    "string": "{field} must be a string",
    "card_name": "{field} must be a card name such as AC, 7H or 10S",
    "one_of": "{field} must be {expected}",
    "at_least": "{field} must be at least {limit}",
    "at_most": "{field} must be at most {limit}",
    "less_than": "{field} must be less than {limit}",
    "other": "{field}: {message}",
    "the_body": "the request body",
    "one_deal_kind": "give at most one of deal, daily, winnable and like",
    "like_keeps_rules": "variant cannot be given with like: the new game keeps the house rules of that game",
    # The "page not found" page (web/not_found.py).
    "page_not_found.title": "Page not found",
    "page_not_found.text": "There is nothing at this address.",
    "page_not_found.link": "Play Foursquare",
    # foursquare serve
    "serving": "Foursquare is being served at {url}  (database: {db}; press Ctrl+C to stop)",
    "cannot_listen": "cannot listen on {host} port {port}: {error}",
    "bad_port": "a port is a number from 0 to 65535 (0: any free port)",
    "open_to_any_host": "warning: listening on {host}, which other machines can reach, and answering requests "
    "for any host name; pass --allowed-hosts with the names this server is reached by, "
    "e.g. --allowed-hosts {example} (or --allowed-hosts '*' to accept any, and hide this warning)",
}


def say(key: str, **params: object) -> str:
    return MESSAGES[key].format(**params)
