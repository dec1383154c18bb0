"""Accounts: keep one's games on every device with a passkey (WebAuthn), sign in, sign out, delete, export; and
the owner's controls: name and remove passkeys, list the browsers signed in and sign them out.

Creating a passkey and signing in are two requests each: the options (a single-use challenge the server keeps a
few minutes, :mod:`foursquare.store.accounts`), then the authenticator's answer, which the ``webauthn`` library
verifies against that challenge, the relying party id and the origin. Both come from the request as the server
already validates it: the relying party id is the ``Host`` header's name (which ``--allowed-hosts`` checks), the
origin its scheme (``https`` behind a TLS proxy named by ``--trusted-proxies``), name and port. WebAuthn takes no
IP address as a relying party id: a server reached at ``127.0.0.1`` answers 409 ``passkey_host`` (open
``http://localhost:PORT``, which browsers treat as a secure context, or the server's name over HTTPS).

The ceremonies are counted by the ``passkeys`` rate limit (:mod:`foursquare.web.rate_limits`), the export, which
rebuilds every game of the player, by ``exports`` (and refused when another site asks it); like every change
they are refused when another site makes them or the cookie is missing (403, :mod:`foursquare.web.player`).
An answer that does not verify is 403 ``passkey_refused``, whatever is wrong with it (malformed bytes, another
origin, a bad signature, a counter going backwards); a challenge unknown, used or expired is 409
``stale_challenge``. None is ever a 500: the authenticator's answer is untrusted input.

The owner's controls answer 409 ``not_signed_in`` to a browser signed in to no account, and are counted by the
``passkeys`` rate limit too. A session records the browser's name as its ``User-Agent`` gives it
(:mod:`foursquare.web.devices`: ``Chrome/Android``, never the header itself).
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import json
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field, field_validator
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import bytes_to_base64url, options_to_json_dict
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    AuthenticatorTransport,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from foursquare.store import (
    Account,
    AccountError,
    NewCredential,
    Session,
    Store,
    StoredGame,
    new_cookie,
    now,
)
from foursquare.store.accounts import (
    CHALLENGE_TTL,
    NAME_FORBIDDEN,
    NAME_LENGTH,
    Challenge,
    Purpose,
    transports_of,
)
from foursquare.web.deps import BrowserDep, PlayerDep, StoreDep, rate_limited
from foursquare.web.devices import device_of, parts_of
from foursquare.web.errors import ApiError, ConflictError, ForbiddenError, NotFoundError
from foursquare.web.metrics import metrics_of
from foursquare.web.models import (
    B64URL,
    SESSION_HANDLE,
    AccountDeleted,
    AccountState,
    AuthenticationOptions,
    DeletedCounts,
    ExportedGame,
    GamesExport,
    PasskeyInfo,
    RegistrationOptions,
    SessionInfo,
    SessionList,
)
from foursquare.web.openapi import error_response
from foursquare.web.player import DEFAULT_PORTS, host_and_port, set_player_cookie
from foursquare.web.routing import Route
from foursquare.web.security import host_name
from foursquare.web.views import game_state, record_answer

router = APIRouter(prefix="/api/account", route_class=Route)

RP_NAME = "Foursquare"
TIMEOUT_MS = int(CHALLENGE_TTL.total_seconds() * 1000)
EXPORT_PAGE = 500
TRANSPORTS = frozenset(transport.value for transport in AuthenticatorTransport)

LIMITED = [Depends(rate_limited("passkeys"))]
Responses = dict[int | str, dict[str, Any]]
HOST: Responses = {409: {**error_response(409, ("passkey_host",)), "description": "The page's host is an IP address"}}
RATE: Responses = {429: error_response(429, ("rate_limited",))}


def refused(status: int, *codes: str) -> Responses:
    return {status: error_response(status, codes)}


# --- what the browser sends ------------------------------------------------------------------------------------

Bytes = Annotated[str, Field(pattern=B64URL, max_length=16_384)]


class AttestationResponse(BaseModel):
    """The authenticator's answer to `create()`: base64url, as `PublicKeyCredential.toJSON()` writes it."""

    model_config = ConfigDict(extra="forbid")

    clientDataJSON: Bytes = Field(description="the client data (the challenge, the origin), base64url")
    attestationObject: Bytes = Field(description="the attestation object (the new public key), base64url")
    transports: list[Annotated[str, Field(max_length=32)]] = Field(
        default_factory=list, max_length=8, description="`getTransports()`"
    )


class RegistrationBody(BaseModel):
    """``POST /api/account/passkeys``: the new credential, as the browser's `create()` gave it."""

    model_config = ConfigDict(extra="forbid")

    id: Bytes = Field(description="the credential id, base64url")
    rawId: Bytes = Field(description="the same")
    type: Literal["public-key"] = Field(description="always `public-key`")
    response: AttestationResponse = Field(description="the authenticator's answer")
    authenticatorAttachment: Literal["platform", "cross-platform"] | None = Field(None, description="where it is")


class AssertionResponse(BaseModel):
    """The authenticator's answer to `get()`: base64url, as `PublicKeyCredential.toJSON()` writes it."""

    model_config = ConfigDict(extra="forbid")

    clientDataJSON: Bytes = Field(description="the client data (the challenge, the origin), base64url")
    authenticatorData: Bytes = Field(description="the authenticator data (its counter), base64url")
    signature: Bytes = Field(description="the signature over both, base64url")
    userHandle: Bytes | None = Field(None, description="the account's user handle, base64url")


class AuthenticationBody(BaseModel):
    """``POST /api/account/sign-in``: the passkey's signature, as the browser's `get()` gave it."""

    model_config = ConfigDict(extra="forbid")

    id: Bytes = Field(description="the credential id, base64url")
    rawId: Bytes = Field(description="the same")
    type: Literal["public-key"] = Field(description="always `public-key`")
    response: AssertionResponse = Field(description="the authenticator's answer")
    authenticatorAttachment: Literal["platform", "cross-platform"] | None = Field(None, description="where it is")


class DeleteBody(BaseModel):
    """``POST /api/account/delete``: ``{"confirm": true}``, so that no stray request deletes an account."""

    model_config = ConfigDict(extra="forbid")

    confirm: Literal[True] = Field(description="must be true (the JSON literal)")

    @field_validator("confirm", mode="before")
    @classmethod
    def _literally_true(cls, value: object) -> object:
        if value is not True:  # `1` or `"true"` is no answer to the question (Literal[True] takes 1 == True)
            raise ValueError("must be true")
        return value


class RenameBody(BaseModel):
    """``PATCH /api/account/credentials/{passkey_id}``: the passkey's new name."""

    model_config = ConfigDict(extra="forbid")

    name: str | None = Field(
        max_length=NAME_LENGTH,
        pattern=f"^[^{NAME_FORBIDDEN}]*$",
        description=f"the name (trimmed), at most {NAME_LENGTH} characters, no control character nor direction mark;"
        " empty or null: none",
    )


PasskeyId = Annotated[str, Path(pattern=B64URL, max_length=1_400, description="the passkey's id, base64url")]
SessionHandle = Annotated[str, Path(pattern=SESSION_HANDLE, description="the session's handle (16 hex digits)")]


# --- errors ------------------------------------------------------------------------------------------------------


class PasskeyRefused(ForbiddenError):
    """The authenticator's answer does not verify; ``reason`` says why, in the library's English words."""

    def __init__(self, reason: str) -> None:
        super().__init__("passkey_refused", reason=reason[:200])


# --- the relying party -------------------------------------------------------------------------------------------


def relying_party(request: Request) -> tuple[str, str]:
    """The relying party id and the expected origin of this request: its host name, and scheme://host[:port].

    409 ``passkey_host`` when the host is an IP address, which WebAuthn refuses as a relying party id.
    """
    scheme = request.url.scheme
    header = request.headers.get("host", "")
    host = host_name(header.encode("latin-1"))
    try:
        ipaddress.ip_address(host)
    except ValueError:
        pass
    else:
        raise ConflictError("passkey_host", host=host)
    name, port = host_and_port(header, scheme)
    if not name:
        raise ConflictError("passkey_host", host=header[:100])
    shown = f"[{name}]" if ":" in name else name
    origin = f"{scheme}://{shown}" if port in (None, DEFAULT_PORTS.get(scheme)) else f"{scheme}://{shown}:{port}"
    return name, origin


def device_agent(request: Request) -> str | None:
    """The short name of the requesting browser that its session keeps (:func:`~foursquare.web.devices.device_of`)."""
    return device_of(request.headers.get("user-agent"))


def decode(text: str) -> bytes:
    """Bytes from base64url (padding optional); :class:`PasskeyRefused` if they are not."""
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise PasskeyRefused("not base64url") from None


def challenge_of(client_data: str) -> str:
    """The challenge the client data names (base64url), or :class:`PasskeyRefused`."""
    try:
        data = json.loads(decode(client_data))
    except (UnicodeDecodeError, ValueError):
        raise PasskeyRefused("the client data is not JSON") from None
    challenge = data.get("challenge") if isinstance(data, dict) else None
    if not isinstance(challenge, str) or not challenge:
        raise PasskeyRefused("the client data names no challenge")
    return challenge


def take_challenge(store: Store, browser: str, purpose: Purpose, client_data: str) -> Challenge:
    """The challenge of this answer, if this browser was given it for ``purpose``, unused and unexpired (409)."""
    challenge = challenge_of(client_data)
    taken = store.challenges.take(browser, purpose, challenge)
    if taken is None:
        raise ConflictError("stale_challenge")
    return taken


# --- answers -----------------------------------------------------------------------------------------------------


def account_state(account: Account | None) -> AccountState:
    if account is None:
        return AccountState(signed_in=False, created_at=None, passkeys=[])
    passkeys = [PasskeyInfo(id=p.id, name=p.name, transports=list(p.transports), created_at=p.created_at,
                            last_used_at=p.last_used_at) for p in account.passkeys]  # fmt: skip
    return AccountState(signed_in=True, created_at=account.created_at, passkeys=passkeys)


def session_list(sessions: list[Session] | None, ended: int = 0) -> SessionList:
    """The sessions as the API gives them; 409 ``not_signed_in`` for None (a browser signed in to no account)."""
    if sessions is None:
        raise ConflictError("not_signed_in")
    return SessionList(sessions=[session_info(session) for session in sessions], ended=ended)


def session_info(session: Session) -> SessionInfo:
    browser, system = parts_of(session.device)
    return SessionInfo(handle=session.handle, created_at=session.created_at, last_seen_at=session.last_seen_at,
                       browser=browser, system=system, current=session.current)  # fmt: skip


def account_refusal(error: AccountError) -> ApiError:
    """The API's refusal for a change of the owner's controls that the store refused."""
    if error.code in ("no_passkey", "no_session"):
        return NotFoundError(error.code)
    return ConflictError(error.code)


def descriptors(account: Account | None) -> list[PublicKeyCredentialDescriptor]:
    if account is None:
        return []
    return [
        PublicKeyCredentialDescriptor(
            id=decode(p.id), transports=[AuthenticatorTransport(t) for t in p.transports if t in TRANSPORTS]
        )
        for p in account.passkeys
    ]


# --- the routes --------------------------------------------------------------------------------------------------


@router.get("", summary="Whether this browser is signed in, and the account's passkeys")
def get_account(store: StoreDep, browser: BrowserDep) -> AccountState:
    return account_state(store.accounts.of(browser))


@router.post(
    "/passkeys/options",
    summary="Options to create a passkey (for a new account, or one more for this one)",
    dependencies=LIMITED,
    responses={**HOST, **RATE},
)
def registration_options(request: Request, store: StoreDep, browser: BrowserDep) -> RegistrationOptions:
    rp_id, _ = relying_party(request)
    account = store.accounts.of(browser)
    handle = account.user_handle if account is not None else bytes_to_base64url(secrets.token_bytes(32))
    challenge = store.challenges.new(browser, "register", handle)
    options = generate_registration_options(
        rp_id=rp_id,
        rp_name=RP_NAME,
        user_name=f"{RP_NAME} {(account.created_at if account else store.database.today().isoformat())[:10]}",
        user_id=decode(handle),
        challenge=decode(challenge),
        timeout=TIMEOUT_MS,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED, user_verification=UserVerificationRequirement.PREFERRED
        ),
        exclude_credentials=descriptors(account),
    )
    answer = options_to_json_dict(options)
    for descriptor in answer["excludeCredentials"]:
        # The library leaves out an empty list; a passkey whose browser named no transport we know has one.
        descriptor.setdefault("transports", [])
    return RegistrationOptions.model_validate(answer)


@contextmanager
def ceremony(request: Request, name: str) -> Iterator[None]:
    """Count a passkey ceremony's end in the metrics: ``ok``, or the code of the error it was answered with."""
    try:
        yield
    except ApiError as exc:
        metrics_of(request).passkey(name, exc.code)
        raise
    metrics_of(request).passkey(name, "ok")


@router.post(
    "/passkeys",
    status_code=201,
    summary="Store a new passkey: this browser's player becomes an account (or the account gains a passkey)",
    dependencies=LIMITED,
    responses={
        **refused(403, "passkey_refused"),
        409: {
            **error_response(409, ("passkey_host", "stale_challenge", "passkey_taken")),
            "description": "An IP host, a challenge unknown, used or expired, or a passkey stored already",
        },
        **RATE,
    },
)
def register(
    body: RegistrationBody, request: Request, response: Response, store: StoreDep, browser: BrowserDep
) -> AccountState:
    with ceremony(request, "registration"):
        return registered(body, request, response, store, browser)


def registered(
    body: RegistrationBody, request: Request, response: Response, store: StoreDep, browser: BrowserDep
) -> AccountState:
    rp_id, origin = relying_party(request)
    challenge = take_challenge(store, browser, "register", body.response.clientDataJSON)
    try:
        verified = verify_registration_response(
            credential=body.model_dump(exclude_none=True),
            expected_challenge=decode(challenge.challenge),
            expected_rp_id=rp_id,
            expected_origin=origin,
        )
    except Exception as exc:  # untrusted bytes, parsed by the library: any failure is the answer's fault
        raise PasskeyRefused(str(exc) or type(exc).__name__) from None
    credential = NewCredential(
        id=bytes_to_base64url(verified.credential_id),
        public_key=verified.credential_public_key,
        sign_count=verified.sign_count,
        transports=transports_of(body.response.transports),
    )
    try:
        account, cookie = store.accounts.register(
            browser, challenge.user_handle or "", credential, device_agent(request)
        )
    except AccountError as exc:
        if exc.code == "passkey_taken":
            raise ConflictError("passkey_taken") from None
        raise PasskeyRefused(str(exc)) from None
    if cookie != browser:
        set_player_cookie(request, response, cookie)
    return account_state(account)


@router.post(
    "/sign-in/options",
    summary="Options to sign in with a passkey (any passkey of this site: no name to type)",
    dependencies=LIMITED,
    responses={**HOST, **RATE},
)
def authentication_options(request: Request, store: StoreDep, browser: BrowserDep) -> AuthenticationOptions:
    rp_id, _ = relying_party(request)
    challenge = store.challenges.new(browser, "sign_in")
    options = generate_authentication_options(
        rp_id=rp_id,
        challenge=decode(challenge),
        timeout=TIMEOUT_MS,
        user_verification=UserVerificationRequirement.PREFERRED,
    )
    return AuthenticationOptions.model_validate(options_to_json_dict(options))


@router.post(
    "/sign-in",
    summary="Sign in with a passkey: this browser plays the account's games (its own games join them)",
    dependencies=LIMITED,
    responses={
        403: {
            **error_response(403, ("passkey_refused", "unknown_passkey")),
            "description": "The answer does not verify, or no account has this passkey",
        },
        409: {
            **error_response(409, ("passkey_host", "stale_challenge")),
            "description": "An IP host, or a challenge unknown, used or expired",
        },
        **RATE,
    },
)
def sign_in(
    body: AuthenticationBody, request: Request, response: Response, store: StoreDep, browser: BrowserDep
) -> AccountState:
    with ceremony(request, "authentication"):
        return signed_in(body, request, response, store, browser)


def signed_in(
    body: AuthenticationBody, request: Request, response: Response, store: StoreDep, browser: BrowserDep
) -> AccountState:
    rp_id, origin = relying_party(request)
    challenge = take_challenge(store, browser, "sign_in", body.response.clientDataJSON)
    stored = store.passkeys.get(bytes_to_base64url(decode(body.rawId)))
    if stored is None:
        raise ForbiddenError("unknown_passkey")
    if body.response.userHandle is not None:
        owner = store.accounts.handle(stored.account)
        if owner is None or decode(body.response.userHandle) != decode(owner):
            raise PasskeyRefused("the user handle is not the passkey's account's")
    try:
        verified = verify_authentication_response(
            credential=body.model_dump(exclude_none=True),
            expected_challenge=decode(challenge.challenge),
            expected_rp_id=rp_id,
            expected_origin=origin,
            credential_public_key=stored.public_key,
            credential_current_sign_count=stored.sign_count,
        )
    except Exception as exc:  # untrusted bytes, parsed by the library: any failure is the answer's fault
        raise PasskeyRefused(str(exc) or type(exc).__name__) from None
    try:
        account, cookie = store.accounts.sign_in(browser, stored, verified.new_sign_count, device_agent(request))
    except AccountError as exc:
        raise PasskeyRefused(str(exc)) from None
    set_player_cookie(request, response, cookie)
    return account_state(account)


@router.post(
    "/sign-out",
    summary="Sign this browser out: it becomes a new anonymous player (the account keeps its games)",
    responses=refused(409, "not_signed_in"),
)
def sign_out(request: Request, response: Response, store: StoreDep, browser: BrowserDep) -> AccountState:
    if not store.accounts.sign_out(browser):
        raise ConflictError("not_signed_in")
    set_player_cookie(request, response, new_cookie())
    return account_state(None)


@router.post(
    "/delete",
    summary="Delete the account with all its data: games, statistics, passkeys, every device's session",
    responses=refused(409, "not_signed_in"),
)
def delete_account(
    body: DeleteBody, request: Request, response: Response, store: StoreDep, browser: BrowserDep
) -> AccountDeleted:
    deleted = store.accounts.delete(browser)
    if deleted is None:
        raise ConflictError("not_signed_in")
    set_player_cookie(request, response, new_cookie())
    counts = DeletedCounts(games=deleted.games, passkeys=deleted.passkeys, sessions=deleted.sessions)
    return AccountDeleted(deleted=counts, account=account_state(None))


NOT_SIGNED_IN: Responses = {409: {**error_response(409, ("not_signed_in",)), "description": "Signed in to nothing"}}


@router.patch(
    "/credentials/{passkey_id}",
    summary="Name a passkey of this account (the name only helps its owner tell their passkeys apart)",
    dependencies=LIMITED,
    responses={**refused(404, "no_passkey"), **NOT_SIGNED_IN, **RATE},
)
def rename_passkey(passkey_id: PasskeyId, body: RenameBody, store: StoreDep, browser: BrowserDep) -> AccountState:
    try:
        account = store.passkeys.rename(browser, passkey_id, body.name)  # the body's pattern is the store's rule
    except AccountError as exc:
        raise account_refusal(exc) from None
    if account is None:
        raise ConflictError("not_signed_in")
    return account_state(account)


@router.delete(
    "/credentials/{passkey_id}",
    summary="Remove a passkey of this account (its last one only with confirm=true)",
    dependencies=LIMITED,
    responses={
        **refused(404, "no_passkey"),
        409: {
            **error_response(409, ("not_signed_in", "last_passkey")),
            "description": "Signed in to nothing, or the account's last passkey without confirm=true",
        },
        **RATE,
    },
)
def remove_passkey(
    passkey_id: PasskeyId,
    store: StoreDep,
    browser: BrowserDep,
    confirm: Annotated[
        bool, Query(description="true to remove the account's last passkey: then no new device can sign in to it")
    ] = False,
) -> AccountState:
    try:
        account = store.passkeys.remove(browser, passkey_id, last=confirm)
    except AccountError as exc:
        raise account_refusal(exc) from None
    if account is None:
        raise ConflictError("not_signed_in")
    return account_state(account)


@router.get(
    "/sessions",
    summary="The browsers signed in to this account, the last used first",
    responses=NOT_SIGNED_IN,
)
def list_sessions(store: StoreDep, browser: BrowserDep) -> SessionList:
    return session_list(store.sessions.of(browser))


@router.delete(
    "/sessions/{handle}",
    summary="Sign out another browser of this account (this one signs out with POST /api/account/sign-out)",
    dependencies=LIMITED,
    responses={
        **refused(404, "no_session"),
        409: {
            **error_response(409, ("not_signed_in", "current_session")),
            "description": "Signed in to nothing, or the handle is this browser's",
        },
        **RATE,
    },
)
def end_session(handle: SessionHandle, store: StoreDep, browser: BrowserDep) -> SessionList:
    try:
        ended = store.sessions.end(browser, handle)
    except AccountError as exc:
        raise account_refusal(exc) from None
    if not ended:
        raise ConflictError("not_signed_in")
    return session_list(store.sessions.of(browser), ended=1)


@router.post(
    "/sign-out-everywhere",
    summary="Sign out every other browser of this account; this one stays signed in",
    dependencies=LIMITED,
    responses={**NOT_SIGNED_IN, **RATE},
)
def sign_out_everywhere(store: StoreDep, browser: BrowserDep) -> SessionList:
    ended = store.sessions.end_others(browser)
    if ended is None:
        raise ConflictError("not_signed_in")
    return session_list(store.sessions.of(browser), ended=ended)


@router.get(
    "/export",
    summary="Every game of this player (the account's when signed in) as a JSON file to keep",
    dependencies=[Depends(rate_limited("exports"))],
    responses={**refused(403, "cross_site"), **RATE},
)
def export(store: StoreDep, browser: BrowserDep, player: PlayerDep, response: Response) -> GamesExport:
    games: list[StoredGame] = []
    page = 1
    while True:
        batch, total = store.games.page(player, page=page, per_page=EXPORT_PAGE)
        games.extend(batch)
        if page * EXPORT_PAGE >= total:
            break
        page += 1
    response.headers["Content-Disposition"] = 'attachment; filename="foursquare-games.json"'
    return GamesExport(
        format="foursquare-export",
        version=1,
        exported_at=now(store.database.clock),
        account=account_state(store.accounts.of(browser)),
        games=[exported(stored, player) for stored in reversed(games)],
    )


def exported(stored: StoredGame, player: str) -> ExportedGame:
    """A game of the export: its record once it is over and its deal may be known, else its state."""
    game = stored.rebuild()
    recorded = stored.is_over and not stored.daily_secret
    return ExportedGame(
        id=stored.id,
        created_at=stored.created_at,
        updated_at=stored.updated_at,
        finished_at=stored.finished_at,
        outcome=stored.outcome,
        score=stored.score,
        daily=stored.daily,
        assisted=stored.assisted,
        winnable=stored.winnable,
        offline=stored.offline,
        record=record_answer(game) if recorded else None,
        state=None if recorded else game_state(stored, game, viewer=player),
    )
