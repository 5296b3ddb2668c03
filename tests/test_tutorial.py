"""The tutorial (issue 12, issue 39.12): from the Title screen (t) or `nctui tutorial`, seven
lessons, each a position played through the normal game screen against computer seats with a
panel saying what happens and what to try: setup and the first turn, Marked Areas and Dreams, the
Ritual track, moving and conflicts, the Fortress, the Cathedral and Stage 2, Nightmares, devouring
and the end. Each lesson's position passes the engine's playability check and the rulebook's
conditions; each reaches its concept within one turn (the engine walk); Pilot at 80x24 walks the
whole tutorial to its end."""

from __future__ import annotations

import asyncio
import re
import textwrap
from functools import partial

import pytest
from textual.widgets import Static

from nctui.games.nightmare_cathedral.describe import tutorial as T
from nctui.games.nightmare_cathedral.engine import events as E, new_game, playable, player_view
from nctui.games.nightmare_cathedral.engine.flow import step
from nctui.games.nightmare_cathedral.engine.state import GameState
from nctui.games.nightmare_cathedral.scenarios import load_scenario
from nctui.games.nightmare_cathedral.ui.screens.tutorial import PRACTICE, TUTORIAL, TutorialScreen
from nctui.platform import registry
from nctui.ui.app import NctuiApp
from nctui.ui.screens.title import TitleScreen
from nctui.ui.widgets.decision import DecisionPanel
from tests.helpers import narrow, present, rulebook_condition_problems, settle

LESSONS = list(enumerate(T.LESSONS))
PREPARED = [(i, lesson) for i, lesson in LESSONS if lesson.position]

# What each lesson reaches within one turn: the events of its concept.
REACHES: dict[str, tuple[type[E.Event], ...]] = {
    "First moves": (E.Conquered, E.DreamerPlaced, E.DayChosen, E.Reacted),
    "Marked Areas and Dreams": (E.Produced, E.DreamPlayed),
    "The Ritual track": (E.RitualPaid, E.RitualPaidLimbo, E.RitualClimbed, E.RitualBonus),
    "Moving and conflicts": (E.ConflictStarted, E.ConflictReveal, E.ConflictWon),
    "Your Fortress": (E.ConflictStarted, E.ConflictWon, E.Retreated, E.VictoryResolved),
    "The Cathedral and Stage 2": (E.CathedralPiece, E.CathedralComplete, E.NightmaresEnter),
    "Nightmares and the end": (E.NightmareCommanded, E.Devoured, E.EndTriggered, E.GameOver),
}
STEP_NUMBER = re.compile(r"\b[A-Z]{3,}(?: [A-Z&:]+)* \d")  # "SETUP 17", "TURN 3": the rulebook's, not the player's


def _start(index: int) -> GameState:
    lesson = T.LESSONS[index]
    if not lesson.position:
        return new_game(TUTORIAL).state
    return load_scenario(PRACTICE / lesson.position)


def _texts(lesson: T.Lesson) -> list[str]:
    return [lesson.title, lesson.intro, lesson.done, lesson.topic_title, *lesson.tips.values(), *lesson.later.values()]


def test_the_tutorial_has_the_lessons_the_issue_asks_for():
    assert [lesson.title for _, lesson in LESSONS] == list(REACHES)
    from nctui.games.nightmare_cathedral.ui.topics import rules_summary

    topics = {s.id for s in rules_summary().sections}
    assert all(lesson.topic in topics for _, lesson in LESSONS)


@pytest.mark.parametrize("index", range(len(T.LESSONS)), ids=[lesson.title for lesson in T.LESSONS])
def test_the_player_reads_no_rulebook_step_numbers(index):
    lesson = T.LESSONS[index]
    for text in [*_texts(lesson), *T.EXPLAIN.values(), T.header(index)]:
        assert not STEP_NUMBER.search(text), text


@pytest.mark.parametrize(("index", "lesson"), PREPARED, ids=[lesson.title for _, lesson in PREPARED])
def test_each_lesson_position_is_playable_and_keeps_the_rulebooks_conditions(index, lesson):
    """Issue 39.12: every lesson position passes the engine's playability check and the rulebook's
    conditions (as the practice positions do); the player's seat decides first."""
    state = load_scenario(PRACTICE / lesson.position)
    assert playable.problems(state) == []
    assert rulebook_condition_problems(state) == []
    assert present(state.decision).seat == lesson.you and state.active == lesson.you


@pytest.mark.parametrize("index", range(len(T.LESSONS)), ids=[lesson.title for lesson in T.LESSONS])
def test_each_lesson_reaches_its_concept_within_one_turn(index):
    """The engine walk of each lesson: the suggested option where there is one, else the first;
    the computer seats' own choices. Every decision of the player's is explained (never the
    generic words) and the lesson ends within a bounded number of decisions, its concept met."""
    lesson = T.LESSONS[index]
    NC = registry.game("nightmare-cathedral")
    state = _start(index)
    bots = {s: NC.bot(state.config, s) for s in range(len(state.players)) if s != lesson.you}
    start_turns, seen, kinds = state.players[lesson.you].turns, set(), set()
    for _ in range(300):
        if T.done(lesson, state, start_turns):
            break
        d = present(state.decision)
        if d.seat == lesson.you:
            lines = T.tutorial_lines(index, player_view(state, lesson.you).state, start_turns)
            assert lines[0] == T.header(index) and T.GENERIC not in lines, d.kind
            kinds.add(d.kind)
            wanted = T.suggested(lesson, state)
            action = d.options[max(wanted, 0)]
        else:
            action = bots[d.seat].choose(player_view(state, d.seat))
        result = step(state, action)
        seen |= {type(e) for e in result.events}
        state = result.state
    assert T.done(lesson, state, start_turns), "the lesson did not end"
    missing = [e.__name__ for e in REACHES[lesson.title] if e not in seen]
    assert not missing, missing
    assert set(lesson.suggest) <= kinds | {"play_upgrade"}, "every suggestion is met on the way"
    assert "Lesson complete" in T.tutorial_lines(index, state, start_turns)[-1]


# ----------------------------------------------------------------------------------------------
# Pilot


def _panel(app) -> str:
    return " ".join(str(app.screen.query_one("#tutorial", Static).render()).split())


def _fits(app) -> bool:
    """The panel's words fit in it (none cut off at 80x24)."""
    panel = app.screen.query_one("#tutorial", Static)
    width, height = panel.content_region.width, panel.content_region.height
    text = str(panel.render())
    rows = sum(len(textwrap.wrap(line, width)) or 1 for line in text.split("\n"))
    return rows <= height


def _on_lesson(app, index: int) -> bool:
    return getattr(app.screen, "lesson", -1) == index


def _waiting(app) -> bool:
    """Settled: the game waits for the player (or the lesson is over)."""
    screen = app.screen
    if not isinstance(screen, TutorialScreen):
        return True  # a screen over the game (the conflict replay, the scores)
    if "Lesson complete" in _panel(app):
        return True
    return app.game.deciding_seat() == T.LESSONS[screen.lesson].you


async def _walk_lesson(pilot, app, index: int) -> set[str]:
    """Play lesson ``index`` to its end as a new player following the panel: Enter on the
    highlighted (suggested) option. Returns the decision kinds met."""
    lesson, kinds = T.LESSONS[index], set[str]()
    for _ in range(300):
        assert await settle(pilot, lambda: _waiting(app), wait=60)
        if not isinstance(app.screen, TutorialScreen):
            await pilot.press("escape")  # the conflict replay or the scores: back to the lesson
            continue
        text = _panel(app)
        assert text.startswith(T.header(index)), text
        # the panel's region is laid out after its words change: on a busy machine, wait for it
        assert await settle(pilot, lambda: _fits(app)), text
        if "Lesson complete" in text:
            assert " ".join(lesson.done.split()) in text
            return kinds
        state = app.game.view(lesson.you).state
        d = present(state.decision)
        kinds.add(d.kind)
        assert " ".join(T.tip(lesson, state, d.kind).split()) in text, d.kind
        panel = app.screen.query_one(DecisionPanel)
        wanted = T.suggested(lesson, state)
        if wanted >= 0:
            assert panel.highlighted_option() == wanted, (d.kind, "the suggestion is highlighted")
        panel.focus()
        await pilot.press("enter")
    raise AssertionError(f"lesson {index + 1} did not end")


def test_the_whole_tutorial_is_walked_to_its_end_at_80x24(tmp_path):
    async def go():
        app = NctuiApp(None, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, TitleScreen)
            await pilot.press("t")
            for index, lesson in LESSONS:
                assert await settle(pilot, partial(_on_lesson, app, index))
                kinds = await _walk_lesson(pilot, app, index)
                assert set(lesson.suggest) - {"play_upgrade"} <= kinds, index
                await pilot.press("n")
            assert "Tutorial complete" in _panel(app)
            assert present(app.game).view(0).state.outcome is not None
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, TitleScreen) and app.game is None
            assert not list(tmp_path.rglob("*.nctui.json"))  # the tutorial is not kept

    asyncio.run(go())


def test_n_goes_to_the_next_lesson_at_once_and_r_opens_its_rules_at_120x40(tmp_path):
    from nctui.ui.screens.rules import RulesScreen

    async def go():
        app = NctuiApp(None, save_dir=tmp_path, bot_delay=0)
        app.open_tutorial = True
        async with app.run_test(size=(120, 40)) as pilot:
            assert await settle(pilot, lambda: isinstance(app.screen, TutorialScreen))
            await pilot.press("n")
            assert await settle(pilot, lambda: getattr(app.screen, "lesson", -1) == 1)
            assert await settle(pilot, lambda: T.LESSONS[1].intro in _panel(app))
            panel = app.screen.query_one(DecisionPanel)
            assert panel.highlighted_option() == T.suggested(T.LESSONS[1], present(app.game).view(0).state) >= 0
            await pilot.press("R")
            assert await settle(pilot, lambda: isinstance(app.screen, RulesScreen))
            assert narrow(app.screen, RulesScreen).topic == T.LESSONS[1].topic

    asyncio.run(go())


def test_escape_leaves_the_tutorial_at_once(tmp_path):
    async def go():
        app = NctuiApp(None, save_dir=tmp_path, bot_delay=0)
        app.open_tutorial = True  # `nctui tutorial`
        async with app.run_test(size=(80, 24)) as pilot:
            assert await settle(pilot, lambda: isinstance(app.screen, TutorialScreen))
            await pilot.press("b")  # the board cursor: Escape goes back to the options first
            await pilot.pause()
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, TutorialScreen) and isinstance(app.focused, DecisionPanel)
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, TitleScreen)

    asyncio.run(go())


def test_nctui_tutorial_is_a_command():
    from nctui.cli import build_parser, main

    assert build_parser().parse_args(["tutorial"]).command == "tutorial"
    assert main(["tutorial", "--help"]) == 0
