"""Words for the context of the decision due, shown under its question: what is being resolved
(which card or effect, step k of n), what the step costs, and what the deciding player has to
pay with. From the viewer's state alone (the frames, the Work and the player's own counts)."""

from __future__ import annotations

from ..content import schema as cs
from ..engine import cards, ritual
from ..engine.events import HIDDEN
from ..engine.king_turn import ahead, power
from ..engine.state import AreaState, GameState
from ..engine.work import (
    ChooseDayWork,
    ClimbPayWork,
    ClimbWork,
    ConquerWork,
    DreamWork,
    Fight,
    FortPayWork,
    FortWork,
    Frame,
    NightmareWork,
    ReactWork,
    RetreatWork,
    fight_of,
)
from .names import SHADOWS, Words, combat_icons, plural, side_name, words_for
from .steps import describe_step

# What a frame resolves, by its source: the words, and the card's effect it holds.
_SOURCE = {
    "day": ("the Day action of", "day"),
    "conform": ("the Conform of", "conform"),
    "dissent": ("the Dissent of", "dissent"),
    "ploy": ("the Ploy", "effect"),
    "dream": ("the Dream", "effect"),
    "reward": ("the Reward tile", "effect"),
    "victory": ("the Victory of", "victory"),
    "defeat": ("the Defeat of", "defeat"),
    "nightmare": ("the command of Nightmare", "command"),
    "cathedral": ("the Cathedral piece", ""),
    "bonus": ("a special space's bonus", ""),
    "choice": ("the option chosen", ""),
    "develop": ("Develop", ""),
    "climb": ("the climb", ""),
}


def describe_context(state: GameState) -> tuple[str, ...]:
    """Lines of context for the decision due ('' lines left out); () when there is none."""
    if state.decision is None or state.work is None:
        return ()
    w = words_for(state.pack)
    situation = _situation(state, w)
    resolving, cost = _resolving(state, w), _cost(state, w)
    if not (resolving or cost):  # a turn's own decision: the question says it all, or the situation
        return situation
    return tuple(line for line in (*situation, resolving, cost, _means(state, w)) if line)


def king_watch(state: GameState, w: Words) -> tuple[str, ...]:
    """Solo: the King's Dreams with their Cultists and each action's Power (KING'S TURN 3), then
    why it will conform or dissent at the end of your turn (THE KING CONFORMS: the 2 Day spaces
    after its Dreamer), so the Day action is chosen with them in view."""
    king = state.king
    if king is None:
        return ()
    dreams = [
        f"{w.card(card)} {king.dream_cultists[k] if k < len(king.dream_cultists) else 0}/{_vp(w, card)}"
        for k, card in enumerate(king.dreams)
    ]
    rondel = w.pack.matrix.rondel
    powers = " ".join(
        f"{w.day_short(a)[:3]} {power(king, i)}" for i, a in enumerate(rondel) if i < len(king.card_cultists)
    )
    first, second = ahead(state)
    return (
        f"King: Dreams {', '.join(dreams) or 'none'} Cultists · Power {powers}",
        f"The King conforms to {w.day_short(first)} or {w.day_short(second)} (after its Dreamer on "
        f"{w.day_short(king.dreamer)}): a Cultist there and on a Dream; else it dissents, drawing a card",
    )


def _vp(w: Words, card: str) -> int:
    return next((d.vp for d in w.pack.cards.dreams if d.id == card), 0)


def _situation(state: GameState, w: Words) -> tuple[str, ...]:
    """What the decisions outside card effects need known: the conflict's sides (CONFLICTS),
    whose action a reaction answers (REACTION), the Dreams in hand (PLAYING DREAM CARDS), the
    Nightmares' places (COMMAND NIGHTMARES), the areas conquered so far (SETUP 17)."""
    seat = state.decision.seat if state.decision is not None else -1
    work = state.work
    fight = fight_of(work)
    if fight is not None:
        a = next(x for x in state.areas if x.id == fight.area)
        sides = " vs ".join(_side_units(state, a, side) for side in fight.sides)
        line = f"Conflict in {w.area(fight.area)}: {sides}"
        loser = next((side for side in fight.sides if side != fight.winner), SHADOWS)
        if isinstance(work, RetreatWork):
            line += f"; {side_name(state, loser)} lost: the units retreat to adjacent areas"
        played = _played(state, fight, w)
        hand = state.players[seat].hand if 0 <= seat < len(state.players) else ()
        playing = fight.order[:1] == (seat,) and not _resolving(state, w)  # else the "You have" line says it
        return (line, played, f"You have {plural(len(hand), 'card')} in hand") if playing else (line, played)
    match work:
        case ReactWork() if 0 <= state.active < len(state.players) and state.active != seat:
            day = w.day_short(state.day)
            does = f"moved to {day} and ignored it" if state.ignored else f"performs {day}"
            return (f"{side_name(state, state.active)} {does}: Conform or Dissent resolve your own {day} card's part",)
        case ChooseDayWork() if state.king is not None:
            return king_watch(state, w)
        case DreamWork() if 0 <= seat < len(state.players) and state.players[seat].dreams:
            return ("Your Dreams: " + w.cards_list(state.players[seat].dreams),)
        case NightmareWork(left=left):
            return (f"{plural(left, 'command')} to give",)
        case ConquerWork() if 0 <= seat < len(state.players):
            mine = [w.area(x.id) for x in state.areas if x.followers[seat]]
            return ("Your areas so far: " + (", ".join(mine) if mine else "none yet (one of your 2 must be a corner)"),)
    return ()


def _played(state: GameState, fight: Fight, w: Words) -> str:
    """'Cards played: Red none yet · King: Claw of Dusk (2⚔ 0⛨), revealed': what each side has played
    so far, named where the viewer may see it (CONFLICTS 2-3; solo: the King's cards revealed
    before yours when you control the area)."""
    parts = []
    for i, side in enumerate(fight.sides):
        if side == SHADOWS:
            card = fight.shadow_card
            parts.append(f"the Shadows: {w.card(card)}" if card else "the Shadows: a Conflict card drawn at the reveal")
            continue
        cards = fight.plays[i]
        shown = [f"{w.card(c)} ({combat_icons(state, c)})" for c in cards if c != HIDDEN]
        hidden = len(cards) - len(shown)
        what = ", ".join(shown + ([plural(hidden, "card") + " face down"] if hidden else []))
        how = "" if not shown else ", revealed" if fight.revealed else ", face down"
        parts.append(f"{side_name(state, side)}: {what or 'none yet'}{how}")
    return "Cards played: " + " · ".join(parts)


def _side_units(state: GameState, area: AreaState, side: int) -> str:
    """'Red 3 Followers, Fort 2' or 'the Shadows 2 units'."""
    n = area.shadows if side == SHADOWS else area.followers[side]
    fort = f", Fort {area.fort_levels}" if side != SHADOWS and area.fort_owner == side and area.fort_levels else ""
    return f"{side_name(state, side)} {plural(n, 'unit' if side == SHADOWS else 'Follower')}{fort}"


def _resolving(state: GameState, w: Words) -> str:
    """'Resolving the Conform of Summon: step 2 of 3 (produce 1 in a Marked Area)'."""
    seat = state.decision.seat if state.decision is not None else -1
    framed = [f for f in state.frames if f.seat == seat and f.card and f.source in _SOURCE]
    if not framed:
        return ""
    frame = framed[-1]
    what, part = _SOURCE[frame.source]
    name = w.card(frame.card) if frame.source != "nightmare" else frame.card
    steps = _effect_steps(state, frame, part)
    if len(steps) < 2:
        return f"Resolving {what} {name}"
    k = max(len(steps) - len(frame.steps), 1)
    return f"Resolving {what} {name}: step {k} of {len(steps)} ({describe_step(steps[k - 1], w)})"


def _effect_steps(state: GameState, frame: Frame, part: str) -> tuple[cs.Step, ...]:
    if not part:
        return ()
    try:
        effect = getattr(cards.card(state, frame.card), part, None)
    except KeyError:
        return ()
    return effect.steps if isinstance(effect, cs.Effect) else ()


def _cost(state: GameState, w: Words) -> str:
    """What the step due costs: a Ritual space's symbols, a Fort level's Followers."""
    work = state.work
    match work:
        case ClimbPayWork(owed=owed):
            return f"Cost: a Follower from an area of each symbol still owed: {_symbols(owed, w)}"
        case ClimbWork(seat=seat) if ritual.phase(state, work)[0]:
            costs = []
            for m in ritual.MARKERS:
                i = ritual.next_index(state, seat, m)
                if i >= 0:
                    space = ritual.spaces(state)[i]
                    costs.append(f"marker {m + 1} → space {i + 1}: {_symbols(space.cost, w) or 'free'}")
            return "Cost: " + "; ".join(costs) + f" (or {ritual.LIMBO_PRICE} Followers from Limbo)" if costs else ""
        case FortWork(costs=costs) if costs:
            return f"Cost of this Fort level: {plural(costs[0], 'Follower') if costs[0] else 'free'}"
        case FortPayWork(owed=owed):
            return f"Cost: {plural(owed, 'Follower')} still to remove"
    return ""


def _symbols(symbols: tuple[str, ...], w: Words) -> str:
    return ", ".join(w.symbol(s) for s in symbols)


def _means(state: GameState, w: Words) -> str:
    """What the deciding player has to pay with: its supply, Limbo and Followers on the board
    (while climbing: on each symbol the space asks), and its hand."""
    seat = state.decision.seat if state.decision is not None else -1
    if not 0 <= seat < len(state.players):
        return ""
    pl = state.players[seat]
    on_board = sum(a.followers[seat] for a in state.areas)
    owed = _owed(state)
    per_symbol = f" ({', '.join(f'{w.symbol(s, name=False)} {ritual.followers_on(state, seat, s)}' for s in owed)})"
    return (
        f"You have: {pl.supply} Followers in supply, {pl.limbo} in Limbo, {on_board} on the board"
        f"{per_symbol if owed else ''}; {plural(len(pl.hand), 'card')} in hand"
    )


def _owed(state: GameState) -> tuple[str, ...]:
    """The symbols a climb asks now, each once, in order."""
    work = state.work
    if isinstance(work, ClimbPayWork):
        return tuple(dict.fromkeys(work.owed))
    if isinstance(work, ClimbWork) and ritual.phase(state, work)[0]:
        spaces = [ritual.next_index(state, work.seat, m) for m in ritual.MARKERS]
        return tuple(dict.fromkeys(s for i in spaces if i >= 0 for s in ritual.spaces(state)[i].cost))
    return ()
