"""Cards in words, for the hand, the players' panels and the card inspector.

Every sentence comes from the content pack (an effect's ``text``, a Dream's ``text``): nothing
here words a rule of its own. ``entries`` lists the cards a viewer may look at, each as a
``CardEntry`` (a title and the lines of the whole card), for the inspector to browse.
"""

from functools import lru_cache
from typing import NamedTuple

from rich.style import Style
from rich.text import Text

from ...content import schema as cs
from ...describe import seat_letter, seat_name, words_for
from ...engine.events import HIDDEN
from ...engine.state import GameState
from ...engine.views import View
from .seats import seat_style

LABEL = Style(color="#9a9aaa")
NAME = Style(bold=True)


class CardEntry(NamedTuple):
    """One card (or Action card stack) as the inspector shows it. ``key``: 'card:<id>',
    'stack:<seat>:<action>', 'king:<action>' or 'nightmare:<n>'; ``where``: where it lies."""

    key: str
    where: str
    title: Text
    lines: tuple[Text, ...]


@lru_cache(maxsize=8)
def _index(pack_id: str) -> dict[str, object]:
    c = words_for(pack_id).pack.cards
    out: dict[str, object] = {a.id: a for a in c.actions}
    out[c.basic_combat.id] = c.basic_combat
    for group in (c.development, c.dreams, c.conflicts, c.reward_tiles, c.king_combat):
        out.update((x.id, x) for x in group)
    return out


def card_def(pack_id: str, card_id: str) -> object | None:
    """The content of a card, or None (a hidden or unknown card)."""
    return _index(pack_id).get(card_id)


def combat_text(cb: cs.Combat) -> str:
    """'2⚔ 1⛨': Attacks and Defenses (the icons of docs/content.md)."""
    return f"{cb.attack}⚔ {cb.defense}⛨"


def suit_tag(pack_id: str, suit_id: str) -> str:
    s = next((x for x in words_for(pack_id).pack.cards.suits if x.id == suit_id), None)
    return f"{s.glyph}{s.letter} {s.name}" if s else suit_id


def kind_words(pack_id: str, card: object) -> str:
    """'Upgrade · Ritual', 'Ploy', 'Dream · ♛C Crown · 3 VP', …"""
    w = words_for(pack_id)
    if isinstance(card, cs.DevelopmentCard):
        if card.kind == "ploy":
            return f"Ploy · Stage {card.stage}"
        vp = f" · {card.vp} VP" if card.vp else ""
        return f"Upgrade · {w.day_short(card.action or '')} · Stage {card.stage}{vp}"
    if isinstance(card, cs.DreamCard):
        return f"Dream · {suit_tag(pack_id, card.suit)} · {card.vp} VP · Stage {card.stage}"
    if isinstance(card, cs.ActionCard):
        return f"Action card · {w.day_short(card.action)}"
    if isinstance(card, cs.BasicCombat):
        return "Basic Combat card (never discarded)"
    if isinstance(card, cs.ConflictCard):
        return f"Conflict card · Stage {card.stage}"
    if isinstance(card, cs.RewardTile):
        return f"Reward tile · {card.colour}"
    if isinstance(card, cs.KingCombatCard):
        return f"the King's {card.kind} combat card"
    return ""


def _line(label: str, text: str) -> Text:
    t = Text(end="")
    t.append(f"{label}: ", LABEL)
    t.append(text)
    return t


def card_lines(pack_id: str, card: object) -> list[Text]:
    """The whole card: its kind, its combat icons, its effects in the pack's words."""
    out = [Text(kind_words(pack_id, card), LABEL)]
    combat = getattr(card, "combat", None)
    if isinstance(combat, cs.Combat):
        out.append(_line("Combat", combat_text(combat)))
    limit = getattr(card, "unit_limit", 0)
    if limit:
        one = getattr(card, "unit_limit_one_area", 0)
        out.append(_line("Unit Limit", f"{limit}" + (f" ({one} in one area)" if one else "")))
    for part, label in (("day", "Day"), ("conform", "Conform"), ("dissent", "Dissent"), ("effect", "Effect")):
        effect = getattr(card, part, None)
        if isinstance(effect, cs.Effect) and effect.text.strip("- "):  # NO_EFFECT reads "-"
            out.append(_line(label, effect.text))
    if isinstance(card, cs.DreamCard):
        out.append(_line("Play", card.text))
        if card.cathedral:
            out.append(_line("✝ Cathedral icon", "in the Variable Length Game playing it builds a Cathedral piece"))
    if isinstance(card, cs.ConflictCard):
        for ln in card.lines:
            out.append(_line(f"{ln.shadows} Shadow{'s' if ln.shadows > 1 else ''}", combat_text(ln.combat)))
        out.append(_line("Victory", card.victory.text))
        out.append(_line("Defeat", card.defeat.text))
    if isinstance(card, cs.KingCombatCard) and card.text:
        out.append(Text(card.text))
    return out


def card_entry(pack_id: str, card_id: str, where: str) -> CardEntry | None:
    card = card_def(pack_id, card_id)
    if card is None:
        return None
    return CardEntry(
        f"card:{card_id}", where, Text(getattr(card, "name", card_id), NAME), tuple(card_lines(pack_id, card))
    )


def stack_entry(state: GameState, seat: int, index: int) -> CardEntry | None:
    """A player's Action card stack: the top card's effects, the Upgrades under it."""
    pl = state.players[seat]
    if index >= len(pl.display) or not pl.display[index]:
        return None
    stack = pl.display[index]
    top = card_def(state.pack, stack[-1])
    if top is None:
        return None
    action = words_for(state.pack).pack.matrix.rondel[index]
    title = Text(end="")
    title.append(f"{seat_letter(state, seat)} ", seat_style(state, seat))
    title.append(getattr(top, "name", stack[-1]), NAME)
    lines = card_lines(state.pack, top)
    lines[0] = Text(
        f"{seat_name(state, seat)}'s {words_for(state.pack).day_short(action)} Action card "
        f"({kind_words(state.pack, top)})",
        LABEL,
    )
    if len(stack) > 1:
        under = ", ".join(getattr(card_def(state.pack, c), "name", c) for c in reversed(stack[:-1]))
        lines.append(_line("Covered (no longer in effect)", under))
    return CardEntry(f"stack:{seat}:{action}", f"{seat_name(state, seat)}'s Action cards", title, tuple(lines))


def king_action_entry(state: GameState, index: int) -> CardEntry | None:
    """Solo: a King's Action card with its Cultists and tucked cards (its Power)."""
    king = state.king
    cards = words_for(state.pack).pack.cards.king_actions
    rondel = words_for(state.pack).pack.matrix.rondel
    action = rondel[index]
    card = next((c for c in cards if c.action == action), None)
    if king is None or card is None:
        return None
    cultists = king.card_cultists[index] if index < len(king.card_cultists) else 0
    tucked = len(king.tucked[index]) if index < len(king.tucked) else 0
    lines = [
        Text(f"the King's {words_for(state.pack).day_short(action)} Action card", LABEL),
        _line("Power now", f"{cultists + tucked} ({cultists} Cultists on it, {tucked} cards tucked under it)"),
    ]
    lines += [_line(f"Power {row.power}", row.text) for row in card.rows]
    if card.note:
        lines.append(_line("Always", card.note))
    return CardEntry(f"king:{action}", "the King's Action cards", Text(card.name, NAME), tuple(lines))


def nightmare_entry(state: GameState, number: int, where: str) -> CardEntry | None:
    card = next((c for c in words_for(state.pack).pack.cards.nightmares if c.number == number), None)
    if card is None:
        return None
    lines = [Text(f"Nightmare {number} · {where}", LABEL), _line("Command", card.command.text), Text(card.text)]
    numbers = " / ".join("-" if n is None else str(n) for n in card.devoured)
    lines.append(_line("Devoured Units number (1-2 / 3 / 4 players)", numbers))
    king = next((c for c in words_for(state.pack).pack.cards.king_nightmares if c.number == number), None)
    if state.king is not None and king is not None:
        lines.append(_line("When the King commands it", king.text))
    return CardEntry(f"nightmare:{number}", "the Nightmares", Text(card.name, NAME), tuple(lines))


def entries(view: View) -> list[CardEntry]:
    """Every card the viewer may look at, in the order the inspector browses them: the viewer's
    hand and Dreams, then each player's Action cards and played Dreams, the Dream offer, the
    Reward tiles, the Nightmares and, in solo, the King's cards."""
    state, me = view.state, view.seat
    pack = state.pack
    out: list[CardEntry | None] = []
    if 0 <= me < len(state.players):
        pl = state.players[me]
        out += [card_entry(pack, c, "your hand") for c in dict.fromkeys(pl.hand)]
        out += [card_entry(pack, c, "your Dreams") for c in dict.fromkeys(pl.dreams)]
    order = ([me] if 0 <= me < len(state.players) else []) + [p.seat for p in state.players if p.seat != me]
    for seat in order:
        if state.king is not None and seat == state.king.seat:
            continue
        out += [stack_entry(state, seat, i) for i in range(len(state.players[seat].display))]
    for pl in state.players:
        out += [card_entry(pack, c, f"played by {seat_name(state, pl.seat)}") for c in pl.dreams_played]
        out += [card_entry(pack, c, f"Reward tile of {seat_name(state, pl.seat)}") for c in pl.tiles]
    out += [card_entry(pack, c, "the Dream offer") for c in state.decks.dream_offer]
    out += [card_entry(pack, tile, f"Reward tile by piece {piece}") for piece, tile in state.path_tiles]
    out += [nightmare_entry(state, n, "in play") for n in state.nightmares]
    king = state.king
    if king is not None:
        out += [king_action_entry(state, i) for i in range(len(words_for(pack).pack.matrix.rondel))]
        out += [card_entry(pack, c, "the King's Dreams") for c in king.dreams]
        out += [card_entry(pack, c, "the King's completed Dreams") for c in king.completed]
        out += [card_entry(pack, c, "the King's combat cards") for c in dict.fromkeys(king.hand) if c != HIDDEN]
    seen: set[str] = set()
    result = []
    for e in out:
        if e is not None and e.key not in seen:
            seen.add(e.key)
            result.append(e)
    return result
