"""A game server's ratings and people (issue 40): the table of the host's players of one game
(``RatingsScreen``: best first; g the next game; Enter a person's page) and a person's page
(``PageScreen``: their rating of each game and their finished games, newest first, with their
place and how their rating moved; Enter watches the game again from its start, everything shown).

The screens show what the host sent (``protocol.RatingsTable``, ``protocol.PersonPage``) and ask
for more through the app (``LobbyApp``). Keyboard only; fits 80x24."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from nctui.platform import registry
from nctui.platform.net import ratings as R
from nctui.platform.net.protocol import PersonPage, RatingsTable

from ..widgets.decision import HINT

if TYPE_CHECKING:
    from ..lobby_app import LobbyApp

PLACES = {R.WON: "won", R.LOST: "lost", R.ABANDONED: "abandoned"}


def _title(game_id: str) -> str:
    found = registry.entry_named(game_id)
    return found.title if found is not None else game_id


def rating_words(r: R.Rating) -> str:
    """'1516 (3 games, 1 won)'."""
    return f"{round(r.rating)} ({r.games} game{'s' * (r.games != 1)}, {r.wins} won)"


def result_words(row: R.ResultRow) -> Text:
    """One finished game of a person's page, on two lines."""
    when = dt.datetime.fromtimestamp(row.ended).strftime("%Y-%m-%d %H:%M") if row.ended else ""
    head = Text.assemble((f"{_title(row.game)} · {row.room_name}", "bold"), (f"  {when} · room {row.room}", HINT))
    place = PLACES.get(row.place, str(row.place))
    moved = f"{round(row.before)} → {round(row.after)}" if row.rated else "not rated"
    body = Text(f"\n  {place} · {row.people} people · {moved}", style=HINT)
    if row.result:
        body.append(f" · {row.result}")
    return head + body


class ListedScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    ListedScreen { align: center middle; }
    ListedScreen #listed-box { width: 78; max-width: 100%; height: auto; max-height: 100%; background: $surface;
                          border: round $accent; padding: 0 1; }
    ListedScreen OptionList { height: auto; max-height: 16; border: none; padding: 0; }
    ListedScreen .note { color: $text-muted; }
    """
    AUTO_FOCUS = "OptionList"

    @property
    def lobby_app(self) -> LobbyApp:
        return cast("LobbyApp", self.app)

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        message.stop()
        self.chosen(message.option.id or "")

    def chosen(self, choice: str) -> None:
        """Enter on a row (its option's id)."""

    def action_close(self) -> None:
        self.dismiss(None)


class RatingsScreen(ListedScreen):
    """The host's players of one game, best first."""

    BINDINGS = [
        Binding("escape,q,b", "close", "Back", id="ratings.back"),
        Binding("g", "next_game", "Next game", id="ratings.next"),
    ]

    def __init__(self, table: RatingsTable, me: str) -> None:
        super().__init__()
        self.table, self.me = table, me

    def compose(self) -> ComposeResult:
        rows = [
            Option(
                Text.assemble(
                    f"{i:>3}. ",
                    (r.name + (" (you)" if r.identity == self.me else ""), "bold"),
                    f"  {rating_words(r)}",
                ),
                id=r.identity,
            )
            for i, r in enumerate(self.table.ratings, 1)
        ]
        with Vertical(id="listed-box"):
            yield Static(Text(f"Ratings: {_title(self.table.game)}", style="bold"))
            if rows:
                yield OptionList(*rows, id="ratings")
            else:
                yield Static(Text("Nobody has played a rated game of it here yet.", style=HINT))
            yield Static(
                "Elo-style: a rated game between people moves them; computer seats rate nobody.", classes="note"
            )
            yield Static("↑↓ move · Enter: a person's page · g: the next game · Esc: back", classes="note")

    def chosen(self, choice: str) -> None:
        self.lobby_app.show_page(choice)

    def action_next_game(self) -> None:
        ids = registry.GAME_IDS
        at = ids.index(self.table.game) if self.table.game in ids else -1
        self.dismiss(None)
        self.lobby_app.show_ratings(ids[(at + 1) % len(ids)])


class PageScreen(ListedScreen):
    """A person's page: their ratings and their finished games."""

    BINDINGS = [Binding("escape,q,b", "close", "Back", id="page.back")]

    def __init__(self, page: PersonPage, me: str) -> None:
        super().__init__()
        self.page, self.me = page, me

    def compose(self) -> ComposeResult:
        page = self.page
        who = page.name or page.identity[-8:]
        ratings = " · ".join(f"{_title(r.game)} {rating_words(r)}" for r in page.ratings) or "no rated game yet"
        with Vertical(id="listed-box"):
            yield Static(Text.assemble((who, "bold"), " (you)" if page.identity == self.me else ""))
            yield Static(Text(f"Ratings: {ratings}"))
            if page.results:
                yield Static(Text(f"Finished games ({len(page.results)}), newest first:", style=HINT))
                yield OptionList(*(Option(result_words(r), id=r.room) for r in page.results), id="results")
                yield Static(Text("Take one home: ssh to this server with: export ROOM > game.json", style=HINT))
            else:
                yield Static(Text("No finished game yet.", style=HINT))
            yield Static("↑↓ move · Enter: watch the game again from its start · Esc: back", classes="note")

    def chosen(self, choice: str) -> None:
        """Watch the game again from its start, through the eyes of this person's seat."""
        row = next((r for r in self.page.results if r.room == choice), None)
        self.dismiss(None)
        self.lobby_app.watch_room(choice, from_start=True, eyes=row.seat if row is not None else -1)
