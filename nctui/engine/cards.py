"""Card lookups: Action cards in a player's display, Development and Dream cards by id."""

from __future__ import annotations

from functools import lru_cache

from ..content import schema as cs
from . import board
from .state import GameState


@lru_cache(maxsize=8)
def _index(pack_id: str) -> dict[str, object]:
    p = board.get_pack(pack_id)
    c = p.cards
    out: dict[str, object] = {a.id: a for a in c.actions}
    out[c.basic_combat.id] = c.basic_combat
    out.update((d.id, d) for d in c.development)
    out.update((d.id, d) for d in c.dreams)
    out.update((d.id, d) for d in c.conflicts)
    out.update((t.id, t) for t in c.reward_tiles)
    return out


def card(state: GameState, card_id: str):
    return _index(state.pack)[card_id]


def development(state: GameState, card_id: str) -> cs.DevelopmentCard | cs.BasicCombat:
    return _index(state.pack)[card_id]  # type: ignore[return-value]


def dream(state: GameState, card_id: str) -> cs.DreamCard:
    return _index(state.pack)[card_id]  # type: ignore[return-value]


def action_card_id(state: GameState, seat: int, action: str) -> str:
    """The card on top of the seat's stack for this action (an Upgrade covers for good)."""
    rondel = board.pack(state).matrix.rondel
    return state.players[seat].display[rondel.index(action)][-1]


def action_effect(state: GameState, seat: int, action: str, part: str) -> cs.Effect:
    """RESOLVING ACTIONS AND REACTIONS: always from your own Action card; ``part`` is
    "day", "conform" or "dissent"."""
    c = card(state, action_card_id(state, seat, action))
    return getattr(c, part) or cs.NO_EFFECT


def combat(state: GameState, card_id: str) -> cs.Combat:
    return card(state, card_id).combat  # type: ignore[union-attr]


def is_upgrade(state: GameState, card_id: str) -> bool:
    c = _index(state.pack).get(card_id)
    return isinstance(c, cs.DevelopmentCard) and c.kind == "upgrade"


def is_ploy(state: GameState, card_id: str) -> bool:
    c = _index(state.pack).get(card_id)
    return isinstance(c, cs.DevelopmentCard) and c.kind == "ploy"
