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
    NightmariumState,
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


ABILITY_SHORT = {  # what an ability does, in a few words (the help and the panels)
    "herald": "reveal 2 cards, place them",
    "weeper": "draw 2 cards",
    "mocker": "play a card",
    "executioner": "take a Creature's top card",
    "scavenger": "discard an incomplete Creature",
    "devourer": "discard a top card of yours",
    "none": "",
}
PART_NAMES = {"legs": "legs", "torso": "torso", "head": "head"}


def seat_name(seat: int, you: int | None = None) -> str:
    """'Player 2', or 'you' for the seat of the person reading (``you``)."""
    return "you" if seat == you else f"Player {seat + 1}"


def subject(seat: int, you: int | None = None) -> str:
    """A seat at the start of a sentence: 'You', 'Player 2'."""
    name = seat_name(seat, you)
    return name[:1].upper() + name[1:]


def whose(seat: int, you: int | None = None) -> str:
    """'your', "Player 2's"."""
    return "your" if seat == you else f"{seat_name(seat)}'s"


def does(seat: int, you: int | None, third: str, base: str) -> str:
    """'Player 2 draws', 'You draw' (``third`` and ``base``: the verb said of Player 2 and of you)."""
    return f"You {base}" if seat == you else f"{subject(seat, you)} {third}"


def card_words(card_id: str) -> str:
    """'Salt Lich (Necronaut legs/torso, Scavenger)'."""
    c = card(card_id)
    ability = "" if c.ability == "none" else f", {ABILITY_NAMES[c.ability]}"
    return f"{c.name} ({LEGION_NAMES[c.legion]} {'/'.join(c.parts)}{ability})"


def abilities_words(cards: tuple[str, ...]) -> str:
    """A Creature's abilities in the order they are performed (head, torso, legs): 'Herald,
    Weeper'; 'no abilities'."""
    named = [ABILITY_NAMES[card(c).ability] for c in reversed(cards) if card(c).ability != "none"]
    return ", ".join(named) or "no abilities"


def creature_words(cards: tuple[str, ...]) -> str:
    """'2 of 3: Drowned Navigator legs, Pale Oarsman torso': the cards bottom up, as built."""
    built = ", ".join(f"{card(c).name} {part}" for c, part in zip(cards, ("legs", "torso", "head"), strict=False))
    return f"{'complete' if len(cards) == 3 else f'{len(cards)} of 3'}: {built}"


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def describe_event(event: Event, you: int | None = None) -> str:
    """An event in words; ``you``: the seat of the person reading it ('You draw ...')."""
    match event:
        case TurnBegins(seat=s):
            return "— Your turn." if s == you else f"— {seat_name(s)}'s turn."
        case Drew(seat=s, cards=cs, count=n):
            drawn = ", ".join(card(c).name for c in cs) if cs else plural(n, "card")
            return f"{does(s, you, 'draws', 'draw')} {drawn}."
        case Discarded(seat=s, cards=cs, why=why):
            names = ", ".join(card(c).name for c in cs)
            third, base, rest = {
                "exchange": ("discards", "discard", ""),
                "pure": ("discards", "discard", " for the pure-legion Creature"),
                "herald": ("cannot place and discards", "cannot place and discard", ""),
                "scavenger": ("loses", "lose", " to the Scavenger"),
                "devourer": ("loses", "lose", " to the Devourer"),
            }[why]
            return f"{does(s, you, third, base)}{rest}: {names}."
        case Reshuffled(cards=n):
            return f"The deck is empty: {plural(n, 'card')} of the discard pile shuffled into a new deck."
        case Played(seat=s, card=c, part=part, by=by):
            third, base, rest = {
                "action": ("plays", "play", ""),
                "mocker": ("plays", "play", " (Mocker)"),
                "herald": ("places", "place", " (Herald)"),
            }[by]
            return f"{does(s, you, third, base)}{rest} {card_words(c)} as {part}."
        case Completed(seat=s, pure=pure, abilities=abilities):
            kind = f"a pure {LEGION_NAMES[pure]} Creature" if pure else "a Creature"
            listed = ", ".join(ABILITY_NAMES[a] for a in abilities if a != "none") or "no abilities"
            extra = "; every opponent discards one of its legion (or any two)" if pure else ""
            return f"{does(s, you, 'completes', 'complete')} {kind}: {listed}{extra}."
        case Revealed(seat=s, cards=cs):
            return f"Herald reveals {', '.join(card_words(c) for c in cs) or 'nothing (no cards left)'}."
        case Ability_(seat=s, ability=a, target_seat=t, card=c):
            if a == "executioner":
                return f"Executioner: {does(s, you, 'takes', 'take')} {card(c).name} from {whose(t, you)} Creature."
            if a == "scavenger":
                return (
                    f"Scavenger: {does(s, you, 'destroys', 'destroy')} an incomplete Creature of {seat_name(t, you)}."
                )
            if a == "devourer":
                own = "your own" if s == you else "their own"
                return f"Devourer: {does(s, you, 'discards', 'discard')} {card(c).name} from {own} Creature."
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
            return (
                f"{does(s, you, 'completes', 'complete')} {plural(n, 'Creature')} and {'win' if s == you else 'wins'}."
            )
    raise TypeError(f"not a Nightmarium event: {event!r}")


def turn_summary(events: tuple[Event, ...], you: int | None = None, turn: int | None = None) -> list[str]:
    """What the other players did, a line a turn ("Player 2: drew 2 cards; played Pale Oarsman
    as torso on Creature 1."), for the person whose turn it is now (``you``); ``turn``: whose turn
    the first events are of (before a "turn begins"); the log has it all."""
    lines: list[str] = []
    phrases: list[str] = []
    unseen = 0  # cards the player drew face down in a row ("drew 2 cards", not twice "drew 1 card")

    def flush() -> None:
        if unseen:
            phrases.append(f"drew {plural(unseen, 'card')}")
        if turn is not None and phrases:
            lines.append(f"{subject(turn, you)}: {'; '.join(phrases)}.")

    for event in events:
        if isinstance(event, TurnBegins):
            flush()
            turn, phrases, unseen = event.seat, [], 0
            continue
        if isinstance(event, Drew) and event.seat == turn and not event.cards:
            unseen += event.count
            continue
        phrase = _phrase(event, turn, you)
        if phrase:
            if unseen:
                phrases.append(f"drew {plural(unseen, 'card')}")
                unseen = 0
            phrases.append(phrase)
    flush()
    return lines


def _phrase(event: Event, turn: int | None, you: int | None) -> str:
    """One event, short, said of the player whose turn it is (another seat named)."""

    def who(seat: int) -> str:
        return "" if seat == turn else f"{subject(seat, you)} "

    match event:
        case Drew(seat=s, cards=cs, count=n):
            got = ", ".join(card(c).name for c in cs) if cs else plural(n, "card")
            return f"{who(s)}drew {got}" if n else ""
        case Discarded(seat=s, cards=cs, why=why):
            names = ", ".join(card(c).name for c in cs)
            return {
                "exchange": f"{who(s)}discarded {names}",
                "pure": f"{who(s)}discarded {names} for the pure Creature",
                "herald": f"could not place {names}",
                "scavenger": f"{who(s)}lost {names} to the Scavenger",
                "devourer": f"{who(s)}lost {names} to the Devourer",
            }[why]
        case Played(card=c, part=part, creature=n, by=by):
            how = {"action": "played", "mocker": "played", "herald": "placed"}[by]
            on = "" if part == "legs" else f" on Creature {n + 1}"
            by_ability = {"action": "", "mocker": " (Mocker)", "herald": " (Herald)"}[by]
            return f"{how} {card(c).name} as {part}{on}{by_ability}"
        case Completed(creature=n, pure=pure, abilities=abilities):
            kind = f"a pure {LEGION_NAMES[pure]} " if pure else ""
            listed = ", ".join(ABILITY_NAMES[a] for a in abilities if a != "none") or "no abilities"
            return f"completed {kind}Creature {n + 1} ({listed})"
        case Ability_(ability="executioner", target_seat=t, target_creature=n, card=c):
            return f"took {card(c).name} from {whose(t, you)} Creature {n + 1} (Executioner)"
        case Ability_(ability="scavenger", target_seat=t, target_creature=n):
            return f"destroyed {whose(t, you)} Creature {n + 1} (Scavenger)"
        case Ability_(ability="devourer", target_creature=n, card=c):
            return f"discarded {card(c).name} from their Creature {n + 1} (Devourer)"
        case NoTarget(ability=a):
            return f"{ABILITY_NAMES[a]} found no target"
        case Reshuffled():
            return "the deck was made again from the discard pile"
        case Won(creatures=n):
            return f"won with {plural(n, 'Creature')}"
    return ""  # Herald's reveal, Weeper and Mocker: their cards say what they did


def describe_action(action: Action, state: NightmariumState | None = None, *, secret: bool = False) -> str:
    """An option in words; with ``state`` (where it is chosen), what it does there: the card a
    target gives up, the abilities a head sets off."""
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
            on = "" if part == "legs" else f" on Creature {n + 1}"
            built = _creature(state, state.turn, n) if state is not None and part == "head" else None
            sets_off = f": completes it ({abilities_words((*built, c))})" if built is not None else ""
            return f"Play {card_words(c)} as {part}{on}{sets_off}"
        case Target(seat=s, creature=n):
            cards = _creature(state, s, n) if state is not None else None
            if state is None or cards is None or not cards:
                return f"{seat_name(s)}'s Creature {n + 1}"
            ability = state.activation.abilities[0] if state.activation and state.activation.abilities else "none"
            top = card_words(cards[-1])
            if ability == "scavenger":
                return f"Discard {seat_name(s)}'s Creature {n + 1}: {creature_words(cards)}"
            if ability == "devourer":
                return f"Discard the top of your Creature {n + 1}: {top}"
            return f"Take {top} from {seat_name(s)}'s Creature {n + 1} ({creature_words(cards)})"
    raise TypeError(f"not a Nightmarium action: {action!r}")


def _creature(state: NightmariumState, seat: int, creature: int) -> tuple[str, ...] | None:
    """The cards of ``seat``'s Creature with the id ``creature`` (None: there is none)."""
    for c in state.players[seat].creatures:
        if c.id == creature:
            return c.cards
    return None
