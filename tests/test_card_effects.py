"""Every effect printed on a Stage 1 card resolves, to the end, in a reachable position.

For each effect, a real game is played to its first turn, the position is made rich enough
for any card (Followers in every area the seat could use, cards in hand, Limbo, Shadows), the
effect is pushed for the active player and then resolved by random legal choices until the
turn goes on. Stage 2 effects (Nightmares, devouring) are exercised by the next issue.
"""

from __future__ import annotations

import random

import pytest
from msgspec.structs import replace

from nctui.content.loader import get_pack
from nctui.engine import apply, legal_actions, new_game
from nctui.engine import units
from nctui.engine.effects import implemented, push_effect, resolve
from nctui.engine.invariants import violations
from nctui.engine.ops import set_player

from .helpers import config

PACK = get_pack("base")


def _effects() -> list[tuple[str, tuple]]:
    c = PACK.cards
    out = []
    for a in c.actions:
        out += [(f"{a.id}.{part}", getattr(a, part).steps) for part in ("day", "conform", "dissent")]
    for d in c.development:
        if d.stage != 1:
            continue
        parts = ("day", "conform", "dissent") if d.kind == "upgrade" else ("effect",)
        out += [(f"{d.id}.{part}", getattr(d, part).steps) for part in parts]
    for k in c.conflicts:
        if k.stage == 1:
            out += [(f"{k.id}.victory", k.victory.steps), (f"{k.id}.defeat", k.defeat.steps)]
    for d in c.dreams:
        if d.stage == 1 and d.effect.steps:
            out.append((f"{d.id}.effect", d.effect.steps))
    return out


EFFECTS = _effects()


def _rich_position(seed: int):
    state = new_game(config(3, seed)).state
    while state.phase == "setup":
        state = apply(state, legal_actions(state)[0])
    seat = state.active
    # Followers of the active player in every area where the Unit Limit allows two more
    for a in state.areas:
        n = min(2, units.room(state, seat, a.id), state.players[seat].supply - 5)
        if n > 0 and sum(a.followers) + a.shadows + a.fort_levels > 0:
            state = units.place(state, seat, a.id, n)
    pl = state.players[seat]
    state = set_player(state, replace(pl, limbo=3, supply=pl.supply - 3,
                                      hand=pl.hand + state.decks.development[:4]))
    state = replace(state, decks=replace(state.decks, development=state.decks.development[4:]))
    assert violations(state) == []
    return state, seat


@pytest.mark.parametrize("name, steps", EFFECTS, ids=[n for n, _ in EFFECTS])
def test_every_effect_resolves_to_the_end(name, steps):
    assert implemented(steps), f"{name}: a step has no rules yet"
    for seed in (1, 2):
        state, seat = _rich_position(seed)
        turn = state.turn_number
        rnd = random.Random(seed)
        events: list = []
        state = resolve(push_effect(replace(state, decision=None), seat, steps, "test", then="day_done"), events)
        decisions = 0
        while state.frames or state.work is not None:
            assert state.decision is not None, name
            state = apply(state, rnd.choice(legal_actions(state)))
            decisions += 1
            assert decisions < 500, f"{name} does not end"
        assert violations(state) == [], name
        assert state.turn_number == turn and state.decision is not None
