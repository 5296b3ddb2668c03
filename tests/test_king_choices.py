"""The King's ties its rules leave to "you" (solo rulebook): MANEUVER's last tie ("you may choose
between the tied areas"), DEVELOP's tuck ("your choice if tied") and the harder modifier's
powered-up actions at setup ("1 or 2 actions of your choice"). The King makes no free choice:
each is a decision for the human's seat, and the King's action waits for it."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from nctui.games.nightmare_cathedral.content.schema import ActionId
from nctui.games.nightmare_cathedral.describe import describe_decision
from nctui.games.nightmare_cathedral.engine import (
    board,
    cards,
    events as E,
    king as kg,
    king_actions as ka,
    king_turn as kt,
    new_game,
    work as W,
)
from nctui.games.nightmare_cathedral.engine.actions import ChooseAction, ChooseArea, ChooseTurnStart, Conquer, TakePiece
from nctui.games.nightmare_cathedral.engine.errors import IllegalAction
from nctui.games.nightmare_cathedral.engine.events import Event
from nctui.games.nightmare_cathedral.engine.flow import apply, legal_actions, step
from nctui.games.nightmare_cathedral.engine.invariants import violations
from nctui.games.nightmare_cathedral.engine.ops import set_player
from nctui.games.nightmare_cathedral.engine.table import CONTINUATIONS
from nctui.games.nightmare_cathedral.engine.views import player_view
from tests import helpers as H
from tests.helpers import narrow, of_kind, present
from tests.test_king_actions import K, f, shape
from tests.test_solo_setup import SOLO, solo_setup

YOU = 0
RONDEL: tuple[ActionId, ...] = ("ritual", "summon", "fortify", "maneuver", "develop")


def _solo(config):
    """A new solo game up to its first decision, and its setup events."""
    res = new_game(config)
    return res.state, list(res.events)


@pytest.fixture
def king_turn(monkeypatch):
    """Play the King's turn with a Horror Die showing ``roll`` (from its Dreamer on Ritual, with a
    Cultist on every Day space: 3 = Maneuver, 4 = Develop); its conflict loop is left out."""
    monkeypatch.setitem(CONTINUATIONS, W.KingConflicts, lambda s, then, ev: s)

    def play(state, roll):
        monkeypatch.setattr(kg, "roll_horror_die", lambda s, ev: (roll, s))
        ev: list[Event] = []
        return H.play_king_turn(replace(state, active=K), ev), ev

    return play


def _placed(ev):
    return [e.area for e in ev if e.kind == "king_maneuvers"]


# --- MANEUVER: "If still multiple areas are available, you may choose between the tied areas."


def _tied_maneuver():
    # bell-hollow and moth-garden: both empty, both moon (marked on the same turn), no damage
    state = solo_setup()
    back = sum(board.area(state, a).shadows for a in ("bell-hollow", "moth-garden"))
    state = shape(state, bell_hollow=dict(shadows=0), moth_garden=dict(shadows=0))
    return replace(state, shadows=state.shadows + back)


def test_maneuver_tie_asks_you_with_exactly_the_tied_areas(king_turn):
    state, _ = king_turn(_tied_maneuver(), 3)
    d = state.decision
    assert d.seat == YOU and d.kind == "king_maneuver"
    assert set(d.options) == {ChooseArea(area="bell-hollow"), ChooseArea(area="moth-garden")}
    assert f(state, "bell-hollow")[K] == f(state, "moth-garden")[K] == 0  # nothing placed before you choose


def test_maneuver_places_where_you_choose_then_spends_the_rest(king_turn):
    state, ev = king_turn(_tied_maneuver(), 3)  # Power 1: 3 MP
    before = state.players[K].supply
    res = step(state, ChooseArea(area="moth-garden"))
    state, ev = res.state, ev + list(res.events)
    assert f(state, "moth-garden")[K] == 1 and f(state, "bell-hollow")[K] in (0, 1)
    while present(state.decision).kind == "king_maneuver":  # a later MP may tie again
        res = step(state, legal_actions(state)[0])
        state, ev = res.state, ev + list(res.events)
    assert _placed(ev)[0] == "moth-garden" and len(_placed(ev)) == 3
    assert next(e.chosen for e in ev if e.kind == "king_maneuvers")  # your choice
    assert state.players[K].supply == before - 3
    assert present(state.decision).seat == YOU and present(state.decision).kind in (
        "react",
        "king_dream",
    )  # the turn went on
    assert violations(state) == []


def test_maneuver_refuses_an_area_that_is_not_tied(king_turn):
    state, _ = king_turn(_tied_maneuver(), 3)
    with pytest.raises(IllegalAction, match="SOLO MANEUVER"):
        apply(state, ChooseArea(area="ember-reach"))


def test_maneuver_without_a_tie_asks_nothing(king_turn):
    state, ev = king_turn(solo_setup(), 3)  # ember-reach is the only best area, each time
    assert _placed(ev) == ["ember-reach"] * 3
    assert isinstance(state.work, (W.ReactWork, W.KingDreamWork))  # the turn went on: no MP left to place


def test_maneuver_step_stops_on_a_tie_and_keeps_the_rest_of_its_mp():
    s = ka.spend_mp(_tied_maneuver(), 3, [])
    work = narrow(s.work, W.KingManeuverWork)
    assert work.options == ("bell-hollow", "moth-garden") and work.mp == 2 and work.seat == YOU
    assert not any(isinstance(fr.then, W.KingConflicts) for fr in s.frames)  # the conflicts wait for the MP


# --- DEVELOP: "tuck the last drawn card under the Action card with the fewest cards tucked
# (your choice if tied)"


def _in_deck(state, kind, n):
    return [c for c in state.decks.development if cards.development(state, c).kind == kind][:n]


def _ploys(state, n):
    return _in_deck(state, "ploy", n)


def _upgrades(state, n):
    return _in_deck(state, "upgrade", n)


def _deck_top(state, top, tucked=None):
    """Put ``top`` on the Development deck; ``tucked`` (action -> cards) moves cards under the
    King's Action cards (taken out of the deck, so that cards stay conserved)."""
    tucked = tucked or {}
    under = [c for cs in tucked.values() for c in cs]
    rest = tuple(c for c in state.decks.development if c not in top and c not in under)
    state = replace(state, decks=replace(state.decks, development=tuple(top) + rest))
    return kg.set_king(state, replace(state.king, tucked=tuple(tuple(tucked.get(a, ())) for a in RONDEL)))


def test_develop_tuck_tie_asks_you_and_tucks_where_you_choose(king_turn):
    state = solo_setup()
    ploys = _ploys(state, 2)
    state, _ = king_turn(_deck_top(state, ploys), 4)  # Develop, Power 1: 2 Ploys drawn
    d = present(state.decision)
    assert d.seat == YOU and d.kind == "king_tuck" and narrow(state.work, W.KingTuckWork).card == ploys[1]
    assert cards.development(state, ploys[1]).name in describe_decision(state)
    assert set(d.options) == {ChooseAction(action=a) for a in RONDEL}  # nothing tucked yet: all tied
    assert ploys[0] in present(state.king).hand and violations(state) == []  # the rest went to its hand
    res = step(state, ChooseAction(action="fortify"))
    state = res.state
    assert present(state.king).tucked == ((), (), (ploys[1],), (), ())
    assert state.players[K].hand == () and ploys[1] not in present(state.king).hand
    assert any(e.card == ploys[1] for e in of_kind(res.events, E.KingTucks))
    assert kt.power(present(state.king), 2) == 1 and violations(state) == []


def test_develop_tuck_tie_offers_only_the_tied_cards_and_refuses_others(king_turn):
    state = solo_setup()
    ploys, ups = _ploys(state, 2), _upgrades(state, 3)
    state = _deck_top(state, ploys, {"ritual": ups[:1], "maneuver": ups[1:2], "develop": ups[2:]})
    state, _ = king_turn(state, 4)
    assert set(state.decision.options) == {ChooseAction(action="summon"), ChooseAction(action="fortify")}
    with pytest.raises(IllegalAction, match="SOLO DEVELOP"):
        apply(state, ChooseAction(action="ritual"))
    state = apply(state, ChooseAction(action="summon"))
    assert present(state.king).tucked[1] == (ploys[1],)


def test_develop_without_a_tie_asks_nothing(king_turn):
    state = solo_setup()
    ploys, ups = _ploys(state, 2), _upgrades(state, 4)
    state = _deck_top(state, ploys, {"ritual": ups[:1], "summon": ups[1:2], "maneuver": ups[2:3], "develop": ups[3:]})
    state, _ = king_turn(state, 4)
    assert state.decision.kind != "king_tuck" and state.king.tucked[2] == (ploys[1],)


def test_develop_upgrade_goes_under_its_action_without_asking(king_turn):
    state = solo_setup()
    up = _upgrades(state, 1)[0]
    state, _ = king_turn(_deck_top(state, [up, _ploys(state, 1)[0]]), 4)
    action = cards.development(state, up).action
    assert state.decision.kind != "king_tuck" and state.king.tucked[RONDEL.index(action)] == (up,)


# --- DIFFICULTY MODIFIERS (harder): "Draw and tuck 1 card each from the Development deck under
# 1 or 2 actions of your choice."


def _powered_start(option):
    state, _ = _solo(replace(SOLO, difficulty=(option,)))
    return apply(state, ChooseTurnStart(position=0))


def test_harder_powered_2_asks_twice_for_distinct_actions_and_tucks_a_card_under_each():
    state = _powered_start("harder_powered_2")
    deck = state.decks.development
    d = state.decision
    assert d.seat == YOU and d.kind == "king_powered" and set(d.options) == {ChooseAction(action=a) for a in RONDEL}
    res = step(state, ChooseAction(action="maneuver"))
    state = res.state
    assert present(state.decision).kind == "king_powered" and ChooseAction(action="maneuver") not in legal_actions(
        state
    )
    assert [e.kind for e in res.events] == ["king_tucks"] and narrow(res.events[0], E.KingTucks).card == deck[0]
    with pytest.raises(IllegalAction, match="SOLO DIFFICULTY MODIFIERS"):
        apply(state, ChooseAction(action="maneuver"))
    state = apply(state, ChooseAction(action="develop"))
    assert present(state.decision).kind == "solo_corner"  # then your corner
    assert present(state.king).tucked == ((), (), (), (deck[0],), (deck[1],)) and state.decks.development == deck[2:]
    assert [kt.power(present(state.king), i) for i in range(5)] == [0, 0, 0, 1, 1]  # Power counts them
    state = apply(state, Conquer(area="weeping-orchard"))
    state = apply(state, legal_actions(state)[0])
    assert state.phase == "turn" and violations(state) == []


def test_harder_powered_1_asks_once():
    state = _powered_start("harder_powered_1")
    state = apply(state, ChooseAction(action="summon"))
    assert present(state.decision).kind == "solo_corner" and [len(t) for t in present(state.king).tucked] == [
        0,
        1,
        0,
        0,
        0,
    ]


def test_without_the_modifier_nothing_is_tucked_at_setup():
    state, _ = _solo(SOLO)
    state = apply(state, ChooseTurnStart(position=0))
    assert present(state.decision).kind == "solo_corner" and not any(present(state.king).tucked)


def test_harder_powered_1_and_2_together_are_refused():
    with pytest.raises(ValueError, match=r"not both.*DIFFICULTY MODIFIERS"):
        _solo(replace(SOLO, difficulty=("harder_powered_1", "harder_powered_2")))


def test_the_tucked_card_waits_face_up_in_the_step_not_in_a_hand(king_turn):
    state = solo_setup()
    ploys = _ploys(state, 2)
    state, _ = king_turn(_deck_top(state, ploys), 4)
    tuck = narrow(state.work, W.KingTuckWork)
    assert tuck.card == ploys[1] and state.players[K].hand == () and ploys[1] not in present(state.king).hand
    assert violations(state) == []  # counted while it waits
    view = player_view(state, YOU)
    assert narrow(view.state.work, W.KingTuckWork).card == ploys[1]  # a tucked card is public


# --- MANEUVER: "place one of the King's Followers (from supply). If there is none remaining in
# supply, remove one from a different area first" — and it never removes its last one in an area


def test_maneuver_tie_asks_nothing_when_no_follower_can_be_placed(king_turn):
    state = _tied_maneuver()
    lone = {a.id: 1 for a in state.areas if a.followers[K] >= 2}  # its last Follower in each area
    state = shape(state, **{a.replace("-", "_"): dict(followers=(f(state, a)[0], 1)) for a in lone})
    pl = state.players[K]
    state = set_player(state, replace(pl, supply=0, devoured=pl.devoured + pl.supply + len(lone)))
    state, ev = king_turn(state, 3)
    assert state.decision.kind != "king_maneuver" and H.between_steps(state) and _placed(ev) == []
    assert "king_keeps_last" in [e.kind for e in ev]


def test_maneuver_tie_still_asks_when_a_follower_can_come_from_another_area(king_turn):
    state = _tied_maneuver()
    pl = state.players[K]
    state = set_player(state, replace(pl, supply=0, devoured=pl.devoured + pl.supply))
    state, _ = king_turn(state, 3)
    assert state.decision.kind == "king_maneuver"  # salt-spire and mirror-dunes hold 2 each


# --- COMPLETING THE KING'S DREAMS: "Immediately ... when one of the King's Dreams become
# completed": a Dream completed by the Maneuver's Cultists builds its piece before the rest


def test_a_dream_completed_by_the_maneuvers_cultists_asks_for_its_piece_first(king_turn, monkeypatch):
    from nctui.games.nightmare_cathedral.engine.events import Event
    from tests.test_solo_modes import VICTOR, yellow_position

    class ConflictsBegin(Event, tag="test_conflicts"):
        """A marker: the King's conflicts (stubbed) begin."""

    monkeypatch.setitem(CONTINUATIONS, W.KingConflicts, lambda s, then, ev: ev.append(ConflictsBegin()) or s)
    state, piece = yellow_position()  # Variable Length + Divergent Paths; its Dream VICTOR one Cultist short
    removed = board.area(state, "bone-cloister").shadows
    state = shape(state, bone_cloister=dict(followers=(0, 2), shadows=0))  # a Marked Area it controls
    state = replace(state, shadows=state.shadows + removed)
    pl = state.players[K]
    state = set_player(state, replace(pl, supply=pl.supply - 2))
    state, ev = king_turn(state, 3)  # Maneuver, Power 1: 3 MP, the first for a Cultist on a Dream
    assert state.king.completed == (VICTOR,) and state.decision.kind == "king_cathedral_piece"
    assert _placed(ev) == [] and "test_conflicts" not in [e.kind for e in ev]  # the rest waits for the piece
    res = step(state, TakePiece(piece=piece))
    state, later = res.state, [e.kind for e in res.events]
    while present(state.decision).kind == "king_maneuver":
        res = step(state, legal_actions(state)[0])
        state, later = res.state, later + [e.kind for e in res.events]
    assert later.index("cathedral_piece") < later.index("king_maneuvers") < later.index("test_conflicts")
    assert later.count("king_maneuvers") == 2 and violations(state) == []
