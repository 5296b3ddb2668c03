"""Nightmarium (seed 003): the rulebook's worked example, each ability with and without a target,
the pure-legion discard, random games with invariants, secrecy over whole games."""

from __future__ import annotations

import random

import pytest
from msgspec.structs import replace

from nctui.games.nightmarium import rules, secrets
from nctui.games.nightmarium.bots import GreedyBot, PlannerBot, RandomBot
from nctui.games.nightmarium.cards import all_cards, card
from nctui.games.nightmarium.state import (
    Ability_,
    Completed,
    Creature,
    Discarded,
    Draw,
    Drew,
    Event,
    Exchange,
    NightmariumConfig,
    NightmariumState,
    NoTarget,
    Pick,
    Play,
    Player,
    Revealed,
    Switched,
    Target,
    Won,
)


class Cards:
    """Cards of the deck picked by legion, single part and ability, each at most once."""

    def __init__(self) -> None:
        self.used: set[str] = set()

    def get(
        self, part: str, ability: str | None = None, legion: str | None = None, *, not_legion: str | None = None
    ) -> str:
        """``ability`` None: any (for cards whose ability never fires in the test)."""
        for c in sorted(all_cards().values(), key=lambda c: c.id):
            if (
                c.id not in self.used
                and c.parts == (part,)
                and ability in (None, c.ability)
                and (legion is None or c.legion == legion)
                and c.legion != not_legion
            ):
                self.used.add(c.id)
                return c.id
        raise LookupError(f"no {legion} {part} with {ability}")


def position(me: Player, other: Player, deck_top: tuple[str, ...], *, goal: int = 5) -> NightmariumState:
    """Seat 0's turn with two actions; the deck ``deck_top`` then every card not placed."""
    config = NightmariumConfig(seats=("human", "human"), levels=("planner", "planner"), creatures=goal)
    state = rules.new_game(config).state
    placed = set(deck_top) | set(me.hand) | set(other.hand)
    for p in (me, other):
        for c in p.creatures:
            placed |= set(c.cards)
    rest = tuple(c for c in sorted(all_cards()) if c not in placed)
    state = replace(state, players=(me, other), deck=deck_top + rest, discard=())
    assert rules.problems(state) == []
    return state


def test_the_worked_example_of_chained_abilities() -> None:
    """ "Example: Performing Abilities": Creature #1 … #4 (ids 0-3 here)."""
    k = Cards()
    c1 = (k.get("legs", "mocker", not_legion="necronauts"), k.get("torso", "none", "necronauts"))
    c1_head = k.get("head", "mocker", not_legion="necronauts")
    c2 = (
        k.get("legs", "devourer", "homunculi"),
        k.get("torso", "herald", "insektoids"),
        k.get("head", "weeper", not_legion="necronauts"),
    )
    c2_new_head = k.get("head", "mocker", not_legion="necronauts")
    c3_legs = k.get("legs", "weeper", "necronauts")
    c3_torso = k.get("torso", "scavenger", "necronauts")
    c3_head = k.get("head", "scavenger", "necronauts")
    c4_legs = k.get("legs", "herald", "insektoids")  # #2 and #4 mix legions: no pure-legion discard
    c4_torso = k.get("torso", "weeper", "homunculi")
    c4_head = k.get("head", "devourer", "homunculi")
    spare_heads = (k.get("head", not_legion="necronauts"), k.get("head", not_legion="necronauts"))
    drawn = (k.get("legs", not_legion="necronauts"), k.get("legs", not_legion="necronauts"))
    their_legs, their_necro, their_other = (
        k.get("legs", not_legion="necronauts"),
        k.get("legs", None, "necronauts"),
        k.get("torso", not_legion="necronauts"),
    )
    me = Player(
        hand=(c1_head, c4_torso, c4_head, c3_torso),
        creatures=(Creature(0, c1), Creature(1, c2), Creature(2, (c3_legs,)), Creature(3, (c4_legs,))),
        next_id=4,
    )
    other = Player(hand=(their_necro, their_other), creatures=(Creature(0, (their_legs,)),), next_id=1)
    state = position(me, other, drawn + (c2_new_head, spare_heads[0], c3_head, spare_heads[1]))
    events: list[Event] = []

    def do(action) -> None:
        nonlocal state
        assert action in rules.legal_actions(state), action
        result = rules.step(state, action)
        events.extend(result.events)
        state = result.state
        assert rules.problems(state) == []

    do(Play(c1_head, "head", 0))  # completes #1: Mocker (head), Mocker (legs)
    assert state.activation is not None and state.activation.abilities == ("mocker", "mocker")
    do(Play(c4_torso, "torso", 3))  # the first Mocker
    do(Play(c4_head, "head", 3))  # the second completes #4: Devourer, Weeper, Herald
    assert [e.abilities for e in events if isinstance(e, Completed)][-1] == ("devourer", "weeper", "herald")
    do(Target(0, 1))  # Devourer: the head of #2
    # Weeper drew two cards, Herald revealed two: a head goes on #2
    assert [e.cards for e in events if isinstance(e, Drew)][-1] == drawn
    assert [e.cards for e in events if isinstance(e, Revealed)][-1] == (c2_new_head, spare_heads[0])
    do(Play(c2_new_head, "head", 1))  # #2 complete again: Mocker, Herald, Devourer
    assert spare_heads[0] in state.discard  # the other revealed head fits nowhere
    do(Play(c3_torso, "torso", 2))  # Mocker: a torso on #3; Herald reveals the head of #3
    do(Play(c3_head, "head", 2))  # #3 complete: a pure Necronaut Creature; #2's Devourer is lost
    switched = [e for e in events if isinstance(e, Switched)]
    assert switched and switched[-1].lost == ("devourer",)
    assert rules.decider(state) == 1  # the opponent discards a Necronaut first
    assert set(rules.legal_actions(state)) == {Pick(their_necro)}
    do(Pick(their_necro))
    do(Target(1, 0))  # the first Scavenger destroys the opponent's incomplete Creature
    lost = [e for e in events if isinstance(e, NoTarget)]
    assert lost and lost[-1].ability == "scavenger" and lost[-1].lost == ("weeper",)
    assert state.players[1].creatures == () and rules.decider(state) == 0 and state.activation is None
    assert rules.completed(state.players[0]) == 4 and state.actions_left == 1


def _single(k: Cards, part: str, ability: str | None = None, legion: str | None = None) -> str:
    return k.get(part, ability, legion)


@pytest.mark.parametrize("ability", ["executioner", "scavenger", "devourer"])
def test_a_targeted_ability_with_and_without_a_target(ability) -> None:
    k = Cards()
    legs, torso = _single(k, "legs", "none", "homunculi"), _single(k, "torso", "none", "insektoids")
    head = k.get("head", ability, not_legion="homunculi")
    # without a target: nobody else has a Creature, and this is my only one
    bare = position(Player(hand=(head,), creatures=(Creature(0, (legs, torso)),), next_id=1), Player(), ())
    result = rules.step(bare, Play(head, "head", 0))
    assert [e.ability for e in result.events if isinstance(e, NoTarget)] == [ability]
    # with a target: the opponent's legs and torso, and my other Creature's legs
    their = (_single(k, "legs"), _single(k, "torso"))
    mine2 = _single(k, "legs", "none", "insektoids")
    state = position(
        Player(hand=(head,), creatures=(Creature(0, (legs, torso)), Creature(1, (mine2,))), next_id=2),
        Player(creatures=(Creature(0, their),), next_id=1),
        (),
    )
    state = rules.step(state, Play(head, "head", 0)).state
    targets = set(rules.legal_actions(state))
    assert targets == ({Target(0, 1)} if ability == "devourer" else {Target(1, 0)})
    after = rules.step(state, targets.pop()).state
    if ability == "executioner":
        assert their[1] in after.players[0].hand and after.players[1].creatures[0].cards == their[:1]
    elif ability == "scavenger":
        assert after.players[1].creatures == () and set(their) <= set(after.discard)
    else:
        assert after.players[0].creatures[1:] == () and mine2 in after.discard


def test_herald_weeper_and_mocker() -> None:
    k = Cards()
    legs, torso = _single(k, "legs", "none", "homunculi"), _single(k, "torso", "herald", "insektoids")
    head = k.get("head", "weeper", "chimeridae")
    mocked = _single(k, "legs", "none", "necronauts")
    drawn = (_single(k, "torso"), _single(k, "torso"))
    shown = (_single(k, "legs"), _single(k, "head"))
    state = position(
        Player(hand=(head, mocked), creatures=(Creature(0, (legs, torso)),), next_id=1), Player(), drawn + shown
    )
    result = rules.step(state, Play(head, "head", 0))
    # head first: Weeper draws the two top cards; then the torso's Herald reveals the next two
    assert [e.cards for e in result.events if isinstance(e, Drew)] == [drawn]
    assert [e.cards for e in result.events if isinstance(e, Revealed)] == [shown]
    state = result.state
    assert rules.legal_actions(state) == (Play(shown[0], "legs", 1),)  # the legs begin a Creature
    result = rules.step(state, Play(shown[0], "legs", 1))
    # the head fits nowhere: discarded; the turn goes on with the second action
    assert [e.cards for e in result.events if isinstance(e, Discarded)] == [shown[1:]]
    assert result.state.actions_left == 1 and Draw() in rules.legal_actions(result.state)
    # Mocker: any card of the hand that fits
    k2 = Cards()
    legs2 = k2.get("legs", "mocker", "homunculi")
    torso2, head2 = _single(k2, "torso", "none", "insektoids"), _single(k2, "head", "none", "chimeridae")
    loose = _single(k2, "legs", "none", "necronauts")
    mocker = position(Player(hand=(head2, loose), creatures=(Creature(0, (legs2, torso2)),), next_id=1), Player(), ())
    mocker = rules.step(mocker, Play(head2, "head", 0)).state
    assert rules.legal_actions(mocker) == (Play(loose, "legs", 1),)
    empty = position(Player(hand=(head2,), creatures=(Creature(0, (legs2, torso2)),), next_id=1), Player(), ())
    events = rules.step(empty, Play(head2, "head", 0)).events
    assert [e.ability for e in events if isinstance(e, NoTarget)] == ["mocker"]


def test_a_pure_creature_makes_each_opponent_discard_one_of_its_legion_or_any_two() -> None:
    k = Cards()
    legs, torso = _single(k, "legs", "none", "homunculi"), _single(k, "torso", "none", "homunculi")
    head = _single(k, "head", "none", "homunculi")
    others = (
        _single(k, "legs", None, "necronauts"),
        _single(k, "torso", None, "chimeridae"),
        _single(k, "head", None, "insektoids"),
    )
    state = position(Player(hand=(head,), creatures=(Creature(0, (legs, torso)),), next_id=1), Player(hand=others), ())
    state = rules.step(state, Play(head, "head", 0)).state
    assert rules.decider(state) == 1 and set(rules.legal_actions(state)) == {Pick(c) for c in others}
    state = rules.step(state, Pick(others[0])).state
    assert rules.decider(state) == 1  # a second card: no Homunculus in hand
    result = rules.step(state, Pick(others[2]))
    assert [e.cards for e in result.events if isinstance(e, Discarded)] == [(others[0], others[2])]
    assert result.state.players[1].hand == (others[1],) and rules.decider(result.state) == 0


def test_two_plays_in_one_turn_are_of_one_legion_and_creatures_stop_at_the_goal() -> None:
    k = Cards()
    a, b = _single(k, "legs", "none", "homunculi"), _single(k, "legs", "none", "necronauts")
    c = _single(k, "legs", None, "homunculi")
    state = position(Player(hand=(a, b, c)), Player(), ())
    state = rules.step(state, Play(a, "legs", 0)).state
    legal = rules.legal_actions(state)
    assert Play(c, "legs", 1) in legal and Play(b, "legs", 1) not in legal
    with pytest.raises(rules.Refused, match="same legion"):
        rules.step(state, Play(b, "legs", 1))
    full = position(
        Player(hand=(b,), creatures=tuple(Creature(i, (_single(k, "legs"),)) for i in range(5)), next_id=5),
        Player(),
        (),
    )
    assert not [x for x in rules.legal_actions(full) if isinstance(x, Play)]


def test_exchange_draws_half_rounded_down_and_the_deck_reshuffles() -> None:
    k = Cards()
    hand = tuple(_single(k, "legs") for _ in range(5))
    state = position(Player(hand=hand), Player(), ())
    state = rules.step(state, Exchange()).state
    for c in hand:
        state = rules.step(state, Pick(c)).state
    result = rules.step(state, rules.legal_actions(state)[0])  # Done
    assert [e.count for e in result.events if isinstance(e, Drew)] == [2]
    empty = replace(result.state, deck=(), discard=result.state.deck + result.state.discard)
    after = rules.step(empty, Draw())
    assert len(after.state.players[0].hand) == 3 and rules.problems(after.state) == []


def test_completing_the_goal_wins_at_once() -> None:
    k = Cards()
    done = tuple(Creature(i, (_single(k, "legs"), _single(k, "torso"), _single(k, "head"))) for i in range(4))
    legs, torso = _single(k, "legs", "none", "homunculi"), _single(k, "torso", "none", "insektoids")
    head = k.get("head", "weeper", "chimeridae")
    state = position(Player(hand=(head,), creatures=(*done, Creature(4, (legs, torso))), next_id=5), Player(), ())
    result = rules.step(state, Play(head, "head", 4))
    assert [e for e in result.events if isinstance(e, Won)] == [Won(0, 5)]
    assert not [e for e in result.events if isinstance(e, Ability_)]  # the game ends before any ability
    assert rules.decider(result.state) is None and rules.legal_actions(result.state) == ()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_keep_every_invariant(players) -> None:
    for seed in range(6):
        rng = random.Random(seed)
        state = rules.new_game(
            NightmariumConfig(seats=("bot",) * players, levels=("random",) * players, seed=seed)
        ).state
        for _ in range(20000):
            if state.winner is not None:
                break
            state = rules.step(state, rng.choice(rules.legal_actions(state))).state
            assert rules.problems(state) == []
        assert state.winner is not None


def test_a_whole_game_shows_no_seat_a_card_it_may_not_know() -> None:
    """Every view and every redacted event of three seats over whole games: no card of another
    hand, no card of the deck, except those revealed or played."""
    for seed in range(4):
        state = rules.new_game(NightmariumConfig(seats=("bot",) * 3, levels=("greedy",) * 3, seed=seed)).state
        bots = [GreedyBot(seed * 10 + i) for i in range(3)]
        for _ in range(3000):
            seat = rules.decider(state)
            if seat is None:
                break
            result = rules.step(state, bots[seat].choose(secrets.view(state, seat)))
            for viewer in (0, 1, 2, -1):
                view = secrets.view(result.state, viewer)
                known = set(view.discard) | set(view.revealed)
                for i, p in enumerate(view.players):
                    known |= {c for cr in p.creatures for c in cr.cards}
                    if i != viewer:
                        assert set(p.hand) <= {secrets.HIDDEN}
                assert set(view.deck) <= {secrets.HIDDEN}
                for event in result.events:
                    seen = secrets.redact_event(event, viewer)
                    if isinstance(seen, Drew) and seen.seat != viewer:
                        assert seen.cards == ()
            state = result.state


def _searching_planner(seed: int) -> PlannerBot:
    return PlannerBot(seed, budget=4)


def _playing_out_planner(seed: int) -> PlannerBot:
    return PlannerBot(seed, budget=4, horizon=0)  # greedy playouts to the end of the game


@pytest.mark.parametrize("bot", [RandomBot, GreedyBot, PlannerBot, _searching_planner, _playing_out_planner])
def test_each_computer_player_finishes_a_game_from_its_view(bot) -> None:
    state = rules.new_game(NightmariumConfig(seats=("bot",) * 3, levels=("random",) * 3, seed=9)).state
    players = [bot(i) for i in range(3)]
    for _ in range(5000):
        seat = rules.decider(state)
        if seat is None:
            break
        state = rules.step(state, players[seat].choose(secrets.view(state, seat))).state
    assert state.winner is not None


def test_the_planners_look_ahead_replays_from_its_seed_and_stops_when_asked() -> None:
    """The planner's search (the next two turns, every seat planning) chooses the same action
    from the same seed and view, and plays no more once stopped."""
    state = rules.new_game(NightmariumConfig(seats=("bot",) * 2, levels=("planner",) * 2, seed=4)).state
    seat = rules.decider(state)
    assert seat is not None
    view = secrets.view(state, seat)
    assert PlannerBot(3).choose(view) == PlannerBot(3).choose(view)
    played: list[int] = []

    class Stopped(PlannerBot):
        def _look_ahead(self, state, seat, future, end):
            played.append(future)
            self.stop()  # as the session does when the game moves on
            return super()._look_ahead(state, seat, future, end)

    assert Stopped(3).choose(view) in rules.legal_actions(view)
    assert len(played) == 1


def test_the_planners_budget_buys_a_longer_look_ahead() -> None:
    """Issue 38: more playouts of the same two turns found nothing more (docs/balance.md), so a
    larger budget looks further ahead: the rest of its turn below 32 playouts, and the next
    player's turn from 32, its own next turn too from the default, 64; a horizon given stays."""
    from nctui.games.nightmarium.bots import BUDGET, HORIZON

    assert (BUDGET, HORIZON) == (64, 3)
    assert [PlannerBot(1, budget=b).horizon for b in (8, 16, 32, BUDGET, 2 * BUDGET)] == [1, 1, 2, 3, 3]
    assert PlannerBot(1, horizon=0).horizon == 0
    state = rules.new_game(NightmariumConfig(seats=("bot",) * 2, levels=("planner",) * 2, seed=4)).state
    seat = rules.decider(state)
    assert seat is not None
    view = secrets.view(state, seat)
    assert PlannerBot(3).choose(view) == PlannerBot(3).choose(view)


def test_the_planners_look_ahead_counts_its_turns_from_the_decisions_turn() -> None:
    """An action that ends the turn is played on as far as one that does not: every playout ends
    ``horizon`` turns after the turn of the decision (it ended one turn later after an action
    that ended the turn, and a horizon of 1 compared the next player's turn with the rest of its
    own)."""
    state = rules.new_game(NightmariumConfig(seats=("bot",) * 2, levels=("planner",) * 2, seed=4)).state
    seat = rules.decider(state)
    assert seat is not None
    view = secrets.view(state, seat)
    ends: list[int] = []

    class Counted(PlannerBot):
        def _look_ahead(self, state, seat, future, end):
            ends.append(end)
            return super()._look_ahead(state, seat, future, end)

    for budget, horizon in ((16, 1), (32, 2)):
        ends.clear()
        Counted(3, budget=budget).choose(view)
        assert ends and set(ends) == {view.turns + horizon}


def test_the_deck_is_108_cards_of_four_legions() -> None:
    cards = all_cards()
    assert len(cards) == 108
    assert {c.legion for c in cards.values()} == {"necronauts", "insektoids", "chimeridae", "homunculi"}
    assert sum(len(c.parts) > 1 for c in cards.values()) == 12
    assert card("nec-01").name


def test_the_greedy_player_does_not_draw_from_an_empty_deck_and_discard_pile() -> None:
    """Issue 41 item 2: with the deck and the discard pile empty, Draw draws nothing; the greedy
    player chose it for ever over a Play it rated lower (a new Creature with one short of the
    goal begun). It plays; with a card to draw it still draws."""
    k = Cards()
    legs = [k.get("legs") for _ in range(5)]
    me = Player(hand=(legs[4],), creatures=tuple(Creature(i, (legs[i],)) for i in range(4)), next_id=4)
    state = position(me, Player(), ())
    empty = replace(state, deck=(), players=(me, Player(hand=state.deck)))
    assert rules.problems(empty) == [] and Draw() in rules.legal_actions(empty)
    view = secrets.view(empty, 0)
    assert isinstance(GreedyBot(1).choose(view), Play)
    assert GreedyBot(1).choose(secrets.view(state, 0)) == Draw()


def test_the_heralds_two_cards_are_placed_in_whichever_order_fits() -> None:
    """Issue 38 item 9: Herald "reveal two cards from the deck. Place them in front of you
    according to the usual rules if you can. Discard any cards that you cannot play." A head
    revealed first fits only once the torso revealed second is placed: both are placed."""
    k = Cards()
    legs, torso, head = _single(k, "legs"), _single(k, "torso"), _single(k, "head")
    me = Player(creatures=(Creature(0, (legs,)),), next_id=1)
    state = position(me, Player(), (head, torso))
    state = replace(state, deck=state.deck[2:], revealed=(head, torso), actions_left=1)
    assert rules.problems(state) == []
    options = rules.legal_actions(state)
    assert Play(torso, "torso", 0) in options and not any(isinstance(o, Play) and o.card == head for o in options)
    state = rules.step(state, Play(torso, "torso", 0)).state
    assert Play(head, "head", 0) in rules.legal_actions(state)
    result = rules.step(state, Play(head, "head", 0))
    assert result.state.players[0].creatures[0].cards[:3] == (legs, torso, head) or any(
        isinstance(e, Completed) for e in result.events
    )
    assert not any(isinstance(e, Discarded) and e.why == "herald" for e in result.events)
