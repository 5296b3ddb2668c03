"""The flows around the game screen, driven by Pilot: the hot-seat hand-off, the timeline,
save and load, game over, the King's turn paced step by step, undo refusals, the command
palette, and the colour modes."""

from __future__ import annotations

import asyncio
import contextlib
import io
import threading
import time
from typing import Literal

import pytest
from msgspec.structs import replace
from rich.console import Console
from rich.text import Text
from textual.command import Command, CommandList, CommandPalette
from textual.containers import VerticalScroll
from textual.filter import Monochrome
from textual.widget import Widget
from textual.widgets import Input, OptionList

from nctui.games.nightmare_cathedral.bots import RandomBot
from nctui.games.nightmare_cathedral.describe import describe_changes, describe_secret_action, words_for
from nctui.games.nightmare_cathedral.describe.score import score_breakdown
from nctui.games.nightmare_cathedral.engine import GameConfig, events as E, nightmares, player_view
from nctui.games.nightmare_cathedral.engine.actions import PlayCombatCard
from nctui.games.nightmare_cathedral.engine.facts import facts
from nctui.games.nightmare_cathedral.engine.flow import StepResult, step
from nctui.games.nightmare_cathedral.ui.screens.game import GameScreen
from nctui.games.nightmare_cathedral.ui.screens.game_over import GameOverScreen
from nctui.games.nightmare_cathedral.ui.screens.king_turn import KingStep, KingTurnScreen, king_turn_events
from nctui.games.nightmare_cathedral.ui.screens.new_game import NewGameScreen
from nctui.games.nightmare_cathedral.ui.widgets.board import BoardView
from nctui.games.nightmare_cathedral.ui.widgets.hand import HandView, hand_cards
from nctui.games.nightmare_cathedral.ui.widgets.matrix import MatrixView
from nctui.games.nightmare_cathedral.ui.widgets.players import PlayersView, render_players
from nctui.games.nightmare_cathedral.ui.widgets.tracks import TracksView
from nctui.platform import saves
from nctui.platform.session import Session
from nctui.platform.store import Store, StrictPolicy
from nctui.ui.app import create_app
from nctui.ui.commands import screen_commands
from nctui.ui.screens import shell
from nctui.ui.screens.handoff import HandoffScreen
from nctui.ui.screens.load import LoadScreen
from nctui.ui.screens.save import SaveScreen
from nctui.ui.screens.timeline import TimelineList, TimelineScreen
from nctui.ui.textual_ext.placed import PlacedStatic
from nctui.ui.theme import line_filters, mono_wanted, seat_colours_256
from nctui.ui.widgets.decision import DecisionPanel
from nctui.ui.widgets.log import GameLog
from tests.helpers import GuardClock, app_settled, narrow, present, screen_of, settle, store_moves, wait_for

SMALL, BIG = (80, 24), (120, 40)
VS_BOT = GameConfig(players=2, seats=("human", "bot"), seed=42)
HOTSEAT_11 = GameConfig(players=2, seats=("human", "human"), seed=11)
HOTSEAT = GameConfig(players=2, seats=("human", "human"), seed=42)  # seat 1 decides twice, then seat 0
SOLO = GameConfig(players=1, seats=("human", "king"), seed=3)


def run(coro):
    return asyncio.run(coro)


def views_of(screen) -> set[int]:
    """The seats whose views the screen's widgets hold."""
    return {w.view.seat for w in screen.query("*") if getattr(w, "view", None) is not None}


def rendered(renderable, width: int, *, colours: Literal["standard", "256", "truecolor"] | None = None) -> str:
    """What a Rich renderable prints at ``width`` (with ANSI codes when ``colours`` is given)."""
    console = Console(
        width=width, record=True, color_system=colours, force_terminal=colours is not None, file=io.StringIO()
    )
    console.print(renderable)
    return console.export_text(styles=colours is not None)


def text_of(screen, selector: str, width: int = 120) -> str:
    """The text of a Static on ``screen``, as printed."""
    return rendered(screen.query_one(selector).content, width)


def notes_of(screen) -> list[str]:
    """Replace ``screen.notify`` with a recorder of the messages."""
    seen: list[str] = []
    screen.notify = lambda message, **kw: seen.append(message)
    return seen


# ---------------------------------------------------------------------------------------------
# Hot-seat hand-off


async def _to_first_handoff(app, pilot) -> None:
    """HOTSEAT: Blue sets the Turn track and conquers; the keyboard passes to Red."""
    await pilot.press("3", "1")
    await wait_for(pilot, lambda: isinstance(app.screen, HandoffScreen), "the hand-off to Red")


async def _rehearsed(pilot) -> None:
    """The hand-off up, the game under it has drawn the next view ahead (``REHEARSE_AFTER``
    later), and the app has done all that asked."""
    hand = pilot.app.game_screen().query_one(HandView)
    await wait_for(pilot, lambda: hand._rehearsed is not None, "the next view drawn ahead under the hand-off", 60)
    await app_settled(pilot.app)


def test_handoff_hides_the_next_hand_until_a_key(tmp_path):
    async def go():
        app = create_app(HOTSEAT, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=SMALL) as pilot:
            await pilot.press("3")  # seat 1 sets the Turn track and decides again: no hand-off
            await app_settled(app)
            assert isinstance(app.screen, GameScreen)
            await pilot.press("1")  # seat 1 conquers; seat 0 decides next
            await wait_for(pilot, lambda: isinstance(app.screen, HandoffScreen), "the hand-off to Red")
            store = app.store
            assert store.state.decision.seat == 0
            assert isinstance(app.screen, HandoffScreen)
            text = text_of(app.screen, "#handoff-text")
            assert "Pass the keyboard to" in text and "when only Red is looking" in text
            game = app.game_screen()
            # Behind the hand-off nothing of seat 0 was drawn: every panel still has seat 1's view.
            assert game.viewer == 1 and views_of(game) == {1}
            await pilot.press("1")  # a digit does nothing here
            await app_settled(app)
            assert store.state_id == 2
            await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game after the hand-off")
            assert isinstance(app.screen, GameScreen) and game.viewer == 0 and views_of(game) == {0}
            red, blue = store.state.players
            assert set(hand_cards(game.query_one(HandView).view)) == {*red.hand, *red.dreams}
            # The log was written again through Red's eyes: Blue's dealt cards are not named.
            await pilot.press("l")
            await app_settled(app)
            log = "\n".join(strip.text for strip in game.query_one(GameLog).lines)
            w = words_for(store.state.pack)
            assert "Blue is dealt 3 Development cards" in log
            assert not any(w.card(c) in log for c in blue.hand if c not in red.hand)
            assert any(w.card(c) in log for c in red.hand if c not in blue.hand)

    run(go())


def test_leaving_a_game_from_under_a_handoff_goes_to_the_title_screen(tmp_path):
    """``leave_game`` with a screen over the game (it crashed: no screen left for the footer's
    keys, then no result callback for the switch)."""
    from nctui.ui.screens.title import TitleScreen

    async def go():
        app = create_app(HOTSEAT, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=SMALL) as pilot:
            await _to_first_handoff(app, pilot)
            session = present(app.game)
            app.leave_game()
            await wait_for(pilot, lambda: isinstance(app.screen, TitleScreen), "the title screen")
            assert isinstance(app.screen, TitleScreen) and len(app.screen_stack) == 1
            assert app.game is None and session.closed
            await pilot.press("q")  # the title's quit: the app stops
            await pilot.pause()

    run(go())


def test_handoff_tells_what_happened_since_that_person_last_looked(tmp_path):
    async def go():
        app = create_app(HOTSEAT, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=SMALL) as pilot:
            await pilot.press("3", "1")  # Blue sets the Turn track and conquers; Red decides next
            await wait_for(pilot, lambda: isinstance(app.screen, HandoffScreen), "the hand-off to Red")
            assert isinstance(app.screen, HandoffScreen) and not app.screen.query("#handoff-news")  # Red's first look
            await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "Red's game")
            store = app.store
            conquered = []
            while store.state.decision.seat == 0:  # Red's setup decisions, then back to Blue
                option = store.state.decision.options[0]
                conquered += [option.area] if hasattr(option, "area") else []
                await pilot.press("1")
                await app_settled(app)
            area = conquered[0]
            await wait_for(pilot, lambda: isinstance(app.screen, HandoffScreen), "the hand-off back to Blue")
            assert isinstance(app.screen, HandoffScreen) and store.state.decision.seat == 1
            news = text_of(app.screen, "#handoff-news")
            w = words_for(store.state.pack)
            assert "Since you last looked" in news and f"Red conquers {w.area(area)}" in news
            red = store.state.players[0]
            assert not any(w.card(c) in news for c in red.hand)  # public lines only: Blue may not be alone

    run(go())


@pytest.mark.parametrize("size", [SMALL, BIG])
def test_handoff_echoes_the_option_picked_and_a_press_does_one_thing(tmp_path, size):
    async def go():
        app = create_app(HOTSEAT, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=size) as pilot:
            await pilot.press("3")
            await app_settled(pilot.app)
            store = app.store
            w = words_for(store.state.pack)
            conquer = store.state.decision.options[1]
            await pilot.press("2")  # Blue conquers with option 2; Red decides next
            await wait_for(pilot, lambda: isinstance(app.screen, HandoffScreen), "the hand-off to Red")
            assert isinstance(app.screen, HandoffScreen)
            echo = text_of(app.screen, "#handoff-echo")
            assert f"Blue chose 2: Conquer {w.area(conquer.area)}" in echo
            state_id = store.state_id
            for key in ("1", "2", "enter"):  # a digit neither dismisses nor picks; Enter only dismisses
                await pilot.press(key)
                await app_settled(app)
                assert store.state_id == state_id
            await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "Red's game")
            assert isinstance(app.screen, GameScreen)

    run(go())


def test_handoff_news_scrolls_and_keeps_the_newest(tmp_path):
    news = tuple(f"line {i}" for i in range(40))

    async def go():
        app = create_app(HOTSEAT, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=SMALL) as pilot:
            screen = HandoffScreen(1, Text("B Blue"), "Blue", news=news)
            app.push_screen(screen)
            await wait_for(pilot, lambda: app.screen is screen, "the hand-off")
            await app_settled(app)
            box = screen.query_one("#handoff-news-box")
            text = text_of(screen, "#handoff-news")
            assert "line 0" in text and "line 39" in text  # every line is there, none dropped
            assert box.max_scroll_y > 0 and box.scroll_y == box.max_scroll_y  # the newest in view
            region = box.content_region
            assert region.bottom <= SMALL[1]
            await pilot.press("pageup")
            await app_settled(app)
            assert box.scroll_y < box.max_scroll_y
            await pilot.press("down")
            await app_settled(app)
            assert isinstance(app.screen, HandoffScreen)  # scrolling does not dismiss

    run(go())


def test_handoff_u_takes_back_the_decision_that_passed_the_keyboard(tmp_path):
    async def go():
        app = create_app(HOTSEAT, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=SMALL) as pilot:
            await _to_first_handoff(app, pilot)
            await pilot.press("u")
            await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "Blue's game, the decision taken back")
            assert app.store.state_id == 1 and isinstance(app.screen, GameScreen)
            assert app.game_screen().viewer == 1

    run(go())


def test_a_continued_hotseat_game_hands_off_first(tmp_path):
    store = Store(HOTSEAT)
    store_moves(store, 6)

    async def go():
        app = create_app(store, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=SMALL) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, HandoffScreen), "the hand-off of the continued game")
            assert isinstance(app.screen, HandoffScreen)
            await pilot.press("space")
            await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game after the hand-off")
            assert app.game_screen().viewer == store.state.decision.seat

    run(go())


def test_handoffs_between_people_around_a_computer(tmp_path):
    config = GameConfig(players=3, seats=("human", "bot", "human"), seed=5)

    async def go():
        app = create_app(config, save_dir=tmp_path, bot_delay=0.01)
        async with app.run_test(size=SMALL) as pilot:
            store, game = app.store, app.game_screen()
            handoffs = []

            def a_person_is_shown() -> bool:  # the hand-off to a person, or their decision drawn
                seat = store.state.decision.seat
                shown = isinstance(app.screen, GameScreen) and game.viewer == seat
                return seat != 1 and (isinstance(app.screen, HandoffScreen) or shown)

            for _ in range(16):
                await wait_for(pilot, a_person_is_shown, "a person's hand-off or decision (the computer decided)")
                seat = store.state.decision.seat
                if isinstance(app.screen, HandoffScreen):
                    handoffs.append(app.screen.seat)
                    assert app.screen.seat == seat != game.viewer and seat not in views_of(game)
                    await pilot.press("enter")
                elif seat != 1:
                    assert isinstance(app.screen, GameScreen) and game.viewer == seat
                    await pilot.press("1")
            assert set(handoffs) == {0, 2}

    run(go())


def test_no_handoff_in_solo(tmp_path):
    async def go():
        app = create_app(SOLO, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=SMALL) as pilot:
            for _ in range(6):
                await pilot.press("1")
                await app_settled(app)
                while isinstance(app.screen, KingTurnScreen):
                    await pilot.press("escape")
                    await app_settled(app)
                assert not isinstance(app.screen, HandoffScreen)
            assert app.store.state_id >= 4

    run(go())


def test_handoff_snapshot(snap_compare, tmp_path):
    async def run_before(pilot):
        await _to_first_handoff(pilot.app, pilot)
        await app_settled(pilot.app)

    assert snap_compare(create_app(HOTSEAT, save_dir=tmp_path, bot_delay=0), terminal_size=SMALL, run_before=run_before)


# ---------------------------------------------------------------------------------------------
# Timeline, undo refusals


def test_timeline_jumps_back_and_redoes_forward(tmp_path):
    store = Store(replace(HOTSEAT, seats=("human", "bot")))
    store_moves(store, 8)
    last = store.state_id

    async def go():
        app = create_app(store, save_dir=tmp_path, bot_delay=30)  # the computer waits
        async with app.run_test(size=BIG) as pilot:
            await pilot.press("t")
            await app_settled(pilot.app)
            timeline = app.screen
            assert isinstance(timeline, TimelineScreen)
            options = timeline.query_one(TimelineList)
            assert options.option_count == last + 1 and options.highlighted == last
            assert options.row(last).plain.startswith("▶")
            await pilot.press("up", "up", "up", "enter")
            await app_settled(pilot.app)
            assert store.state_id == last - 3 and store.last_id == last
            assert isinstance(app.screen, GameScreen)
            await pilot.press("t")
            await app_settled(pilot.app)
            assert screen_of(app) is timeline  # kept (screens/kept.py), its list made again for the game now
            options = app.screen.query_one(TimelineList)
            rows = [options.row(i).plain for i in range(options.option_count)]
            assert rows[last - 3].startswith("▶") and options.highlighted == last - 3
            assert text_of(timeline, "#timeline-title").startswith(f"Timeline: decision {last - 3} of {last}")
            assert all("(redo)" in r and r.startswith("↷") for r in rows[last - 2 :])
            assert not any("(redo)" in r for r in rows[: last - 2])
            await pilot.press("down", "down", "down", "enter")
            await app_settled(pilot.app)
            assert store.state_id == last and isinstance(app.screen, GameScreen)

    run(go())


def test_strict_undo_refusals_say_the_policy(tmp_path):
    store = Store(HOTSEAT, policy=StrictPolicy())
    store_moves(store, 2)  # seat 1 decided twice; seat 0 decides

    async def go():
        app = create_app(store, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=SMALL) as pilot:
            await pilot.press("enter")  # the hand-off of a continued game
            await app_settled(pilot.app)
            seen = notes_of(app.game_screen())
            at = store.state_id
            await pilot.press("u")
            await app_settled(pilot.app)
            assert store.state_id == at
            assert seen and "cannot undo" in seen[-1].lower() and "strict undo" in seen[-1]
            await pilot.press("t")
            await app_settled(pilot.app)
            await pilot.press("home", "enter")
            await app_settled(pilot.app)
            assert isinstance(app.screen, TimelineScreen) and store.state_id == at  # stays open, says why
            message = text_of(app.screen, "#timeline-message")
            assert "strict undo" in message
            await pilot.press("escape", "t")  # opened again: as new, no message
            await app_settled(pilot.app)
            assert isinstance(app.screen, TimelineScreen) and not text_of(app.screen, "#timeline-message").strip()
            assert app.screen.query_one(TimelineList).highlighted == at

    run(go())


def _first_face_down_card(seed: int) -> tuple[Store, int | None]:
    """A random 2-player game up to the first card a seat plays face down while the other has
    yet to play (None if the game has no conflict between the two players)."""
    store = Store(GameConfig(players=2, seats=("human", "human"), seed=seed))
    bots = [RandomBot(seed + 1), RandomBot(seed + 2)]
    while store.state.outcome is None:
        d = store.state.decision
        store.dispatch(bots[d.seat].choose(player_view(store.state, d.seat)), seen_state_id=store.state_id, seat=d.seat)
        entry = store.entry(store.state_id)
        after = store.state.decision
        if (
            isinstance(entry.action, PlayCombatCard)
            and after is not None
            and after.seat != entry.seat
            and after.kind == "play_combat_card"
        ):
            return store, store.state_id
    return store, None


def test_the_timeline_keeps_another_seats_combat_card_face_down():
    store, face_down = next((found for found in map(_first_face_down_card, range(1, 30)) if found[1]), (None, None))
    assert store is not None and face_down is not None, "no seed gave a conflict between the players"
    game = Session(store, autosave=False)
    entry = store.entry(face_down)
    card = words_for(store.state.pack).card(entry.action.card)
    assert game.timeline(1 - entry.seat)[face_down].summary == "Play a combat card face down"
    assert describe_secret_action(entry.action) == "Play a combat card face down"
    assert card in game.timeline(entry.seat)[face_down].summary  # its own seat sees it


# ---------------------------------------------------------------------------------------------
# Save and load


def test_save_under_a_name_then_load_it(tmp_path):
    async def go():
        app = create_app(HOTSEAT, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=SMALL) as pilot:
            await pilot.press("3")
            await app_settled(pilot.app)
            await pilot.press("s")
            await app_settled(pilot.app)
            assert isinstance(app.screen, SaveScreen)
            field = app.screen.query_one(Input)
            assert "turn" in field.value
            field.value = "bad/name"
            await pilot.press("enter")
            await app_settled(pilot.app)
            assert isinstance(app.screen, SaveScreen)  # refused, nothing lost
            assert "not a plain file name" in text_of(app.screen, "#save-message")
            field.value = "my game"
            await pilot.press("enter")
            await app_settled(pilot.app)
            assert isinstance(app.screen, GameScreen)
            path = tmp_path / ("my game" + saves.SUFFIX)
            assert saves.load(path).store.state == app.store.state
            # Saving again under the same name asks before replacing the file.
            await pilot.press("1", "enter")  # the game moves on (and the keyboard to seat 0)
            await app_settled(pilot.app)
            assert app.store.state_id == 2 and isinstance(app.screen, GameScreen)
            await pilot.press("s")
            await app_settled(pilot.app)
            app.screen.query_one(Input).value = "my game"
            await pilot.press("enter")
            await app_settled(pilot.app)
            assert "exists" in text_of(app.screen, "#save-message")
            assert saves.load(path).store.state_id == 1
            await pilot.press("escape")
            await app_settled(pilot.app)
            # o: the Load screen (this game stays among the unfinished ones, in its autosave)
            before, autosave = app.store, present(app.game).autosave_path
            await pilot.press("o")
            await app_settled(pilot.app)
            load = app.screen
            assert isinstance(load, LoadScreen)
            load.load(path)
            await app_settled(pilot.app)
            assert app.store is not before and app.store.state_id == 1
            assert isinstance(app.screen, HandoffScreen)  # a hot-seat game continued: whose turn first
            await pilot.press("enter")
            await app_settled(pilot.app)
            assert isinstance(app.screen, GameScreen) and app.game_screen().game is app.game
            assert autosave is not None and saves.load(autosave).store.state == before.state  # not replaced

    run(go())


# ---------------------------------------------------------------------------------------------
# Game over


def near_end_store() -> Store:
    """Two people, three decisions from the end of a game (seat 0: the Day action, ignored
    (option 2), then a Dream discard (option 3); seat 1: a reaction, pass (option 3))."""
    from tests.test_game_end import ONE, devour_to_the_threshold, finish_turn
    from tests.test_nightmares import stage2

    state = finish_turn(devour_to_the_threshold(stage2(*ONE, players=2)))
    state = replace(state, config=replace(state.config, seats=("human", "human")))
    return Store(initial=StepResult(state=state, events=()))


async def play_to_the_end(pilot) -> None:
    await pilot.press("2", "3")
    await app_settled(pilot.app)
    assert isinstance(pilot.app.screen, HandoffScreen)
    await pilot.press("enter", "3")
    await app_settled(pilot.app)


def test_game_over_shows_the_breakdown_and_undo_goes_back(tmp_path):
    async def go(size):
        store = near_end_store()
        app = create_app(store, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=size) as pilot:
            await play_to_the_end(pilot)
            assert store.state.outcome is not None
            screen = app.screen
            assert isinstance(screen, GameOverScreen)
            plain = text_of(screen, "#over-text", size[0])
            for word in ("Ritual", "Forts", "Devoured", "Upgrades", "Dreams", "Total"):
                assert word in plain
            assert "★ R Red wins with 8 VP" in plain and "Devoured end condition" in plain
            await pilot.press("u")
            await app_settled(pilot.app)
            assert store.state.outcome is None and isinstance(app.screen, HandoffScreen | GameScreen)
            # back to the last person's decision; redo shows the game over again
            while isinstance(app.screen, HandoffScreen):
                await pilot.press("enter")
                await app_settled(pilot.app)
            await pilot.press("r")
            await app_settled(pilot.app)
            assert isinstance(app.screen, GameOverScreen)
            await pilot.press("v")  # look at the board; g brings the scores back
            await app_settled(pilot.app)
            assert isinstance(app.screen, GameScreen)
            await pilot.press("g")
            await app_settled(pilot.app)
            assert isinstance(app.screen, GameOverScreen)

    run(go(SMALL))
    run(go(BIG))


def test_game_over_names_every_score_source_and_they_sum_to_the_total(tmp_path):
    """Issue 39 item 15: per side the Ritual spaces, the Forts, the devoured place and its tie
    split, each Dream; the lines add up to the total; the end condition names its threshold;
    at 80x24 the box scrolls to the last line."""

    async def go():
        store = near_end_store()
        app = create_app(store, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=SMALL) as pilot:
            await play_to_the_end(pilot)
            out = store.state.outcome
            assert out is not None and isinstance(app.screen, GameOverScreen)
            totals = {s.seat: s.total for s in out.scores}
            rows = score_breakdown(store.state)
            assert {seat for seat, _, _ in rows} == set(totals)
            plain = text_of(app.screen, "#over-text", SMALL[0])
            flat = " ".join(plain.split())
            for seat, _, lines in rows:
                assert sum(vp for _, vp in lines) == totals[seat]
                assert any(why.startswith("Ritual marker") for why, _ in lines)
                assert any(why.startswith("Devoured:") for why, _ in lines)
                for why, _ in lines:
                    assert why[:30] in plain  # each source named (a long reason wraps beside its VP)
            threshold = nightmares.threshold(store.state)
            assert f"the threshold is {threshold}" in flat
            box = app.screen.query_one("#over-box", VerticalScroll)
            assert box.max_scroll_y > 0  # 80x24 cannot show it all: it scrolls
            await pilot.press("end")
            await app_settled(app)
            assert box.scroll_y == box.max_scroll_y

    run(go())


def test_game_over_saves_the_replay_and_starts_again(tmp_path):
    async def go():
        store = near_end_store()
        app = create_app(store, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=SMALL) as pilot:
            await play_to_the_end(pilot)
            await pilot.press("s")
            await app_settled(pilot.app)
            assert isinstance(app.screen, SaveScreen)
            await pilot.press("enter")
            await app_settled(pilot.app)
            assert isinstance(app.screen, GameOverScreen)
            [replay] = [p for p in saves.list_saves(tmp_path) if p.name.startswith("replay-")]
            loaded = saves.load(replay).store
            assert loaded.last_id == 3 and loaded.state.outcome == store.state.outcome
            await pilot.press("n")
            await app_settled(pilot.app)
            assert isinstance(app.screen, NewGameScreen)

    run(go())


def test_game_over_snapshot(snap_compare, tmp_path):
    async def run_before(pilot):
        await play_to_the_end(pilot)

    assert snap_compare(
        create_app(near_end_store(), save_dir=tmp_path, bot_delay=0), terminal_size=SMALL, run_before=run_before
    )


# ---------------------------------------------------------------------------------------------
# Solo: the King's turn


def before_a_kings_turn() -> tuple[Store, int]:
    """A solo game one decision before the King's turn, and the option index that starts it."""
    store = Store(SOLO)
    bot = RandomBot(1)
    while True:
        d = store.state.decision
        action = bot.choose(player_view(store.state, d.seat))
        if any(e.kind == "king_horror_die" for e in step(store.state, action).events):
            return store, d.options.index(action)
        store.dispatch(action, seen_state_id=store.state_id, seat=d.seat)


def test_king_turn_is_paced_step_by_step(tmp_path):
    store, option = before_a_kings_turn()

    async def go():
        app = create_app(store, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=SMALL) as pilot:
            await app_settled(pilot.app)
            panel = app.screen.query_one(DecisionPanel)
            panel.highlight = option
            await pilot.press("enter")
            await app_settled(pilot.app)
            screen = app.screen
            assert isinstance(screen, KingTurnScreen)
            assert len(screen.steps) > 3 and screen.shown == 1
            die_at = next(i for i, s in enumerate(screen.steps) if s.kind == "king_horror_die")
            for _ in range(die_at):
                await pilot.press("space")
            await app_settled(pilot.app)
            assert screen.shown == die_at + 1
            head = text_of(screen, "#king-head")
            assert "the Horror Die" in head
            await pilot.press("a")
            await app_settled(pilot.app)
            assert screen.done
            text = text_of(screen, "#king-text")
            assert "The King rolled the Horror Die" in text
            await pilot.press("enter")  # all shown: Enter closes
            await app_settled(pilot.app)
            assert isinstance(app.screen, GameScreen)

    run(go())


async def open_kings_turn(pilot, option: int) -> KingTurnScreen:
    await app_settled(pilot.app)
    pilot.app.screen.query_one(DecisionPanel).highlight = option
    await pilot.press("enter")
    await app_settled(pilot.app)
    screen = pilot.app.screen
    assert isinstance(screen, KingTurnScreen)
    return screen


@pytest.mark.parametrize("size", [SMALL, BIG])
def test_king_turn_panel_scrolls_and_ends_with_what_changed(tmp_path, size):
    store, option = before_a_kings_turn()
    before = store.state

    async def go():
        app = create_app(store, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=size) as pilot:
            screen = await open_kings_turn(pilot, option)
            lines = screen.query_one("#king-lines")
            assert lines.content_region.height >= (10 if size == SMALL else 20)  # not 7 lines at 80x24
            await pilot.press("a")
            await app_settled(pilot.app)
            await app_settled(pilot.app)
            text = text_of(screen, "#king-text", size[0])
            assert "What the turn changed:" in text
            changed = describe_changes(player_view(before, 0).state, app.game_screen().game.view(0).state)
            assert changed and all(line in text for line in changed)
            assert lines.max_scroll_y > 0 and lines.scroll_y == lines.max_scroll_y  # the summary in view
            await pilot.press("pageup")
            await app_settled(pilot.app)
            paged, top = lines.scroll_y, screen.reading
            assert paged < lines.max_scroll_y and top < len(screen.steps) - 1  # the cursor: the page's first step
            await pilot.press("up")
            await app_settled(pilot.app)
            assert screen.reading == max(top - 1, 0) and lines.scroll_y <= paged  # ↑: the step before, in view
            await pilot.press("home")
            await app_settled(pilot.app)
            assert lines.scroll_y == 0 and screen.reading == 0
            await pilot.press("pagedown", "end")
            await app_settled(pilot.app)
            assert lines.scroll_y == lines.max_scroll_y and isinstance(app.screen, KingTurnScreen)

    run(go())


@pytest.mark.parametrize("size", [SMALL, BIG])
def test_the_board_behind_the_kings_turn_shows_the_step_being_read(tmp_path, size):
    store, option = before_a_kings_turn()
    start = store.state_id

    async def go():
        app = create_app(store, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=size) as pilot:
            screen = await open_kings_turn(pilot, option)
            game = app.game_screen()
            board = game.query_one(BoardView)
            now = render_board_now(board)
            assert board.past is not None and board.past[0] == game.game.view_at(start, 0)  # not the outcome yet
            assert board.render().plain != now
            assert all(s.why for s in screen.steps if s.kind.startswith("king_"))  # each step says why
            await pilot.press("a")
            await app_settled(pilot.app)
            assert board.past is not None and board.past[0] == game.game.view_at(store.state_id, 0)  # the outcome
            await pilot.press("home")  # back to the first step: the position before it again
            await app_settled(pilot.app)
            assert screen.reading == 0 and board.past[0] == game.game.view_at(start, 0)
            await pilot.press("end", "space")  # closed: the board shows the present
            await app_settled(pilot.app)
            assert app.screen is game and board.past is None and board.render().plain == now

    run(go())


def render_board_now(board) -> str:
    """The board as it draws the present (its earlier position put aside)."""
    past, board.past = board.past, None
    try:
        return board.render().plain
    finally:
        board.past = past


def test_king_turn_is_one_panel_the_kings_later_steps_join_it(tmp_path):
    store, option = before_a_kings_turn()

    async def go():
        app = create_app(store, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=SMALL) as pilot:
            screen = await open_kings_turn(pilot, option)
            n = len(screen.steps)
            more = [KingStep("king_maneuvers", "The King places a Follower in Ash Nave", 0)]
            screen.add(more, screen.after)  # the King's next decision of the same turn
            await app_settled(pilot.app)
            assert app.screen is screen and len(screen.steps) == n + 1 and screen.shown == 1
            # after a decision of the player's inside the turn, the panel comes back with the whole
            # turn, at the first step not read yet
            again = KingTurnScreen(screen.steps, screen.before, screen.after, read=n)
            assert again.shown == n + 1 and again.steps[:n] == screen.steps[:n]

    run(go())


def test_king_turn_panel_snapshot(snap_compare, tmp_path):
    store, option = before_a_kings_turn()

    async def run_before(pilot):
        await open_kings_turn(pilot, option)
        await pilot.press("a")
        await app_settled(pilot.app)

    assert snap_compare(create_app(store, save_dir=tmp_path, bot_delay=0), terminal_size=SMALL, run_before=run_before)


def test_king_turn_pacing_can_be_turned_off(tmp_path):
    store, option = before_a_kings_turn()

    async def go():
        app = create_app(store, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=SMALL) as pilot:
            await app_settled(pilot.app)
            app.screen.query_one(DecisionPanel).highlight = option
            await pilot.press("enter")
            await app_settled(pilot.app)
            await pilot.press("p")
            await app_settled(pilot.app)
            game = narrow(app.game_screen(), GameScreen)
            assert isinstance(app.screen, GameScreen) and not game._pace_king
            titles = [title for title, _, _ in screen_commands(game)]
            assert "Pace the King's turns step by step" in titles

    run(go())


def test_king_turn_events_are_those_of_the_kings_turn():
    events = [
        E.Reacted(seat=0, reaction="pass"),
        E.KingDissents(seat=1, action="develop"),
        E.TurnBegins(seat=1, turn=2, marked=""),
        E.KingHorrorDie(seat=1, value=3),
        E.TurnBegins(seat=0, turn=3, marked=""),
        E.DayChosen(seat=0, action="ritual", ignore=False),
    ]
    assert [e.kind for e in king_turn_events(events, 1, during=False)] == ["turn_begins", "king_horror_die"]
    assert [e.kind for e in king_turn_events(events[:2], 1, during=True)] == ["react", "king_dissents"]
    assert king_turn_events([E.ConflictWon(seat=0, area="ash-nave", why="units")], 1, during=True) == []


# ---------------------------------------------------------------------------------------------
# Command palette, colours


def test_command_palette_runs_the_screens_actions(tmp_path):
    async def go():
        app = create_app(HOTSEAT, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=BIG) as pilot:
            titles = [title for title, _, _ in screen_commands(app.screen)]
            for wanted in ("Undo", "Redo", "Timeline", "Save", "Load", "Help", "Save & quit"):
                assert wanted in titles
            await pilot.press("ctrl+p")
            await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette), "the command palette")
            palette = app.screen
            assert isinstance(palette, CommandPalette)
            await pilot.press(*"timeline")

            def timeline_first() -> bool:  # the palette's search (a task of its own) found it
                hits = palette.query_one(CommandList)
                first = hits.get_option_at_index(0) if hits.option_count else None
                return palette._list_visible and isinstance(first, Command) and str(first.hit.text) == "Timeline"

            await wait_for(pilot, timeline_first, "Timeline first in the palette")
            await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, TimelineScreen), "the timeline")
            assert isinstance(app.screen, TimelineScreen)

    run(go())


def test_seat_colours_stay_apart_in_256_colours(tmp_path):
    numbers = seat_colours_256()
    assert len(set(numbers.values())) == len(numbers) == 5
    store = Store(HOTSEAT)
    store_moves(store, 2)
    view = player_view(store.state, 0)
    ansi = rendered(render_players(view, facts(view), frozenset(), 120), 120, colours="256")
    for colour in ("red", "blue"):
        assert f"38;5;{numbers[colour]}" in ansi


def test_monochrome_mode(tmp_path, monkeypatch):
    assert mono_wanted(True) and not mono_wanted(False, {"NO_COLOR": "1"})
    assert mono_wanted(None, {"NCTUI_MONO": "1"}) and mono_wanted(None, {"NO_COLOR": ""})
    assert not mono_wanted(None, {"NCTUI_MONO": "0"}) and not mono_wanted(None, {})
    assert any(isinstance(f, Monochrome) for f in line_filters([], True))
    assert line_filters([], False) == []

    async def go():
        monkeypatch.setenv("NCTUI_MONO", "1")
        app = create_app(HOTSEAT, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=SMALL) as pilot:
            await app_settled(pilot.app)
            assert any(isinstance(f, Monochrome) for f in app.get_line_filters())
            # Sides are told apart by letters: the players list names them.
            players = app.game_screen().query_one(PlayersView)
            plain = render_players(present(players.view), present(players.facts), frozenset(), 80).plain
            assert "R Red" in plain and "B Blue" in plain

    run(go())


# ---------------------------------------------------------------------------------------------
# A computer's turn leaves the keys live


def test_keys_are_handled_while_a_computer_player_thinks(tmp_path, monkeypatch):
    from nctui.platform import registry

    NIGHTMARE_CATHEDRAL = registry.game("nightmare-cathedral")

    thinking = threading.Event()
    release = threading.Event()
    real_bot = NIGHTMARE_CATHEDRAL.bot

    class SlowBot:
        def __init__(self, inner) -> None:
            self.inner = inner

        def choose(self, view):
            thinking.set()
            deadline = time.monotonic() + 60  # a bound, should the test fail before it releases the bot
            while not release.is_set() and time.monotonic() < deadline:
                sum(range(2000))  # busy, as a planner is: the GIL is shared, not held
            return self.inner.choose(view)

    monkeypatch.setattr(NIGHTMARE_CATHEDRAL, "bot", lambda config, seat: SlowBot(real_bot(config, seat)))
    config = GameConfig(players=2, seats=("bot", "human"), seed=4)

    async def go():
        app = create_app(config, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=SMALL) as pilot:
            session = present(app.game)
            assert session.deciding_seat() == 0  # the computer decides first in this seed
            panel = app.game_screen().query_one(DecisionPanel)

            def said_thinking() -> bool:
                return panel.prompt is not None and "computer player, thinking" in panel.prompt.title.plain

            await wait_for(pilot, lambda: thinking.is_set() and said_thinking(), "the computer thinking, on the panel")
            assert session.thinking == 0
            assert "computer player, thinking" in present(panel.prompt).title.plain
            await pilot.press("t")  # the timeline opens while the computer thinks
            await wait_for(pilot, lambda: isinstance(app.screen, TimelineScreen), "the timeline")
            assert isinstance(app.screen, TimelineScreen) and session.thinking == 0
            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
            assert isinstance(app.screen, GameScreen) and session.state_id == 0
            release.set()
            await wait_for(pilot, lambda: session.state_id > 0, "the computer's decision")
            assert session.state_id > 0  # the computer decided after all

    try:
        run(go())
    finally:
        release.set()


def test_describe_changes_names_what_a_turn_changed():
    state = Store(SOLO).state
    areas = list(state.areas)
    first = areas[0]
    followers = tuple(n + 2 if seat == 1 else n for seat, n in enumerate(first.followers))
    areas[0] = replace(first, followers=followers, shadows=first.shadows + 1)
    after = replace(state, areas=tuple(areas))
    w = words_for(state.pack)
    n = first.followers[1]
    assert describe_changes(state, after) == [
        f"{w.area(first.id)}: King {n} → {n + 2}, the Shadows {first.shadows} → {first.shadows + 1}"
    ]
    assert describe_changes(state, state) == []


def test_handoff_shows_its_keys_at_once_and_says_to_wait_only_to_a_key_within_the_guard(tmp_path, monkeypatch):
    """The hand-off does not change by itself a moment after it appears (that cost a redraw of
    the whole screen on every hand-off): its keys line is there at once. A key within the guard
    is not taken, and only then does it say to wait, until keys are taken (the guard's clock is
    the test's: ``GuardClock``)."""
    clock = GuardClock(monkeypatch)

    async def go():
        app = create_app(HOTSEAT, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("3")
            await app_settled(pilot.app)
            await pilot.press("2")  # Red decides next: the hand-off, within its guard
            await wait_for(pilot, lambda: isinstance(app.screen, HandoffScreen), "the hand-off to Red")
            screen = app.screen
            assert isinstance(screen, HandoffScreen) and not screen.ready
            text = text_of(screen, "#handoff-text")
            assert "when only Red is looking" in text and "a moment" not in text
            assert app._background_screens == []  # the game under it changing repaints nothing
            await pilot.press("enter")  # too soon
            await wait_for(pilot, lambda: "a moment" in text_of(screen, "#handoff-text"), "the hand-off saying to wait")
            assert app.screen is screen
            clock.pass_guard()  # the hand-off says so on its own timer
            ready = "when only Red is looking"
            await wait_for(pilot, lambda: ready in text_of(screen, "#handoff-text"), "the hand-off taking keys", 60)
            await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "Red's game")

    run(go())


def test_handoff_draws_the_next_view_before_it_closes(tmp_path, monkeypatch):
    """The game under the hand-off takes the next person's view before the hand-off closes:
    drawn after it, the first frame or two of the game showed the person before's hand."""
    seen = []
    dismiss = HandoffScreen.dismiss

    def checked(self, result=None):
        game = self.app.game_screen()
        seen.append(
            (
                result,
                self.seat,
                game.viewer,
                game.query_one(HandView).view.seat,
                game.query_one(DecisionPanel).prompt.title.plain,
            )
        )
        return dismiss(self, result)

    monkeypatch.setattr(HandoffScreen, "dismiss", checked)

    async def go():
        app = create_app(HOTSEAT, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("3")
            await app_settled(pilot.app)
            await pilot.press("2")  # Red decides next
            await wait_for(pilot, lambda: isinstance(app.screen, HandoffScreen), "the hand-off to Red")
            assert isinstance(app.screen, HandoffScreen)
            await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "Red's game")
            assert isinstance(app.screen, GameScreen)
        ((result, seat, viewer, hand_seat, title),) = seen
        assert result == "go" and seat == viewer == hand_seat and "Red" in title

    run(go())


def _count_renders(monkeypatch, panels: tuple[type[Widget], ...]) -> dict[type, int]:
    """How many times each panel class's ``render`` runs (the counts can be reset)."""
    renders = dict.fromkeys(panels, 0)
    for cls in panels:

        def counted(self, _render=cls.render, _cls=cls):
            renders[_cls] += 1
            return _render(self)

        monkeypatch.setattr(cls, "render", counted)
    return renders


def test_handoff_draws_the_next_view_ahead_out_of_sight_and_enter_uses_it(tmp_path, monkeypatch):
    """While the hand-off is up, the game under it draws the next person's view ahead
    (``GameScreen.rehearse``): no panel takes that view (every one still holds the person
    before's), nothing of it is on screen; Enter then draws the panels from the rehearsal, not
    rendering them again, and what they draw is what their new view renders."""
    panels = (BoardView, HandView, PlayersView, DecisionPanel)
    renders = _count_renders(monkeypatch, panels)

    async def go():
        app = create_app(HOTSEAT, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=BIG) as pilot:
            await _to_first_handoff(app, pilot)
            game = app.game_screen()
            await _rehearsed(pilot)  # the rehearsal comes 0.1 s after the hand-off
            assert isinstance(app.screen, HandoffScreen) and game.viewer == 1 and views_of(game) == {1}
            hand = game.query_one(HandView)
            assert hand._rehearsed is not None and present(hand.view).seat == 1
            assert any(getattr(value, "seat", None) == 0 for value in hand._rehearsed[0])  # Red's, kept aside
            red = app.store.state.players[0]
            assert not any(
                words_for(app.store.state.pack).card(c) in text_of(app.screen, "#handoff-text") for c in red.hand
            )
            renders.update(dict.fromkeys(panels, 0))
            await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "Red's game")
            await app_settled(app)
            assert isinstance(app.screen, GameScreen) and views_of(game) == {0}
            assert renders == dict.fromkeys(panels, 0)  # drawn from the rehearsal
            for cls in (BoardView, HandView, PlayersView):
                widget = game.query_one(cls)
                assert narrow(widget._drawn, tuple)[2] == widget.render()
            assert set(hand_cards(hand.view)) == {*red.hand, *red.dreams}

    run(go())


def _count_layouts_and_frames(monkeypatch, frame_note=lambda screen: type(screen).__name__):
    """Lists filled as the app runs: the screens laid out in sight (each layout's root) and a note of
    each frame drawn (by default the screen's class name; ``frame_note`` returns None to skip)."""
    from textual._compositor import Compositor
    from textual.app import App

    layouts: list[str] = []
    frames: list[object] = []
    reflow, display = Compositor.reflow, App._display

    def counted(self, parent, size):
        if parent.is_current:  # not the rules and the help, made out of sight while the game waits
            layouts.append(type(parent).__name__)
        return reflow(self, parent, size)

    def shown(self, screen, renderable):
        if renderable is not None and (note := frame_note(screen)) is not None:
            frames.append(note)
        return display(self, screen, renderable)

    monkeypatch.setattr(Compositor, "reflow", counted)
    monkeypatch.setattr(App, "_display", shown)
    return layouts, frames


@pytest.mark.parametrize("size", [SMALL, BIG], ids=["80x24", "120x40"])
def test_the_game_comes_up_in_one_layout_and_one_frame_with_its_log(tmp_path, monkeypatch, size):
    """A new game's screen is laid out once and drawn once: the log wraps the lines written
    before its width was known in the layout that gives it one (they came a layout and a frame
    later, the first frame's log empty), and the columns, the status line, the tabs and the
    decision panel set their sizes without asking for a layout more."""
    from nctui.ui.widgets.log import GameLog

    def log_lines(screen):  # the frame's screen, and how many lines its log held as it was drawn
        shown = [log for log in screen.query(GameLog) if log.display]
        return type(screen).__name__, len(shown[0].lines) if shown else None

    layouts, frames = _count_layouts_and_frames(monkeypatch, log_lines)
    config = HOTSEAT_11

    async def go():
        async with create_app(config, save_dir=tmp_path, bot_delay=0).run_test(size=size) as pilot:
            app = pilot.app
            await app_settled(app)
            assert layouts == ["GameScreen"] and len(frames) == 1, (layouts, frames)
            if size == BIG:  # the log in sight, with the setup's lines
                assert frames[0][1] and frames[0][1] == len(app.screen.query_one(GameLog).lines)

    run(go())


@pytest.mark.parametrize("size", [SMALL, BIG], ids=["80x24", "120x40"])
@pytest.mark.parametrize("key", ["question_mark", "R", "t", "i"])
def test_each_screen_opened_from_the_game_comes_up_in_one_layout_and_one_frame(tmp_path, monkeypatch, key, size):
    """Each screen opened from the game is laid out once and drawn once, its keys in that
    frame: the footer draws them as it first renders (Textual's came a layout and a frame
    later); the rules' contents and the timeline (option lists) are measured, scrollbar and
    all, by the layout that places them (they set their height as they were drawn: two layouts
    more); the help's box, taller than the screen, has its scrollbar from the layout that finds
    it needed (the box keeps its column) and its text asks for no layout as it is placed
    (Textual laid the help out three times and drew it three times). Here each screen is made
    as its key is pressed (not made ahead while the game waits: the test after)."""
    from nctui.games.nightmare_cathedral.ui.screens.inspector import InspectorScreen
    from nctui.ui.screens import shell as game_screen  # the shell makes the screens ahead
    from nctui.ui.screens.help import HelpScreen
    from nctui.ui.screens.rules import RulesScreen
    from nctui.ui.widgets.footer import KeyFooter

    opened = {"question_mark": HelpScreen, "R": RulesScreen, "t": TimelineScreen, "i": InspectorScreen}[key]

    def note(screen):
        footers = screen.query(KeyFooter)
        keys = footers.first()._shown if footers else None
        return type(screen).__name__, bool(keys and keys[0]) if footers else None

    layouts, frames = _count_layouts_and_frames(monkeypatch, note)
    monkeypatch.setattr(game_screen, "PREPARE_AFTER", 600)

    async def go():
        app = create_app(HOTSEAT_11, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=size) as pilot:
            await app_settled(app)
            layouts.clear()
            frames.clear()
            await pilot.press(key)
            await wait_for(pilot, lambda: isinstance(app.screen, opened), f"the {opened.__name__}")
            await app_settled(app)
            assert isinstance(app.screen, opened)
            name = opened.__name__
            with_keys = True if opened is RulesScreen else None  # the modal ones have no footer
            assert layouts == [name] and frames == [(name, with_keys)], (layouts, frames)
            if opened is HelpScreen:
                box = app.screen.query_one("#help-box")
                assert box.show_vertical_scrollbar and box.max_scroll_y > 0  # taller than the screen
            if opened is RulesScreen:
                contents = app.screen.query_one("#rules-contents", OptionList)
                assert contents.show_vertical_scrollbar  # 40 sections: longer than the list
                assert contents.virtual_size.height == len(contents._lines)

    run(go())


async def _press_each(pilot, keys: str) -> None:
    """Press each key (one character each) in turn, the app idle after each."""
    for key in keys:
        await pilot.press(key)
        await app_settled(pilot.app)


def _screen_cells(app) -> list[list[tuple[str, object]]]:
    """The current screen as drawn: each line's (text, style) runs."""
    return [[(seg.text, seg.style) for seg in strip] for strip in app.screen._compositor.render_strips()]


async def _made_ahead(pilot, names=("rules", "help")) -> None:
    """Wait until the game has made its kept screens out of sight (``screens/kept.py``)."""
    app = pilot.app

    def made() -> bool:
        screens = [app.get_screen(n) for n in names if app.is_screen_installed(n)]
        return len(screens) == len(names) and all(
            s._compositor.size == app.size and not s._layout_required for s in screens
        )

    await wait_for(pilot, made, f"the kept screens ({', '.join(names)}) made ahead")


@pytest.mark.parametrize("kept", ["rules", "help", "timeline"])
def test_a_screen_made_ahead_just_as_the_app_closes_fails_nothing(tmp_path, kept):
    """A kept screen made out of sight in the moment the app begins to close (the app stops
    running before the screen composes, so its containers never compose theirs) mounts with
    nothing to fill. On a loaded machine the game's timer that makes them fired as a test's app
    closed, and the rules and the timeline failed the app, finding none of their widgets."""
    from nctui.ui.screens.help import prepare_help_screen
    from nctui.ui.screens.rules import prepare_rules_screen
    from nctui.ui.screens.timeline import prepare_timeline_screen

    async def go():
        app = create_app(HOTSEAT, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=SMALL) as pilot:
            await app_settled(pilot.app)
            game = app.game_screen()
            make = {
                "rules": lambda: prepare_rules_screen(app, game.entry.rules),
                "help": lambda: prepare_help_screen(app, game.help_text()),
                "timeline": lambda: prepare_timeline_screen(app, game.game, game.viewer),
            }[kept]
            # run_test yields once, then stops the app: this runs in that turn, the screen's first
            # step after the app has stopped running
            asyncio.get_running_loop().call_soon(make)

    run(go())


@pytest.mark.parametrize("size", [SMALL, BIG], ids=["80x24", "120x40"])
@pytest.mark.parametrize("key", ["R", "question_mark"])
def test_the_rules_and_the_help_are_made_while_the_game_waits_and_come_up_in_one_frame(
    tmp_path, monkeypatch, key, size
):
    """While the game waits for a decision, the rules (at the decision's topic) and the help are
    made, laid out and drawn out of sight: their key shows them in one frame with no layout,
    drawn exactly as a screen made at the key press draws (the rules at 120x40 took 92-113 ms
    from the key to the frame; made ahead, 12-34 ms). Closed, they are kept: opened again, the
    same. After the next decision the rules are redrawn ahead at its topic."""
    from nctui.ui.screens import shell as game_screen  # the shell makes the screens ahead

    config = HOTSEAT_11

    async def fresh() -> list:
        monkeypatch.setattr(game_screen, "PREPARE_AFTER", 600)
        app = create_app(config, save_dir=tmp_path / "fresh", bot_delay=0)
        async with app.run_test(size=size) as pilot:
            await app_settled(app)
            for k in ("1", key):  # the second decision: its topic
                await pilot.press(k)
                await app_settled(app)
            await wait_for(pilot, lambda: not isinstance(app.screen, GameScreen), "the screen of the key")
            await app_settled(app)
            return _screen_cells(app)

    async def ahead() -> list:
        monkeypatch.setattr(game_screen, "PREPARE_AFTER", 0.05)
        layouts, frames = _count_layouts_and_frames(monkeypatch)
        app = create_app(config, save_dir=tmp_path / "ahead", bot_delay=0)
        async with app.run_test(size=size) as pilot:
            await app_settled(pilot.app)
            await _made_ahead(pilot)
            await pilot.press("1")  # the next decision: the rules are drawn ahead at its topic
            await app_settled(pilot.app)
            await _made_ahead(pilot)
            shown = []
            for _ in range(2):  # made ahead, then kept
                layouts.clear()
                frames.clear()
                await pilot.press(key)
                await wait_for(pilot, lambda: not isinstance(app.screen, GameScreen), "the screen of the key")
                await app_settled(app)
                opened = type(app.screen).__name__
                assert opened in ("RulesScreen", "HelpScreen")
                assert layouts == [] and frames == [opened], (layouts, frames)
                shown.append(_screen_cells(app))
                await pilot.press("q")
                await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
                assert isinstance(app.screen, GameScreen)
            assert shown[0] == shown[1]
            return shown[0]

    assert run(ahead()) == run(fresh())


@pytest.mark.parametrize("size", [SMALL, BIG], ids=["80x24", "120x40"])
def test_the_kept_rules_open_again_as_a_new_rules_screen(tmp_path, size):
    """Opened again, the kept rules are as a new Rules screen: no search, every section
    listed, the contents focused, the text at its top; and laid out at a new terminal size,
    it is made anew (its breakpoint classes are its size's)."""
    from nctui.ui.screens.rules import RulesScreen, rules_screen

    async def go():
        app = create_app(HOTSEAT_11, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=size) as pilot:
            await app_settled(pilot.app)
            await _press_each(pilot, "R")
            first = app.screen
            assert isinstance(first, RulesScreen)
            sections = first.query_one("#rules-contents", OptionList).option_count
            topic = first.shown
            fresh = _screen_cells(app)
            for k in ("slash", *"fort", "enter", "right", "pagedown"):
                await pilot.press(k)
            await wait_for(pilot, lambda: first.words == ("fort",), "the search for 'fort'")
            await app_settled(app)
            assert first.words == ("fort",) and first.query_one("#rules-contents", OptionList).option_count < sections
            await pilot.press("q")
            await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
            await pilot.press("R")
            await wait_for(pilot, lambda: isinstance(app.screen, RulesScreen), "the rules")
            await app_settled(app)
            again = narrow(screen_of(app), RulesScreen)
            assert again is first and again.words == () and again.shown == topic
            assert first.query_one(Input).value == ""
            assert first.query_one("#rules-contents", OptionList).option_count == sections
            assert first.focused is first.query_one("#rules-contents")
            assert first.query_one("#rules-body").scroll_y == 0
            assert _screen_cells(app) == fresh
            await pilot.press("q")
            await app_settled(pilot.app)
            other = (80, 30) if size == BIG else (120, 40)
            await pilot.resize_terminal(*other)
            await app_settled(pilot.app)
            again = rules_screen(app, app.game_screen().entry.rules, topic)
            assert again is not first
            app.push_screen(again)
            await wait_for(pilot, lambda: app.screen is again and again.size == app.size, "the new rules laid out")
            await app_settled(app)
            assert app.screen is again and again.size == app.size
            assert again.has_class("-wide" if other[0] >= 100 else "-narrow") and not first.is_attached

    run(go())


@pytest.mark.parametrize("size", [SMALL, BIG], ids=["80x24", "120x40"])
def test_the_timeline_and_the_inspector_are_as_tall_as_what_they_show(tmp_path, size):
    """Their scrollbars keep their column (scrollbar-gutter: stable), and Textual then kept a
    row for a horizontal scrollbar too under a box sized to its content: a blank line more."""
    from nctui.games.nightmare_cathedral.ui.screens.inspector import InspectorScreen

    async def go():
        app = create_app(HOTSEAT_11, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=size) as pilot:
            await app_settled(pilot.app)
            await pilot.press("t")
            await app_settled(pilot.app)
            assert isinstance(app.screen, TimelineScreen)
            timeline = app.screen.query_one("#timeline-list", TimelineList)
            assert timeline.option_count == 1 and timeline.region.height == 1
            await pilot.press("escape")
            await app_settled(pilot.app)
            await pilot.press("i")
            await app_settled(pilot.app)
            assert isinstance(app.screen, InspectorScreen)
            box, card = app.screen.query_one("#inspector-box"), app.screen.query_one("#inspector-card")
            assert box.region.height == card.region.height + 2  # the card and the box's border

    run(go())


@pytest.mark.parametrize("size", [(60, 24), BIG], ids=["60x24", "120x40"])
def test_the_timeline_of_a_long_game_comes_up_in_one_frame_at_the_decision_now(tmp_path, monkeypatch, size):
    """The timeline of a long game is scrolled to the decision now by the layout that places it
    (scrolled after the first frame, it was drawn at its top, then again: two frames), one line a
    decision; only the rows in sight are made (issue 39: a long game's every row was made,
    measured and laid out at each opening after a change). A narrow terminal cuts the long rows
    with an ellipsis and says the highlighted one in full under the list."""
    layouts, frames = _count_layouts_and_frames(monkeypatch)

    async def go():
        app = create_app(VS_BOT, save_dir=tmp_path, bot_delay=0)
        app.MAKE_SCREENS_AHEAD = False  # made while waiting, its layout would not be the key's
        async with app.run_test(size=size) as pilot:
            await app_settled(pilot.app)
            await _press_each(pilot, "1" * 30)
            # the computer's turn played and drawn (on a busy machine it thinks for longer)
            session = present(app.game)
            assert await settle(pilot, lambda: session.deciding_seat() == 0 and session.thinking is None, 60)
            await app_settled(app)
            layouts.clear()
            frames.clear()
            await pilot.press("t")
            await app_settled(app)
            assert isinstance(app.screen, TimelineScreen)
            assert layouts == ["TimelineScreen"] and frames == ["TimelineScreen"], (layouts, frames)
            timeline = app.screen.query_one("#timeline-list", TimelineList)
            assert timeline.max_scroll_y > 0 and timeline.scroll_y == timeline.max_scroll_y  # at the decision now
            assert timeline.virtual_size.height == timeline.option_count == app.store.state_id + 1
            assert len(timeline._rows) <= timeline.size.height + 2 < timeline.option_count  # the rows in sight
            width = timeline.scrollable_content_region.width
            cut = [k for k in range(timeline.option_count) if timeline.cut(k)]
            assert bool(cut) == (size[0] < 100)  # some rows are too long at 60 columns
            whole = app.screen.query_one("#timeline-whole", PlacedStatic)
            assert not whole.display or timeline.cut(timeline.highlighted)
            for k in cut[-1:]:
                timeline.highlighted = k
                await app_settled(pilot.app)
                drawn = "".join(seg.text for seg in timeline.render_line(k - round(timeline.scroll_y)))
                assert drawn.rstrip().endswith("…") and len(drawn) == width
                assert whole.display and str(whole.render()) == timeline.row(k).plain

    run(go())


def test_the_rows_of_the_timeline_and_the_rules_contents_are_drawn_as_textual_draws_them(tmp_path):
    """A row of one line that fits (the rules' contents) is drawn from its own segments over the
    option's style: the same cells, styles and offsets as Textual's drawing through its Content,
    plain and highlighted; a row that does not fit is Textual's own. The timeline's rows (its
    own list) are Rich's cells of each row over the list's style (the highlighted row's over the
    highlight's): the seat letters, the decision now in bold and the redo branch dim."""
    from rich.segment import Segment
    from textual.widgets import OptionList as TextualOptionList

    def drawn_as_rich(rows):
        console = rows.app.console
        width = rows.scrollable_content_region.width
        for y in range(rows.size.height):
            k = round(rows.scroll_y) + y
            if k >= rows.option_count:
                break
            lit = k == rows.highlighted
            style = rows.get_component_rich_style("timeline-list--highlight") if lit else rows.rich_style
            line = next(iter(Segment.split_lines(console.render(rows.row(k), console.options.update_width(width)))))
            rich = Segment.apply_style(Segment.adjust_line_length(line, width), style)
            ours = Segment.simplify(seg for seg in rows.render_line(y) if seg.text)
            assert list(ours) == list(Segment.simplify(seg for seg in rich if seg.text)), k

    def drawn(options, option, style):
        return [[(seg.text, seg.style) for seg in strip] for strip in options._get_option_render(option, style)]

    def same_as_textual(options):
        component = "option-list--option"
        for option in options.options:
            for style in (
                options.get_visual_style(component),
                options.get_visual_style(component, "option-list--option-highlighted"),
            ):
                ours = drawn(options, option, style)
                options._option_render_cache.clear()
                theirs = [
                    [(seg.text, seg.style) for seg in strip]
                    for strip in TextualOptionList._get_option_render(options, option, style)
                ]
                assert ours == theirs, option.prompt

    async def go():
        app = create_app(VS_BOT, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=BIG) as pilot:
            await app_settled(pilot.app)
            await _press_each(pilot, "1" * 12 + "u" * 2)
            await pilot.press("t")
            await wait_for(pilot, lambda: isinstance(app.screen, TimelineScreen), "the timeline")
            await app_settled(app)
            timeline = app.screen.query_one("#timeline-list", TimelineList)
            assert any("(redo)" in timeline.row(k).plain for k in range(timeline.option_count))
            drawn_as_rich(timeline)
            await pilot.press("up")  # the highlight elsewhere
            await app_settled(pilot.app)
            drawn_as_rich(timeline)
            await pilot.press("escape", "R", "slash", *"fort")
            await wait_for(pilot, lambda: getattr(app.screen, "words", None) == ("fort",), "the search for 'fort'")
            await app_settled(app)
            contents = app.screen.query_one("#rules-contents", OptionList)
            assert any(str(option.prompt).endswith(")") for option in contents.options)  # with the matches' count
            same_as_textual(contents)

    run(go())


def test_a_scrollbar_placed_in_the_first_layout_shows_a_scroll_made_right_after(tmp_path):
    """The timeline of a long game scrolls to the decision now right after its first frame,
    while its scrollbar (made and drawn in that first layout) is still being mounted: Textual
    marks nothing to draw again then, and the thumb stayed at the top. Once mounted, the bar
    is drawn again if it changed since (_PlacedScrollBar)."""

    def lines(bar):
        return [
            "".join(seg.text for seg in strip) + repr([seg.style for seg in strip])
            for strip in bar.render_lines(bar.size.region)
        ]

    async def go():
        app = create_app(VS_BOT, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=SMALL) as pilot:
            await app_settled(pilot.app)
            await _press_each(pilot, "1" * 25)
            await app_settled(pilot.app)
            await pilot.press("t")
            await wait_for(pilot, lambda: isinstance(app.screen, TimelineScreen), "the timeline")
            await app_settled(app)
            assert isinstance(app.screen, TimelineScreen)
            timeline = app.screen.query_one("#timeline-list", TimelineList)
            assert timeline.max_scroll_y > 0 and timeline.scroll_y == timeline.max_scroll_y  # at the decision now
            bar = timeline.vertical_scrollbar
            shown = lines(bar)
            bar.refresh()  # drawn afresh from its state now
            assert shown == lines(bar)

    run(go())


def test_a_handoff_comes_up_in_one_layout_and_one_frame(tmp_path, monkeypatch):
    """A new screen (ComesUpOnce) is laid out once, as it first resumes, and drawn once: Textual
    laid it out again for the Resize event that layout sent it (of the same size), for the
    layouts its widgets asked for as they mounted, once more when its mounting was awaited, and
    drew it again for the screen and widgets to draw asked for before its first frame. The
    hand-off's news is at its newest line in that frame (Textual's anchor scrolled it a layout
    late, one layout and frame more)."""

    def news_in_view(screen):
        if not isinstance(screen, HandoffScreen):
            return None
        box = screen.query("#handoff-news-box")
        return (box.first().scroll_y, box.first().max_scroll_y) if box else False

    layouts, frames = _count_layouts_and_frames(monkeypatch, news_in_view)

    async def go():
        app = create_app(HOTSEAT_11, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=BIG) as pilot:
            await app_settled(app)
            seen = []
            for _ in range(40):
                layouts.clear()
                frames.clear()
                await pilot.press("1")
                await app_settled(app)
                if isinstance(app.screen, HandoffScreen):
                    await _rehearsed(pilot)
                    assert layouts.count("HandoffScreen") == 1 and len(frames) == 1, (layouts, frames)
                    seen.append(frames[0])
                    if frames[0] and frames[0][1] > 0:  # news longer than its box
                        assert frames[0][0] == frames[0][1]  # the newest line in view
                        return
                    await pilot.press("enter")
                    await app_settled(app)
            raise AssertionError(f"no hand-off with news to scroll: {seen}")

    run(go())


def test_the_game_comes_back_from_under_a_handoff_in_one_frame(tmp_path, monkeypatch):
    """Enter on a hand-off: the game screen, its panels changed under the hand-off, is laid out
    and drawn whole in one frame (Textual drew the layout's changes in a frame, then the whole
    screen in another)."""
    _, frames = _count_layouts_and_frames(monkeypatch)

    async def go():
        app = create_app(HOTSEAT, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=BIG) as pilot:
            await _to_first_handoff(app, pilot)
            await _rehearsed(pilot)
            frames.clear()
            await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "Red's game")
            await app_settled(app)
            assert isinstance(app.screen, GameScreen) and frames == ["GameScreen"], frames

    run(go())


def test_undo_on_a_rehearsed_handoff_draws_the_person_before_again(tmp_path):
    """u on a hand-off whose next view was drawn ahead: the person before's view comes back,
    drawn from it (the rehearsal is not used)."""

    async def go():
        app = create_app(HOTSEAT, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=BIG) as pilot:
            await _to_first_handoff(app, pilot)
            await _rehearsed(pilot)
            game = app.game_screen()
            assert game.query_one(HandView)._rehearsed is not None  # Red's view was drawn ahead
            await pilot.press("u")
            await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "Blue's game, the decision taken back")
            await app_settled(app)
            assert isinstance(app.screen, GameScreen) and game.viewer == 1 and views_of(game) == {1}
            blue = app.store.state.players[1]
            hand = game.query_one(HandView)
            assert set(hand_cards(present(hand.view))) == {*blue.hand, *blue.dreams}
            assert narrow(hand._drawn, tuple)[2] == hand.render()

    run(go())


def test_closing_the_handoff_does_not_lay_the_game_out_again_after_it_came_back(tmp_path, monkeypatch):
    """The game screen is laid out and drawn as it comes back from under the hand-off; Textual's
    removal of the closed screen asked the app to lay it out and draw it whole once more."""
    app = create_app(HOTSEAT, save_dir=tmp_path, bot_delay=0)
    asked = []
    refresh = type(app).refresh

    def recorded(self, *, repaint=True, layout=False, recompose=False):
        asked.append(layout)
        return refresh(self, repaint=repaint, layout=layout, recompose=recompose)

    async def go():
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("3")
            await app_settled(pilot.app)
            await pilot.press("2")  # Red decides next
            await wait_for(pilot, lambda: isinstance(app.screen, HandoffScreen), "the hand-off to Red")
            handoff = app.screen
            assert isinstance(handoff, HandoffScreen)
            monkeypatch.setattr(type(app), "refresh", recorded)
            await pilot.press("enter")
            await wait_for(pilot, lambda: not handoff.is_attached, "the hand-off removed")
            await app_settled(app)
            assert isinstance(app.screen, GameScreen) and not handoff.is_attached  # removed
            assert True not in asked

    run(go())


def test_every_handoff_fits_80x24(tmp_path):
    """The box (the option echoed, the prompt, the news since the person last looked) fits an
    80x24 terminal whole: it was 25 lines with a long news list, the screen scrolled and the
    box's last line was cut."""

    async def go():
        app = create_app(HOTSEAT, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=SMALL) as pilot:
            seen = 0
            for _ in range(60):
                screen = app.screen
                if isinstance(screen, HandoffScreen):
                    box = screen.query_one("#handoff-box").region
                    assert box.y >= 0 and box.bottom <= SMALL[1] and not screen.show_vertical_scrollbar
                    seen += bool(screen.news) and bool(screen.echo)
                    await pilot.press("enter")
                else:
                    await pilot.press("1")
                await app_settled(app)
            assert seen >= 5

    run(go())


def test_handoff_back_gives_a_person_their_log_as_they_left_it_and_what_happened_since(tmp_path):
    """Hot seat: each person's log is kept, written through their eyes; back at the keyboard they
    get it as they left it (not written again: that took ~180 ms a hand-off in a long game) and
    the lines of what happened since."""

    async def go():
        app = create_app(HOTSEAT, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            store = app.store
            game = app.game_screen()
            await pilot.press("3")
            await app_settled(pilot.app)
            await pilot.press("1")  # Blue conquers; Red decides next
            await wait_for(pilot, lambda: isinstance(app.screen, HandoffScreen), "the hand-off to Red")
            blue_lines = list(game.query_one(GameLog).lines)
            assert isinstance(app.screen, HandoffScreen) and game.viewer == 1
            await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "Red's game")
            await app_settled(app)
            assert game.viewer == 0
            for _ in range(20):  # Red decides until the keyboard passes back to Blue
                if isinstance(app.screen, HandoffScreen):
                    break
                await pilot.press("1")
                await app_settled(app)
            assert isinstance(app.screen, HandoffScreen) and app.screen.seat == 1
            red_hand = set(store.state.players[0].hand) - set(store.state.players[1].hand)
            await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "Blue's game")
            await app_settled(app)
            assert game.viewer == 1
            lines = game.query_one(GameLog).lines
            assert len(lines) > len(blue_lines)
            assert all(a is b for a, b in zip(lines, blue_lines))  # kept, not written again
            log = "\n".join(strip.text for strip in lines)
            w = words_for(store.state.pack)
            assert "Red conquers" in log  # what happened since
            assert not any(w.card(c) in log for c in red_hand)

    run(go())


def test_a_panel_whose_key_stays_is_not_rendered_again(tmp_path, monkeypatch):
    """The tracks, the hand and the matrix render again for a new view only when their key
    (``render_key``) changed; what each shows is then what a fresh render of its view draws.
    The views are those of seat 0 along a random game, handed to the panels as the screen does;
    the first is the view the game came up with (drawn by the first layout, not by a refit)."""
    panels: tuple[type[TracksView | HandView | MatrixView], ...] = (TracksView, HandView, MatrixView)
    renders = _count_renders(monkeypatch, panels)
    store = Store(HOTSEAT)
    views = []
    for _ in range(40):
        views.append(player_view(store.state, 0))
        store_moves(store, 1)

    async def go():
        app = create_app(HOTSEAT, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=BIG) as pilot:
            await app_settled(pilot.app)
            game = app.game_screen()
            seen: dict[type, set[bool]] = {cls: set() for cls in panels}
            for view in views:
                keys = {cls: game.query_one(cls).render_key() for cls in panels}
                renders.update(dict.fromkeys(panels, 0))
                for cls in panels:
                    widget = game.query_one(cls)
                    if not isinstance(widget, MatrixView):
                        widget.facts = facts(view)
                    widget.view = view
                await app_settled(pilot.app)
                for cls in panels:
                    widget = game.query_one(cls)
                    changed = widget.render_key() != keys[cls]
                    seen[cls].add(changed)
                    assert bool(renders[cls]) == changed, cls.__name__
                    assert narrow(widget._drawn, tuple)[2] == widget.render()
            assert all(seen[cls] == {True, False} for cls in panels), seen

    run(go())


@pytest.mark.parametrize("size", [SMALL, BIG], ids=["80x24", "120x40"])
def test_the_game_screens_update_timer_has_ticked_before_the_first_key(tmp_path, monkeypatch, size):
    """Textual's update timer of a screen sleeps a whole period (1/60 s) from its first resume
    before its first tick: the game's first key waited for it. The screen ticks it once as it
    comes up, with nothing to draw (no frame more)."""
    from textual.timer import Timer

    ticks: list[str] = []
    tick = Timer._tick

    async def counted(self, **kwargs):
        if self.name == "screen_update":
            ticks.append(type(self._callback.__self__).__name__)
        return await tick(self, **kwargs)

    monkeypatch.setattr(Timer, "_tick", counted)
    layouts, frames = _count_layouts_and_frames(monkeypatch)

    async def go():
        async with _hotseat_up(tmp_path, size) as (_app, pilot):
            await wait_for(pilot, lambda: "GameScreen" in ticks, "the game screen's update timer's tick")
            assert "GameScreen" in ticks
            assert frames == ["GameScreen"] and layouts == ["GameScreen"]

    run(go())


def test_the_collector_is_turned_on_once_the_first_frame_is_drawn(tmp_path, monkeypatch):
    """`nctui play` starts the app with the collector off (``collect_once_drawn``): the first
    frame is drawn with it off, and the app turns it on as that frame is handed to the terminal,
    with what start-up made out of its sight (frozen)."""
    import gc

    from textual._compositor import Compositor

    drawn_while: list[bool] = []
    render_update = Compositor.render_update

    def noted(self, *args, **kwargs):
        drawn_while.append(gc.isenabled())
        return render_update(self, *args, **kwargs)

    monkeypatch.setattr(Compositor, "render_update", noted)

    async def go():
        app = create_app(HOTSEAT, save_dir=tmp_path, bot_delay=0)
        app.collect_once_drawn = True
        gc.disable()
        frozen = gc.get_freeze_count()
        try:
            async with app.run_test(size=BIG) as pilot:
                await app_settled(pilot.app)
                assert drawn_while[0] is False and gc.isenabled() and not app.collect_once_drawn
                assert gc.get_freeze_count() > frozen  # the game and its screen: out of its sight
        finally:
            gc.enable()
            gc.unfreeze()

    run(go())


@contextlib.asynccontextmanager
async def _hotseat_up(tmp_path, size=BIG):
    """A hot-seat game running at ``size``, settled once it came up (``app_settled``): (app, pilot)."""
    app = create_app(HOTSEAT, save_dir=tmp_path, bot_delay=0)
    async with app.run_test(size=size) as pilot:
        await app_settled(app)
        yield app, pilot


async def _typed(app, key: str) -> None:
    """``key`` as a terminal sends it (not through Pilot, which draws the screen itself), and
    what it brought handled and drawn (``app_settled``: a loaded machine only takes longer)."""
    from textual import events

    app.post_message(events.Key(key, "\x1b" if key == "escape" else key if len(key) == 1 else None))
    await app_settled(app)


def test_a_frame_asked_for_right_after_one_is_drawn_a_period_after_it(tmp_path, monkeypatch):
    """A cursor key on the board that takes the cursor below its pane (80x24) draws the board,
    then scrolls the pane to it (after the board's frame). Textual's update timer, having just
    ticked, sleeps to its grid (17-33 ms) before it can draw again: the screen draws that second
    frame itself, a period after the first (``ComesUpOnce._draw_now``). A key that scrolls
    nothing draws one frame, the line telling what is under the cursor in it."""
    from nctui.ui.textual_ext.placed import ComesUpOnce
    from nctui.ui.widgets.tabs import PanelTabs

    _layouts, frames = _count_layouts_and_frames(monkeypatch)
    monkeypatch.setattr(shell, "PREPARE_AFTER", 600)  # no screens made ahead mid-count
    drawn_now: list[str] = []
    draw_now = ComesUpOnce._draw_now

    def noted(self):
        drawn_now.append(type(self).__name__)
        return draw_now(self)

    monkeypatch.setattr(ComesUpOnce, "_draw_now", noted)

    async def go():
        async with _hotseat_up(tmp_path, size=SMALL) as (app, pilot):
            await pilot.press("b")
            await app_settled(app)
            game = app.game_screen()
            tabs, board = game.query_one(PanelTabs), game.query_one(BoardView)
            pane = board.parent
            # the screen's clock stopped: the scroll's ask comes within two periods of the
            # timer's tick however slowly the machine runs the test
            monkeypatch.setattr("nctui.ui.textual_ext.placed.get_time", lambda: 1000.0)
            scrolled = in_sight = 0
            for key in ("up", "up", "up", "down", "down", "down", "down"):
                note, cursor, y = tabs.note, board.cursor, pane.scroll_y
                frames.clear()
                drawn_now.clear()
                game._ticked_at = 0.0  # the timer's last tick long before the key
                await _typed(app, key)
                if board.cursor == cursor:
                    continue  # at the map's edge
                assert tabs.note != note
                if pane.scroll_y == y:
                    in_sight += 1
                    assert frames == ["GameScreen"] and not drawn_now, (key, frames, drawn_now)
                else:
                    scrolled += 1
                    assert frames == ["GameScreen"] * 2 and drawn_now == ["GameScreen"], (key, frames, drawn_now)
            assert scrolled and in_sight

    run(go())


def test_the_boards_cursor_comes_and_goes_with_its_line_in_one_frame(tmp_path, monkeypatch):
    """`b` puts the cursor on the board and the line about the area under it in one frame (the
    line came with a second layout and frame of the whole screen, after the board's message),
    and Escape takes both away in one frame; `b` does not glide the board's pane back to the
    board's top (Textual scrolls a focused widget into sight, ~100 ms of frames)."""
    from nctui.ui.widgets.tabs import PanelTabs

    layouts, frames = _count_layouts_and_frames(monkeypatch)
    monkeypatch.setattr(shell, "PREPARE_AFTER", 600)  # no screens made ahead mid-count

    async def go():
        async with _hotseat_up(tmp_path) as (app, _pilot):
            game = app.game_screen()
            tabs, board = game.query_one(PanelTabs), game.query_one(BoardView)
            for key, cursor in (("b", True), ("escape", False), ("b", True)):
                frames.clear()
                layouts.clear()
                await _typed(app, key)
                assert board.has_focus == cursor and (tabs.note is not None) == cursor
                assert frames == ["GameScreen"] and layouts == ["GameScreen"], (key, frames, layouts)
            for key in ("right", "left"):  # the cursor and the line about the area under it together
                frames.clear()
                layouts.clear()
                note = tabs.note
                await _typed(app, key)
                assert tabs.note != note and frames == ["GameScreen"] and not layouts, (key, frames, layouts)
            pane = board.parent
            await _typed(app, "escape")
            pane.scroll_end(animate=False)  # the board's pane scrolled down (its legend), then left
            await app_settled(app)
            assert pane.scroll_y > 0
            frames.clear()
            await _typed(app, "b")  # not scrolled back to the board's top, gliding (an animation: waited for)
            assert board.has_focus and frames == ["GameScreen"], frames

    run(go())


def test_every_frame_tells_what_is_under_the_boards_cursor(tmp_path, monkeypatch):
    """While the board has the cursor, each frame's line tells what is under it in the position
    that frame shows: a cursor key, and a change of the game under the cursor (an undo that
    takes a conquest off the area under it), move the map and the line together (the board's
    message came a frame late, bubbled up through four containers)."""
    from nctui.games.nightmare_cathedral.engine.actions import Conquer
    from nctui.platform.store import PracticePolicy
    from nctui.ui.widgets.tabs import PanelTabs

    store = Store(replace(HOTSEAT, seats=("human", "bot")), policy=PracticePolicy())
    while not (store.all_actions() and isinstance(store.all_actions()[-1], Conquer)):  # a setup conquest
        store_moves(store, 1)
    conquered = store.all_actions()[-1].area

    def told(screen):
        if not isinstance(screen, GameScreen):
            return None
        board, tabs = screen.query_one(BoardView), screen.query_one(PanelTabs)
        return (board.view, tabs.note == board._note()) if board.has_focus else None

    _layouts, frames = _count_layouts_and_frames(monkeypatch, frame_note=told)

    async def go():
        app = create_app(store, save_dir=tmp_path, bot_delay=30)  # the computer waits
        async with app.run_test(size=BIG):
            await app_settled(app)
            screen = app.game_screen()
            board, tabs = screen.query_one(BoardView), screen.query_one(PanelTabs)
            for key in ("b", "right", "down", "left"):
                await _typed(app, key)
            board.cursor = conquered
            await app_settled(app)
            before = tabs.note
            await _typed(app, "u")  # the conquest taken back, the cursor still on its area
            assert board.has_focus and board.cursor == conquered and tabs.note != before
            assert len({id(view) for view, _ in frames}) >= 2  # the game changed under the cursor
            assert frames and all(same for _, same in frames), frames

    run(go())
