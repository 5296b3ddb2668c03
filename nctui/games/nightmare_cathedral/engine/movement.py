"""MANEUVER: Movement Points (MP), Shaper moves and Conversions, within the UNIT LIMIT.

KEY CONCEPTS, SHAPERS AND NIGHTMARES: a Shaper is not a unit. It never controls an area nor
gives presence (``board.controller``/``board.present`` count Followers, Shadows and Forts only),
so it moves freely; it touches units only when an effect says so (a Conversion).
"""

from __future__ import annotations

from msgspec.structs import replace

from ..content import schema as cs
from . import board, events as E, units
from .actions import Action, ConvertUnit, Done, MoveFollower, MoveShaper
from .errors import IllegalAction
from .events import Event
from .ops import set_player
from .rules import Refusal, Rule, with_stop
from .state import AreaState, GameState
from .steps_basic import placing, stop
from .work import ConvertWork, Frame, MoveWork, ShaperWork

Events = list[Event]
SHADOWS = board.SHADOWS_SIDE
MP = "MANEUVER, MP"
CONVERSIONS = "CONVERSIONS"


# ---------------------------------------------------------------------------------------------
# The rules, as queries


def can_leave(a: AreaState, seat: int) -> bool:
    """MP: a Follower cannot move out of an area with opponent Followers or Shadows."""
    if a.shadows:
        return False
    for s, n in enumerate(a.followers):  # a loop, not a generator: asked for every area after every step
        if n and s != seat:
            return False
    return True


def follower_fits(state: GameState, seat: int, source: str, to: str) -> bool:
    """UNIT LIMIT in the destination, counted with the moving Follower already gone from its
    area: it may carry a 4th Follower (Upgraded Fortify card) out of the one crowded area."""
    return units.room_after_leaving(state, seat, source, to) > 0


def follower_moves(state: GameState, seat: int) -> tuple[MoveFollower, ...]:
    """MP: every move of one of the seat's Followers to an adjacent area the rules allow: the
    predicates of ``follower_move_refusal``, asked once per source area (the options are asked
    after every decision; building a refusal for each move refused took most of the time)."""
    limit = units.limit_in(state, seat)
    index, areas = board.area_index(state), state.areas
    moves = []
    for a in areas:
        if a.followers[seat] and can_leave(a, seat):
            for b in board.adjacent(state, a.id):
                if limit(b, a.id) > areas[index[b]].followers[seat]:
                    moves.append(MoveFollower(source=a.id, to=b))
    return tuple(moves)


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
    # the predicates of ``conversion_refusal``: the candidates are in play, of an enemy side and in
    # the effect's areas by construction
    if units.supply(state, seat) <= 0:
        return ()
    sides = enemy_sides(state, seat)
    return tuple(
        ConvertUnit(area=area_id, side=s)
        for area_id in board.areas_matching(state, seat, where)
        for s in sides
        if units.count(board.area(state, area_id), s) and units.room(state, seat, area_id) > 0
    )


# ---------------------------------------------------------------------------------------------
# Movement Points


def start_move(state: GameState, frame: Frame, step: cs.Move, ev: Events) -> GameState:
    ev.append(E.GainMp(seat=frame.seat, mp=step.mp, shaper_only=step.shaper_only))
    return replace(state, work=MoveWork(seat=frame.seat, mp=step.mp, shaper_only=step.shaper_only, must=frame.must))


def _move_options(state: GameState, w: MoveWork) -> tuple[Action, ...]:
    """Spend MP one at a time; stopping (Done) forfeits the rest."""
    if w.mp <= 0:
        return ()
    opts: tuple[Action, ...] = () if w.shaper_only else follower_moves(state, w.seat)
    opts += tuple(MoveShaper(to=a) for a in shaper_destinations(state, w.seat))
    return with_stop(opts, not w.must)


def _move_refusal(state: GameState, w: MoveWork, action: MoveFollower | MoveShaper) -> Refusal:
    if isinstance(action, MoveShaper):
        return shaper_refusal(state, w.seat, action, anywhere=False)
    if w.shaper_only:
        return IllegalAction("these Movement Points move your Shaper only", rule="Shaper-only MP", section=MP)
    return follower_move_refusal(state, w.seat, action)


def _move(state: GameState, w: MoveWork, action: MoveFollower | MoveShaper | Done, ev: Events) -> GameState:
    if isinstance(action, Done):
        return stop(state, w, ev)
    if isinstance(action, MoveShaper):
        return replace(_shaper_to(state, w.seat, action.to, ev), work=replace(w, mp=w.mp - 1))
    state = units.move(state, w.seat, action.source, action.to)
    ev.append(E.FollowerMoved(seat=w.seat, source=action.source, to=action.to))
    return replace(state, work=replace(w, mp=w.mp - 1))


MOVE = Rule(MoveWork, (MoveFollower, MoveShaper), _move_options, _move_refusal, _move)


def _shaper_to(state: GameState, seat: int, to: str, ev: Events) -> GameState:
    pl = state.players[seat]
    ev.append(E.ShaperMoved(seat=seat, source=pl.shaper, to=to))
    return set_player(state, replace(pl, shaper=to))


# ---------------------------------------------------------------------------------------------
# Shaper moves (effects that move the Shaper without MP)


def start_shaper_move(state: GameState, frame: Frame, step: cs.ShaperMove, ev: Events) -> GameState:
    left = 1 if step.anywhere else step.steps
    return replace(state, work=ShaperWork(seat=frame.seat, left=left, anywhere=step.anywhere, must=frame.must))


def _shaper_options(state: GameState, w: ShaperWork) -> tuple[Action, ...]:
    if w.left <= 0:
        return ()
    return with_stop(tuple(MoveShaper(to=a) for a in shaper_destinations(state, w.seat, w.anywhere)), not w.must)


def _shaper_refusal(state: GameState, w: ShaperWork, action: MoveShaper) -> Refusal:
    return shaper_refusal(state, w.seat, action, anywhere=w.anywhere)


def _shaper(state: GameState, w: ShaperWork, action: MoveShaper | Done, ev: Events) -> GameState:
    if isinstance(action, Done):
        return stop(state, w, ev)
    return replace(_shaper_to(state, w.seat, action.to, ev), work=replace(w, left=w.left - 1))


SHAPER_MOVE = Rule(ShaperWork, (MoveShaper,), _shaper_options, _shaper_refusal, _shaper)


# ---------------------------------------------------------------------------------------------
# Conversions


def start_convert(state: GameState, frame: Frame, step: cs.Convert, ev: Events) -> GameState:
    return replace(state, work=ConvertWork(seat=frame.seat, left=step.count, where=step.where, must=frame.must))


def _convert_options(state: GameState, w: ConvertWork) -> tuple[Action, ...]:
    if w.left <= 0:
        return ()
    return placing(state, w.seat, lambda s: conversions(s, w.seat, w.where), not w.must)


def _convert_refusal(state: GameState, w: ConvertWork, action: ConvertUnit) -> Refusal:
    return conversion_refusal(state, w.seat, w.where, action)


def _convert(state: GameState, w: ConvertWork, action: ConvertUnit | Done, ev: Events) -> GameState:
    """The supplanted unit goes back to its supply, not to Limbo."""
    if isinstance(action, Done):
        return stop(state, w, ev)
    state = units.remove(state, action.side, action.area, 1, to="supply")
    state = units.place(state, w.seat, action.area, 1)
    ev.append(E.Converted(seat=w.seat, area=action.area, side=action.side))
    return replace(state, work=replace(w, left=w.left - 1))


CONVERT = Rule(ConvertWork, (ConvertUnit,), _convert_options, _convert_refusal, _convert)


# ---------------------------------------------------------------------------------------------
# The predicates (options and refusals alike)


def _not_in_play(state: GameState, *areas: str) -> IllegalAction | None:
    for area_id in areas:
        if area_id not in board.area_index(state):
            return IllegalAction(f"{area_id!r} is not an area in play", rule="areas in play", section="KEY CONCEPTS")
    return None


def follower_move_refusal(state: GameState, seat: int, action: MoveFollower) -> Refusal:
    """MP: 1 MP moves one of your Followers to an adjacent area: never out of an area holding
    opponent Followers or Shadows, and within your Unit Limit there."""
    src, to = action.source, action.to
    if (err := _not_in_play(state, src, to)) is not None:
        return err
    a = board.area(state, src)
    if not a.followers[seat]:
        return IllegalAction(f"you have no Follower in {src}", rule="move 1 of your Followers", section=MP)
    if to not in board.adjacent(state, src):
        return IllegalAction(
            f"{to} is not adjacent to {src}: 1 MP moves a Follower to an adjacent area",
            rule="1 MP = 1 move to an adjacent area",
            section=MP,
        )
    if not can_leave(a, seat):
        return IllegalAction(
            f"a Follower can't leave an area with opponent Followers or Shadows ({src})",
            rule="no leaving an area with enemy units",
            section=MP,
        )
    if not follower_fits(state, seat, src, to):
        return IllegalAction(
            f"your Unit Limit allows no more of your Followers in {to}", rule="Unit Limit", section="UNIT LIMIT"
        )
    return None


def shaper_refusal(state: GameState, seat: int, action: MoveShaper, *, anywhere: bool) -> Refusal:
    if (err := _not_in_play(state, action.to)) is not None:
        return err
    if action.to == state.players[seat].shaper:
        return IllegalAction(f"your Shaper is already in {action.to}", rule="move your Shaper", section=MP)
    if action.to not in shaper_destinations(state, seat, anywhere):
        return IllegalAction(
            f"{action.to} is not adjacent to your Shaper's area",
            rule="move your Shaper to an adjacent area",
            section=MP,
        )
    return None


def conversion_refusal(state: GameState, seat: int, where: str, action: ConvertUnit) -> Refusal:
    if (err := _not_in_play(state, action.area)) is not None:
        return err
    if action.side == seat:
        return IllegalAction(
            "a unit may not be converted to a unit of the same side",
            rule="no same-side conversion",
            section=CONVERSIONS,
        )
    if action.side not in enemy_sides(state, seat):
        return IllegalAction(
            f"there is no side {action.side} (a seat, or -2 for the Shadows)", rule="enemy units", section=CONVERSIONS
        )
    if action.area not in board.areas_matching(state, seat, where):
        place = "its own area" if where == "shaper" else "an area adjacent to it"
        return IllegalAction(
            f"this effect lets your Shaper convert only in {place}",
            rule="a Conversion follows the effect that allows it",
            section=CONVERSIONS,
        )
    if not units.count(board.area(state, action.area), action.side):
        return IllegalAction(
            f"there is no unit of that side in {action.area} to convert",
            rule="supplant an enemy unit",
            section=CONVERSIONS,
        )
    if units.supply(state, seat) <= 0:
        return IllegalAction(
            "you have no Follower in your supply to put in its place",
            rule="supplant with your unit",
            section=CONVERSIONS,
        )
    if units.room(state, seat, action.area) <= 0:
        return IllegalAction(
            f"your Unit Limit allows no more of your Followers in {action.area}",
            rule="Unit Limit",
            section="UNIT LIMIT",
        )
    return None
