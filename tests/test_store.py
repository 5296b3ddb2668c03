"""The Store: history, cursor, undo/redo policies, listeners."""

from __future__ import annotations

import pytest

from nctui.games.nightmare_cathedral.bots.random_bot import RandomBot
from nctui.games.nightmare_cathedral.content.loader import get_pack
from nctui.games.nightmare_cathedral.engine import IllegalAction, events as E, new_game, player_view
from nctui.games.nightmare_cathedral.engine.actions import ChooseDay, ChooseTurnStart, Conquer, DiscardDream, React
from nctui.games.nightmare_cathedral.engine.events import HIDDEN
from nctui.platform import registry
from nctui.platform.store import (
    PracticePolicy,
    ReplayError,
    StaleState,
    Store,
    StoreError,
    StrictPolicy,
    UndoRefused,
    WrongSeat,
)
from tests.helpers import human_config, store_moves

NIGHTMARE_CATHEDRAL = registry.game("nightmare-cathedral")


def play_until(store: Store, kind: str, seed: int = 0) -> None:
    """Random decisions until one of ``kind`` is due."""
    bots = [RandomBot(seed + i) for i in range(len(store.state.players))]
    while store.state.decision is not None and store.state.decision.kind != kind:
        d = store.state.decision
        store.dispatch(bots[d.seat].choose(player_view(store.state, d.seat)))
    assert store.state.decision is not None, f"the game ended before a {kind} decision"


# ----------------------------------------------------------------------------------------------


def test_state_id_grows_by_one_per_action():
    store = Store(human_config())
    assert store.state_id == 0 and store.actions() == ()
    for i in range(1, 30):
        store_moves(store, 1)
        assert store.state_id == i
        assert len(store.actions()) == i


def test_undo_redo_round_trip_gives_identical_states():
    store = Store(human_config(seed=3))
    states = [store.state]
    for _ in range(40):
        store_moves(store, 1, seed=3)
        states.append(store.state)
    for i in range(40, 0, -1):
        store.undo()
        assert store.state == states[i - 1]
    assert not store.can_undo()
    for i in range(1, 41):
        store.redo()
        assert store.state == states[i]
    assert not store.can_redo()
    # A history rebuilt from the actions alone reaches the same state.
    assert Store(human_config(seed=3), actions=store.actions()).state == store.state


def test_undo_at_the_start_is_refused():
    store = Store(human_config())
    with pytest.raises(UndoRefused, match="start of the game"):
        store.undo()
    with pytest.raises(StoreError, match="nothing to redo"):
        store.redo()


def test_stale_state_id_is_refused():
    store = Store(human_config())
    seen = store.state_id
    store_moves(store, 2)
    before = store.state
    action = store.state.decision.options[0]
    with pytest.raises(StaleState, match=f"chosen at state {seen}, it is now state 2"):
        store.dispatch(action, seen_state_id=seen)
    assert store.state is before and store.state_id == 2
    store.dispatch(action, seen_state_id=2)
    assert store.state_id == 3


def test_wrong_seat_is_refused():
    store = Store(human_config())
    d = store.state.decision
    other = 1 - d.seat
    names = ("Red", "Blue")  # seats named as the game labels them, never by their index
    with pytest.raises(WrongSeat, match=f"^{names[other]} cannot decide now: it is {names[d.seat]}'s decision"):
        store.dispatch(d.options[0], seat=other)
    assert store.state_id == 0


def test_engine_refusal_leaves_history_unchanged():
    store = Store(human_config())
    store_moves(store, 5)
    before, last = store.state, store.last_id
    with pytest.raises(IllegalAction):
        store.dispatch(React(kind="pass"))
    assert store.state is before and store.last_id == last


def test_redo_kept_for_the_same_action_and_dropped_for_another():
    store = Store(human_config(seed=5))
    store_moves(store, 10, seed=5)
    end, last = store.state, store.last_id
    for _ in range(3):
        store.undo()
    same = store.entry(store.state_id + 1).action
    store.dispatch(same)
    assert store.can_redo() and store.last_id == last  # the branch is still there
    store.redo()
    store.redo()
    assert store.state == end
    for _ in range(3):
        store.undo()
    other = next(a for a in store.state.decision.options if a != store.entry(store.state_id + 1).action)
    store.dispatch(other)
    assert not store.can_redo() and store.last_id == store.state_id == last - 2


def test_undo_then_the_same_action_gives_the_same_draw():
    store = Store(human_config(seed=9))
    play_until(store, "choose_day", seed=9)
    draw = next(a for a in store.state.decision.options if isinstance(a, ChooseDay) and a.ignore)
    store.dispatch(draw)
    after_first = store.state
    store.undo()
    # A different line of play in between changes nothing: the RNG lives in the state.
    other = next(a for a in store.state.decision.options if a != draw)
    store.dispatch(other)
    store.undo()
    store.dispatch(draw)
    assert store.state == after_first
    assert store.state.players[store.state.active].hand == after_first.players[after_first.active].hand


def test_undo_mine_goes_back_before_the_seats_latest_decision():
    store = Store(human_config(seed=2))
    play_until(store, "react", seed=2)  # the active player decided, now the other reacts
    active = store.state.active
    reactor = store.state.decision.seat
    store.dispatch(React(kind="pass"))
    mine = max(i for i in range(store.state_id + 1) if store.entry(i).seat == active)
    store.undo_mine(active)
    assert store.state_id == mine - 1
    assert store.state.decision.seat == active
    with pytest.raises(UndoRefused, match="no decision yet"):
        Store(human_config()).undo_mine(reactor)


def test_timeline_and_jump():
    store = Store(human_config(seed=4))
    store_moves(store, 12, seed=4)
    final = store.state
    line = store.timeline()
    assert [t.state_id for t in line] == list(range(13))
    assert line[0].seat == -1 and line[0].summary == "Setup"
    assert line[1].summary.startswith("Start the Turn track at position")
    assert all(t.seat == store.entry(t.state_id - 1).state.decision.seat for t in line[1:])
    store.jump(0)
    assert store.state_id == 0 and len(store.timeline()) == 13  # jumping keeps the branch
    store.jump(12)
    assert store.state == final
    with pytest.raises(StoreError, match="no state 99"):
        store.jump(99)


def test_the_timeline_reads_a_new_branch_after_an_undo_and_each_seat_its_own_way():
    """Issue 39: each decision's summary is kept (a long game's timeline described every decision
    at every opening); a decision taken again differently after an undo reads as the new one,
    and a seat's secret summaries stay its own."""
    store = Store(human_config(seed=7))
    play_until(store, "discard_dreams", seed=7)
    seat = store.state.decision.seat
    first, second = store.state.players[seat].dreams[:2]
    store.dispatch(DiscardDream(card=first))
    at = store.state_id
    names = {d.id: d.name for d in get_pack("base").cards.dreams}
    assert store.timeline()[at].summary == f"Discard {names[first]}"
    assert store.timeline(viewer=1 - seat)[at].summary == "Discard a Dream card"
    store.undo()
    assert store.timeline()[at].summary == f"Discard {names[first]}"  # the redo branch
    store.dispatch(DiscardDream(card=second))
    assert store.timeline()[at].summary == f"Discard {names[second]}"
    assert store.timeline(viewer=seat)[at].summary == f"Discard {names[second]}"
    assert store.timeline(viewer=1 - seat)[at].summary == "Discard a Dream card"
    assert [t.summary for t in store.timeline()] == [store.summarize(i) for i in range(store.last_id + 1)]


def test_timeline_hides_other_seats_discarded_dreams():
    store = Store(human_config(seed=7))
    play_until(store, "discard_dreams", seed=7)
    seat = store.state.decision.seat
    card = store.state.players[seat].dreams[0]
    store.dispatch(DiscardDream(card=card))
    name = next(d.name for d in get_pack("base").cards.dreams if d.id == card)
    assert store.timeline()[-1].summary == f"Discard {name}"
    assert store.timeline(viewer=seat)[-1].summary == f"Discard {name}"
    assert store.timeline(viewer=1 - seat)[-1].summary == "Discard a Dream card"
    assert store.timeline(viewer=None)[-1].summary == "Discard a Dream card"


def test_events_since_are_redacted_per_seat():
    store = Store(human_config(seed=6))
    store.dispatch(ChooseTurnStart(position=0))
    dealt = [e for e in store.events_since(0, 0) if e.kind == "dealt_development"]
    mine = next(e for e in dealt if e.seat == 0)
    theirs = next(e for e in dealt if e.seat == 1)
    assert HIDDEN not in mine.cards and theirs.cards == (HIDDEN,) * len(theirs.cards)
    spectator = [e for e in store.events_since(0, None) if e.kind == "dealt_development"]
    assert all(set(e.cards) == {HIDDEN} for e in spectator)
    assert store.events_since(1, 0) == []
    assert [e.kind for e in store.events_since(-1, 0)][:2] == ["setup_board", "first_player"]


def test_subscribe_and_unsubscribe():
    store = Store(human_config())
    seen: list[int] = []
    unsubscribe = store.subscribe(lambda s: seen.append(s.state_id))
    store_moves(store, 2)
    store.undo()
    store.redo()
    store.jump(0)
    assert seen == [1, 2, 1, 2, 0]
    unsubscribe()
    store_moves(store, 1)
    assert seen == [1, 2, 1, 2, 0]
    unsubscribe()  # twice is harmless


def test_a_failing_listener_does_not_silence_the_others():
    store = Store(human_config())
    seen: list[int] = []

    def broken(_: Store) -> None:
        raise RuntimeError("listener bug")

    store.subscribe(broken)
    store.subscribe(lambda s: seen.append(s.state_id))
    with pytest.raises(RuntimeError, match="listener bug"):
        store_moves(store, 1)
    assert seen == [1] and store.state_id == 1


def test_replaying_a_list_reports_the_refused_action():
    cfg = human_config()
    store = Store(cfg)
    store_moves(store, 4)
    actions = list(store.actions())
    actions[2] = Conquer(area="nowhere")
    with pytest.raises(ReplayError, match="action 3") as err:
        Store(initial=new_game(cfg), actions=actions)
    assert err.value.index == 3
    with pytest.raises(TypeError):
        Store()


# ----------------------------------------------------------------------------------------------
# Undo policies


def test_practice_policy_undoes_anything():
    store = Store(human_config(seed=8), policy=PracticePolicy())
    store_moves(store, 30, seed=8)
    while store.can_undo():
        store.undo()
    assert store.state_id == 0


def test_strict_policy_refuses_across_another_seats_decision():
    store = Store(human_config(seed=1), policy=StrictPolicy())
    store.dispatch(ChooseTurnStart(position=0))  # deals cards: random
    first = store.state.first_player
    other = 1 - first
    # SETUP 17 conquers in snake order: first, other, other, first.
    for _ in range(3):
        store.dispatch(store.state.decision.options[0])
    assert [store.entry(i).seat for i in (2, 3)] == [first, other]
    assert not store.can_undo(first)
    with pytest.raises(UndoRefused, match=f"{('Red', 'Blue')[other]} has decided since"):
        store.undo(first)
    store.undo(other)  # its own two conquests, which revealed nothing
    store.undo(other)
    assert store.state_id == 2
    with pytest.raises(UndoRefused, match=f"{('Red', 'Blue')[first]} has decided since"):
        store.undo(other)
    store.undo(first)  # the first player's conquest
    with pytest.raises(UndoRefused, match="cannot be taken back: it revealed hidden information"):
        store.undo(first)  # choosing the Turn track start dealt the cards
    with pytest.raises(UndoRefused, match="which seat"):
        store.undo()


def test_strict_policy_refuses_undoing_a_draw():
    store = Store(human_config(seed=11), policy=StrictPolicy())
    play_until(store, "choose_day", seed=11)
    seat = store.state.decision.seat
    draw = next(a for a in store.state.decision.options if isinstance(a, ChooseDay) and a.ignore)
    store.dispatch(draw)
    assert "hidden cards" in store.entry(store.state_id).revealed
    with pytest.raises(UndoRefused, match="cannot be taken back"):
        store.undo(seat)
    with pytest.raises(UndoRefused):
        store.undo_mine(seat)
    with pytest.raises(UndoRefused):
        store.jump(0, seat=seat)
    store.jump(store.state_id)  # standing still is no undo


revealed_by = NIGHTMARE_CATHEDRAL.reveals


def test_revealed_by_names_each_kind_of_revelation():
    # The events of a step say what it revealed (test_secrecy checks that every random draw and
    # every card leaving a hidden pile is declared by one): the store names the first one.
    assert revealed_by(()) == ""
    assert revealed_by((E.Conquered(seat=0, area="ash-nave", followers=2),)) == ""
    private = (E.DrewDevelopment(seat=1, cards=("x",), count=1),)
    assert revealed_by(private) == "it showed hidden cards (drew development)"
    public = (E.DreamOfferRefilled(card="x"),)
    assert revealed_by(public) == "it revealed hidden information (dream offer refilled)"
    chance = (E.DeckShuffled(deck="dream"),)
    assert revealed_by(chance) == "it used chance (deck shuffled)"
    assert "deck shuffled" in revealed_by((E.Conquered(seat=0, area="ash-nave", followers=2),) + chance + public)
    assert revealed_by((E.FirstPlayer(seat=0, solo=True),)) == ""  # solo: you always start
    assert "chance" in revealed_by((E.FirstPlayer(seat=0),))  # else drawn at random
    after = Store(human_config(seed=12))
    after.dispatch(ChooseTurnStart(position=0))  # deals the cards
    assert after.entry(1).revealed == revealed_by(after.entry(1).events) != ""
