"""Helpers for engine tests: play seeded random games through players' views."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from msgspec.structs import replace

from nctui.games.nightmare_cathedral.bots import RandomBot
from nctui.games.nightmare_cathedral.engine import (
    GameConfig,
    GameState,
    actions as A,
    apply,
    effects,
    flow,
    legal_actions,
    new_game,
    player_view,
    step,
    work as W,
)
from nctui.games.nightmare_cathedral.engine.actions import Action
from nctui.games.nightmare_cathedral.engine.config import SeatKind
from nctui.games.nightmare_cathedral.engine.state import AreaState
from nctui.games.nightmare_cathedral.engine.work import ActionDone, ReactionDone
from nctui.platform.store import Store

if TYPE_CHECKING:
    from nctui.games.nightmare_cathedral.ui.screens.game import GameScreen

T = TypeVar("T")


def present(value: T | None) -> T:
    """``value``, which the test expects to be there (not None), typed without the None."""
    assert value is not None, "expected a value, got None"
    return value


def narrow(value: object, kind: type[T]) -> T:
    """``value``, which the test expects to be a ``kind`` (a decision's work, an effect's step, an
    event, a widget), typed as one: reading its fields needs no guess at which member of a union it is."""
    assert isinstance(value, kind), f"expected a {kind.__name__}, got {type(value).__name__}: {value!r}"
    return value


def of_kind(values: Iterable[object], kind: type[T]) -> list[T]:
    """Those of ``values`` that are a ``kind`` (the events of one kind, typed as it)."""
    return [v for v in values if isinstance(v, kind)]


def fight(state: GameState) -> W.Fight:
    """The conflict being fought: the decision due is one of its steps."""
    work = state.work
    assert isinstance(work, W.FightWork), f"expected a step of a fight, got {work!r}"
    return work.fight


def all_of(values: Iterable[object], kind: type[T]) -> list[T]:
    """Every one of ``values``, each expected to be a ``kind`` (a decision's options, all of one kind)."""
    return [narrow(v, kind) for v in values]


def config(players: int = 2, seed: int = 0, **kw) -> GameConfig:
    bot: SeatKind = "bot"
    seats = (bot,) * players
    return GameConfig(players=players, seats=seats, seed=seed, **kw)


def random_game(players: int = 2, seed: int = 0, **kw) -> Iterator[tuple[GameState, Action | None]]:
    """Yield (state, action taken from it) along one game; the last state has action None."""
    res = new_game(config(players, seed, **kw))
    state = res.state
    bots = [RandomBot(seed * 10 + i) for i in range(len(state.players))]
    while state.decision is not None:
        seat = state.decision.seat
        action = bots[seat].choose(player_view(state, seat))
        yield state, action
        state = step(state, action).state
    yield state, None


def play(players: int = 2, seed: int = 0, **kw) -> tuple[GameState, list[Action]]:
    actions: list[Action] = []
    last = None
    for state, action in random_game(players, seed, **kw):
        last = state
        if action is not None:
            actions.append(action)
    return present(last), actions


def human_config(players: int = 2, seed: int = 1) -> GameConfig:
    """A hot-seat game of humans (the tests decide for them)."""
    human: SeatKind = "human"
    seats = (human,) * players
    return GameConfig(players=players, seats=seats, seed=seed)


def store_moves(store: Store, count: int, seed: int = 0) -> None:
    """Let random bots, each looking at its own view, make ``count`` decisions in ``store``."""
    bots = [RandomBot(seed + i) for i in range(len(store.state.players))]
    for _ in range(count):
        d = store.state.decision
        if d is None:
            return
        store.dispatch(bots[d.seat].choose(player_view(store.state, d.seat)), seen_state_id=store.state_id, seat=d.seat)


def through_setup(state: GameState) -> GameState:
    """Take the first option of every setup decision, up to the first turn."""
    while state.phase == "setup":
        state = apply(state, legal_actions(state)[0])
    return state


def first_turn(players: int = 2, seed: int = 0, **kw) -> GameState:
    """The first turn of a bots' game set up with the first option of every decision."""
    return through_setup(new_game(config(players, seed, **kw)).state)


def empty_areas(state: GameState) -> tuple[AreaState, ...]:
    """The state's areas with no units, no Fort and no Fortress (for hand-built positions)."""
    n = len(state.players)
    return tuple(
        replace(a, followers=(0,) * n, shadows=0, fort_owner=-1, fort_levels=0, fortress=-1) for a in state.areas
    )


def auto(state: GameState) -> Action:
    """Ignore the action, pass, stop every optional step; otherwise the first option."""
    opts = legal_actions(state)
    for wanted in (
        lambda a: isinstance(a, A.ChooseDay) and a.ignore,
        lambda a: a == A.React(kind="pass"),
        lambda a: isinstance(a, (A.Done, A.KeepDreams)),
    ):
        for a in opts:
            if wanted(a):
                return a
    return opts[0]


def but_limbo(actions) -> tuple[Action, ...]:
    """The actions without LIMBO's take-back options (they come with every decision of a player
    whose Limbo holds Followers)."""
    return tuple(a for a in actions if not isinstance(a, A.ReturnFromLimbo))


def push_effect(
    state: GameState,
    seat: int,
    steps,
    source: W.Source = "day",
    *,
    card: str = "",
    must: bool = False,
    then: str = "day_done",
) -> GameState:
    """An effect frame pushed as the Day action (``then="day_done"``) or a reaction
    (``"reaction_done"``) would push it, on a hand-built position: the decision due is set aside
    so that ``resolve`` starts the effect."""
    seat_then = {"day_done": ActionDone(seat=seat), "reaction_done": ReactionDone(seat=seat), "": None}[then]
    state = replace(state, work=None, decision=None)
    return effects.push_effect(
        state,
        seat,
        tuple(steps),
        source,
        card=card,
        must=must,
        then=seat_then,
    )


def resolve(state: GameState, ev: list | None = None) -> GameState:
    """Resolve a hand-built position up to its next decision (``flow.resolve``)."""
    return flow.resolve(state, [] if ev is None else ev)


# The decisions of the setup and of the turn itself, outside any effect step.
TURN_WORKS = (
    W.TurnStartWork,
    W.ConquerWork,
    W.PlaceDreamerWork,
    W.SoloTurnStartWork,
    W.SoloCornerWork,
    W.KingPoweredWork,
    W.ChooseDayWork,
    W.DiscardDreamsWork,
    W.DrawDreamWork,
    W.HandLimitWork,
    W.ReactWork,
    W.MoveDreamerWork,
)


def between_steps(state: GameState) -> bool:
    """No effect step is being resolved: the decision due is one of the setup's or the turn's own."""
    return isinstance(state.work, TURN_WORKS)


def play_king_turn(state: GameState, ev: list) -> GameState:
    """The King's turn from ``state`` (the King's seat active), resolved up to the next decision."""
    from nctui.games.nightmare_cathedral.engine import king_turn

    state = replace(state, work=None, decision=None, frames=())
    state = effects.push(state, W.Frame(seat=state.active, steps=(), source="turn", then=W.KingTurnReactions()))
    return flow.resolve(king_turn.play(state, ev), ev)


def in_time(fn: Callable[..., Any], wait: float = 20.0) -> Any:
    """``fn()`` on a thread, failing the test if it has not returned within ``wait`` seconds (a
    read that blocks on a FIFO or a device would otherwise hang the whole run). ``fn`` is called with
    no arguments; Callable[..., Any] lets it bind values by default arguments (``lambda p=path: ...``),
    against which mypy infers no type for Callable[[], Any]."""
    result: dict[str, Any] = {}

    def run() -> None:
        try:
            result["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - handed back to the test below
            result["error"] = exc

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(wait)
    assert not t.is_alive(), f"still running after {wait}s: it blocks"
    if "error" in result:
        raise result["error"]
    return result.get("value")


async def settle(pilot: Any, condition: Callable[[], bool], wait: float = 20.0) -> bool:
    """Let the app run (a computer player thinks on the session's thread) until ``condition``
    holds, at most ``wait`` seconds; whether it came to hold."""
    import time

    end = time.monotonic() + wait
    while not condition():
        if time.monotonic() > end:
            return False
        await pilot.pause(0.05)
    return True


async def wait_for(pilot: Any, condition: Callable[[], bool], what: str, wait: float = 20.0) -> None:
    """Let the app run until ``condition`` holds (what a key, a worker or a timer brings about),
    failing the test after ``wait`` seconds with ``what`` it waited for. A condition, not a
    pause: under load one ``pilot.pause()`` returns before the app is idle (Textual takes a
    process starved of the CPU for an idle one), and a loaded machine makes this take longer,
    never come too early."""
    if not await settle(pilot, condition, wait):
        raise AssertionError(f"waited {wait:g} s for {what}: it did not come")


def companion_app(tmp_path: Any, game: Any = None, config: Any = None) -> Any:
    """The app for a companion game's ``config`` (None: the title screen), its notifications
    recorded in ``app.seen``, computer players without delay."""
    from nctui.platform.session import new_session
    from nctui.ui.app import create_app

    session = None if config is None else new_session(config, game=game, folder=tmp_path)
    app: Any = create_app(session, save_dir=tmp_path, bot_delay=0.0)  # Any: it gains an attribute, ``seen``
    app.seen = []
    app.notify = lambda message, **kw: app.seen.append(message)
    return app


def focused(app: Any) -> Any:
    """The focused widget, read afresh: a key press moves the focus, and mypy keeps an ``assert
    app.focused is x`` narrowing across it (the next ``app.focused is y`` would read as never true)."""
    return app.focused


def screen_of(app: Any) -> Any:
    """The screen on top, read afresh (as ``focused``: a key press changes it)."""
    return app.screen


def nc_screen(app: Any) -> GameScreen:
    """The app's game screen, which the test expects to be Nightmare Cathedral's."""
    from nctui.games.nightmare_cathedral.ui.screens.game import GameScreen

    return narrow(app.game_screen(), GameScreen)


def plain(app: Any, widget_id: str) -> str:
    """The text a Static of the current screen shows."""
    content = app.screen.query_one(f"#{widget_id}").content
    return content if isinstance(content, str) else content.plain


async def app_settled(app: Any, wait: float = 60.0) -> None:
    """Wait until ``app`` has done all it was asked: every message to the app, its screen and the
    screen's widgets handled (and the messages those sent in turn), no resize still to pass on to
    the screens (Textual's timer does, 1/120 s later), no layout, scroll, repaint or frame owed by
    the screen, no callback waiting for a refresh, no animation running or due. A condition, not
    a duration: a loaded machine makes it take longer, never come too early. Two rounds in a row
    must find it so (a handler that was awaiting in the first has finished by the second's).
    Other timers set for later are not waited for. Fails the test after ``wait`` seconds."""
    import asyncio
    import time

    from textual.pilot import Pilot

    pilot = Pilot(app)
    end = time.monotonic() + wait
    quiet = 0
    while quiet < 2:
        assert time.monotonic() < end, f"the app did not settle in {wait} s: {_owed(app)}"
        await pilot._wait_for_screen()  # what every pump was sent so far, handled
        owed = _owed(app)
        quiet = 0 if owed else quiet + 1
        await asyncio.sleep(1 / 120 if owed else 0)  # the screen's update timer draws what is owed


async def play_by_keys(
    app: Any,
    pilot: Any,
    decisions: int,
    *,
    seed: int = 3,
    on_decision: Callable[[Any], None] = lambda panel: None,
    on_handoff: Callable[[Any], None] = lambda screen: None,
) -> None:
    """Play ``decisions`` decisions of the Nightmare Cathedral game in ``app`` with the keys a
    person presses: each the pick of a random computer player (``seed``), reached with → / ← and
    picked by its digit; Enter passes each hand-off (``on_handoff(screen)`` first), Escape closes
    a panel over the game (a conflict's, the King's turn). ``on_decision(panel)``: the decision
    panel, before each decision is made. Stops early when the game ends."""
    from nctui.games.nightmare_cathedral.engine import player_view
    from nctui.ui.screens.handoff import HandoffScreen
    from nctui.ui.widgets.decision import DecisionPanel

    bot = RandomBot(seed)
    made = 0
    while made < decisions and app.store.state.decision is not None:
        await app_settled(app)
        if isinstance(app.screen, HandoffScreen):
            on_handoff(app.screen)
            await pilot.press("enter")
            continue
        if app.screen is not app.game_screen():
            await pilot.press("escape")
            continue
        panel = app.screen.query_one(DecisionPanel)
        on_decision(panel)
        made += 1
        d = present(app.store.state.decision)
        index = d.options.index(bot.choose(player_view(app.store.state, d.seat)))
        line = present(panel.prompt).line_of(index)
        page = panel.page_of(line)
        while panel.page() != page:
            await pilot.press("right" if panel.page() < page else "left")
        await pilot.press(str(line - panel.page_start() + 1))
    await app_settled(app)


class TerminalSeen:
    """What a terminal shows of ``app`` (a Pilot app): every update the app sends, as a real
    terminal would receive it (Textual's headless driver sends none), written into a grid of
    characters (cursor moves and text; styles ignored). Pilot's own screen (the compositor drawn
    whole) shows what the widgets would draw, not what reached the terminal: a region left out of
    every update stays as the last update wrote it."""

    CONTROL = re.compile(r"\x1b\[([0-9;?]*)([A-Za-z])|\x1b[()][0-9A-Za-z]|\x1b[=>78]")

    def __init__(self, app: Any, width: int, height: int) -> None:
        from textual._compositor import CompositorUpdate

        self.width, self.height = width, height
        self.grid = [[" "] * width for _ in range(height)]
        self.x = self.y = 0
        shown = app._display

        def display(screen: Any, renderable: Any) -> None:
            if isinstance(renderable, CompositorUpdate):
                self.feed(renderable.render_segments(app.console))
            shown(screen, renderable)

        app._display = display

    def feed(self, data: str) -> None:
        at = 0
        for match in self.CONTROL.finditer(data):
            self._write(data[at : match.start()])
            at = match.end()
            params, command = match.group(1) or "", match.group(2)
            if command == "H":
                row, _, col = params.partition(";")
                self.y, self.x = int(row or 1) - 1, int(col or 1) - 1
            elif command == "J":
                self.grid = [[" "] * self.width for _ in range(self.height)]
        self._write(data[at:])

    def _write(self, text: str) -> None:
        for ch in text:
            if ch == "\n":
                self.y += 1
            elif ch == "\r":
                self.x = 0
            else:
                if 0 <= self.y < self.height and 0 <= self.x < self.width:
                    self.grid[self.y][self.x] = ch
                self.x += 1

    def lines(self) -> list[str]:
        return ["".join(row) for row in self.grid]


def _owed(app: Any) -> str:
    """What ``app`` still has to do ('' for nothing)."""
    screen = app.screen
    pumps = [app, *screen.walk_children(with_self=True)]
    owed = [name for name, due in (
        ("messages", any(not p._message_queue.empty() for p in pumps)),
        ("a resize", app._resize_event is not None),
        ("a layout", screen._layout_required or screen._scroll_required or screen._recompose_required),
        ("a frame", screen._repaint_required or bool(screen._dirty_widgets)),
        ("callbacks after a refresh", bool(screen._callbacks)),
        ("animations", bool(app.animator._animations or app.animator._scheduled)),
    ) if due]  # fmt: skip
    return ", ".join(owed)


class GuardClock:
    """The clock of the hand-off's guards (``screens.handoff``, and the shell's after it,
    ``screens.shell``), the test's: it stands still, so presses that Pilot sends on a loaded machine still
    come within a guard, until ``pass_guard`` moves it past one. The hand-off's own timer that
    says keys are taken again runs on this clock too, fired by ``pass_guard`` (wait for what it
    shows): on real time it fired the guard's 0.4 s after the key, and a loaded machine slower
    than that to reach ``pass_guard`` found the hand-off still saying to wait, for good."""

    def __init__(self, monkeypatch: Any) -> None:
        from nctui.ui.screens import handoff, shell
        from nctui.ui.screens.handoff import HandoffScreen

        self.now, self.guard = 1000.0, handoff.GUARD
        self.due: list[tuple[float, Any]] = []  # (when on this clock, the hand-off whose text is then due)
        for module in (handoff, shell):
            monkeypatch.setattr(module, "monotonic", lambda: self.now)
        monkeypatch.setattr(HandoffScreen, "guard", self.guard)  # the game's (the tests' default is none)
        set_timer = HandoffScreen.set_timer

        def on_this_clock(screen: Any, delay: float, callback: Any = None, **kw: Any) -> Any:
            if callback is not None and callback == screen._show_text:  # the guard's end, said
                self.due.append((self.now + delay, screen))
                return set_timer(screen, delay, callback, **kw, pause=True)  # made, never fired on real time
            return set_timer(screen, delay, callback, **kw)

        monkeypatch.setattr(HandoffScreen, "set_timer", on_this_clock)

    def pass_guard(self) -> None:
        self.now += self.guard + 0.1
        due = [screen for when, screen in self.due if when <= self.now]
        self.due = [d for d in self.due if d[0] > self.now]
        for screen in due:
            screen.call_later(screen._show_text)  # as its timer would, in the screen's turn


def rulebook_condition_problems(state: GameState) -> list[str]:
    """What a prepared position (a practice position, a tutorial lesson) has that the rules
    cannot reach (issue 39.16): Stage 2 exactly when the Cathedral is complete (THE NIGHTMARE
    CATHEDRAL); in the Standard Game a piece built at the end of every turn from the one in which
    the last player takes their first turn (BUILDING THE CATHEDRAL STANDARD GAME; solo: at most
    one a turn from each side)."""
    problems = []
    if (state.stage == 2) != (not state.cathedral_track):
        problems.append(f"Stage {state.stage} with {len(state.cathedral_track)} pieces on the Cathedral track")
    setup = len(flow.new_game(state.config).state.cathedral_built)
    built = len(state.cathedral_built) - setup
    if built < 0:
        problems.append("fewer Cathedral pieces than setup builds")
    if state.config.length != "standard" or state.config.divergent_paths:
        return problems
    pieces = setup + built + len(state.cathedral_track)
    done = state.turn_number - 1  # turns completed before the one in play
    if state.king is not None:
        low, high = 0, 2 * state.turn_number
    else:
        players = len(state.players)
        low = min(max(0, done - players + 1), pieces - setup)
        high = min(max(0, state.turn_number - players + 1), pieces - setup)
    if not low <= built <= high:
        problems.append(f"{built} Cathedral pieces built by turn {state.turn_number}: the rules build {low} to {high}")
    return problems
