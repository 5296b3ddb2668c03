"""Every word of the dice game: colours, faces, refusals, events, actions."""

from __future__ import annotations

from typing import Literal

from .content import content
from .state import (
    Action,
    BecomeNightmare,
    ChooseTrack,
    Consume,
    Consumed,
    Die,
    Drawn,
    DreamAgain,
    DreamersState,
    Effect,
    Event,
    GameEnds,
    Give,
    PickDie,
    Placed,
    Reroll,
    Rerolled,
    Resolve,
    Rest,
    Rested,
    Return,
    Rolled,
    RowFilled,
    SendMinions,
    ShadowNext,
    Skip,
    Taken,
    TurnBegins,
    UseAbility,
)

Reason = Literal[
    "over",
    "not_now",
    "track",
    "return",
    "roll",
    "shadow",
    "envy",
    "fear",
    "imprison",
    "ability",
    "tie",
    "rest",
    "nightmare",
    "minion_return",
    "minion_give",
]

REFUSALS: dict[Reason, str] = {
    "over": "End of the Game: the game is over",
    "not_now": "That is not one of the choices open now",
    "track": "1. Choose a Sleep Track: each turn begins by choosing one",
    "return": "2. Draw and Select Dreams: return dreams you drew to the bag",
    "roll": "3. Roll and Resolve Dreams: reroll (spending a Power of that colour) or resolve",
    "shadow": "Order of Resolution: choose which Shadow to resolve next",
    "envy": "Shadow of Envy: the next player selects a dream on the card, not a Shadow of Envy",
    "fear": "Shadow of Primeval Fear: you may move one Exhaust dream to your Hunt row",
    "imprison": "Shadow of Imprisonment: rotate any one upright Exhaust dream to its side",
    "ability": "Nightmare Abilities: the Nightmare may use its ability",
    "tie": "Shadow Row: you become the Nightmare of one of the tied colours",
    "rest": "5. Rest or Dream Again",
    "nightmare": "Turn Order (Nightmare): Consume Power or Send Minions",
    "minion_return": "Send Minions: return one of the two dreams",
    "minion_give": "Send Minions: give the other to a Dreamer",
}

FACES = {"power": "Power", "double": "double Power", "hunt": "Hunt", "exhaust": "Exhaust", "shadow": "Shadow"}
EFFECTS = {
    "depths": ("Shadow of the Depths: a dream drawn, rolled and added", "Shadow of the Depths: the bag is empty"),
    "envy": ("Shadow of Envy: a dream rerolled", "Shadow of Envy: no dream to reroll"),
    "imprisonment": (
        "Shadow of Imprisonment: an Exhaust dream turned on its side (it counts twice)",
        "Shadow of Imprisonment: no upright Exhaust dream",
    ),
    "fear": (
        "Shadow of Primeval Fear: an Exhaust dream moved to the Hunt row",
        "Shadow of Primeval Fear: no Exhaust dream moved",
    ),
    "drown": ("the Nightmare drowns the Dreamer: one more dream rolled", "the bag is empty"),
    "covet": ("the Nightmare covets: one Power dream back to the bag", "no Power to take"),
    "shackle": ("the Nightmare shackles: an Exhaust dream turned on its side", "no Exhaust dream to turn"),
    "terror": ("the Nightmare terrifies: an Exhaust dream moved to the Hunt row", "no Exhaust dream to move"),
    "tempt": ("the Nightmare tempts: the Dreamer must Dream Again if they can", ""),
}


# A dream on the screen is its colour's letter and its face's (the face table explains them)
LETTERS = ("D", "E", "I", "F")  # the Depths, Envy, Imprisonment, Primeval Fear
FACE_LETTERS = {"power": "1", "double": "2", "hunt": "H", "exhaust": "X", "shadow": "S"}
FACE_LEGEND = "1 Power  2 double Power  H Hunt  X Exhaust (X2 on its side)  S Shadow"
FACE_LEGEND_SHORT = "1/2 Power H Hunt X Exhaust S Shadow"  # 80x24: one line (the help says X2)
ABILITY_WORDS = {  # a Nightmare's ability, as its card says it
    "drown": "drown: the Dreamer rolls one more dream",
    "covet": "covet: a Power dream of the Dreamer back to the bag",
    "shackle": "shackle: an Exhaust dream turned on its side",
    "terror": "terrify: an Exhaust dream moved to the Hunt row",
    "tempt": "tempt: the Dreamer must Dream Again",
}
ROWS_LEGEND = "Full rows: Hunt eliminates, Exhaust makes you Rest, Shadow makes a Nightmare"


def die_code(d: Die) -> str:
    """'DS', 'E1', 'IX2' (an Exhaust on its side)."""
    return f"{LETTERS[d.colour]}{FACE_LETTERS[d.face]}{'2' if d.sideways else ''}"


def faces_code(colour: int) -> str:
    """The six faces of a colour's dice: '1 1 H X S S'."""
    return " ".join(FACE_LETTERS[f] for f in content().colour[colour].faces)


def colours_words(colours: tuple[int, ...]) -> str:
    """'Envy x2, the Depths': dreams drawn, by colour."""
    return ", ".join(
        colour_name(c) + (f" x{colours.count(c)}" if colours.count(c) > 1 else "") for c in sorted(set(colours))
    )


def colour_name(i: int) -> str:
    return content().colour[i].name


def die_words(d: Die) -> str:
    side = " (on its side)" if d.sideways else ""
    return f"{FACES[d.face]} of {colour_name(d.colour)}{side}"


def a_or_an(words: str) -> str:
    """'a Power of Envy', 'an Exhaust of the Depths'."""
    return f"{'an' if words[:1].lower() in 'aeiou' else 'a'} {words}"


def seat_name(seat: int, you: int | None = None) -> str:
    """'Player 2', or 'you' for the seat of the person reading (``you``)."""
    return "you" if seat == you else f"Player {seat + 1}"


def _said(seat: int, you: int | None, third: str, base: str) -> str:
    """'Player 2 rolls', 'You roll'."""
    return f"You {base}" if seat == you else f"{seat_name(seat)} {third}"


def _whose(seat: int, you: int | None) -> str:
    return "your" if seat == you else f"{seat_name(seat)}'s"


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _dice(dice: tuple[Die, ...]) -> str:
    """'I2 IX: double Power of Imprisonment, Exhaust of Imprisonment': the letters the card
    shows, then the words."""
    return f"{' '.join(die_code(d) for d in dice)}: {', '.join(die_words(d) for d in dice)}" if dice else "nothing"


def describe_event(event: Event, you: int | None = None) -> str:
    """An event in words; ``you``: the seat of the person reading ('You roll ...')."""
    match event:
        case TurnBegins(seat=s, final=final):
            return f"— {_whose(s, you).capitalize()} {'final ' if final else ''}turn."
        case Drawn(seat=s, colours=cs):
            return f"{_said(s, you, 'draws', 'draw')} {plural(len(cs), 'dream')}: {colours_words(cs) or 'none'}."
        case Rolled(seat=s, dice=ds):
            return f"{_said(s, you, 'rolls', 'roll')} {_dice(ds)}."
        case Rerolled(seat=s, spent=spent, dice=ds):
            return f"{_said(s, you, 'spends', 'spend')} {a_or_an(die_words(spent))} to reroll: {_dice(ds)}."
        case Placed(seat=s, die=d, row=row):
            return f"{_said(s, you, 'places', 'place')} {a_or_an(die_words(d))} in the {row.capitalize()} row."
        case Taken(nightmare=n, dreamer=dr, die=d):
            return f"The Nightmare ({seat_name(n, you)}) takes {_whose(dr, you)} {die_words(d)} as Power."
        case Effect(seat=s, what=what, done=done):
            return EFFECTS[what][0 if done else 1] + "."
        case RowFilled(seat=s, row="hunt"):
            return f"{_whose(s, you).capitalize()} Hunt row is full: eliminated, every dream back to the bag."
        case RowFilled(seat=s, row="exhaust", colour=c):
            lost = f"every Power of {colour_name(c)} goes back to the bag" if c >= 0 else "the bag is empty"
            must = "you must" if s == you else "they must"
            return f"{_said(s, you, 'is', 'are')} exhausted: {lost}; {must} Rest."
        case RowFilled(seat=s, row="shadow", colour=c):
            return f"{_said(s, you, 'becomes', 'become')} the Nightmare of {colour_name(c)}."
        case Rested(seat=s, returned=n):
            return f"{_said(s, you, 'rests', 'rest')}: {plural(n, 'dream')} back to the bag."
        case Consumed(seat=s, victim=v, die=d):
            return f"The Nightmare ({seat_name(s, you)}) consumes {_whose(v, you)} {die_words(d)}."
        case GameEnds(reason=reason, winners=w, power=p):
            why = {
                "power": "15 Power reached and the final turns played",
                "no_dreamers": "no Dreamers remain",
                "bag": "the bag is empty",
            }[reason]
            scores = ", ".join(f"{seat_name(i, you)} {v}" for i, v in enumerate(p))
            who = " and ".join(seat_name(x, you) for x in w)
            verb = ("win" if w == (you,) else "wins") if len(w) == 1 else "share the win"
            return f"The game ends ({why}): {scores}. {who[:1].upper()}{who[1:]} {verb}."
    raise TypeError(f"not an event of the dice game: {event!r}")


def describe_action(action: Action, state: DreamersState | None = None) -> str:
    """An option in words; with ``state`` (where it is chosen), what it does there: which dream
    a choice of one dream is, and that a choice of the Rest decision is a Rest."""
    phase = state.phase if state is not None else ""
    match action:
        case ChooseTrack(track=t):
            track = content().track[t]
            return f"{track.name}: draw {', then '.join(map(str, track.draws))}"
        case Return(colour=c) if phase == "minion_return":
            return f"Return a dream of {colour_name(c)} to the bag (the other goes to a Dreamer)"
        case Return(colour=c):
            return f"Return a dream of {colour_name(c)} to the bag"
        case Reroll(colour=c, faces=fs):
            return f"Spend a Power of {colour_name(c)} to reroll {', '.join(FACES[f] for f in fs)}"
        case Resolve():
            return "Resolve the dreams"
        case ShadowNext(colour=c):
            return f"Resolve the Shadow of {colour_name(c)}"
        case PickDie(row=row, colour=c, index=i):
            die = _die(state, action)
            what = f"the {die_words(die)}" if die is not None else f"the dream of {colour_name(c)}"
            where = f"{what} in the {row.capitalize()} row" + (f" (#{i + 1})" if i else "")
            return {
                "rest": f"Rest: return only {what} ({row.capitalize()} row{f', #{i + 1}' if i else ''})",
                "envy": f"Reroll {where}",
                "fear": f"Move {where} to the Hunt row",
                "imprison": f"Turn {where} on its side",
            }.get(phase, where[:1].upper() + where[1:])
        case Skip() if phase == "fear":
            return "Do not move an Exhaust dream"
        case Skip():
            return "Do not use the Nightmare's ability"
        case UseAbility() if state is not None and state.trigger[0] >= 0:
            colour = state.seats[state.trigger[0]].nightmare
            ability = _ability_of(state, colour)
            return f"Use the Nightmare's ability, {ABILITY_WORDS[ability]}" if ability else "Use the ability"
        case UseAbility():
            return "Use the Nightmare's ability"
        case BecomeNightmare(colour=c):
            return f"Become the Nightmare of {colour_name(c)}"
        case Rest():
            return "Rest: return every dream on the card to the bag (Power stays)"
        case DreamAgain() if state is not None and state.track >= 0:
            draws = content().track[state.track].draws
            more = f" (draw {draws[state.step + 1]})" if state.step + 1 < len(draws) else ""
            return f"Dream Again: one step deeper{more}"
        case DreamAgain():
            return "Dream Again: one step deeper"
        case Consume(seat=s, face=f):
            return f"Consume Power: take {a_or_an(FACES[f])} from {seat_name(s)}"
        case SendMinions():
            return "Send Minions: draw two dreams, return one, give one to a Dreamer"
        case Give(seat=s):
            return f"Give the dream to {seat_name(s)}"
    raise TypeError(f"not an action of the dice game: {action!r}")


def _die(state: DreamersState | None, pick: PickDie) -> Die | None:
    """The dream a PickDie names on the actor's card (None without a state or when it is not there)."""
    if state is None:
        return None
    card = state.seats[state.actor].card
    row = card.shadows[pick.colour] if pick.row == "shadow" else getattr(card, pick.row, ())
    return row[pick.index] if 0 <= pick.index < len(row) else None


def _ability_of(state: DreamersState, colour: int) -> str:
    """The ability of the Nightmare card of ``colour`` in play (Temptation where it replaced one)."""
    cid = content().colour[colour].id
    wanted = "temptation" if state.config.temptation == cid else cid
    return next((card.ability for card in content().nightmare if card.id == wanted), "")
