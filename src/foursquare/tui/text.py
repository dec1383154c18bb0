"""Every user-visible string of the terminal game, in one place (for translation)."""

from __future__ import annotations

TEXT: dict[str, str] = {
    # option errors and questions asked before the game starts
    "cannot_save": "cannot save the game to {path}: {error}",
    "holds_game": "{path} already holds a game ({what})",
    "holds_other": "{path} already exists and is not a game record",
    "what_game": "deal {deal}, {placed} placed",
    "replace_question": "{holds}. Replace it? [y/N] ",
    "not_replaced": "{holds}: left as it was. Choose another --save file, or continue that game with: "
    "foursquare play {path}",
    # line mode
    "deal": "deal {deal}",
    "deal_hidden": "deal: random (its number is shown when the game ends)",
    "variant": "variant: {adjacency} adjacency{buried}",
    "variant_buried": ", covered face-down cards count",
    "card_to_place": "card to place: {card} ({left} left in the stock)",
    "cards_1": "1 card",
    "cards_n": "{count} cards",
    "legal": "legal: {cells}",
    "placed": "placed {card} at {cell}",
    "redone": "redone: {card} at {cell}",
    "undone": "undone: {card} from {cell}",
    "turned_over": "turned over: {flips}",
    "turned_back": "turned back: {flips}",
    "nothing": "nothing",
    "flip": "{card} at {cell} face {way} ({line})",
    "face_down_count": "face down: {count} of {limit}",
    "won": "won: score {score}",
    "lost_face_down": "lost: more than 4 cards face down",
    "lost_stock": "lost: the stock ran out",
    "stopped": "stopped: game not finished, {placed} placed",
    "illegal": "illegal: {error}",
    "bad_command": (
        'bad command {line!r}: expected a cell such as "D4" (or "ROW COL", two integers), u (undo), r (redo) '
        "or q (quit)"
    ),
    "cannot_undo": "cannot undo: no card has been placed",
    "cannot_redo": "cannot redo: there is no undone move to play again",
    "save_failed": "warning: cannot save the game to {path}: {error}",
    # interactive mode
    "title": "Foursquare",
    "deal_number": "Deal {deal}",
    "deal_random": "Random deal (number shown at the end)",
    "deal_winnable": "Winnable deal (number shown at the end)",
    "deal_random_short": "Random deal",
    "deal_winnable_short": "Winnable deal",
    "variant_short": "Variant: {text}",
    "variant_diagonal": "diagonal adjacency",
    "variant_count_buried": "covered face-down cards count",
    "move": "Move {turn} of {total}",
    "move_short": "Move {turn}/{total}",
    "to_place": "Card to place",
    "to_place_short": "Place",
    "stock_left": "Stock: {left} left",
    "stock_short": "stock {left}",
    "face_down_label": "Face down: ",
    "face_down_short": "down ",
    "face_down_value": "{count} of {limit}",
    "face_down_value_short": "{count}/{limit}",
    "face_down_warn_3": "  careful",
    "face_down_warn_4": "  one more loses",
    "last_placed": "You placed {card} at {cell}.",
    "last_redone": "Redone: {card} at {cell}.",
    "last_undone": "Took back {card} from {cell}.",
    "last_restart": "Started over: press r to replay your moves.",
    "last_resumed": "Welcome back: the game goes on where you left it.",
    "why_highest": "{line}: {card} is the highest face-up card, so",
    "why_lowest": "{line}: {card} is the lowest face-up card, so",
    "why_none_face_up": "{line}: no other card was face up, so",
    "turned_back_line": "Turned back:",
    "nothing_turned": "Nothing turned over.",
    "row": "Row",
    "column": "Column",
    "now_up": "  now face up:",
    "now_down": "  now face down:",
    "key_hint": "Press a cell's key, or move with the arrows and press Enter, to place the {card}.",
    "key_hint_short": "Key, arrows+Enter or name: place {card}",
    "no_such_cell": "No cell has the key {key!r}: press a highlighted key, or ? for help.",
    "typing_name": "Cell {letter}_: type its row number (1-7), Esc to cancel.",
    "bad_name": "There is no cell {name}: names run from A1 to G7.",
    "cursor_at": "Cursor on {cell}: Enter or space places the {card} there.",
    "not_legal": "The {card} cannot go to {cell}: {why}",
    "nothing_to_undo": "Nothing to undo.",
    "nothing_to_redo": "Nothing to redo.",
    "thinking": "Thinking about the best moves...",
    "hint_title": "Best moves (chance to win, expected score):",
    "hint_line": "{rank}. {cell} {card_note}win {win:.0%}, score {score:.1f}",
    "hint_short": "{rank}.{cell} {win:.0%}/{score:.1f}",
    "hint_failed": "No hint: {error}",
    "footer_play": "[b]u[/b] undo  [b]r[/b] redo  [b]s[/b] start over  [b]n[/b] new deal  [b]h[/b] hint  "
    "[b]?[/b] help  [b]q[/b] quit",
    "footer_play_short": "[b]u[/b]ndo [b]r[/b]edo [b]h[/b]int [b]?[/b]help [b]q[/b]uit",
    "footer_end": "[b]n[/b] new deal  [b]s[/b] same deal  [b]u[/b] take back the last card  [b]?[/b] help  "
    "[b]q[/b] quit",
    "footer_end_short": "[b]n[/b]ew [b]s[/b]ame [b]u[/b]ndo [b]q[/b]uit",
    "play_another": "Play another? (n)ew random deal / (s)ame deal again / (q)uit",
    "won_banner": "YOU WON!  SCORE {score}",
    "won_score": "All 16 cells face up with {score} cards left in the stock.",
    "lost_banner": "LOST",
    "lost_face_down_long": "More than 4 cards are face down.",
    "lost_stock_long": "The stock ran out before all 16 cells were face up.",
    "end_deal": "This was deal {deal}.",
    "end_analyze": "See your mistakes: foursquare analyze {path}",
    "confirm_new": "Abandon this game and deal a new random one? (y/n)",
    "offer_resume": "Continue your unfinished game ({what}, saved {when})? y continue / n new game",
    "what_resume": "{deal}, {placed} placed",
    "finding_deal": "Looking for a winnable deal...",
    "too_small": "This terminal is {width} x {height}; Foursquare needs at least {min_width} x {min_height}.",
    "too_small_card": "Card to place: ",
    "help_title": "How to play Foursquare",
    "help_close": "Any other key goes back to the game.",
    "help_more": "Space/arrows: scroll; other key: back",
    "goodbye_finished": "Foursquare: deal {deal}, {outcome}.",
    "goodbye_unfinished": "Foursquare: game not finished after {placed}. It is kept in {path}",
    "goodbye_continue": "Continue it with: foursquare play",
    "goodbye_again": "Or play deal {deal} again from the start with: foursquare play --deal {deal}",
    "goodbye_saved": "Saved: {path}",
    "goodbye_analyze": "See your mistakes with: foursquare analyze {path}",
    "outcome_won": "won with score {score}",
    "outcome_lost_face_down": "lost with more than 4 cards face down",
    "outcome_lost_stock": "lost when the stock ran out",
}

HELP_PARAGRAPHS = (
    "[b]Cards.[/b] 40 cards, ace (1, lowest) to 10 (highest) in four suits; only ranks matter. The stock is "
    "shuffled and you only ever see the card you must place next.",
    "[b]Placing.[/b] The first card starts the grid. Each later card goes on an empty cell next to a card "
    "(above, below, left or right; corners too with the diagonal variant) or on top of a pile of fewer than "
    "4 cards. The grid may never grow beyond 4 cells wide or tall.",
    "[b]Turning over.[/b] Look at the other top cards in the new card's row. If the new card is higher than "
    "every face-up one of them, or lower than every face-up one, they all turn over: face up to face down "
    "and face down to face up (so if none is face up, all turn face up). Then the same for its column.",
    "[b]Winning.[/b] All 16 cells of the 4 x 4 square filled, every top card face up. Your score is the number "
    "of cards left in the stock.",
    "[b]Losing.[/b] More than 4 top cards face down (with the count-buried variant, face-down cards under "
    "other cards count too), or the stock runs out.",
    "[b]Tips.[/b] A middle rank in a busy row turns nothing over. Covering a face-down card takes it out of "
    "the count (unless covered cards count). Undo freely: u takes a card back, r plays it again.",
)

#: The in-game keys, for ``?`` and for ``foursquare play --help`` (plain text: no markup).
KEYS_LEGEND = (
    ("i-z, 0-9", "a highlighted key places the card on that cell (a cell keeps its key while it stays legal)"),
    ("arrows", "move the cursor; Enter or space places the card under it"),
    ("a-g 1-7", "a cell's name (column letter, then row number, e.g. e4) moves the cursor there; Enter places"),
    ("mouse", "click a cell to place the card there (where the terminal reports clicks)"),
    ("u, Backspace", "undo the last card;  r  redo it"),
    ("s", "start over (r replays your moves);  n  a new random deal"),
    ("h", "hint: the best moves with their chance to win and expected score, marked #1, #2... on the board"),
    ("?", "this help;  q  quit (the game is kept: foursquare play continues it)"),
)
