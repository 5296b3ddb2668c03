"""What a new player trips on (issue 39), each at 80x24 and 120x40 with Pilot."""

from __future__ import annotations

import asyncio

import pytest

from nctui.games.nightmare_cathedral.engine import StepResult
from nctui.games.nightmare_cathedral.ui.widgets.hand import HandView
from nctui.platform.store import Store
from nctui.ui.app import create_app
from nctui.ui.widgets.decision import DecisionPanel
from tests.helpers import app_settled, present
from tests.test_king_conflict import area0, shape, start
from tests.test_solo_setup import solo_setup

SIZES = [(80, 24), (120, 40)]


def run(coro):
    return asyncio.run(coro)


def _flat(text: str) -> str:
    """The words of a panel with its wrapping undone."""
    return " ".join(text.split())


def _king_revealed():
    """Solo: you control the area, so the King's cards are revealed before you play yours."""
    state = solo_setup()
    a = area0(state)
    return start(shape(state, a, you=2, king=1, hand=("basic-combat", "basic-combat")), a)


@pytest.mark.parametrize("size", SIZES)
def test_the_card_decision_shows_the_kings_revealed_cards_and_both_sides(tmp_path, size):
    """Issue 39.1: CONFLICTS 2 / solo RESOLVING CONFLICTS AGAINST THE KING: you play after
    seeing the King's cards, so the decision names them, beside both sides' units."""

    async def go():
        app = create_app(Store(initial=StepResult(state=_king_revealed(), events=())), save_dir=tmp_path)
        async with app.run_test(size=size):
            await app_settled(app)
            text = _flat(app.screen.query_one(DecisionPanel).render().plain)
            assert "Red 2 Followers vs King 1 Follower" in text
            assert "King: Grasp of the King (1⚔ 0⛨), revealed" in text
            assert "in this conflict: Grasp of the King 1⚔ 0⛨" in _flat(app.screen.query_one(HandView).render().plain)

    run(go())


def test_conflict_decision_snapshot(snap_compare, tmp_path):
    """Issue 39.1: the card decision of a solo conflict, the King's cards revealed."""
    app = create_app(Store(initial=StepResult(state=_king_revealed(), events=())), save_dir=tmp_path)
    assert snap_compare(app, terminal_size=(80, 24))


@pytest.mark.parametrize("size", SIZES)
def test_the_rules_screen_settles_after_a_burst_of_downs(tmp_path, size):
    """Issue 39.2: five Downs in one burst (a held arrow key) end on the fifth section below,
    shown, and the screen then stays still (it used to flip between two sections forever)."""
    from nctui.ui.screens.rules import ContentsList, RulesScreen

    async def go():
        app = create_app(Store(initial=StepResult(state=_king_revealed(), events=())), save_dir=tmp_path)
        async with app.run_test(size=size) as pilot:
            await app_settled(app)
            await pilot.press("R")
            await app_settled(app)
            screen = app.screen
            assert isinstance(screen, RulesScreen)
            contents = screen.query_one(ContentsList)
            start = contents.highlighted or 0
            for _ in range(5):
                contents.action_cursor_down()  # one burst: no message handled in between
            await app_settled(app)
            assert contents.highlighted == start + 5
            assert screen.shown == contents.get_option_at_index(start + 5).id

    run(go())


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("keys", [("end",), ("pagedown",) * 6, ("down",) * 80, ("j",) * 80])
def test_the_help_scrolls_to_its_end(tmp_path, size, keys):
    """Issue 39.3: the help is taller than 80x24; Down, PgDn, End and j reach its last line."""
    from nctui.ui.screens.help import HelpScreen
    from nctui.ui.textual_ext.placed import ReadingPane

    async def go():
        app = create_app(Store(initial=StepResult(state=_king_revealed(), events=())), save_dir=tmp_path)
        async with app.run_test(size=size) as pilot:
            await app_settled(app)
            await pilot.press("question_mark")
            await app_settled(app)
            assert isinstance(app.screen, HelpScreen)
            box = app.screen.query_one(ReadingPane)
            await pilot.press(*keys)
            await app_settled(app)
            assert box.scroll_y == box.max_scroll_y and (size[1] > 24 or box.max_scroll_y > 0)
            assert "Press ? or q (or Escape) to close." in str(app.screen.query_one("#help-text").render())

    run(go())


@pytest.mark.parametrize(("time", "words"), [(0, "Time I of IV"), (1, "Time II of IV"), (4, "the skull")])
def test_a_saves_progress_says_the_time_the_header_shows(time, words):
    """Issue 39.8: Continue and Load said 'Time 1 of 4' for a game whose header said Time II."""
    from msgspec.structs import replace

    from nctui.games.nightmare_cathedral.game import NightmareCathedral

    state = replace(_king_revealed(), time=time)
    assert NightmareCathedral().summary(state).progress.startswith(words)


def _victory_devouring_in_stage1():
    """A Victory whose only step devours, won in Stage 1 (the Victory decision due)."""
    from msgspec.structs import replace

    from nctui.games.nightmare_cathedral.engine import actions as A
    from nctui.games.nightmare_cathedral.engine.flow import apply, legal_actions
    from tests.test_conflict import BLUE, SH, STRIKE, blue_vs_two_shadows, conflict_on_top, play, resolve_conflicts

    state = conflict_on_top(blue_vs_two_shadows(), "c2-gnawing-hunger")
    state = play(
        resolve_conflicts(state, seat=BLUE),
        A.StartConflict(area="choir-of-teeth", sides=(BLUE, SH)),
        A.PlayCombatCard(card=STRIKE),
        A.Done(),
    )
    while state.decision.kind == "retreat":  # the Shadows left retreat first (CONFLICTS 9)
        state = apply(state, legal_actions(state)[0])
    assert state.decision.kind == "take_victory" and state.stage == 1
    return replace(state, config=replace(state.config, seats=("human", "human")))


@pytest.mark.parametrize("size", SIZES)
def test_a_victory_that_does_nothing_before_stage_2_says_so(tmp_path, size):
    """Issue 39.9: STAGE 2: devouring has no effect before it; the Victory option says so, as
    other options that would do nothing now do, so the free Development card is not lost unseen."""

    async def go():
        app = create_app(Store(initial=StepResult(state=_victory_devouring_in_stage1(), events=())), save_dir=tmp_path)
        async with app.run_test(size=size):
            await app_settled(app)
            text = _flat(app.screen.query_one(DecisionPanel).render().plain)
            assert "does nothing now, Nightmares and devouring wait for Stage 2" in text

    run(go())


def _drawing_a_dream():
    """A 2-player game of people at the decision to draw a Dream (from the offer or the deck)."""
    from msgspec.structs import replace

    from tests.helpers import random_game

    state = next(s for s, _ in random_game(2, seed=3) if s.decision is not None and s.decision.kind == "draw_dream")
    return replace(state, config=replace(state.config, seats=("human", "human")))


@pytest.mark.parametrize("size", SIZES)
def test_i_inspects_the_card_of_the_highlighted_option_and_the_offer_says_its_conditions(tmp_path, size):
    """Issue 39.6: `i` on an option about a card opens the inspector at that card; the Dreams
    offered say their VP and conditions (PLAYING DREAM CARDS), to choose one by."""
    from nctui.games.nightmare_cathedral.describe.names import words_for
    from nctui.games.nightmare_cathedral.engine.actions import TakeDream
    from nctui.games.nightmare_cathedral.ui.screens.inspector import InspectorScreen

    state = _drawing_a_dream()
    offer = [i for i, a in enumerate(state.decision.options) if isinstance(a, TakeDream) and a.card]
    last = offer[-1]
    card = state.decision.options[last].card
    dream = next(d for d in words_for(state.pack).pack.cards.dreams if d.id == card)

    async def go():

        app = create_app(Store(initial=StepResult(state=state, events=())), save_dir=tmp_path)
        async with app.run_test(size=size) as pilot:
            await app_settled(app)
            panel = app.screen.query_one(DecisionPanel)
            assert f"{dream.vp} VP: {dream.text[:20]}" in _flat(panel.render().plain)
            await pilot.press(*["down"] * last, "i")
            await app_settled(app)
            assert isinstance(app.screen, InspectorScreen)
            assert dream.name in _flat(str(app.screen.query_one("#inspector-card").render()))

    run(go())


@pytest.mark.parametrize("size", SIZES)
def test_the_new_game_screen_explains_the_setting_in_focus(tmp_path, size):
    """Issue 39.17: each setting gets a line of help, for the value it shows."""
    from nctui.games.nightmare_cathedral.ui.screens.new_game import Choice, NewGameScreen

    async def go():
        app = create_app(None, save_dir=tmp_path)
        async with app.run_test(size=size) as pilot:
            await app_settled(app)
            await pilot.press("n")
            await app_settled(app)
            screen = app.screen
            assert isinstance(screen, NewGameScreen)

            def help_line() -> str:
                return _flat(str(screen.query_one("#setting-help").render()))

            assert "take turns at this keyboard" in help_line()
            seen = {}
            for _ in range(12):
                await pilot.press("down")
                await app_settled(app)
                if isinstance(app.focused, Choice):
                    seen[app.focused.id] = help_line()
                    if app.focused.id == "length":
                        await pilot.press("right")
                        await app_settled(app)
                        assert "Dream with the Cathedral icon" in help_line()
            assert "known length" in seen["length"] and "Reward tiles" in seen["divergent"]
            assert "Stage 2" in seen["nightmares"] and "never past a hidden card" in seen["undo"]

    run(go())


def _moving():
    """A 2-player game of people at a move whose option, once taken, is offered again (another
    Follower may take the same way), with the line of that option among the first nine."""
    from msgspec.structs import replace

    from nctui.games.nightmare_cathedral.engine.flow import apply, legal_actions
    from tests.helpers import random_game

    for seed in range(1, 40):
        for state, _ in random_game(2, seed=seed):
            d = state.decision
            if d is None or d.kind != "move":
                continue
            for k, option in enumerate(d.options[:9]):
                after = apply(state, option)
                again = after.decision
                if (
                    again is not None
                    and again.kind == "move"
                    and again.seat == d.seat
                    and option in legal_actions(after)
                ):
                    if legal_actions(after).index(option) != k:  # the engine's order moved it
                        return replace(state, config=replace(state.config, seats=("human", "human"))), k
    raise AssertionError("no repeated move found")


@pytest.mark.parametrize("size", SIZES)
def test_a_repeated_choice_keeps_its_number_while_it_is_offered(tmp_path, size):
    """Issue 39.5: the same move chosen again with the same digit means the same move, though
    the engine's list of options changed order; a list that shrank says so."""
    from nctui.ui.widgets.decision import GONE

    state, k = _moving()
    option = state.decision.options[k]

    async def go():
        app = create_app(Store(initial=StepResult(state=state, events=())), save_dir=tmp_path)
        async with app.run_test(size=size) as pilot:
            await app_settled(app)
            panel = app.screen.query_one(DecisionPanel)
            assert panel.prompt is not None and panel.page_size() > k
            label = panel.prompt.options[k]
            await pilot.press(str(k + 1))
            await app_settled(app)
            assert app.store.entry(app.store.state_id).action == option
            prompt = panel.prompt
            assert prompt is not None and prompt.options[k] == label and prompt.option_at(k) >= 0
            if GONE in prompt.options:
                assert "no longer offered: the other options keep their numbers" in _flat(panel.render().plain)
            at = app.store.state_id
            await pilot.press(str(k + 1))
            await app_settled(app)
            assert app.store.state_id == at + 1 and app.store.entry(at + 1).action == option

    run(go())


@pytest.mark.parametrize("size", [(40, 12), (80, 24)])
def test_the_hand_off_shows_its_whole_instruction(tmp_path, size):
    """Issue 39.18: at 40x12 the hand-off box cut its one instruction; it now drops the news and
    the blank lines there, so whom to pass to and which keys to press are all on screen."""
    from nctui.games.nightmare_cathedral.engine import GameConfig
    from nctui.ui.screens.handoff import HandoffScreen

    async def go():
        app = create_app(GameConfig(players=2, seats=("human", "human"), seed=42), save_dir=tmp_path)
        async with app.run_test(size=size) as pilot:
            await app_settled(app)
            while not isinstance(app.screen, HandoffScreen):
                await pilot.press("1")
                await app_settled(app)
            drawn = _flat(" ".join("".join(s.text for s in strip) for strip in app.screen._compositor.render_strips()))
            for words in ("Pass the keyboard to", "Press Enter or Space when only", "save and quit", "┏", "┗"):
                assert words in drawn, words

    run(go())


def test_the_hint_says_what_the_move_gains_in_the_games_terms():
    """Issue 39.19: 'nothing that it counts changes within its look ahead' said nothing useful."""
    from nctui.games.nightmare_cathedral.bots.planner_bot import Advice
    from nctui.games.nightmare_cathedral.describe.advice import reason
    from nctui.games.nightmare_cathedral.engine.actions import Done

    some = Advice(action=Done(), value=1.0, chosen=True, changes=(("vp", 1), ("followers", 2), ("cards", -1)))
    assert reason(some) == "you gain 1 VP and 2 Followers on the board, you lose 1 card in hand"
    rivals = Advice(action=Done(), value=1.0, chosen=True, changes=(("rivals", -2),))
    assert reason(rivals) == "the others lose 2 units on the board"
    waiting = reason(Advice(action=Done(), value=1.0, chosen=True, changes=()))
    assert "none of your VP, Followers on the board" in waiting and "waiting move" in waiting


@pytest.mark.parametrize("size", SIZES)
def test_x_in_the_kings_turn_panel_saves_no_scenario(tmp_path, size):
    """Issue 39.11: the King's-turn panel closed with x, the game's own x ("Save this position
    as a scenario"): one x too many took the next digits into the save dialog. The panel closes
    with Escape; x there does nothing."""
    from nctui.games.nightmare_cathedral.engine import GameConfig
    from nctui.games.nightmare_cathedral.ui.screens.king_turn import KingTurnScreen

    async def go():
        app = create_app(GameConfig(players=1, seats=("human", "king"), seed=3), save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=size) as pilot:
            await app_settled(app)
            for _ in range(30):
                if isinstance(app.screen, KingTurnScreen):
                    break
                await pilot.press("1")
                await app_settled(app)
            assert isinstance(app.screen, KingTurnScreen)
            await pilot.press("x")
            await app_settled(app)
            assert isinstance(app.screen, KingTurnScreen)
            assert "Esc: close" in str(app.screen.query_one("#king-hint").render())
            await pilot.press("escape")
            await app_settled(app)
            assert not isinstance(app.screen, KingTurnScreen)

    run(go())


async def _strike_and_read(pilot, due: str) -> str:
    """The first conflict started, Bell of the Waking Hour played alone: the decision ``due``
    comes with the conflict panel over it; its text, everything shown."""
    from nctui.games.nightmare_cathedral.ui.screens.conflict import ConflictScreen
    from tests.test_ui_play import choose

    app = pilot.app
    await pilot.press("1")
    await app_settled(app)
    await choose(pilot, "Bell of the Waking Hour")
    await app_settled(app)
    if app.store.state.decision.kind == "play_combat_card":
        await choose(pilot, "Done (stop here)")
        await app_settled(app)
    assert app.store.state.decision.kind == due
    assert isinstance(app.screen, ConflictScreen), app.screen
    await pilot.press("a")
    await pilot.pause()
    return _flat(app.screen.text().plain)


def _blue_plays_against_two_shadows():
    """A 2-player game of people: Blue's conflict against 2 Shadows, to start."""
    from msgspec.structs import replace

    from nctui.games.nightmare_cathedral.engine import actions as A
    from tests.test_conflict import BLUE, SH, blue_vs_two_shadows, resolve_conflicts

    state = resolve_conflicts(blue_vs_two_shadows(), seat=BLUE)
    assert state.decision.options[0] == A.StartConflict(area="choir-of-teeth", sides=(BLUE, SH))
    return replace(state, config=replace(state.config, seats=("human", "human")))


@pytest.mark.parametrize("size", SIZES)
def test_the_conflict_is_read_before_the_victory_is_decided(tmp_path, size):
    """Issue 39.13: once the cards are revealed and the damage dealt, the conflict panel opens
    before the Victory (or a retreat, or the tie) is decided, not after; once the conflict is
    over it does not come back for what the same person decided."""
    from nctui.games.nightmare_cathedral.ui.screens.conflict import ConflictScreen

    state = _blue_plays_against_two_shadows()

    async def go():
        from tests.test_ui_play import choose

        app = create_app(Store(initial=StepResult(state=state, events=())), save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=size) as pilot:
            await app_settled(app)
            text = await _strike_and_read(pilot, "take_victory")  # Blue against the Shadows in Choir of Teeth
            assert "Blue reveals" in text and "take" in text and "Blue wins" in text
            assert "(still being resolved)" in text and "Victory:" not in text
            await pilot.press("space")
            await app_settled(app)
            assert not isinstance(app.screen, ConflictScreen)
            await choose(pilot, "Resolve the Victory effect")
            await app_settled(app)
            while app.store.state.decision is not None and app.store.state.decision.kind == "produce":
                await pilot.press("1")
                await app_settled(app)
            assert not isinstance(app.screen, ConflictScreen)  # over: nothing new by another side

    run(go())


@pytest.mark.parametrize("size", SIZES)
def test_the_tie_break_is_decided_after_reading_the_cards_and_damage(tmp_path, size):
    """Issue 39.13: CONFLICTS 8: the tie is broken with the cards and the damage in view."""
    from msgspec.structs import replace

    from tests.test_conflict import FOG, GREEN, STRIKE, conflict_on_top, give, position, resolve_conflicts, turn_state

    state = position(turn_state(), {"salt-spire": {"f": (1, 0), "s": 1}})
    state = resolve_conflicts(conflict_on_top(give(state, GREEN, STRIKE), FOG))
    state = replace(state, config=replace(state.config, seats=("human", "human")))

    async def go():

        app = create_app(Store(initial=StepResult(state=state, events=())), save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=size) as pilot:
            await app_settled(app)
            text = await _strike_and_read(pilot, "break_tie")  # the conflict in Salt Spire
            assert "reveals Bell of the Waking Hour" in text and "damage" in text and "eliminated" in text

    run(go())


def test_the_kings_turn_panel_does_not_come_back_over_your_own_reaction(tmp_path):
    """Issue 39.11: read once in a King's turn, the panel waits for the end of that turn while
    you decide in it (a reaction of several steps, a Cathedral icon): it came back after each of
    your choices. Solo games by the keys (1 each time), for 12 of the King's turns."""
    from nctui.games.nightmare_cathedral.engine import GameConfig
    from nctui.games.nightmare_cathedral.ui.screens.king_turn import KingTurnScreen

    async def go():
        app = create_app(GameConfig(players=1, seats=("human", "king"), seed=3), save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await app_settled(app)
            opened_inside: list[int] = []
            decided_inside = 0
            for _ in range(400):
                state = app.store.state
                if state.outcome is not None or state.turn_number > 24:
                    break
                inside = state.phase != "setup" and state.active == state.king.seat
                if isinstance(app.screen, KingTurnScreen):
                    if inside:
                        opened_inside.append(state.turn_number)
                    await pilot.press("escape")
                else:
                    decided_inside += inside
                    await pilot.press("1")
                await app_settled(app)
            assert decided_inside > 5  # reactions and icons inside the King's turns were decided
            assert len(opened_inside) == len(set(opened_inside)), opened_inside  # once per King's turn

    run(go())


@pytest.mark.parametrize("size", SIZES)
def test_the_day_choice_says_where_the_king_conforms_with_its_dreams_and_powers(tmp_path, size):
    """Issue 39.11: THE KING CONFORMS when your Dreamer takes one of the 2 Day spaces after the
    King's: those options say so, the Matrix marks them (k+), and the decision's context names
    the King's Dreams with their Cultists and each action's Power, with no Tab nor PgDn."""
    from nctui.games.nightmare_cathedral.describe import words_for
    from nctui.games.nightmare_cathedral.engine.king_turn import ahead
    from nctui.games.nightmare_cathedral.ui.widgets.matrix import MatrixView, render_matrix

    state = solo_setup()
    assert state.decision.kind == "choose_day"
    w = words_for(state.pack)
    conforming = {w.day_short(a) for a in ahead(state)}

    async def go():
        app = create_app(Store(initial=StepResult(state=state, events=())), save_dir=tmp_path)
        async with app.run_test(size=size):
            await app_settled(app)
            panel = app.screen.query_one(DecisionPanel)
            assert panel.prompt is not None
            for option in panel.prompt.options:
                day = option.split(":")[0]
                assert ("the King conforms" in option) == (day in conforming), option
            text = _flat(panel.render().plain)
            assert "King: Dreams" in text and "Cultists · Power Rit 0" in text
            for card in state.king.dreams:
                assert w.card(card) in text
            view = app.screen.query_one(MatrixView).view
            assert view is not None
            assert render_matrix(view, 80).plain.count("k+") == 2

    run(go())


def test_the_timeline_opened_again_makes_only_the_rows_that_changed(tmp_path):
    """Issue 39, long games: opening the timeline after a decision made every row again (a long
    game's list: ~0.06 ms a row, at every opening); the rows that read the same are kept, the
    one the game stood at and the new one are made, and the list says where the game stands."""
    from nctui.ui.screens.timeline import TimelineList, TimelineScreen

    state = _drawing_a_dream()

    async def go():
        app = create_app(Store(initial=StepResult(state=state, events=())), save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await app_settled(app)
            for _ in range(3):  # a few decisions, so that the list has rows to keep
                await pilot.press("1")
                await app_settled(app)
                if not isinstance(app.screen, type(app.game_screen())):
                    await pilot.press("enter")
                    await app_settled(app)

            async def rows() -> list:
                await pilot.press("t")
                await app_settled(app)
                assert isinstance(app.screen, TimelineScreen)
                options = app.screen.query_one(TimelineList)
                prompts = [options.row(k) for k in range(options.option_count)]
                await pilot.press("escape")
                await app_settled(app)
                return prompts

            before = await rows()
            await pilot.press("1")
            await app_settled(app)
            if not isinstance(app.screen, type(app.game_screen())):
                await pilot.press("enter")
                await app_settled(app)
            after = await rows()
            assert len(after) == len(before) + 1
            assert all(a is b for a, b in zip(after[:-2], before[:-1], strict=False))  # kept, not made again
            assert after[-1].plain.startswith("▶") and not after[-2].plain.startswith("▶")

    run(go())


@pytest.mark.parametrize("size", SIZES)
def test_a_continued_long_games_log_says_the_last_decisions_and_the_earlier_ones_when_scrolled_up(tmp_path, size):
    """Issue 39, long games: the log of a continued game (and of a person's first look at it
    after a hand-off) describes the last decisions only, not the whole history at each first
    look; PgUp on the log brings the earlier ones, until it says every event from the setup on,
    as the whole history described through that person's eyes."""
    from nctui.games.nightmare_cathedral.describe import describe_events
    from nctui.games.nightmare_cathedral.engine import GameConfig
    from nctui.ui.screens.handoff import HandoffScreen
    from nctui.ui.screens.shell import LOG_RECENT
    from nctui.ui.widgets.log import GameLog
    from tests.helpers import store_moves

    store = Store(GameConfig(players=2, seats=("human", "human"), seed=5))
    store_moves(store, 6 * LOG_RECENT, seed=5)
    assert store.state_id == 6 * LOG_RECENT

    async def go():
        app = create_app(store, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=size) as pilot:
            await app_settled(app)
            assert isinstance(app.screen, HandoffScreen)
            await pilot.press("enter")
            await app_settled(app)
            screen = app.game_screen()
            await pilot.press("l")  # the log selected (80x24: in place of the board), PgUp scrolls it
            await app_settled(app)
            log = screen.query_one(GameLog)
            viewer = screen.viewer
            view = store.game.view(store.state, viewer)
            whole = [str(line) for line in describe_events(store.events_since(-1, viewer), view.state)]
            recent_events = store.events_since(store.state_id - LOG_RECENT, viewer)
            recent = [str(line) for line in describe_events(recent_events, view.state)]
            assert [str(line) for line in log._written] == recent
            for _ in range(400):
                if log.older is None and not log._unwrapped and log.scroll_y == 0:
                    break
                await pilot.press("pageup")
                await app_settled(app)
            assert [str(line) for line in log._written] == whole
            assert log.lines[0].text.strip() == whole[0][: log.lines[0].cell_length].strip()

    run(go())


def test_f_shows_the_last_three_conflicts_of_a_long_game_looking_back_only_as_far_as_they_are(tmp_path):
    """Issue 39, long games: f read the events of the last 400 decisions at every press (a long
    game's key cost what 400 decisions' conflicts did); it looks back only as far as the last
    conflicts are, and shows the same three conflicts, as the viewer saw them."""
    from nctui.games.nightmare_cathedral.describe.conflicts import conflict_reports
    from nctui.games.nightmare_cathedral.engine import GameConfig
    from nctui.games.nightmare_cathedral.ui.screens.conflict import ConflictScreen
    from tests.helpers import store_moves

    store = Store(GameConfig(players=2, seats=("human", "human"), seed=5))
    store_moves(store, 300, seed=5)
    assert store.state.outcome is None and store.state_id == 300
    asked: list[int] = []

    async def go():
        app = create_app(store, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await app_settled(app)
            await pilot.press("enter")  # the hand-off of a continued game
            await app_settled(app)
            viewer = app.game_screen().viewer
            session = present(app.game)
            events = session.events

            def noted(since: int, seat: int):
                asked.append(since)
                return events(since, seat)

            session.events = noted  # type: ignore[method-assign]
            await pilot.press("f")
            await app_settled(app)
            screen = app.screen
            assert isinstance(screen, ConflictScreen)
            state = store.game.view(store.state, viewer).state
            expected = conflict_reports(store.events_since(store.state_id - 400, viewer), state)[-3:]
            assert len(expected) == 3
            assert [r._replace(begins=0) for r in screen.reports] == [r._replace(begins=0) for r in expected]
            # looked back 25 decisions first, and further only while fewer than 4 conflicts were found
            assert asked[0] == store.state_id - 25
            assert all(len(conflict_reports(store.events_since(since, viewer), state)) <= 3 for since in asked[:-1])

    run(go())
