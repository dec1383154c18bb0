"""The page's catalogues over HTTP, and the language of the page, the API's details and the 404 page.

``GET /api/languages`` lists the languages of the menu, ``GET /api/messages/{code}`` serves one catalogue
(regional tags and aliases resolved, an unknown code a 404 ``unknown_language``); the page route fills in the
language ``Accept-Language`` negotiates; the API's ``detail`` and the "page not found" page follow it too.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from foursquare.i18n import LANGUAGES, page_messages, translator
from foursquare.web import create_app
from foursquare.web.errors import ERROR_CODES
from foursquare.web.messages import Phrase, say, say_in
from web_support import as_player


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path_factory.mktemp("i18n") / "games.db")) as client:
        as_player(client)
        yield client


def test_languages_lists_each_language_named_in_itself(client: TestClient) -> None:
    response = client.get("/api/languages")
    assert response.status_code == 200
    languages = response.json()["languages"]
    assert [item["code"] for item in languages] == ["en", "uz", "hr", "fil", "kn", "bn"]
    assert {item["code"]: item["name"] for item in languages}["kn"] == "ಕನ್ನಡ"
    assert "qps" not in {item["code"] for item in languages}, "the pseudo-language is served but not offered"


@pytest.mark.parametrize("code", [*LANGUAGES, "qps"])
def test_messages_serves_the_catalogue_of_a_language(client: TestClient, code: str) -> None:
    response = client.get(f"/api/messages/{code}")
    assert response.status_code == 200
    body = response.json()
    assert body["code"] == code
    assert body["messages"] == page_messages(code)
    assert body["plural_categories"] == list(translator(code).language.plural_categories)
    assert not [key for key in body["messages"] if key.startswith(("term.", "cli.", "server."))]


def test_plural_messages_come_by_cldr_category(client: TestClient) -> None:
    croatian = client.get("/api/messages/hr").json()
    assert croatian["plural_categories"] == ["one", "few", "other"]
    plural = croatian["messages"]["panel.stockValue"]
    # Every form is a CLDR category of Croatian (all three once the translation is in; English's two before).
    assert "other" in plural and set(plural) <= {"one", "few", "other"}
    bengali = client.get("/api/messages/bn").json()
    assert bengali["plural_categories"] == ["one", "other"]
    assert bengali["locale"] == "bn"


@pytest.mark.parametrize(("asked", "served"), [("bn-BD", "bn"), ("tl", "fil"), ("uz-Latn-UZ", "uz"), ("HR", "hr")])
def test_regional_tags_and_aliases_are_resolved(client: TestClient, asked: str, served: str) -> None:
    assert client.get(f"/api/messages/{asked}").json()["code"] == served


@pytest.mark.parametrize("code", ["xx", "uz-Cyrl", "de-DE"])
def test_an_unknown_language_is_a_404_with_a_stable_code(client: TestClient, code: str) -> None:
    response = client.get(f"/api/messages/{code}")
    assert response.status_code == 404
    assert response.json()["code"] == "unknown_language"
    assert "unknown_language" in ERROR_CODES
    assert response.json()["detail"].startswith("no messages in the language")


def test_catalogues_are_revalidated_by_etag(client: TestClient) -> None:
    for url in ("/api/languages", "/api/messages/bn"):
        first = client.get(url)
        etag = first.headers["etag"]
        assert first.headers["cache-control"] == "no-cache"
        again = client.get(url, headers={"If-None-Match": etag})
        assert (again.status_code, again.content) == (304, b"")
    assert client.get("/api/messages/hr").headers["etag"] != client.get("/api/messages/kn").headers["etag"]


@pytest.mark.parametrize(
    ("header", "code"),
    [
        ("bn-BD,bn;q=0.9,en;q=0.5", "bn"),
        ("fil-PH", "fil"),
        ("tl", "fil"),
        ("de-DE,hr;q=0.8", "hr"),
        ("uz-Latn-UZ", "uz"),
        ("kn-IN", "kn"),
        ("en-US,en;q=0.9", "en"),
        ("qps", "qps"),
    ],
)
def test_the_page_comes_in_the_language_accept_language_negotiates(client: TestClient, header: str, code: str) -> None:
    html = client.get("/", headers={"Accept-Language": header}).text
    assert f'<html lang="{code}"' in html
    assert f'<meta name="foursquare-language" content="{code}">' in html
    assert f"<title>{translator(code)('app.title')}</title>" in html


def test_a_page_without_a_language_of_ours_is_english_and_leaves_the_choice_to_the_browser(client: TestClient) -> None:
    for headers in ({}, {"Accept-Language": "de-DE,fr;q=0.5"}, {"Accept-Language": "uz-Cyrl"}):
        response = client.get("/rules", headers=headers)
        assert '<html lang="en"' in response.text
        assert '<meta name="foursquare-language" content="">' in response.text
        assert "Accept-Language" in response.headers["vary"]


def test_the_api_detail_follows_accept_language_and_the_code_stays(client: TestClient) -> None:
    english = client.post("/api/games", json={"deal": -1})
    pseudo = client.post("/api/games", json={"deal": -1}, headers={"Accept-Language": "qps"})
    assert english.json() == {"detail": "bad request: deal must be at least 0", "code": "bad_request"}
    assert pseudo.json()["code"] == "bad_request"
    assert pseudo.json()["detail"].startswith("⟦") and "deal" in pseudo.json()["detail"]
    game = client.post("/api/games", json={"deal": 1}).json()
    refused = client.post(f"/api/games/{game['id']}/undo", headers={"Accept-Language": "qps"})
    assert refused.json()["code"] == "nothing_to_undo"
    assert refused.json()["detail"] == translator("qps")("server.nothing_to_undo")
    illegal = client.post(
        f"/api/games/{game['id']}/moves", json={"row": 5, "col": 5, "turn": 0}, headers={"Accept-Language": "qps"}
    ).json()
    assert (illegal["code"], illegal["reason"]) == ("illegal_move", "first_card")
    assert translator("qps")("error.illegal.first_card") in illegal["detail"]


def test_phrases_are_said_in_the_language_of_their_sentence() -> None:
    assert say("not_your_game", what=Phrase("doing.undo")).endswith("may undo")
    pseudo = say_in(translator("qps"), "not_your_game", what=Phrase("doing.undo"))
    assert translator("qps")("server.doing.undo") in pseudo


def test_the_page_not_found_follows_accept_language(client: TestClient) -> None:
    pseudo = client.get("/nowhere", headers={"Accept": "text/html", "Accept-Language": "qps"})
    assert pseudo.status_code == 404
    assert '<html lang="qps"' in pseudo.text
    assert translator("qps")("server.page_not_found.text") in pseudo.text
    english = client.get("/nowhere", headers={"Accept": "text/html"})
    assert '<html lang="en"' in english.text and "There is nothing at this address." in english.text


def test_no_server_sentence_is_written_in_code() -> None:
    source = (Path(__file__).resolve().parent.parent / "src" / "foursquare" / "web" / "messages.py").read_text()
    assert "MESSAGES" not in source and "there is nothing to undo" not in source.split('"""', 2)[2]


def test_the_web_app_manifest_follows_accept_language(client: TestClient) -> None:
    english = client.get("/static/manifest.webmanifest").json()
    assert (english["short_name"], english["lang"]) == ("Foursquare", "en")
    assert english["description"] == translator("en")("app.description")
    pseudo = client.get("/static/manifest.webmanifest", headers={"Accept-Language": "qps"})
    assert pseudo.headers["content-type"].startswith("application/manifest+json")
    assert pseudo.json()["name"] == translator("qps")("app.footer") and pseudo.json()["lang"] == "qps"
    assert pseudo.json()["icons"] == english["icons"]
