"""Stage 2 of THE NIGHTMARE CATHEDRAL: completing the Cathedral, COMMAND NIGHTMARES, the CURRENT
AREA and DEVOURING UNITS, with the devoured threshold that triggers the GAME END.

Once the last Cathedral piece is placed, both Nightmares stand in the Cathedral space
(``GameState.nightmare_at``). Commanding one resolves its printed command effect in a frame of
its own, with ``GameState.commanding`` naming it: that Nightmare's area is the "current area"
(``board.nightmare_areas``) and ``GameState.visited`` holds the places it started its activation
in or entered since, none of which it may enter again. Devoured units leave the game for the
Devoured Units sideboard (``PlayerState.devoured``, ``GameState.devoured_shadows``).

Before Stage 2 the steps that mention Nightmares or devouring do nothing and say so.
"""

from __future__ import annotations

from collections.abc import Callable

from msgspec.structs import replace

from ..content import schema as cs
from . import board, events as E, units
from .actions import Action, ChooseNightmare, DevourUnit, Done, MoveNightmare
from .effects import push_effect
from .errors import IllegalAction
from .events import Event
from .ops import set_player
from .rules import Refusal, Rule, legal, with_stop
from .state import AreaState, GameState
from .steps_basic import stop
from .work import ActivationEnds, DevourWork, Frame, NightmareMoveWork, NightmareWork

Events = list[Event]
CATHEDRAL = board.CATHEDRAL
SHADOWS = board.SHADOWS_SIDE
COMMAND = "COMMAND NIGHTMARES"
DEVOURING = "DEVOURING UNITS"
STAGE2 = "THE NIGHTMARE CATHEDRAL"


# ---------------------------------------------------------------------------------------------
# The Nightmares in play


def card_of(state: GameState, number: int) -> cs.NightmareCard | None:
    return next((c for c in board.pack(state).cards.nightmares if c.number == number), None)


def location(state: GameState, number: int) -> str:
    """ "" (on its card), CATHEDRAL, or the id of the area the Nightmare is in."""
    return dict(zip(state.nightmares, state.nightmare_at)).get(number, "")


def set_location(state: GameState, number: int, where: str) -> GameState:
    at = dict(zip(state.nightmares, state.nightmare_at))
    at[number] = where
    return replace(state, nightmare_at=tuple(at[n] for n in state.nightmares))


def complete(state: GameState, ev: Events) -> GameState:
    """THE NIGHTMARE CATHEDRAL: the Cathedral is built: (1) the sideboard turns to its Devoured
    Units side; (2) the Nightmares are added to the Cathedral space. (``cathedral`` calls this
    with ``state.stage`` already 2: the Stage 2 effects are on from now.)"""
    ev.append(E.SideboardFlipped())
    ev.append(E.NightmaresEnter(numbers=state.nightmares))
    return replace(state, nightmare_at=tuple(CATHEDRAL for _ in state.nightmares))


def _stage1(state: GameState, frame: Frame, step: cs.Step, ev: Events) -> bool:
    """Before the Cathedral is complete, effects about Nightmares and devouring do nothing."""
    if state.stage >= 2:
        return False
    ev.append(E.NoEffectStage1(seat=frame.seat, step=str(type(step).__struct_config__.tag)))
    return True


# ---------------------------------------------------------------------------------------------
# Commanding


def commandable(state: GameState, seat: int) -> tuple[int, ...]:
    """The Nightmares ``seat`` may command now: on the board, not yet commanded by it this turn."""
    return tuple(
        n
        for n in state.nightmares
        if location(state, n) and (seat, n) not in state.commanded and card_of(state, n) is not None
    )


def start_command(state: GameState, frame: Frame, step: cs.CommandNightmare, ev: Events) -> GameState:
    if _stage1(state, frame, step, ev):
        return state
    return _command_next(state, NightmareWork(seat=frame.seat, left=step.count, must=frame.must), ev)


def _command_next(state: GameState, w: NightmareWork, ev: Events) -> GameState:
    if w.left <= 0:
        return replace(state, work=None)
    if not commandable(state, w.seat):
        ev.append(E.NightmaresUnavailable(seat=w.seat, left=w.left))
        return replace(state, work=None)
    return replace(state, work=w)


def _command_options(state: GameState, w: NightmareWork) -> tuple[Action, ...]:
    return with_stop(
        legal(state, w, (ChooseNightmare(number=n) for n in state.nightmares), _command_refusal), not w.must
    )


def _command_refusal(state: GameState, w: NightmareWork, action: ChooseNightmare) -> Refusal:
    if action.number not in state.nightmares:
        return IllegalAction(
            f"Nightmare {action.number} is not in play: command one of {state.nightmares}",
            rule="1 of the 2 available Nightmares",
            section=COMMAND,
        )
    if (w.seat, action.number) in state.commanded:
        return IllegalAction(
            f"you have already commanded Nightmare {action.number} this turn",
            rule="no player commands each Nightmare more than once in a turn",
            section=COMMAND,
        )
    if action.number not in commandable(state, w.seat):
        return IllegalAction(
            f"Nightmare {action.number} is not on the board", rule="Nightmares in Stage 2", section=COMMAND
        )
    return None


def _command(state: GameState, w: NightmareWork, action: ChooseNightmare | Done, ev: Events) -> GameState:
    """The command effect resolves in its own frame (in full when the commanding effect must be;
    otherwise, like any effect, it may be stopped part way); more commands of the step wait
    beneath it."""
    if isinstance(action, Done):
        return stop(state, w, ev)
    n = action.number
    start = location(state, n)
    if state.commanding:  # e.g. a conflict inside a command whose Victory commands a Nightmare
        state = replace(state, suspended=state.suspended + ((state.commanding, state.visited),))
    state = replace(state, work=None, commanded=state.commanded + ((w.seat, n),), commanding=n, visited=(start,))
    if w.left > 1:
        state = push_effect(state, w.seat, (cs.CommandNightmare(count=w.left - 1),), "command", must=w.must)
    card = card_of(state, n)
    assert card is not None
    ev.append(E.NightmareCommanded(seat=w.seat, number=n, area=start if start != CATHEDRAL else ""))
    return push_effect(state, w.seat, card.command.steps, "nightmare", must=w.must, then=ActivationEnds())


COMMAND_NIGHTMARE = Rule(NightmareWork, (ChooseNightmare,), _command_options, _command_refusal, _command)


def activation_ends(state: GameState, then: ActivationEnds, ev: Events) -> GameState:
    """The activation is over; one it interrupted goes on where it was."""
    if state.suspended:
        (n, visited), rest = state.suspended[-1], state.suspended[:-1]
        return replace(state, commanding=n, visited=visited, suspended=rest)
    return replace(state, commanding=0, visited=())


def explain_command_absent(state: GameState, action: ChooseNightmare) -> IllegalAction:
    if state.stage < 2:
        return IllegalAction(
            "the Nightmares enter the game once the Cathedral is complete (Stage 2)",
            rule="Nightmares in Stage 2",
            section=STAGE2,
        )
    return IllegalAction(
        "no effect lets you command a Nightmare now", rule="command only when an effect says so", section=COMMAND
    )


# ---------------------------------------------------------------------------------------------
# Moving the commanded Nightmare


def _present_opponent(seat: int) -> Callable[[AreaState], bool]:
    return lambda a: any(board.present(a, o) for o in range(len(a.followers)) if o != seat)


def _toward(state: GameState, seat: int, toward: str, areas: list[AreaState]) -> list[AreaState]:
    """``toward`` (content.schema.NightmareToward) keeps, of the areas the Nightmare could enter:
    any: all of them; most_units / fewest_units: those with the most / fewest units (Followers
    and Shadows) among them; followers / shadows: those holding Followers / Shadows; marked: the
    Marked Areas; fort: those holding a Fort; empty: those with no unit and no Fort; commander /
    opponents: those where the commanding player / an opponent of it is present."""
    if toward in ("most_units", "fewest_units") and areas:
        pick = max if toward == "most_units" else min
        best = pick(board.units(a) for a in areas)
        return [a for a in areas if board.units(a) == best]
    marked = set(board.marked_areas(state)) if toward == "marked" else set()
    tests: dict[str, Callable[[AreaState], bool]] = {
        "any": lambda a: True,
        "followers": lambda a: sum(a.followers) > 0,
        "shadows": lambda a: a.shadows > 0,
        "marked": lambda a: a.id in marked,
        "fort": lambda a: a.fort_levels > 0,
        "empty": board.is_empty,
        "commander": lambda a: board.present(a, seat),
        "opponents": _present_opponent(seat),
    }
    return [a for a in areas if tests[toward](a)]


def reachable(state: GameState, step: cs.NightmareMove) -> tuple[str, ...]:
    """COMMAND NIGHTMARES: the areas the commanded Nightmare may enter next, before ``toward``:
    from the Cathedral space, an area adjacent to it; otherwise an adjacent area (any area when
    ``anywhere``); never the Cathedral space, nor an area it started in or entered this activation."""
    here = location(state, state.commanding)
    if here == CATHEDRAL:
        ids = [a.id for a in state.areas if board.adjacent_to_cathedral(state, a.id)]
    elif step.anywhere:
        ids = [a.id for a in state.areas]
    else:
        ids = list(board.adjacent(state, here))
    return tuple(a for a in ids if a not in state.visited)


def candidates(state: GameState, seat: int, step: cs.NightmareMove) -> tuple[str, ...]:
    areas = [board.area(state, a) for a in reachable(state, step)]
    return tuple(a.id for a in _toward(state, seat, step.toward, areas))


def start_nightmare_move(state: GameState, frame: Frame, step: cs.NightmareMove, ev: Events) -> GameState:
    if _stage1(state, frame, step, ev):
        return state
    if not state.commanding:  # content error: a move outside a command effect moves nothing
        ev.append(E.NightmareStuck(seat=frame.seat, number=0))
        return state
    return _move_next(state, NightmareMoveWork(seat=frame.seat, step=step, left=step.steps, must=frame.must), ev)


def _move_next(state: GameState, w: NightmareMoveWork, ev: Events) -> GameState:
    """Ask for the next move, or end the move: done, or no legal area left."""
    if w.left > 0 and not candidates(state, w.seat, w.step):
        ev.append(
            E.NightmareStuck(seat=w.seat, number=state.commanding, area=location(state, state.commanding), lost=w.left)
        )
        return replace(state, work=None)
    return replace(state, work=w if w.left > 0 else None)


def _move_options(state: GameState, w: NightmareMoveWork) -> tuple[Action, ...]:
    if w.left <= 0:
        return ()
    return with_stop(tuple(MoveNightmare(to=a) for a in candidates(state, w.seat, w.step)), not w.must)


def _move_refusal(state: GameState, w: NightmareMoveWork, action: MoveNightmare) -> Refusal:
    to, here = action.to, location(state, state.commanding)
    if to == CATHEDRAL:
        return IllegalAction(
            "once out of the Cathedral space a Nightmare may not enter it again unless an effect allows it to return",
            rule="no return to the Cathedral space",
            section=STAGE2,
        )
    if to not in board.area_index(state):
        return IllegalAction(f"{to!r} is not an area in play", rule="areas in play", section="KEY CONCEPTS")
    if to in state.visited:
        start = to == state.visited[0]
        what = f"started this activation in {to}" if start else f"has already entered {to} in this activation"
        return IllegalAction(
            f"the Nightmare {what}", rule="no area twice in one activation, nor its start", section=COMMAND
        )
    if to not in reachable(state, w.step):
        where = "an area adjacent to the Cathedral" if here == CATHEDRAL else f"an area adjacent to {here}"
        return IllegalAction(f"the Nightmare moves into {where}", rule="adjacent moves", section=COMMAND)
    if to not in candidates(state, w.seat, w.step):
        return IllegalAction(
            f"{to} does not match this move ({w.step.toward})", rule="the Nightmare card's command", section=COMMAND
        )
    return None


def _move(state: GameState, w: NightmareMoveWork, action: MoveNightmare | Done, ev: Events) -> GameState:
    """The Nightmare enters the area; ``on_enter`` resolves there (its current area) before the
    next move, which waits in a frame beneath it."""
    if isinstance(action, Done):
        return stop(state, w, ev)
    n = state.commanding
    ev.append(E.NightmareMoves(seat=w.seat, number=n, source=location(state, n), to=action.to))
    state = replace(set_location(state, n, action.to), visited=state.visited + (action.to,))
    w = replace(w, left=w.left - 1)
    if not w.step.on_enter:
        return _move_next(state, w, ev)
    state = replace(state, work=None)
    if w.left > 0:
        state = push_effect(state, w.seat, (replace(w.step, steps=w.left),), "nightmare", must=w.must)
    return push_effect(state, w.seat, w.step.on_enter, "nightmare", must=w.must)


MOVE_NIGHTMARE = Rule(NightmareMoveWork, (MoveNightmare,), _move_options, _move_refusal, _move)


def explain_move_absent(state: GameState, action: MoveNightmare) -> IllegalAction:
    return IllegalAction(
        "no Nightmare is moving now: a Nightmare moves only by its command effect",
        rule="Nightmares move when commanded",
        section=COMMAND,
    )


def start_nightmare_return(state: GameState, frame: Frame, step: cs.NightmareReturn, ev: Events) -> GameState:
    """An effect that specifically allows the Nightmare to return to the Cathedral space."""
    if _stage1(state, frame, step, ev) or not state.commanding:
        return state
    n = state.commanding
    ev.append(E.NightmareReturns(seat=frame.seat, number=n, source=location(state, n)))
    return replace(set_location(state, n, CATHEDRAL), visited=state.visited + (CATHEDRAL,))


# ---------------------------------------------------------------------------------------------
# Devouring

WHOSE: dict[str, Callable[[int, int], bool]] = {  # (resolving seat, side) -> may be devoured
    "any": lambda seat, side: True,
    "shadows": lambda seat, side: side == SHADOWS,
    "opponents": lambda seat, side: side >= 0 and side != seat,  # other players, not the Shadows
    "own": lambda seat, side: side == seat,
}


def devour_options(state: GameState, w: DevourWork) -> tuple[DevourUnit, ...]:
    """The predicates of ``_devour_refusal``, without building refusals: the candidates are in
    the effect's areas and of a real side by construction."""
    sides = tuple(range(len(state.players))) + (SHADOWS,)
    whose = WHOSE[w.whose]
    return tuple(
        DevourUnit(area=a, side=s)
        for a in board.areas_matching(state, w.seat, w.where)
        for s in sides
        if whose(w.seat, s) and units.count(board.area(state, a), s) > 0
    )


def start_devour(state: GameState, frame: Frame, step: cs.Devour, ev: Events) -> GameState:
    if _stage1(state, frame, step, ev):
        return state
    w = DevourWork(seat=frame.seat, left=step.count, where=step.where, whose=step.whose, must=frame.must)
    return _devour_next(state, w, ev)


def _devour_next(state: GameState, w: DevourWork, ev: Events) -> GameState:
    """Devour at once when there is nothing to choose (one unit of one side in one area, and the
    effect must be resolved); otherwise the resolving player chooses whose unit, and where."""
    while w.left > 0:
        opts = devour_options(state, w)
        if not opts:
            ev.append(E.NothingToDevour(seat=w.seat, left=w.left))
            break
        if len(opts) > 1 or not w.must:
            return replace(state, work=w)
        state = devour(state, w.seat, opts[0].area, opts[0].side, ev)
        w = replace(w, left=w.left - 1)
    return replace(state, work=None)


def _devour_options(state: GameState, w: DevourWork) -> tuple[Action, ...]:
    if w.left <= 0:
        return ()
    return with_stop(devour_options(state, w), not w.must)


def _devour(state: GameState, w: DevourWork, action: DevourUnit | Done, ev: Events) -> GameState:
    if isinstance(action, Done):
        return stop(state, w, ev)
    state = devour(state, w.seat, action.area, action.side, ev)
    return _devour_next(state, replace(w, left=w.left - 1), ev)


def devour(state: GameState, seat: int, area_id: str, side: int, ev: Events) -> GameState:
    """A devoured unit goes to the Devoured Units sideboard: not eliminated, lost for the game
    (neither Limbo nor its supply). ``seat`` resolves the effect."""
    state = units.remove(state, side, area_id, 1)
    if side == SHADOWS:
        state = replace(state, shadows=state.shadows - 1, devoured_shadows=state.devoured_shadows + 1)
    else:
        pl = state.players[side]
        state = set_player(state, replace(pl, supply=pl.supply - 1, devoured=pl.devoured + 1))
    ev.append(E.Devoured(seat=seat, area=area_id, side=side))
    return check_threshold(state, ev)


def _devour_refusal(state: GameState, w: DevourWork, action: DevourUnit) -> Refusal:
    if action.area not in board.areas_matching(state, w.seat, w.where):
        where = "the current area of the Nightmare" if w.where == "nightmare" else f"a {w.where} area"
        return IllegalAction(
            f"this effect devours in {where}, not in {action.area}",
            rule="current area",
            section="CURRENT AREA" if w.where == "nightmare" else DEVOURING,
        )
    if action.side not in range(len(state.players)) and action.side != SHADOWS:
        return IllegalAction(f"no side {action.side}: a seat, or -2 for the Shadows", rule="units", section=DEVOURING)
    if not WHOSE[w.whose](w.seat, action.side):
        return IllegalAction(
            f"this effect devours {w.whose} units only", rule="the effect says whose", section=DEVOURING
        )
    if units.count(board.area(state, action.area), action.side) <= 0:
        return IllegalAction(
            f"that side has no unit in {action.area}", rule="devour units in the area", section=DEVOURING
        )
    return None


DEVOUR = Rule(DevourWork, (DevourUnit,), _devour_options, _devour_refusal, _devour)


def explain_devour_absent(state: GameState, action: DevourUnit) -> IllegalAction:
    return IllegalAction(
        "nothing is being devoured now: only an effect devours units",
        rule="devour when an effect says so",
        section=DEVOURING,
    )


# ---------------------------------------------------------------------------------------------
# The devoured threshold


def threshold_of(card: cs.NightmareCard | None, players: int) -> int | None:
    """A card's Devoured Units number for the player count (1-2 / 3 / 4 players, left to right);
    None when the card shows none."""
    numbers = tuple(card.devoured or ()) if card is not None else ()
    i = 0 if players <= 2 else 1 if players == 3 else 2
    return (numbers[i] if i < len(numbers) else None) or None


def threshold(state: GameState) -> int | None:
    """DEVOURING UNITS: the higher of the two Nightmares' numbers; a card without one defers to
    the other; with neither, devouring never ends the game (None)."""
    found = [t for n in state.nightmares if (t := threshold_of(card_of(state, n), len(state.players))) is not None]
    return max(found) if found else None


def devoured_total(state: GameState) -> int:
    """Units on the Devoured Units sideboard: every player's Followers and the Shadows."""
    return sum(pl.devoured for pl in state.players) + state.devoured_shadows


def check_threshold(state: GameState, ev: Events) -> GameState:
    limit = threshold(state)
    if state.end_triggered or limit is None or devoured_total(state) < limit:
        return state
    ev.append(E.EndTriggered(devoured=devoured_total(state), threshold=limit))
    return replace(state, end_triggered=True)
