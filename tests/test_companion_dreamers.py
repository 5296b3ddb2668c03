"""The dice game of Dreamers and Nightmares (seed 002): each Shadow effect, each filled row,
becoming a Nightmare with a tie, rerolls, Nightmare turns and abilities, the end conditions and
the two-player rule on hand-built positions; random games conserving the 80 dice."""

from __future__ import annotations

import random

import pytest
from msgspec.structs import replace

from nctui.games.dreamers import rules
from nctui.games.dreamers.content import content
from nctui.games.dreamers.state import (
    BecomeNightmare,
    Card,
    ChooseTrack,
    Consume,
    Die,
    DreamAgain,
    DreamersConfig,
    DreamersState,
    Effect,
    GameEnds,
    Give,
    Level,
    PickDie,
    Reroll,
    Rerolled,
    Resolve,
    Rest,
    Return,
    Rolled,
    RowFilled,
    Seat,
    SeatKind,
    SendMinions,
    ShadowNext,
    Skip,
    Taken,
    TurnBegins,
    UseAbility,
)
from nctui.platform import registry

DEPTHS, ENVY, PRISON, FEAR = 0, 1, 2, 3


def game(players: int = 3, **kw) -> DreamersState:
    human: SeatKind = "human"
    gambler: Level = "gambler"
    config = DreamersConfig(seats=(human,) * players, levels=(gambler,) * players, **kw)
    return rules.new_game(config).state


def with_cards(
    state: DreamersState,
    cards: dict[int, Card],
    roles: dict[int, tuple[str, int]] | None = None,
    unresolved: tuple[Die, ...] = (),
) -> DreamersState:
    """Cards (and roles) put on seats, ``unresolved`` rolled for seat 0; the bag keeps 80 in all."""
    seats = list(state.seats)
    for i, card in cards.items():
        role, nightmare = (roles or {}).get(i, ("dreamer", -1))
        seats[i] = Seat(role=role, nightmare=nightmare, card=card)  # type: ignore[arg-type]
    bag = list(state.bag)
    for s in seats:
        c = s.card
        for d in (*c.power, *c.hunt, *c.exhaust, *(d for r in c.shadows for d in r)):
            bag[d.colour] -= 1
    for d in unresolved:
        bag[d.colour] -= 1
    out = replace(
        state,
        seats=tuple(seats),
        bag=(bag[0], bag[1], bag[2], bag[3]),
        unresolved=unresolved,
        phase="roll" if unresolved else state.phase,
        track=0,
    )
    assert rules.problems(out) == []
    return out


def resolve(state: DreamersState):
    return rules.step(state, Resolve())


def effects(result) -> list[tuple[str, bool]]:
    return [(e.what, e.done) for e in result.events if isinstance(e, Effect)]


def test_a_turn_chooses_a_track_draws_returns_two_and_rolls_the_rest() -> None:
    state = game()
    assert rules.legal_actions(state) == tuple(ChooseTrack(t) for t in range(3))
    state = rules.step(state, ChooseTrack(0)).state  # Light Sleep: 4 drawn
    assert state.phase == "return" and len(state.drawn) == 4
    state = rules.step(state, rules.legal_actions(state)[0]).state
    assert state.phase == "return" and len(state.drawn) == 3
    state = rules.step(state, rules.legal_actions(state)[0]).state
    assert state.phase == "roll" and len(state.unresolved) == 2 and sum(state.bag) == 78
    assert rules.problems(state) == []


def test_resolution_order_power_hunt_exhaust_then_shadows() -> None:
    dice = (Die(PRISON, "exhaust"), Die(FEAR, "hunt"), Die(ENVY, "double"))
    result = resolve(with_cards(game(), {}, unresolved=dice))
    placed = [(e.die.face, e.row) for e in result.events if type(e).__name__ == "Placed"]
    assert placed == [("double", "power"), ("hunt", "hunt"), ("exhaust", "exhaust")]
    assert rules.power(result.state.seats[0]) == 2 and result.state.phase == "rest"


def test_shadow_of_the_depths_draws_a_dream_resolved_first_unless_a_shadow() -> None:
    result = resolve(with_cards(game(seed=5), {}, unresolved=(Die(DEPTHS, "shadow"),)))
    assert effects(result)[0] == ("depths", True)
    card = result.state.seats[0].card
    assert len(card.shadows[DEPTHS]) >= 1
    assert rules.problems(result.state) == []


def test_shadow_of_envy_lets_the_next_player_pick_a_dream_to_reroll_not_an_envy_shadow() -> None:
    card = Card(power=(Die(FEAR, "double"),), shadows=((), (Die(ENVY, "shadow"),), (), ()))
    state = resolve(with_cards(game(), {0: card}, unresolved=(Die(ENVY, "shadow"),))).state
    assert state.phase == "envy" and rules.decider(state) == 1
    assert set(rules.legal_actions(state)) == {PickDie("power", FEAR, 0)}  # the Envy Shadows are not offered
    result = rules.step(state, PickDie("power", FEAR, 0))
    assert ("envy", True) in effects(result) and rules.problems(result.state) == []
    rolled = [e.dice for e in result.events if isinstance(e, Rolled)]
    assert rolled and rolled[0][0].colour == FEAR  # the picked dream, rerolled


def test_shadow_of_imprisonment_turns_an_exhaust_dream_on_its_side_counting_twice() -> None:
    card = Card(exhaust=(Die(DEPTHS, "exhaust"),))
    result = resolve(with_cards(game(), {0: card}, unresolved=(Die(PRISON, "shadow"),)))
    assert ("imprisonment", True) in effects(result)
    assert result.state.seats[0].card.exhaust[0].sideways and rules.exhaustion(result.state.seats[0].card) == 2
    empty = resolve(with_cards(game(), {}, unresolved=(Die(PRISON, "shadow"),)))
    assert ("imprisonment", False) in effects(empty)


def test_shadow_of_imprisonment_the_player_chooses_which_upright_exhaust_dream() -> None:
    """Issue 38 item 10: "If you have any in your Exhaust row, rotate any one to its side": with
    distinct upright Exhaust dreams the player chooses (not always the first)."""
    card = Card(exhaust=(Die(DEPTHS, "exhaust"), Die(ENVY, "exhaust", sideways=True), Die(FEAR, "exhaust")))
    state = resolve(with_cards(game(), {0: card}, unresolved=(Die(PRISON, "shadow"),))).state
    assert state.phase == "imprison"
    assert set(rules.legal_actions(state)) == {PickDie("exhaust", DEPTHS, 0), PickDie("exhaust", FEAR, 2)}
    result = rules.step(state, PickDie("exhaust", FEAR, 2))
    turned = result.state.seats[0].card.exhaust
    assert [d.sideways for d in turned] == [False, True, True] and ("imprisonment", True) in effects(result)
    assert rules.problems(result.state) == []


def test_shadow_of_primeval_fear_may_move_an_exhaust_dream_to_the_hunt_row() -> None:
    card = Card(exhaust=(Die(DEPTHS, "exhaust"),))
    state = resolve(with_cards(game(), {0: card}, unresolved=(Die(FEAR, "shadow"),))).state
    assert state.phase == "fear" and set(rules.legal_actions(state)) == {Skip(), PickDie("exhaust", DEPTHS, 0)}
    moved = rules.step(state, PickDie("exhaust", DEPTHS, 0)).state
    assert moved.seats[0].card.hunt == (Die(DEPTHS, "exhaust"),) and moved.seats[0].card.exhaust == ()
    kept = rules.step(state, Skip()).state
    assert kept.seats[0].card.exhaust == (Die(DEPTHS, "exhaust"),)


def test_a_full_hunt_row_eliminates_and_returns_every_dream() -> None:
    card = Card(power=(Die(ENVY, "power"),), hunt=(Die(FEAR, "hunt"),) * 3)
    result = resolve(with_cards(game(), {0: card}, unresolved=(Die(FEAR, "hunt"),)))
    assert [e.row for e in result.events if isinstance(e, RowFilled)] == ["hunt"]
    assert result.state.seats[0].role == "out" and sum(result.state.bag) == 80
    assert result.state.turn == 1  # no more turns for seat 0


def test_a_full_exhaust_row_loses_power_of_a_drawn_colour_and_forces_rest() -> None:
    card = Card(power=tuple(Die(c, "power") for c in range(4)), exhaust=(Die(DEPTHS, "exhaust"),) * 2)
    result = resolve(with_cards(game(seed=3), {0: card}, unresolved=(Die(PRISON, "exhaust"),)))
    filled = [e for e in result.events if isinstance(e, RowFilled)]
    assert filled and filled[0].row == "exhaust"
    colour = filled[0].colour
    assert all(d.colour != colour for d in result.state.seats[0].card.power)
    assert DreamAgain() not in rules.legal_actions(result.state) and Rest() in rules.legal_actions(result.state)


@pytest.mark.parametrize("players,limit", [(3, 3), (2, 4)])
def test_a_full_shadow_row_makes_a_nightmare_three_or_four_in_a_two_player_game(players, limit) -> None:
    card = Card(power=(Die(ENVY, "power"),), shadows=((), (), (Die(PRISON, "shadow"),) * (limit - 2), ()))
    state = with_cards(game(players), {0: card}, unresolved=(Die(PRISON, "shadow"),))
    assert resolve(state).state.seats[0].role == "dreamer"  # one short
    card = replace(card, shadows=((), (), (Die(PRISON, "shadow"),) * (limit - 1), ()))
    state = with_cards(game(players), {0: card}, unresolved=(Die(PRISON, "shadow"),))
    state = replace(state, on_cards=((), (), (Die(PRISON, "double"),), ()), bag=_minus(state.bag, PRISON))
    result = resolve(state)
    seat = result.state.seats[0]
    assert seat.role == "nightmare" and seat.nightmare == PRISON
    assert rules.power(seat) == 3  # its Power kept, and the Power on the Imprisonment card taken
    assert result.state.turn == 1 and rules.problems(result.state) == []


def test_the_nightmare_is_the_most_filled_row_whose_nightmare_is_still_free() -> None:
    """Issue 38 item 12: "If you have three or more dreams in any Shadow row ..., you become a
    Nightmare. You always become a Nightmare of the color matching your most filled Shadow row",
    and "there can never be two Nightmares of the same color": with Imprisonment claimed, 4
    Imprisonment Shadows and 3 of Primeval Fear make the Fear Nightmare, as 3 and 3 do."""
    for prison in (3, 4):
        card = Card(shadows=((), (), (Die(PRISON, "shadow"),) * prison, (Die(FEAR, "shadow"),) * 2))
        state = with_cards(
            game(3), {0: card, 1: Card()}, roles={1: ("nightmare", PRISON)}, unresolved=(Die(FEAR, "shadow"),)
        )
        result = rules.step(state, Resolve())
        while result.state.phase == "fear":
            result = rules.step(result.state, Skip())
        seat = result.state.seats[0]
        assert seat.role == "nightmare" and seat.nightmare == FEAR, prison


def test_a_reroll_is_offered_while_shadows_are_resolved_too() -> None:
    """Issue 38 item 11: "You may, at any time, spend a [Power] ... to reroll any number of
    unresolved dreams": with a Shadow of Primeval Fear unresolved and a Fear Power, the Shadow
    waits for the choice, and the reroll spends the Power."""
    card = Card(power=(Die(FEAR, "power"),))
    state = rules.step(with_cards(game(3), {0: card}, unresolved=(Die(FEAR, "shadow"),)), Resolve()).state
    assert state.phase == "shadow"
    options = rules.legal_actions(state)
    assert ShadowNext(FEAR) in options and Reroll(FEAR, ("shadow",)) in options
    result = rules.step(state, Reroll(FEAR, ("shadow",)))
    assert any(isinstance(e, Rerolled) for e in result.events) and rules.problems(result.state) == []
    plain = rules.step(with_cards(game(3), {0: Card()}, unresolved=(Die(FEAR, "shadow"),)), Resolve()).state
    assert plain.phase != "shadow"  # no Power to spend: nothing to ask


def _minus(bag, colour):
    b = list(bag)
    b[colour] -= 1
    return tuple(b)


def test_becoming_a_nightmare_with_a_tie_lets_the_dreamer_choose() -> None:
    card = Card(shadows=((Die(DEPTHS, "shadow"),) * 3, (), (Die(PRISON, "shadow"),) * 2, ()))
    state = resolve(with_cards(game(), {0: card}, unresolved=(Die(PRISON, "shadow"),))).state
    assert state.phase == "tie" and set(rules.legal_actions(state)) == {
        BecomeNightmare(DEPTHS),
        BecomeNightmare(PRISON),
    }
    after = rules.step(state, BecomeNightmare(DEPTHS)).state
    assert after.seats[0].nightmare == DEPTHS


def test_rerolls_spend_a_power_of_that_colour_onto_its_nightmare_card() -> None:
    card = Card(power=(Die(FEAR, "power"),))
    state = with_cards(game(), {0: card}, unresolved=(Die(FEAR, "hunt"), Die(FEAR, "exhaust"), Die(ENVY, "hunt")))
    options = [a for a in rules.legal_actions(state) if isinstance(a, Reroll)]
    assert {a.faces for a in options} == {("hunt",), ("exhaust",), ("exhaust", "hunt")} and all(
        a.colour == FEAR for a in options
    )
    after = rules.step(state, Reroll(FEAR, ("hunt",))).state
    assert after.seats[0].card.power == () and after.on_cards[FEAR] == (Die(FEAR, "power"),)
    assert len(after.unresolved) == 3 and rules.problems(after) == []


def test_a_nightmare_takes_its_faces_may_use_its_ability_and_consumes_or_sends_minions() -> None:
    nightmare = Card(power=(Die(DEPTHS, "power"),))
    state = with_cards(
        game(), {1: nightmare}, {1: ("nightmare", FEAR)}, unresolved=(Die(FEAR, "hunt"), Die(ENVY, "power"))
    )
    state = replace(
        state,
        seats=(replace(state.seats[0], card=Card(exhaust=(Die(DEPTHS, "exhaust"),))), *state.seats[1:]),
        bag=_minus(state.bag, DEPTHS),
    )
    result = resolve(state)
    assert [e.die for e in result.events if isinstance(e, Taken)] == [Die(FEAR, "hunt")]
    assert result.state.phase == "ability" and rules.decider(result.state) == 1
    used = rules.step(result.state, UseAbility())  # Primeval Fear's terror: Exhaust to Hunt
    assert used.state.seats[0].card.hunt == (Die(DEPTHS, "exhaust"),)
    assert rules.power(used.state.seats[1]) == 2
    # the Nightmare's turn: consume a Power of its colour, or send minions
    turn = replace(
        used.state,
        turn=1,
        actor=1,
        phase="nightmare",
        unresolved=(),
        seats=(
            replace(used.state.seats[0], card=replace(used.state.seats[0].card, power=(Die(FEAR, "double"),))),
            *used.state.seats[1:],
        ),
        bag=_minus(used.state.bag, FEAR),
    )
    turn = replace(turn, bag=_plus_all(turn.bag, used.state.seats[0].card.power))
    assert rules.problems(turn) == []
    assert Consume(0, "double") in rules.legal_actions(turn)
    eaten = rules.step(turn, Consume(0, "double")).state
    assert rules.power(eaten.seats[1]) == 4 and eaten.turn == 2
    sent = rules.step(turn, SendMinions()).state
    assert sent.phase == "minion_return"
    sent = rules.step(sent, rules.legal_actions(sent)[0]).state
    assert sent.phase == "minion_give" and Give(0) in rules.legal_actions(sent)
    assert rules.problems(rules.step(sent, Give(0)).state) == []


def _plus_all(bag, dice):
    b = list(bag)
    for d in dice:
        b[d.colour] += 1
    return tuple(b)


def test_fifteen_power_gives_every_other_dreamer_a_final_turn() -> None:
    rich = Card(power=tuple(Die(ENVY, "double") for _ in range(8)))
    state = with_cards(game(), {0: rich})
    state = replace(state, phase="rest", track=0)
    result = rules.step(state, Rest())
    assert [e for e in result.events if isinstance(e, TurnBegins)] == [TurnBegins(1, True)]
    state = result.state
    for seat in (1, 2):
        assert state.turn == seat
        state = replace(state, phase="rest", track=0)
        result = rules.step(state, Rest())
        state = result.state
    ends = [e for e in result.events if isinstance(e, GameEnds)]
    assert ends and ends[0].reason == "power" and ends[0].winners == (0,)


def test_the_game_ends_when_no_dreamers_remain() -> None:
    state = with_cards(
        game(2), {1: Card(power=(Die(DEPTHS, "power"),))}, {1: ("nightmare", ENVY)}, unresolved=(Die(FEAR, "hunt"),)
    )
    state = replace(
        state,
        seats=(replace(state.seats[0], card=Card(hunt=(Die(FEAR, "hunt"),) * 3)), state.seats[1]),
        bag=_minus(_minus(_minus(state.bag, FEAR), FEAR), FEAR),
    )
    result = resolve(state)
    ends = [e for e in result.events if isinstance(e, GameEnds)]
    assert ends and ends[0].reason == "no_dreamers" and ends[0].winners == (1,)


def test_an_empty_bag_ends_the_game_after_the_current_turn() -> None:
    state = game(2)
    # every dream but three on seat 1's card: seat 0 draws the last three and rolls them all
    many = tuple(Die(c, "power") for c in range(4) for _ in range(20))
    keep = many[:77]
    state = replace(state, bag=(0, 0, 0, 0), seats=(state.seats[0], Seat(card=Card(power=keep))))
    left = [20, 20, 20, 20]
    for d in keep:
        left[d.colour] -= 1
    state = replace(state, bag=(left[0], left[1], left[2], left[3]))
    assert rules.problems(state) == []
    state = rules.step(state, ChooseTrack(0)).state
    assert state.phase == "roll" and len(state.unresolved) == 3 and state.bag_ran_out
    while state.phase not in ("rest", "over"):
        state = rules.step(state, rules.legal_actions(state)[0]).state
    if state.phase == "rest":
        state = rules.step(state, Rest()).state
    assert state.phase == "over"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_conserve_the_eighty_dice(players) -> None:
    for seed in range(8):
        rng = random.Random(seed)
        state = rules.new_game(
            DreamersConfig(
                seats=("bot",) * players,
                levels=("random",) * players,
                seed=seed,
                temptation=("none", "envy", "fear")[seed % 3],
            )
        ).state
        for _ in range(5000):
            if state.phase == "over":
                break
            state = rules.step(state, rng.choice(rules.legal_actions(state))).state
            assert rules.problems(state) == []
        assert state.phase == "over" and state.winners


def test_the_content_follows_the_rules_numbers() -> None:
    c = content()
    assert len(c.colour) == 4 and c.dice_per_colour == 20 and c.power_to_end == 15
    assert all(len(t.draws) == 3 for t in c.track)
    assert {n.id for n in c.nightmare} == {"depths", "envy", "imprisonment", "fear", "temptation"}


def test_the_nightmare_of_temptation_takes_doubles_of_its_colour_and_tempts_deeper() -> None:
    state = with_cards(
        game(temptation="envy"),
        {1: Card()},
        {1: ("nightmare", ENVY)},
        unresolved=(Die(ENVY, "double"), Die(ENVY, "power")),
    )
    result = resolve(state)
    assert [e.die for e in result.events if isinstance(e, Taken)] == [Die(ENVY, "double")]  # not the single
    after = rules.step(result.state, UseAbility()).state
    assert after.tempted and after.phase == "rest"
    assert rules.legal_actions(after) == (DreamAgain(),)  # tempted: it must dream again


def test_strict_undo_stops_at_a_draw_and_a_replayed_roll_is_the_same(tmp_path) -> None:
    DREAMERS = registry.game("dreamers")
    from nctui.platform.session import new_session
    from nctui.platform.store import StoreError

    session = new_session(
        DreamersConfig(seats=("human", "human"), levels=("gambler", "gambler"), seed=7),
        game=DREAMERS,
        folder=tmp_path,
        autosave=False,
    )
    assert session.undo_policy == "strict"
    session.send(ChooseTrack(1), seen_state_id=session.state_id, seat=0)  # draws from the bag
    with pytest.raises(StoreError):
        session.undo(0)
    # the same seed and actions give the same dreams: a replay never rolls differently
    again = new_session(
        DreamersConfig(seats=("human", "human"), levels=("gambler", "gambler"), seed=7),
        game=DREAMERS,
        folder=tmp_path,
        autosave=False,
    )
    again.send(ChooseTrack(1), seen_state_id=again.state_id, seat=0)
    assert again.store.state == session.store.state


# -- the gambler's search (issue 38, computer opponents) --------------------------------------------


def _last_turn_behind() -> DreamersState:
    """Seat 1 has 15 Power; seat 0, on the game's last turn (no final turns left after it), has
    14 and three Hunts of four: resting ends the game lost, another dream is its only chance."""
    doubles = lambda n, colour: tuple(Die(colour, "double") for _ in range(n))  # noqa: E731
    state = with_cards(
        game(2),
        {
            0: Card(power=doubles(7, ENVY), hunt=(Die(FEAR, "hunt"),) * 3),
            1: Card(power=(*doubles(7, FEAR), Die(DEPTHS, "power"))),
        },
    )
    return replace(state, phase="rest", step=0, final=(), track=0)


def test_the_gamblers_rule_of_thumb_rests_where_its_search_dreams_again_for_the_only_chance() -> None:
    from nctui.games.dreamers import bots, secrets

    state = _last_turn_behind()
    view = secrets.view(state, 0)
    assert {Rest(), DreamAgain()} <= set(rules.legal_actions(state))
    assert bots.GamblerBot(1, budget=0).choose(view) == Rest()  # the rule of thumb: a Hunt more is likely
    assert bots.GamblerBot(1, budget=32).choose(view) == DreamAgain()  # every played-out rest loses
    assert bots.GamblerBot(1).choose(view) == DreamAgain()  # the default budget sees it too
    rested = rules.step(state, Rest()).state
    assert rested.phase == "over" and rested.winners == (1,)


def test_the_gamblers_search_weighs_at_rest_only_resting_fully_or_dreaming_again() -> None:
    from nctui.games.dreamers import bots, secrets

    view = secrets.view(_last_turn_behind(), 0)
    legal = rules.legal_actions(view)
    assert len(legal) > 2  # a single Hunt dream returned is a Rest too
    assert bots.candidates(view, legal) == (Rest(), DreamAgain())


def test_the_gamblers_search_replays_from_its_seed_and_stops_when_asked() -> None:
    from nctui.games.dreamers import bots, secrets

    view = secrets.view(_last_turn_behind(), 0)
    assert bots.GamblerBot(5, budget=32).choose(view) == bots.GamblerBot(5, budget=32).choose(view)
    played: list[int] = []

    class Stopped(bots.GamblerBot):
        def _play_out(self, state, action, seat, future):
            played.append(seat)
            self.stop()  # as the session does when the game moves on
            return super()._play_out(state, action, seat, future)

    assert Stopped(5, budget=32).choose(view) in rules.legal_actions(view)
    assert len(played) == 1


def test_the_gamblers_search_plays_legal_moves_and_replays_a_whole_game_from_its_seed() -> None:
    """Issue 38: every decision searched (the returns too) is legal, and the same seeds give the
    same game: the imagined futures come from the bot's own seeded RNG, never from timing."""
    from nctui.games.dreamers import bots, secrets

    def moves(seed: int) -> list[object]:
        state = game(2, seed=seed)
        players = [bots.GamblerBot(seed * 7919 + i, budget=8) for i in range(2)]
        played: list[object] = []
        while (seat := rules.decider(state)) is not None:
            view = secrets.view(state, seat)
            action = players[seat].choose(view)
            assert action in rules.legal_actions(state)
            played.append(action)
            state = rules.step(state, action).state
        return played

    first = moves(3)
    assert first == moves(3)
    assert any(isinstance(a, Return) for a in first)  # the dreams returned are searched too
    assert "return" in bots.SEARCHED


def test_the_gamblers_playouts_judge_a_lead_by_the_power_still_needed() -> None:
    """Issue 38: a turn's end is judged by the chance of winning it gives ("End of the Game": the
    most Power wins): a lead of 4 is worth more near 15 than at the start, out of the game 0, and
    even with the other player to play a little below a half."""
    from nctui.games.dreamers import bots

    def at(mine: int, theirs: int, role: str = "dreamer") -> float:
        power = lambda n, colour: tuple(Die(colour, "power") for _ in range(n))  # noqa: E731
        state = with_cards(game(2), {0: Card(power=power(mine, ENVY)), 1: Card(power=power(theirs, FEAR))})
        if role == "out":
            state = replace(state, seats=(Seat(role="out"), state.seats[1]))
        return bots.chances(state, 0)

    assert 0.5 < at(4, 0) < at(14, 10) < 0.9
    assert at(3, 3) < 0.5 < at(6, 3)
    assert at(14, 10, "out") == 0.0
