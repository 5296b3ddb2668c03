"""Every word of Nightmarium: cards, refusals, events, decisions."""

from __future__ import annotations

from typing import Literal

from .cards import card
from .state import (
    Ability_,
    Action,
    Completed,
    Discarded,
    Done,
    Draw,
    Drew,
    Event,
    Exchange,
    NoTarget,
    Pick,
    Play,
    Played,
    Reshuffled,
    Revealed,
    Switched,
    Target,
    TurnBegins,
    Won,
)

Reason = Literal[
    "over", "pure_discard", "herald", "ability", "exchange", "not_in_hand", "same_legion", "placement", "not_now"
]

REFUSALS: dict[Reason, str] = {
    "over": "The game is over: a player has completed the Creatures needed to win",
    "pure_discard": "Activating Abilities: an opponent discards for the pure-legion Creature first",
    "herald": "Herald: the revealed cards are placed (or discarded) first",
    "ability": "Activating Abilities: the completed Creature's abilities are performed first, one at a time",
    "exchange": "Action B: pick the cards to discard, then finish",
    "not_in_hand": "Action C: you play a card from your hand",
    "same_legion": "Action C: two cards played in one turn must belong to the same legion",
    "placement": "Action C: legs begin a Creature, a torso goes on legs, a head on legs and torso "
    "(and no more Creatures than needed to win)",
    "not_now": "That is not one of the actions open now",
}

LEGION_NAMES = {
    "necronauts": "Necronaut",
    "insektoids": "Insektoid",
    "chimeridae": "Chimeridae",
    "homunculi": "Homunculus",
}
ABILITY_NAMES = {
    "herald": "Herald",
    "weeper": "Weeper",
    "mocker": "Mocker",
    "executioner": "Executioner",
    "scavenger": "Scavenger",
    "devourer": "Devourer",
    "none": "no ability",
}
ABILITY_WORDS = {
    "herald": "reveal two cards from the deck and place them if you can",
    "weeper": "draw two cards",
    "mocker": "play one card from your hand",
    "executioner": "take the top card of another player's Creature into your hand",
    "scavenger": "discard another player's incomplete Creature",
    "devourer": "discard the top card of another of your Creatures",
    "none": "",
}


def seat_name(seat: int) -> str:
    return f"Player {seat + 1}"


def card_words(card_id: str) -> str:
    """'Salt Lich (Necronaut legs/torso, Scavenger)'."""
    c = card(card_id)
    ability = "" if c.ability == "none" else f", {ABILITY_NAMES[c.ability]}"
    return f"{c.name} ({LEGION_NAMES[c.legion]} {'/'.join(c.parts)}{ability})"


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def describe_event(event: Event) -> str:
    match event:
        case TurnBegins(seat=s):
            return f"— {seat_name(s)}'s turn."
        case Drew(seat=s, cards=cs, count=n):
            if cs:
                return f"{seat_name(s)} draws {', '.join(card(c).name for c in cs)}."
            return f"{seat_name(s)} draws {plural(n, 'card')}."
        case Discarded(seat=s, cards=cs, why=why):
            names = ", ".join(card(c).name for c in cs)
            what = {
                "exchange": "discards",
                "pure": "discards for the pure-legion Creature",
                "herald": "cannot place and discards",
                "scavenger": "loses to the Scavenger",
                "devourer": "loses to the Devourer",
            }[why]
            return f"{seat_name(s)} {what}: {names}."
        case Reshuffled(cards=n):
            return f"The deck is empty: {plural(n, 'card')} of the discard pile shuffled into a new deck."
        case Played(seat=s, card=c, part=part, by=by):
            how = {"action": "plays", "mocker": "plays (Mocker)", "herald": "places (Herald)"}[by]
            return f"{seat_name(s)} {how} {card_words(c)} as {part}."
        case Completed(seat=s, pure=pure, abilities=abilities):
            kind = f"a pure {LEGION_NAMES[pure]} Creature" if pure else "a Creature"
            listed = ", ".join(ABILITY_NAMES[a] for a in abilities if a != "none") or "no abilities"
            extra = "; every opponent discards one of its legion (or any two)" if pure else ""
            return f"{seat_name(s)} completes {kind}: {listed}{extra}."
        case Revealed(seat=s, cards=cs):
            return f"Herald reveals {', '.join(card_words(c) for c in cs) or 'nothing (no cards left)'}."
        case Ability_(seat=s, ability=a, target_seat=t, card=c):
            if a == "executioner":
                return f"Executioner: {seat_name(s)} takes {card(c).name} from {seat_name(t)}'s Creature."
            if a == "scavenger":
                return f"Scavenger: {seat_name(s)} destroys an incomplete Creature of {seat_name(t)}."
            if a == "devourer":
                return f"Devourer: {seat_name(s)} discards {card(c).name} from their own Creature."
            return f"{ABILITY_NAMES[a]}: {ABILITY_WORDS[a]}."
        case NoTarget(ability=a, lost=lost):
            rest = f"; {', '.join(ABILITY_NAMES[x] for x in lost)} not performed" if lost else ""
            return f"{ABILITY_NAMES[a]} has no target: the activation ends{rest}."
        case Switched(lost=lost):
            return (
                f"Another Creature is complete: the first one's {', '.join(ABILITY_NAMES[x] for x in lost)} "
                "will not be performed."
            )
        case Won(seat=s, creatures=n):
            return f"{seat_name(s)} completes {plural(n, 'Creature')} and wins."
    raise TypeError(f"not a Nightmarium event: {event!r}")


def describe_action(action: Action, *, secret: bool = False) -> str:
    match action:
        case Draw():
            return "Draw a card"
        case Exchange():
            return "Discard cards and draw half as many"
        case Done():
            return "Done: discard the picked cards"
        case Pick(card=c):
            return "Pick a card" if secret else f"Pick {card_words(c)}"
        case Play(card=c, part=part, creature=n):
            return f"Play {card_words(c)} as {part}" + ("" if part == "legs" else f" on Creature {n + 1}")
        case Target(seat=s, creature=n):
            return f"{seat_name(s)}'s Creature {n + 1}"
    raise TypeError(f"not a Nightmarium action: {action!r}")
