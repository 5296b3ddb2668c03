"""What a seat may see. UI, bots, the King and the network only ever get views.

A view is the state with every secret replaced by ``HIDDEN``: other seats' hands and Dreams,
the order of every deck, the RNG, and the options of a decision that is not the viewer's. The
configuration's seed is hidden too until the game is over: with the seed and the public list of
actions, anyone could replay the game and learn every hidden card.
"""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from .events import HIDDEN
from .king_state import KingState
from .rng import Rng
from .state import GameState
from .work import Fight, KeepWork, Work

SPECTATOR = -1


class View(msgspec.Struct, frozen=True, kw_only=True):
    seat: int  # SPECTATOR for a spectator
    state: GameState

    @property
    def my_turn_to_decide(self) -> bool:
        d = self.state.decision
        return d is not None and d.seat == self.seat


def _hide(cards: tuple[str, ...]) -> tuple[str, ...]:
    return (HIDDEN,) * len(cards)  # one C-level copy: every view of every decision hides ~10 piles


def _hide_work(work: Work | None, seat: int) -> Work | None:
    """Cards a step holds aside: those drawn and not yet kept are seen by the drawer only;
    cards played face down in a conflict by their owner only, until revealed (CONFLICTS 2)."""
    if isinstance(work, KeepWork) and work.seat != seat:
        return replace(work, drawn=_hide(work.drawn))
    f = getattr(work, "fight", None)
    if not isinstance(f, Fight) or f.revealed:
        return work
    plays = tuple(p if side == seat else _hide(p) for side, p in zip(f.sides, f.plays))
    return replace(work, fight=replace(f, plays=plays))  # type: ignore[call-arg]


def _hide_king(king: KingState | None, seat: int) -> KingState | None:
    """Solo: the King's combat cards are face down and the Area Selection deck is shuffled."""
    if king is None or king.seat == seat:
        return king
    return replace(king, hand=_hide(king.hand), area_deck=_hide(king.area_deck))


def player_view(state: GameState, seat: int) -> View:
    d = state.decision
    decks = state.decks
    hidden_decks = replace(
        decks,
        development=_hide(decks.development),
        dream=_hide(decks.dream),
        conflict=_hide(decks.conflict),
        development2=_hide(decks.development2),
        dream2=_hide(decks.dream2),
        conflict2=_hide(decks.conflict2),
    )
    players = tuple(
        pl if pl.seat == seat else replace(pl, hand=_hide(pl.hand), dreams=_hide(pl.dreams)) for pl in state.players
    )
    if d is not None and d.seat != seat:
        d = replace(d, options=())
    config = state.config if state.phase == "over" else replace(state.config, seed=0)
    redacted = replace(state, config=config, rng=Rng(state=0), decks=hidden_decks, players=players, decision=d,
                       work=_hide_work(state.work, seat), king=_hide_king(state.king, seat))
    return View(seat=seat, state=redacted)


def spectator_view(state: GameState) -> View:
    return player_view(state, SPECTATOR)
