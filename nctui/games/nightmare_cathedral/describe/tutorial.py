"""Words of the guided first game (``nctui tutorial``): a 2-player game against a computer seat
on a fixed seed, through setup and the player's first two turns. Each decision the player meets
is explained by its kind (the rulebook section in brackets); the computer's turns are said to be
the other player's."""

from __future__ import annotations

from ..engine.state import GameState
from .names import Words, plural, seat_name, words_for

TUTORIAL_SEED = 2024  # the fixed scenario: always the same board, cards and computer moves
TURNS = 2  # the player's turns the tutorial walks through

INTRO = (
    "Welcome! You are Red, Blue is the computer. Press an option's digit (or ↑/↓ and Enter); "
    "this panel explains each decision. Escape leaves at any time."
)

# The explanation of each decision kind (Decision.kind), as a new player needs it.
EXPLAIN: dict[str, str] = {
    "turn_start": (
        "SETUP 7: the Turn track says which symbol is Marked each turn. Its starting position "
        "decides the order of Marked symbols; any choice is fine for a first game."
    ),
    "conquer": (
        "SETUP 17: each player conquers 2 areas, one a corner. Your units there are your start: "
        "pick areas whose symbols differ, to pay for Ritual steps later."
    ),
    "place_dreamer": (
        "SETUP 19: your Dreamer starts on a Night space. From there you may Conform to the "
        "Day actions next to it when another player performs them."
    ),
    "choose_day": (
        "TURN 1-2: move your Dreamer to a Day space not adjacent to its Night space, and "
        "perform that action (Summon makes Followers, Fortify builds Forts, Maneuver moves, "
        "Perform Ritual climbs, Develop gives cards), or ignore it and draw 2 cards."
    ),
    "discard_dreams": (
        "TURN 3: Dream cards are secret goals worth VP. Keep the ones you can reach; "
        "discard the others to the bottom of the deck."
    ),
    "draw_dream": "TURN 4: draw Dream cards from the offer or the deck until you hold 2.",
    "discard_development": "TURN 5: your hand holds at most 8 Development cards: discard the rest.",
    "react": (
        "REACTION: on another player's turn you may Conform (your Dreamer is next to their Day "
        "action), Dissent (always), or Pass. Each option says what your own card gives; one that "
        "would do nothing now says so."
    ),
    "produce": "PRODUCE: place Followers from your supply in the areas the effect names.",
    "move": (
        "MANEUVER: spend Movement Points to move Followers or your Shaper to an adjacent area. "
        "Moving into enemy units makes a conflict possible."
    ),
    "shaper_move": "Your Shaper moves between areas; it converts enemy units where it stands.",
    "convert": "CONVERSIONS: replace an enemy unit by one of your Followers in your Shaper's area.",
    "build_fort_level": "FORTIFY: add a Fort level in an area you control; Forts score at the end.",
    "pay_fort_level": "FORTIFY: pay the Fort level by removing Followers from the board.",
    "climb": (
        "PERFORM RITUAL: climb the Ritual track with one of your 2 markers. A paid step takes a "
        "Follower from an area of each symbol on the space (or 3 from Limbo)."
    ),
    "climb_pay": "PERFORM RITUAL: choose the areas whose Followers pay for the step.",
    "ritual_bonus": "SPACES: a special space offers a bonus: resolve it or ignore it.",
    "play_upgrade": "DEVELOP: an Upgrade goes on one of your Action cards and improves it for good.",
    "play_ploy": "DEVELOP: a Ploy is played once for its effect.",
    "choose": "The effect offers a choice: each option says what it does.",
    "start_conflict": "CONFLICTS: where opposing units share an area, a conflict may be resolved.",
    "play_combat_card": (
        "CONFLICTS: play cards face down; their ⚔ Attacks and ⛨ Defences decide the damage when both sides reveal them."
    ),
    "retreat": "CONFLICTS: the losing side's units retreat to an adjacent area.",
    "take_victory": "Victory against the Shadows: resolve the card's effect, or draw a card instead.",
    "play_dream": "A Dream card whose conditions are met can be played now for its VP and effect.",
    "keep_card": "Keep the cards you want among those drawn.",
    "add_shadow": "Shadows are the game's own side: add them where the effect says.",
}
GENERIC = "Read the question and the options: each one says what it does, and its context is shown above them."


def tutorial_lines(state: GameState, seat: int) -> tuple[str, ...]:
    """What the tutorial panel says now: the decision due explained, or whose turn it is, or
    that the tutorial is complete."""
    if done(state, seat):
        return (
            "Tutorial complete: you have played setup and two turns. Escape returns to the title; "
            "New game starts a full game.",
        )
    d = state.decision
    if d is None:
        return ("The game is over.",)
    turn = state.players[seat].turns if 0 <= seat < len(state.players) else 0
    where = (
        "Setup"
        if state.phase == "setup"
        else f"Your turn {turn + 1}"
        if state.active == seat
        else (f"{seat_name(state, state.active)}'s turn")
    )
    if d.seat != seat:
        return (f"{where}: {seat_name(state, d.seat)} (the computer) is deciding. Watch the log.",)
    # the welcome only until the first area is conquered: the small terminal's panel has 5 lines
    first = state.phase == "setup" and not any(a.followers[seat] for a in state.areas)
    intro = (INTRO,) if first else ()
    here = now(state, seat)
    return (*intro, f"{where}. {EXPLAIN.get(d.kind, GENERIC)}", *((f"Now: {here}",) if here else ()))


def now(state: GameState, seat: int) -> str:
    """What the decision due means in this game, beside what its kind means in general: the
    tutorial's scenario met step by step ('' when the question and its context say it all)."""
    w = words_for(state.pack)
    d = state.decision
    pl = state.players[seat]
    match d.kind if d is not None else "":
        case "conquer":
            mine = [a for a in state.areas if a.followers[seat]]
            return (
                "your first area: take a corner."
                if not mine
                else f"your second area, beside {w.area(mine[0].id)}: a different symbol helps the Ritual track."
            )
        case "place_dreamer":
            return "the Day spaces next to your Night space are the actions you may Conform to."
        case "react":
            return _react(state, seat, w)
        case "choose_day":
            return (
                f"your Dreamer is on {w.space(pl.dreamer)}; Day spaces next to it are closed to it."
                if pl.dreamer
                else ""
            )
        case "discard_dreams" | "draw_dream":
            return f"you hold {plural(len(pl.dreams), 'Dream card')}: " + (w.cards_list(pl.dreams) or "none")
        case "climb" | "climb_pay" | "ritual_bonus":
            return f"your Ritual markers are on spaces {pl.ritual[0]} and {pl.ritual[1]} (0: the start)."
        case "build_fort_level" | "pay_fort_level":
            return f"you have {plural(pl.forts, 'Fort level')} left and {pl.supply} Followers in supply."
        case "produce" | "add_shadow" | "move":
            n = sum(a.followers[seat] for a in state.areas)
            return f"{plural(n, 'Follower')} of yours {'is' if n == 1 else 'are'} on the board, {pl.supply} in supply."
    return ""


def _react(state: GameState, seat: int, w: Words) -> str:
    d = state.decision
    conform = d is not None and any(getattr(a, "kind", "") == "conform" for a in d.options)
    who, day = seat_name(state, state.active), w.day_short(state.day)
    return (
        f"{who} performs {day}; your Dreamer is next to it, so you may Conform."
        if conform
        else f"{who} performs {day}; your Dreamer is not next to it: Dissent or Pass."
    )


def done(state: GameState, seat: int) -> bool:
    """The player has finished its second turn (a turn counts once it ends), or the game ended."""
    if state.outcome is not None:
        return True
    return 0 <= seat < len(state.players) and state.players[seat].turns >= TURNS
