"""Passkeys in headless Chromium with its virtual authenticator (CDP ``WebAuthn``): a player creates a passkey
from the settings dialog and keeps their games; a second device (a second browser context whose authenticator is
given the first one's credential) signs in and shows the account's games and statistics; it signs out and is a
new player; the first deletes the account and everything is gone — in English and Bengali, with screenshots of
the Account section at desktop and phone sizes (test-artifacts/screenshots).

WebAuthn takes no IP address as a relying party id: the server listens on 127.0.0.1, and the pages browse
``http://localhost:PORT`` (a secure context, so passkeys are offered).
"""

from __future__ import annotations

from typing import Any

import pytest

from browser_support import (
    BROWSER_MARKS,
    DESKTOP,
    WAIT_MS,
    browser,
    catalogue,
    expect,
    new_page,
    server,
    shot,
    wait_turn,
)
from test_api import WINS

pytestmark = BROWSER_MARKS

# Fixtures are found by name in this module's namespace.
__all__ = ["browser", "server"]

PHONE = {"width": 390, "height": 844}
ACCEPT = {"en": "en-GB", "bn": "bn-BD"}
AUTHENTICATOR = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
}


def with_authenticator(page: Any) -> tuple[Any, str]:
    """Give the page's browser a virtual platform authenticator; its CDP session and id."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    added = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    return cdp, added["authenticatorId"]


def api(page: Any, base: str, path: str) -> Any:
    """A GET of the API with the page's cookies, as its own script would make it."""
    return page.context.request.get(f"{base}{path}").json()


def win_a_game(page: Any, base: str) -> str:
    """Win deal 1 through the API with the page's cookie (the page's own games list and stats then show it)."""
    request = page.context.request
    state = request.post(f"{base}/api/games", data={"deal": 1}).json()
    for row, col in WINS[1][1]:
        state = request.post(f"{base}/api/games/{state['id']}/moves",
                             data={"row": row, "col": col, "turn": state["turn"]}).json()  # fmt: skip
    assert state["outcome"] == "won"
    return str(state["id"])


def open_account(page: Any) -> Any:
    """Open the settings dialog; its Account section, once it shows what the server said."""
    page.click("#btn-settings")
    section = page.locator("#settings-account")
    expect(section).to_be_visible()
    expect(section.locator("[data-action=export-games]")).to_be_visible()
    return section


def after_reload(page: Any, notice: str) -> None:
    """Wait for the page loaded again after a change of account, its notice shown."""
    expect(page.locator("#toasts")).to_contain_text(notice)


@pytest.mark.parametrize("code", ["en", "bn"])
def test_a_passkey_keeps_the_games_on_a_second_device_then_signs_out_and_deletes(
    browser: Any, server: str, code: str
) -> None:
    words = catalogue(code)
    base = server.replace("127.0.0.1", "localhost")
    phone = new_page(browser, DESKTOP, locale=ACCEPT[code])
    phone_cdp, phone_key = with_authenticator(phone)
    phone.goto(f"{base}/")
    wait_turn(phone, 0)
    won = win_a_game(phone, base)
    before = api(phone, base, "/api/stats")
    games_before = api(phone, base, "/api/games")["total"]

    section = open_account(phone)
    expect(section).to_have_attribute("data-signed-in", "false")
    expect(section.locator(".account-status")).to_have_text(words["account.anonymous"])
    expect(section.locator("[data-action=passkey-sign-in]")).to_have_text(words["account.signIn"])
    expect(section.locator("[data-action=sign-out]")).to_have_count(0)
    shot(phone, f"passkeys-anonymous-desktop-{code}")
    phone.set_viewport_size(PHONE)
    section.scroll_into_view_if_needed()
    shot(phone, f"passkeys-anonymous-phone-{code}")
    phone.set_viewport_size(DESKTOP)

    # Create a passkey: the same games and statistics, now the account's.
    section.locator("[data-action=passkey-create]").click()
    after_reload(phone, words["account.createdNotice"])
    assert api(phone, base, "/api/account")["signed_in"]
    assert api(phone, base, "/api/stats") == before
    assert api(phone, base, "/api/games")["total"] == games_before
    section = open_account(phone)
    expect(section).to_have_attribute("data-signed-in", "true")
    expect(section.locator("[data-action=sign-out]")).to_have_text(words["account.signOut"])
    expect(section.locator("[data-action=passkey-create]")).to_have_text(words["account.add"])
    shot(phone, f"passkeys-signed-in-desktop-{code}")
    phone.set_viewport_size(PHONE)
    section.scroll_into_view_if_needed()
    shot(phone, f"passkeys-signed-in-phone-{code}")
    phone.set_viewport_size(DESKTOP)
    phone.keyboard.press("Escape")

    # The second device: another context, whose authenticator holds the same passkey (a synced one).
    laptop = new_page(browser, DESKTOP, locale=ACCEPT[code])
    laptop_cdp, laptop_key = with_authenticator(laptop)
    credentials = phone_cdp.send("WebAuthn.getCredentials", {"authenticatorId": phone_key})["credentials"]
    assert len(credentials) == 1 and credentials[0]["isResidentCredential"]
    laptop_cdp.send("WebAuthn.addCredential", {"authenticatorId": laptop_key, "credential": credentials[0]})
    laptop.goto(f"{base}/")
    wait_turn(laptop, 0)
    assert api(laptop, base, "/api/stats")["played"] == 0
    open_account(laptop).locator("[data-action=passkey-sign-in]").click()
    after_reload(laptop, words["account.signedInNotice"])
    expect(laptop.locator("#view-stats")).to_be_visible()
    assert api(laptop, base, "/api/stats")["played"] == before["played"]
    expect(laptop.locator(f'#games a[href*="{won}"]')).to_have_count(1)
    shot(laptop, f"passkeys-second-device-stats-{code}")

    # Sign out on the second device: a fresh anonymous player there; the account keeps its games.
    open_account(laptop).locator("[data-action=sign-out]").click()
    after_reload(laptop, words["account.signedOutNotice"])
    assert not api(laptop, base, "/api/account")["signed_in"]
    assert api(laptop, base, "/api/stats")["played"] == 0
    assert api(phone, base, "/api/stats") == before

    # Delete the account on the first device: asked first, then everything is gone. The list of devices that opening
    # the settings asks for is held until Delete was pressed: the section drawn anew with the answer keeps the
    # question open and its focus (a slow server once closed it under the player's eyes).
    held: list[Any] = []
    phone.route("**/api/account/sessions", lambda route: held.append(route))
    with phone.expect_request("**/api/account/sessions", timeout=WAIT_MS):
        section = open_account(phone)
        section.locator("[data-action=account-delete]").click()
    confirm = section.locator(".account-confirm")
    expect(confirm).to_be_visible()
    confirm.evaluate("box => { box.dataset.drawnBefore = 'yes'; }")
    for _ in range(WAIT_MS // 20):  # the route's handler runs as Playwright dispatches its events
        if held:
            break
        phone.wait_for_timeout(20)
    [request] = held
    request.continue_()
    phone.unroute("**/api/account/sessions")
    confirm = section.locator(".account-confirm:not([data-drawn-before])")
    expect(confirm).to_be_visible()
    expect(confirm.locator("[data-action=account-delete-cancel]")).to_be_focused()
    expect(confirm).to_contain_text(words["account.deleteConfirm"])
    shot(phone, f"passkeys-delete-confirm-{code}")
    confirm.locator("[data-action=account-delete-confirm]").click()
    after_reload(phone, words["account.deletedNotice"])
    assert not api(phone, base, "/api/account")["signed_in"]
    assert api(phone, base, "/api/stats")["played"] == 0
    assert phone.context.request.get(f"{base}/api/games/{won}").status == 404
    assert phone.errors == [] and laptop.errors == []
    for page in (phone, laptop):
        page.context.close()


def test_an_ip_address_says_to_use_the_host_name(browser: Any, server: str) -> None:
    page = new_page(browser, DESKTOP)
    with_authenticator(page)
    page.goto(f"{server}/")  # 127.0.0.1: a secure context, but no relying party id
    wait_turn(page, 0)
    open_account(page).locator("[data-action=passkey-create]").click()
    expect(page.locator("#toasts")).to_contain_text(catalogue("en")["error.code.passkey_host"])
    assert not page.context.request.get(f"{server}/api/account").json()["signed_in"]
    assert page.errors == []
    page.context.close()
