"""Practice: the bundled positions (the rulebooks' worked examples), the user's own, the Practice
entry of the title screen, ``nctui play --scenario``, saving a position from a game (x) and the
planner's hint (h), driven by Pilot at 80x24."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from textual.widgets import Input

from nctui.cli import main
from nctui.games.nightmare_cathedral.engine import events as E, flow, scoring
from nctui.games.nightmare_cathedral.engine.config import GameConfig
from nctui.games.nightmare_cathedral.practice import BUNDLED, positions
from nctui.games.nightmare_cathedral.scenarios import ScenarioError, load_scenario
from nctui.games.nightmare_cathedral.ui.screens.game import GameScreen
from nctui.games.nightmare_cathedral.ui.screens.king_turn import KingTurnScreen
from nctui.platform import saves
from nctui.platform.session import new_session, scenario_session
from nctui.ui.app import create_app
from nctui.ui.commands import screen_commands
from nctui.ui.screens.practice import PracticeScreen
from nctui.ui.screens.save import SaveScreen
from nctui.ui.screens.title import TitleScreen
from tests.helpers import app_settled, present, rulebook_condition_problems, wait_for

SIZE = (80, 24)


def run(coro):
    return asyncio.run(coro)


def _app(tmp_path, game=None):
    """The app, its notifications recorded in ``app.seen``."""
    app: Any = create_app(game, save_dir=tmp_path, bot_delay=0.01)  # Any: it gains an attribute, ``seen``
    app.seen = []
    app.notify = lambda message, **kw: app.seen.append(message)
    return app


# ----------------------------------------------------------------------------------------------
# The bundled positions


def test_the_rulebooks_worked_examples_are_bundled():
    names = {p.path.name: p for p in positions()}
    for example in (
        "conflict-example-2p.toml",
        "ritual-example-2p.toml",
        "scoring-example-3p.toml",
        "king-die-roll-solo.toml",
    ):
        assert example in names and not names[example].problem and not names[example].own
        assert names[example].name and names[example].description


def test_the_scoring_example_gives_blue_34_vp():
    """GAME END & SCORING, Scoring Example: Ritual 7 + 3, Forts 0 + 1 + 2, Devoured 4 (tied 2nd
    with green: (5 + 3) / 2), two Stage 2 Upgrades, 15 VP of Dreams."""
    state = load_scenario(BUNDLED / "scoring-example-3p.toml")
    blue = scoring.scores(state)[1]
    assert (blue.ritual, blue.forts, blue.devoured, blue.upgrades, blue.dreams) == (10, 3, 4, 2, 15)
    assert blue.total == 34 and state.end_triggered and state.stage == 2 and state.active == 1


def test_the_kings_die_roll_counts_cultists_from_maneuver():
    """Solo KING'S TURN 1: whatever the person decides, the King's Dreamer on Maneuver rolls 4 and
    counts the two Cultists on Develop, the one on Ritual and the one on Summon: Summon."""
    state = load_scenario(BUNDLED / "king-die-roll-solo.toml")
    assert state.king is not None and state.king.dreamer == "maneuver" and state.config.players == 1
    for option in present(state.decision).options:
        moves = [e for e in flow.step(state, option).events if isinstance(e, E.KingDreamerMoves)]
        assert moves == [
            E.KingDreamerMoves(
                roll=4, counted=("develop", "develop", "ritual", "summon"), to="summon", seat=state.king.seat
            )
        ]


def test_own_positions_are_listed_after_the_bundled_ones(tmp_path):
    folder = saves.scenario_dir(tmp_path)
    folder.mkdir(parents=True)
    (folder / "mine.toml").write_text('[scenario]\nname = "Mine"\n[config]\nplayers = 2\n')
    (folder / "broken.toml").write_text("[scenario\n")
    listed = positions(tmp_path)
    assert [p.own for p in listed] == [False] * len(list(BUNDLED.glob("*.toml"))) + [True, True]
    broken, mine = listed[-2:]
    assert mine.name == "Mine" and not mine.problem
    assert broken.name == "broken" and broken.problem and "\n" not in broken.problem


# ----------------------------------------------------------------------------------------------
# The session: save the position, play a scenario, the hint


def _played(tmp_path, config: GameConfig, decisions: int = 12):
    session = new_session(config, folder=tmp_path, autosave=False)
    store = session.store
    for _ in range(decisions):
        d = store.state.decision
        store.dispatch(d.options[-1], seen_state_id=store.state_id, seat=d.seat)
    return session


CONFIGS = [
    GameConfig(players=3, seats=("human",) * 3, seed=5),
    GameConfig(players=1, seats=("human", "king"), seed=6, divergent_paths=True),
]


@pytest.mark.parametrize("config", CONFIGS, ids=["3 players", "solo"])
def test_a_saved_position_plays_as_a_practice_game_from_the_same_position(tmp_path, config):
    session = _played(tmp_path, config)
    path = session.save_position(tmp_path / "here.toml", name="Here")
    practice = scenario_session("nightmare-cathedral", path, folder=tmp_path, autosave=False)
    assert practice.store.state == session.store.state and practice.undo_mode == "practice"
    assert load_scenario(path) == session.store.state


def test_the_hint_names_the_planners_choice_in_words(tmp_path):
    session = _played(tmp_path, GameConfig(players=2, seed=8))
    seat = session.deciding_seat()
    lines = session.advise(seat)
    assert lines[0].startswith("The planner would choose: ") and lines[0].endswith(".")
    assert session.advise(1 - seat) == ["You have no decision to take now."]


def test_play_scenario_refuses_a_broken_file_in_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text("[config]\nplayers = 2\n[[players]]\ndreamer = 'noon'\n")
    assert main(["play", "--scenario", str(bad), "--save-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("nctui: error: bad.toml: ") and "Traceback" not in err
    assert main(["play", "--scenario", str(bad), "--continue"]) == 2


def test_a_scenario_error_has_a_one_line_summary():
    with pytest.raises(ScenarioError) as err:
        load_scenario("[game]\ntime = 9\nstage = 3\n")
    assert "\n" not in err.value.one_line() and err.value.one_line().startswith("<scenario>: ")


# ----------------------------------------------------------------------------------------------
# Pilot: the Practice entry, x, h


@pytest.mark.parametrize("size", [SIZE, (120, 40)], ids=["80x24", "120x40"])
def test_practice_entry_plays_a_bundled_position(tmp_path, size):
    async def go():
        app = _app(tmp_path)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, TitleScreen)
            await pilot.press("p")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, PracticeScreen)
            names = [p.path.name for p in screen.positions]
            assert "scoring-example-3p.toml" in names
            await pilot.press("b")
            await pilot.pause()
            assert isinstance(app.screen, TitleScreen)
            await pilot.press("p")
            await pilot.pause()
            for _ in range(names.index("scoring-example-3p.toml")):
                await pilot.press("j")
            await pilot.press("enter")
            await pilot.pause()
            game = app.game_screen()
            assert isinstance(game, GameScreen) and app.game is not None
            assert app.game.undo_mode == "practice"
            assert app.game.store.state == load_scenario(BUNDLED / "scoring-example-3p.toml")

    run(go())


def test_x_saves_the_position_and_it_loads_as_the_same_position(tmp_path):
    async def go():
        session = scenario_session("nightmare-cathedral", BUNDLED / "conflict-example-2p.toml", folder=tmp_path)
        app = _app(tmp_path, session)
        async with app.run_test(size=SIZE) as pilot:
            await app_settled(app)
            while not isinstance(app.screen, GameScreen):  # past the hot-seat hand-off
                await pilot.press("enter")
                await app_settled(app)
            titles = [title for title, _, _ in screen_commands(app.screen)]
            assert "Save position" in titles and "Hint" in titles  # the command palette has both
            await pilot.press("x")
            await pilot.pause()
            assert isinstance(app.screen, SaveScreen)
            app.screen.query_one(Input).value = "green-attacks"
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, GameScreen)
            path = saves.scenario_dir(tmp_path) / "green-attacks.toml"
            assert path.is_file() and any(str(path) in m for m in app.seen)
            assert load_scenario(path) == session.store.state
            assert [p.name for p in positions(tmp_path) if p.own] == ["green-attacks"]

    run(go())


def test_h_shows_the_planners_hint_without_blocking_keys(tmp_path):
    async def go():
        session = scenario_session("nightmare-cathedral", BUNDLED / "ritual-example-2p.toml", folder=tmp_path)
        app = _app(tmp_path, session)
        async with app.run_test(size=SIZE) as pilot:
            await app_settled(app)
            while not isinstance(app.screen, GameScreen):
                await pilot.press("enter")
                await app_settled(app)
            await pilot.press("h")
            assert any("thinking" in m for m in app.seen)  # at once, before the planner answers
            await app.workers.wait_for_complete()
            await wait_for(
                pilot, lambda: any(m.startswith("The planner would choose: ") for m in app.seen), "the planner's hint"
            )
            hints = [m for m in app.seen if m.startswith("The planner would choose: ")]
            assert hints and len(hints[0].splitlines()) >= 2  # its choice and the next best
            screen = app.screen
            screen._show_hint(app.game.state_id + 1, ["a hint for another position"])
            assert "a hint for another position" not in app.seen  # the game moved on: dropped

    run(go())


def test_h_is_for_practice_games_only(tmp_path):
    async def go():
        app = _app(tmp_path, new_session(GameConfig(players=2, seed=3), folder=tmp_path, undo="strict"))
        async with app.run_test(size=SIZE) as pilot:
            await app_settled(app)
            while not isinstance(app.screen, GameScreen):
                await pilot.press("enter")
                await app_settled(app)
            await pilot.press("h")
            await app_settled(app)
            assert any("Hints are for practice games" in m for m in app.seen)
            assert not any("thinking" in m for m in app.seen)

    run(go())


def test_the_kings_die_roll_plays_from_the_practice_screen(tmp_path):
    """A solo position played from its file: your decision, then the King rolls 4 and its Dreamer
    ends on Summon (the King's turn shown step by step)."""

    async def go():
        app = _app(
            tmp_path, scenario_session("nightmare-cathedral", BUNDLED / "king-die-roll-solo.toml", folder=tmp_path)
        )
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, GameScreen)
            await pilot.press("1")
            await wait_for(pilot, lambda: isinstance(app.screen, KingTurnScreen), "the King's turn")
            await app_settled(app)
            events = app.game.events(0, 0).events
            moves = [e for e in events if isinstance(e, E.KingDreamerMoves)]
            assert moves and moves[0].roll == 4 and moves[0].to == "summon"
            assert isinstance(app.screen, KingTurnScreen)  # the King's turn, paced step by step

    run(go())


def test_the_planners_advice_ranks_the_options_of_the_view():
    """advise: its choice first, then the next best by their look ahead; every option one of the
    decision's, every change one it counts; the view only (other hands hidden)."""
    from nctui.games.nightmare_cathedral.bots.planner_bot import CHANGES, PlannerBot
    from nctui.games.nightmare_cathedral.engine.views import player_view

    state = load_scenario(BUNDLED / "crowded-centre-3p.toml")
    for _ in range(25):
        d = present(state.decision)
        view = player_view(state, d.seat)
        advice = PlannerBot(7).advise(view)
        assert 1 <= len(advice) <= min(3, len(d.options)) and advice[0].chosen
        assert not any(a.chosen for a in advice[1:]) and all(a.action in d.options for a in advice)
        assert [a.value for a in advice[1:]] == sorted((a.value for a in advice[1:]), reverse=True)
        assert all(name in CHANGES and delta for a in advice for name, delta in a.changes)
        state = flow.apply(state, advice[0].action)


@pytest.mark.parametrize("path", sorted(BUNDLED.glob("*.toml")), ids=lambda p: p.stem)
def test_each_bundled_position_is_playable_and_keeps_the_rulebooks_conditions(path):
    """Issue 39.16: each bundled position passes the engine's playability check, and is one the
    rules can reach: Stage 2 exactly when the Cathedral is complete (THE NIGHTMARE CATHEDRAL);
    in the Standard Game a piece built at the end of every turn from the one in which the last
    player takes their first turn (BUILDING THE CATHEDRAL STANDARD GAME; solo: at most one a turn
    from each side)."""
    from nctui.games.nightmare_cathedral.engine import playable

    state = load_scenario(path)
    assert playable.problems(state) == []
    assert rulebook_condition_problems(state) == []
