"""Every effect printed on a card, and every Nightmare's command, resolves to the end in a
reachable position.

For each effect, a real game is played to its first turn, the position is made rich enough
for any card (Followers in every area the seat could use, cards in hand, Limbo, Shadows), the
effect is pushed for the active player and then resolved by random legal choices until the
turn goes on. Stage 2 cards are resolved in Stage 2, with both Nightmares in play.
"""

from __future__ import annotations

import random

import pytest
from msgspec.structs import replace

from nctui.games.nightmare_cathedral.content import schema as cs
from nctui.games.nightmare_cathedral.content.loader import get_pack
from nctui.games.nightmare_cathedral.engine import apply, legal_actions, new_game, units, work as W
from nctui.games.nightmare_cathedral.engine.invariants import violations
from nctui.games.nightmare_cathedral.engine.ops import set_player
from tests import helpers as H
from tests.helpers import config, present, through_setup

PACK = get_pack("base")


def _effects() -> list[tuple[str, tuple, int]]:
    """(name, steps, stage in which it is resolved)."""
    c = PACK.cards
    out = []
    for a in c.actions:
        out += [(f"{a.id}.{part}", getattr(a, part).steps, 1) for part in ("day", "conform", "dissent")]
    for d in c.development:
        parts = ("day", "conform", "dissent") if d.kind == "upgrade" else ("effect",)
        out += [(f"{d.id}.{part}", getattr(d, part).steps, d.stage) for part in parts]
    for k in c.conflicts:
        out += [(f"{k.id}.victory", k.victory.steps, k.stage), (f"{k.id}.defeat", k.defeat.steps, k.stage)]
    for dream in c.dreams:
        if present(dream.effect).steps:
            out.append((f"{dream.id}.effect", present(dream.effect).steps, dream.stage))
    for n in c.nightmares:
        out.append((f"nightmare-{n.number}.command", n.command.steps, -n.number))
    for t in c.reward_tiles:
        out.append((f"{t.id}.effect", t.effect.steps, 2))
    return out


EFFECTS = _effects()


def _rich_position(seed: int, stage: int = 1):
    """A position of the first turn; ``stage`` 2: the Cathedral is complete and both Nightmares
    stand in it (a negative stage: the Nightmare with that number is one of them)."""
    nightmare = -stage if stage < 0 else 0
    pair = (nightmare, 8 if nightmare != 8 else 1) if nightmare else ()
    state = through_setup(new_game(config(3, seed, nightmares=tuple(sorted(pair)))).state)
    seat = state.active
    # Followers of the active player in every area where the Unit Limit allows two more
    for a in state.areas:
        n = min(2, units.room(state, seat, a.id), state.players[seat].supply - 5)
        if n > 0 and sum(a.followers) + a.shadows + a.fort_levels > 0:
            state = units.place(state, seat, a.id, n)
    pl = state.players[seat]
    state = set_player(state, replace(pl, limbo=3, supply=pl.supply - 3, hand=pl.hand + state.decks.development[:4]))
    state = replace(state, decks=replace(state.decks, development=state.decks.development[4:]))
    if stage != 1:
        state = replace(
            state,
            stage=2,
            cathedral_built=state.cathedral_built + state.cathedral_track,
            cathedral_track=(),
            nightmare_at=("cathedral", "cathedral"),
        )
    assert violations(state) == []
    return state, seat


# The turn's own decisions: once one of them is due (and no frame waits), the effect is over.
TURN_STEPS = (W.ChooseDayWork, W.DiscardDreamsWork, W.DrawDreamWork, W.HandLimitWork, W.ReactWork, W.MoveDreamerWork)


@pytest.mark.parametrize("name, steps, stage", EFFECTS, ids=[n for n, _, _ in EFFECTS])
def test_every_effect_resolves_to_the_end(name, steps, stage):
    for seed in (1, 2):
        state, seat = _rich_position(seed, stage)
        if stage < 0:  # a Nightmare's command: resolved while that Nightmare is commanded
            steps = (cs.CommandNightmare(count=1),)
        turn = state.turn_number
        rnd = random.Random(seed)
        events: list = []
        state = H.resolve(H.push_effect(replace(state, decision=None), seat, steps, then="day_done"), events)
        decisions = 0
        commanded = False
        while state.frames or not isinstance(state.work, TURN_STEPS):
            assert state.decision is not None, name
            options = legal_actions(state)
            chosen = [o for o in options if stage < 0 and getattr(o, "number", None) == -stage]
            state = apply(state, chosen[0] if chosen else rnd.choice(options))
            commanded = commanded or bool(chosen)
            decisions += 1
            assert decisions < 500, f"{name} does not end"
        assert violations(state) == [], name
        assert state.turn_number == turn and state.decision is not None
        assert commanded or stage >= 0, f"{name}: the Nightmare was never commanded"
