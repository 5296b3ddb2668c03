"""Words for actions: the options of a decision as the deciding player reads them, and a
decision in the timeline (another seat's secret decision without its card)."""

from __future__ import annotations

from ..engine import cards
from ..engine.actions import (
    Action,
    AddShadow,
    BreakTie,
    BuildFortLevel,
    ChooseAction,
    ChooseArea,
    ChooseDay,
    ChooseNightmare,
    ChooseOption,
    ChooseTurnStart,
    ClimbMarker,
    Conquer,
    ConvertUnit,
    DevourUnit,
    DiscardDevelopment,
    DiscardDream,
    Done,
    KeepCard,
    KeepDreams,
    MoveFollower,
    MoveNightmare,
    MoveShaper,
    PayFollower,
    PayLimbo,
    PlaceDreamer,
    PlayCombatCard,
    PlayDream,
    PlayPloy,
    PlaysFirst,
    PlayUpgrade,
    ProduceIn,
    React,
    RecoverTo,
    RetreatTo,
    ReturnFromLimbo,
    StartConflict,
    TakeBonus,
    TakeDream,
    TakePiece,
    TakeVictory,
)
from ..engine.king_turn import ahead
from ..engine.state import GameState
from ..engine.work import ChooseWork, KingManeuverWork, KingPoweredWork, KingTuckWork, ReactWork
from .names import Words, combat_icons, plural, seat_name, side_does, side_name, words_for
from .steps import describe_steps, nothing_text


def describe_option(action: Action, state: GameState, nothing: str = "") -> str:
    """An option of the decision due, and, when it would do nothing now (``nothing``: an
    ``engine.futile.Nothing`` from the facts), why, near its start so that a narrow panel never
    cuts it off: 'Dissent (Ritual) · does nothing now, nothing to pay with: climb 1 open step…'."""
    if isinstance(action, TakeDream) and action.card:  # a Dream offered: what it is worth and asks
        return describe_action(action, state) + _dream_terms(words_for(state.pack), action.card)
    if isinstance(action, ChooseDay) and king_conforms_to(state, action.action):  # solo: why the King conforms
        return f"{_option(action, state, nothing)} · the King conforms"
    return _option(action, state, nothing)


def _option(action: Action, state: GameState, nothing: str) -> str:
    if not nothing:
        return describe_action(action, state)
    flag = f"does nothing now, {nothing_text(nothing)}"
    if isinstance(action, React):
        label, effect = _reaction_parts(action.kind, state, words_for(state.pack))
        return f"{label} · {flag}: {effect}" if effect else f"{label} · {flag}"
    return f"({flag}) {describe_action(action, state)}"


def king_conforms_to(state: GameState, day: str) -> bool:
    """Solo, THE KING CONFORMS: your Dreamer on ``day`` is ahead of the King's (the 2 Day spaces
    after its Dreamer): it puts a Cultist there and on one of its Dreams (else it dissents)."""
    king = state.king
    return king is not None and state.phase != "setup" and state.active != king.seat and day in ahead(state)


def _dream_terms(w: Words, card_id: str) -> str:
    """' (4 VP, Ω Omen: On your turn: control areas showing at least 5 different symbols)': what
    a Dream in the offer is worth and asks (PLAYING DREAM CARDS), to choose one by."""
    dream = next((d for d in w.pack.cards.dreams if d.id == card_id), None)
    return f" ({dream.vp} VP: {dream.text})" if dream is not None else ""


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def _reaction(kind: str, state: GameState, w: Words) -> str:
    """REACTION: 'Dissent (Summon): take 1 Follower back from Limbo', from the reactor's own card."""
    label, effect = _reaction_parts(kind, state, w)
    return f"{label}: {effect}" if effect else label


def _reaction_parts(kind: str, state: GameState, w: Words) -> tuple[str, str]:
    """('Dissent (Summon)', 'take 1 Follower back from Limbo')."""
    name = kind.capitalize()
    if not state.day:
        return name, ""
    label = f"{name} ({w.day_short(state.day)})"
    seat = state.work.seat if isinstance(state.work, ReactWork) else -1
    if not 0 <= seat < len(state.players):
        return label, ""
    effect = cards.action_effect(state, seat, state.day, kind)
    text = effect.text.strip().rstrip(".") if effect.text.strip() not in ("", "-") else describe_steps(effect.steps, w)
    return label, text[:1].lower() + text[1:]


def describe_action(action: Action, state: GameState) -> str:
    """The option as the deciding player reads it, e.g. 'Conquer Ash Nave'."""
    w = words_for(state.pack)
    match action:
        case ChooseTurnStart(position=p):
            track = w.pack.tracks.turn
            sym = w.symbol(track[p]) if 0 <= p < len(track) else "?"
            return f"Start the Turn track at position {p + 1}: {sym}"
        case Conquer(area=a):
            sym = w.symbol(w.areas[a].symbol, name=False) if a in w.areas else ""
            corner = " (corner)" if a in w.corners else ""
            return f"Conquer {w.area(a)} {sym}{corner}".replace("  ", " ")
        case PlaceDreamer(night=n):
            night = w.nights.get(n)
            beside = f" (next to {', '.join(w.day_short(d) for d in night.adjacent)})" if night else ""
            return f"{w.space(n)}{beside}"
        case ChooseDay(action=a, ignore=True):
            return f"{w.day_short(a)}: ignore it and draw 2 cards"
        case ChooseDay(action=a):
            return f"{w.day_short(a)}: perform it"
        case DiscardDream(card=c):
            return f"Discard {w.card(c)}"
        case KeepDreams():
            return "Keep the rest"
        case TakeDream(card=""):
            return "Draw blind from the Dream deck"
        case TakeDream(card=c):
            return f"Take {w.card(c)} from the offer"
        case DiscardDevelopment(card=c):
            return f"Discard {w.card(c)}"
        case React(kind="conform" | "dissent" as kind):
            return _reaction(kind, state, w)
        case React(kind="pass"):
            return "Pass"
    return _describe_effect_action(action, state, w)


def _describe_effect_action(action: Action, state: GameState, w: Words) -> str:
    """The choices made while an effect, a conflict or a Dream window is being resolved."""
    match action:
        case Done():
            return "Done (stop here)"
        case ProduceIn(area=a):
            return f"Produce in {w.area(a)}"
        case MoveFollower(source=s, to=t):
            return f"Move a Follower: {w.area(s)} → {w.area(t)}"
        case MoveShaper(to=t):
            return f"Move your Shaper to {w.area(t)}"
        case ConvertUnit(area=a, side=side):
            return f"Convert a unit of {side_name(state, side)} in {w.area(a)}"
        case BuildFortLevel(area=a):
            return f"Add a Fort level in {w.area(a)}"
        case PayFollower(area=a):
            return f"Remove a Follower from {w.area(a)}"
        case PayLimbo():
            return "Pay with 3 Followers from Limbo"
        case ReturnFromLimbo(count=n):
            held = state.players[state.decision.seat].limbo if state.decision is not None else 0
            return f"Take {'all ' if n == held > 1 else ''}{plural(n, 'Follower')} back from Limbo to your supply"
        case ClimbMarker(marker=m):
            return f"Climb with Ritual marker {m + 1}"
        case TakeBonus(take=True):
            return "Resolve the space's bonus"
        case TakeBonus(take=False):
            return "Ignore the space's bonus"
        case PlayUpgrade(card=c):
            return f"Play the Upgrade {w.card(c)}"
        case PlayPloy(card=c):
            return f"Play the Ploy {w.card(c)}"
        case KeepCard(card=c):
            return f"Keep {w.card(c)}"
        case ChooseOption(index=i):
            work = state.work
            if isinstance(work, ChooseWork) and 0 <= i < len(work.options):
                return _sentence(describe_steps(work.options[i], w))
            return f"The effect's choice {i + 1}"
        case ChooseAction(action=a):
            if isinstance(state.work, KingTuckWork):
                return f"Tuck the card under the King's {w.day_short(a)} card"
            if isinstance(state.work, KingPoweredWork):
                return f"Power up the King's {w.day_short(a)} card"
            return f"Conform with your {w.day_short(a)} card"
        case ChooseArea(area=a):
            if isinstance(state.work, KingManeuverWork):
                return f"Place the King's Follower in {w.area(a)}"
            return f"Choose {w.area(a)}"
        case AddShadow(area=a):
            return f"Add a Shadow to {w.area(a)}"
        case RecoverTo(area=a):
            return f"Bring a Follower from Limbo to {w.area(a)}"
        case StartConflict(area=a, sides=(x, y)):
            return f"Conflict in {w.area(a)}: {side_name(state, x)} against {side_name(state, y)}"
        case PlaysFirst(seat=s):
            return f"{seat_name(state, s)} plays cards first"
        case PlayCombatCard(card=c):
            icons = combat_icons(state, c)
            return f"Play {w.card(c)} face down" + (f" ({icons})" if icons else "")
        case BreakTie(winner=s):
            return f"{side_does(state, s, 'wins', 'win')} the tie"
        case RetreatTo(area=a):
            return f"Retreat to {w.area(a)}"
        case TakeVictory(take=True):
            return "Resolve the Victory effect"
        case TakeVictory(take=False):
            return "Draw 1 Development card instead"
        case PlayDream(card=c):
            return f"Play the Dream {w.card(c)}"
        case ChooseNightmare(number=n):
            return f"Command Nightmare {w.nightmare(n)}"
        case MoveNightmare(to=t):
            return f"Move the Nightmare to {w.area(t)}"
        case DevourUnit(area=a, side=side):
            return f"Devour a unit of {side_name(state, side)} in {w.area(a)}"
        case TakePiece(piece=p):
            tile = dict(state.path_tiles).get(p)
            return f"Place piece {p}" + (f" and take the Reward tile {w.card(tile)}" if tile else "")
    return type(action).__name__


# ---------------------------------------------------------------------------------------------
# Events


_SECRET_WORDS: dict[type, str] = {
    DiscardDream: "Discard a Dream card",
    KeepCard: "Keep one of the cards drawn",
    PlayCombatCard: "Play a combat card face down",
}


def describe_secret_action(action: Action) -> str:
    """A decision whose card only its seat may know, as the others read it."""
    return _SECRET_WORDS.get(type(action), type(action).__name__)


def describe_choice(action: Action, state: GameState, seat: int, number: int, *, public: bool) -> str:
    """The option a person just picked, echoed back ('Blue chose 2: Conquer Ash Nave'), so a
    press that went astray (a numbering shifted by a page or a new option) is seen at once.
    ``public``: said where others may be looking (a hot-seat hand-off), so a face-down card
    stays unnamed."""
    words = (
        describe_secret_action(action) if public and type(action) in _SECRET_WORDS else describe_action(action, state)
    )
    return f"{seat_name(state, seat)} chose {number}: {words}"
