"""What the rules say about a Cathedral position, for the screen (which runs no rule): the
shapes of the buildings, whether a placement is allowed and why not, property and scores."""

from __future__ import annotations

from functools import cached_property

from . import pieces, rules
from .pieces import CATHEDRAL, Cells
from .state import CathedralState, Place
from .words import REFUSALS


class CathedralFacts:
    def __init__(self, view: CathedralState) -> None:
        self.view = view

    @property
    def colour(self) -> int:
        return self.view.to_move

    def buildings_to_place(self) -> tuple[str, ...]:
        """What the side to move may place now, each id once (the Cathedral first of all)."""
        if self.view.phase == "cathedral":
            return (CATHEDRAL,)
        if self.view.phase == "over":
            return ()
        return tuple(dict.fromkeys(self.view.supply[self.view.to_move]))

    def turns(self, building: str) -> tuple[Cells, ...]:
        return pieces.turns(pieces.shape_of(building, self.colour))

    def pivot(self, building: str, turn: int) -> tuple[int, int]:
        """The square of ``building`` turned ``turn`` times that stays still as it turns (from its
        top-left corner)."""
        pivots = pieces.pivots(pieces.shape_of(building, self.colour))
        return pivots[turn % len(pivots)]

    def nearest(self, action: Place) -> Place | None:
        """The allowed placement of the same building nearest ``action`` (the same turn first), or
        None when it fits nowhere."""
        mine = [a for a in self.legal if a.building == action.building]
        if not mine:
            return None
        return min(mine, key=lambda a: (abs(a.row - action.row) + abs(a.col - action.col), a.turn != action.turn))

    def problem(self, action: Place) -> str | None:
        """Why this placement is not allowed now (the rule, in words), or None."""
        reason = rules.problem(self.view, action)
        return None if reason is None else REFUSALS[reason]

    def mask(self, action: Place) -> int:
        """The squares a placement covers inside the city (0 when it does not fit)."""
        where = pieces.placement(action.building, self.colour, action.turn, action.row, action.col)
        return 0 if where is None else where.mask

    def fits(self, building: str) -> bool:
        """Whether ``building`` has any allowed placement now."""
        return any(a.building == building for a in self.legal)

    @cached_property
    def legal(self) -> tuple[Place, ...]:
        return rules.legal_actions(self.view)

    def unplaced(self, colour: int) -> int:
        return rules.unplaced(self.view, colour)

    def seat_of(self, colour: int) -> int:
        return rules.seat_of(self.view, colour)
