"""Seeded random play: invariants, legal_actions/apply agreement, replay, views."""

from __future__ import annotations

from itertools import pairwise

import msgspec
import pytest

from nctui.games.nightmare_cathedral.content.loader import get_pack
from nctui.games.nightmare_cathedral.engine import (
    ActionError,
    GameState,
    IllegalAction,
    InvalidAction,
    NoDecision,
    actions as A,
    apply,
    check,
    events as E,
    legal_actions,
    new_game,
    player_view,
    spectator_view,
    step,
)
from nctui.games.nightmare_cathedral.engine.events import HIDDEN
from nctui.games.nightmare_cathedral.engine.invariants import TurnLength, violations
from nctui.games.nightmare_cathedral.engine.views import redact
from tests.helpers import all_of, config, narrow, of_kind, play, present, random_game

SEEDS = range(6)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", SEEDS)
def test_random_games_end_and_keep_every_invariant(players, seed):
    n = 0
    clock = TurnLength()  # every turn ends within a bound (issue 38 item 7)
    for state, action in random_game(players, seed):
        assert violations(state) == [] and clock.check(state) == [], (players, seed, n)
        if action is None:
            assert state.outcome is not None and state.decision is None
            assert state.phase == "over"
        else:
            assert state.decision is not None and action in legal_actions(state)
        n += 1
    if present(state.outcome).reason == "time":
        assert sum(pl.turns for pl in state.players) == 48
    else:  # devoured units ended it, once every player had had as many turns
        assert present(state.outcome).reason == "devoured" and len({pl.turns for pl in state.players}) == 1


def _universe(state: GameState) -> list[A.Action]:
    """Every action of every kind that could be named in this game, and a few that can't."""
    p = get_pack(state.pack)
    areas = [a.id for sm in p.sides for a in sm.side.areas] + ["nowhere"]
    cards = [c.id for c in p.cards.development] + ["basic-combat", "nothing"]
    dreams = [c.id for c in p.cards.dreams] + [""]
    sides = [-2, 0, 1, 2, 3]
    out: list[A.Action] = [A.ChooseTurnStart(position=i) for i in range(-1, 14)]
    out += [A.Conquer(area=a) for a in areas]
    out += [A.PlaceDreamer(night=n.id) for n in p.matrix.nights] + [A.PlaceDreamer(night="noon")]
    out += [A.ChooseDay(action=a, ignore=i) for a in p.matrix.rondel for i in (False, True)]
    out += [A.DiscardDream(card=c) for c in dreams] + [A.KeepDreams(), A.Done(), A.PayLimbo()]
    out += [A.ReturnFromLimbo(count=n) for n in range(-1, 6)]
    out += [A.TakeDream(card=c) for c in dreams] + [A.PlayDream(card=c) for c in dreams]
    out += [
        t(card=c)
        for t in (A.DiscardDevelopment, A.PlayUpgrade, A.PlayPloy, A.KeepCard, A.PlayCombatCard)
        for c in cards
    ]
    out += [A.React(kind=k) for k in ("conform", "dissent", "pass")]
    out += [
        t(area=a)
        for t in (
            A.ProduceIn,
            A.BuildFortLevel,
            A.PayFollower,
            A.AddShadow,
            A.RecoverTo,
            A.RetreatTo,
            A.ChooseArea,
        )
        for a in areas
    ]
    out += [A.MoveShaper(to=a) for a in areas]
    out += [A.MoveFollower(source=a, to=b) for a in areas for b in areas]
    out += [A.ConvertUnit(area=a, side=s) for a in areas for s in sides]
    out += [A.StartConflict(area=a, sides=(x, y)) for a in areas for x in sides for y in sides]
    out += [A.ClimbMarker(marker=m) for m in (-1, 0, 1, 2)] + [A.ChooseOption(index=i) for i in range(-1, 4)]
    out += [A.TakeBonus(take=b) for b in (True, False)] + [A.TakeVictory(take=b) for b in (True, False)]
    out += [A.ChooseAction(action=a) for a in p.matrix.rondel]
    out += [A.PlaysFirst(seat=s) for s in sides] + [A.BreakTie(winner=s) for s in sides]
    out += [A.ChooseNightmare(number=n) for n in range(0, 10)] + [A.MoveNightmare(to=a) for a in areas + ["cathedral"]]
    out += [A.DevourUnit(area=a, side=s) for a in areas for s in sides]
    out += [A.TakePiece(piece=sp.piece) for sp in p.tracks.divergent_paths] + [A.TakePiece(piece="9Z")]
    return out


def test_the_universe_names_every_action_type():
    state = new_game(config(2)).state
    assert {type(a) for a in _universe(state)} == set(A.ACTION_TYPES)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_apply_accepts_exactly_the_legal_actions(players):
    states = [s for i, (s, _) in enumerate(random_game(players, seed=99)) if i % 11 == 0]
    assert len(states) > 20
    universe = _universe(states[0])
    for state in states:
        legal = legal_actions(state)
        for action in universe:
            if action in legal:
                apply(state, action)
            else:
                with pytest.raises(IllegalAction) as err:
                    apply(state, action)
                assert str(err.value)


def test_a_malformed_action_is_invalid_not_illegal():
    state = new_game(config(2)).state
    with pytest.raises(InvalidAction):
        check(state, "conquer")
    with pytest.raises(InvalidAction):
        A.decode_action(b'{"a": "conquer"}')
    with pytest.raises(InvalidAction):
        A.decode_action(b'{"a": "teleport", "area": "x"}')
    assert A.decode_action(A.encode_action(A.Conquer(area="x"))) == A.Conquer(area="x")


def test_the_finished_game_refuses_everything():
    state, _ = play(2, seed=3)
    assert legal_actions(state) == ()
    with pytest.raises(NoDecision):
        apply(state, A.React(kind="pass"))


@pytest.mark.parametrize("players", [2, 4])
def test_seed_plus_actions_replays_exactly(players):
    final, actions = play(players, seed=5)
    state = new_game(config(players, 5)).state
    for a in actions:
        state = apply(state, a)
    assert state == final
    assert msgspec.msgpack.encode(state) == msgspec.msgpack.encode(final)


def test_different_seeds_give_different_games():
    a = new_game(config(2, 1)).state
    b = new_game(config(2, 2)).state
    assert (a.first_player, a.rng) != (b.first_player, b.rng)


def test_unchanged_parts_are_shared_between_states():
    states = [s for s, _ in random_game(2, seed=4)]
    late = states[-40:]
    shared = sum(1 for x, y in pairwise(late) if x.areas is y.areas)
    assert shared >= len(late) // 2
    assert all(x.config is y.config for x, y in pairwise(late))


def _hidden_ids(state: GameState, seat: int) -> set[str]:
    d = state.decks
    hidden = set(d.development + d.dream + d.conflict + d.development2 + d.dream2 + d.conflict2)
    for pl in state.players:
        if pl.seat != seat:
            hidden |= set(pl.hand) | set(pl.dreams)
    visible = set(state.players[seat].hand + state.players[seat].dreams) if seat >= 0 else set()
    visible |= set(d.dream_offer + d.development_discard + d.removed)
    for pl in state.players:
        visible |= set(pl.dreams_played) | {c for stack in pl.display for c in stack}
    return hidden - visible - {"basic-combat"}


@pytest.mark.parametrize("players", [2, 4])
def test_views_leak_no_hidden_card(players):
    checked = 0
    for i, (state, _) in enumerate(random_game(players, seed=11)):
        if i % 5:
            continue
        for seat in list(range(players)) + [-1]:
            view = player_view(state, seat) if seat >= 0 else spectator_view(state)
            blob = msgspec.json.encode(view).decode()
            for card in _hidden_ids(state, seat):
                assert f'"{card}"' not in blob, (seat, card)
            assert view.state.rng.state == 0
            if state.phase != "over":  # seed + public actions would replay every secret
                assert view.state.config.seed == 0
            checked += 1
    assert checked > 50


def test_the_seed_is_shown_once_the_game_is_over():
    state, _ = play(2, seed=12)
    assert player_view(state, 0).state.config.seed == 12


def test_events_redact_private_cards_for_other_seats():
    res = new_game(config(2, 8))
    state = res.state
    while present(state.decision).kind != "choose_day":
        state = apply(state, legal_actions(state)[0])
    result = step(state, next(a for a in all_of(legal_actions(state), A.ChooseDay) if a.ignore))
    drew = of_kind(result.events, E.DrewDevelopment)
    assert drew and drew[0].seat == state.active and drew[0].SECRET == ("cards",)
    other = 1 - state.active
    assert HIDDEN not in drew[0].cards
    assert narrow(redact(drew[0], other), E.DrewDevelopment).cards == (HIDDEN, HIDDEN)
    assert narrow(redact(drew[0], None), E.DrewDevelopment).cards == (HIDDEN, HIDDEN)
    assert narrow(redact(drew[0], state.active), E.DrewDevelopment).cards == drew[0].cards


def test_errors_share_one_base():
    assert issubclass(IllegalAction, ActionError) and issubclass(InvalidAction, ActionError)
