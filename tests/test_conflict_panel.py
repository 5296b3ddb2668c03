"""The conflict panel's words (describe.conflicts): each conflict among the events, step by step,
from the rulebook's example and from seeded random games of every player count."""

from __future__ import annotations

import pytest

from nctui.games.nightmare_cathedral.bots import bot_seed
from nctui.games.nightmare_cathedral.describe.conflicts import STAGE_KINDS, conflict_reports
from nctui.games.nightmare_cathedral.engine import events as E, new_game, player_view, step
from nctui.games.nightmare_cathedral.simulate import make_config, random_bots
from nctui.platform.game import Bot


def played(players: int, seed: int, decisions: int = 1500):
    """A random game's state and every event, as seat 0 saw them (``player_view`` redacts)."""
    config = make_config(players=players, seed=seed)
    state = new_game(config).state
    events: list[E.Event] = []
    bots: dict[int, Bot] = {}
    for _ in range(decisions):
        if state.decision is None:
            break
        seat = state.decision.seat
        bot = bots.setdefault(seat, random_bots(seat, bot_seed(config.seed, seat)))
        result = step(state, bot.choose(player_view(state, seat)))
        state, events = result.state, events + list(result.events)
    return state, events


@pytest.mark.parametrize(("players", "seed"), [(1, 7), (2, 5), (3, 9), (4, 3)])
def test_every_conflict_reads_to_its_end(players, seed):
    """Every conflict started is reported once, in order; each one over has a winner among its
    sides, says why, and ends with both sides' units (never fewer than none)."""
    state, events = played(players, seed)
    starts = [i for i, e in enumerate(events) if isinstance(e, E.ConflictStarted)]
    reports = conflict_reports(events, state)
    assert [r.begins for r in reports] == starts and len(starts) > 2
    for r in reports[:-1]:
        assert r.done and r.winner in r.sides
        kinds = [line.kind for line in r.lines]
        assert kinds[0] == "sides" and kinds[-1] == "after" and "reveal" in kinds and "winner" in kinds
        assert set(kinds) <= STAGE_KINDS
        assert "-" not in r.lines[-1].text  # no side is left with a negative number of units


def test_a_conflict_started_carries_both_sides_strength():
    """CONFLICTS 1: the panel's first line comes from the conflict's start: each side's units
    and Fort levels in the area."""
    _, events = played(2, 5)
    started = [e for e in events if isinstance(e, E.ConflictStarted)]
    assert started and all(len(e.units) == 2 and len(e.forts) == 2 for e in started)
    assert any(e.units[0] > 0 for e in started)


def test_a_card_face_down_is_named_only_for_its_owner():
    """The events are redacted for the viewer: another side's face-down card stays unnamed until
    its reveal, and is named with its ⚔/⛨ once revealed."""
    hidden = E.CombatCardPlayed(seat=1, area="ash-nave", card=E.HIDDEN)
    state, _ = played(2, 5, decisions=5)
    start = E.ConflictStarted(seat=0, area="ash-nave", sides=(0, 1), units=(2, 1), forts=(0, 2))
    reveal = E.ConflictReveal(seat=1, area="ash-nave", cards=("basic-combat",), attack=1, defense=1)
    report = conflict_reports([start, hidden, reveal], state)[0]
    texts = [line.text for line in report.lines]
    assert texts[1].endswith("card 1 face down") and not report.done
    assert "1⚔ 1⛨" in texts[2]
