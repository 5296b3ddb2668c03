"""Whole stretches of play through the real keys, driven by Pilot: a full turn with a reaction
(hot-seat), a conflict between two people (the face-down cards stay hidden from the other
seat until the reveal), and a solo game from the Title screen to the King's first turn."""

from __future__ import annotations

import asyncio
from pathlib import Path

from nctui.engine import GameConfig
from nctui.engine import board as rules
from nctui.engine.flow import StepResult
from nctui.scenarios import load_scenario_result
from nctui.store import Store
from nctui.ui.app import GameScreen, create_app
from nctui.ui.screens.handoff import HandoffScreen
from nctui.ui.screens.king_turn import KingTurnScreen
from nctui.ui.screens.new_game import NewGameScreen
from nctui.ui.widgets.decision import DecisionPanel
from nctui.ui.widgets.log import GameLog
from nctui.ui.widgets.players import PlayersView
from nctui.ui.widgets.status import StatusLine

SMALL, BIG = (80, 24), (120, 40)
HOTSEAT = GameConfig(players=2, seats=("human", "human"), seed=42)  # Blue (seat 1) sets up first
RED, BLUE = 0, 1
SAVES = Path(__file__).resolve().parent.parent / "saves"


def run(coro):
    return asyncio.run(coro)


# ---------------------------------------------------------------------------------------------
# Reading the screen, pressing the keys


def screen_text(app) -> str:
    """Every character on the terminal, as the player sees it (the screen and any screen
    showing through under a modal one)."""
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    return "\n".join("".join(segment.text for strip in line for segment in strip) for line in update.strips)


def log_text(app) -> str:
    """Every line the game log holds (shown or not)."""
    return "\n".join(strip.text for strip in app.game_screen().query_one(GameLog).lines)


def status_text(app) -> str:
    return app.game_screen().query_one(StatusLine).render().plain


def prompt_of(app):
    screen = app.screen
    assert isinstance(screen, GameScreen), f"the game screen is not shown: {screen}"
    prompt = screen.query_one(DecisionPanel).prompt
    assert prompt is not None
    return prompt


async def choose(pilot, words: str) -> str:
    """Pick the one option of the decision panel that contains ``words``, with the keys a
    player would press: → to its page, then its digit. Returns the option's text."""
    panel = pilot.app.screen.query_one(DecisionPanel)
    options = prompt_of(pilot.app).options
    found = [i for i, option in enumerate(options) if words in option]
    assert len(found) == 1, f"{words!r} should name one option of {options}"
    index = found[0]
    size = panel.page_size()
    for _ in range(index // size - panel.page()):
        await pilot.press("right")
    assert panel.page() == index // size
    await pilot.press(str(index % size + 1))
    await pilot.pause()
    return options[index]


async def hand_off(pilot, seat: int) -> None:
    """The hand-off screen to ``seat``: nothing of its view is drawn before Enter."""
    screen = pilot.app.screen
    assert isinstance(screen, HandoffScreen) and screen.seat == seat, f"no hand-off to seat {seat}: {screen}"
    assert pilot.app.game_screen().viewer != seat
    await pilot.press("enter")
    await pilot.pause()
    assert isinstance(pilot.app.screen, GameScreen) and pilot.app.game_screen().viewer == seat


async def show_log(pilot) -> None:
    """l: the log is the panel shown (80x24 shows one panel at a time)."""
    if pilot.app.game_screen()._shown_panel != "log":
        await pilot.press("l")
        await pilot.pause()


# ---------------------------------------------------------------------------------------------
# A full turn with a reaction


async def set_up_hotseat(pilot) -> None:
    """Seed 42's setup by the keys: Blue conquers Weeping Orchard and Ash Nave and dreams on
    Dusk; Red conquers Bell Hollow and Salt Spire and dreams on Vigil (next to Fortify)."""
    store = pilot.app.store
    assert prompt_of(pilot.app).title.plain.startswith(" B Blue ")
    await pilot.press("1")  # the Turn track starts at position 1
    await choose(pilot, "Weeping Orchard")
    await hand_off(pilot, RED)
    await pilot.press("1", "1")  # the first area offered, twice: Bell Hollow, then Salt Spire
    await pilot.pause()
    await hand_off(pilot, BLUE)
    await choose(pilot, "Ash Nave")
    await choose(pilot, "Dusk")
    await hand_off(pilot, RED)
    await choose(pilot, "Vigil")
    await hand_off(pilot, BLUE)
    state = store.state
    owners = {a.id: [s for s, n in enumerate(a.followers) if n] for a in state.areas if any(a.followers)}
    assert owners == {"weeping-orchard": [BLUE], "ash-nave": [BLUE], "bell-hollow": [RED], "salt-spire": [RED]}
    assert [p.dreamer for p in state.players] == ["vigil", "dusk"]
    assert state.phase == "turn" and state.active == BLUE and state.turn_number == 1


def test_a_full_turn_with_a_reaction(tmp_path):
    async def go():
        app = create_app(HOTSEAT, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=SMALL) as pilot:
            store = app.store
            await set_up_hotseat(pilot)
            assert status_text(app).startswith("Turn 1 · Time I") and "B Blue decides" in status_text(app)

            # Blue's Day action, Fortify: one Fort level in Weeping Orchard, paid there.
            before = rules.area(store.state, "weeping-orchard")
            await choose(pilot, "Fortify: perform it")
            assert store.state.players[BLUE].dreamer == "fortify"
            await choose(pilot, "Add a Fort level in Weeping Orchard")
            await choose(pilot, "Remove a Follower from Weeping Orchard")
            await choose(pilot, "Done")
            orchard = rules.area(store.state, "weeping-orchard")
            assert (orchard.fort_owner, orchard.fort_levels) == (BLUE, before.fort_levels + 1)
            assert orchard.followers[BLUE] == before.followers[BLUE] - 1
            await choose(pilot, "Keep the rest")  # the Dream cards

            # Red reacts, after the hand-off (which names the decision, and nothing private).
            assert store.state.phase == "reactions" and store.state.decision.seat == RED
            assert "React to Fortify" in screen_text(app)
            await hand_off(pilot, RED)
            prompt = prompt_of(app)
            assert "R Red" in prompt.title.plain and "React to Fortify" in prompt.title.plain
            assert any("Dissent" in o for o in prompt.options) and "Pass" in prompt.options
            hollow = rules.area(store.state, "bell-hollow")
            assert await choose(pilot, "Conform") == "Conform (Fortify)"
            # The Conform part of Fortify: a Fort level of Red's own, for 2 Followers.
            assert store.state.decision.kind == "build_fort_level" and store.state.decision.seat == RED
            await choose(pilot, "Add a Fort level in Bell Hollow")
            await choose(pilot, "Remove a Follower from Bell Hollow")
            assert store.state.turn_number == 1  # one more Follower to pay
            await choose(pilot, "Remove a Follower from Bell Hollow")
            hollow_after = rules.area(store.state, "bell-hollow")
            assert (hollow_after.fort_owner, hollow_after.fort_levels) == (RED, hollow.fort_levels + 1)
            assert hollow_after.followers[RED] == hollow.followers[RED] - 2

            # The turn ended; Red's turn begins (Red is already at the keyboard: no hand-off).
            state = store.state
            assert (state.turn_number, state.active, state.phase) == (2, RED, "turn")
            assert state.decision.kind == "choose_day" and state.decision.seat == RED
            assert isinstance(app.screen, GameScreen)
            status = status_text(app)
            assert status.startswith("Turn 2 · Time I") and "R Red decides" in status
            assert "Move your Dreamer to a Day space" in prompt_of(app).title.plain
            await show_log(pilot)
            log = log_text(app)
            order = ["Blue moves its Dreamer to Fortify and performs it", "Red conforms",
                     "Turn 2: Red is the active player"]
            assert all(line in log for line in order), log
            assert [log.index(line) for line in order] == sorted(log.index(line) for line in order)
            assert "Turn 2: Red is the active player" in screen_text(app)

    run(go())


# ---------------------------------------------------------------------------------------------
# The log written while hidden (80x24 shows one panel at a time)


def test_lines_logged_while_the_log_is_hidden_wrap_at_its_width(tmp_path):
    """l shows the log, l hides it; what is logged meanwhile (and the whole log, rewritten for
    the next person at a hand-off) is wrapped at the log's width once it is shown again, not
    folded at a narrow default."""
    async def go():
        app = create_app(HOTSEAT, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=SMALL) as pilot:
            await pilot.press("l", "l")  # the log once, then the board again
            await pilot.pause()
            await pilot.press("3")  # Blue starts the Turn track at position 3, logged while hidden
            await pilot.pause()
            await show_log(pilot)
            lines = [line.rstrip() for line in log_text(app).splitlines()]
            assert "Blue starts the Turn track at position 3 (☾M Moon)" in lines, lines
            await pilot.press("l")
            await pilot.pause()
            await choose(pilot, "Weeping Orchard")
            await hand_off(pilot, RED)  # the log is rewritten through Red's eyes, hidden
            await show_log(pilot)
            lines = [line.rstrip() for line in log_text(app).splitlines()]
            assert "Blue conquers Weeping Orchard" in lines, lines
            assert max(map(len, lines)) > 60  # wrapped at the log's width (78), not at 20
            assert "Blue conquers Weeping Orchard" in screen_text(app)

    run(go())
