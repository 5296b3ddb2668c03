"""Whole stretches of play through the real keys, driven by Pilot: a full turn with a reaction
(hot-seat), a conflict between two people (the face-down cards stay hidden from the other
seat until the reveal), and a solo game from the Title screen to the King's first turn."""

from __future__ import annotations

import asyncio
from pathlib import Path

from nctui.games.nightmare_cathedral.describe import words_for
from nctui.games.nightmare_cathedral.engine import GameConfig, board as rules
from nctui.games.nightmare_cathedral.engine.flow import StepResult
from nctui.games.nightmare_cathedral.scenarios import load_scenario_result
from nctui.games.nightmare_cathedral.ui.screens.conflict import ConflictScreen
from nctui.games.nightmare_cathedral.ui.screens.game import GameScreen
from nctui.games.nightmare_cathedral.ui.screens.king_turn import KingTurnScreen
from nctui.games.nightmare_cathedral.ui.screens.new_game import NewGameScreen
from nctui.games.nightmare_cathedral.ui.widgets.players import PlayersView
from nctui.games.nightmare_cathedral.ui.widgets.status import StatusLine
from nctui.platform import saves
from nctui.platform.session import open_session
from nctui.platform.store import Store
from nctui.ui.app import create_app
from nctui.ui.screens.handoff import HandoffScreen
from nctui.ui.widgets.decision import DecisionPanel
from nctui.ui.widgets.log import GameLog
from tests.helpers import GuardClock, app_settled, nc_screen, present, settle, wait_for

SMALL, BIG = (80, 24), (120, 40)
HOTSEAT = GameConfig(players=2, seats=("human", "human"), seed=42)  # Blue (seat 1) sets up first
RED, BLUE = 0, 1
SAVES = Path(__file__).resolve().parent.parent / "nctui" / "games" / "nightmare_cathedral" / "practice" / "positions"


def run(coro):
    return asyncio.run(coro)


# ---------------------------------------------------------------------------------------------
# Reading the screen, pressing the keys


def screen_text(app) -> str:
    """Every character on the terminal, as the player sees it (the screen and any screen
    showing through under a modal one)."""
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    return "\n".join("".join(segment.text for strip in line for segment in strip) for line in update.strips)


def log_text(app) -> str:
    """Every line the game log holds (shown or not)."""
    return "\n".join(strip.text for strip in app.game_screen().query_one(GameLog).lines)


def status_text(app) -> str:
    return app.game_screen().query_one(StatusLine).render().plain


def prompt_of(app):
    screen = app.screen
    assert isinstance(screen, GameScreen), f"the game screen is not shown: {screen}"
    prompt = screen.query_one(DecisionPanel).prompt
    assert prompt is not None
    return prompt


async def choose(pilot, words: str, *, arrows: bool = False) -> str:
    """Pick the one option of the decision panel that contains ``words``, with the keys a
    player would press: → to its page, then its digit (``arrows``: ↓ to it, then Enter).
    Returns the option's text."""
    panel = pilot.app.screen.query_one(DecisionPanel)
    options = prompt_of(pilot.app).options
    found = [i for i, option in enumerate(options) if words in option]
    assert len(found) == 1, f"{words!r} should name one option of {options}"
    index = found[0]
    if arrows:
        assert panel.highlight == 0  # a new decision starts at its first option
        await pilot.press(*["down"] * index)
        assert panel.highlight == index
        await pilot.press("enter")
    else:
        page = panel.page_of(index)
        for _ in range(page - panel.page()):
            await pilot.press("right")
        assert panel.page() == page
        await pilot.press(str(index - panel.page_start() + 1))
    await app_settled(pilot.app)
    return options[index]


async def hand_off(pilot, seat: int) -> None:
    """The hand-off screen to ``seat``: nothing of its view is drawn before Enter."""
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, HandoffScreen), f"the hand-off to seat {seat}")
    screen = app.screen
    assert isinstance(screen, HandoffScreen) and screen.seat == seat, f"no hand-off to seat {seat}: {screen}"
    assert app.game_screen().viewer != seat
    await pilot.press("enter")
    # the game, or first the conflict panel of a conflict this person took part in
    await wait_for(pilot, lambda: isinstance(app.screen, GameScreen | ConflictScreen), f"seat {seat}'s game")
    await app_settled(app)
    assert isinstance(app.screen, GameScreen | ConflictScreen) and app.game_screen().viewer == seat


async def show_log(pilot) -> None:
    """l: the log is the panel shown (80x24 shows one panel at a time)."""
    if pilot.app.game_screen()._shown_panel != "log":
        await pilot.press("l")
        await app_settled(pilot.app)


# ---------------------------------------------------------------------------------------------
# A full turn with a reaction


async def set_up_hotseat(pilot) -> None:
    """Seed 42's setup by the keys: Blue conquers Weeping Orchard and Ash Nave and dreams on
    Dusk; Red conquers Bell Hollow and Salt Spire and dreams on Vigil (next to Fortify)."""
    store = pilot.app.store
    assert prompt_of(pilot.app).title.plain.startswith(" B Blue ")
    await pilot.press("1")  # the Turn track starts at position 1
    await choose(pilot, "Weeping Orchard")
    await hand_off(pilot, RED)
    await pilot.press("1", "1")  # the first area offered, twice: Bell Hollow, then Salt Spire
    await app_settled(pilot.app)
    await hand_off(pilot, BLUE)
    await choose(pilot, "Ash Nave")
    await choose(pilot, "Dusk")
    await hand_off(pilot, RED)
    await choose(pilot, "Vigil")
    await hand_off(pilot, BLUE)
    state = store.state
    owners = {a.id: [s for s, n in enumerate(a.followers) if n] for a in state.areas if any(a.followers)}
    assert owners == {"weeping-orchard": [BLUE], "ash-nave": [BLUE], "bell-hollow": [RED], "salt-spire": [RED]}
    assert [p.dreamer for p in state.players] == ["vigil", "dusk"]
    assert state.phase == "turn" and state.active == BLUE and state.turn_number == 1


def test_a_full_turn_with_a_reaction(tmp_path):
    async def go():
        app = create_app(HOTSEAT, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=SMALL) as pilot:
            store = app.store
            await set_up_hotseat(pilot)
            assert status_text(app).startswith("Turn 1 · Time I") and "B Blue decides" in status_text(app)

            # Blue's Day action, Fortify: one Fort level in Weeping Orchard, paid there.
            before = rules.area(store.state, "weeping-orchard")
            await choose(pilot, "Fortify: perform it")
            assert store.state.players[BLUE].dreamer == "fortify"
            await choose(pilot, "Add a Fort level in Weeping Orchard")
            await choose(pilot, "Remove a Follower from Weeping Orchard")
            await choose(pilot, "Done")
            orchard = rules.area(store.state, "weeping-orchard")
            assert (orchard.fort_owner, orchard.fort_levels) == (BLUE, before.fort_levels + 1)
            assert orchard.followers[BLUE] == before.followers[BLUE] - 1
            await choose(pilot, "Keep the rest", arrows=True)  # the Dream cards

            # Red reacts, after the hand-off (which names the decision, and nothing private).
            assert store.state.phase == "reactions" and store.state.decision.seat == RED
            assert "React to Fortify" in screen_text(app)
            await hand_off(pilot, RED)
            prompt = prompt_of(app)
            assert "R Red" in prompt.title.plain and "React to Fortify" in prompt.title.plain
            assert any("Dissent" in o for o in prompt.options) and "Pass" in prompt.options
            hollow = rules.area(store.state, "bell-hollow")
            assert await choose(pilot, "Conform") == (
                "Conform (Fortify): remove 2 Followers to add 1 Fort level in an area you control"
            )
            # The Conform part of Fortify: a Fort level of Red's own, for 2 Followers.
            assert store.state.decision.kind == "build_fort_level" and store.state.decision.seat == RED
            await choose(pilot, "Add a Fort level in Bell Hollow")
            await choose(pilot, "Remove a Follower from Bell Hollow")
            assert store.state.turn_number == 1  # one more Follower to pay
            await choose(pilot, "Remove a Follower from Bell Hollow")
            hollow_after = rules.area(store.state, "bell-hollow")
            assert (hollow_after.fort_owner, hollow_after.fort_levels) == (RED, hollow.fort_levels + 1)
            assert hollow_after.followers[RED] == hollow.followers[RED] - 2

            # The turn ended; Red's turn begins (Red is already at the keyboard: no hand-off).
            state = store.state
            assert (state.turn_number, state.active, state.phase) == (2, RED, "turn")
            assert state.decision.kind == "choose_day" and state.decision.seat == RED
            assert isinstance(app.screen, GameScreen)
            status = status_text(app)
            assert status.startswith("Turn 2 · Time I") and "R Red decides" in status
            assert "Move your Dreamer to a Day space" in prompt_of(app).title.plain
            await show_log(pilot)
            log = log_text(app)
            order = [
                "Blue moves its Dreamer to Fortify and performs it",
                "Red conforms",
                "Turn 2: Red is the active player",
            ]
            assert all(line in log for line in order), log
            assert [log.index(line) for line in order] == sorted(log.index(line) for line in order)
            assert "Turn 2: Red is the active player" in screen_text(app)

    run(go())


# ---------------------------------------------------------------------------------------------
# A conflict


GREEN = 0  # the conflict example: Green (seat 0) attacks Blue (seat 1) in the Ash Nave
GREEN_CARDS = ("Bell of the Waking Hour", "Mortar of Bone")  # 3 Attacks, 1 Defence
BLUE_CARDS = ("Mirror of Plans", "Cradle Hymn")  # 3 Attacks, 1 Defence


def conflict_example() -> Store:
    """The practice position conflict-example-2p.toml, two people at one keyboard: Green is about to choose
    its Day action, the Maneuver that leads to the conflict in the Ash Nave."""
    state, events = load_scenario_result(SAVES / "conflict-example-2p.toml")
    assert state.config.seats == ("human", "human")
    return Store(initial=StepResult(state=state, events=tuple(events)))


async def everything_blue_may_look_at(pilot) -> list[str]:
    """The screen's text in every view Blue can open while choosing its cards: each panel
    (Tab), every card of the inspector (i, then →), the timeline (t)."""
    app = pilot.app
    seen = [screen_text(app)]
    for _ in range(6):  # the six panels (small terminals show one at a time)
        await pilot.press("tab")
        await app_settled(pilot.app)
        seen.append(screen_text(app))
    await pilot.press("i")
    await app_settled(pilot.app)
    cards = len(app.screen.entries)
    assert cards > 5
    for _ in range(cards):
        seen.append(screen_text(app))
        await pilot.press("right")
        await app_settled(pilot.app)
    await pilot.press("i")
    await pilot.press("t")
    await app_settled(pilot.app)
    seen.append(screen_text(app))
    assert "Play a combat card face down" in seen[-1]  # the timeline, hiding which card
    await pilot.press("t")
    await app_settled(pilot.app)
    assert isinstance(app.screen, GameScreen)
    return seen


def panel_text(app) -> str:
    """The conflict panel's lines (the log behind it, at 120x40, says who won already)."""
    assert "Conflict in Ash Nave" in screen_text(app)  # the panel is drawn, its title in view
    return " ".join(line.strip() for line in app.screen.text().plain.splitlines())


async def read_conflict(pilot, seat: int) -> None:
    """The conflict panel of the conflict example, read stage by stage by ``seat``: the sides
    and the cards face down, Space: the reveal, Space: damage, Space: the winner, Space: closed."""
    app = pilot.app
    assert isinstance(app.screen, ConflictScreen), f"no conflict panel for seat {seat}: {app.screen}"
    text = panel_text(app)
    assert "Conflict in Ash Nave: Green against Blue" in text
    assert "Green 2 Followers against Blue 1 Follower, Fort 2" in text
    assert "Green plays card 2 face down" in text and "Blue plays card 2 face down" in text
    assert "reveals" not in text and "wins" not in text
    mine, theirs = (GREEN_CARDS, BLUE_CARDS) if seat == GREEN else (BLUE_CARDS, GREEN_CARDS)
    assert mine[0] in text and not any(card in text for card in theirs)  # face down: only one's own
    await pilot.press("space")
    await app_settled(pilot.app)
    text = panel_text(app)
    assert f"Green reveals {GREEN_CARDS[0]}" in text and "= 3⚔ 1⛨" in text
    assert all(card in text for card in GREEN_CARDS + BLUE_CARDS)
    assert "takes" not in text
    await pilot.press("space")
    await app_settled(pilot.app)
    text = panel_text(app)
    assert "Green takes 2 damage" in text and "Blue loses 1 Fort level" in text and "wins" not in text
    await pilot.press("space")
    await app_settled(pilot.app)
    text = panel_text(app)
    assert "Blue wins: it has the Fort there" in text
    assert "After: Green 0 Followers · Blue 0 Followers, Fort 1" in text
    await pilot.press("space")
    await app_settled(pilot.app)
    assert not isinstance(app.screen, ConflictScreen)  # closed: the game, or the hand-off that was due


def test_the_handoffs_undo_after_play_continue_is_the_one_offered_before_quitting(tmp_path):
    """Issue 39.7: Blue chose, the hand-off to Red offered "u: take back the last decision" and
    Blue quit there (q). Continued, the first hand-off's u takes Blue's decision back as it would
    have (it was refused: the keyboard was taken to be Red's, "Blue has decided since"); the
    strict policy still refuses what it refused (Blue's first decision revealed a card)."""

    async def until_quit() -> tuple[Path, int]:
        app = create_app(HOTSEAT, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=SMALL) as pilot:
            store = app.store
            await pilot.press("1")  # the Turn track (it reveals Blue's starting Upgrade)
            await choose(pilot, "Weeping Orchard")
            assert isinstance(app.screen, HandoffScreen) and app.screen.seat == RED
            assert store.can_undo(BLUE) and not store.can_undo(RED)
            decided = store.state_id
            await pilot.press("q")  # save and quit: the app stops
            await pilot.pause()
        return saves.autosave_path(present(app.game).game_id, tmp_path), decided

    async def continued(path: Path, decided: int) -> None:
        app = create_app(open_session(path, folder=tmp_path), save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=SMALL) as pilot:
            store = app.store
            assert await settle(pilot, lambda: isinstance(app.screen, HandoffScreen))
            assert isinstance(app.screen, HandoffScreen) and app.screen.seat == RED
            await pilot.press("u")
            assert await settle(pilot, lambda: store.state_id == decided - 1)
            assert isinstance(app.screen, GameScreen) and app.game_screen().viewer == BLUE
            await pilot.press("u")  # Blue's first decision showed a card: never taken back
            await app_settled(pilot.app)
            assert store.state_id == decided - 1

    path, decided = run(until_quit())
    run(continued(path, decided))


def test_a_conflict_between_two_people(tmp_path):
    async def go(size):
        store = conflict_example()
        app = create_app(store, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=size) as pilot:
            await app_settled(pilot.app)
            assert app.game_screen().viewer == GREEN
            await choose(pilot, "Maneuver: perform it")
            await choose(pilot, "Done")  # keep the MP: Green's Followers stay in the Ash Nave
            await choose(pilot, "Conflict in Ash Nave: Green against Blue")
            assert store.state.decision.kind == "play_combat_card" and store.state.decision.seat == GREEN
            # each card offered says what it brings to the fight: its Attacks and Defences
            assert "Play Mortar of Bone face down (1⚔ 1⛨)" in prompt_of(app).options
            await choose(pilot, GREEN_CARDS[0])
            # Green sees its own face-down card (so the check below can tell a leak).
            await show_log(pilot)
            assert f"Green plays {GREEN_CARDS[0]} face down" in screen_text(app)
            await choose(pilot, GREEN_CARDS[1])  # the second card: Blue's turn to play

            assert store.state.decision.seat == BLUE and store.state.decision.kind == "play_combat_card"
            seen = [screen_text(app)]  # the hand-off
            await hand_off(pilot, BLUE)
            seen += await everything_blue_may_look_at(pilot)
            for text in seen:
                for card in GREEN_CARDS:
                    assert card not in text, f"Green's face-down card {card!r} is shown to Blue:\n{text}"
            await show_log(pilot)
            assert "Green plays a card face down" in screen_text(app)
            assert not any(card in log_text(app) for card in GREEN_CARDS)

            await choose(pilot, BLUE_CARDS[0])
            await choose(pilot, BLUE_CARDS[1])
            # The reveal: both sides deal 2 damage; Blue keeps 1 Fort level and wins.
            nave = rules.area(store.state, "ash-nave")
            assert nave.followers == (0, 0) and (nave.fort_owner, nave.fort_levels) == (BLUE, 1)
            assert store.state.players[BLUE].conflicts_won == 1
            await read_conflict(pilot, BLUE)  # Blue sees how it ended, then passes the keyboard
            await hand_off(pilot, GREEN)  # Green's Dream card to draw
            await read_conflict(pilot, GREEN)  # Green sees it too, after the hand-off
            await show_log(pilot)
            # the narrow log (80x24 on the right at 120x40) wraps the lines
            log = " ".join(line.rstrip() for line in log_text(app).splitlines())
            for line in (
                f"Green reveals {', '.join(GREEN_CARDS)}: 3 attack, 1 defence",
                f"Blue reveals {', '.join(BLUE_CARDS)}: 3 attack, 1 defence",
                "Green takes 2 damage",
                "Blue takes 2 damage",
                "Blue loses 1 Fort level",
                "Blue wins the conflict in Ash Nave",
            ):
                assert line in log, line
            assert "Blue wins the conflict" in screen_text(app).replace("\n", " ")

    run(go(SMALL))
    run(go(BIG))


# ---------------------------------------------------------------------------------------------
# The log written while hidden (80x24 shows one panel at a time)


def test_lines_logged_while_the_log_is_hidden_wrap_at_its_width(tmp_path):
    """l shows the log, l hides it; what is logged meanwhile (and the whole log, rewritten for
    the next person at a hand-off) is wrapped at the log's width once it is shown again, not
    folded at a narrow default."""

    async def go():
        app = create_app(HOTSEAT, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=SMALL) as pilot:
            await pilot.press("l", "l")  # the log once, then the board again
            await app_settled(pilot.app)
            await pilot.press("3")  # Blue starts the Turn track at position 3, logged while hidden
            await app_settled(pilot.app)
            await show_log(pilot)
            lines = [line.rstrip() for line in log_text(app).splitlines()]
            assert "Blue starts the Turn track at position 3 (☾M Moon)" in lines, lines
            await pilot.press("l")
            await app_settled(pilot.app)
            await choose(pilot, "Weeping Orchard")
            await hand_off(pilot, RED)  # the log is rewritten through Red's eyes, hidden
            await show_log(pilot)
            lines = [line.rstrip() for line in log_text(app).splitlines()]
            assert "Blue conquers Weeping Orchard" in lines, lines
            assert max(map(len, lines)) > 60  # wrapped at the log's width (78), not at 20
            assert "Blue conquers Weeping Orchard" in screen_text(app)

    run(go())


# ---------------------------------------------------------------------------------------------
# Solo: from the Title screen to the King's first turn


SOLO_SEED = "12345"


async def new_solo_game(pilot) -> None:
    """Title → New game (n) → Solo (→) → the seed typed in → start (ctrl+s)."""
    app = pilot.app
    await pilot.press("n")
    await app_settled(pilot.app)
    assert isinstance(app.screen, NewGameScreen) and app.focused.id == "mode"
    await pilot.press("right")  # Hot-seat → Solo against the King
    for _ in range(20):
        if app.focused.id == "seed":
            break
        await pilot.press("down")
    assert app.focused.id == "seed"
    await pilot.press(*SOLO_SEED)  # the field's text is selected on focus: typing replaces it
    await pilot.press("ctrl+s")
    await app_settled(pilot.app)
    config = app.store.state.config
    assert (config.players, config.seats, config.seed) == (1, ("human", "king"), int(SOLO_SEED))
    assert isinstance(app.screen, GameScreen)


def test_a_solo_game_from_the_title_to_the_kings_first_turn(tmp_path):
    async def go():
        app = create_app(None, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=BIG) as pilot:
            await app_settled(pilot.app)
            await new_solo_game(pilot)
            store = app.store
            # Red's setup and first turn: Fortify, one level in its corner, Dreams kept.
            for option in (
                "position 1:",
                "Weeping Orchard",
                "Dusk",
                "Fortify: perform it",
                "Add a Fort level in Weeping Orchard",
                "Remove a Follower from Weeping Orchard",
                "Done",
            ):
                assert not isinstance(app.screen, KingTurnScreen)
                await choose(pilot, option)
            king_seat = store.state.king.seat
            assert store.state.turn_number == 1 and store.state.active != king_seat
            await choose(pilot, "Keep the rest")

            # The King's turn, already played by the engine, shown a step per Space.
            state = store.state
            assert state.turn_number == 2 and state.active == king_seat
            screen = app.screen
            assert isinstance(screen, KingTurnScreen)
            steps = len(screen.steps)
            assert steps >= 5 and screen.shown == 1
            die_at = next(i for i, s in enumerate(screen.steps) if s.kind == "king_horror_die")
            for shown in range(1, steps + 1):
                text = screen_text(app)
                assert f"The King's turn · step {shown} of {steps}" in text
                assert screen.steps[shown - 1].text[:60] in text  # the latest step is on screen
                assert ("the Horror Die:" in text) == (shown > die_at)
                assert ("Space: close" in text) == (shown == steps)
                await pilot.press("space")
                await app_settled(pilot.app)
            assert "The King takes Fortify" in log_text(app)

            # Back to Red's decision: its reaction to the King's Day action.
            assert isinstance(app.screen, GameScreen)
            decision = store.state.decision
            assert decision.seat != king_seat and decision.kind == "react"
            assert "React to" in prompt_of(app).title.plain
            assert "R Red decides" in status_text(app)

            # The King's panel: its Action cards' Cultists and its Dreams with theirs.
            king = present(store.state.king)
            words = words_for(store.state.pack)
            players = app.game_screen().query_one(PlayersView)
            panel = players.render().plain
            assert "K the King of Horrors" in panel
            for card_id, cultists in zip(king.dreams, king.dream_cultists):
                assert f"Dream {words.card(card_id)} {cultists} of " in panel
            assert sum(king.card_cultists) > 0
            for i, action in enumerate(words.pack.matrix.rondel):
                king_lines = panel.split("K the King of Horrors")[1].splitlines()
                line = next(x for x in king_lines if x.startswith(f"   {words.day_short(action)} "))
                assert f"Power {king.card_cultists[i] + len(king.tucked[i])}" in line
                assert f"c{king.day_cultists[i]}" in line, line  # the Cultists on its Day space
            # Tab to the Players panel, PgDn: the King's lines are on screen.
            while nc_screen(app)._shown_panel != "players":
                await pilot.press("tab")
            await pilot.press("pagedown")
            # drawn once the scroll is laid out: waited for (a busy machine draws it later)
            assert await settle(pilot, lambda: "K the King of Horrors" in screen_text(app))
            text = screen_text(app)
            assert f"Dream {words.card(king.dreams[0])}" in text

    run(go())


def test_conflict_panel_snapshot(snap_compare, tmp_path):
    """The conflict example's panel as Blue sees it once the conflict is over, every stage shown."""

    async def run_before(pilot):
        await app_settled(pilot.app)
        await choose(pilot, "Maneuver: perform it")
        await choose(pilot, "Done")
        await choose(pilot, "Conflict in Ash Nave: Green against Blue")
        for card in GREEN_CARDS:
            await choose(pilot, card)
        await hand_off(pilot, BLUE)
        for card in BLUE_CARDS:
            await choose(pilot, card)
        assert isinstance(pilot.app.screen, ConflictScreen)
        await pilot.press("a")
        await app_settled(pilot.app)

    assert snap_compare(
        create_app(conflict_example(), save_dir=tmp_path, bot_delay=0), terminal_size=SMALL, run_before=run_before
    )


def test_a_quick_double_press_neither_passes_the_keyboard_nor_chooses_for_the_next(tmp_path, monkeypatch):
    """Enter twice in a row: the first chooses, the second does not also pass the keyboard (the
    next person's hand stays hidden); on the other side, the press that passed the keyboard and
    a second one right after it do not also choose an option. Once the guard is over, keys work.

    The guards' clock is the test's (``GuardClock``): on a loaded machine two presses came further
    apart than any guard."""
    clock = GuardClock(monkeypatch)

    async def guard_over(pilot, shown: str | None = None) -> None:
        """The guard's time passed; then (the hand-off says so on its own timer) ``shown`` on screen."""
        clock.pass_guard()
        if shown is not None:
            assert await settle(pilot, lambda: shown in screen_text(pilot.app), wait=60), screen_text(pilot.app)

    async def go(size):
        store = conflict_example()
        app = create_app(store, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=size) as pilot:
            await app_settled(pilot.app)
            await choose(pilot, "Maneuver: perform it")
            await choose(pilot, "Done")
            await choose(pilot, "Conflict in Ash Nave: Green against Blue")
            await choose(pilot, GREEN_CARDS[0])
            options = prompt_of(app).options
            app.screen.query_one(DecisionPanel).highlight = next(
                i for i, o in enumerate(options) if GREEN_CARDS[1] in o
            )
            await pilot.press("enter", "enter")  # Green's last card, and a press too many
            await app_settled(pilot.app)
            assert isinstance(app.screen, HandoffScreen) and app.game_screen().viewer == GREEN
            assert "a moment" in screen_text(app)
            await guard_over(pilot, "when only Blue is looking")  # the keys line, once keys are taken
            decided = store.state_id
            await pilot.press("enter", "enter", "1")  # the hand-off, then two presses too many
            await app_settled(pilot.app)
            assert isinstance(app.screen, GameScreen) and app.game_screen().viewer == BLUE
            assert store.state_id == decided  # nothing chosen for Blue
            await guard_over(pilot)
            await pilot.press("1")
            await app_settled(pilot.app)
            assert store.state_id == decided + 1  # now the key chooses

    run(go(SMALL))
