"""Decisions that say what they do (issue 12): every option of every decision met in seeded random
games has words of its own (no "Option N", nothing empty, no bare action type), and an option
that would do nothing says so and, once chosen, the log says what did not happen."""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from typing import Any

import pytest
from msgspec.structs import replace

from nctui.games.nightmare_cathedral.bots import RandomBot
from nctui.games.nightmare_cathedral.content import schema as cs
from nctui.games.nightmare_cathedral.describe import describe_context, describe_event, describe_option, words_for
from nctui.games.nightmare_cathedral.describe.steps import NOTHING
from nctui.games.nightmare_cathedral.engine import cards, events as E, new_game, player_view
from nctui.games.nightmare_cathedral.engine.actions import ChooseOption, React
from nctui.games.nightmare_cathedral.engine.facts import facts
from nctui.games.nightmare_cathedral.engine.flow import StepResult, step
from nctui.games.nightmare_cathedral.engine.futile import effect_nothing, option_nothing
from nctui.games.nightmare_cathedral.engine.state import GameState
from nctui.games.nightmare_cathedral.engine.views import redact
from nctui.games.nightmare_cathedral.engine.work import ChooseWork
from nctui.games.nightmare_cathedral.simulate import make_config
from nctui.platform.store import Store
from nctui.ui.app import create_app
from nctui.ui.screens.handoff import HandoffScreen
from nctui.ui.widgets.decision import DecisionPanel
from nctui.ui.widgets.log import GameLog
from tests import helpers as H

GENERIC = re.compile(r"\bOption \d|\bchoice \d")
CONFIGS: list[dict[str, Any]] = [
    dict(players=2, seed=1),
    dict(players=3, seed=2, length="variable"),
    dict(players=4, seed=3, divergent_paths=True),
    dict(players=2, seed=4, divergent_paths=True, length="variable"),
]


def _games():
    """(config name, states met along the game) for every config, and a solo game."""
    for kw in CONFIGS:
        yield str(kw), [s for s, a in H.random_game(**kw) if a is not None]
    config = make_config(players=1, seed=5)
    state = new_game(config).state
    bots = [RandomBot(50), RandomBot(51)]
    states: list[GameState] = []
    while state.decision is not None and len(states) < 3000:
        states.append(state)
        state = step(state, bots[state.decision.seat].choose(player_view(state, state.decision.seat))).state
    yield "solo", states


@pytest.fixture(scope="module")
def walked():
    """Every option met, as (kind, its words, why it does nothing, state, action), with the facts
    and the state the deciding seat sees (as the decision panel shows them)."""
    out = []
    for _, states in _games():
        for state in states:
            d = state.decision
            view = player_view(state, d.seat)
            nothing = facts(view).options_nothing
            assert len(nothing) == len(d.options)
            for i, a in enumerate(d.options):
                out.append((d.kind, describe_option(a, view.state, nothing[i]), nothing[i], state, a))
    return out


def test_every_option_met_in_random_games_has_words_of_its_own(walked):
    kinds = Counter(kind for kind, *_ in walked)
    assert {"choose", "react", "choose_day", "climb", "play_combat_card", "start_conflict"} <= set(kinds)
    bad = [
        (kind, text)
        for kind, text, _, _, action in walked
        if not text.strip() or GENERIC.search(text) or text == type(action).__name__
    ]
    assert bad == []


def test_choose_options_name_their_effect_and_reactions_what_they_give(walked):
    chosen = {text for kind, text, _, _, a in walked if kind == "choose" and isinstance(a, ChooseOption)}
    assert "Play 1 Upgrade" in {re.sub(r"^\(does nothing now[^)]*\) ", "", t) for t in chosen}
    reactions = {text for kind, text, _, _, a in walked if isinstance(a, React) and a.kind != "pass"}
    assert any(t.startswith("Dissent (Summon): ") for t in reactions)
    assert all(re.match(r"(Conform|Dissent) \(\w+\)( · does nothing now, [^:]+)?: \w", t) for t in reactions)


def test_an_option_that_would_do_nothing_says_so_and_choosing_it_is_logged(walked):
    flagged = [(text, why, state, a) for _, text, why, state, a in walked if why]
    assert {why for _, why, _, _ in flagged} >= {"limbo_empty", "nothing_to_pay"}
    for text, why, state, action in flagged[:60]:
        assert f"does nothing now, {NOTHING[why]}" in text[:72]  # near the start: never cut off at 80x24
        seat = state.decision.seat
        events = step(state, action).events
        if why == "stage1":  # a Nightmare's or devouring's step before Stage 2: its own event
            assert any(isinstance(e, E.NoEffectStage1) and e.seat == seat for e in events), (text, events)
            continue
        nothing = [e for e in events if isinstance(e, E.NothingDone) and e.seat == seat]
        assert nothing, (text, events)
        assert nothing[0].reason == why


def test_options_that_do_something_are_not_flagged(walked):
    """A flag must be honest both ways: an unflagged Choose option or reaction, once chosen, does
    not end with each of its steps reported as having done nothing."""
    checked = 0
    for _, text, why, state, action in walked:
        if why or not isinstance(action, ChooseOption | React) or getattr(action, "kind", "") == "pass":
            continue
        seat = state.decision.seat
        if isinstance(action, ChooseOption):
            effect = state.work.options[action.index]
        else:
            effect = cards.action_effect(state, seat, state.day, action.kind).steps
        events = step(state, action).events
        assert sum(isinstance(e, E.NothingDone) and e.seat == seat for e in events) < len(effect), text
        checked += 1
        if checked >= 150:
            break
    assert checked > 20


# ---------------------------------------------------------------------------------------------
# The engine: NothingDone events and the reasons


TWIN_CANDLES = cs.Choose(options=((cs.Climb(paid=True, steps=1),), (cs.Produce(amount=1, where="marked"),)))


def _no_followers(state, seat):
    """A position where ``seat`` has no Follower on the board and an empty Limbo."""
    areas = tuple(
        replace(a, followers=tuple(0 if s == seat else n for s, n in enumerate(a.followers))) for a in state.areas
    )
    players = tuple(replace(p, limbo=0) if p.seat == seat else p for p in state.players)
    return replace(state, areas=areas, players=players)


def test_twin_candles_climb_with_nothing_to_pay_is_offered_flagged_and_logged():
    state = _no_followers(H.first_turn(2, seed=7), 0)
    state = H.resolve(H.push_effect(state, 0, (TWIN_CANDLES,), "ploy", card="d1-twin-candles"))
    assert isinstance(state.work, ChooseWork)
    assert option_nothing(state, ChooseOption(index=0)) == "nothing_to_pay"
    assert describe_option(ChooseOption(index=0), state, "nothing_to_pay") == (
        "(does nothing now, nothing to pay with) Climb 1 open step, paying for it"
    )
    result = step(state, ChooseOption(index=0))
    lines = [describe_event(e, result.state) for e in result.events]
    assert "Red chooses to climb 1 open step, paying for it" in lines
    assert "Red has nothing to pay: no step climbed" in lines
    assert result.state.players[0].ritual == state.players[0].ritual


def test_dissent_with_an_empty_limbo_is_logged():
    state = _no_followers(H.first_turn(2, seed=7), 1)
    ev: list = []
    state = H.resolve(H.push_effect(state, 1, (cs.RecoverLimbo(count=1),), "dissent", then="reaction_done"), ev)
    nothing = [e for e in ev if isinstance(e, E.NothingDone)]
    assert nothing == [E.NothingDone(seat=1, step="recover", reason="limbo_empty")]
    assert describe_event(nothing[0], state) == "Blue's Limbo is empty: no Follower brought back"


def test_an_effect_does_nothing_only_when_each_of_its_steps_does_nothing():
    state = _no_followers(H.first_turn(2, seed=7), 0)
    climb, draw = cs.Climb(paid=True, steps=1), cs.Draw(count=1)
    assert effect_nothing(state, 0, (climb,)) == "nothing_to_pay"
    assert effect_nothing(state, 0, (climb, draw)) is None
    assert effect_nothing(state, 0, ()) == "no_effect"
    assert effect_nothing(state, 0, (cs.RecoverLimbo(count=1),)) == "limbo_empty"
    with_limbo = replace(state, players=tuple(replace(p, limbo=4) if p.seat == 0 else p for p in state.players))
    assert effect_nothing(with_limbo, 0, (climb,)) is None  # 3 Followers from Limbo pay for a step


def test_the_context_says_what_is_resolved_and_what_the_player_has():
    state = H.first_turn(2, seed=7)
    ploy = H.resolve(H.push_effect(state, 0, (TWIN_CANDLES,), "ploy", card="d1-twin-candles"))
    lines = describe_context(ploy)
    assert lines[0] == "Resolving the Ploy Twin Candles"
    assert lines[-1] == "You have: 16 Followers in supply, 0 in Limbo, 4 on the board; 4 cards in hand"
    # a paid climb: each marker's next space and its cost, and the Followers on those symbols
    card = cards.action_card_id(state, 0, "ritual")
    steps = cards.action_effect(state, 0, "ritual", "day").steps
    state = replace(state, players=tuple(replace(p, limbo=3) if p.seat == 0 else p for p in state.players))
    ritual = H.resolve(H.push_effect(state, 0, steps, "day", card=card))
    lines = describe_context(ritual)
    assert lines[0].startswith(f"Resolving the Day action of {words_for('base').card(card)}")
    assert lines[1].startswith("Cost: marker 1 → space 1: ") and "or 3 Followers from Limbo" in lines[1]
    assert re.search(r"on the board \(.+ \d", lines[2])


# ---------------------------------------------------------------------------------------------
# The decision panel (Pilot, 80x24 and 120x40)


def _twin_candles_store() -> Store:
    """Two people at one keyboard; Red plays Twin Candles with no Follower on the board and an
    empty Limbo: its climb would do nothing."""
    state = _no_followers(H.first_turn(2, seed=7), 0)
    state = replace(state, config=replace(state.config, seats=("human", "human")))
    state = H.resolve(H.push_effect(state, 0, (TWIN_CANDLES,), "ploy", card="d1-twin-candles"))
    return Store(initial=StepResult(state=state, events=()))


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_panel_shows_the_context_and_a_would_do_nothing_option(tmp_path, size):
    async def go():
        app = create_app(_twin_candles_store(), save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=size) as pilot:
            await H.app_settled(app)
            if isinstance(app.screen, HandoffScreen):
                await pilot.press("enter")
                await H.app_settled(app)
            panel = app.screen.query_one(DecisionPanel)
            shown = " ".join(panel.render().plain.split())
            assert "Resolving the Ploy Twin Candles" in shown
            assert "You have: 16 Followers in supply, 0 in Limbo, 0 on the board" in shown
            assert " 1 (does nothing now, nothing to pay with) Climb 1 open step" in shown
            assert " 2 Produce 1 in a Marked Area" in shown
            assert "Option" not in shown
            await pilot.press("1")
            await H.app_settled(app)
            assert app.store.state.players[0].ritual == (0, 0)
            if isinstance(app.screen, HandoffScreen):  # Blue reacts next: its key, then the log
                await pilot.press("enter")
                await H.app_settled(app)
            if H.nc_screen(app)._shown_panel != "log":  # 80x24 shows one panel at a time
                await pilot.press("l")
                await H.app_settled(app)
            log = "\n".join(strip.text for strip in app.game_screen().query_one(GameLog).lines)
            assert "Red chooses to climb 1 open step, paying for it" in log
            assert "Red has nothing to pay: no step climbed" in log

    asyncio.run(go())


def test_no_upgrade_in_hand_is_told_only_to_its_player():
    """What a hand holds is secret: the others read only that nothing was played."""
    state = H.first_turn(2, seed=7)
    players = tuple(replace(p, hand=()) if p.seat == 0 else p for p in state.players)
    ev: list = []
    state = H.resolve(H.push_effect(replace(state, players=players), 0, (cs.PlayUpgrades(count=1),)), ev)
    told = [e for e in ev if isinstance(e, E.NothingDone)]
    assert told == [E.NothingInHand(seat=0, step="play_upgrade", reason="no_upgrade")]
    assert describe_event(redact(told[0], 0), state) == "Red has no Upgrade in hand: no Upgrade played"
    assert describe_event(redact(told[0], 1), state) == "Red plays no more Upgrades"


SITUATIONS = {
    "react": r"^(Red|Blue) performs (\w+): Conform or Dissent resolve your own \2 card's part",
    "play_combat_card": r"^Conflict in .+: .+ vs ",
    "retreat": r"^Conflict in .+ lost: the units retreat",
    "conquer": r"^Your areas so far: ",
    "command_nightmare": r"commands? to give",
    "play_dream": r"^Your Dreams: ",
}


def test_the_context_tells_the_situation_of_decisions_outside_card_effects():
    """Conflict card choice, Conform/Dissent, retreat, Nightmare command, Dream choice, setup:
    each says what the player needs to know beside the question (issue 12)."""
    seen: dict[str, tuple[str, ...]] = {}
    for seed in (1, 2, 3):
        for n, (state, _) in enumerate(H.random_game(2, seed)):
            if n > 900 or state.decision is None:
                break
            kind = state.decision.kind
            if kind in SITUATIONS and kind not in seen:
                seen[kind] = describe_context(player_view(state, state.decision.seat).state)
    assert {"react", "play_combat_card", "conquer", "play_dream"} <= set(seen)
    for kind, lines in seen.items():
        assert any(re.search(SITUATIONS[kind], line) for line in lines), (kind, lines)
