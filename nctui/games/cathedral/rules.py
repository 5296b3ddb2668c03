"""The rules of Cathedral (seed 004, RULES OF PLAY 1-8): placing, enclosing, capturing, the end
of a game and of a series. Pure: a state in, a new state and its events out."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from . import city, pieces
from .pieces import CATHEDRAL, DARK, FULL, LIGHT
from .state import (
    Building,
    Captured,
    CathedralConfig,
    CathedralState,
    Claimed,
    Event,
    GameOver,
    GameResult,
    NextGame,
    NotClaimed,
    Outcome,
    Passed,
    Place,
    Placed,
    SeriesOver,
    StepResult,
)
from .words import REFUSALS, Reason


class Refused(ValueError):
    """An action the rules do not allow now; ``reason`` says which rule."""

    def __init__(self, reason: Reason) -> None:
        super().__init__(REFUSALS[reason])
        self.reason = reason


def new_game(config: CathedralConfig) -> StepResult:
    """Rule 3: the city empty, each side's buildings in its supply, Light to place the Cathedral."""
    if not 1 <= config.games <= 99:
        raise ValueError("a series is 1 to 99 games")
    return StepResult(_fresh(config, game=0, results=()), ())


def _fresh(config: CathedralConfig, *, game: int, results: tuple[GameResult, ...]) -> CathedralState:
    supply = pieces.starting_supply()
    return CathedralState(config=config, game=game, results=results, supply=(supply, supply))


def light_seat(state: CathedralState) -> int:
    """Rule 8: the players alternate placing the Cathedral; seat 0 has Light in the first game."""
    return state.game % 2


def seat_of(state: CathedralState, colour: int) -> int:
    return light_seat(state) if colour == LIGHT else 1 - light_seat(state)


def decider(state: CathedralState) -> int | None:
    return None if state.phase == "over" else seat_of(state, state.to_move)


# -- where a building may go ----------------------------------------------------------------------


def occupied(state: CathedralState) -> int:
    mask = 0
    for b in state.buildings:
        mask |= b.mask
    return mask


def closed_to(state: CathedralState, colour: int) -> int:
    """The squares ``colour`` may not build on: buildings and the opponent's property (rule 4)."""
    return occupied(state) | state.territory[1 - colour]


def problem(state: CathedralState, action: Place) -> Reason | None:
    """Why ``action`` is not allowed now, or None."""
    if state.phase == "over":
        return "over"
    if (state.phase == "cathedral") != (action.building == CATHEDRAL):
        return "cathedral_first"
    colour = state.to_move
    if action.building != CATHEDRAL and action.building not in state.supply[colour]:
        return "not_in_supply"
    shapes = pieces.turns(pieces.shape_of(action.building, colour))
    if not 0 <= action.turn < len(shapes):
        return "turn"
    where = pieces.placement(action.building, colour, action.turn, action.row, action.col)
    if where is None:
        return "outside"
    if where.mask & occupied(state):
        return "overlap"
    if where.mask & state.territory[1 - colour]:
        return "territory"
    return None


def legal_actions(state: CathedralState) -> tuple[Place, ...]:
    """Every placement ``step`` accepts now."""
    if state.phase == "over":
        return ()
    if state.phase == "cathedral":
        return tuple(Place(CATHEDRAL, p.turn, p.row, p.col) for p in pieces.placements(CATHEDRAL, LIGHT))
    colour = state.to_move
    closed = closed_to(state, colour)
    return tuple(
        Place(b, p.turn, p.row, p.col)
        for b in dict.fromkeys(state.supply[colour])
        for p in pieces.placements(b, colour)
        if not p.mask & closed
    )


def can_move(state: CathedralState, colour: int) -> bool:
    closed = closed_to(state, colour)
    return any(not p.mask & closed for b in dict.fromkeys(state.supply[colour]) for p in pieces.placements(b, colour))


# -- a move -----------------------------------------------------------------------------------------


def step(state: CathedralState, action: Place) -> StepResult:
    """Validate ``action``, then resolve it: enclosures and captures (rules 4-5), who moves next
    or the end (rules 6-8)."""
    wrong = problem(state, action)
    if wrong is not None:
        raise Refused(wrong)
    colour = state.to_move
    mask = pieces.placement(action.building, colour, action.turn, action.row, action.col)
    assert mask is not None
    if action.building == CATHEDRAL:
        placed = Building(CATHEDRAL, None, mask.mask)
        state = replace(state, buildings=(placed,), phase="build", to_move=DARK, moves=state.moves + 1)
        return StepResult(state, (Placed(CATHEDRAL, None, mask.mask),))
    supply = list(state.supply[colour])
    supply.remove(action.building)
    placed = Building(action.building, colour, mask.mask)
    first = not state.placed_first[colour]
    state = replace(
        state,
        buildings=(*state.buildings, placed),
        supply=_by_colour(state.supply, colour, tuple(supply)),
        placed_first=_by_colour(state.placed_first, colour, True),
        moves=state.moves + 1,
    )
    events: list[Event] = [Placed(action.building, colour, mask.mask)]
    state = _enclose(state, colour, placed, first, events)
    state = _next_mover(state, colour, events)
    return StepResult(state, tuple(events))


def _by_colour(pair: tuple[Any, Any], colour: int, value: Any) -> Any:
    return (value, pair[1]) if colour == LIGHT else (pair[0], value)


def enclosed_parts(state: CathedralState, colour: int, placed: Building) -> list[int]:
    """Rule 4: the parts of the city the new building closes off with ``colour``'s buildings and
    the wall. The squares not covered by ``colour``'s buildings fall into parts (the Cathedral is
    no boundary: its squares belong to a part); the largest is the rest of the city, and every
    other part the new building touches was enclosed by this move (docs/cathedral.md)."""
    own = 0
    for b in state.buildings:
        if b.colour == colour:
            own |= b.mask
    split = city.parts(FULL & ~own)
    if len(split) < 2:
        return []
    largest = max(city.count(p) for p in split)
    near = city.around(placed.mask)
    return [p for p in split if city.count(p) < largest and p & near]


def _enclose(state: CathedralState, colour: int, placed: Building, first: bool, events: list[Event]) -> CathedralState:
    """Rules 4-5: each enclosed part with no other building becomes property; with exactly one
    opposing building or the Cathedral, that one is removed and the part claimed; with two or
    more, nothing. No space is claimed on a first move."""
    for part in enclosed_parts(state, colour, placed):
        if part & ~state.territory[colour] == 0:
            continue  # already this side's property
        inside = [b for b in state.buildings if b.colour != colour and b.mask & part]
        if first:
            events.append(NotClaimed(colour, part, "first_move"))
            continue
        if len(inside) >= 2:
            events.append(NotClaimed(colour, part, "two_or_more"))
            continue
        if inside:
            state = _remove(state, inside[0])
            events.append(Captured(colour, inside[0].id, inside[0].colour, inside[0].mask))
        # the part is this side's now, even where it was the opponent's property around the
        # building just captured (docs/cathedral.md)
        mine, theirs = state.territory[colour] | part, state.territory[1 - colour] & ~part
        state = replace(state, territory=(mine, theirs) if colour == LIGHT else (theirs, mine))
        events.append(Claimed(colour, part))
    return state


def _remove(state: CathedralState, captured: Building) -> CathedralState:
    """Rule 5: a building goes back to its owner's supply; the Cathedral never comes back."""
    buildings = tuple(b for b in state.buildings if b is not captured)
    if captured.colour is None:
        return replace(state, buildings=buildings, cathedral_gone=True)
    back = tuple(sorted((*state.supply[captured.colour], captured.id), key=lambda i: (-pieces.size_of(i), i)))
    return replace(state, buildings=buildings, supply=_by_colour(state.supply, captured.colour, back))


def _next_mover(state: CathedralState, mover: int, events: list[Event]) -> CathedralState:
    """The other side moves; one that cannot passes while the other plays on; when neither can,
    the game is over (rule 6)."""
    other = 1 - mover
    if can_move(state, other):
        return replace(state, to_move=other)
    if can_move(state, mover):
        events.append(Passed(other))
        return replace(state, to_move=mover)
    return _game_over(state, events)


def unplaced(state: CathedralState, colour: int) -> int:
    return sum(pieces.size_of(b) for b in state.supply[colour])


def _game_over(state: CathedralState, events: list[Event]) -> CathedralState:
    """Rule 7: the side whose unplaced buildings cover fewer squares wins (all placed: none);
    rule 8: those squares are each seat's points, and the series goes on with the roles
    swapped, or ends with the smallest total winning."""
    left = (unplaced(state, LIGHT), unplaced(state, DARK))
    winner = None if left[0] == left[1] else (LIGHT if left[0] < left[1] else DARK)
    seat = light_seat(state)
    events.append(GameOver(state.game, left, winner, seat))
    by_seat = (left[0], left[1]) if seat == 0 else (left[1], left[0])
    results = (*state.results, GameResult(by_seat, seat))
    if len(results) < state.config.games:
        nxt = _fresh(state.config, game=state.game + 1, results=results)
        events.append(NextGame(nxt.game, light_seat(nxt)))
        return replace(nxt, moves=state.moves)
    points = (sum(r.unplaced[0] for r in results), sum(r.unplaced[1] for r in results))
    winners = (0, 1) if points[0] == points[1] else ((0,) if points[0] < points[1] else (1,))
    events.append(SeriesOver(points, winners))
    return replace(state, phase="over", results=results, outcome=Outcome(points, winners))


def problems(state: CathedralState) -> list[str]:
    """What breaks the rules' invariants in a position: overlapping buildings, a building off its
    shape, each side's set not conserved between city and supply, property under the
    opponent's buildings, or property of both sides at once."""
    out = []
    seen = 0
    for b in state.buildings:
        if b.mask & seen:
            out.append(f"the {pieces.name_of(b.id)} overlaps another building")
        seen |= b.mask
        if b.mask & ~FULL or b.mask.bit_count() != pieces.size_of(b.id):
            out.append(f"the {pieces.name_of(b.id)} does not have its shape")
    for colour in (LIGHT, DARK):
        placed = [b.id for b in state.buildings if b.colour == colour]
        if sorted(placed + list(state.supply[colour])) != sorted(pieces.starting_supply()):
            out.append(f"{('Light', 'Dark')[colour]}'s buildings are not one whole set")
        theirs = sum((b.mask for b in state.buildings if b.colour == 1 - colour), 0)
        if state.territory[colour] & theirs:
            out.append(f"{('Light', 'Dark')[colour]}'s property holds an opposing building")
    if state.territory[0] & state.territory[1]:
        out.append("a square is the property of both sides")
    cathedrals = sum(b.colour is None for b in state.buildings)
    if state.phase == "cathedral":
        wrong = bool(state.buildings) or state.cathedral_gone
    else:
        wrong = cathedrals + state.cathedral_gone != 1
    if wrong:
        out.append("the Cathedral is not where the phase says")
    return out
