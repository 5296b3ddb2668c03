"""The dice game's screen driven by Pilot at 80x24 and 120x40: from the title screen, a turn
chosen with digits (track, returns, resolve, rest) against a computer player."""

from __future__ import annotations

import asyncio

import pytest

from nctui.games.dreamers.state import DreamersConfig
from nctui.games.dreamers.ui.screen import DreamersScreen
from nctui.platform import registry
from nctui.ui.screens.options_new_game import CompanionNewScreen
from tests.helpers import app_settled, companion_app, plain, settle, wait_for

DREAMERS = registry.game("dreamers")


def _app(tmp_path, config: DreamersConfig | None = None):
    return companion_app(tmp_path, DREAMERS, config)


def _text(app, name: str) -> str:
    return plain(app, name)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_a_turn_from_the_title_against_the_computer(tmp_path, size) -> None:
    async def go() -> None:
        app = _app(tmp_path)
        async with app.run_test(size=size) as pilot:
            await pilot.press("d")
            await pilot.pause()
            assert isinstance(app.screen, CompanionNewScreen)
            await pilot.press("up", "enter")  # Start: you and one computer
            await pilot.pause()
            assert isinstance(app.screen, DreamersScreen)
            assert "Bag: D 20  E 20  I 20  F 20" in _text(app, "dr-table")
            await pilot.press("1")  # Light Sleep: four dreams drawn
            await pilot.pause()
            state = app.game.store.state
            assert state.phase == "return" and len(state.drawn) == 4
            assert "Drawn:" in _text(app, "dr-card")
            await pilot.press("1")
            await pilot.pause()
            await pilot.press("1")  # two returned: two rolled
            await pilot.pause()
            assert app.game.store.state.phase == "roll" and "Rolled:" in _text(app, "dr-card")
            await pilot.press("1")  # Resolve
            await pilot.pause()
            # the person's decisions (the first option each time: Rest comes before Dream Again)
            # until the computer has played a turn and it is the person's again; on the
            # computer's turn the person may have to decide too (its Shadow of Envy)
            game = app.game

            def my_turn_again() -> bool:
                state = game.store.state
                return state.phase == "over" or (state.turns >= 2 and state.turn == 0)

            def mine_to_decide() -> bool:
                return my_turn_again() or (game.deciding_seat() == 0 and game.thinking is None)

            for _ in range(60):
                await wait_for(pilot, mine_to_decide, "the person's decision, or their turn again")
                if my_turn_again():
                    break
                await pilot.press("1")
            assert await settle(pilot, my_turn_again)
            assert any(m.startswith("Chosen: ") for m in app.seen)

    asyncio.run(go())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_two_people_share_the_screen_with_no_hand_off(tmp_path, size) -> None:
    """Nothing of the dice game is hidden: two people at one keyboard decide in turn on one screen
    (no hand-off), the one deciding is the one looking and has the options."""

    async def go() -> None:
        app = _app(tmp_path, DreamersConfig(seats=("human", "human"), levels=("gambler", "gambler"), seed=5))
        async with app.run_test(size=size) as pilot:
            screen = app.screen
            for _ in range(60):
                if app.game.deciding_seat() != 0:
                    break
                await pilot.press("1")
                await pilot.pause()
                assert app.screen is screen  # never a hand-off
            assert app.game.deciding_seat() == 1
            await pilot.pause()
            assert app.screen is screen and screen.viewer == 1 and screen.options()
            assert "Player 2" in _text(app, "dr-status")

    asyncio.run(go())


# -- issue 39, companion games: what a new player trips on -------------------------------------------


def _position(phase: str, card, unresolved=()):
    """Seat 0 (a person; seat 1 a computer) with ``card`` on their Dreamer card, at ``phase`` of
    a turn on Light Sleep, the dreams taken from the bag."""
    from msgspec.structs import replace

    from nctui.games.dreamers import rules
    from nctui.games.dreamers.state import Seat

    config = DreamersConfig(seats=("human", "bot"), levels=("gambler", "random"), seed=5)
    state = rules.new_game(config).state
    used = [*card.power, *card.hunt, *card.exhaust, *(d for row in card.shadows for d in row), *unresolved]
    bag = tuple(n - sum(d.colour == c for d in used) for c, n in enumerate(state.bag))
    seats = (Seat(card=card), *state.seats[1:])
    state = replace(state, seats=seats, bag=bag, phase=phase, track=0, step=0, unresolved=tuple(unresolved))
    assert rules.problems(state) == []
    return state


def _position_app(tmp_path, state):
    from nctui.games.dreamers.state import StepResult
    from nctui.platform.session import Session
    from nctui.platform.store import Store
    from nctui.ui.app import create_app

    store = Store(initial=StepResult(state=state, events=()), game=DREAMERS)
    return create_app(Session(store, folder=tmp_path, autosave=False), save_dir=tmp_path, bot_delay=0.0)


def _rest_position():
    from nctui.games.dreamers.state import Card, Die

    card = Card(
        power=(Die(1, "double"),),
        hunt=(Die(3, "hunt"), Die(2, "hunt")),
        exhaust=(Die(0, "exhaust"),),
        shadows=((), (), (), (Die(3, "shadow"),)),
    )
    return _position("rest", card)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_a_table_of_each_colours_faces_and_the_letters_in_words(tmp_path, size) -> None:
    """Issue 39 (Dreamers and Nightmares): a table of each colour's six faces beside the card, with
    what the letters mean; the dreams rolled ("Rolled: DS E1") said in words under them."""
    from nctui.games.dreamers import words
    from nctui.games.dreamers.content import content
    from nctui.games.dreamers.state import Card, Die

    async def go() -> None:
        state = _position("roll", Card(power=(Die(1, "power"),)), (Die(0, "shadow"), Die(1, "power")))
        app = _position_app(tmp_path, state)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            faces = _text(app, "dr-faces")
            for colour, info in enumerate(content().colour):
                row = f"{'DEIF'[colour]} {info.name}"
                line = next(line for line in faces.split("\n") if line.startswith(row))
                assert line.split()[-6:] == [words.FACE_LETTERS[f] for f in info.faces]
            flat = " ".join(faces.split())
            legend = "1 Power 2 double Power H Hunt X Exhaust (X2 on its side)" if size == (120, 40) else "1/2 Power H"
            assert legend in flat and "S Shadow" in flat
            card = " ".join(_text(app, "dr-card").split())
            assert "Rolled: DS E1 = Shadow of the Depths, Power of Envy" in card

    asyncio.run(go())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_every_choice_of_the_rest_decision_says_it_is_a_rest(tmp_path, size) -> None:
    """Issue 39 (Dreamers and Nightmares): Rest's choices say they are Rest, and which dream a
    choice of one returns ("Rest: return only the Hunt of Primeval Fear (Hunt row)"); Dream
    Again says how many it draws; the card's rows read with the letters the table explains."""

    async def go() -> None:
        app = _position_app(tmp_path, _rest_position())
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            said = [app.screen.describe_option(a) for a in app.screen._shown[1]]
            assert said[0] == "Rest: return every dream on the card to the bag (Power stays)"
            assert "Rest: return only the Hunt of Primeval Fear (Hunt row)" in said
            assert "Rest: return only the Hunt of Imprisonment (Hunt row, #2)" in said
            assert said[-1] == "Dream Again: one step deeper (draw 5)"
            assert all(s.startswith(("Rest: ", "Dream Again")) for s in said)
            card = _text(app, "dr-card")
            assert "Hunt    2/4  FH IH" in card and "Exhaust 1/3  DX" in card
            table = _text(app, "dr-table")
            assert "Shadow → drown" in table and "You: 2 Power" in table

    asyncio.run(go())


def test_dreamers_faces_snapshot(snap_compare, tmp_path) -> None:
    """Issue 39 (Dreamers and Nightmares): the face table and its legend, the Rest decision in
    words (80x24)."""
    assert snap_compare(_position_app(tmp_path, _rest_position()), terminal_size=(80, 24))


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_log_says_you_and_shows_the_letters_of_the_dreams_rolled(tmp_path, size) -> None:
    """Issue 39 (Dreamers and Nightmares): log lines read for the person at the keyboard ("You
    draw 4 dreams: ..."), and a roll gives the letters the card shows, then the words ("You roll
    DS E1: Shadow of the Depths, Power of Envy.")."""
    from nctui.games.dreamers import words
    from nctui.games.dreamers.state import Die, Rolled
    from nctui.ui.widgets.log import GameLog

    rolled = Rolled(0, (Die(0, "shadow"), Die(1, "power")))
    assert words.describe_event(rolled, 0) == "You roll DS E1: Shadow of the Depths, Power of Envy."
    assert words.describe_event(rolled) == "Player 1 rolls DS E1: Shadow of the Depths, Power of Envy."

    async def go() -> None:
        app = _app(tmp_path, DreamersConfig(seats=("human", "bot"), levels=("gambler", "random"), seed=5))
        async with app.run_test(size=size) as pilot:
            await pilot.press("1")  # Light Sleep: four dreams drawn
            await pilot.pause()
            log = " ".join(" ".join(strip.text for strip in app.screen.query_one(GameLog).lines).split())
            assert "— Your turn." in log and "You draw 4 dreams: " in log and "Player 1" not in log

    asyncio.run(go())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_four_players_and_every_nightmare_fit_the_players_panel(tmp_path, size) -> None:
    """Issue 39 (Dreamers and Nightmares): with four players at 80x24 the players' panel still
    shows every player and all four Nightmare cards (the dreams' words are then in the log's
    roll only), through a whole turn's decisions."""
    from textual.widgets import Static

    async def go() -> None:
        config = DreamersConfig(seats=("human", "bot", "bot", "bot"), levels=("gambler",) * 4, seed=5)
        app = _app(tmp_path, config)
        async with app.run_test(size=size) as pilot:
            game = app.game
            for _ in range(6):
                await settle(pilot, lambda: game.deciding_seat() == 0 and game.thinking is None)
                await app_settled(pilot.app)
                table = app.screen.query_one("#dr-table", Static)
                lines = _text(app, "dr-table").split("\n")
                assert len(lines) == (9 if size == (80, 24) else 10) and lines[-1].startswith("F ")  # 120x40: a header
                assert table.content_region.height >= len(lines)
                await pilot.press("1")

    asyncio.run(go())
