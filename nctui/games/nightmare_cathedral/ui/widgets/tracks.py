"""The tracks: the Ritual track with every marker (first: what a glance needs), the Time track,
the Turn track (owners, Turn and Starting markers), the Cathedral track or the Divergent Paths
sideboard, the Devoured units and the Nightmares, and the decks. Each row starts with its name in a label column.

Ritual track: one cell per space after the start (``○``): ``·`` open, ``◇`` special (a bonus),
``✦`` ritual (the Ritual action only); the row below gives the VP of the VP spaces; then one row
per player with its letter where each of its markers stands (``R²``: both); then the spaces'
numbers, what entering each costs (a symbol per Follower to pay, one row per symbol) and what
each special space's bonus does.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.reactive import reactive

from nctui.ui.textual_ext.placed import FitsContent
from nctui.ui.widgets.common import pack_parts

from ...describe import seat_letter, words_for
from ...describe.decisions import BONUS_TEXT
from ...engine.facts import IN_CATHEDRAL, Facts
from ...engine.state import GameState
from ...engine.views import View
from .seats import seat_style

LABEL = Style(color="#9a9aaa")
CURRENT = Style(reverse=True, bold=True)
BUILT = Style(bold=True)
AVAILABLE = Style(color="#ffd75f", bold=True)
LABEL_WIDTH = 12
KIND_GLYPH = {"open": "·", "special": "◇", "ritual": "✦"}


class TracksView(FitsContent):
    """Draws the tracks of ``view`` with its ``facts`` (set before the view; nothing is drawn
    until both are); holds nothing else."""

    DEFAULT_CSS = """
    TracksView { height: auto; width: 100%; }
    """

    view: reactive[View | None] = reactive(None, repaint=False)
    facts: reactive[Facts | None] = reactive(None, repaint=False)

    def render(self) -> Text:
        if self.view is None or self.facts is None:
            return Text("")
        return render_tracks(self.view, self.facts, self.content_width or 80)

    def render_key(self) -> tuple[object, ...] | None:
        if self.view is None or self.facts is None:
            return None
        return tracks_key(self.view, self.facts)


def _label(text: Text, label: str) -> None:
    text.append(f"{label:<{LABEL_WIDTH}}"[:LABEL_WIDTH], LABEL)


def tracks_key(view: View, facts: Facts) -> tuple[object, ...]:
    """All that ``render_tracks`` reads of ``view`` and ``facts``: the tracks drawn again only
    when one of these changed (most decisions change none)."""
    state, decks, config = view.state, view.state.decks, view.state.config
    return (
        state.pack,
        config.seats,
        config.divergent_paths,
        state.turn_pos,
        state.turn_start,
        state.time,
        state.stage,
        state.turn_number,
        tuple((pl.seat, pl.colour, pl.ritual, pl.devoured) for pl in state.players),
        state.cathedral_built,
        state.cathedral_track,
        state.path_tiles,
        state.nightmares,
        state.nightmare_at,
        state.devoured_shadows,
        len(decks.development),
        len(decks.development_discard),
        len(decks.dream),
        len(decks.conflict),
        decks.dream_offer,
        state.outcome is None,
        state.end_triggered,
        facts.marked_symbol,
        facts.turn_owners,
        facts.ritual_vp,
        facts.path_pieces,
        facts.path_open,
        facts.devoured_total,
        facts.devoured_threshold,
        facts.devoured_vp,
    )


def render_tracks(view: View, facts: Facts, width: int = 80) -> Text:
    state = view.state
    t = Text(no_wrap=False, end="")
    # The Ritual track first: every player's markers and VP are what a glance needs, and a big
    # terminal's Tracks pane shows its first few rows (issue 39.10: one player's row was in view).
    for part in (_ritual_track, _time_track, _turn_track, _cathedral, _devoured, _decks):
        part(t, state, facts, width)
    t.rstrip()
    return t


def _turn_track(t: Text, state: GameState, facts: Facts, width: int) -> None:
    """Positions, symbols, then each position's owner and the markers on it."""
    w = words_for(state.pack)
    track = w.pack.tracks.turn
    _label(t, "Turn track")
    for i in range(len(track)):
        t.append(f"{i + 1:<3}", LABEL)
    t.append("\n")
    _label(t, "")
    for i, sym in enumerate(track):
        t.append(w.symbol(sym, name=False), CURRENT if i == state.turn_pos else Style())
        t.append(" ")
    marked = facts.marked_symbol
    if marked:
        t.append(f" marked: {w.symbol(marked)}", LABEL)
    t.append("\n")
    _label(t, "")
    if state.turn_start < 0:
        t.append("the Starting marker is not placed yet\n", LABEL)
        return
    for i, owner in enumerate(facts.turn_owners):
        marker = "▲" if i == state.turn_pos else "⚑" if i == state.turn_start else " "
        t.append(seat_letter(state, owner), seat_style(state, owner))
        t.append(marker + " ", Style(bold=True))
    t.append(" ▲ Turn ⚑ Start\n", LABEL)


def _time_track(t: Text, state: GameState, facts: Facts, width: int) -> None:
    time = words_for(state.pack).pack.tracks.time
    _label(t, "Time")
    for i, label in enumerate(time):
        t.append(f"[{label}]" if i == state.time else label, CURRENT if i == state.time else Style())
        t.append(" ")
    t.append(f"  Stage {state.stage} · turn {state.turn_number}\n")


def _ritual_track(t: Text, state: GameState, facts: Facts, width: int) -> None:
    """Each space's kind, its VP, the markers of each player (at the top: what a glance needs),
    then the spaces' numbers (every 5th), what entering each costs (one Follower from an area of
    each symbol: a row per symbol) and what each special space's bonus does."""
    w = words_for(state.pack)
    spaces = w.pack.tracks.ritual
    cell = 3 if width >= LABEL_WIDTH + 3 * (len(spaces) + 1) + 6 else 2
    _label(t, "Ritual")
    t.append("○".rjust(cell), LABEL)
    for sp in spaces:
        t.append(KIND_GLYPH.get(sp.kind, "?").rjust(cell), LABEL if sp.kind == "open" else Style(bold=True))
    legend = "  ◇ special ✦ ritual"
    t.append((legend if LABEL_WIDTH + cell * (len(spaces) + 1) + len(legend) <= width else "") + "\n", LABEL)
    _label(t, "  VP")
    t.append(" " * cell)
    for sp in spaces:
        t.append((str(sp.vp) if sp.vp else "").rjust(cell), Style(bold=True))
    t.append("\n")
    for pl in state.players:
        vp = facts.ritual_vp[pl.seat]
        t.append(f"  {seat_letter(state, pl.seat)}", seat_style(state, pl.seat))
        t.append(f" {vp:>2} VP".ljust(LABEL_WIDTH - 3), LABEL)
        for pos in range(len(spaces) + 1):
            n = sum(1 for m in pl.ritual if m == pos)
            mark = "" if not n else seat_letter(state, pl.seat) + ("²" if n > 1 else "")
            t.append(mark.rjust(cell) if mark else "·".rjust(cell), seat_style(state, pl.seat) if mark else LABEL)
        t.append("\n")
    _label(t, "  space")
    t.append(" " * cell)
    for k in range(1, len(spaces) + 1):
        t.append((str(k) if k == 1 or k % 5 == 0 else "").rjust(cell), LABEL)
    t.append("\n")
    for row in range(max(len(sp.cost) for sp in spaces)):
        _label(t, "  pays" if row == 0 else "")
        t.append(" " * cell)
        for sp in spaces:
            sym = w.symbol(sp.cost[row], name=False) if row < len(sp.cost) else ""
            t.append((sym if cell > 2 else sym[:1]).rjust(cell))  # the glyph alone when the cell is narrow
        t.append("  1 Follower a symbol\n" if row == 0 and cell > 2 else "\n", LABEL)
    bonuses: dict[str, list[str]] = {}
    for k, sp in enumerate(spaces, start=1):
        if sp.kind == "special" and sp.bonus != "none":
            bonuses.setdefault(sp.bonus, []).append(str(k))
    parts = [f"{', '.join(at)}: {BONUS_TEXT.get(bonus, bonus)}" for bonus, at in bonuses.items()]
    for k, line in enumerate(pack_parts(parts, max(width - LABEL_WIDTH, 20))):
        _label(t, "  ◇ bonus" if k == 0 else "")
        t.append(line + "\n")


def _cathedral(t: Text, state: GameState, facts: Facts, width: int) -> None:
    """The Cathedral track (pieces built, the next ones), or the Divergent Paths sideboard."""
    if state.config.divergent_paths:
        _divergent_paths(t, state, facts)
        return
    built, remaining = state.cathedral_built, state.cathedral_track
    _label(t, "Cathedral")
    t.append(f"{len(built)} of {len(built) + len(remaining)} built", BUILT)
    if built:
        t.append(f" (the last: {built[-1]})")
    if remaining:
        t.append(f" · next {' '.join(remaining[:4])}{' …' if len(remaining) > 4 else ''}", LABEL)
    t.append("\n")


def _divergent_paths(t: Text, state: GameState, facts: Facts) -> None:
    """Each colour's pieces: built (bold, ✓), available (▸, with its Reward tile), waiting."""
    w = words_for(state.pack)
    tiles = dict(state.path_tiles)
    slots = dict(facts.path_pieces)
    for colour in ("gray", "yellow", "red"):
        pieces = slots.get(colour, ())
        _label(t, "Paths" if colour == "gray" else "")
        t.append(f"{colour:<7}", LABEL)
        for k, piece in enumerate(pieces):
            if k:
                t.append(" · ")
            if piece in state.cathedral_built:
                t.append(f"{piece}✓", BUILT)
            elif piece in facts.path_open:
                t.append(f"▸{piece}", AVAILABLE)
            else:
                t.append(piece, LABEL)
            if piece in tiles and piece not in state.cathedral_built:
                t.append(f" {w.card(tiles[piece])}", LABEL)
        t.append("\n")


def _devoured(t: Text, state: GameState, facts: Facts, width: int) -> None:
    """The Nightmares (where each is) and, in Stage 2, the Devoured units towards the end."""
    w = words_for(state.pack)
    if not state.nightmares:
        _label(t, "Nightmares")
        t.append("not revealed yet\n", LABEL)
    for k, (number, where) in enumerate(zip(state.nightmares, state.nightmare_at)):
        _label(t, "" if k else "Nightmares")
        place = "on its card" if not where else "in the Cathedral" if where == IN_CATHEDRAL else w.area(where)
        t.append(f"N{number} ", Style(bold=True))
        t.append(f"{w.nightmares.get(number, '')}: {place}\n")
    if state.stage < 2:
        return
    _label(t, "Devoured")
    for pl in state.players:
        t.append(f"{seat_letter(state, pl.seat)}{pl.devoured} ", seat_style(state, pl.seat))
    t.append(f"s{state.devoured_shadows}", Style(italic=True))
    total, limit, vp = facts.devoured_total, facts.devoured_threshold, facts.devoured_vp
    t.append(f"  total {total}" + (f" of {limit} (ends the game)" if limit else ""), LABEL)
    t.append(
        "  VP now " + " ".join(f"{seat_letter(state, pl.seat)}{vp[pl.seat]}" for pl in state.players) + "\n", LABEL
    )


def _decks(t: Text, state: GameState, facts: Facts, width: int) -> None:
    w = words_for(state.pack)
    d = state.decks
    _label(t, "Decks")
    t.append(
        f"Development {len(d.development)} (discard {len(d.development_discard)}) · "
        f"Dream {len(d.dream)} · Conflict {len(d.conflict)}\n"
    )
    offer = pack_parts([w.card(c) for c in d.dream_offer], max(width - LABEL_WIDTH, 20)) or ["empty"]
    for k, line in enumerate(offer):
        _label(t, "" if k else "Dream offer")
        t.append(line + "\n")
    if state.outcome is None and state.end_triggered:
        _label(t, "Game end")
        t.append("triggered: play goes on until every player has had as many turns\n", Style(bold=True))
