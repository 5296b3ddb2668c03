"""TURN STRUCTURE: the eight steps of the active player and the reactions."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from nctui.games.nightmare_cathedral.content.loader import get_pack
from nctui.games.nightmare_cathedral.engine import IllegalAction, actions as A, apply, board, legal_actions
from nctui.games.nightmare_cathedral.engine.ops import set_player
from nctui.games.nightmare_cathedral.engine.state import BASIC_COMBAT, HAND_LIMIT
from tests.helpers import all_of, first_turn, present


def ignore(state):
    """At a choose_day decision: the first Day space, ignoring its action to draw 2."""
    return next(a for a in all_of(legal_actions(state), A.ChooseDay) if a.ignore)


def test_the_dreamer_may_not_move_to_a_day_space_adjacent_to_its_night_space():
    state = first_turn()
    m = get_pack("base").matrix
    night = next(n for n in m.nights if n.id == state.players[state.active].dreamer)
    offered = {a.action for a in all_of(legal_actions(state), A.ChooseDay)}
    assert offered == set(m.rondel) - set(night.adjacent)
    with pytest.raises(IllegalAction, match="TURN STRUCTURE 1"):
        apply(state, A.ChooseDay(action=night.adjacent[0], ignore=True))


def test_every_legal_day_space_may_be_performed_or_ignored():
    from nctui.games.nightmare_cathedral.engine.turn import legal_days

    for seed in range(6):
        state = first_turn(seed=seed)
        seat = state.active
        days = all_of(legal_actions(state), A.ChooseDay)
        perform = {a.action for a in days if not a.ignore}
        ignore = {a.action for a in days if a.ignore}
        assert ignore == perform == set(legal_days(state, seat))


def test_ignoring_the_action_draws_two_development_cards():
    state = first_turn()
    seat = state.active
    before = state.players[seat].hand
    after = apply(state, ignore(state))
    assert len(after.players[seat].hand) == len(before) + 2
    assert after.players[seat].hand[len(before) :] == state.decks.development[:2]


def _at(state, kind):
    while state.decision.kind != kind:
        state = apply(state, legal_actions(state)[-1] if state.decision.kind != "choose_day" else ignore(state))
    return state


def test_discarded_dreams_go_to_the_bottom_and_the_hand_refills_to_two_from_the_offer():
    state = apply(first_turn(), ignore(first_turn()))
    assert present(state.decision).kind == "discard_dreams"
    seat = state.active
    card = state.players[seat].dreams[0]
    state = apply(state, A.DiscardDream(card=card))
    assert state.decks.dream[-1] == card
    state = apply(state, A.KeepDreams())
    assert present(state.decision).kind == "draw_dream"
    offer = state.decks.dream_offer
    top = state.decks.dream[0]
    state = apply(state, A.TakeDream(card=offer[1]))
    assert offer[1] in state.players[seat].dreams
    assert state.decks.dream_offer == (offer[0], offer[2], top)  # replenished at once
    assert len(state.players[seat].dreams) == 2
    assert present(state.decision).kind != "draw_dream"


def test_hand_limit_of_eight_counts_basic_combat_which_cannot_be_discarded():
    state = apply(first_turn(), ignore(first_turn()))
    seat = state.active
    pl = state.players[seat]
    extra = state.decks.development[:6]
    state = set_player(state, replace(pl, hand=pl.hand + extra))
    state = replace(state, decks=replace(state.decks, development=state.decks.development[6:]))
    state = apply(state, A.KeepDreams())
    assert present(state.decision).kind == "discard_development"
    assert len(state.players[seat].hand) > HAND_LIMIT
    assert A.DiscardDevelopment(card=BASIC_COMBAT) not in legal_actions(state)
    with pytest.raises(IllegalAction, match="Basic Combat"):
        apply(state, A.DiscardDevelopment(card=BASIC_COMBAT))
    while present(state.decision).kind == "discard_development":
        state = apply(state, legal_actions(state)[0])
    assert len(state.players[seat].hand) == HAND_LIMIT
    assert BASIC_COMBAT in state.players[seat].hand


@pytest.mark.parametrize("players", [2, 3, 4])
def test_reactions_go_clockwise_from_the_active_players_left(players):
    state = first_turn(players, seed=3)
    active = state.active
    state = apply(state, ignore(state))
    order = []
    while present(state.decision).kind != "choose_day":
        if present(state.decision).kind == "react":
            order.append(present(state.decision).seat)
            assert legal_actions(state)[-1] == A.React(kind="pass")
        state = apply(state, legal_actions(state)[-1])
    assert order == [(active + i) % players for i in range(1, players)]


def test_end_of_turn_moves_the_dreamer_along_its_arrow_and_the_turn_marker_on():
    state = first_turn(3, seed=1)
    active, pos = state.active, state.turn_pos
    choice = ignore(state)
    while present(state.decision).kind != "choose_day" or state.turn_number == 1:
        state = apply(state, choice if present(state.decision).kind == "choose_day" else legal_actions(state)[-1])
    arrow = next(d.arrow for d in get_pack("base").matrix.days if d.action == choice.action)
    assert state.players[active].dreamer == arrow
    assert state.turn_pos == (pos + 1) % 12
    assert state.active == board.turn_owner(state, state.turn_pos) == (active + 1) % 3
    assert state.players[active].turns == 1


def test_time_moves_each_time_the_turn_marker_enters_the_start_and_the_skull_ends_the_game():
    state = first_turn(4, seed=2)
    times = []
    while state.decision is not None:
        kind = state.decision.kind
        state = apply(state, ignore(state) if kind == "choose_day" else legal_actions(state)[-1])
        times.append((state.turn_number, state.time))
    assert (13, 1) in times and (25, 2) in times and (37, 3) in times
    assert present(state.outcome).reason == "time" and state.time == len(get_pack("base").tracks.time) - 1
    assert all(pl.turns == 12 for pl in state.players)
    assert present(state.outcome).winners


def _to_reactions_end(state):
    """Ignore the action, keep Dreams, pass every reaction: up to the end of the turn."""
    state = apply(state, ignore(state))
    while state.decision.kind not in ("choose_day", "move_dreamer"):
        state = apply(state, legal_actions(state)[-1])
    return state


def test_a_reward_tile_sends_any_players_dreamer_to_any_night_space_at_the_end_of_the_turn():
    state = first_turn(3, seed=2)
    active = state.active
    other = (active + 2) % 3
    state = set_player(state, replace(state.players[other], dreamer_free=True))
    state = _to_reactions_end(state)
    assert state.decision.kind == "move_dreamer" and state.decision.seat == other
    state = apply(state, A.PlaceDreamer(night="abyss"))
    assert state.players[other].dreamer == "abyss" and not state.players[other].dreamer_free
    assert present(state.decision).kind == "choose_day" and state.active == (active + 1) % 3


def test_a_dream_kept_beyond_the_limit_does_not_count_at_step_4():
    state = first_turn(2, seed=4)
    seat = state.active
    pl = state.players[seat]
    extra = state.decks.dream[0]
    state = replace(state, decks=replace(state.decks, dream=state.decks.dream[1:]))
    state = set_player(state, replace(pl, dreams=pl.dreams[:1] + (extra,), free_dreams=(extra,)))
    state = apply(state, ignore(state))
    state = apply(state, A.KeepDreams())
    assert present(state.decision).kind == "draw_dream"  # only 1 Dream counts: draw a second
    state = apply(state, legal_actions(state)[0])
    assert len(state.players[seat].dreams) == 3 and present(state.decision).kind != "draw_dream"
    # once played or discarded, it is no longer exempt
    from nctui.games.nightmare_cathedral.engine.ops import drop_dream

    assert drop_dream(state.players[seat], extra).free_dreams == ()
