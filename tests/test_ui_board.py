"""The map and the keys of the cursors (issue 12), driven by Pilot at 80x24 and 120x40: the area
under the board's cursor in full, the area inspector, the decision's targets marked without
colour, areas drawn as one block, the board growing with the terminal, the Ritual track's costs
and bonuses, digits and Enter in the board, matrix and hand cursors, the key footer at 80x24."""

from __future__ import annotations

import asyncio

import pytest
from textual.widget import Widget

from nctui.games.nightmare_cathedral.describe import words_for
from nctui.games.nightmare_cathedral.describe.decisions import BONUS_TEXT
from nctui.games.nightmare_cathedral.engine import GameConfig, player_view
from nctui.games.nightmare_cathedral.engine.actions import Conquer
from nctui.games.nightmare_cathedral.engine.facts import facts as facts_of
from nctui.games.nightmare_cathedral.ui.screens.inspector import InspectorScreen
from nctui.games.nightmare_cathedral.ui.widgets.board import BoardView, legal_areas, render_board
from nctui.games.nightmare_cathedral.ui.widgets.hand import HandView, hand_cards, option_numbers
from nctui.games.nightmare_cathedral.ui.widgets.matrix import MatrixView
from nctui.games.nightmare_cathedral.ui.widgets.tracks import render_tracks
from nctui.platform.store import Store
from nctui.ui.app import create_app
from nctui.ui.screens.shell import GameShell
from nctui.ui.widgets.decision import DecisionPanel
from nctui.ui.widgets.footer import KeyFooter
from nctui.ui.widgets.tabs import PanelTabs
from tests.helpers import narrow, present
from tests.test_ui_widgets import HOTSEAT, SNAPSHOT_MOVES, SOLO, _past_handoff, _played, _until

SIZES = [(80, 24), (120, 40)]
FOUR = GameConfig(players=4, seats=("human",) * 4, seed=42)


def run(coro):
    return asyncio.run(coro)


def _view(store: Store, seat: int | None = None):
    seat = store.state.decision.seat if seat is None else seat
    view = player_view(store.state, seat)
    return view, facts_of(view)


async def _board_cursor_on_conquest(app, pilot) -> BoardView:
    """Hot seat, past the Turn track: the first conquest (an area decision); b: the cursor."""
    await pilot.pause()
    await pilot.press("1")
    await pilot.pause()
    await _past_handoff(app, pilot)
    await pilot.press("b")
    await pilot.pause()
    board = app.screen.query_one(BoardView)
    assert app.focused is board
    return board


# -- the area under the cursor, in full ------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_the_area_under_the_cursor_is_told_in_full(tmp_path, size):
    async def go():
        app = create_app(HOTSEAT, save_dir=tmp_path)
        async with app.run_test(size=size) as pilot:
            board = await _board_cursor_on_conquest(app, pilot)
            view, facts = present(board.view), present(board.facts)
            w = words_for(view.state.pack)
            tabs = app.screen.query_one(PanelTabs)
            assert tabs.region.height > 0  # in sight at 120x40 too (the indicator line shows for it)
            # the area with the most neighbours: the list that used to be cut
            area = max((a.id for a in view.state.areas), key=lambda a: len(facts.area(a).neighbours))
            board.cursor = area
            await pilot.pause()
            text = tabs.render().plain.replace("\n", " ")
            assert "…" not in text
            for near in facts.area(area).neighbours:
                assert w.area(near) in text
            assert w.area(area) in text and "Marked" in text and "Control" in text
            assert ("Enter: " in text) == (area in legal_areas(view))
            # all of it in sight; it covers neither the board, nor the options, nor the key footer
            assert tabs.content_region.height == len(tabs.render().plain.split("\n"))
            assert board.region.height > 0 and not tabs.region.overlaps(narrow(board.parent, Widget).region)
            assert not tabs.region.overlaps(app.screen.query_one(DecisionPanel).region)
            assert tabs.region.bottom <= app.screen.query_one(KeyFooter).region.y
            await pilot.press("escape")
            await pilot.pause()
            assert tabs.note is None

    run(go())


@pytest.mark.parametrize("size", SIZES)
def test_i_on_the_board_opens_the_area_under_the_cursor(tmp_path, size):
    async def go():
        app = create_app(HOTSEAT, save_dir=tmp_path)
        async with app.run_test(size=size) as pilot:
            board = await _board_cursor_on_conquest(app, pilot)
            facts, view = present(board.facts), present(board.view)
            w = words_for(view.state.pack)
            target = sorted(legal_areas(view))[-1]
            board.cursor = target
            await pilot.press("i")
            await pilot.pause()
            inspector = app.screen
            assert isinstance(inspector, InspectorScreen)
            shown = present(inspector.current())
            assert inspector.noun == "Area" and shown.key == f"area:{target}"  # not card 1
            lines = "\n".join(line.plain for line in shown.lines)
            for near in facts.area(target).neighbours:
                assert w.area(near) in lines
            for label in ("Symbol", "Units", "Fort", "Control", "Next to", "Enter"):
                assert label in lines
            await pilot.press("right")
            assert present(inspector.current()).key != f"area:{target}"  # browses the other areas
            await pilot.press("i")
            await pilot.pause()
            assert app.screen is not inspector and app.focused is board

    run(go())


def test_area_inspector_snapshot(snap_compare, tmp_path):
    assert snap_compare(
        create_app(_played(SOLO, SNAPSHOT_MOVES), save_dir=tmp_path), terminal_size=(80, 24), press=["b", "i"]
    )


# -- the map's drawing -----------------------------------------------------------------------------


@pytest.mark.parametrize("config", [HOTSEAT, FOUR], ids=["2p", "4p"])
def test_the_decisions_targets_are_marked_without_colour(config):
    store = _until(Store(config), "conquer")
    view, facts = _view(store)
    legal = legal_areas(view)
    assert legal
    w = words_for(view.state.pack)
    plain = render_board(view, facts, 79).plain  # the characters alone: a monochrome terminal
    for a in view.state.areas:
        sym = w.symbol(w.areas[a.id].symbol, name=False)
        assert (f"▸{sym}" in plain) == (a.id in legal), a.id
    assert "┃" in plain


def _block_of(lines: list[str], name: str) -> tuple[int, int]:
    """(line, column) where the area's name starts on the map: all on one line, or its words in
    one block (each next word on the next line, right below the block's start)."""
    first, *rest = name.split()
    for y, line in enumerate(lines):
        if name in line:
            return y, line.index(name)
        x = line.find(first)
        if (
            x >= 0
            and rest
            and all(
                y + k < len(lines) and word in lines[y + k][max(x - 4, 0) : x + len(word)]
                for k, word in enumerate(rest, start=1)
            )
        ):
            return y, x
    raise AssertionError(f"{name!r} is not in one block of the map")


@pytest.mark.parametrize("width, lines", [(79, 2), (67, 3), (118, 3)])
def test_areas_read_as_one_block_and_no_name_is_cut(width, lines):
    """Each area's whole name is on one line (or split only with a hyphen), and its units are on
    the line below it: Bone Cloister's units were a grid row below its name."""
    for config in (HOTSEAT, FOUR):
        store = _until(Store(config), "conquer")
        view, facts = _view(store)
        plain = render_board(view, facts, width, lines=lines).plain.splitlines()
        assert not any("…" in line for line in plain[: len(plain) - 2])  # the map itself: nothing cut
        if config is HOTSEAT:
            y, x = _block_of(plain, "Bone Cloister")
            area = next(a for a in view.state.areas if a.id == "bone-cloister")
            units = f"s{area.shadows}" if area.shadows else None
            if units:
                assert units in plain[y + 1][x - 3 : x + 20]
        else:
            _block_of(plain, "Warden Ruins")  # was split: '⚷K Warden' / 'Ruins'
            if width >= 79:
                _block_of(plain, "Pale Reservoir" if width >= 100 else "Reservoir")  # was 'Pale Reserv…'


@pytest.mark.parametrize("config", [HOTSEAT, FOUR], ids=["2p", "4p"])
def test_the_board_grows_with_the_terminal(tmp_path, config):
    """At 120x40 each area has more room for its words than at 80x24 (it had less)."""
    room = {}

    async def go(size):
        app = create_app(Store(config), save_dir=tmp_path)
        async with app.run_test(size=size) as pilot:
            await _past_handoff(app, pilot)
            board = app.screen.query_one(BoardView)
            view = present(board.view)
            sm = next(s for s in words_for(view.state.pack).pack.sides if s.side.id == view.state.board_side)
            width = board.size.width
            cell_width = (width + 1) // sm.cols - 1
            room[size] = (cell_width * board.cell_lines, board.size.height, board.cell_lines)

    for size in SIZES:
        run(go(size))
    small, big = room[(80, 24)], room[(120, 40)]
    assert small[2] == 2 and big[2] == 3
    assert big[0] > small[0] and big[1] > small[1]


def test_the_ritual_track_shows_costs_and_bonuses():
    store = Store(HOTSEAT)
    view, facts = _view(store, 0)
    w = words_for(view.state.pack)
    spaces = w.pack.tracks.ritual
    for width in (66, 80, 118):
        text = render_tracks(view, facts, width).plain
        lines = text.splitlines()
        start = next(k for k, line in enumerate(lines) if line.startswith("  pays"))
        pays = lines[start : start + max(len(sp.cost) for sp in spaces)]  # a row per symbol to pay
        glyphs = {w.symbols[s].glyph for s in w.symbols}
        drawn = sum(1 for line in pays for ch in line if ch in glyphs)
        assert drawn == sum(len(sp.cost) for sp in spaces)  # one glyph per Follower to pay
        for sp in spaces:
            if sp.kind == "special" and sp.bonus != "none":
                assert BONUS_TEXT[sp.bonus] in text


# -- keys ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_digits_pick_options_from_the_board_and_matrix_cursors(tmp_path, size):
    async def go():
        app = create_app(HOTSEAT, save_dir=tmp_path)
        async with app.run_test(size=size) as pilot:
            board = await _board_cursor_on_conquest(app, pilot)
            before = app.store.state_id
            expected = app.store.state.decision.options[1]
            await pilot.press("2")
            await pilot.pause()
            assert app.store.state_id == before + 1 and app.store.entry(before + 1).action == expected
            assert isinstance(expected, Conquer)
            await _past_handoff(app, pilot)
            await pilot.press("m")
            await pilot.pause()
            assert app.focused is app.screen.query_one(MatrixView)
            before = app.store.state_id
            expected = app.store.state.decision.options[0]
            await pilot.press("1")
            await pilot.pause()
            assert app.store.state_id == before + 1 and app.store.entry(before + 1).action == expected
            assert board is app.screen.query_one(BoardView)
            matrix = app.screen.query_one(MatrixView)
            if app.focused is not matrix:
                await pilot.press("m")
            matrix.cursor = "fortify"
            await pilot.press("i")  # the viewer's Action card of that Day space
            await pilot.pause()
            assert isinstance(app.screen, InspectorScreen)
            viewer = narrow(app.screen_stack[-2], GameShell).viewer
            assert present(app.screen.current()).key == f"stack:{viewer}:fortify"

    run(go())


@pytest.mark.parametrize("size", SIZES)
def test_enter_in_the_hand_chooses_the_option_about_the_card(tmp_path, size):
    async def go():
        store = _until(Store(HOTSEAT), "discard_dreams")
        app = create_app(store, save_dir=tmp_path)
        async with app.run_test(size=size) as pilot:
            await _past_handoff(app, pilot)
            await pilot.press("c")
            await pilot.pause()
            hand = app.screen.query_one(HandView)
            assert app.focused is hand
            state, seat = app.store.state, present(app.store.state.decision).seat
            cards = hand_cards(present(hand.view))
            k = next(k for k, c in enumerate(cards) if len(option_numbers(state, seat, c)) == 1)
            hand.cursor = k
            before = app.store.state_id
            await pilot.press("i")  # i shows the card ...
            await pilot.pause()
            assert isinstance(app.screen, InspectorScreen) and present(app.screen.current()).key == f"card:{cards[k]}"
            await pilot.press("escape")
            await pilot.pause()
            assert app.store.state_id == before
            await pilot.press("enter")  # ... Enter chooses its option
            await pilot.pause()
            number = option_numbers(state, seat, cards[k])[0]
            assert app.store.state_id == before + 1
            assert app.store.entry(before + 1).action == state.decision.options[number - 1]

    run(go())


@pytest.mark.parametrize("size", SIZES)
def test_the_key_footer_is_on_screen(tmp_path, size):
    async def go():
        app = create_app(HOTSEAT, save_dir=tmp_path)
        async with app.run_test(size=size) as pilot:
            await _past_handoff(app, pilot)
            footer = app.screen.query_one(KeyFooter)
            assert footer.display and footer.region.height == 1
            assert footer.region.bottom == size[1]
            decision = app.screen.query_one(DecisionPanel)
            assert decision.region.bottom <= footer.region.y  # the options are not under it

    run(go())
