"""A panel per player: the score so far (``Facts.scores``: what the game would score if it
ended now), supply, Limbo, Fort levels left (Forts left), hand and Dreams (sizes only), the Dreamer
and the Shaper, each Action card with its current effects (the top card; ``+1`` counts the
Upgrades under it) and the Dreams played. In solo the King's panel instead: its Action cards
with their Cultists and tucked cards (the Power), the Cultists on the Day spaces, its two Dreams
with their Cultists, its completed Dreams and its hand size. ``i`` shows any of these cards in
full. Online each seat's name says who holds it and whether they are there (``presence``).
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.reactive import reactive

from nctui.ui.textual_ext.placed import Cells, FitsContent
from nctui.ui.widgets.common import pack_parts

from ...describe import seat_letter, seat_name, words_for
from ...engine.facts import Facts
from ...engine.state import GameState, PlayerState, Score
from ...engine.views import View
from .cards import card_def
from .seats import seat_style

LABEL = Style(color="#9a9aaa")
NAME = Style(bold=True)
CULTISTS = Style(color="#d787ff")


class PlayersView(FitsContent):
    """Draws ``view``'s players with the view's ``facts`` (set before the view; nothing is drawn
    until both are); ``bots`` names the computer seats; ``presence`` (a game on a server) says who
    holds each seat and whether they are there, in words. Holds nothing else."""

    DEFAULT_CSS = """
    PlayersView { height: auto; width: 100%; }
    """

    view: reactive[View | None] = reactive(None, repaint=False)
    facts: reactive[Facts | None] = reactive(None, repaint=False)
    bots: reactive[frozenset[int]] = reactive(frozenset(), repaint=False)
    presence: reactive[tuple[str, ...]] = reactive((), repaint=False)

    def _watch_presence(self) -> None:
        self.refit_later()

    def render(self) -> Cells | Text:
        if self.view is None or self.facts is None:
            return Text("")
        return Cells(
            [
                Cells.runs_of(line)
                for line in player_lines(self.view, self.facts, self.bots, self.content_width or 40, self.presence)
            ]
        )


def render_players(view: View, facts: Facts, bots: frozenset[int], width: int, presence: tuple[str, ...] = ()) -> Text:
    return Text("\n", end="").join(player_lines(view, facts, bots, width, presence))


def player_lines(
    view: View, facts: Facts, bots: frozenset[int], width: int, presence: tuple[str, ...] = ()
) -> list[Text]:
    """Each player's lines, each cut to ``width``, a card's name never: a name that does not fit
    after what comes before it starts the next line (a list of cards goes on as many lines as it
    needs); ``presence``: each seat's holder and whether they are there, in words (a game on a
    server)."""
    state = view.state
    width = max(width, 24)
    score = {s.seat: s for s in facts.scores}
    lines: list[Text] = []
    me = view.seat
    order = ([me] if 0 <= me < len(state.players) else []) + [p.seat for p in state.players if p.seat != me]
    for seat in order:
        if state.king is not None and seat == state.king.seat:
            lines += _king_lines(state, score[seat], width)
        else:
            who = presence[seat] if seat < len(presence) else ("computer" if seat in bots else "")
            lines += _player_lines(state, state.players[seat], score[seat], who, width)
    for line in lines:
        line.no_wrap = True
        line.truncate(width, overflow="ellipsis")
    return lines


def _head(state: GameState, seat: int, score: Score, who: str) -> Text:
    """'▶R Red  23 VP so far: Ritual 8 · Forts 2 · Devoured 5 · Upgrades 3 · Dreams 5'."""
    decider = state.decision.seat if state.decision is not None else -1
    t = Text("▶" if seat == decider else " ", Style(bold=True), end="")
    t.append(f"{seat_letter(state, seat)} {who}", seat_style(state, seat))
    t.append(f"  {score.total} VP", NAME)
    t.append(" so far: " if state.outcome is None else ": ", LABEL)
    parts = [
        ("Ritual", score.ritual),
        ("Forts", score.forts),
        ("Devoured", score.devoured),
        ("Upgrades", score.upgrades),
        ("Dreams", score.dreams),
    ]
    t.append(" · ".join(f"{name} {vp}" for name, vp in parts if vp) or "nothing yet", LABEL)
    return t


def _packed(parts: list[str], width: int) -> list[Text]:
    return [Text(line, end="") for line in pack_parts(parts, width, indent="   ")]


def _player_lines(state: GameState, pl: PlayerState, score: Score, who: str, width: int) -> list[Text]:
    w = words_for(state.pack)
    name = seat_name(state, pl.seat) + (f" ({who})" if who else "")
    lines = [_head(state, pl.seat, score, name)]
    lines += _packed(
        [
            f"Supply {pl.supply}",
            f"Limbo {pl.limbo}",
            f"Forts left {pl.forts}",
            f"Hand {len(pl.hand)}",
            f"Dreams {len(pl.dreams)}",
            f"Dreamer {w.space(pl.dreamer) if pl.dreamer else '-'}",
            f"Shaper {w.area(pl.shaper) if pl.shaper else '-'}",
        ],
        width,
    )
    rondel = w.pack.matrix.rondel
    for action, stack in zip(rondel, pl.display):
        lines += _action_lines(state, w.day_short(action), stack, width)
    if pl.dreams_played:
        played = [f"{w.card(c)} ({getattr(card_def(state.pack, c), 'vp', 0)} VP)" for c in pl.dreams_played]
        lines += _labelled("Dreams played", played, width)
    if pl.tiles:
        lines += _labelled("Reward tiles", [w.card(c) for c in pl.tiles], width)
    return lines


INDENT = " " * 12  # where a card's name goes on under the label of its line


def _labelled(label: str, names: list[str], width: int) -> list[Text]:
    """'   Reward tiles: A, B, …': a labelled list of cards, each name whole (the list goes on
    under the label's text when the line is full)."""
    lines = [Text(f"   {label}:", LABEL, end="")]
    for k, name in enumerate(names):
        part = name + ("," if k < len(names) - 1 else "")
        if lines[-1].cell_len + 1 + len(part) > width and lines[-1].plain.strip() and len(INDENT) + len(part) <= width:
            lines.append(Text(INDENT[:-1], end=""))
        lines[-1].append(" " + part)
    return lines


def _name_kept(head: Text, sep: str, name: Text, rest: Text, width: int) -> list[Text]:
    """``head``, ``sep``, ``name`` and ``rest`` on one line (the line is cut later, in ``rest``),
    or the name on the next line under the head's label when it would be cut beside it."""
    if head.cell_len + len(sep) + name.cell_len <= width or len(INDENT) + name.cell_len > width:
        return [head + Text(sep, LABEL, end="") + name + rest]
    return [head, Text(INDENT, end="") + name + rest]


def _action_lines(state: GameState, action_name: str, stack: tuple[str, ...], width: int) -> list[Text]:
    """'   Ritual   Rite of the Stair +1 · Day: … · Conform: … · Dissent: …' (the effects cut
    at the panel's width, the name never)."""
    top = card_def(state.pack, stack[-1]) if stack else None
    name = Text(getattr(top, "name", "-"), NAME, end="")
    if len(stack) > 1:
        name.append(f" +{len(stack) - 1}", Style(bold=True, color="#ffd75f"))
    rest = Text(end="")
    for part, label in (("day", "Day"), ("conform", "Conform"), ("dissent", "Dissent")):
        effect = getattr(top, part, None)
        if effect is not None and effect.text.strip("- "):
            rest.append(f" · {label}: ", LABEL)
            rest.append(effect.text)
    return _name_kept(Text(f"   {action_name:<9}", LABEL, end=""), "", name, rest, width)


def _king_lines(state: GameState, score: Score, width: int) -> list[Text]:
    king = state.king
    assert king is not None
    w = words_for(state.pack)
    pl = state.players[king.seat]
    lines = [_head(state, king.seat, score, "the King of Horrors")]
    lines += _packed(
        [
            f"Supply {pl.supply}",
            f"Forts left {pl.forts}",
            f"Hand {len(king.hand)} combat cards",
            f"Dreamer on {w.day_short(king.dreamer)}",
            f"Area cards {len(king.area_deck)} left",
        ],
        width,
    )
    cards = {c.action: c for c in w.pack.cards.king_actions}
    for i, action in enumerate(w.pack.matrix.rondel):
        on_card = king.card_cultists[i] if i < len(king.card_cultists) else 0
        tucked = len(king.tucked[i]) if i < len(king.tucked) else 0
        on_space = king.day_cultists[i] if i < len(king.day_cultists) else 0
        # The card's name, then its numbers: at 120x40 (49 columns) the line is cut after the
        # Cultists on the Day space, never in the name.
        name = Text(cards[action].name if action in cards else action, NAME, end="")
        rest = Text(" · ", LABEL, end="")
        rest.append(f"Power {on_card + tucked}", Style(bold=True))
        rest.append(" · ", LABEL)
        rest.append(f"c{on_space}", CULTISTS)
        rest.append(f" on the Day space ({on_card} on the card, {tucked} tucked)", LABEL)
        lines += _name_kept(Text(f"   {w.day_short(action):<9}", LABEL, end=""), "", name, rest, width)
    for k, card_id in enumerate(king.dreams):
        cultists = king.dream_cultists[k] if k < len(king.dream_cultists) else 0
        vp = getattr(card_def(state.pack, card_id), "vp", 0)
        t = Text("   Dream ", LABEL, end="")
        t.append(w.card(card_id), NAME)
        t.append(f" {cultists} of {vp} Cultists", CULTISTS)
        lines.append(t)
    if king.completed:
        lines += _labelled(f"Completed Dreams ({len(king.completed)})", [w.card(c) for c in king.completed], width)
    if pl.tiles:
        lines += _labelled("Reward tiles", [w.card(c) for c in pl.tiles], width)
    return lines
