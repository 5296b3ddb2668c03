"""One line per player (supply, Limbo, hand size, Dreams, Dreamer), then the viewer's own
cards. Other seats' hands are hidden in the view; only their sizes are shown."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ...engine.views import View
from ...describe import seat_letter, seat_name, words_for
from .common import seat_style

LABEL = Style(color="#9a9aaa")


class PlayersView(Widget):
    """Draws ``view``'s players; ``bots`` names the computer seats. Holds nothing else."""

    DEFAULT_CSS = """
    PlayersView { height: auto; width: 100%; }
    """

    view: reactive[View | None] = reactive(None, layout=True)
    bots: reactive[frozenset[int]] = reactive(frozenset(), layout=True)

    def render(self) -> Text:
        if self.view is None:
            return Text("")
        return render_players(self.view, self.bots, self.size.width or 40)


def render_players(view: View, bots: frozenset[int], width: int) -> Text:
    state = view.state
    w = words_for(state.pack)
    decider = state.decision.seat if state.decision is not None else -1
    width = max(width, 20)
    lines: list[Text] = [Text(f"{'Player':<10}{'Sup':>4}{'Lim':>4}{'Hnd':>4}{'Drm':>4} Dreamer", LABEL)]
    for pl in state.players:
        line = Text()
        line.append("▶" if pl.seat == decider else " ", Style(bold=True))
        name = f"{seat_letter(state, pl.seat)} {seat_name(state, pl.seat)}"[:8]
        line.append(name.ljust(8), seat_style(state, pl.seat))
        line.append("*" if pl.seat in bots else " ")
        line.append(f"{pl.supply:>4}{pl.limbo:>4}{len(pl.hand):>4}{len(pl.dreams):>4} ")
        line.append(w.space(pl.dreamer) if pl.dreamer else "-")
        lines.append(line)
    lines.append(Text("▶ deciding" + ("   * computer player" if bots else ""), LABEL))
    for line in lines:
        line.truncate(width, overflow="ellipsis")
    t = Text("\n", end="").join(lines)
    me = view.seat
    if 0 <= me < len(state.players):
        pl = state.players[me]
        t.append("\n")
        t.append(f"{seat_name(state, me)}'s hand: ", seat_style(state, me))
        t.append((w.cards_list(pl.hand) or "empty") + "\n")
        t.append(f"{seat_name(state, me)}'s Dreams: ", seat_style(state, me))
        t.append(w.cards_list(pl.dreams) or "none")
    return t
