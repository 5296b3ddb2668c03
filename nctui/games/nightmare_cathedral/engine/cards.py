"""Card lookups: Action cards in a player's display, and every kind of card by id, typed."""

from functools import lru_cache
from typing import NamedTuple

from ..content import schema as cs
from . import board
from .state import GameState

AnyCard = cs.ActionCard | cs.BasicCombat | cs.DevelopmentCard | cs.DreamCard | cs.ConflictCard | cs.RewardTile


class _Index(NamedTuple):
    every: dict[str, AnyCard]
    development: dict[str, cs.DevelopmentCard]
    dreams: dict[str, cs.DreamCard]
    conflicts: dict[str, cs.ConflictCard]
    tiles: dict[str, cs.RewardTile]


@lru_cache(maxsize=8)
def _index(pack_id: str) -> _Index:
    c = board.get_pack(pack_id).cards
    every: dict[str, AnyCard] = {a.id: a for a in c.actions}
    every[c.basic_combat.id] = c.basic_combat
    development = {d.id: d for d in c.development}
    dreams = {d.id: d for d in c.dreams}
    conflicts = {d.id: d for d in c.conflicts}
    tiles = {t.id: t for t in c.reward_tiles}
    for kind in (development, dreams, conflicts, tiles):
        every.update(kind)
    return _Index(every, development, dreams, conflicts, tiles)


def card(state: GameState, card_id: str) -> AnyCard:
    return _index(state.pack).every[card_id]


def card_in(pack_id: str, card_id: str) -> AnyCard:
    return _index(pack_id).every[card_id]


def development(state: GameState, card_id: str) -> cs.DevelopmentCard:
    return _index(state.pack).development[card_id]


def dream(state: GameState, card_id: str) -> cs.DreamCard:
    return _index(state.pack).dreams[card_id]


def conflict(state: GameState, card_id: str) -> cs.ConflictCard:
    return _index(state.pack).conflicts[card_id]


def tile(state: GameState, tile_id: str) -> cs.RewardTile:
    return _index(state.pack).tiles[tile_id]


def upgrade_action(state: GameState, card_id: str) -> str:
    """The Action card an Upgrade goes on (DEVELOP)."""
    action = development(state, card_id).action
    if action is None:
        raise ValueError(f"{card_id} is not an Upgrade: it names no Action card")
    return action


def action_card_id(state: GameState, seat: int, action: str) -> str:
    """The card on top of the seat's stack for this action (an Upgrade covers for good)."""
    rondel = board.pack(state).matrix.rondel
    return state.players[seat].display[rondel.index(action)][-1]


def action_effect(state: GameState, seat: int, action: str, part: str) -> cs.Effect:
    """RESOLVING ACTIONS AND REACTIONS: always from your own Action card; ``part`` is
    "day", "conform" or "dissent"."""
    c = card(state, action_card_id(state, seat, action))
    effect = getattr(c, part, None)
    return effect if isinstance(effect, cs.Effect) else cs.NO_EFFECT


def combat(state: GameState, card_id: str) -> cs.Combat:
    """The combat icons of a card played in a conflict: a Development card or Basic Combat."""
    c = card(state, card_id)
    if isinstance(c, cs.DevelopmentCard | cs.BasicCombat):
        return c.combat
    raise ValueError(f"{card_id} is not a card that fights")


def is_upgrade(state: GameState, card_id: str) -> bool:
    c = _index(state.pack).development.get(card_id)
    return c is not None and c.kind == "upgrade"


def is_ploy(state: GameState, card_id: str) -> bool:
    c = _index(state.pack).development.get(card_id)
    return c is not None and c.kind == "ploy"
