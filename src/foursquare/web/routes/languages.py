"""The page's message catalogues: ``/api/languages`` (the language menu) and ``/api/messages/{code}``.

The page loads the catalogue of its language before it draws anything. An answer never changes while the
server runs (a new catalogue is a new release): it carries an ``ETag``, so a browser revalidates it with a
``304`` rather than downloading it again.

>>> catalogue(translator("hr").language).plural_categories
['one', 'few', 'other']
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from foursquare.i18n import LANGUAGES, Language, language, page_messages, translator
from foursquare.web.assets import encode
from foursquare.web.errors import UnknownLanguageError
from foursquare.web.models import Catalogue, LanguageName, Languages
from foursquare.web.routing import Route

router = APIRouter(prefix="/api", route_class=Route)

CACHE_CONTROL = "no-cache"
"""Revalidate each time (a 304 when unchanged): a release updates the catalogue at the next load."""


def catalogue(lang: Language) -> Catalogue:
    """The page's messages in ``lang``, with its locale for the page's ``Intl``."""
    return Catalogue.model_validate(
        {
            "code": lang.code,
            "name": lang.name,
            "direction": lang.direction,
            # The locale of the page's Intl (numbers, dates, plural rules): the CLDR locale of the language.
            "locale": lang.cldr.replace("_", "-"),
            "plural_categories": list(lang.plural_categories),
            "messages": page_messages(lang.code),
        }
    )


@cache
def _answer(kind: str, code: str = "") -> tuple[bytes, str]:
    """The JSON body of an answer and its ETag (computed once: catalogues do not change while serving)."""
    if kind == "languages":
        body: Languages | Catalogue = Languages(
            languages=[LanguageName(code=lang.code, name=lang.name) for lang in LANGUAGES.values()]
        )
    else:
        body = catalogue(translator(code).language)
    data = json.dumps(body.model_dump(), ensure_ascii=False, separators=(",", ":")).encode()
    return data, '"' + hashlib.sha256(data).hexdigest()[:20] + '"'


def _respond(request: Request, data: bytes, etag: str) -> Response:
    headers = {"ETag": etag, "Cache-Control": CACHE_CONTROL, "Vary": "Accept-Encoding"}
    if etag in (tag.strip() for tag in request.headers.get("if-none-match", "").split(",")):
        return Response(status_code=304, headers=headers)
    # Compressed: a catalogue is the same public text for everyone, with nothing of the request's (no BREACH).
    body, encoding = encode(data, request.headers)
    return Response(body, media_type="application/json", headers={**headers, **encoding})


LANGUAGES_EXAMPLE = {"languages": [{"code": "en", "name": "English"}, {"code": "bn", "name": "বাংলা"}]}
NOT_MODIFIED: dict[int | str, dict[str, Any]] = {304: {"description": "Not modified: the ETag is current"}}


@router.get(
    "/languages",
    summary="The languages of the game, each named in itself",
    response_model=Languages,
    responses={200: {"content": {"application/json": {"example": LANGUAGES_EXAMPLE}}}, **NOT_MODIFIED},
)
def languages(request: Request) -> Response:
    return _respond(request, *_answer("languages"))


@router.get(
    "/messages/{code}",
    summary="The page's messages in one language (a regional tag such as bn-BD or an alias such as tl is resolved)",
    response_model=Catalogue,
    responses=NOT_MODIFIED,
)
def messages(code: str, request: Request) -> Response:
    found = language(code)
    if found is None:
        choices = ", ".join(LANGUAGES)
        raise UnknownLanguageError("unknown_language", code=repr(code[:40]), languages=choices)
    return _respond(request, *_answer("messages", found.code))
