"""What a seat's view implies under the rules, as plain data: the one query the UI makes.

The UI draws a ``View`` (what a seat may see) and the ``Facts`` of that view (what the rules
say about it: who controls each area, the score so far, which of the viewer's Dreams have their
conditions met, …). Widgets import this module, never a rule module, so the rules stay in the
engine and a remote client can be sent the facts of its view instead of running the rules.

``facts`` reads only the view: other seats' hands, the decks and every other secret are
already hidden there, so no hidden card can reach the facts. ``Facts`` holds plain data only
(ints, strings, tuples, frozensets and frozen Structs of those, like the state: no dict), so
msgspec encodes it.
"""

from __future__ import annotations

import msgspec

from . import board, divergent, dreams, futile, nightmares, scoring
from .events import HIDDEN
from .state import GameState, Score
from .views import View

# Markers a widget compares the facts (or the view) with, re-exported so it need not import
# the rule module that defines them.
NO_SIDE = board.NO_SIDE  # AreaFacts.controller of a tie
SHADOWS_SIDE = board.SHADOWS_SIDE  # AreaFacts.controller when the Shadows control the area
IN_CATHEDRAL = board.CATHEDRAL  # GameState.nightmare_at of a Nightmare in the Cathedral space
WHEN = dreams.WHEN  # a Dream's timing ("own_turn", …) in words ("on your own turn", …)


class AreaFacts(msgspec.Struct, frozen=True, kw_only=True):
    """One area in play."""

    id: str
    controller: int  # AREA CONTROL: a seat, SHADOWS_SIDE, or NO_SIDE (a tie)
    neighbours: tuple[str, ...]  # the areas in play next to it
    by_cathedral: bool  # next to the Cathedral space


class Facts(msgspec.Struct, frozen=True, kw_only=True):
    """What the rules say about one view (see the module's docstring)."""

    scores: tuple[Score, ...]  # by seat: the final scores once the game is over, else the score so far
    areas: tuple[AreaFacts, ...]  # each area in play, in the state's order
    marked_symbol: str  # the symbol under the Turn marker ('' before it is placed)
    marked_areas: frozenset[str]  # the areas of that symbol
    turn_owners: tuple[int, ...]  # the seat owning each Turn track position (() before the Starting marker)
    ritual_vp: tuple[int, ...]  # by seat: what its Ritual markers score
    devoured_total: int  # units on the Devoured Units sideboard
    devoured_threshold: int  # the total that ends the game (0: devouring never ends it)
    devoured_vp: tuple[int, ...]  # by seat: what the Devoured units score now
    path_pieces: tuple[tuple[str, tuple[str, ...]], ...]  # Divergent Paths: (slot colour, its pieces)
    path_open: frozenset[str]  # Divergent Paths: the pieces available now
    dreams_met: frozenset[str]  # the viewer's Dreams in hand whose conditions hold now
    # the viewer's decision due: for each option, why it would do nothing now (an
    # ``engine.futile.Nothing``), '' when it would do something; () when the viewer is not deciding
    options_nothing: tuple[str, ...] = ()

    def area(self, area_id: str) -> AreaFacts:
        """The facts of an area in play (LookupError for a covered area)."""
        for a in self.areas:
            if a.id == area_id:
                return a
        raise LookupError(f"no area {area_id!r} in play")


def facts(view: View) -> Facts:
    """The facts of ``view``, computed by the rule modules from what the view holds."""
    state = view.state
    return Facts(
        scores=state.outcome.scores if state.outcome is not None else scoring.scores(state),
        areas=tuple(_area_facts(state, a.id) for a in state.areas),
        marked_symbol=board.marked_symbol(state),
        marked_areas=frozenset(board.marked_areas(state)) if state.turn_pos >= 0 else frozenset(),
        turn_owners=_turn_owners(state),
        ritual_vp=tuple(sum(scoring.ritual_vp(state, b) for b in pl.ritual_best) for pl in state.players),
        devoured_total=nightmares.devoured_total(state),
        devoured_threshold=nightmares.threshold(state) or 0,
        devoured_vp=scoring.devoured_vp(state),
        path_pieces=_path_pieces(state),
        path_open=frozenset(divergent.available(state)) if state.config.divergent_paths else frozenset(),
        dreams_met=_dreams_met(state, view.seat),
        options_nothing=_options_nothing(state, view.seat),
    )


def _area_facts(state: GameState, area_id: str) -> AreaFacts:
    return AreaFacts(
        id=area_id,
        controller=board.controller(board.area(state, area_id)),
        neighbours=board.adjacent(state, area_id),
        by_cathedral=board.adjacent_to_cathedral(state, area_id),
    )


def _turn_owners(state: GameState) -> tuple[int, ...]:
    """Owners exist once the Starting marker is placed (SETUP 8)."""
    if state.turn_start < 0:
        return ()
    return tuple(board.turn_owner(state, i) for i in range(len(board.pack(state).tracks.turn)))


def _path_pieces(state: GameState) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The sideboard's pieces, in its order, grouped by the colour of their Reward tile slot
    (brown spaces take gray tiles); none without the Divergent Paths variant."""
    if not state.config.divergent_paths:
        return ()
    out: dict[str, tuple[str, ...]] = {}
    for sp in divergent.spaces(state):
        slot = divergent.SLOT[sp.colour]
        out[slot] = out.get(slot, ()) + (sp.piece,)
    return tuple(out.items())


def _options_nothing(state: GameState, seat: int) -> tuple[str, ...]:
    """Only the decider's own view: its options are the ones it reads."""
    if state.decision is None or state.decision.seat != seat:
        return ()
    return futile.options_nothing(state)


def _dreams_met(state: GameState, seat: int) -> frozenset[str]:
    """The viewer's own Dreams only: a spectator has none, and other seats' are hidden."""
    if not 0 <= seat < len(state.players):
        return frozenset()
    return frozenset(c for c in state.players[seat].dreams if c != HIDDEN and dreams.conditions_met(state, seat, c))


__all__ = ["IN_CATHEDRAL", "NO_SIDE", "SHADOWS_SIDE", "WHEN", "AreaFacts", "Facts", "facts"]
