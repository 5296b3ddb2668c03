"""The tracks: Turn track (owners, Turn and Starting markers, the marked symbol), Time track,
Ritual markers, Cathedral pieces, Nightmares and the decks."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ...engine import board as rules
from ...engine.views import View
from ...describe import seat_letter, words_for
from .common import seat_style

LABEL = Style(color="#9a9aaa")
CURRENT = Style(reverse=True, bold=True)
LABEL_WIDTH = 12


class TracksView(Widget):
    """Draws the tracks of ``view``; holds nothing else."""

    DEFAULT_CSS = """
    TracksView { height: auto; width: 100%; }
    """

    view: reactive[View | None] = reactive(None, layout=True)

    def render(self) -> Text:
        if self.view is None:
            return Text("")
        return render_tracks(self.view)


def _label(text: Text, label: str) -> None:
    text.append(f"{label:<{LABEL_WIDTH}}", LABEL)


def render_tracks(view: View) -> Text:
    state = view.state
    w = words_for(state.pack)
    tracks = w.pack.tracks
    t = Text(no_wrap=False, end="")

    # Turn track: numbers, symbols, then each position's owner and the markers on it.
    _label(t, "Turn track")
    for i in range(len(tracks.turn)):
        t.append(f"{i + 1:<3}", LABEL)
    t.append("\n")
    _label(t, "")
    for i, sym in enumerate(tracks.turn):
        t.append(w.symbol(sym, name=False), CURRENT if i == state.turn_pos else Style())
        t.append(" ")
    t.append("\n")
    _label(t, "")
    if state.turn_start >= 0:
        for i in range(len(tracks.turn)):
            owner = rules.turn_owner(state, i)
            marker = "▲" if i == state.turn_pos else "⚑" if i == state.turn_start else " "
            t.append(seat_letter(state, owner), seat_style(state, owner))
            t.append(marker + " ", Style(bold=True))
        t.append("\n")
        _label(t, "")
        t.append("▲ Turn marker  ⚑ Starting marker  letters: whose turn", LABEL)
    else:
        t.append("the Starting marker is not placed yet", LABEL)
    t.append("\n")

    _label(t, "Marked")
    sym = rules.marked_symbol(state)
    t.append(f"{w.symbol(sym)} areas" if sym else "none yet")
    t.append("\n")

    _label(t, "Time")
    for i, label in enumerate(tracks.time):
        t.append(f"[{label}]" if i == state.time else label, CURRENT if i == state.time else Style())
        t.append(" ")
    t.append(f"   Stage {state.stage}   turn {state.turn_number}")
    t.append("\n")

    _label(t, "Ritual")
    for k, pl in enumerate(state.players):
        if k:
            t.append(" · ")
        t.append(seat_letter(state, pl.seat), seat_style(state, pl.seat))
        t.append(f" {pl.ritual[0]}&{pl.ritual[1]}")
    vp = " ".join(f"{i + 1}:{sp.vp}" for i, sp in enumerate(tracks.ritual) if sp.vp)
    t.append(f"  (of {len(tracks.ritual)}; VP {vp})", LABEL)
    t.append("\n")

    _label(t, "Cathedral")
    total = len(tracks.cathedral) + 1
    t.append(" ".join(state.cathedral_built), Style(bold=True))
    remaining = [c.piece for c in tracks.cathedral if c.piece not in state.cathedral_built]
    t.append(f" built ({len(state.cathedral_built)} of {total})")
    if remaining:
        t.append(f"; next {' '.join(remaining[:4])}{' …' if len(remaining) > 4 else ''}", LABEL)
    t.append("\n")

    _label(t, "Nightmares")
    t.append(" and ".join(w.nightmare(n) for n in state.nightmares) if state.nightmares else "not revealed yet")
    t.append("\n")

    d = state.decks
    _label(t, "Decks")
    t.append(f"Development {len(d.development)} (discard {len(d.development_discard)}) · "
             f"Dream {len(d.dream)} · Conflict {len(d.conflict)}")
    t.append("\n")
    _label(t, "Dream offer")
    t.append(w.cards_list(d.dream_offer) if d.dream_offer else "empty")
    return t
