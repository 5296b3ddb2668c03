"""The King of Horrors' play area (solo mode, SOLO-SPECIFIC COMPONENTS and SETUP 2-5).

The King also has an ordinary ``PlayerState`` (its seat, Followers, Fort levels, Ritual markers,
devoured units, Divergent Paths tiles); this Struct holds what only the King has. Per-action
tuples follow the rondel order of the Action Matrix (``matrix.rondel``).
"""

from __future__ import annotations

import msgspec

from ..content.schema import HORROR_DIE  # noqa: F401  (re-exported: the die is content)

KING_COMBAT = ("king-basic-combat", "king-shield")  # its 2 starting combat cards (SETUP 2)


class KingState(msgspec.Struct, frozen=True, kw_only=True, cache_hash=True, gc=False):
    seat: int = 1
    dreamer: str = "ritual"  # the Day space (an action id) its Dreamer is on (SETUP 3)
    day_cultists: tuple[int, ...] = ()  # Cultists on each Day space of the Action Matrix
    card_cultists: tuple[int, ...] = ()  # Cultists on each King Action card
    tucked: tuple[tuple[str, ...], ...] = ()  # Development cards tucked under each King Action card
    hand: tuple[str, ...] = ()  # face-down combat cards: its 2 own cards and Development cards
    dreams: tuple[str, ...] = ()  # incomplete Dreams, the lower one (in play longest) first, the top one last
    dream_cultists: tuple[int, ...] = ()  # Cultists on each incomplete Dream
    completed: tuple[str, ...] = ()  # completed Dreams (scored at the end)
    nightmare_marker: int = 1  # index in ``GameState.nightmares`` of the King's Nightmare card with the Cultist
    area_deck: tuple[str, ...] = ()  # Area Selection cards (area ids), top first, shuffled
    area_aside: tuple[str, ...] = ()  # Area Selection cards drawn and set aside
