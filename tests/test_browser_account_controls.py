"""A person controls their own account in headless Chromium with its virtual authenticator (CDP ``WebAuthn``): the
Account section lists the passkeys and the signed-in devices; a passkey is renamed; another device is signed out
from its row, then every other device with "sign out everywhere else"; the last passkey is removed only after
its stronger warning — in English and Bengali, with screenshots of the section (test-artifacts/screenshots).
"""

from __future__ import annotations

from typing import Any

import pytest

from browser_support import BROWSER_MARKS, DESKTOP, browser, catalogue, expect, new_page, server, shot, wait_turn
from test_browser_passkeys import ACCEPT, after_reload, api, open_account, with_authenticator

pytestmark = BROWSER_MARKS

# Fixtures are found by name in this module's namespace.
__all__ = ["browser", "server"]


def second_device(browser: Any, base: str, code: str, phone_cdp: Any, phone_key: str) -> Any:
    """Another browser whose authenticator holds the phone's passkey (a synced one), signed in with it."""
    laptop = new_page(browser, DESKTOP, locale=ACCEPT[code])
    laptop_cdp, laptop_key = with_authenticator(laptop)
    credentials = phone_cdp.send("WebAuthn.getCredentials", {"authenticatorId": phone_key})["credentials"]
    laptop_cdp.send("WebAuthn.addCredential", {"authenticatorId": laptop_key, "credential": credentials[0]})
    laptop.goto(f"{base}/")
    wait_turn(laptop, 0)
    open_account(laptop).locator("[data-action=passkey-sign-in]").click()
    after_reload(laptop, catalogue(code)["account.signedInNotice"])
    return laptop


def answer_confirm(page: Any, question: str, yes: bool) -> None:
    """The confirmation dialog asks ``question``; answer it."""
    dialog = page.locator("#confirm-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#confirm-text")).to_have_text(question)
    dialog.locator("#confirm-ok" if yes else "#confirm-cancel").click()
    expect(dialog).to_be_hidden()


@pytest.mark.parametrize("code", ["en", "bn"])
def test_passkeys_are_renamed_and_removed_and_other_devices_signed_out(browser: Any, server: str, code: str) -> None:
    words = catalogue(code)
    base = server.replace("127.0.0.1", "localhost")
    phone = new_page(browser, DESKTOP, locale=ACCEPT[code])
    phone_cdp, phone_key = with_authenticator(phone)
    phone.goto(f"{base}/")
    wait_turn(phone, 0)
    open_account(phone).locator("[data-action=passkey-create]").click()
    after_reload(phone, words["account.createdNotice"])
    laptop = second_device(browser, base, code, phone_cdp, phone_key)

    # The phone lists its passkey and both devices, itself marked.
    phone.goto(f"{base}/")
    phone.reload()
    wait_turn(phone, 0)
    section = open_account(phone)
    passkeys = section.locator("#account-passkeys > li")
    devices = section.locator("#account-sessions > li")
    expect(passkeys).to_have_count(1)
    expect(passkeys.first.locator(".account-item-name")).to_have_text(words["account.passkeyUnnamed"])
    expect(devices).to_have_count(2)
    expect(section.locator(".account-badge")).to_have_text(words["account.thisDevice"])
    device = words["account.device"].format(browser="Chrome", system="Linux")
    expect(devices.first.locator(".account-item-name")).to_contain_text(device)

    # Rename the passkey.
    passkeys.first.locator("[data-action=passkey-rename]").click()
    section.locator("[data-action=passkey-name]").fill("  Work laptop ")
    section.locator("[data-action=passkey-rename-save]").click()
    expect(phone.locator("#toasts")).to_contain_text(words["account.renamedNotice"])
    expect(passkeys.first.locator(".account-item-name")).to_have_text("Work laptop")
    assert api(phone, base, "/api/account")["passkeys"][0]["name"] == "Work laptop"
    section.scroll_into_view_if_needed()
    shot(phone, f"account-controls-{code}")

    # Sign the laptop out from its row: asked first (cancelled once), then done.
    other = devices.filter(has_not=section.locator(".account-badge"))
    other.locator("[data-action=session-sign-out]").click()
    answer_confirm(phone, words["account.sessionSignOutConfirm"].format(device=device), yes=False)
    assert api(laptop, base, "/api/account")["signed_in"]
    other.locator("[data-action=session-sign-out]").click()
    answer_confirm(phone, words["account.sessionSignOutConfirm"].format(device=device), yes=True)
    expect(phone.locator("#toasts")).to_contain_text(words["account.sessionEndedNotice"])
    expect(devices).to_have_count(1)
    expect(section.locator("[data-action=sign-out-everywhere]")).to_be_disabled()
    assert not api(laptop, base, "/api/account")["signed_in"]

    # The laptop signs in again; "sign out everywhere else" signs it out, and the phone stays signed in.
    laptop.goto(f"{base}/")
    wait_turn(laptop, 0)
    open_account(laptop).locator("[data-action=passkey-sign-in]").click()
    after_reload(laptop, words["account.signedInNotice"])
    phone.keyboard.press("Escape")
    section = open_account(phone)
    expect(section.locator("#account-sessions > li")).to_have_count(2)
    section.locator("[data-action=sign-out-everywhere]").click()
    answer_confirm(phone, words["account.signOutEverywhereConfirm"], yes=True)
    expect(phone.locator("#toasts")).to_contain_text(words["account.signedOutEverywhereNotice"])
    expect(section.locator("#account-sessions > li")).to_have_count(1)
    assert not api(laptop, base, "/api/account")["signed_in"]
    assert api(phone, base, "/api/account")["signed_in"]

    # Remove the last passkey: the stronger warning first; then the account has none, and this browser stays in.
    section.locator("#account-passkeys [data-action=passkey-remove]").click()
    answer_confirm(phone, words["account.removeLastConfirm"], yes=False)
    assert len(api(phone, base, "/api/account")["passkeys"]) == 1
    section.locator("#account-passkeys [data-action=passkey-remove]").click()
    shot(phone, f"account-remove-last-{code}")
    answer_confirm(phone, words["account.removeLastConfirm"], yes=True)
    expect(phone.locator("#toasts")).to_contain_text(words["account.removedNotice"])
    expect(section.locator("#account-passkeys > li")).to_have_count(0)
    account = api(phone, base, "/api/account")
    assert account["signed_in"] and account["passkeys"] == []
