"""Finished games watched again in the shared UI, by Pilot at 80x24 (issue 40): the title screen's
Finished games lists only finished games and opens one at its start; u and r step back and forward
with the board and the log as of that decision, Home and End jump, v looks through another seat's
eyes, a digit decides nothing, s exports the game and ``nctui replay FILE`` opens the export;
q closes the replay. Every registered game's screen runs as a replay."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, cast

import pytest

from nctui import cli
from nctui.platform import registry, saves
from nctui.platform.replay import Replay, open_replay
from nctui.platform.store import Store
from nctui.ui.app import create_app
from nctui.ui.screens.load import LoadScreen
from nctui.ui.screens.replay import EyesPicker, ReplayScreen
from nctui.ui.screens.title import TitleScreen
from nctui.ui.widgets.log import GameLog
from tests.helpers import settle
from tests.test_contract import CASES, played

SIZE = (80, 24)


def _finished(entry_id: str, folder: Path, name: str = "finished") -> tuple[Path, Any, Any]:
    """A whole game of ``entry_id`` saved as an autosave of ``folder`` (as a game played here
    leaves it), with its setup result and steps."""
    case = next(c for c in CASES if c.entry.id == entry_id and c.seats >= 2)
    game = registry.game(entry_id)
    start, steps = played(case)
    store = Store(game=game, initial=start, actions=tuple(s.action for s in steps))
    path = saves.autosave_path(f"{name}0000000"[:12], folder)
    saves.save(store, path, path.name.removesuffix(saves.SUFFIX))
    return path, start, steps


def _app(tmp_path: Path, target: Any = None) -> Any:
    app: Any = create_app(target, save_dir=tmp_path, bot_delay=0.0)
    app.seen = []
    app.notify = lambda message, **kw: app.seen.append(message)
    return app


async def _back_to_the_replay(pilot: Any) -> None:
    """Close what the game's screen showed over the replay (the scores at the end, a conflict)."""
    for _ in range(20):
        await pilot.pause()
        if isinstance(pilot.app.screen, ReplayScreen):
            return
        await pilot.press("escape")
    raise AssertionError(f"still {type(pilot.app.screen).__name__} over the replay")


def _log(app: Any) -> str:
    return "\n".join(strip.text for strip in app.screen.query_one(GameLog).lines)


@pytest.mark.parametrize("entry_id", registry.GAME_IDS)
def test_finished_games_from_the_title_step_back_and_forth(tmp_path: Path, entry_id: str) -> None:
    async def go() -> None:
        path, start, steps = _finished(entry_id, tmp_path)
        unfinished = Store(game=registry.game(entry_id), initial=start, actions=tuple(s.action for s in steps[:3]))
        saves.save(unfinished, saves.autosave_path("unfinished00", tmp_path), "unfinished00")
        app = _app(tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            assert isinstance(app.screen, TitleScreen)
            await pilot.press("f")
            assert await settle(pilot, lambda: isinstance(app.screen, LoadScreen))
            listed: Any = app.screen
            assert [g.path for g in listed.games] == [path]  # the unfinished game is not among them
            await pilot.press("enter")
            assert await settle(pilot, lambda: isinstance(app.screen, ReplayScreen))
            screen: Any = app.screen
            replay: Replay = screen.game
            assert replay.over and replay.state_id == 0 and screen.seat == 0
            await pilot.press("r", "r", "r")
            assert await settle(pilot, lambda: replay.state_id == 3)
            await _back_to_the_replay(pilot)
            three = _log(app)
            await pilot.press("end")
            assert await settle(pilot, lambda: replay.state_id == len(steps))
            assert replay.store.state == steps[-1].after
            await _back_to_the_replay(pilot)
            await pilot.press("home")
            assert await settle(pilot, lambda: replay.state_id == 0)
            await _back_to_the_replay(pilot)
            await pilot.press("r", "r", "r", "r", "u")
            assert await settle(pilot, lambda: replay.state_id == 3)
            await _back_to_the_replay(pilot)
            assert _log(app) == three  # the log as of decision 3, however it got there
            await pilot.press("q")
            assert await settle(pilot, lambda: isinstance(app.screen, LoadScreen))

    asyncio.run(go())


def test_whose_eyes_and_nothing_decided(tmp_path: Path) -> None:
    async def go() -> None:
        path, _, steps = _finished("nightmarium", tmp_path)
        app = _app(tmp_path, open_replay(path))
        async with app.run_test(size=SIZE) as pilot:
            assert await settle(pilot, lambda: isinstance(app.screen, ReplayScreen))
            replay: Replay = app.screen.game
            while replay.deciding_seat() != 0 or replay.state_id == 0:  # a decision of the seat watched
                await pilot.press("r")
            at = replay.state_id
            await pilot.press("1", "enter")  # a digit chooses an option in a game: here nothing is decided
            await pilot.pause()
            assert replay.state_id == at and replay.last_id == len(steps)
            assert any("nothing is decided" in m for m in app.seen), app.seen  # said, in one line
            await pilot.press("v")
            assert await settle(pilot, lambda: isinstance(app.screen, EyesPicker))
            await pilot.press("down", "enter")
            assert await settle(pilot, lambda: isinstance(app.screen, ReplayScreen) and cast(Any, app.screen).seat == 1)
            assert app.screen.game is replay and replay.state_id == at
            await pilot.press("q")  # the replay was the app's only screen: it ends
            assert await settle(pilot, lambda: not app.is_running)

    asyncio.run(go())


def test_export_and_open_it_with_nctui_replay(tmp_path: Path) -> None:
    async def go() -> None:
        """s exports the whole game; ``nctui replay`` of the export (as on another machine) opens it
        at its start; a file that is no game says so in one line."""
        path, _, steps = _finished("dreamers", tmp_path)
        app = _app(tmp_path, open_replay(path))
        async with app.run_test(size=SIZE) as pilot:
            assert await settle(pilot, lambda: isinstance(app.screen, ReplayScreen))
            await pilot.press("end", "s")
            assert await settle(pilot, lambda: not isinstance(app.screen, ReplayScreen))
            await pilot.press("ctrl+u", *"exported", "enter")
            assert await settle(pilot, lambda: (tmp_path / f"exported{saves.SUFFIX}").exists())
        other = tmp_path / "elsewhere"
        other.mkdir()
        moved = other / "game.nctui.json"
        moved.write_bytes((tmp_path / f"exported{saves.SUFFIX}").read_bytes())
        replay = open_replay(moved)
        assert replay.over and replay.state_id == 0 and replay.last_id == len(steps)
        replay.undo_to(replay.last_id, seat=0)
        assert replay.store.state == steps[-1].after

    asyncio.run(go())


def test_nctui_replay_of_a_bad_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.nctui.json"
    bad.write_text("{not json")
    assert cli.main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("nctui replay: error: bad.nctui.json") and "Traceback" not in err
    assert cli.main(["replay", str(tmp_path / "missing.nctui.json")]) == 2
    assert "no such save file" in capsys.readouterr().err


def _stack(app: Any) -> list[str]:
    return [type(s).__name__ for s in app.screen_stack]


def _a_conflict_of(store: Store, seat: int) -> tuple[int, int]:
    """The decisions of ``store``'s game after which the first conflict with ``seat`` in it
    began, and after which its cards were put away (it ended)."""
    from nctui.games.nightmare_cathedral.engine.events import ConflictCardBottom, ConflictStarted

    entries = [store.entry(i).events for i in range(store.last_id + 1)]
    begins = next(
        i for i, events in enumerate(entries) if any(isinstance(e, ConflictStarted) and seat in e.sides for e in events)
    )
    ends = next(i for i in range(begins, len(entries)) if any(isinstance(e, ConflictCardBottom) for e in entries[i]))
    return begins, ends


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_a_nightmare_cathedral_replay_jumps_silently(tmp_path: Path, size: tuple[int, int]) -> None:
    """End, Home and the timeline go to the decision without opening the screens of what happened
    on the way (End opened a conflict's panel, then the game over screen over it): at the end the
    game over screen alone, closed once for good; r, one decision forward, still shows its
    conflict as the game did."""
    from nctui.games.nightmare_cathedral.ui.screens.conflict import ConflictScreen
    from nctui.games.nightmare_cathedral.ui.screens.game_over import GameOverScreen
    from nctui.ui.screens.timeline import TimelineScreen
    from tests.helpers import app_settled

    async def go() -> None:
        path, _, steps = _finished("nightmare-cathedral", tmp_path)
        app = _app(tmp_path, open_replay(path))
        async with app.run_test(size=size) as pilot:
            await app_settled(app)
            replay: Replay = app.screen.game
            await pilot.press("end")
            await app_settled(app)
            assert replay.state_id == len(steps)
            assert _stack(app) == ["ReplayGameScreen", "GameOverScreen"]
            assert isinstance(app.screen, GameOverScreen)
            await pilot.press("escape")
            await app_settled(app)
            assert _stack(app) == ["ReplayGameScreen"]  # and it stays closed
            await pilot.press("home")
            await app_settled(app)
            assert replay.state_id == 0 and _stack(app) == ["ReplayGameScreen"]
            await pilot.press("t")  # the timeline: the last decision but one
            await app_settled(app)
            assert isinstance(app.screen, TimelineScreen)
            await pilot.press("end", "up", "enter")
            await app_settled(app)
            assert replay.state_id == len(steps) - 1, replay.state_id
            assert _stack(app) == ["ReplayGameScreen"]
            begins, ends = _a_conflict_of(replay.store, replay.seat)
            replay.undo_to(begins - 1, seat=replay.seat)  # as the timeline does
            await app_settled(app)
            assert _stack(app) == ["ReplayGameScreen"]
            while not isinstance(app.screen, ConflictScreen) and replay.state_id < ends:
                await pilot.press("r")
                await app_settled(app)
            assert isinstance(app.screen, ConflictScreen), _stack(app)

    asyncio.run(go())
