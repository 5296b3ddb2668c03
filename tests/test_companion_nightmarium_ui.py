"""The Nightmarium screen driven by Pilot at 80x24 and 120x40: from the title screen, a game
against a computer player; options chosen by digit and Enter; hot-seat hands behind the shared
hand-off screen, which a digit does not lift, each person's log written through their eyes."""

from __future__ import annotations

import asyncio

import pytest

from nctui.games.nightmarium.cards import card
from nctui.games.nightmarium.state import Draw, NightmariumConfig, Play
from nctui.games.nightmarium.ui.screen import NightmariumScreen
from nctui.platform import registry
from nctui.ui.screens.handoff import HandoffScreen
from nctui.ui.screens.options_new_game import CompanionNewScreen
from nctui.ui.screens.shell import GameShell
from nctui.ui.widgets.log import GameLog
from tests.helpers import app_settled, companion_app, narrow, plain, screen_of, settle, wait_for

NIGHTMARIUM = registry.game("nightmarium")


def _app(tmp_path, config: NightmariumConfig | None = None):
    return companion_app(tmp_path, NIGHTMARIUM, config)


def _text(app, name: str) -> str:
    return plain(app, name)


def _log(app) -> str:
    return "\n".join(strip.text for strip in app.screen.query_one(GameLog).lines)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_a_game_against_the_computer_from_the_title(tmp_path, size) -> None:
    async def go() -> None:
        app = _app(tmp_path)
        async with app.run_test(size=size) as pilot:
            await pilot.press("m")
            await pilot.pause()
            assert isinstance(app.screen, CompanionNewScreen)
            await pilot.press("up", "enter")  # Start (1 person, 1 computer)
            await pilot.pause()
            assert isinstance(app.screen, NightmariumScreen)
            hand = app.game.store.state.players[0].hand
            assert len(hand) == 5 and "Legs (" in _text(app, "nm-hand")
            await pilot.press("1")  # Draw a card
            await pilot.pause()
            assert len(app.game.store.state.players[0].hand) == 6
            await pilot.press("enter")  # the highlighted option: Draw a card again
            assert await settle(pilot, lambda: app.game.store.state.turn == 0 and app.game.store.state.turns == 2, 20)
            await app_settled(pilot.app)
            assert "Your turn" in _text(app, "nm-status")  # the person at the keyboard is "you"
            assert any("Chosen: Draw a card" in m for m in app.seen)

    asyncio.run(go())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_hot_seat_hands_stay_hidden_behind_the_shared_hand_off_until_enter(tmp_path, size) -> None:
    """Two people: the turn passes through the shared hand-off screen (the seat named by the
    game's seat labels, the choice before echoed); a digit neither lifts it nor chooses; Enter
    shows the next person's hand only, and their log reads the other's draws without the cards."""

    async def go() -> None:
        app = _app(tmp_path, NightmariumConfig(seats=("human", "human"), levels=("planner", "planner"), seed=3))
        async with app.run_test(size=size) as pilot:
            game = narrow(app.screen, GameShell)
            await pilot.press("1", "1")  # Player 1 draws twice: Player 2's turn
            await wait_for(pilot, lambda: isinstance(app.screen, HandoffScreen), "the hand-off to Player 2")
            handoff = app.screen
            assert isinstance(handoff, HandoffScreen) and handoff.seat == 1
            assert handoff.who.plain == "2 Player 2" and handoff.echo == "Player 1 chose: Draw a card"
            before = app.game.store.state
            await pilot.press("1")  # a digit neither lifts the hand-off nor chooses
            await app_settled(app)
            assert app.game.store.state is before and app.screen is handoff
            await pilot.press("enter")
            await wait_for(pilot, lambda: screen_of(app) is game, "Player 2's game")
            await app_settled(app)
            assert screen_of(app) is game and game.viewer == 1
            state = app.game.store.state
            names = _text(app, "nm-hand")
            assert all(card(c).name in names for c in state.players[1].hand)
            mine = {card(x).name for x in state.players[1].hand}
            assert not any(card(c).name in names for c in state.players[0].hand if card(c).name not in mine)
            log = _log(app)
            assert log.count("Player 1 draws 1 card.") == 2  # Player 1's draws, as Player 2 may see them
            assert not any(card(c).name in log for c in state.players[0].hand if card(c).name not in mine)
            await pilot.press("1", "1")  # Player 2 draws twice: back to Player 1
            await wait_for(pilot, lambda: isinstance(app.screen, HandoffScreen), "the hand-off back to Player 1")
            back = app.screen
            assert isinstance(back, HandoffScreen) and back.seat == 0
            # since Player 1 last looked, in words anyone may read
            assert back.news.count("Player 2 draws 1 card.") == 2 and "— Player 2's turn." in back.news
            await pilot.press("enter")
            await wait_for(pilot, lambda: screen_of(app) is game, "Player 1's game")
            await app_settled(app)
            log = _log(app)  # Player 1's own log, as they left it: their cards named, they are "you"
            drawn = [card(c).name for c in app.game.store.state.players[0].hand[-2:]]
            assert all(f"You draw {name}." in log for name in drawn)
            assert log.count("Player 2 draws 1 card.") == 2

    asyncio.run(go())


def test_a_play_from_the_options_builds_a_creature(tmp_path) -> None:
    async def go() -> None:
        app = _app(tmp_path, NightmariumConfig(seats=("human", "bot"), levels=("planner", "random"), seed=5))
        async with app.run_test(size=(80, 24)) as pilot:
            options = app.screen._shown[1]
            index = next(i for i, a in enumerate(options) if isinstance(a, Play) and a.part == "legs")
            assert Draw() in options and index < 9
            await pilot.press(str(index + 1))
            await pilot.pause()
            state = app.game.store.state
            assert len(state.players[0].creatures) == 1 and state.actions_left == 1
            assert "  1 " in _text(app, "nm-players")  # Creature 1, its legion letters and abilities

    asyncio.run(go())


# -- issue 39, companion games: what a new player trips on -------------------------------------------


def _position_app(tmp_path, state):
    """The app on a prepared position (seat 0 a person, seat 1 a computer)."""
    from nctui.games.nightmarium.state import StepResult
    from nctui.platform.session import Session
    from nctui.platform.store import Store
    from nctui.ui.app import create_app

    store = Store(initial=StepResult(state=state, events=()), game=NIGHTMARIUM)
    return create_app(Session(store, folder=tmp_path, autosave=False), save_dir=tmp_path, bot_delay=0.0)


def _executioner_position():
    """Seat 0 completes a Creature whose head is an Executioner; seat 1 has a Creature of two."""
    from msgspec.structs import replace

    from nctui.games.nightmarium.state import Creature, Player
    from tests.test_companion_nightmarium import Cards, position

    k = Cards()
    legs, torso = k.get("legs", "none", "homunculi"), k.get("torso", "none", "insektoids")
    head = k.get("head", "executioner", "necronauts")
    theirs = (k.get("legs", "weeper"), k.get("torso", "scavenger"))
    state = position(
        Player(hand=(head,), creatures=(Creature(0, (legs, torso)),), next_id=1),
        Player(hand=(k.get("legs"),), creatures=(Creature(0, theirs),), next_id=1),
        (),
    )
    config = replace(state.config, seats=("human", "bot"))
    return replace(state, config=config), head, theirs


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_every_creature_shows_its_abilities_and_a_target_says_what_it_gives_up(tmp_path, size) -> None:
    """Issue 39 (Nightmarium): the opponents' Creatures read with their abilities in words (at
    120x40 their cards by name too), not "1:NNC*"; a head that completes a Creature says which
    abilities it sets off; an Executioner's target names the card it takes and the Creature."""

    async def go() -> None:
        state, head, theirs = _executioner_position()
        app = _position_app(tmp_path, state)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            players = _text(app, "nm-players")
            assert "Player 2 (computer)" in players and "Weeper, Scavenger" not in players
            assert "Scavenger, Weeper" in players  # performed head first: torso, then legs
            assert (card(theirs[0]).name in players) == (size == (120, 40))
            options = app.screen._shown[1]
            index = next(i for i, a in enumerate(options) if isinstance(a, Play) and a.card == head)
            words = app.screen.describe_option(options[index])
            assert words.endswith(": completes it (Executioner)")
            await pilot.press(str(index + 1))
            await pilot.pause()
            target = app.screen.describe_option(app.screen._shown[1][0])
            assert target.startswith(f"Take {card(theirs[1]).name} (") and "Player 2's Creature 1" in target
            assert f"(2 of 3: {card(theirs[0]).name} legs, {card(theirs[1]).name} torso)" in target
            assert "Now: Executioner, take the top card" in _text(app, "nm-chain")

    asyncio.run(go())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_you_are_you_and_the_opponents_turn_is_summed_up(tmp_path, size) -> None:
    """Issue 39 (Nightmarium): the person at the keyboard is "you" (status, Creatures, log); when
    their turn comes back, "Since your last turn" sums up each other player's turn in a line
    (the log has every step)."""

    async def go() -> None:
        config = NightmariumConfig(seats=("human", "bot", "bot"), levels=("planner", "greedy", "greedy"), seed=5)
        app = _app(tmp_path, config)
        async with app.run_test(size=size) as pilot:
            game = app.game
            assert "Your turn: 2 actions left" in _text(app, "nm-status")
            assert _text(app, "nm-players").startswith(">You ")
            await pilot.press("1", "1")  # draw twice: the computers play their turns
            assert await settle(pilot, lambda: game.deciding_seat() == 0 and game.thinking is None, 30)
            await app_settled(pilot.app)
            news = _text(app, "nm-news")
            lines = news.split("\n")
            assert any(line.startswith("Player 2: ") for line in lines), news
            assert any(line.startswith("Player 3: ") for line in lines), news
            assert "Player 1" not in news
            assert "You draw " in _log(app) and "— Your turn." in _log(app)
            await pilot.press("1")  # the summary stays through the person's own turn
            await pilot.pause()
            assert _text(app, "nm-news") == news

    asyncio.run(go())


def test_the_header_fits_80_columns_and_120x40_gives_the_log_the_room(tmp_path) -> None:
    """Issue 39 (Nightmarium): the header is cut at 80x24 no more (what does not fit is left
    out, the game's name and the turn first); at 120x40 the decision takes the room it needs, the
    abilities are explained beside it and the log has the rest (it was ~70 % an empty box)."""

    async def go() -> None:
        app = _app(tmp_path, NightmariumConfig(seats=("human", "bot"), levels=("planner", "random"), seed=5))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            status = _text(app, "nm-status")
            assert status.startswith("Nightmarium · Your turn: 2 actions left") and len(status) <= 78
        app = _app(tmp_path, NightmariumConfig(seats=("human", "bot"), levels=("planner", "random"), seed=5))
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = app.screen
            options = screen.query_one("#nm-options")
            log = screen.query_one("#nm-log")
            assert options.size.height <= len(screen._shown[1]) + 2 < log.size.height
            assert "Executioner: take the top card" in _text(app, "nm-abilities")
            assert "undo: practice" in _text(app, "nm-status")

    asyncio.run(go())


def test_nightmarium_creatures_snapshot(snap_compare, tmp_path) -> None:
    """Issue 39 (Nightmarium): the Creatures with their abilities, the legend of legions, the
    Executioner's target in words (80x24)."""
    state, head, _ = _executioner_position()
    app = _position_app(tmp_path, state)

    async def complete(pilot) -> None:
        await settle(pilot, lambda: isinstance(app.screen, NightmariumScreen) and bool(app.screen._shown[1]))
        options = app.screen._shown[1]
        index = next(i for i, a in enumerate(options) if isinstance(a, Play) and a.card == head)
        await pilot.press(str(index + 1))
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=complete)


def test_the_hand_off_news_is_in_the_words_of_the_person_it_is_for(tmp_path) -> None:
    """Issue 39 (Nightmarium): two people at one keyboard: the hand-off's news calls the person
    taking the keyboard "you" and names the other; each person's log calls them "you"."""

    async def go() -> None:
        app = _app(tmp_path, NightmariumConfig(seats=("human", "human"), levels=("planner", "planner"), seed=3))
        async with app.run_test(size=(80, 24)) as pilot:
            game = app.screen
            await pilot.press("1", "1")  # Player 1 draws twice: Player 2's turn
            await wait_for(pilot, lambda: isinstance(app.screen, HandoffScreen), "the hand-off to Player 2")
            await pilot.press("enter")
            await wait_for(pilot, lambda: screen_of(app) is game, "Player 2's game")
            await app_settled(app)
            assert "— Your turn." in _log(app) and "Player 1 draws 1 card." in _log(app)
            await pilot.press("1", "1")  # Player 2 draws twice: back to Player 1
            await wait_for(pilot, lambda: isinstance(app.screen, HandoffScreen), "the hand-off back to Player 1")
            back = app.screen
            assert isinstance(back, HandoffScreen) and back.seat == 0
            assert "— Your turn." in back.news and "Player 2 draws 1 card." in back.news
            assert back.news.count("Player 2 draws 1 card.") == 2 and not any("Player 1" in line for line in back.news)
            await pilot.press("enter")
            await wait_for(pilot, lambda: screen_of(app) is game, "Player 1's game")
            await app_settled(app)
            news = _text(app, "nm-news")
            assert news.startswith("Player 2: drew 2 cards"), news

    asyncio.run(go())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_with_five_players_every_panel_is_reached_and_scrolled_from_the_keyboard(tmp_path, size) -> None:
    """Five players at 80x24 do not fit: the Creatures, the hand, the news and the log are each
    taller than their box. Tab reaches each of them (marked by its border), End shows its last
    line and Home its first, and the digits still choose from any of them."""

    async def go() -> None:
        config = NightmariumConfig(seats=("human", *("bot",) * 4), levels=("planner", *("greedy",) * 4), seed=5)
        app = _app(tmp_path, config)
        async with app.run_test(size=size) as pilot:
            game = app.game
            for _ in range(6):  # a few rounds: Creatures on the table, news and a long log
                await pilot.press("1")
                assert await settle(pilot, lambda: game.deciding_seat() == 0 and game.thinking is None, 60)
            await app_settled(pilot.app)
            screen = app.screen
            overflowing = 0
            for panel_id in ("nm-players-box", "nm-hand-box", "nm-news-box", "nm-log"):
                panel = screen.query_one(f"#{panel_id}")
                if not panel.display:
                    continue
                for _ in range(8):
                    if app.focused is panel:
                        break
                    await pilot.press("tab")
                    await pilot.pause()
                assert app.focused is panel, (panel_id, app.focused)
                overflowing += panel.max_scroll_y > 0
                await pilot.press("end")
                await pilot.pause()
                assert panel.scroll_y == panel.max_scroll_y, panel_id
                await pilot.press("home")
                await pilot.pause()
                assert panel.scroll_y == 0, panel_id
            if size == (80, 24):
                assert overflowing >= 3  # the test reached what did not fit
            turn = game.state_id
            await pilot.press("1")  # a digit chooses from a panel too
            assert await settle(pilot, lambda: game.state_id > turn)

    asyncio.run(go())
