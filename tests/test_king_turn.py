"""The King of Horrors (solo rulebook): rondel, Horror Die, Power, Dreams, reactions, scoring."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from nctui.games.nightmare_cathedral.engine import (
    board,
    cards,
    events as E,
    flow,
    king as kg,
    king_dreams as kd,
    king_turn as kt,
    work as W,
)
from nctui.games.nightmare_cathedral.engine.actions import TakeDream
from nctui.games.nightmare_cathedral.engine.errors import IllegalAction
from nctui.games.nightmare_cathedral.engine.events import Event
from nctui.games.nightmare_cathedral.engine.invariants import violations
from nctui.games.nightmare_cathedral.engine.scoring import end_game, scores
from nctui.platform import rng
from tests import helpers as H
from tests.helpers import narrow, present
from tests.test_solo_setup import solo_setup


@pytest.fixture
def state():
    return solo_setup()


def with_king(state, **kw):
    return replace(state, king=replace(state.king, **kw))


def dreams_of(state, suit=None, vp=None):
    return [
        d.id
        for d in board.pack(state).cards.dreams
        if d.stage == 1 and (suit is None or d.suit == suit) and (vp is None or d.vp == vp)
    ]


def test_ahead_is_the_two_day_spaces_clockwise(state):
    assert kt.ahead(with_king(state, dreamer="maneuver")) == ("develop", "ritual")
    assert kt.ahead(with_king(state, dreamer="ritual")) == ("summon", "fortify")


def test_rulebook_example_roll_4_from_maneuver_ends_on_summon(state):
    # rondel: ritual, summon, fortify, maneuver, develop
    s = with_king(state, dreamer="maneuver", day_cultists=(1, 1, 1, 0, 2))
    assert kt.count_cultists(s, 4) == ("develop", "develop", "ritual", "summon")
    ev: list[Event] = []
    s = kt.move_dreamer(s, 4, ev)
    assert present(s.king).dreamer == "summon"
    moved = narrow(ev[-1], E.KingDreamerMoves)
    assert moved.kind == "king_dreamer_moves" and moved.roll == 4
    assert moved.counted == ("develop", "develop", "ritual", "summon") and moved.to == "summon"


def test_counting_loops_round_the_rondel(state):
    s = with_king(state, dreamer="summon", day_cultists=(0, 0, 1, 0, 0))
    assert kt.count_cultists(s, 3) == ("fortify",) * 3
    assert kt.count_cultists(with_king(state, day_cultists=(0,) * 5), 2) == ()


def test_horror_die_rolls_2_to_4_from_the_rng(state):
    seen = set()
    for seed in range(40):
        value, after = kg.roll_horror_die(replace(state, rng=rng.seeded(seed)), [])
        seen.add(value)
        assert after.rng != rng.seeded(seed)
    assert seen == {2, 3, 4}


@pytest.mark.parametrize(
    "cultists,tucked,power,to_dreams",
    [
        (1, 0, 1, 0),
        (2, 0, 1, 1),
        (1, 1, 1, 1),
        (3, 1, 3, 1),
        (3, 0, 3, 0),
        (7, 0, 5, 2),
        (1, 6, 6, 1),
        (4, 3, 5, 2),
    ],
)
def test_power_and_cultists_to_dreams(state, cultists, tucked, power, to_dreams):
    up = tuple(f"x{i}" for i in range(tucked))
    s = with_king(state, dreamer="fortify", day_cultists=(1, 1, cultists, 1, 1), tucked=((), (), up, (), ()))
    got, s = kt.gather_power(s, [])
    assert got == power
    assert present(s.king).day_cultists[2] == 0 and present(s.king).card_cultists[2] == cultists - to_dreams
    assert sum(present(s.king).dream_cultists) == to_dreams and present(s.king).completed == ()


def test_cultist_goes_to_the_dream_missing_more(state):
    lo, hi = dreams_of(state, vp=3)[0], dreams_of(state, vp=5)[0]
    s = with_king(state, dreams=(lo, hi), dream_cultists=(0, 0))
    s = kd.place_on_dream(s, [], "power")
    assert present(s.king).dream_cultists == (0, 1)
    s = with_king(state, dreams=(lo, hi), dream_cultists=(0, 2))  # tie 3-0 and 5-2: the lower one
    assert present(kd.place_on_dream(s, [], "power").king).dream_cultists == (1, 2)


def test_completing_a_dream(state):
    a, b = dreams_of(state, vp=3)[:2]
    s = with_king(state, dreams=(a, b), dream_cultists=(2, 2))
    ev: list[Event] = []
    s = kd.place_on_dream(s, ev, "power")
    assert (
        present(s.king).completed == (a,) and present(s.king).dreams == (b,) and present(s.king).dream_cultists == (2,)
    )
    assert any(e.kind == "king_dream_completed" for e in ev)


def test_no_dream_returns_the_cultist(state):
    ev: list[Event] = []
    s = kd.place_on_dream(with_king(state, dreams=(), dream_cultists=()), ev, "power")
    assert present(s.king).dreams == () and ev[-1].kind == "king_cultist_returned"


def _offer(state, offer):
    rest = tuple(c for c in state.decks.dream if c not in offer)
    pool = tuple(c for c in state.decks.dream_offer + state.decks.dream if c not in offer)
    return replace(state, decks=replace(state.decks, dream_offer=tuple(offer), dream=pool or rest))


def test_refill_prefers_most_completed_suit_then_fewest_vp(state):
    crowns = dreams_of(state, "crown")
    ladder3 = dreams_of(state, "ladder", 3)[0]
    crown_hi = max(crowns[1:], key=lambda c: cards.dream(state, c).vp)
    crown_lo = min(crowns[1:], key=lambda c: cards.dream(state, c).vp)
    s = _offer(state, (ladder3, crown_hi, crown_lo))
    keep = s.king.dreams[0]
    s = with_king(s, dreams=(keep,), dream_cultists=(1,), completed=(crowns[0],))
    top = s.decks.dream[0]
    s = kd.refill_dreams(s, [])
    assert present(s.king).dreams == (keep, crown_lo) and present(s.king).dream_cultists == (1, 0)  # new card on top
    assert s.decks.dream_offer == (ladder3, crown_hi, top)


def test_refill_tie_is_the_humans_choice(state):
    a, b = dreams_of(state, "crown", 4)[:2]
    c = dreams_of(state, "dagger", 5)[0]
    s = with_king(_offer(state, (a, b, c)), dreams=(state.king.dreams[0],), dream_cultists=(0,))
    s = H.resolve(kd.refill_dreams(s, []), [])
    assert present(s.decision).seat == 0 and set(flow.legal_actions(s)) == {TakeDream(card=a), TakeDream(card=b)}
    with pytest.raises(IllegalAction, match="SOLO REFILL DREAMS"):
        flow.check(s, TakeDream(card=c))
    s = kd.KING_DREAM.apply(s, narrow(s.work, W.KingDreamWork), TakeDream(card=b), [])
    assert present(s.king).dreams[-1] == b and s.work is None


def test_refill_from_zero_takes_two(state):
    low = dreams_of(state, "ladder", 3)[0]
    high = [dreams_of(state, "crown", 4)[0], dreams_of(state, "dagger", 4)[0]]
    s = _offer(state, (high[0], low, high[1]))
    s = replace(s, decks=replace(s.decks, dream=(dreams_of(state, "rampart", 3)[0],)))
    s = kd.refill_dreams(with_king(s, dreams=(), dream_cultists=()), [])
    assert present(s.king).dreams == (low, present(s.king).dreams[1]) and len(present(s.king).dreams) == 2
    assert cards.dream(s, present(s.king).dreams[1]).vp == 3  # the refilled display's 3 VP beats the two 4s


def test_king_conforms_when_your_action_is_ahead(state):
    s = with_king(state, dreamer="maneuver")
    ev: list[Event] = []
    s = kt.king_reacts(s, "ritual", ev)
    assert present(s.king).day_cultists[0] == 2 and sum(present(s.king).dream_cultists) == 1
    assert ev[0].kind == "king_conforms"


def _top(state, card):
    deck = (card,) + tuple(c for c in state.decks.development if c != card)
    return replace(state, decks=replace(state.decks, development=deck))


def test_king_dissents_upgrade_is_tucked(state):
    up = next(c for c in state.decks.development if cards.is_upgrade(state, c))
    s = kt.king_reacts(_top(with_king(state, dreamer="maneuver"), up), "summon", [])
    slot = kg.rondel(s).index(cards.development(s, up).action)
    assert present(s.king).tucked[slot] == (up,) and len(present(s.king).hand) == 2
    assert violations(s) == []


def test_king_dissents_ploy_goes_to_hand(state):
    ploy = next(c for c in state.decks.development if cards.is_ploy(state, c))
    s = kt.king_reacts(_top(state, ploy), "develop", [])  # ritual: ahead are summon, fortify
    assert ploy in present(s.king).hand and len(present(s.king).hand) == 3 and s.players[1].hand == ()
    assert violations(s) == []


def test_king_scoring_suit_sets_and_hand(state):
    crowns = dreams_of(state, "crown")[:3]
    dagger = dreams_of(state, "dagger")[0]
    s = with_king(state, completed=tuple(crowns) + (dagger,), hand=("a", "b", "c", "d", "e", "f", "g"))
    printed = sum(cards.dream(s, c).vp for c in crowns + [dagger])
    k = scores(s)[1]
    assert k.dreams == printed + 3 + 0 and k.upgrades == 2


def test_tie_goes_to_the_king(state):
    s = end_game(state, "time", [])
    sc = present(s.outcome).scores
    assert sc[0].total == sc[1].total == 5 and present(s.outcome).winners == (1,)  # the shared Devoured places


def test_begin_king_turn_rolls_moves_and_gathers(state):
    ev: list[Event] = []
    s = with_king(state, dreamer="maneuver", day_cultists=(1, 1, 1, 0, 2))
    p, s = kt.begin_king_turn(s, ev)
    roll = narrow(ev[0], E.KingHorrorDie).value
    assert present(s.king).dreamer == {2: "develop", 3: "ritual", 4: "summon"}[roll]
    assert [e.kind for e in ev][:3] == ["king_horror_die", "king_dreamer_moves", "king_power"]
    assert ev[-1].kind == "king_action" and p == 1  # 1 or 2 Cultists on an empty card: Power 1


def test_cultists_return_and_one_goes_back_on_the_dreamer_space(state):
    s = with_king(state, dreamer="summon", day_cultists=(1, 0, 1, 1, 1), card_cultists=(0, 3, 0, 0, 0))
    s = kt.return_cultists(s, [])
    assert present(s.king).card_cultists == (0,) * 5 and present(s.king).day_cultists == (1, 1, 1, 1, 1)
