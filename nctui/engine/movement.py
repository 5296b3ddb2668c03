"""MANEUVER: Movement Points (MP), Shaper moves and Conversions, within the UNIT LIMIT.

KEY CONCEPTS, SHAPERS AND NIGHTMARES: a Shaper is not a unit. It never controls an area nor
gives presence (``board.controller``/``board.present`` count Followers, Shadows and Forts only),
so it moves freely; it touches units only when an effect says so (a Conversion).
"""

from __future__ import annotations

from msgspec.structs import replace

from ..content import schema as cs
from . import board, units
from .actions import ConvertUnit, MoveFollower, MoveShaper
from .effects import resolve
from .errors import IllegalAction
from .events import Event
from .ops import set_player
from .registry import decides, explains, handles, starts
from .state import AreaState, Decision, GameState
from .steps_basic import WAIT, ask, placing
from .work import ConvertWork, Frame, MoveWork, ShaperWork

Events = list[Event]
SHADOWS = board.SHADOWS_SIDE
MP = "MANEUVER, MP"
CONVERSIONS = "CONVERSIONS"


# ---------------------------------------------------------------------------------------------
# The rules, as queries


def can_leave(a: AreaState, seat: int) -> bool:
    """MP: a Follower cannot move out of an area with opponent Followers or Shadows."""
    return a.shadows == 0 and not any(n for s, n in enumerate(a.followers) if s != seat)


def follower_fits(state: GameState, seat: int, source: str, to: str) -> bool:
    """UNIT LIMIT in the destination, counted with the moving Follower already gone from its
    area: it may carry a 4th Follower (Upgraded Fortify card) out of the one crowded area."""
    lifted = units.remove(state, seat, source, 1)
    return units.room(lifted, seat, to) > 0


def follower_moves(state: GameState, seat: int) -> tuple[MoveFollower, ...]:
    out: list[MoveFollower] = []
    for a in state.areas:
        if a.followers[seat] and can_leave(a, seat):
            out += [MoveFollower(source=a.id, to=b) for b in board.adjacent(state, a.id)
                    if follower_fits(state, seat, a.id, b)]
    return tuple(out)


def shaper_destinations(state: GameState, seat: int, anywhere: bool = False) -> tuple[str, ...]:
    """Shapers enter and leave all areas freely: any adjacent area, or any area in play."""
    here = state.players[seat].shaper
    if not here:
        return ()
    if anywhere:
        return tuple(a.id for a in state.areas if a.id != here)
    return board.adjacent(state, here)


def enemy_sides(state: GameState, seat: int) -> tuple[int, ...]:
    """CONVERSIONS: an enemy unit is an opponent's Follower or a Shadow, never your own."""
    return tuple(s for s in range(len(state.players)) if s != seat) + (SHADOWS,)


def conversions(state: GameState, seat: int, where: str) -> tuple[ConvertUnit, ...]:
    """Where the effect lets the Shaper convert, each enemy unit your own Follower may supplant:
    one from your supply, within your Unit Limit there."""
    if units.supply(state, seat) <= 0:
        return ()
    out: list[ConvertUnit] = []
    for area_id in board.areas_matching(state, seat, where):
        if units.room(state, seat, area_id) > 0:
            a = board.area(state, area_id)
            out += [ConvertUnit(area=area_id, side=s) for s in enemy_sides(state, seat) if units.count(a, s)]
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# Movement Points


@starts(cs.Move)
def start_move(state: GameState, frame: Frame, step: cs.Move, ev: Events) -> GameState:
    ev.append(Event(kind="gain_mp", seat=frame.seat, value=step.mp, detail="shaper" if step.shaper_only else ""))
    return replace(state, work=MoveWork(seat=frame.seat, mp=step.mp, shaper_only=step.shaper_only, must=frame.must))


@decides(MoveWork)
def decide_move(state: GameState) -> Decision | None:
    """Spend MP one at a time; stopping (Done) forfeits the rest."""
    w: MoveWork = state.work  # type: ignore[assignment]
    if w.mp <= 0:
        return None
    opts: tuple = () if w.shaper_only else follower_moves(state, w.seat)
    opts += tuple(MoveShaper(to=a) for a in shaper_destinations(state, w.seat))
    what = "your Shaper only" if w.shaper_only else "a Follower or your Shaper to an adjacent area"
    return ask(w.seat, "move", f"Spend 1 MP ({w.mp} left): move {what}", opts, optional=not w.must)


@handles(MoveFollower)
def handle_move_follower(state: GameState, action: MoveFollower, ev: Events) -> GameState:
    w: MoveWork = state.work  # type: ignore[assignment]
    state = units.move(state, w.seat, action.source, action.to)
    ev.append(Event(kind="move_follower", seat=w.seat, area=action.to, detail=action.source))
    return resolve(replace(state, work=replace(w, mp=w.mp - 1)), ev)


def handle_move_shaper(state: GameState, action: MoveShaper, ev: Events) -> GameState:
    """1 MP, or one of a Shaper move's steps."""
    w = state.work
    pl = state.players[w.seat]
    ev.append(Event(kind="move_shaper", seat=w.seat, area=action.to, detail=pl.shaper))
    state = set_player(state, replace(pl, shaper=action.to))
    spent = replace(w, mp=w.mp - 1) if isinstance(w, MoveWork) else replace(w, left=w.left - 1)
    return resolve(replace(state, work=spent), ev)


for _work in (MoveWork, ShaperWork):
    handles(MoveShaper, _work)(handle_move_shaper)


# ---------------------------------------------------------------------------------------------
# Shaper moves (effects that move the Shaper without MP)


@starts(cs.ShaperMove)
def start_shaper_move(state: GameState, frame: Frame, step: cs.ShaperMove, ev: Events) -> GameState:
    left = 1 if step.anywhere else step.steps
    return replace(state, work=ShaperWork(seat=frame.seat, left=left, anywhere=step.anywhere, must=frame.must))


@decides(ShaperWork)
def decide_shaper_move(state: GameState) -> Decision | None:
    w: ShaperWork = state.work  # type: ignore[assignment]
    if w.left <= 0:
        return None
    opts = tuple(MoveShaper(to=a) for a in shaper_destinations(state, w.seat, w.anywhere))
    what = "to any area" if w.anywhere else f"to an adjacent area ({w.left} left)"
    return ask(w.seat, "shaper_move", f"Move your Shaper {what}", opts, optional=not w.must)


# ---------------------------------------------------------------------------------------------
# Conversions


@starts(cs.Convert)
def start_convert(state: GameState, frame: Frame, step: cs.Convert, ev: Events) -> GameState:
    return replace(state, work=ConvertWork(seat=frame.seat, left=step.count, where=step.where, must=frame.must))


@decides(ConvertWork)
def decide_convert(state: GameState) -> Decision | None:
    w: ConvertWork = state.work  # type: ignore[assignment]
    if w.left <= 0:
        return None
    where = "in your Shaper's area" if w.where == "shaper" else "in an area adjacent to your Shaper"
    what, opts = placing(state, w.seat, f"Convert an enemy unit {where} ({w.left} left)",
                         lambda s: conversions(s, w.seat, w.where))
    return ask(w.seat, "convert", what, opts, optional=not w.must and opts != WAIT)


@handles(ConvertUnit)
def handle_convert(state: GameState, action: ConvertUnit, ev: Events) -> GameState:
    """The supplanted unit goes back to its supply, not to Limbo."""
    w: ConvertWork = state.work  # type: ignore[assignment]
    state = units.remove(state, action.side, action.area, 1, to="supply")
    state = units.place(state, w.seat, action.area, 1)
    ev.append(Event(kind="convert", seat=w.seat, area=action.area, value=action.side))
    return resolve(replace(state, work=replace(w, left=w.left - 1)), ev)


# ---------------------------------------------------------------------------------------------
# Refusals


def _not_in_play(state: GameState, *areas: str) -> IllegalAction | None:
    for area_id in areas:
        if area_id not in board.area_index(state):
            return IllegalAction(f"{area_id!r} is not an area in play", rule="areas in play", section="KEY CONCEPTS")
    return None


@explains(MoveFollower)
def explain_move_follower(state: GameState, action: MoveFollower) -> IllegalAction:
    seat = state.decision.seat
    src, to = action.source, action.to
    if (err := _not_in_play(state, src, to)) is not None:
        return err
    a = board.area(state, src)
    if not a.followers[seat]:
        return IllegalAction(f"you have no Follower in {src}", rule="move 1 of your Followers", section=MP)
    if to not in board.adjacent(state, src):
        return IllegalAction(f"{to} is not adjacent to {src}: 1 MP moves a Follower to an adjacent area",
                             rule="1 MP = 1 move to an adjacent area", section=MP)
    if not can_leave(a, seat):
        return IllegalAction(f"a Follower can't leave an area with opponent Followers or Shadows ({src})",
                             rule="no leaving an area with enemy units", section=MP)
    if not follower_fits(state, seat, src, to):
        return IllegalAction(f"your Unit Limit allows no more of your Followers in {to}", rule="Unit Limit",
                             section="UNIT LIMIT")
    return IllegalAction("this Follower move is not one of the options", rule="Movement Points", section=MP)


@explains(MoveShaper)
def explain_move_shaper(state: GameState, action: MoveShaper) -> IllegalAction:
    seat = state.decision.seat
    if (err := _not_in_play(state, action.to)) is not None:
        return err
    if action.to == state.players[seat].shaper:
        return IllegalAction(f"your Shaper is already in {action.to}", rule="move your Shaper", section=MP)
    return IllegalAction(f"{action.to} is not adjacent to your Shaper's area",
                         rule="move your Shaper to an adjacent area", section=MP)


@explains(ConvertUnit)
def explain_convert(state: GameState, action: ConvertUnit) -> IllegalAction:
    w = state.work
    seat = state.decision.seat
    if (err := _not_in_play(state, action.area)) is not None:
        return err
    if action.side == seat:
        return IllegalAction("a unit may not be converted to a unit of the same side", rule="no same-side conversion",
                             section=CONVERSIONS)
    if action.side not in enemy_sides(state, seat):
        return IllegalAction(f"there is no side {action.side} (a seat, or -2 for the Shadows)", rule="enemy units",
                             section=CONVERSIONS)
    if isinstance(w, ConvertWork) and action.area not in board.areas_matching(state, seat, w.where):
        where = "its own area" if w.where == "shaper" else "an area adjacent to it"
        return IllegalAction(f"this effect lets your Shaper convert only in {where}",
                             rule="a Conversion follows the effect that allows it", section=CONVERSIONS)
    if not units.count(board.area(state, action.area), action.side):
        return IllegalAction(f"there is no unit of that side in {action.area} to convert",
                             rule="supplant an enemy unit", section=CONVERSIONS)
    if units.supply(state, seat) <= 0:
        return IllegalAction("you have no Follower in your supply to put in its place", rule="supplant with your unit",
                             section=CONVERSIONS)
    return IllegalAction(f"your Unit Limit allows no more of your Followers in {action.area}", rule="Unit Limit",
                         section="UNIT LIMIT")
