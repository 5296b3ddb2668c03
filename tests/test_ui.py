"""The Textual app, driven by Pilot at 80x24, and the words it shows."""

from __future__ import annotations

import asyncio

import pytest

from nctui.games.nightmare_cathedral.describe import describe_action, describe_decision, describe_events
from nctui.games.nightmare_cathedral.engine import GameConfig, events as E, new_game
from nctui.games.nightmare_cathedral.engine.actions import ChooseDay, Conquer
from nctui.games.nightmare_cathedral.engine.config import SeatKind
from nctui.games.nightmare_cathedral.ui.screens.game import GameScreen
from nctui.games.nightmare_cathedral.ui.widgets.board import BoardView
from nctui.games.nightmare_cathedral.ui.widgets.hand import HandView
from nctui.platform import saves
from nctui.platform.store import Store
from nctui.ui.app import create_app
from nctui.ui.widgets.decision import DecisionPanel
from tests.helpers import app_settled, present, wait_for

SIZE = (80, 24)
CONFIG = GameConfig(players=2, seats=("human", "human"), seed=42)


def run(coro):
    return asyncio.run(coro)


def _screen(app) -> GameScreen:
    return app.game_screen()


def _visible(app, widget) -> bool:
    region = widget.region
    return region.width > 0 and region.height > 0 and app.screen.region.contains_region(region)


def test_starts_with_board_and_decision(tmp_path):
    async def go():
        app = create_app(CONFIG, save_dir=tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            board = app.screen.query_one(BoardView)
            panel = app.screen.query_one(DecisionPanel)
            assert _visible(app, board) and _visible(app, panel)
            assert board.region.height >= 12  # the whole map fits at 80x24
            text = board.render().plain
            for name in ("Weeping Orchard", "Ash Nave", "Cathedral"):
                assert name in text
            prompt = panel.prompt
            assert prompt is not None and "Turn track" in prompt.title.plain
            assert len(prompt.options) == 12
            assert "1 Start the Turn track at position 1" in panel.render().plain
            assert app.focused is panel

    run(go())


def test_digit_applies_an_option_and_undo_redo(tmp_path):
    async def go():
        app = create_app(CONFIG, save_dir=tmp_path, undo="practice")
        async with app.run_test(size=SIZE) as pilot:
            store = app.store
            assert store.state_id == 0
            await pilot.press("3")
            await pilot.pause()
            assert store.state_id == 1
            assert store.state.turn_start == 2
            await pilot.press("1")  # the first conquest
            await pilot.pause()
            assert store.state_id == 2
            await pilot.press("u")
            await pilot.pause()
            assert store.state_id == 1
            await pilot.press("u")
            await pilot.pause()
            assert store.state_id == 0
            await pilot.press("r")
            await pilot.pause()
            assert store.state_id == 1 and store.state.turn_start == 2

    run(go())


def test_arrows_enter_and_paging(tmp_path):
    async def go():
        app = create_app(CONFIG, save_dir=tmp_path, undo="practice")
        async with app.run_test(size=SIZE) as pilot:
            panel = app.screen.query_one(DecisionPanel)
            await pilot.pause()
            size = panel.page_size()
            assert size < 12  # 12 options do not fit at 80x24: there are pages
            await pilot.press("down", "down", "enter")
            await pilot.pause()
            assert app.store.state.turn_start == 2
            await pilot.press("u")
            await pilot.pause()
            await pilot.press("right")  # the second page
            await pilot.press("2")
            await pilot.pause()
            assert app.store.state.turn_start == size + 1

    run(go())


def test_quit_autosaves_and_exits(tmp_path, monkeypatch):
    said: list[str | None] = []

    async def go():
        app = create_app(CONFIG, save_dir=tmp_path)
        real_exit = app.exit

        def exit_saying(*a, **kw):
            said.append(kw.get("message"))
            return real_exit(*a, **kw)

        monkeypatch.setattr(app, "exit", exit_saying)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("5")
            await pilot.pause()
            await pilot.press("q")
            await pilot.pause()
        assert not app.is_running

    run(go())
    path = saves.latest_autosave(tmp_path)
    assert path is not None
    store = saves.load(path).store
    assert store.state_id == 1 and store.state.turn_start == 4
    assert said and present(said[0]).startswith(f"Game saved to {path}.")  # the quit message is true


def test_the_sessions_computer_players_and_autosave_start_once_the_game_is_drawn(tmp_path, monkeypatch):
    """Their threads (the first autosave is due 0.15 s after the session began) do not share
    the interpreter with the drawing of the first frame; computer seats then play at once."""
    from nctui.platform.session import Session

    frames_before_start: list[float] = []
    real_start = Session.start

    def start(session: Session) -> Session:
        frames_before_start.append(app._drawn_at)  # when the last frame was drawn, 0.0 before any
        return real_start(session)

    monkeypatch.setattr(Session, "start", start)
    app = create_app(GameConfig(players=2, seats=("bot", "bot"), seed=42), save_dir=tmp_path, bot_delay=0)

    async def go():
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: present(app.game).store.revision > 0, "the computer seats' first decision")
            assert len(frames_before_start) == 1 and frames_before_start[0] > 0.0
            assert present(app.game).store.revision > 0  # the computer seats played

    run(go())


def test_quit_saves_to_nctui_save_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("NCTUI_SAVE_DIR", str(tmp_path / "env"))

    async def go():
        app = create_app(CONFIG)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("q")
            await pilot.pause()

    run(go())
    assert [p.parent for p in saves.list_saves(tmp_path / "env")] == [tmp_path / "env" / saves.AUTOSAVES]


def test_a_computer_seat_decides_by_itself(tmp_path):
    first = new_game(CONFIG).state.first_player
    seats: tuple[SeatKind, ...] = ("bot", "human") if first == 0 else ("human", "bot")
    config = GameConfig(players=2, seats=seats, seed=CONFIG.seed)

    async def go():
        app = create_app(config, save_dir=tmp_path, bot_delay=0.01)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.store.state.decision.seat != first, "the computer's decisions")
            assert app.store.state_id >= 1
            assert app.store.entry(1).seat == first
            # Undo goes back past the computer's decisions to a person's (here: the start).
            await pilot.press("u")
            await app_settled(app)
            assert app.store.state_id == 0 or app.store.state.decision.seat != first

    run(go())


def test_an_illegal_action_shows_the_engine_message(tmp_path):
    async def go():
        app = create_app(CONFIG, save_dir=tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            screen = _screen(app)
            seen = []
            screen.notify = lambda message, **kw: seen.append(message)  # type: ignore[method-assign]
            seat = app.store.state.decision.seat
            screen._dispatch(Conquer(area="ash-nave"), app.store.state_id, seat)
            await pilot.pause()
            assert seen and "another decision, not to Conquer" in seen[0]
            assert f"The decision due: {describe_decision(app.store.state)}" in seen[0]
            assert app.store.state_id == 0

    run(go())


def test_other_seats_hands_are_not_shown(tmp_path):
    async def go():
        app = create_app(CONFIG, save_dir=tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("1")  # cards are dealt once the Turn track is set
            await pilot.pause()
            state = app.store.state
            me = state.decision.seat
            other = 1 - me
            words = app.screen.query_one(HandView).render().plain.replace("\n", " ")
            from nctui.games.nightmare_cathedral.describe import words_for

            w = words_for(state.pack)
            mine = [w.card(c) for c in state.players[me].hand if c != "basic-combat"]
            theirs = [w.card(c) for c in state.players[other].hand if c not in state.players[me].hand]
            assert any(name.split()[0] in words for name in mine)
            for name in theirs:
                assert name not in words

    run(go())


def test_create_app_from_a_store(tmp_path):
    store = Store(CONFIG)
    app = create_app(store, save_dir=tmp_path)
    assert app.store is store
    with pytest.raises(TypeError):
        create_app("a game", save_dir=tmp_path)


def test_describe_words():
    state = new_game(CONFIG).state
    assert describe_action(Conquer(area="ash-nave"), state).startswith("Conquer Ash Nave")
    assert describe_action(ChooseDay(action="maneuver", ignore=True), state) == "Maneuver: ignore it and draw 2 cards"
    red = next(p.seat for p in state.players if p.colour == "red")
    events = [
        E.DayChosen(seat=red, action="maneuver", ignore=True),
        E.DrewDevelopment(seat=red, cards=("?", "?"), count=2),
    ]
    assert describe_events(events, state) == ["Red moves its Dreamer to Maneuver and draws 2 Development cards"]


def test_game_screen_snapshot(snap_compare, tmp_path):
    assert snap_compare(create_app(CONFIG, save_dir=tmp_path), terminal_size=SIZE)


def test_click_chooses_an_option(tmp_path):
    async def go():
        app = create_app(CONFIG, save_dir=tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            panel = app.screen.query_one(DecisionPanel)
            row = len(panel._title_lines()) + 3  # the 4th option
            await pilot.click(DecisionPanel, offset=(6, row))
            await pilot.pause()
            assert app.store.state.turn_start == 3

    run(go())


def test_log_lists_events_and_l_toggles_it(tmp_path):
    async def go():
        app = create_app(CONFIG, save_dir=tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            from nctui.ui.widgets.log import GameLog

            log = app.screen.query_one(GameLog)
            assert not log.can_focus
            await pilot.press("1")
            await pilot.pause()
            assert log.region.height == 0  # at 80x24 the board is shown, not the log
            await pilot.press("l")
            await pilot.pause()
            assert log.region.height > 0
            text = "\n".join(strip.text for strip in log.lines)
            assert "is the first player" in text and "starts the Turn track at position 1" in text
            await pilot.press("down")  # the arrows still move the options' highlight
            assert app.screen.query_one(DecisionPanel).highlight == 1

    run(go())


def test_every_event_of_real_games_reads_as_plain_words():
    """No event falls back to the generic wording: each kind has its own sentence."""
    from nctui.games.nightmare_cathedral.describe import describe_event
    from nctui.games.nightmare_cathedral.engine import step
    from tests.helpers import random_game

    def _generic(event, state):  # describe_event's fallback: the event's kind
        return event.kind.replace("_", " ").capitalize()

    seen = set()
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        for state, action in random_game(players, seed):
            if action is None:
                break
            for event in step(state, action).events:
                seen.add(event.kind)
                assert describe_event(event, state) != _generic(event, state), event.kind
    assert {"conflict_start", "ritual_climb", "cathedral_piece", "build_fort_level", "move_follower"} <= seen


def test_a_game_screen_popped_before_its_mount_ran_takes_nothing_down(tmp_path):
    """A server's client replaces its game screen when the host sends the game again (a
    reconnect): a screen popped before its mount ran must not query the widgets it no longer has
    (the race of test_net_lobby's reconnect test)."""
    from nctui.ui.app import screen_for

    async def go():
        app = create_app(CONFIG, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            first = app.screen
            for _ in range(3):
                app.push_screen(screen_for(present(app.game)))
                app.pop_screen()
            await pilot.pause()
            await pilot.pause()
            assert app.is_running and app.screen is first
            await pilot.press("3")  # the game still answers its keys
            await pilot.pause()
            assert app.store.state_id == 1

    run(go())


def test_choosing_an_option_lays_the_screen_out_about_once(tmp_path):
    """Key press to settled screen: every layout of the whole game screen costs a frame at 120x40.
    Choosing an option (and the computer's answer) lays it out about once: the log's new lines and
    the panels' new views must not each ask for their own (it was ~2.7 a key). Counted, not timed."""
    from textual.screen import Screen

    layouts = 0
    original = Screen._refresh_layout

    def counted(self, *args, **kwargs):
        nonlocal layouts
        if isinstance(self, GameScreen):
            layouts += 1
        return original(self, *args, **kwargs)

    async def go():
        nonlocal layouts
        app = create_app(GameConfig(players=2, seats=("human", "bot"), seed=42), save_dir=tmp_path, bot_delay=0)

        async def answered() -> None:  # the person decides again (the computer answered, if its turn), all drawn
            await wait_for(pilot, lambda: app.store.state.decision.seat == 0, "the person's next decision")
            await app_settled(app)

        async with app.run_test(size=(120, 40)) as pilot:
            await answered()
            for _ in range(2):  # past the first frames
                await pilot.press("1")
                await answered()
            layouts, presses = 0, 6
            before = app.store.state_id
            for _ in range(presses):
                await pilot.press("1")
                await answered()
            assert app.store.state_id >= before + presses  # every press chose something
            assert layouts <= 2 * presses, f"{layouts} layouts for {presses} presses"

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Screen, "_refresh_layout", counted)
        run(go())
