"""The API's success answers as Pydantic models: the routes declare them, so ``/openapi.json`` describes every field.

These models are the field-by-field reference of the API (``docs/api.md`` tells how it is used). An answer says
what a player at a real table may see and no more: a model never has a field its answer does not send (the stock
has none), and none allows extra keys, so an answer that grew a key without its model fails instead of leaking
it. Fields are listed in the order the answers write them.

>>> GameList(games=[], page=1, per_page=20, total=0).model_dump_json()
'{"games":[],"page":1,"per_page":20,"total":0}'
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel

from foursquare.cards import MAX_DEAL
from foursquare.engine import AREA_REACH, AREA_SIDE, COLUMN_LETTERS, Adjacency, FlipReason, Line, Reason, Status
from foursquare.store import MAX_SCORE

CARD_NAME = r"^(A|[2-9]|10)[CDHS]$"
"""A card's name exactly as the API writes it (``AC``, ``7H``, ``10S``): a move's ``card`` is compared with it."""
CELL_NAME = rf"^[{COLUMN_LETTERS}][1-{AREA_SIDE}]$"
"""A cell's name: its column letter (A-G from the left) and row number (1-7 from the top); the first card is D4."""

CardName = Annotated[str, Field(pattern=CARD_NAME, examples=["7H"])]
CellName = Annotated[str, Field(pattern=CELL_NAME, examples=["D4"])]
Coordinate = Annotated[int, Field(ge=-AREA_REACH, le=AREA_REACH)]
Pair = tuple[Coordinate, Coordinate]
Count = Annotated[int, Field(ge=0)]
Deal = Annotated[int, Field(ge=0, lt=MAX_DEAL)]
Score = Annotated[int, Field(ge=0, le=MAX_SCORE)]
Probability = Annotated[float, Field(ge=0, le=1)]
Seconds = Annotated[float, Field(ge=0, examples=[192.25])]
Timestamp = Annotated[str, Field(json_schema_extra={"format": "date-time"}, examples=["2026-11-29T22:34:49.760Z"])]
Day = Annotated[date, Field(examples=["2026-12-01"])]
"""A UTC date, written YYYY-MM-DD (a field named ``date`` cannot be annotated ``date`` itself)."""
SCORE_KEY = r"^(0|[1-9][0-9]?)$"
"""A score written as a JSON object's key: the decimal digits of the integer."""
SolverStatus = Literal["optimal", "unwinnable", "bounds"]
""":data:`foursquare.solver.driver.Status` (the solver is optional: the answers do not import it)."""


# Descriptions of the fields that several answers share.
ROW = "the row: the first card is at row 0, rows grow downward"
COL = "the column: the first card is at column 0, columns grow rightward"
RULES = "the game's house rules"
DEAL = "the deal number; null while a game started without one is being played (revealed when it ends)"
OUTCOME = "`playing` until the game ends, then `won` or `lost`"
REASON = "why the game ended: `sixteen_face_up`, `too_many_face_down` or `stock_empty`; null while playing"
SCORE = "the score once the game is over (a loss scores 0); null while playing"
CARD = "the card to place; null once the game is over"
FACE_DOWN = "face-down cards counting towards the limit"
CELLS = "every pile, sorted by (row, col)"
DAILY = "the UTC date of a daily deal; null for any other game"
ASSISTED = "whether the player undid, restarted or took a hint in this game (always true for an `offline` game)"
OFFLINE = (
    "a game played offline on a device and sent later (`POST /api/offline-games`): it counts in the statistics,"
    " never as clean nor as a daily game (its stock was on the device)"
)
FLIPS = "every top card that turned over with that card"
FORMAT = "always `foursquare-game`"
VERSION = "the record format's version"
MOVES = "the moves played, as [row, col] (undone moves not redone are not part of it)"


class Answer(BaseModel):
    """A part of an answer: exactly these keys, no other (and built once: a view may share a part, such as the area)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# --- a game ---------------------------------------------------------------------------------------------------


class Rules(Answer):
    """The house rules of a game."""

    adjacency: Adjacency = Field(description="which cells count as next to a card: `orthogonal` or also `diagonal`")
    count_buried: bool = Field(description="whether face-down cards that were covered still count towards the limit")


class Cell(Answer):
    """A pile on the grid, as the player sees it: its top card (a face-down top is named too: it was seen placed)."""

    row: Coordinate = Field(description=ROW)
    col: Coordinate = Field(description=COL)
    cell: CellName = Field(description="the cell's name")
    height: int = Field(ge=1, description="the cards in the pile")
    card: CardName = Field(description="the pile's top card")
    face_up: bool = Field(description="whether the top card faces up")


class Area(Answer):
    """The 7 × 7 area every game stays inside, centred on the first card, with the names of its columns and rows."""

    min_row: int = Field(description="the top row")
    max_row: int = Field(description="the bottom row")
    min_col: int = Field(description="the leftmost column")
    max_col: int = Field(description="the rightmost column")
    column_names: list[str] = Field(description="the columns' letters, left to right")
    row_names: list[str] = Field(description="the rows' numbers, top to bottom")


class Placed(Answer):
    """The card just placed, and where."""

    row: Coordinate = Field(description=ROW)
    col: Coordinate = Field(description=COL)
    cell: CellName = Field(description="the cell's name")
    card: CardName = Field(description="the card placed")


class Flip(Answer):
    """A top card that turned over when a card was placed, and why."""

    row: Coordinate = Field(description=ROW)
    col: Coordinate = Field(description=COL)
    cell: CellName = Field(description="the cell's name")
    card: CardName = Field(description="the card that turned")
    face_up: bool = Field(description="which way it faces now")
    line: Line = Field(description="the line whose check turned it")
    reason: FlipReason = Field(
        description="why the line turned: the card placed is `highest` or `lowest` of the line's face-up tops, "
        "or `none_face_up`: no other top of the line was face up"
    )


class GameState(Answer):
    """A game as its viewer may see it: every route that shows or changes a game answers with it."""

    id: str = Field(description="the game's id")
    deal: Deal | None = Field(description=DEAL)
    variant: Rules = Field(description=RULES)
    turn: Count = Field(description="cards placed so far")
    card: CardName | None = Field(description=CARD)
    stock_left: Count = Field(description="40 - turn: the card to place included (a win scores what is left)")
    face_down: Count = Field(description=FACE_DOWN)
    max_face_down: int = Field(description="the most face-down cards a game survives (the page draws its meter)")
    cells: list[Cell] = Field(description=CELLS)
    legal: list[Pair] = Field(description="the cells the card may go to, [row, col], in (row, col) order; [] once over")
    legal_cells: list[CellName] = Field(description="the same cells by name, in the same order")
    area: Area = Field(description="the area of the board, the same for every game (the page labels its edges)")
    outcome: Status = Field(description=OUTCOME)
    reason: Reason | None = Field(description=REASON)
    score: Score | None = Field(description=SCORE)
    can_undo: bool = Field(description="whether undo would be accepted (false once the game is over)")
    can_redo: bool = Field(description="whether redo would be accepted (false once the game is over)")
    created_at: Timestamp = Field(description="when the game started (ISO 8601, UTC)")
    updated_at: Timestamp = Field(description="when it last changed (ISO 8601, UTC)")
    yours: bool = Field(description="whether the request comes from the game's player: only they may change it")
    daily: date | None = Field(description=DAILY)
    winnable: bool = Field(description="whether the deal was drawn as one the solver proves winnable (`winnable`)")
    assisted: bool = Field(description=ASSISTED)
    daily_late: bool = Field(
        description="a daily game played on after its UTC date ended, when that date's finished games show its deal:"
        " it counts neither in that date's results and daily streak nor as clean (`assisted` too once played on)"
    )
    offline: bool = Field(description=OFFLINE)


class MoveResult(GameState):
    """The game after a card was placed, and what that card did."""

    placed: Placed = Field(description="the card placed and its cell")
    flips: list[Flip] = Field(description=FLIPS)


class GameSummary(Answer):
    """One game of the list."""

    id: str = Field(description="the game's id")
    deal: Deal | None = Field(description=DEAL)
    variant: Rules = Field(description=RULES)
    turn: Count = Field(description="cards placed so far")
    outcome: Status = Field(description=OUTCOME)
    reason: Reason | None = Field(description=REASON)
    score: Score | None = Field(description=SCORE)
    created_at: Timestamp = Field(description="when the game started (ISO 8601, UTC)")
    updated_at: Timestamp = Field(description="when it last changed (ISO 8601, UTC)")
    daily: date | None = Field(description=DAILY)
    assisted: bool = Field(description=ASSISTED)
    offline: bool = Field(description=OFFLINE)


class GameList(Answer):
    """A page of the requester's games, newest first (a page past the end has none)."""

    games: list[GameSummary] = Field(description="the games of this page")
    page: int = Field(ge=1, description="the page asked for")
    per_page: int = Field(ge=1, description="games per page asked for")
    total: Count = Field(description="the requester's games in all")


# --- advice and hindsight -------------------------------------------------------------------------------------


class MoveAdvice(Answer):
    """A legal move with its estimates, from the player's view only (the unseen cards, never their order)."""

    row: Coordinate = Field(description=ROW)
    col: Coordinate = Field(description=COL)
    cell: CellName = Field(description="the cell's name")
    win_probability: Probability = Field(description="the estimated chance to win after this move")
    expected_score: float = Field(ge=0, le=MAX_SCORE, description="the estimated final score (a loss scores 0)")
    playouts: Count = Field(description="the sampled futures the estimates rest on (fewer: noisier)")


class Hint(Answer):
    """Every legal move, highest expected score first (ties: the higher win probability)."""

    turn: Count = Field(description="the turn of the position ranked")
    moves: list[MoveAdvice] = Field(description="every legal move, best first")


class JudgedMove(Answer):
    """A move of the game against the best one in its position: exactly at the end of the game, over every order of
    the unseen cards (`evaluation` `exact`); before that, both played out on the same 1,000 fresh futures."""

    index: Count = Field(description="the move's index from 0 (the game numbers it index + 1)")
    card: CardName = Field(description="the card placed")
    played: Pair = Field(description="the cell played, as [row, col]")
    played_cell: CellName = Field(description="its name")
    best: Pair = Field(description="the best cell (the one played when it did as well), as [row, col]")
    best_cell: CellName = Field(description="its name")
    played_win_probability: Probability = Field(description="the chance to win after the move played (the curve)")
    best_win_probability: Probability = Field(description="the chance to win after the best move")
    played_expected_score: float = Field(ge=0, description="the expected score after the move played (the curve)")
    best_expected_score: float = Field(ge=0, description="the expected score after the best move (never below)")
    win_probability_loss: float = Field(ge=0, description="best − played win chance (0 when no worse)")
    expected_score_loss: float = Field(ge=0, description="best − played expected score (0: no loss)")
    expected_score_loss_low: float = Field(
        ge=0, description="its lower confidence bound (2.5 standard errors); the loss itself when exact"
    )
    forced: bool = Field(description="whether the move was the only legal one")
    mistake: bool = Field(description="not forced, and the loss's lower bound exceeds 1 point")
    evaluation: Literal["exact", "playouts"] = Field(
        description="`exact`: the exact expectimax over the unseen cards; `playouts`: the paired fresh futures"
    )


class Perfect(Answer):
    """The perfect-information solver's verdict on the deal: the best possible with the whole stock known."""

    status: SolverStatus = Field(description="`optimal`, `unwinnable`, or `bounds` (the solver ran out of time)")
    winnable: bool | None = Field(description="true when a win was found, false when proven none; null: unknown")
    best_score: Score | None = Field(description="the best score found; null when no win was found")
    upper_bound: int = Field(ge=-1, le=MAX_SCORE, description="no line scores more (-1 when none wins)")
    line: list[Pair] = Field(description="the best win found, from the first card, as [row, col]")
    line_cells: list[CellName] = Field(description="the same line by cell name")


class Analysis(Answer):
    """The post-game analysis (the same as `foursquare analyze RECORD --json`)."""

    version: int = Field(ge=1, description="the shape and rule of the analysis; another version is stale")
    outcome: Status = Field(description="`won` or `lost`")
    reason: Reason = Field(description="why the game ended")
    score: Score = Field(description="the game's score (a loss scores 0)")
    deal: Deal | None = Field(description="the deal number; null for a game of a given stock")
    moves: list[JudgedMove] = Field(description="every move of the game, in the order played")
    costliest: list[Count] = Field(description="the indices of the mistakes, costliest first")
    perfect: Perfect = Field(description="the solver's verdict, which uses the whole stock")


class DealRecord(Answer):
    """The record of a finished game of a numbered deal (`docs/records.md`)."""

    format: Literal["foursquare-game"] = Field(description=FORMAT)
    version: int = Field(description=VERSION)
    deal: Deal = Field(description="the deal number")
    variant: Rules = Field(description=RULES)
    moves: list[Pair] = Field(description=MOVES)


class StockRecord(Answer):
    """The record of a finished game dealt from a given stock (`docs/records.md`)."""

    format: Literal["foursquare-game"] = Field(description=FORMAT)
    version: int = Field(description=VERSION)
    stock: list[CardName] = Field(min_length=40, max_length=40, description="the 40 cards, the first one first")
    variant: Rules = Field(description=RULES)
    moves: list[Pair] = Field(description=MOVES)


class GameRecord(RootModel[DealRecord | StockRecord]):
    """The record of a finished game in the `foursquare-game` format: of its deal number, or else of its stock."""


class ReplayPosition(Answer):
    """The position after the first `turn` moves of a finished game, and the placement that reached it."""

    turn: Count = Field(description="moves replayed")
    cells: list[Cell] = Field(description=CELLS)
    card: CardName | None = Field(description="the card to place then; null at the end")
    placed: Placed | None = Field(description="the card the last move replayed placed; null at turn 0")
    flips: list[Flip] = Field(description=FLIPS + "; [] at turn 0")
    face_down: Count = Field(description=FACE_DOWN)
    outcome: Status = Field(description=OUTCOME)
    reason: Reason | None = Field(description=REASON)
    score: Score | None = Field(description=SCORE)


# --- statistics -----------------------------------------------------------------------------------------------


class ScoreCount(Answer):
    """Won games of one score."""

    score: Score = Field(description="a score")
    count: Count = Field(description="won games of that score")


class CleanStats(Answer):
    """The statistics over clean (not assisted) games: an assisted game ends a clean streak, as a loss does."""

    played: Count = Field(description="finished clean games")
    won: Count = Field(description="clean wins")
    current_streak: Count = Field(description="consecutive clean wins ending with the latest finished game")
    best_streak: Count = Field(description="the longest run of consecutive clean wins")
    best_score: Score | None = Field(description="the best score of a clean game; null when none")
    best_time: Seconds | None = Field(description="the shortest clean win in seconds (see Stats); null when none")


class DailyStats(Answer):
    """The daily deal: finished daily games, and runs of consecutive UTC dates with a won daily."""

    played: Count = Field(description="finished daily games")
    won: Count = Field(description="won daily games (assisted or not)")
    current_streak: Count = Field(description="the run ending today, or yesterday while today's is not over")
    best_streak: Count = Field(description="the longest run")


class Stats(Answer):
    """The requester's statistics over their finished games, in the order the games ended."""

    played: Count = Field(description="finished games")
    won: Count = Field(description="wins")
    lost: Count = Field(description="losses")
    win_rate: Probability = Field(description="won / played (0 when none)")
    current_streak: Count = Field(description="consecutive wins ending with the latest finished game")
    best_streak: Count = Field(description="the longest run of consecutive wins")
    best_score: Score | None = Field(description="the best score (a loss scores 0); null when no game is finished")
    mean_score: float | None = Field(ge=0, description="the mean score, a loss counting 0; null when none")
    best_time: Seconds | None = Field(
        description="the shortest win in seconds, from the game's creation to its end by the server's clock (games"
        " played offline are not timed); null when no win is timed"
    )
    score_histogram: list[ScoreCount] = Field(description="won games by score, for every score from 0 to 24")
    assisted: Count = Field(description="finished games that were assisted")
    clean: CleanStats = Field(description="the same over clean (not assisted) games")
    daily: DailyStats = Field(description="the daily deal's games and streaks")


# --- the daily deal's results ---------------------------------------------------------------------------------


class DailyResults(Answer):
    """Everyone's daily game of one UTC date that is over (a player has one daily game a date: the first attempt)."""

    date: Day = Field(description="the UTC date of the daily deal")
    players: Count = Field(description="finished daily games of that date, one per player")
    won: Count = Field(description="how many of them were won")
    scores: dict[str, Count] = Field(
        description="how many of those games had each score (a loss scoring 0), by score in ascending order, "
        "every score that some game had and no other; the counts add up to `players`",
        examples=[{"0": 3, "5": 1, "9": 2}],
        json_schema_extra={"propertyNames": {"pattern": SCORE_KEY}},
    )


# --- languages ------------------------------------------------------------------------------------------------


class LanguageName(Answer):
    """A language of the game, named in itself."""

    code: str = Field(description="its code, for `/api/messages/{code}`", examples=["hr"])
    name: str = Field(description="its name in itself", examples=["Hrvatski"])


class Languages(Answer):
    """The language menu of the page, in its order (the tests' pseudo-language is not listed)."""

    languages: list[LanguageName] = Field(description="every language of the menu")


class Catalogue(Answer):
    """The page's messages in one language, with what the page's `Intl` needs to write numbers and plurals."""

    code: str = Field(description="the language's own code (a regional tag or an alias asked for is resolved)")
    name: str = Field(description="its name in itself")
    direction: Literal["ltr", "rtl"] = Field(description="the direction of its script")
    locale: str = Field(description="the CLDR locale of its numbers, dates and plural rules, as a BCP 47 tag")
    plural_categories: list[str] = Field(description="the CLDR plural categories of the language")
    messages: dict[str, str | dict[str, str]] = Field(
        description="every message of the page by key; a plural one is an object by plural category"
    )


# --- accounts and passkeys ------------------------------------------------------------------------------------

B64URL = r"^[A-Za-z0-9_-]*$"
"""Bytes as WebAuthn's JSON writes them: base64url, without padding."""
Base64Url = Annotated[str, Field(pattern=B64URL)]
SESSION_HANDLE = r"^[0-9a-f]{16}$"
"""A session's handle: the first 16 hex digits of its cookie's hash."""


class PasskeyInfo(Answer):
    """A passkey of the account (never its key)."""

    id: Base64Url = Field(description="its credential id, base64url: what renames or removes it")
    name: str | None = Field(description="the name its owner gave it; null: none yet")
    transports: list[str] = Field(description="how the browser said the authenticator is reached (`internal`, …)")
    created_at: Timestamp = Field(description="when it was created (ISO 8601, UTC)")
    last_used_at: Timestamp | None = Field(description="the last sign-in with it; null: none since it was created")


class AccountState(Answer):
    """Whether this browser is signed in to an account, and that account's passkeys."""

    signed_in: bool = Field(description="whether this browser is signed in to an account (else: an anonymous player)")
    created_at: Timestamp | None = Field(description="when the account was created; null when not signed in")
    passkeys: list[PasskeyInfo] = Field(description="the account's passkeys, oldest first; [] when not signed in")


class SessionInfo(Answer):
    """A browser signed in to the account (never its cookie)."""

    handle: str = Field(
        pattern=SESSION_HANDLE, description="a short name of it (not a secret): what `DELETE …/sessions/{handle}` takes"
    )
    created_at: Timestamp = Field(description="when it signed in (ISO 8601, UTC)")
    last_seen_at: Timestamp = Field(description="its last request, to within an hour (ISO 8601, UTC)")
    browser: str | None = Field(description="its browser (`Chrome`, `Firefox`, …), as it said; null: unknown")
    system: str | None = Field(description="its system (`Android`, `Windows`, …), as it said; null: unknown")
    current: bool = Field(description="whether it is the browser asking")


class SessionList(Answer):
    """The browsers signed in to the account, the last used first."""

    sessions: list[SessionInfo] = Field(description="the live sessions, this browser's among them")
    ended: Count = Field(description="how many sessions the request ended (0 for a plain listing)")


class DeletedCounts(Answer):
    """What deleting the account deleted."""

    games: Count = Field(description="games deleted, finished or not")
    passkeys: Count = Field(description="passkeys deleted (the authenticators may still list them: remove them there)")
    sessions: Count = Field(description="browsers signed out, this one included")


class AccountDeleted(Answer):
    """The account is gone, with all its data; this browser is a new anonymous player."""

    deleted: DeletedCounts = Field(description="what was deleted")
    account: AccountState = Field(description="this browser now: signed in to nothing")


class RelyingParty(Answer):
    """The site the passkey belongs to."""

    name: str = Field(description="its name, as an authenticator shows it")
    id: str = Field(description="its id: the host name the page was served from")


class PasskeyUser(Answer):
    """The account as the authenticator stores it beside the passkey."""

    id: Base64Url = Field(description="the account's user handle (random bytes), base64url")
    name: str = Field(description="a name the authenticator lists the passkey under")
    displayName: str = Field(description="the same, to show")


class KeyAlgorithm(Answer):
    """A public key algorithm the server accepts."""

    type: Literal["public-key"] = Field(description="always `public-key`")
    alg: int = Field(description="its COSE algorithm number (-8 EdDSA, -7 ES256, -257 RS256)")


class CredentialDescriptor(Answer):
    """A passkey the account has already (the authenticator makes no second one for the same account)."""

    id: Base64Url = Field(description="the credential's id, base64url")
    type: Literal["public-key"] = Field(description="always `public-key`")
    transports: list[str] = Field(description="how its authenticator is reached, as the browser said")


class AuthenticatorSelection(Answer):
    """What kind of passkey to make: a discoverable one, so that signing in needs no name."""

    residentKey: Literal["required"] = Field(description="a discoverable credential (a passkey)")
    requireResidentKey: bool = Field(description="the same, for older browsers")
    userVerification: Literal["preferred"] = Field(description="verify the user (PIN, biometrics) when possible")


class RegistrationOptions(Answer):
    """The options of `navigator.credentials.create()` (WebAuthn's JSON, base64url bytes) for a new passkey."""

    rp: RelyingParty = Field(description="the site")
    user: PasskeyUser = Field(description="the account (a new one, or the one this browser is signed in to)")
    challenge: Base64Url = Field(description="a single-use challenge, valid a few minutes")
    pubKeyCredParams: list[KeyAlgorithm] = Field(description="the key algorithms accepted, best first")
    timeout: int = Field(ge=1, description="milliseconds the browser may wait for the authenticator")
    excludeCredentials: list[CredentialDescriptor] = Field(description="the account's passkeys already made")
    authenticatorSelection: AuthenticatorSelection = Field(description="the kind of passkey")
    attestation: Literal["none"] = Field(description="no attestation is asked: the server trusts any authenticator")


class AuthenticationOptions(Answer):
    """The options of `navigator.credentials.get()` (WebAuthn's JSON): any passkey of this site, no name needed."""

    challenge: Base64Url = Field(description="a single-use challenge, valid a few minutes")
    timeout: int = Field(ge=1, description="milliseconds the browser may wait for the authenticator")
    rpId: str = Field(description="the site's id: the host name the page was served from")
    allowCredentials: list[CredentialDescriptor] = Field(description="always []: the authenticator offers its own")
    userVerification: Literal["preferred"] = Field(description="verify the user (PIN, biometrics) when possible")


class ExportedGame(Answer):
    """One game of the export: the record of a finished game, or the state of one in play (never its unseen cards).

    A finished daily game is exported as its state, without a record, until its UTC day is over (its record would
    give the day's deal number to anyone who reads the file).
    """

    id: str = Field(description="the game's id")
    created_at: Timestamp = Field(description="when the game started (ISO 8601, UTC)")
    updated_at: Timestamp = Field(description="when it last changed (ISO 8601, UTC)")
    finished_at: Timestamp | None = Field(description="when it ended; null while it is played")
    outcome: Status = Field(description=OUTCOME)
    score: Score | None = Field(description=SCORE)
    daily: date | None = Field(description=DAILY)
    assisted: bool = Field(description=ASSISTED)
    winnable: bool = Field(description="whether the deal was drawn as one the solver proves winnable")
    offline: bool = Field(description=OFFLINE)
    record: GameRecord | None = Field(description="the game record (`docs/records.md`) of a finished game; else null")
    state: GameState | None = Field(description="the game as its player sees it, when there is no record; else null")


class GamesExport(Answer):
    """Every game of the player (the account's, when signed in), oldest first: a file to keep."""

    format: Literal["foursquare-export"] = Field(description="always `foursquare-export`")
    version: Literal[1] = Field(description="the export format's version")
    exported_at: Timestamp = Field(description="when the file was made (ISO 8601, UTC)")
    account: AccountState = Field(description="the account the games belong to (`signed_in` false: this browser's)")
    games: list[ExportedGame] = Field(description="every game, oldest first")
