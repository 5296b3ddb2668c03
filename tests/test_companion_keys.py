"""Random keys on every companion game's screens (issue 39: "the random-key test extended to the
companion screens"): Cathedral, Nightmarium, Dreamers and Nightmares, each against a computer
and between people at one keyboard at 80x24, and against a computer at 120x40 and 40x12.
Every key a person may press there (digits, arrows, Enter, Tab, space, Escape, the shell's keys
that open the help, the rules, the timeline, save and load, any letter) but q (which ends the
app) and ctrl+c; then nothing is lost: the app still runs with no error, the game is whole (the
rules' own checks), every decision taken is still in its timeline, and q saves a file that loads
to the very position on screen."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from nctui.games.cathedral.state import CathedralConfig
from nctui.games.dreamers.state import DreamersConfig
from nctui.games.nightmarium.state import NightmariumConfig
from nctui.platform import registry, saves
from nctui.ui.screens.shell import GameShell
from tests.helpers import app_settled, companion_app

# the keys that play (most presses), then every other key a person may press there
PLAYING = (*"123456789", "up", "down", "left", "right", "enter", "space", "tab", "shift+tab")
OTHERS = (
    *("0", "escape", "backspace", "pageup", "pagedown", "home", "end", "question_mark"),
    *"abcdefghijklmnoprstuvwxyzRHTU",
)
PRESSES = 120  # each waits for the app to be idle: about 0.1 s a key on a busy machine


def _key(rng: random.Random) -> str:
    return rng.choice(PLAYING if rng.random() < 0.8 else OTHERS)


CONFIGS: dict[str, Any] = {
    "cathedral-computer": CathedralConfig(seats=("human", "bot"), levels=("strong", "random"), seed=11),
    "cathedral-people": CathedralConfig(seats=("human", "human"), seed=12),
    "nightmarium-computer": NightmariumConfig(seats=("human", "bot"), levels=("planner", "random"), seed=13),
    "nightmarium-people": NightmariumConfig(seats=("human", "human", "bot"), levels=("planner",) * 3, seed=14),
    "dreamers-computer": DreamersConfig(seats=("human", "bot"), levels=("gambler", "random"), seed=15),
    "dreamers-people": DreamersConfig(seats=("human", "human"), levels=("gambler", "gambler"), seed=16),
}


CASES = [
    *((name, (80, 24)) for name in CONFIGS),
    *((name, (120, 40)) for name in CONFIGS if name.endswith("computer")),
    *((name, (40, 12)) for name in CONFIGS if name.endswith("computer")),  # the smallest terminal
]


@pytest.mark.parametrize(("name", "size"), CASES, ids=[f"{n}-{w}x{h}" for n, (w, h) in CASES])
def test_random_keys_on_a_companion_screen_crash_nothing_and_lose_nothing(tmp_path, name, size) -> None:
    config = CONFIGS[name]
    game = registry.game_of(config)
    rng = random.Random(f"{name}{size}")

    async def go() -> None:
        app = companion_app(tmp_path, game, config)
        async with app.run_test(size=size) as pilot:
            await app_settled(app)
            for _ in range(PRESSES):
                await pilot.press(_key(rng))
            await app_settled(app)
            session = app.game
            assert session.bot_error == "" and session.autosave_error == ""
            state = session.store.state
            assert game.check_start(state) == [], name  # the position is one the rules can reach
            actions = session.store.all_actions()
            assert session.state_id <= len(actions)  # every decision is still in the timeline
            # back to the game (each screen above it closes with Escape), then q saves and quits
            for _ in range(6):
                if isinstance(app.screen, GameShell) or type(app.screen).__name__ == "HandoffScreen":
                    break
                await pilot.press("escape")
                await app_settled(app)
            at = session.state_id
            digest = game.digest(state)
            await pilot.press("q")
            await app_settled(app)
        loaded = saves.load(saves.autosave_path(session.game_id, tmp_path)).store
        assert loaded.state_id == at and game.digest(loaded.state) == digest
        assert len(loaded.all_actions()) == len(actions)

    asyncio.run(go())
