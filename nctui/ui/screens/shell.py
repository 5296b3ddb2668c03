"""The shell every game's screen is played in, whichever game it is: one mixin that Nightmare
Cathedral's ``GameScreen`` and the companion games' screens (``options_game``) share, so that
every game is played the same way at one keyboard.

What it gives a screen: the session it reads (subscribed; redrawn once for however many changes
were posted; a failing autosave or computer player said once), the hot-seat hand-off (the one
``HandoffScreen``, the seats named by the game's ``seat_labels``: nothing of the next person's
view is drawn before their key), the log (one ``GameLog``, written through the eyes of the person
looking, each person's kept as they left it), and the keys u undo, r redo, t the timeline, s save,
o load, q save and quit, ? the help and R the rules (the game's summary, at the topic of the
decision due or of the rule just refused).

What a screen gives it (the hooks below): how it draws (``_redraw``, which calls
``_handoff_due`` first and ``_flows`` last), how its events read (``describe_events``), the public
words of a hand-off (``handoff_words``), its own keys for the help (``HELP_KEYS``), and where the
rules explain the decision due (``decision_topic``). The screen's ``BINDINGS`` list the keys
below (``SHELL_KEYS``) in the order its footer shows them.

Screens shown over the game are pushed by ``_flows()`` only while the game's screen is the current
one (at the end of a redraw, and when a screen over it closes), so a dialog open over the game
never has another pushed under or over it by surprise. The screens the shell opens are imported
when first shown: a game's first frame comes without them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from time import monotonic
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.timer import Timer

from nctui.platform import registry, saves
from nctui.platform.game import SPECTATOR, SeatLabel
from nctui.platform.registry import AnyGame, GameEntry
from nctui.platform.store import StoreError

from ..widgets.common import label_tag, presence_words
from ..widgets.log import GameLog

if TYPE_CHECKING:
    from textual.screen import Screen

    from ..client import GameClient
    from .handoff import HandoffResult, HandoffScreen

# The keys of the shell, each screen listing them in its BINDINGS in the order its footer shows.
UNDO = Binding("u", "undo", "Undo", id="game.undo")
REDO = Binding("r", "redo", "Redo", id="game.redo")
HELP = Binding("question_mark", "help", "Help", key_display="?", id="game.help")
RULES = Binding("R", "rules", "Rules", key_display="R", id="game.rules")  # shift+r (r is redo)
QUIT = Binding("q", "quit_game", "Save & quit", id="game.quit")
TIMELINE = Binding("t", "timeline", "Timeline", id="game.timeline")
SAVE = Binding("s", "save", "Save", id="game.save")
LOAD = Binding("o", "load", "Load", show=False, id="game.load")
SHELL_KEYS = (UNDO, REDO, HELP, RULES, QUIT, TIMELINE, SAVE, LOAD)

REHEARSE_AFTER = 0.1  # seconds after a hand-off appears: drawn first, and well before its keys are taken (0.4 s)
# Seconds the game waits (no change) before the rules, the help and the timeline are made or
# redrawn ahead: longer than most keys come apart, so that the work is not in the way of the next key
PREPARE_AFTER = 1.5
LOG_RECENT = 20  # decisions a log written afresh says at once (the earlier ones when scrolled to)


class GameChanged(Message):
    """The game changed (posted from the thread that changed it)."""


if TYPE_CHECKING:

    class _Host(Screen[None]):
        """For the type checker only: the shell is part of a Screen (``app``, ``notify``,
        ``query_one``, ``is_current``)."""
else:
    _Host = object


def public_news(game: GameClient, since: int, describe: Callable[[Any, Any], Sequence[object]]) -> list[str]:
    """What happened after state ``since``, in words anyone at the keyboard may read: the events
    as the spectator sees them (none when the game went back meanwhile)."""
    update = game.events(since, SPECTATOR)
    if update.undone:
        return []
    return [str(line) for line in describe(update.events, game.view(SPECTATOR))]


class GameShell(_Host):
    """What every game's screen shares (a mixin of a ``Screen``; see the module's docstring)."""

    QUIT_WORDS = "save and quit"  # what q does (a game on a server: back to the lobby)
    QUIT_HINT = "Continue with: nctui (then c)"  # said as the app ends on q
    SAVE_PREFIX = ""  # the start of a save's default name
    # Whether one seat's view hides anything of another's (a hand): two people at one keyboard
    # then pass it through the hand-off; a game with nothing hidden (Cathedral) needs none.
    HANDS_HIDDEN = True
    HELP_KEYS = ""  # the game's own keys for the help (lines laid out as ``help.SHELL_HELP``'s)
    HELP_LOCAL_KEYS = ""  # the game's own keys of a game played here (not on a server)
    HELP_NOTES = ""  # what the help says after the keys (what the screen shows)

    def __init__(self, game: GameClient, *, seat: int | None = None) -> None:
        """``seat``: the one seat this screen shows and decides for (a game on a server: each
        person has a terminal of their own; -1 a spectator; by default the game's own ``seat``);
        None: whoever decides (hot-seat)."""
        super().__init__()
        self.game = game
        self.seat = seat = seat if seat is not None else game.seat
        self.bots = frozenset(i for i, kind in enumerate(game.seat_kinds) if kind == "bot")
        humans = [i for i, kind in enumerate(game.seat_kinds) if kind == "human"]
        self.viewer = seat if seat is not None else humans[0] if humans else 0
        self.rules_game: AnyGame = registry.game_of(game.config)  # the game's words and seat labels
        self.entry: GameEntry = registry.entry(self.rules_game.id)
        self._logged = -1  # the state id the log is written up to
        self._log_viewer = -1  # whose eyes the log is written through
        self._handled: tuple[object, ...] = ()  # what the last GameChanged found
        self._unsubscribe: Callable[[], None] | None = None
        self._save_warned = False
        self._bot_warned = ""
        self._quit_armed = False
        self._rule_refused: tuple[int, str | None, str] | None = None  # (state id, topic, reason)
        self._prepare_timer: Timer | None = None  # _prepare_screens, once the game waits
        self._seen: dict[int, int] = {}  # hot seat: the state id each person last looked at
        self._hotseat = self._handoff_first = False
        self._handoff_to: int | None = None
        self._handoff_screen: HandoffScreen | None = None
        self._choose_from = 0.0  # options are taken from then on (not by the press that passed the keyboard)
        self._echo = ""  # the option just picked, in public words, for the next hand-off screen
        self._presence_made: tuple[object, tuple[str, ...]] | None = None  # (game.presence, its words)

    # -- for each game ----------------------------------------------------------------------------

    def _redraw(self) -> None:
        """Draw the game for ``viewer``: first ``if self._handoff_due(seat): self._flows(); return``,
        last ``self._flows()``."""
        raise NotImplementedError

    def rehearse(self, seat: int) -> None:
        """Draw ``seat``'s view ahead, out of sight, while the hand-off hides the screen."""

    def describe_events(self, events: Sequence[Any], view: Any) -> Sequence[Text | str]:
        """Log lines of ``events`` (already redacted for the reader; ``view`` theirs)."""
        return self.rules_game.describe_events(tuple(events), view)

    def handoff_words(self, seat: int, view: Any) -> tuple[str, str]:
        """(the public prompt of ``seat``'s decision, where the game stands: 'Turn 3') for the
        hand-off, from ``view`` (the person's before, who may read it all: say only what is public)."""
        return "", ""

    def decision_topic(self) -> tuple[str | None, str | None]:
        """Where R opens the rules (a section id of the game's summary, or None: its first) and
        the line shown above it (the decision due)."""
        return None, None

    def save_turn(self) -> int:
        """The number in a save's default name."""
        return int(self.game.state_id)

    def _game_moved(self) -> None:
        """Called as the game moved (before its log and its drawing)."""

    def _flows_first(self) -> bool:
        """What is due before a hand-off (shown: True)."""
        return False

    def _skip_news(self) -> None:
        """The game jumped to where it stands (a replay's End, Home or timeline): what happened on
        the way is not shown over the screen (a conflict's result, a computer's turn); the log
        still tells it. Called before ``_game_moved``."""

    def _flows_then(self) -> None:
        """What is due once no hand-off is."""

    # -- the session ------------------------------------------------------------------------------

    def _shell_start(self) -> None:
        """On mount, before the first drawing: who looks first (a continued hot-seat game hands
        the keyboard over first: whoever opened it may not be the seat deciding), the session
        subscribed, the log written."""
        self._hotseat = self.game.hotseat
        self._handoff_first = self._hotseat and self.game.state_id > 0
        self._handoff_to = self._handoff_screen = None
        if not self._handoff_first and self.seat is None:  # nothing private is on screen yet: start with the decider
            seat = self.game.deciding_seat()
            if seat is not None and seat not in self.bots:
                self.viewer = seat
        elif self._handoff_first and self.seat is None:
            # The keyboard was last with whoever decided last: the first hand-off's "u" takes back
            # their decision, as it did before the game was saved (the first seat was refused:
            # "<the other> has decided since").
            self.viewer = self._last_person()
        self._unsubscribe = self.game.subscribe(self._post_changed)
        self._handled = self._news_key()
        self._log_viewer = self.viewer
        self._write_log()

    def _last_person(self) -> int:
        """The person whose decision the game stands after (a computer's decisions after it passed
        over, as undo passes over them); the viewer as it is when no person decided yet."""
        for state_id in range(self.game.state_id, 0, -1):
            seat = self.game.seat_of(state_id)
            if 0 <= seat < len(self.game.seat_kinds) and not self.game.is_computer(seat):
                return seat
        return self.viewer

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()

    def _post_changed(self) -> None:
        self.post_message(GameChanged())

    def _news_key(self) -> tuple[object, ...]:
        game = self.game
        return (game.revision, game.thinking, game.bot_error, game.autosave_error, game.presence)

    def on_game_changed(self, message: GameChanged) -> None:
        """Redraw once for however many changes were posted meanwhile."""
        message.stop()
        key = self._news_key()
        if key == self._handled:
            return
        revision_changed = key[0] != self._handled[0]
        self._handled = key
        if revision_changed:
            self._game_moved()
            self._write_log()
        self._redraw()
        self._warn_once()

    def _warn_once(self) -> None:
        """A failing autosave or computer player is said once (until it works again)."""
        if self.game.autosave_error and not self._save_warned:
            self._save_warned = True
            self.notify(
                f"The game cannot be autosaved: {self.game.autosave_error}",
                title="Autosave",
                severity="warning",
                timeout=8,
            )
        elif not self.game.autosave_error:
            self._save_warned = False
        if self.game.bot_error and self.game.bot_error != self._bot_warned:
            self.notify(
                f"{self.game.bot_error[0].upper()}{self.game.bot_error[1:]}. Undo (u) to try again.",
                title="Computer player",
                severity="error",
                timeout=10,
            )
        self._bot_warned = self.game.bot_error

    def _refresh_bots(self) -> None:
        """The computer seats now (on a server a seat can pass to a computer, its person stayed
        away, and back); the same object while they do not change."""
        bots = frozenset(i for i, kind in enumerate(self.game.seat_kinds) if kind == "bot")
        if bots != self.bots:
            self.bots = bots

    def _look_as(self, seat: int | None) -> None:
        """A person of this screen decides: they are the one looking (hot seat: their hand-off is
        behind them, ``_handoff_due``)."""
        if seat is not None and seat not in self.bots and self.seat is None:
            self.viewer = seat

    def _decides(self, seat: int) -> bool:
        """Whether this screen decides for ``seat`` (hot-seat: every person's seat)."""
        return self.seat is None or seat == self.seat

    def seat_labels(self) -> tuple[SeatLabel, ...]:
        """Each seat's name, letter and colour, as the game names them (public)."""
        return self.rules_game.seat_labels(self.game.view(self.viewer))

    def seat_label(self, seat: int) -> SeatLabel:
        labels = self.seat_labels()
        return labels[seat] if 0 <= seat < len(labels) else SeatLabel(name=f"Seat {seat + 1}", letter="?", colour="")

    def presence_words(self, seat: int) -> str:
        """A game on a server: who holds ``seat`` and whether they are there, for the players
        panel ('Ann', 'Ann, away 3 min', 'computer for Ann, away 6 min', 'free seat'); '' at one
        keyboard (the panel names the computer seats as it always did)."""
        presence = self.game.presence
        return presence_words(presence[seat]) if 0 <= seat < len(presence) else ""

    def presence_all(self) -> tuple[str, ...]:
        """``presence_words`` of every seat (empty at one keyboard): the same object while the
        host's presence is (a panel handed the same inputs draws nothing again)."""
        presence = self.game.presence
        made = self._presence_made
        if made is None or made[0] is not presence:
            made = self._presence_made = (presence, tuple(self.presence_words(s) for s in range(len(presence))))
        return made[1]

    # -- the log ----------------------------------------------------------------------------------

    def _write_log(self) -> None:
        """What happened since the log was last written, as the person looking may read it. A
        log written afresh (a person's first look, a continued game) says the last
        ``LOG_RECENT`` decisions, the earlier ones once it is scrolled up to them
        (``_older_lines``): describing a long game's whole history took a hand-off ~2 ms a
        hundred decisions."""
        log = self.query_one(GameLog)
        since = self._logged
        if since < 0 and self.game.state_id > LOG_RECENT:
            since = self.game.state_id - LOG_RECENT
            log.older = partial(self._older_lines, self.viewer, [since])
        update = self.game.events(since, self.viewer)
        if update.undone:
            log.older = None  # what came before is another story now
            log.write(Text(f"↶ undone: back to decision {update.state_id}", style="italic"))
        elif update.events:
            log.write_lines(self.describe_events(update.events, self.game.view(self.viewer)))
        self._logged = update.state_id

    def _older_lines(self, viewer: int, before: list[int]) -> list[Text | str] | None:
        """The log's lines of the ``LOG_RECENT`` decisions up to state ``before[0]`` (moved back
        past them), as ``viewer`` may read them; None when the start has been said."""
        if before[0] < 0 or self.viewer != viewer:
            return None
        since = max(-1, before[0] - LOG_RECENT)
        update = self.game.events(since, viewer)
        if update.undone:
            return None
        upto = sum(1 for state in self.game.event_states(since) if state <= before[0])
        before[0] = since
        return list(self.describe_events(update.events[:upto], self.game.view(viewer)))

    def _rewrite_log(self) -> None:
        """The log through the new viewer's eyes: as they left it, and what happened since (the
        lines written for the person before may name cards only they could see)."""
        if self.viewer == self._log_viewer:
            self._write_log()
            return
        self._logged = self.query_one(GameLog).switch(self._log_viewer, self.viewer, self._logged)
        self._log_viewer = self.viewer
        self._write_log()

    # -- hot-seat hand-off ------------------------------------------------------------------------

    def _handoff_due(self, seat: int | None) -> bool:
        """Whether the keyboard must pass to another person before ``seat``'s view is drawn
        (then nothing is drawn: the next person's hand stays hidden until their key press)."""
        if self._handoff_screen is not None:
            return True
        self._handoff_to = self.game.handoff_to(self.viewer, first=self._handoff_first) if self.HANDS_HIDDEN else None
        return self._handoff_to is not None

    def _note_seen(self) -> None:
        """Called on every drawing: the viewer has seen the game up to now."""
        self._seen[self.viewer] = self.game.state_id

    def _news_for(self, seat: int) -> list[str]:
        """What happened since ``seat``'s person last looked (nothing when they never did)."""
        since = self._seen.get(seat)
        return [] if since is None else public_news(self.game, since, self.describe_events)

    def _echo_choice(self, words: str) -> None:
        """A person just chose (``words``: in words the next person may read too, a face-down card
        unnamed): echoed on the hand-off that may follow, so a press that went astray is seen."""
        self._echo = words if self._hotseat else ""

    def _push_handoff(self, seat: int) -> None:
        label = self.seat_label(seat)
        decision, context = self.handoff_words(seat, self.game.view(self.viewer))
        echo, self._echo = self._echo, ""
        from .handoff import HandoffScreen  # at the first hand-off, not before the first frame

        screen = HandoffScreen(
            seat,
            label_tag(label),
            label.name,
            decision=decision,
            context=context,
            news=tuple(self._news_for(seat)),
            echo=echo,
            on_go=self._take_over,
        )
        self._handoff_screen = screen
        self.app.push_screen(screen, self._handed_off)
        self.set_timer(REHEARSE_AFTER, partial(self._rehearse_handoff, screen))

    def _rehearse_handoff(self, screen: HandoffScreen) -> None:
        """The hand-off screen is up (drawn): the next person's view is drawn ahead under it,
        out of sight (``rehearse``), while they read it and reach for the keyboard."""
        if self._handoff_screen is screen and screen.is_current:
            self.rehearse(screen.seat)

    def _too_soon(self) -> bool:
        """Whether a choice comes right after a hand-off (a double press): it is not taken."""
        if monotonic() >= self._choose_from:
            return False
        self.notify("The keyboard just passed: press again to choose.", title="Not taken", timeout=3)
        return True

    def _take_over(self) -> None:
        """The next person is looking: their view is drawn, still under the hand-off screen
        (called as it closes; drawn after it closed, the game showed the view of the person
        before, their hand too, for a frame or two)."""
        screen, self._handoff_screen = self._handoff_screen, None
        # The seat named on the hand-off (a computer may have moved meanwhile, and the next
        # person gets a hand-off of their own).
        self.viewer = screen.seat if screen is not None else self.viewer
        self._choose_from = monotonic() + (screen.guard if screen is not None else 0.0)
        self._handoff_first = False
        self._handoff_to = None
        self._rewrite_log()
        self._redraw()  # under the hand-off: the views only (no focus, no screen pushed)

    def _handed_off(self, result: HandoffResult | None) -> None:
        if result == "go":
            if self._handoff_screen is not None:  # closed without taking over first
                self._take_over()
            self._redraw()  # now the current screen: the focus, and whatever comes next
        elif result == "undo":
            self._handoff_screen = None
            self._handoff_first = False  # the person before is at the keyboard (``_last_person``)
            self.action_undo()  # refused: the hand-off comes back when this screen resumes
        elif result == "quit":
            self._handoff_screen = None
            self.action_quit_game()

    # -- what is due, one screen at a time --------------------------------------------------------

    def on_screen_resume(self) -> None:
        self._flows()

    def _flows(self) -> None:
        """Show what is due, one screen at a time: the game's first (``_flows_first``), the
        hand-off, then the game's others (``_flows_then``)."""
        if not self.is_current:
            return
        if self._flows_first():
            return
        # The game may have moved since the last redraw (a screen over this one was dismissed
        # before the news of an undo arrived): ask again who must have the keyboard.
        due = self._handoff_screen is None and self._handoff_due(self.game.deciding_seat())
        if due and self._handoff_to is not None:
            self._push_handoff(self._handoff_to)
            return
        self._flows_then()

    # -- the screens made ahead -------------------------------------------------------------------

    def _prepare_later(self) -> None:
        """Make the rules, the help and the timeline ahead once the game waits (after each drawing)."""
        if self._prepare_timer is not None:
            self._prepare_timer.stop()
        self._prepare_timer = self.set_timer(PREPARE_AFTER, self._prepare_screens)

    def _prepare_screens(self) -> None:
        """The rules (at the decision due), the help and the timeline made out of sight while the
        game waits, so that their keys show them at once (``screens/kept.py``); the rules again
        after each change of the decision."""
        # imported now: the first key that shows one finds it so (the hand-off comes with a
        # decision; importing it took ~2 ms of the first)
        from . import handoff  # noqa: F401
        from .help import prepare_help_screen
        from .rules import prepare_rules_screen
        from .timeline import prepare_timeline_screen

        if not self.is_attached or self.app.screen is not self:
            return  # the hand-off, a screen of the game: once back
        make = getattr(self.app, "MAKE_SCREENS_AHEAD", True)  # else only those opened before, kept up to date
        if self.entry.rules:
            topic, note = self._rules_topic()
            prepare_rules_screen(self.app, self.entry.rules, topic, note=note, make=make)
        prepare_help_screen(self.app, self.help_text(), make=make)
        if make:
            prepare_timeline_screen(self.app, self.game, self.viewer)

    # -- keys -------------------------------------------------------------------------------------

    def action_undo(self) -> None:
        """Back to before the last decision of a person, as the undo policy allows."""
        if self.game.state_id == 0:
            self.notify("Nothing to undo: this is the start of the game.", severity="warning")
            return
        try:
            self.game.undo(self.viewer)
        except StoreError as exc:
            self._refused(exc, "Undo")

    def action_redo(self) -> None:
        if not self.game.can_redo():
            self.notify("Nothing to redo.", severity="warning")
            return
        try:
            self.game.redo()
        except StoreError as exc:
            self._refused(exc, "Redo")

    def _refused(self, exc: StoreError, title: str) -> None:
        """An undo or redo the policy refuses: the store's reason and the policy's rule."""
        from .timeline import refusal_text

        self.notify(refusal_text(exc, self.game.undo_policy), title=title, severity="warning", timeout=10)

    def action_timeline(self) -> None:
        """t: every decision of the game; Enter jumps back there (or forward along the redo branch)."""
        from .timeline import timeline_screen

        self.app.push_screen(timeline_screen(self.app, self.game, self.viewer))

    def _save_folder(self) -> Path:
        return saves.save_dir(getattr(self.app, "save_dir", None))

    def action_save(self) -> None:
        from .save import SaveScreen, default_name

        name = default_name(self.save_turn(), prefix=self.SAVE_PREFIX)
        self.app.push_screen(SaveScreen(self.game, self._save_folder(), name), self._saved)

    def _saved(self, path: Path | None) -> None:
        if path is not None:
            self.notify(f"Saved to {path}", title="Saved")

    def action_load(self) -> None:
        """The Load screen. This game stays among the unfinished ones (Continue), autosaved."""
        from .load import LoadScreen

        self.app.push_screen(LoadScreen(getattr(self.app, "save_dir", None)))

    def action_quit_game(self) -> None:
        """Save, then quit. If saving fails, say so and quit only on a second request."""
        from .save import quit_after_saving

        quit_after_saving(self, self.game, armed=self._quit_armed, hint=self.QUIT_HINT)
        self._quit_armed = True

    # -- help and rules ---------------------------------------------------------------------------

    def help_text(self) -> str:
        """The help of this game's screen: its own keys, then the shell's (``help.help_text``)."""
        from .help import help_text

        server = self.seat is not None
        return help_text(
            self.entry.title,
            self.HELP_KEYS,
            self.HELP_NOTES,
            local_keys=self.HELP_LOCAL_KEYS,
            server=server,
            hidden=self.HANDS_HIDDEN,
        )

    def action_help(self) -> None:
        from .help import help_screen

        self.app.push_screen(help_screen(self.app, self.help_text()))

    def action_rules(self) -> None:
        """R: the game's rules summary at the topic of the decision due (or of the rule just refused)."""
        if not self.entry.rules:
            self.notify(f"{self.entry.title} has no rules summary in this version.", title="Rules")
            return
        from .rules import rules_screen

        topic, note = self._rules_topic()
        self.app.push_screen(rules_screen(self.app, self.entry.rules, topic, note=note))

    def _rules_topic(self) -> tuple[str | None, str | None]:
        """Where R opens the rules: the topic of the decision due, or of the action the game just
        refused (then the line above it says why)."""
        topic, note = self.decision_topic()
        refused = self._rule_refused
        if refused is not None and refused[0] == self.game.state_id:
            topic, note = refused[1] or topic, f"Not allowed: {refused[2]}"
        return topic, note

    def _note_refusal(self, state_id: int, topic: str | None, reason: str) -> None:
        """The game refused an action at ``state_id`` by the rule of ``topic``: R opens it."""
        self._rule_refused = (state_id, topic, reason)
