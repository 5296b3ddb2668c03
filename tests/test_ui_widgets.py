"""The game screen's panels, driven by Pilot at 80x24 and 120x40: Tab cycles the panels on small
terminals, every panel is on screen on big ones, the matrix and the board show and pick the
decision's options, the hand shows only the viewer's cards, the card inspector browses cards."""

from __future__ import annotations

import asyncio
import sys
from typing import ClassVar, cast

import pytest
from textual.events import Key
from textual.strip import Strip
from textual.visual import RenderOptions, RulesMap
from textual.widget import Widget

from nctui.games.nightmare_cathedral.bots import RandomBot
from nctui.games.nightmare_cathedral.engine import GameConfig, player_view
from nctui.games.nightmare_cathedral.engine.actions import ChooseDay, Conquer, PlaceDreamer
from nctui.games.nightmare_cathedral.engine.events import plural
from nctui.games.nightmare_cathedral.ui.screens.game import COLUMN_B, GameScreen
from nctui.games.nightmare_cathedral.ui.screens.inspector import InspectorScreen
from nctui.games.nightmare_cathedral.ui.widgets.board import BoardView, cell_lines_for, centres, legal_areas
from nctui.games.nightmare_cathedral.ui.widgets.hand import HandView
from nctui.games.nightmare_cathedral.ui.widgets.matrix import MatrixView, legal_spaces, render_matrix
from nctui.games.nightmare_cathedral.ui.widgets.players import PlayersView
from nctui.games.nightmare_cathedral.ui.widgets.status import StatusLine
from nctui.games.nightmare_cathedral.ui.widgets.tracks import TracksView
from nctui.platform.store import Store
from nctui.ui.app import create_app
from nctui.ui.textual_ext.placed import DrawnByLine
from nctui.ui.widgets.common import nearest
from nctui.ui.widgets.decision import DecisionPanel
from nctui.ui.widgets.footer import KeyFooter
from nctui.ui.widgets.log import GameLog
from nctui.ui.widgets.tabs import PANELS, PanelTabs
from tests.helpers import app_settled, focused, narrow, present, screen_of, wait_for

SMALL, BIG = (80, 24), (120, 40)
HOTSEAT = GameConfig(players=2, seats=("human", "human"), seed=42)
SOLO = GameConfig(players=1, seats=("human", "king"), seed=7)


def rules(widget: Widget) -> RulesMap:
    """The widget's styles as the style rules a Visual reads: Textual passes them so (``Widget._render``)
    where it types a ``RulesMap``."""
    return cast(RulesMap, widget.styles)


PANEL_WIDGETS: dict[str, type[Widget]] = {
    "board": BoardView,
    "matrix": MatrixView,
    "hand": HandView,
    "tracks": TracksView,
    "players": PlayersView,
    "log": GameLog,
}


def run(coro):
    return asyncio.run(coro)


def _on_screen(app, widget) -> bool:
    """Shown: the widget (or the scrolling pane holding it) lies within the screen."""
    if widget.region.height == 0:
        return False
    pane = widget.parent if "pane" in widget.parent.classes else widget
    region = pane.region
    return region.width > 0 and region.height > 0 and app.screen.region.contains_region(region)


def _played(config: GameConfig, moves: int, seed: int = 3) -> Store:
    """A store after ``moves`` decisions taken by random bots (each from its own view)."""
    store = Store(config)
    bot = RandomBot(seed)
    for _ in range(moves):
        d = store.state.decision
        if d is None:
            break
        store.dispatch(bot.choose(player_view(store.state, d.seat)), seen_state_id=store.state_id, seat=d.seat)
    return store


async def _past_handoff(app, pilot) -> None:
    """Hot seat: press the hand-off screen's key when it is up."""
    await app_settled(app)
    if type(app.screen).__name__ == "HandoffScreen":
        await pilot.press("enter")
        await wait_for(pilot, lambda: type(app.screen).__name__ != "HandoffScreen", "the hand-off closed")
        await app_settled(app)


def _until(store: Store, kind: str, limit: int = 400) -> Store:
    """Random decisions until the decision due is of ``kind``."""
    bot = RandomBot(5)
    for _ in range(limit):
        d = store.state.decision
        if d is None or d.kind == kind:
            break
        store.dispatch(bot.choose(player_view(store.state, d.seat)), seen_state_id=store.state_id, seat=d.seat)
    assert store.state.decision is not None and store.state.decision.kind == kind
    return store


def test_tab_cycles_the_panels_at_80x24_and_the_decision_keeps_its_keys(tmp_path):
    async def go():
        app = create_app(SOLO, save_dir=tmp_path)
        async with app.run_test(size=SMALL) as pilot:
            await pilot.pause()
            panel = app.screen.query_one(DecisionPanel)
            tabs = app.screen.query_one(PanelTabs)
            assert _on_screen(app, tabs) and "Board" in tabs.render().plain
            for k, (name, title) in enumerate(PANELS):
                if k:
                    await pilot.press("tab")
                    await pilot.pause()
                shown = app.screen.query_one(PANEL_WIDGETS[name])
                assert _on_screen(app, shown), name
                others = [w for n, w in PANEL_WIDGETS.items() if n != name]
                assert not any(_on_screen(app, app.screen.query_one(w)) for w in others), name
                assert _on_screen(app, panel) and app.focused is panel
                assert tabs.shown == name and title in tabs.render().plain
            await pilot.press("tab")  # round to the board again
            await pilot.press("shift+tab")  # and back to the log
            await pilot.pause()
            assert tabs.shown == "log"
            await pilot.press("down")  # the arrows still move the options' highlight
            assert panel.highlight == 1
            state_id = app.store.state_id
            await pilot.press("1")  # and a digit still picks
            await pilot.pause()
            assert app.store.state_id == state_id + 1

    run(go())


def test_tab_styles_again_only_the_panes_and_columns_it_changes(monkeypatch, tmp_path):
    """A panel switch restyles the two panes whose "-shown" class changed (and the two columns
    when the panel moves to the other column), never the widgets inside them nor the rest of the
    screen: a class changed as usual styled each changed node's whole subtree, the screen's every
    widget when its "-shown-in-b" changed (36 % of a Tab's time)."""
    from textual.css.stylesheet import Stylesheet

    styled: list[str] = []
    original = Stylesheet.apply

    def apply(self, node, *args, **kwargs):
        styled.append(node.id or type(node).__name__)
        return original(self, node, *args, **kwargs)

    async def go():
        app = create_app(SOLO, save_dir=tmp_path)
        app.MAKE_SCREENS_AHEAD = False  # the rules, help and timeline made while waiting: not a Tab's
        async with app.run_test(size=SMALL) as pilot:
            await pilot.pause()
            monkeypatch.setattr(Stylesheet, "apply", apply)
            names = [name for name, _ in PANELS]
            for k in range(1, len(names) + 1):
                before, now = names[k - 1], names[k % len(names)]
                styled.clear()
                await pilot.press("tab")
                await pilot.pause()
                assert app.screen.query_one(PanelTabs).shown == now
                ids = [i for i in styled if i != "ScrollBar" and not i.endswith("ScrollBar")]
                panes = {f"{n}-pane" if n != "log" else "log" for n in (before, now)}
                columns = {"col-a", "col-b"} if (before in COLUMN_B) != (now in COLUMN_B) else set()
                assert set(ids) == panes | columns and len(ids) == len(set(ids)), (before, now, styled)
                assert app.query_one(f"#{now}-pane" if now != "log" else "#log").has_class("-shown")
                shown = app.screen.query_one(PANEL_WIDGETS[now])
                assert _on_screen(app, shown), now

    run(go())


def test_each_panel_shown_for_the_first_time_comes_in_one_layout(monkeypatch, tmp_path):
    """At 80x24 each Tab to a panel not shown before (its scrollbar found needed, or the log's,
    always shown, made hidden) lays the screen out once: Textual found the bar a layout late and
    laid the whole screen out again, a second frame ~30 ms after the first."""
    from textual.screen import Screen

    layouts: list[int] = []
    original = Screen._refresh_layout

    def refresh_layout(self, *args, **kwargs):
        if isinstance(self, GameScreen):  # not a screen made ahead out of sight (the rules, the help)
            layouts.append(1)
        return original(self, *args, **kwargs)

    async def go():
        app = create_app(SOLO, save_dir=tmp_path)
        async with app.run_test(size=SMALL) as pilot:
            await pilot.pause()
            monkeypatch.setattr(Screen, "_refresh_layout", refresh_layout)
            for _name, _ in PANELS[1:]:
                layouts.clear()
                await pilot.press("tab")
                await pilot.pause()
                await pilot.pause()
                assert len(layouts) == 1, app.screen.query_one(PanelTabs).shown

    run(go())


def test_every_panel_is_on_screen_at_120x40(tmp_path):
    async def go():
        app = create_app(_played(SOLO, 60), save_dir=tmp_path)
        async with app.run_test(size=BIG) as pilot:
            await pilot.pause()
            kinds: list[type[Widget]] = [*PANEL_WIDGETS.values(), DecisionPanel]
            widgets = [app.screen.query_one(w) for w in kinds]
            for widget in widgets:
                assert _on_screen(app, widget), widget
            parents = [narrow(w.parent, Widget) for w in widgets]
            regions = [(p if "pane" in p.classes else w).region for w, p in zip(widgets, parents)]
            for i, a in enumerate(regions):  # side by side, none on top of another
                for b in regions[i + 1 :]:
                    assert not a.overlaps(b), (a, b)
            assert not _on_screen(app, app.screen.query_one(PanelTabs))  # no tabs needed
            board = app.screen.query_one(BoardView)
            assert board.region.height >= 13  # the whole map and its caption

    run(go())


def test_matrix_highlights_the_spaces_the_decision_offers(tmp_path):
    store = _until(Store(HOTSEAT), "place_dreamer")

    async def go():
        app = create_app(store, save_dir=tmp_path)
        async with app.run_test(size=SMALL) as pilot:
            await _past_handoff(app, pilot)
            await pilot.press("tab")
            await pilot.pause()
            matrix = app.screen.query_one(MatrixView)
            view = present(matrix.view)
            nights = {a.night for a in present(view.state.decision).options if isinstance(a, PlaceDreamer)}
            assert nights and set(legal_spaces(view)) == nights
            text = render_matrix(view, 80)
            plain = text.plain

            def reversed_at(label: str) -> bool:
                at = plain.index(label)
                return any(span.start <= at < span.end and getattr(span.style, "reverse", False) for span in text.spans)

            from nctui.games.nightmare_cathedral.describe import words_for

            w = words_for(view.state.pack)
            for night in w.nights:
                assert reversed_at(f"({w.space(night)})") == (night in nights)
            for day in w.days:
                assert not reversed_at(f"[{w.day_short(day)}]")

    run(go())


def test_matrix_cursor_and_enter_choose_a_day_space(tmp_path):
    store = _until(_played(SOLO, 0), "choose_day")

    async def go():
        app = create_app(store, save_dir=tmp_path)
        async with app.run_test(size=SMALL) as pilot:
            await pilot.press("m")
            await pilot.pause()
            matrix = app.screen.query_one(MatrixView)
            assert app.focused is matrix
            legal = legal_spaces(present(matrix.view))
            assert matrix.cursor in legal  # the cursor starts on a choosable space
            seat, day = store.state.decision.seat, matrix.cursor
            before = store.state_id
            await pilot.press("enter")  # two options (perform, ignore): the list takes over
            await pilot.pause()
            panel = app.screen.query_one(DecisionPanel)
            assert store.state_id == before and focused(app) is panel
            chosen = narrow(present(store.state.decision).options[panel.highlight], ChooseDay)
            assert (chosen.action, chosen.ignore) == (day, False)
            await pilot.press("enter")
            await pilot.pause()
            assert store.state.players[seat].dreamer == day or store.state.day == day

    run(go())


def test_hand_shows_the_deciding_players_cards_only(tmp_path):
    async def go():
        app = create_app(HOTSEAT, save_dir=tmp_path)
        async with app.run_test(size=SMALL) as pilot:
            await pilot.press("1")  # the Turn track: cards are dealt
            await pilot.pause()
            await _past_handoff(app, pilot)
            await pilot.press("c")
            await pilot.pause()
            hand = app.screen.query_one(HandView)
            assert _on_screen(app, hand) and app.focused is hand
            state = app.store.state
            me = state.decision.seat
            assert present(hand.view).seat == me
            from nctui.games.nightmare_cathedral.describe import words_for

            w = words_for(state.pack)
            text = hand.render().plain
            mine = set(state.players[me].hand + state.players[me].dreams)
            theirs = set(state.players[1 - me].hand + state.players[1 - me].dreams) - mine
            assert all(w.card(c)[:18] in text for c in mine)
            assert not any(w.card(c) in text for c in theirs)
            other = state.players[1 - me]
            assert f"{plural(len(other.hand), 'card')} in hand, {plural(len(other.dreams), 'Dream')} (hidden)" in text

    run(go())


def test_hand_says_which_dreams_can_be_played_now():
    from nctui.games.nightmare_cathedral.engine import dreams
    from nctui.games.nightmare_cathedral.engine.actions import PlayDream
    from nctui.games.nightmare_cathedral.engine.facts import facts
    from nctui.games.nightmare_cathedral.ui.widgets.hand import dream_status, render_hand

    store = _until(Store(HOTSEAT), "play_dream", 3000)
    seat = store.state.decision.seat
    view = player_view(store.state, seat)
    known = facts(view)
    offered = {a.card for a in present(view.state.decision).options if isinstance(a, PlayDream)}
    assert offered
    for card in view.state.players[seat].dreams:
        status, _ = dream_status(view.state, known, seat, card)
        if card in offered:
            assert status == "✓ can be played now"
        elif dreams.conditions_met(view.state, seat, card):
            assert status.startswith("◇ conditions met; play it ")
        else:
            assert status == "✗ conditions not met"
    assert "✓ can be played now" in render_hand(view, known).plain


def test_players_and_tracks_draw_the_view():
    from nctui.games.nightmare_cathedral.engine.facts import facts
    from nctui.games.nightmare_cathedral.engine.scoring import scores
    from nctui.games.nightmare_cathedral.ui.widgets.players import render_players
    from nctui.games.nightmare_cathedral.ui.widgets.tracks import render_tracks

    store = _played(SOLO, 60)
    state = store.state
    view = player_view(state, 0)
    text = render_players(view, facts(view), frozenset(), 100).plain
    for score in scores(view.state):  # the score so far of each side, the King's included
        assert f"  {score.total} VP so far" in text
    king = state.king
    assert "the King of Horrors" in text
    for _card, cultists in zip(king.dreams, king.dream_cultists):
        assert f"{cultists} of " in text
    assert "Dreamer on" in text and "Power" in text
    lines = render_tracks(view, facts(view), 100).plain.splitlines()
    for pl in state.players:  # a Ritual row per side, its letter where each marker stands
        from nctui.games.nightmare_cathedral.describe import seat_letter

        letter = seat_letter(state, pl.seat)
        row = next(line for line in lines if line.startswith(f"  {letter} "))
        cells = row[12:]
        marks = cells.count(letter)
        assert marks == len(set(pl.ritual)) and ("²" in cells) == (pl.ritual[0] == pl.ritual[1])


def test_inspector_opens_browses_and_closes(tmp_path):
    async def go():
        app = create_app(_played(SOLO, 60), save_dir=tmp_path)
        async with app.run_test(size=SMALL) as pilot:
            await pilot.pause()
            await pilot.press("c", "down", "i")  # the hand's second card, in full
            await pilot.pause()
            inspector = app.screen
            assert isinstance(inspector, InspectorScreen)
            second = app.store.state.players[app.store.state.decision.seat].hand[1]
            assert present(inspector.current()).key == f"card:{second}"
            await pilot.press("right")
            assert inspector.index == 2
            await pilot.press("left", "left")
            assert inspector.index == 0
            await pilot.press("i")
            await pilot.pause()
            assert not isinstance(app.screen, InspectorScreen)
            for close in ("q", "escape"):
                await pilot.press("i")
                await pilot.pause()
                assert isinstance(app.screen, InspectorScreen)
                keys = {e.key.split(":")[0] for e in app.screen.entries}
                assert {"card", "stack", "king"} <= keys  # hand, Action cards, the King's cards
                await pilot.press(close)
                await pilot.pause()
                assert not isinstance(app.screen, InspectorScreen)
            assert app.is_running  # q closed the inspector, not the game

    run(go())


def test_board_cursor_moves_and_enter_picks_an_area(tmp_path):
    async def go():
        app = create_app(HOTSEAT, save_dir=tmp_path)
        async with app.run_test(size=SMALL) as pilot:
            await pilot.press("1")  # the Turn track; then the conquests
            await pilot.pause()
            await _past_handoff(app, pilot)
            await pilot.press("b")
            await pilot.pause()
            board = app.screen.query_one(BoardView)
            assert app.focused is board
            legal = legal_areas(present(board.view))
            assert board.cursor in legal
            state = app.store.state
            points = centres(state.pack, state.board_side)
            start = board.cursor
            await pilot.press("l")
            assert board.cursor == nearest(points, start, 0, 1) != start
            await pilot.press("h")
            assert board.cursor == nearest(points, nearest(points, start, 0, 1), 0, -1)
            note = app.screen.query_one(PanelTabs).render().plain
            from nctui.games.nightmare_cathedral.describe import words_for

            assert words_for(state.pack).area(board.cursor) in note  # what is under the cursor
            # An area that is no option (or the Cathedral): nothing happens.
            board.cursor = next(a for a in points if a not in legal)
            before = app.store.state_id
            await pilot.press("enter")
            await pilot.pause()
            assert app.store.state_id == before
            await pilot.press("escape")  # back to the options
            assert focused(app) is app.screen.query_one(DecisionPanel)
            await pilot.press("b")
            # An area that is: Enter conquers it.
            target = next(iter(legal))
            board.cursor = target
            seat = app.store.state.decision.seat
            await pilot.press("enter")
            await pilot.pause()
            assert app.store.state_id == before + 1
            assert app.store.entry(before + 1).action == Conquer(area=target)
            assert any(a.id == target and a.followers[seat] for a in app.store.state.areas)

    run(go())


# A solo game at turn 6, its decision about an area (the board underlines the options). Few
# moves, so that engine work elsewhere rarely changes the position drawn.
SNAPSHOT_MOVES = 30


def test_game_screen_snapshot_80x24(snap_compare, tmp_path):
    assert snap_compare(create_app(_played(SOLO, SNAPSHOT_MOVES), save_dir=tmp_path), terminal_size=SMALL)


def test_game_screen_snapshot_120x40(snap_compare, tmp_path):
    assert snap_compare(create_app(_played(SOLO, SNAPSHOT_MOVES), save_dir=tmp_path), terminal_size=BIG)


def test_a_panel_sized_to_its_content_follows_it_at_every_change_drawing_it_once():
    """FitsContent: the height is measured from the new content (Textual keeps the last height per
    width: the panel lagged one change behind), and what was rendered to compare is what is drawn,
    after the layout its new height asks for too."""
    from textual.app import App
    from textual.reactive import reactive

    from nctui.ui.textual_ext.placed import FitsContent

    class Lines(FitsContent):
        DEFAULT_CSS = "Lines { height: auto; }"
        view = reactive((1, "a"), repaint=False)
        renders = 0

        def render(self):
            self.renders += 1
            count, word = self.view
            return "\n".join(f"{word} {i}" for i in range(count))

    class Host(App):
        def compose(self):
            yield Lines()

    async def go():
        app = Host()
        async with app.run_test(size=(40, 20)) as pilot:
            panel = app.query_one(Lines)
            await pilot.pause()
            heights, renders = [], []
            for count in (3, 5, 2):
                before = panel.renders
                panel.view = (count, "a")
                await pilot.pause()
                heights.append(panel.size.height)
                renders.append(panel.renders - before)
            assert heights == [3, 5, 2]
            # drawn after the layout from the rendering the new height was measured from (Textual
            # dropped it as the layout placed the panel: two renderings a change)
            assert renders == [1, 1, 1]
            before = panel.renders
            panel.view = (2, "b")  # the same height, other words
            await pilot.pause()
            assert panel.renders == before + 1 and "b 1" in str(panel.render())

    run(go())


def test_a_panel_given_a_new_width_is_laid_out_once_at_its_height_for_that_width():
    """FitsContent in a Pane: a panel whose lines depend on its width is measured at the width the
    layout gives it (it was measured at its old width, and only a second layout of the whole
    screen, asked for by Textual's new virtual sizes, corrected it; those layouts are not asked
    for any more, so the first must be right)."""
    from textual.app import App
    from textual.reactive import reactive
    from textual.screen import Screen

    from nctui.ui.textual_ext.placed import FitsContent, Pane

    class Wide(FitsContent):
        """As many lines as 60 cells take at its width (the board, the hand: lines fill it)."""

        DEFAULT_CSS = "Wide { height: auto; }"
        view = reactive(0, repaint=False)

        def render(self):
            width = max(self.content_width, 1)
            return "\n".join("x" * width for _ in range(-(-60 // width)))

    class Host(App):
        CSS = "Pane { height: auto; max-height: 100%; } #box { width: 30; }"

        def compose(self):
            with Pane(id="box"):
                yield Wide()

    layouts = []
    original = Screen._refresh_layout

    def counted(self, *args, **kwargs):
        layouts.append(self)
        return original(self, *args, **kwargs)

    async def go():
        app = Host()
        async with app.run_test(size=(40, 20)) as pilot:
            panel = app.query_one(Wide)
            await pilot.pause()
            assert panel.size.height == 2  # 60 cells at 30
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(Screen, "_refresh_layout", counted)
                app.query_one("#box").styles.width = 12
                await pilot.pause()
                await pilot.pause()
            assert panel.size == (12, 5)  # 60 cells at 12, measured at 12
            assert app.query_one("#box").size.height == 5
            assert len(layouts) == 1

    run(go())


def _log_host():
    """An app of a log alone, 6 lines high."""
    from textual.app import App

    from nctui.ui.widgets.log import GameLog

    class Host(App):
        CSS = "GameLog { height: 6; }"

        def compose(self):
            yield GameLog()

        @property
        def log_widget(self) -> GameLog:
            return self.query_one(GameLog)

    return Host()


def test_the_log_shows_a_new_line_at_once_unless_scrolled_back():
    """GameLog: a line written is in view in the frame that draws it (Textual's RichLog's auto scroll
    scrolled after that frame, in a frame of its own); scrolled back to read, it stays put."""

    async def go():
        app = _log_host()
        async with app.run_test(size=(40, 12)) as pilot:
            log = app.log_widget
            await pilot.pause()
            for i in range(20):
                log.write(f"line {i}")
            await pilot.pause()
            log.write("line 20")
            assert log.scroll_y == log.max_scroll_y == 21 - log.scrollable_content_region.height
            await pilot.pause()
            log.scroll_to(y=0, animate=False, immediate=True)
            log.write("line 21")
            await pilot.pause()
            assert log.scroll_y == 0
            log.scroll_end(animate=False, immediate=True)  # back at the bottom: it follows again
            log.write("line 22")
            assert log.scroll_y == log.max_scroll_y

    run(go())


def test_the_log_takes_the_lines_of_a_decision_in_one_new_height():
    """GameLog.write_lines: the lines are wrapped, then the log takes its new height and scrolls
    once for all of them (a new height asks for a layout of the screen: one a line before)."""

    async def go():
        app = _log_host()
        async with app.run_test(size=(40, 12)) as pilot:
            log = app.log_widget
            await pilot.pause()
            layouts = []
            refresh = log.refresh

            def counted(*regions, layout=False, **kw):
                layouts.append(layout)
                return refresh(*regions, layout=layout, **kw)

            log.refresh = counted
            log.write_lines([f"line {i}" for i in range(8)])
            assert layouts.count(True) == 1 and len(log.lines) == 8
            assert log.scroll_y == log.max_scroll_y == 8 - log.scrollable_content_region.height

    run(go())


def test_a_long_log_wraps_its_newest_lines_and_the_older_ones_as_it_is_scrolled_up_to_them():
    """Issue 39, long games: a log shown after many lines (a continued game, a log hidden for long)
    wraps the newest that fill it twice over, not 400; scrolled up, the older ones come above,
    the lines in sight staying in sight, then those ``older`` gives (a long game's earlier
    decisions, described only then), until every line written is there in order."""

    async def go():
        app = _log_host()
        async with app.run_test(size=(40, 12)) as pilot:
            log = app.log_widget
            await pilot.pause()
            given = [[f"early {k} {i}" for i in range(30)] for k in range(3)]
            log.older = lambda: given.pop() if given else None
            log.write_lines([f"line {i}" for i in range(300)])
            await pilot.pause()
            assert len(log.lines) < 100 and log.lines[-1].text.strip() == "line 299"
            assert log.scroll_y == log.max_scroll_y  # the newest in sight
            seen = []
            for _ in range(200):
                top = round(log.scroll_y)
                in_sight = log.lines[top].text.strip()
                log.scroll_to(y=max(0, top - 5), animate=False, immediate=True)
                await pilot.pause()
                seen.append((in_sight, log.lines[round(log.scroll_y) + min(5, top)].text.strip()))
                if round(log.scroll_y) == 0 and log.older is None and not log._unwrapped:
                    break
            assert all(before == after for before, after in seen[:-1])  # what was in sight stays where it was
            lines = [strip.text.strip() for strip in log.lines]
            early = [f"early {k} {i}" for k in range(3) for i in range(30)]
            assert lines == early + [f"line {i}" for i in range(300)]
            assert [log.render_line(y).text.strip() for y in range(3)] == early[:3]

    run(go())


def test_the_footer_is_drawn_again_only_when_its_keys_change_and_never_lays_out(monkeypatch):
    """KeyFooter: its keys are in the screen's first frame; moving the focus between widgets that
    leave the keys the same draws nothing again, and a key that appears is drawn without a
    layout (Textual's footer came up empty, then composed a widget per key, laying the screen
    out twice more); clicking a key presses it."""
    from textual.app import App
    from textual.binding import Binding
    from textual.widget import Widget

    from nctui.ui.widgets.footer import KeyFooter

    class Plain(Widget, can_focus=True):
        DEFAULT_CSS = "Plain { height: 1; }"

    knocked = []

    class Keyed(Plain):
        BINDINGS: ClassVar = [Binding("k", "knock", "Knock")]

        def action_knock(self) -> None:
            knocked.append(1)

    drawn, layouts = [], []

    class Counted(KeyFooter):
        def render(self):
            drawn.append(1)
            return super().render()

    class Host(App):
        BINDINGS: ClassVar = [Binding("q", "quit", "Quit")]
        AUTO_FOCUS = "#a"

        def compose(self):
            yield Plain(id="a")
            yield Plain(id="b")
            yield Keyed(id="c")
            yield Counted()

    async def go():
        app = Host()
        async with app.run_test(size=(60, 10)) as pilot:
            footer = app.query_one(Counted)
            await pilot.pause()
            assert footer._shown is not None and "Quit" in [k.description for k in footer._shown[0]]
            original = app.screen._refresh_layout

            def laid_out(*a, **k):
                layouts.append(1)
                return original(*a, **k)

            monkeypatch.setattr(app.screen, "_refresh_layout", laid_out)
            before = len(drawn)
            app.query_one("#b").focus()  # the same keys
            await pilot.pause()
            await pilot.pause()
            assert len(drawn) == before
            app.query_one("#c").focus()  # one more key
            await pilot.pause()
            await pilot.pause()
            assert len(drawn) > before and not layouts
            line = footer.render().plain
            assert "Knock" in line and "^p" in line and line.rstrip().endswith("palette")
            await pilot.click(Counted, offset=(line.index("Knock"), 0))
            await pilot.pause()
            assert knocked == [1]

    run(go())


def test_the_log_wraps_each_line_once_after_its_width_changes():
    """Lines written before the log's size is known are wrapped once it is, and once only: they
    were kept twice for wrapping again (when the log was a RichLog), and after a change of width
    every early line showed twice."""
    from textual.app import App

    from nctui.ui.widgets.log import GameLog

    class Host(App):
        CSS = "GameLog { height: 12; width: 40; }"

        def compose(self):
            yield GameLog()

        def on_mount(self):
            log = self.query_one(GameLog)
            for i in range(5):
                log.write(f"line {i}")

    async def go():
        app = Host()
        async with app.run_test(size=(60, 20)) as pilot:
            log = app.query_one(GameLog)
            await pilot.pause()
            assert [s.text.strip() for s in log.lines] == [f"line {i}" for i in range(5)]
            log.styles.width = 30
            await pilot.pause()
            await pilot.pause()
            assert [s.text.strip() for s in log.lines] == [f"line {i}" for i in range(5)]

    run(go())


def test_cells_draw_their_lines_as_they_are():
    """Cells (the map, the players): runs of one style per line, never wrapped, equal when the
    same (a panel is not drawn again for equal cells), as many lines high as they have."""
    from rich.console import Console
    from rich.style import Style
    from rich.text import Text

    from nctui.ui.textual_ext.placed import Cells

    red, plain = Style(color="red"), Style()
    lines = Cells.from_grid([list("ab c"), list("xyz")], [[red, red, plain, plain], [plain] * 3])
    assert lines == [(("ab", red), (" c", plain)), (("xyz", plain),)]
    cells = Cells(lines)
    assert cells.plain == "ab c\nxyz" and cells.width == 4
    assert cells == Cells(list(lines)) and cells != Cells(lines[:1])
    console = Console(width=3, force_terminal=True, color_system="truecolor")
    drawn = console.render_lines(cells, console.options.update_width(3), pad=False)
    assert ["".join(s.text for s in line) for line in drawn] == ["ab ", "xyz"]  # cut, not wrapped
    assert Cells.runs_of(Text.assemble(("ab", red), " c")) == (("ab", red), (" c", plain))


def test_the_decision_panel_measures_a_new_prompt_and_a_new_size_afresh():
    """The title's lines and the rows per option are wrapped once per prompt and size (every page
    figure asks for them), and again when either changes."""
    from rich.text import Text
    from textual.app import App

    from nctui.ui.widgets.decision import Prompt

    long = "an option long enough to need two rows in a narrow panel"

    class Host(App):
        CSS = "DecisionPanel { height: 12; }"

        def compose(self):
            yield DecisionPanel()

    async def go():
        app = Host()
        async with app.run_test(size=(80, 20)) as pilot:
            panel = app.query_one(DecisionPanel)
            panel.prompt = Prompt(key=1, title=Text("Short"), options=(long, "b"))
            await app_settled(app)
            assert panel.rows_of(0) == 1 and len(panel._title_lines()) == 1
            panel.prompt = Prompt(key=2, title=Text("A title " * 12), options=("a", "b"))
            await app_settled(app)
            assert len(panel._title_lines()) == 2  # the new prompt's title, wrapped at 80
            panel.prompt = Prompt(key=3, title=Text("Short"), options=(long, "b"))
            await pilot.resize_terminal(40, 20)
            await app_settled(app)
            assert panel.rows_of(0) == 2 and panel.rows_of(1) == 1  # measured again at the new width

    run(go())


def test_each_panel_is_styled_once_as_the_game_screen_comes_up(monkeypatch, tmp_path):
    """The screen's classes (its size's, the panel shown) are set before its widgets mount, and
    Textual's restyling of a screen as it first comes up is skipped: every panel is styled once
    before the first frame (three or four times before, ~45 ms at 80x24), with the classes of
    its size."""
    from textual.css.stylesheet import Stylesheet

    styled: dict[str, int] = {}
    original = Stylesheet.apply

    def apply(self, node, *args, **kwargs):
        if node.id:
            styled[node.id] = styled.get(node.id, 0) + 1
        return original(self, node, *args, **kwargs)

    monkeypatch.setattr(Stylesheet, "apply", apply)
    panels = {
        "status",
        "panel-tabs",
        "body",
        "col-a",
        "col-b",
        "board-pane",
        "board",
        "matrix-pane",
        "matrix",
        "tracks-pane",
        "tracks",
        "hand-pane",
        "hand",
        "players-pane",
        "players",
        "log",
    }

    async def go(size, classes):
        styled.clear()
        app = create_app(GameConfig(players=2, seed=1), save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            assert {k: v for k, v in styled.items() if k in panels} == dict.fromkeys(panels, 1)
            assert classes <= app.screen.classes
            assert app.query_one("#board-pane").has_class("-shown")
            assert app.query_one(BoardView).cell_lines == cell_lines_for(size[1])

    run(go(SMALL, {"-tabbed", "-narrow", "-short"}))
    run(go(BIG, {"-all", "-wide", "-tall"}))


def test_the_game_screen_is_not_laid_out_again_inside_its_own_layout(monkeypatch, tmp_path):
    """Textual answers "how big is this widget?" asked during a new screen's first layout by
    laying the whole screen out once more, nested in it (MapKeptCompositor: from the map of the
    layout before; a widget not in it is not placed yet). No layout of the game screen, as it
    comes up and over a few decisions, nor of a screen shown over it, lays it out again inside
    itself."""
    from textual._compositor import Compositor

    depth = [0]
    nested: list[int] = []
    reflow, arrange = Compositor.reflow, Compositor._arrange_root

    def counted_reflow(self, parent, size):
        depth[0] += 1
        try:
            return reflow(self, parent, size)
        finally:
            depth[0] -= 1

    def counted_arrange(self, *args, **kwargs):
        if sys._getframe(1).f_code.co_name == "full_map":  # asked where a widget is, not a layout
            nested.append(depth[0])
        return arrange(self, *args, **kwargs)

    monkeypatch.setattr(Compositor, "reflow", counted_reflow)
    monkeypatch.setattr(Compositor, "_arrange_root", counted_arrange)

    async def go(size):
        nested.clear()
        app = create_app(HOTSEAT, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, GameScreen) and app.screen._compositor.widgets
            for _ in range(4):
                await pilot.press("1")
                await _past_handoff(app, pilot)
            for key in ("question_mark", "t", "R"):  # help, the timeline, the rules: each over the game
                await pilot.press(key)
                await pilot.pause()
                assert not isinstance(app.screen, GameScreen)
                await pilot.press("escape")
                await pilot.pause()
            assert not any(nested)  # none inside a layout

    run(go(SMALL))
    run(go(BIG))


def test_a_scrollbar_that_keeps_its_column_comes_with_the_layout_that_calls_for_it(monkeypatch, tmp_path):
    """The players' pane of a 4-player game at 120x40 needs a scrollbar: it is in the map of the
    layout that found it needed (Textual showed it a layout late, and the screen was arranged
    once more to find it when it was drawn in that layout's frame)."""
    from textual._compositor import Compositor
    from textual.scrollbar import ScrollBar

    late: list[str] = []
    update_widgets = Compositor.update_widgets

    def recorded(self, widgets):
        before = self._full_map_invalidated
        update_widgets(self, widgets)
        if not before and self._full_map_invalidated:
            late.extend(str(present(w.parent).id) for w in widgets if isinstance(w, ScrollBar))

    monkeypatch.setattr(Compositor, "update_widgets", recorded)

    async def go():
        app = create_app(GameConfig(players=4, seats=("human",) * 4, seed=1), save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=BIG) as pilot:
            await pilot.pause()
            pane = app.query_one("#players-pane")
            assert pane.show_vertical_scrollbar and pane.vertical_scrollbar in app.screen._compositor.visible_widgets
            assert not {"players-pane", "hand-pane"} & set(late)

    run(go())


def test_each_key_press_lays_out_once_and_draws_one_frame(monkeypatch, tmp_path):
    """Choosing an option at 120x40 lays the screen out once and draws one frame: what the
    layout itself asks to draw again (the log scrolled to its new end, a scrollbar's new size)
    goes in that layout's frame (Textual drew it again in a frame of its own right after), and
    a hand that grows past its pane (or shrinks back) has its scrollbar shown, bar and all, by
    that layout (Textual set the bar's display after it, which asked for a layout more)."""
    from textual._compositor import Compositor
    from textual.app import App

    from nctui.ui.screens.handoff import HandoffScreen

    layouts: list[str] = []
    frames: list[str] = []
    display, reflow = App._display, Compositor.reflow

    def shown(self, screen, renderable):
        if renderable is not None:
            frames.append(type(screen).__name__)
        return display(self, screen, renderable)

    def counted(self, parent, size):
        if parent.is_current:  # not the rules and the help, made out of sight while the game waits
            layouts.append(type(parent).__name__)
        return reflow(self, parent, size)

    monkeypatch.setattr(App, "_display", shown)
    monkeypatch.setattr(Compositor, "reflow", counted)

    async def go():
        app = create_app(GameConfig(players=2, seed=42), save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=BIG) as pilot:
            await pilot.pause()
            counted: list[tuple[int, int]] = []
            toggled = 0
            while len(counted) < 24:
                if isinstance(app.screen, HandoffScreen):
                    await wait_for(pilot, lambda: screen_of(app).ready, "the hand-off past its guard")
                    await pilot.press("enter")
                    await wait_for(pilot, lambda: not isinstance(app.screen, HandoffScreen), "the hand-off closed")
                    await app_settled(app)
                    continue
                pane = app.screen.query_one("#hand-pane")
                before = pane.show_vertical_scrollbar
                frames.clear()
                layouts.clear()
                await pilot.press("1")
                await app_settled(app)
                if isinstance(app.screen, GameScreen):  # no hand-off came up
                    counted.append((len(layouts), len(frames)))
                    if pane.show_vertical_scrollbar != before:
                        toggled += 1
                        assert pane.vertical_scrollbar.display == pane.show_vertical_scrollbar
            assert counted == [(1, 1)] * len(counted), counted
            assert toggled >= 2  # the hand's scrollbar shown, and hidden again

    run(go())


def test_a_panel_measured_by_a_layout_is_drawn_from_that_measurement(monkeypatch, tmp_path):
    """The first layout measures each panel sized to its content at its new width (rendering
    its text); Textual then dropped that rendering as it placed the panel, and the first frame
    rendered every such panel once more. Each is rendered once: the matrix, hand and players
    though their panes (height auto) measure them first (at the width they are placed at:
    beside the scrollbar's column that the hand's and players' panes keep)."""
    counts = dict.fromkeys(("tracks", "matrix", "hand", "players"), 0)
    for cls, name in ((TracksView, "tracks"), (MatrixView, "matrix"), (HandView, "hand"), (PlayersView, "players")):

        def counted(self, _render=cls.render, _name=name):
            if self.view is not None:
                counts[_name] += 1
            return _render(self)

        monkeypatch.setattr(cls, "render", counted)

    async def go():
        app = create_app(GameConfig(players=2, seed=1), save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=BIG) as pilot:
            await pilot.pause()
            assert counts == dict.fromkeys(counts, 1), counts  # they were 2 and 3
            assert "Turn track" in app.query_one(TracksView).render().plain

    run(go())


def _cells_of(strips) -> list[list[tuple[str, object]]]:
    """Each line as (character, style) cells: equal drawings compare equal however Textual
    divided them into segments."""
    return [[(ch, seg.style) for seg in strip for ch in seg.text] for strip in strips]


def test_panels_drawn_line_by_line_draw_exactly_what_textual_draws(tmp_path):
    """Every panel drawn line by line (the map and the players as Cells; the tracks, hand,
    matrix, decision panel, status line and key footer as Text) is drawn by its line-kept visual cell for
    cell, style for style (the mouse offsets included), as Textual's own visual of the same
    text draws it, at both sizes and after decisions that change a few lines."""
    from textual.visual import Visual, visualize

    async def go(size):
        app = create_app(GameConfig(players=2, seed=1), save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            for key in ("1", "1", "enter", "1", "enter", "1", "1", None):
                screen = app.game_screen()
                for cls in (
                    BoardView,
                    TracksView,
                    HandView,
                    PlayersView,
                    MatrixView,
                    DecisionPanel,
                    StatusLine,
                    KeyFooter,
                ):
                    widget = screen.query_one(cls)
                    width = widget.size.width
                    if not width:
                        continue
                    content = widget.render()
                    ours = narrow(widget, DrawnByLine)._visual_of(content)
                    assert type(ours).__name__ in ("TextLines", "CellLines")
                    textuals = visualize(widget, content)
                    assert ours.get_height(rules(widget), width) == textuals.get_height(rules(widget), width)
                    style = widget.visual_style
                    for _ in range(2):  # drawn afresh, then from the kept lines
                        drawn = Visual.to_strips(widget, ours, width, None, style)
                        assert _cells_of(drawn) == _cells_of(Visual.to_strips(widget, textuals, width, None, style))
                if key is not None:
                    await pilot.press(key)
                    await pilot.pause()

    for size in (SMALL, BIG):
        run(go(size))


def test_a_panel_taller_than_its_pane_draws_the_lines_in_sight(tmp_path):
    """The tracks at 120x40 are taller than their pane: Textual asks for the lines in sight,
    and only those are drawn (the tracks drew every line at every change). Every line shown,
    before and after scrolling to the end, is the line Textual's own visual draws there."""
    from textual.visual import Visual, visualize

    from nctui.ui.textual_ext.lines import DrawnLines

    def same_as_textual(widget) -> None:
        drawn = Visual.to_strips(
            widget, visualize(widget, widget.render()), widget.size.width, widget.size.height, widget.visual_style
        )
        shown = [widget.render_line(y) for y in range(widget.size.height)]
        assert _cells_of(shown) == _cells_of(drawn)

    async def go():
        app = create_app(GameConfig(players=2, seed=1), save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=BIG) as pilot:
            await pilot.pause()
            tracks = app.game_screen().query_one(TracksView)
            pane = narrow(tracks.parent, Widget)
            lines = tracks._render_cache.lines
            assert isinstance(lines, DrawnLines)
            assert pane.size.height < tracks.size.height  # taller than its pane
            assert lines._next < lines._count  # the lines out of sight were not drawn
            assert lines._next <= pane.size.height + 1
            same_as_textual(tracks)
            pane.scroll_end(animate=False)
            await pilot.pause()
            assert pane.scroll_y > 0
            same_as_textual(tracks)

    run(go())


def test_the_game_screen_asks_widgets_only_for_lines_that_show_and_draws_what_textual_draws(tmp_path):
    """The game screen's compositor asks a widget only for the rows where some of it shows (not
    the screen, body and columns under the panels): the frame it makes, whole or for a few
    lines, is Textual's own, cut for cut, cell for cell, at both sizes and after decisions."""
    from textual._compositor import Compositor
    from textual.geometry import Region
    from textual.widget import Widget

    def cells(chops):
        return [{cut: None if strip is None else _cells_of([strip]) for cut, strip in line.items()} for line in chops]

    async def go(size):
        app = create_app(GameConfig(players=2, seed=1), save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            for key in ("1", "1", "enter", "1", None):
                screen = app.game_screen()
                comp = screen._compositor
                width, height = size
                for crop, rows in (
                    (Region(0, 0, width, height), range(height)),
                    (Region(0, 2, width, 5), (2, 3, 6)),
                    (Region(width // 2, 10, 10, 3), (10, 12)),
                ):
                    shown = set(rows).__contains__
                    assert cells(comp._render_chops(crop, shown)) == cells(Compositor._render_chops(comp, crop, shown))
                asked: list[Widget] = []
                original = Widget.render_lines

                def render_lines(self, crop, original=original, asked=asked):
                    asked.append(self)
                    return original(self, crop)

                with pytest.MonkeyPatch.context() as patch:
                    patch.setattr(Widget, "render_lines", render_lines)
                    comp._render_chops(Region(0, 0, width, height), lambda y: True)
                assert screen not in asked and screen.query_one("#body") not in asked  # covered whole
                if key is not None:
                    await pilot.press(key)
                    await pilot.pause()

    for size in (SMALL, BIG):
        run(go(size))


def test_a_line_that_did_not_change_is_not_drawn_again():
    """A panel's visual keeps each line's strips (its text, styles, place, the panel's width and
    style): a new text drawn at the same width reuses the lines it shares with the last drawings
    (the hand of the person before a hand-off too), draws the others."""
    from rich.style import Style as RichStyle
    from rich.text import Text
    from textual.app import App
    from textual.content import Content
    from textual.style import Style
    from textual.visual import RenderOptions

    from nctui.ui.textual_ext.lines import CellLines, LineCache, TextLines
    from nctui.ui.textual_ext.placed import Cells

    class Bare(App[None]):
        pass

    async def go():
        app = Bare()
        async with app.run_test(size=SMALL):
            widget = app.screen
            options = RenderOptions(widget._get_style, rules(widget), None, None)
            cache = LineCache()
            red = RichStyle(color="red")

            def draw(text: Text, width: int = 20):
                return TextLines(text, cache, app.console).render_strips(width, None, Style(), options)

            first = draw(Text.assemble(("alpha\n", red), "beta\ngamma"))
            second = draw(Text.assemble(("alpha\n", red), "BETA\ngamma"))
            assert [s.text for s in second] == ["alpha", "BETA", "gamma"]
            assert second[0] is first[0] and second[2] is first[2] and second[1] is not first[1]
            moved = draw(Text.assemble("beta\n", ("alpha\n", red), "gamma"))
            assert moved[2] is second[2] and moved[1] is not second[0]  # its place is part of it
            back = draw(Text.assemble(("alpha\n", red), "beta\ngamma"))  # the view of a hand-off before
            assert all(a is b for a, b in zip(back, first, strict=True))
            wrapped = draw(Text("alpha beta gamma delta"), width=11)
            assert [s.text.rstrip() for s in wrapped] == ["alpha beta", "gamma delta"]
            assert TextLines(Text("alpha beta gamma delta"), cache, app.console).get_height(rules(widget), 11) == 2
            for text in ("alpha beta", "alpha beta ", " alpha beta", "", "alpha\n\nbeta", "alphabetagamma", "a\tb c"):
                for width in (1, 4, 9, 10, 11):  # lines that fit, just fit, just do not
                    heights = LineCache()
                    assert TextLines(Text(text), heights, app.console).get_height(
                        rules(widget), width
                    ) == Content.from_rich_text(Text(text)).get_height(rules(widget), width), (text, width)

            cells = LineCache()
            grid = Cells.from_grid([list("ab"), list("cd")], [[red, red], [red, red]])
            one = CellLines(grid, 2, cells).render_strips(10, None, Style(), options)
            two = CellLines([grid[0], (("CD", red),)], 2, cells).render_strips(10, None, Style(), options)
            assert two[0] is one[0] and two[1] is not one[1] and two[1].text == "CD"
            assert CellLines(grid, 2, cells).render_strips(1, None, Style(), options)[0].text == "a"  # cut

    run(go())


def test_strips_make_their_caches_when_first_used():
    """ui/strips.py: a Strip is made without its seven caches, each made when first asked for,
    and it crops, divides and styles as before; the slots it relies on are Textual's."""
    from rich.segment import Segment
    from rich.style import Style as RichStyle
    from textual.strip import Strip

    from nctui.ui.textual_ext import strips

    strips.install()
    assert set(strips.CACHES) <= set(Strip.__slots__)
    strip = Strip([Segment("abc"), Segment("def", RichStyle(bold=True))], 6)

    def made(name: str) -> bool:  # the slot itself, not __getattr__
        try:
            getattr(Strip, name).__get__(strip, Strip)
        except AttributeError:
            return False
        return True

    assert not any(made(name) for name in strips.CACHES) and strip.cell_length == 6
    assert strip.crop(1, 4).text == "bcd" and strip.crop(1, 4) is strip.crop(1, 4)  # cached once made
    assert made("_crop_cache") and not made("_divide_cache")
    assert [s.text for s in strip.divide([2, 6])] == ["ab", "cdef"]
    try:
        strip.no_such_attribute  # type: ignore[attr-defined]  # noqa: B018 - a missing attribute, read on purpose
    except AttributeError as exc:
        assert "no_such_attribute" in str(exc)
    else:
        raise AssertionError("an unknown attribute must still be refused")


def test_the_game_under_a_modal_screen_is_tinted_as_textual_tints_it(tmp_path):
    """Backdrop: the game under the help, drawn from its compositor's lines and tinted once per
    style, has the same cells and the same styles as Textual's BackgroundScreen draws; a line
    made of the same strips of the game's widgets as one tinted before is that line."""
    from textual.renderables.background_screen import BackgroundScreen
    from textual.style import Style
    from textual.visual import RichVisual

    from nctui.ui.screens.help import HelpScreen
    from nctui.ui.textual_ext.backdrop import Backdrop

    def cells(strips):
        return [[(ch, seg.style) for seg in strip for ch in seg.text] for strip in strips]

    async def go():
        app = create_app(HOTSEAT, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=SMALL) as pilot:
            await pilot.pause()
            await pilot.press("question_mark")
            await pilot.pause()
            help_screen, game = app.screen, app.screen_stack[-2]
            assert isinstance(help_screen, HelpScreen) and isinstance(game, GameScreen)
            color = help_screen.styles.background
            assert 0 < color.a < 1  # translucent: the game shows through
            base = Style.from_rich_style(help_screen.rich_style)
            options = RenderOptions(help_screen._get_style, rules(help_screen), None, None)
            ours = Backdrop(game, color).render_strips(80, 24, base, options)
            textual_ = RichVisual(help_screen, BackgroundScreen(game, color)).render_strips(80, 24, base, options)
            assert len(ours) == len(textual_) == 24
            assert cells(ours) == cells(textual_)
            untinted = cells(game._compositor.render_strips())
            assert [c for c, _ in cells(ours)[5]] == [c for c, _ in untinted[5]]
            assert cells(ours)[5] != untinted[5]  # the same characters, tinted
            # The game unchanged, its lines are those tinted before (the very same strips); a
            # line that changed is tinted afresh, as Textual tints it
            again = Backdrop(game, color).render_strips(80, 24, base, options)
            assert all(a is b for a, b in zip(again, ours, strict=True))
            await pilot.press("escape")
            await pilot.pause()
            await pilot.press("down")  # the decision panel's highlight moves
            await pilot.pause()
            changed = Backdrop(game, color).render_strips(80, 24, base, options)
            textual_ = RichVisual(help_screen, BackgroundScreen(game, color)).render_strips(80, 24, base, options)
            assert cells(changed) == cells(textual_) != cells(ours)
            assert 0 < sum(a is b for a, b in zip(changed, ours, strict=True)) < 24

    run(go())


def test_the_input_thread_reads_a_lone_escape_once_the_escape_delay_has_passed(monkeypatch):
    """The driver's input thread waits for the terminal until the parser's wait for the rest of
    a key ends (a lone Escape: ESCDELAY), where Textual's waited 0.1 s whatever the delay; the
    Escape is then the key."""
    import time

    from textual import constants
    from textual._xterm_parser import XTermParser

    from nctui.ui.textual_ext.driver import input_wait

    monkeypatch.setattr(constants, "ESCAPE_DELAY", 0.025)
    parser = XTermParser()
    assert input_wait(parser) == 0.1  # nothing awaited: Textual's poll
    assert list(parser.feed("\x1b")) == []  # maybe the start of a key's sequence
    wait = input_wait(parser)
    assert 0 < wait <= 0.025
    time.sleep(wait + 0.005)
    assert [narrow(event, Key).key for event in parser.tick()] == ["escape"]
    assert input_wait(parser) == 0.1


def test_a_scrollbar_draws_exactly_what_textual_draws():
    """A pane's scrollbar, each kind of line drawn once (``bar_lines``), is drawn cell for cell and
    style for style as Textual draws it: the thumb at every place, hovered, grabbed, in sight
    whole and in part; drawn again unchanged, it is the same strips (as Textual's are: a screen
    over the game knows a line it tinted by them)."""
    from textual.app import App
    from textual.filter import Monochrome
    from textual.geometry import Offset, Region
    from textual.scrollbar import ScrollBar
    from textual.widget import Widget
    from textual.widgets import Static

    from nctui.ui.textual_ext.bar_lines import bar_lines
    from nctui.ui.textual_ext.placed import Pane

    class Bars(App[None]):
        def compose(self):
            with Pane():
                yield Static("\n".join(f"line {i}" for i in range(61)))

    async def go():
        app = Bars()
        async with app.run_test(size=(30, 13)) as pilot:
            pane = app.query_one(Pane)
            await pilot.pause()
            bar = pane.vertical_scrollbar
            width, height = bar.size
            assert height == 13 and width >= 1 and bar.display
            for y in range(0, 49, 2):
                pane.scroll_to(y=y, animate=False)
                await pilot.pause()
                for mouse_over, grabbed in ((False, None), (True, None), (True, Offset(0, 3))):
                    bar.mouse_over, bar.grabbed = mouse_over, grabbed
                    for crop in (Region(0, 0, width, height), Region(0, 4, width, 5)):
                        ours = bar_lines(bar, crop)
                        bar.refresh()  # Textual's drawing, afresh
                        bar._styles_cache.clear()
                        textuals = Widget.render_lines(bar, crop)
                        assert ours is not None and _cells_of(ours) == _cells_of(textuals), (y, mouse_over, crop)
                        again = bar_lines(bar, crop)  # nothing changed: the very same strips
                        assert again is not None and all(a is b for a, b in zip(again, ours, strict=True))
                if y == 24:  # and through the app's line filters (a monochrome terminal's)
                    app._filters.append(Monochrome())
            assert ScrollBar.render_lines is Widget.render_lines  # what is compared is what Textual draws
            bar.styles.padding = (1, 0, 0, 0)
            assert bar_lines(bar, Region(0, 0, width, height)) is None  # left to Textual
            bar.grabbed = None

    run(go())


def test_a_column_draws_exactly_what_textual_draws(tmp_path):
    """The game screen's columns (``Box``: a background and a side border, every line the same,
    drawn once) draw cell for cell and style for style what Textual draws, in sight whole and
    in part; a column with a top border is left to Textual."""
    from textual.geometry import Region
    from textual.widget import Widget

    from nctui.ui.textual_ext.placed import Box

    async def go():
        app = create_app(HOTSEAT, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=BIG) as pilot:
            await pilot.pause()
            column = app.game_screen().query_one("#col-b", Box)
            width, height = column.size
            assert column.styles.border_left[0] and height > 30
            for crop in (Region(0, 0, width, height), Region(0, 5, 1, 9), Region(3, 2, width - 3, 4)):
                ours = column.render_lines(crop)
                column._styles_cache.clear()
                assert _cells_of(ours) == _cells_of(Widget.render_lines(column, crop)), crop
            column.styles.border_top = ("solid", "red")
            await pilot.pause()
            crop = Region(0, 0, width, height)
            assert _cells_of(column.render_lines(crop)) == _cells_of(Widget.render_lines(column, crop))
            assert column.render_lines(crop)[0].text != column.render_lines(crop)[1].text

    run(go())


def test_widget_classes_are_set_up_as_textual_sets_them_up():
    """ui/widget_classes.py: every widget, screen and app class of nctui, and classes with
    reactives and computes in mixins, bindings and CSS not inherited, get the same reactives,
    computes, CSS type names and bindings from the cheaper set-up as from Textual's own."""
    import importlib
    import pkgutil

    from textual.app import App
    from textual.binding import Binding
    from textual.dom import DOMNode
    from textual.reactive import reactive, var
    from textual.widgets import Static

    import nctui.ui
    from nctui.ui.textual_ext import widget_classes

    for module in pkgutil.walk_packages(nctui.ui.__path__, "nctui.ui."):
        importlib.import_module(module.name)

    class Mixin:
        shade = var(1)

        def compute_shade(self) -> int:
            return 2

    class Counted(Mixin, Static, inherit_bindings=False, inherit_css=False):
        BINDINGS: ClassVar = [Binding("x", "count", "Count")]
        count = reactive(0)

        def _compute_total(self) -> int:
            return 0

    class Shaded(Counted):
        shade = reactive(3)

    def subclasses(cls: type[DOMNode]) -> list[type[DOMNode]]:
        found = [cls]
        for direct in cls.__subclasses__():
            found += subclasses(direct)
        return found

    ours = [cls for cls in subclasses(DOMNode) if cls.__module__.startswith("nctui") or cls in (Counted, Shaded)]
    assert len(ours) > 40 and any(issubclass(cls, App) for cls in ours)

    def set_up(cls: type[DOMNode]) -> tuple:
        bindings = {
            key: [(b.action, b.description) for b in found]
            for key, found in present(cls._merged_bindings).key_to_bindings.items()
        }
        return (dict(cls._reactives), cls._computes, cls._css_type_name, cls._css_type_names, bindings)

    for cls in ours:
        options = [cls.__dict__[f"_inherit_{what}"] for what in ("css", "bindings", "component_classes")]
        widget_classes.TEXTUALS.__func__(cls, *options)
        textuals = set_up(cls)
        widget_classes._set_up(cls, *options)
        assert set_up(cls) == textuals, cls
    assert set_up(Shaded)[0]["shade"] is Shaded.__dict__["shade"] and set_up(Shaded)[1] == {"shade", "total"}
    assert set(set_up(Counted)[4]) == {"x"} and set_up(Counted)[3] == {"Counted"}


def test_a_lines_pieces_are_what_rich_draws_of_it():
    """widgets/lines.pieces: a line's pieces and their styles are those of Rich's own drawing of
    it (``Text.render``), for lines built by appending (spans one after another, named styles,
    no style, a line style), and lines whose spans overlap or nest (drawn by Rich itself)."""
    import random

    from rich.console import Console
    from rich.style import Style as RichStyle
    from rich.text import Span, Text

    from nctui.ui.textual_ext.lines import pieces

    console = Console(width=200, color_system="truecolor", force_terminal=True)
    marks: list[str | RichStyle] = [
        "",
        "bold",
        "red on black",
        RichStyle(color="green", italic=True),
        RichStyle(bgcolor="blue"),
        RichStyle.from_meta({"k": 1}),
        RichStyle(dim=True, color="#123456"),
    ]
    styles: list[str | RichStyle | None] = [None, *marks]
    rng = random.Random(7)
    fast = 0
    for _ in range(600):
        base_styles: list[str | RichStyle] = ["", "bold", RichStyle(color="white")]
        line = Text("", style=rng.choice(base_styles), end="")
        for _ in range(rng.randrange(0, 7)):
            line.append("".join(rng.choice("ab ·◉") for _ in range(rng.randrange(0, 6))), rng.choice(styles))
        if rng.random() < 0.3 and line.plain:  # overlapping or nested spans
            start = rng.randrange(len(line.plain))
            line.stylize(rng.choice(marks), start, rng.randrange(start, len(line.plain) + 1))
        if rng.random() < 0.1:  # a span of nothing
            line.spans.append(Span(len(line.plain), len(line.plain), "bold"))
        expected = [(segment.text, segment.style) for segment in line.render(console, end="")]
        got = pieces(line, console)
        assert got == expected, line.spans
        assert [type(style) for _, style in got] == [type(style) for _, style in expected]
        fast += all(a.start >= b.end for a, b in zip(line.spans[1:], line.spans))
    assert fast > 300  # most lines took the cut at their spans


def test_the_log_draws_its_lines_in_its_style_found_once(tmp_path):
    """The log finds its style once for all the lines it draws (``GameLog.render_lines``): the
    lines are those drawn one at a time, each finding the style itself, after decisions."""
    from textual.geometry import Region

    async def go():
        app = create_app(HOTSEAT, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=BIG) as pilot:
            await pilot.pause()
            for key in ("1", "enter", "1"):
                await pilot.press(key)
                await pilot.pause()
            log = app.game_screen().query_one(GameLog)
            drawn: dict[int, Strip] = {}
            render_line = log.render_line

            def noted(y):
                assert log._drawing_style is not None  # found before the lines are drawn
                drawn[y] = strip = render_line(y)
                return strip

            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(log, "render_line", noted)
                log._line_cache.clear()
                log._styles_cache.clear()
                log.render_lines(Region(0, 0, *log.outer_size))
            assert log._drawing_style is None and len(drawn) == log.size.height
            log._line_cache.clear()
            alone = {y: log.render_line(y) for y in drawn}  # each line finding the style itself
            assert _cells_of(drawn.values()) == _cells_of(alone.values())
            assert any(strip.text.strip() for strip in drawn.values())

    run(go())


def test_log_lines_are_wrapped_as_rich_wraps_them(tmp_path):
    """widgets/log.wrapped: the log's lines (those of a game, and lines with a style of their
    own, named styles, overlapping spans, a justification, tabs, several lines) are the cells
    Rich's ``Console.render`` makes of them, at widths they fit and do not fit."""
    from rich.segment import Segment
    from rich.style import Style as RichStyle
    from rich.text import Text
    from textual.strip import Strip

    from nctui.ui.widgets.log import wrapped

    def riches(text, width, console):
        segments = console.render(text, console.options.update_width(width))
        strips = Strip.from_lines(list(Segment.split_lines(segments))) or [Strip.blank(width)]
        for strip in strips:
            strip.adjust_cell_length(width)
        return strips

    async def go():
        app = create_app(HOTSEAT, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=BIG) as pilot:
            await pilot.pause()
            for key in ("1", "enter", "1", "enter", "1"):
                await pilot.press(key)
                await pilot.pause()
            log = app.game_screen().query_one(GameLog)
            lines = [Text(line) if isinstance(line, str) else line for line in log._written]
            styled = Text("Red conquers ", style="italic")
            styled.append("Ash Nave", RichStyle(color="red", bold=True))
            styled.stylize("underline", 4, 16)
            centred = Text("in the middle", justify="center")
            lines += [styled, centred, Text("a\tb"), Text("two\nlines"), Text(""), Text("x" * 30, style="bold")]
            assert len(lines) > 10
            fitted = 0
            for text in lines:
                for width in (20, 30, 49, 60):
                    ours = wrapped(text, width, app.console)
                    assert _cells_of(ours) == _cells_of(riches(text, width, app.console)), (text.plain, width)
                    fitted += len(text.plain) <= width and "\n" not in text.plain
            assert fitted > 20

    run(go())
