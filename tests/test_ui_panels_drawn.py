"""Issue 39.4: at 80x24 a panel shown by Tab (the tracks) or after a hand-off (the hand) came up
blank on a real terminal, until Tab away and back: the panel, taller than its pane, was drawn a
column wider than the pane left it once its scrollbar came, and the frame dropped its lines.
Pilot's own screen (drawn whole from the widgets) showed them; these tests read what reached
the terminal (``TerminalSeen``: the updates the app sent), as tmux's capture-pane did."""

from __future__ import annotations

import asyncio

import pytest

from nctui.games.nightmare_cathedral.engine import GameConfig
from nctui.ui.app import create_app
from nctui.ui.widgets.tabs import PANELS, PanelTabs
from tests.helpers import TerminalSeen, app_settled, nc_screen, play_by_keys

SIZE = (80, 24)
PANE_ROWS = range(2, 14)  # at 80x24: the status line, the panel names, then the panel's 12 rows
# What each panel shows first (at the top of its pane), as the terminal shows it
FIRST_WORDS = {"matrix": "[Ritual]", "hand": "'s hand", "tracks": "Ritual", "players": "VP so far"}


def _pane(seen: TerminalSeen) -> str:
    return "\n".join(seen.lines()[y][: SIZE[0] - 1] for y in PANE_ROWS)  # the scrollbar's column left out


def _config(players: int, seed: int) -> GameConfig:
    return GameConfig(players=players, seats=tuple("human" for _ in range(players)), seed=seed)


@pytest.mark.parametrize("players, seed", [(2, 5), (2, 7), (3, 5), (4, 7)])
def test_every_panel_tab_shows_reaches_the_terminal(tmp_path, players, seed):
    """Tab through every panel twice: each is drawn on the terminal as it comes (the tracks
    were blank, the scrollbar alone drawn beside them)."""

    async def go():
        app = create_app(_config(players, seed), save_dir=tmp_path)
        seen = TerminalSeen(app, *SIZE)
        async with app.run_test(size=SIZE) as pilot:
            await app_settled(app)
            tabs = nc_screen(app).query_one(PanelTabs)
            for name, _ in [*PANELS[1:], *PANELS]:
                await pilot.press("tab")
                await app_settled(app)
                assert tabs.shown == name
                pane = _pane(seen)
                assert pane.strip(), f"{name}: a blank pane on the terminal"
                if name in FIRST_WORDS:
                    assert FIRST_WORDS[name] in pane, f"{name}:\n{pane}"

    asyncio.run(go())


@pytest.mark.parametrize("players, seed", [(2, 5), (3, 7)])
@pytest.mark.parametrize("panel", ["hand", "tracks"])
def test_the_panel_shown_is_drawn_after_each_hand_off(tmp_path, players, seed, panel):
    """The hand (or the tracks) shown, 30 decisions by the keys through the hand-offs: after
    each hand-off the terminal shows the next person's hand (it showed a blank pane)."""
    handoffs: list[object] = []

    async def go():
        app = create_app(_config(players, seed), save_dir=tmp_path)
        seen = TerminalSeen(app, *SIZE)

        def check(decision_panel) -> None:
            pane = _pane(seen)
            assert pane.strip() and FIRST_WORDS[panel] in pane, f"after {len(handoffs)} hand-offs:\n{pane}"

        async with app.run_test(size=SIZE) as pilot:
            await app_settled(app)
            while nc_screen(app).query_one(PanelTabs).shown != panel:
                await pilot.press("tab")
                await app_settled(app)
            await play_by_keys(app, pilot, 30, on_decision=check, on_handoff=handoffs.append)
        assert len(handoffs) >= 3

    asyncio.run(go())
