"""GAME END & SCORING: the final score of each seat and the Outcome."""

from __future__ import annotations

from typing import Literal

from msgspec.structs import replace

from . import board, cards, events as E
from .events import Event
from .king import king, king_combat_cards, modifier
from .state import GameState, Outcome, S, Score
from .work import CardToBottom, fight_of

DEVOURED_VP = (8, 5, 3, 2)  # most, 2nd, 3rd, fewest
FORT_VP = {2: 1, 3: 2}  # by Fort levels


def ritual_vp(state: GameState, best: int) -> int:
    """A marker scores the highest VP space it has reached."""
    spaces = board.pack(state).tracks.ritual
    return max((sp.vp for sp in spaces[:best]), default=0)


def fort_vp(state: GameState, seat: int) -> int:
    """1 VP for a Fort of 2 levels, 2 VP for a Fort of 3."""
    return sum(FORT_VP.get(a.fort_levels, 0) for a in state.areas if a.fort_owner == seat)


def devoured_vp(state: GameState) -> tuple[int, ...]:
    """FINAL SCORE 3: 8/5/3/2 for most to fewest devoured units (the highest numbers with fewer
    sides: 8/5/3 with 2 players); ties share the summed positions, rounded down; the Shadows hold a
    position but score nothing. Every side takes a position, one with nothing devoured too: it has
    the fewest. FINAL SCORE 3 names no stage: a game ending in Stage 1 (nobody devoured) scores
    it too, every side tied for all the positions (docs/rules-decisions.md)."""
    return tuple(line.vp for line in devoured_lines(state))


class RitualLine(S):
    """One Ritual marker: the furthest space it reached and the VP of the best space up to it."""

    marker: int
    space: int
    vp: int


class FortLine(S):
    area: str
    levels: int
    vp: int


class DevouredLine(S):
    """FINAL SCORE 3 for one side: its count, the positions it shares (1 = most), the sides
    sharing them (the Shadows counted), the VP pooled over those positions, its share."""

    devoured: int
    first: int
    last: int
    tied: int
    pool: int
    vp: int


class CardLine(S):
    """A card that scores: an Upgrade in the display or a Dream played (the King's completed)."""

    card: str
    vp: int


class SuitSetLine(S):
    """Solo: the King's set bonus for the Dreams of one suit it completed."""

    suit: str
    count: int
    vp: int


class KingExtraLine(S):
    """Solo: the King's Reward tiles and the cards left in its hand, together worth ``vp``."""

    tiles: int
    vp: int


class Breakdown(S):
    """Where every VP of one seat's final score came from; each group sums to its Score field."""

    seat: int
    ritual: tuple[RitualLine, ...] = ()
    forts: tuple[FortLine, ...] = ()
    devoured: DevouredLine | None = None
    upgrades: tuple[CardLine, ...] = ()
    dreams: tuple[CardLine, ...] = ()
    suit_sets: tuple[SuitSetLine, ...] = ()
    king_extra: KingExtraLine | None = None


def devoured_lines(state: GameState) -> tuple[DevouredLine, ...]:
    """``devoured_vp`` with its reasons, one line per player seat."""
    sides = [(pl.devoured, pl.seat) for pl in state.players] + [(state.devoured_shadows, -1)]
    ranked = sorted(sides, key=lambda s: -s[0])
    lines: dict[int, DevouredLine] = {}
    pos = 0
    while pos < len(ranked):
        tied = [s for s in ranked if s[0] == ranked[pos][0]]
        pool = sum(DEVOURED_VP[pos : pos + len(tied)])
        for n, seat in tied:
            if seat >= 0:
                lines[seat] = DevouredLine(
                    devoured=n, first=pos + 1, last=pos + len(tied), tied=len(tied), pool=pool, vp=pool // len(tied)
                )
        pos += len(tied)
    return tuple(lines[pl.seat] for pl in state.players)


def breakdowns(state: GameState) -> tuple[Breakdown, ...]:
    """Every seat's score source by source, from a finished game's state (its outcome for what a
    viewer cannot see: the King's hand). The groups sum to ``state.outcome.scores``."""
    pack = board.pack(state)
    dream_cards = {d.id: d.vp for d in pack.cards.dreams}
    dev_cards = {d.id: d.vp for d in pack.cards.development}
    dev = devoured_lines(state)
    out = []
    for pl in state.players:
        ritual = tuple(RitualLine(marker=i, space=b, vp=ritual_vp(state, b)) for i, b in enumerate(pl.ritual_best))
        forts = tuple(
            FortLine(area=a.id, levels=a.fort_levels, vp=FORT_VP[a.fort_levels])
            for a in state.areas
            if a.fort_owner == pl.seat and a.fort_levels in FORT_VP
        )
        ups = tuple(CardLine(card=c, vp=dev_cards[c]) for st in pl.display for c in st if dev_cards.get(c, 0))
        dreams = tuple(CardLine(card=c, vp=dream_cards[c]) for c in pl.dreams_played)
        b = Breakdown(seat=pl.seat, ritual=ritual, forts=forts, devoured=dev[pl.seat], upgrades=ups, dreams=dreams)
        if state.king is not None and pl.seat == king(state).seat:
            done, sets = _king_dream_lines(state)
            total = state.outcome.scores[pl.seat].upgrades if state.outcome is not None else king_extra_vp(state)
            b = replace(
                b,
                upgrades=(),
                dreams=done,
                suit_sets=sets,
                king_extra=KingExtraLine(tiles=len(pl.tiles), vp=total),
            )
        out.append(b)
    return tuple(out)


def upgrade_vp(state: GameState, seat: int) -> int:
    cards = {d.id: d.vp for d in board.pack(state).cards.development}
    return sum(cards.get(c, 0) for stack in state.players[seat].display for c in stack)


def dream_vp(state: GameState, seat: int) -> int:
    cards = {d.id: d.vp for d in board.pack(state).cards.dreams}
    return sum(cards[c] for c in state.players[seat].dreams_played)


def scores(state: GameState) -> tuple[Score, ...]:
    dev = devoured_vp(state)
    result = tuple(
        Score(
            seat=pl.seat,
            ritual=sum(ritual_vp(state, b) for b in pl.ritual_best),
            forts=fort_vp(state, pl.seat),
            devoured=dev[pl.seat],
            upgrades=upgrade_vp(state, pl.seat),
            dreams=dream_vp(state, pl.seat),
        )
        for pl in state.players
    )
    return _king_score(state, result) if state.king is not None else result


def _king_score(state: GameState, result: tuple[Score, ...]) -> tuple[Score, ...]:
    """Solo ENDGAME & SCORING: the King's ``dreams`` are its completed Dreams with the suit sets;
    its ``upgrades`` (it plays none) hold its Reward tiles and every 3rd card in hand."""
    seat = king(state).seat
    k = replace(result[seat], dreams=king_dream_vp(state), upgrades=king_extra_vp(state))
    return result[:seat] + (k,) + result[seat + 1 :]


# Solo ENDGAME & SCORING: the King's own VP

SUIT_SET_VP = (0, 0, 1, 3, 6, 10, 15, 21)  # by Dreams completed of one suit: 1/2/3/4/5/6/7


def king_dream_vp(state: GameState) -> int:
    """The printed VP of its completed Dreams, plus 0/1/3/6/10/15/21 per suit for 1-7 of it."""
    done, sets = _king_dream_lines(state)
    return sum(c.vp for c in done) + sum(s.vp for s in sets)


def _king_dream_lines(state: GameState) -> tuple[tuple[CardLine, ...], tuple[SuitSetLine, ...]]:
    done = [cards.dream(state, c) for c in king(state).completed]
    suits = [d.suit for d in done]
    sets = (
        SuitSetLine(suit=s, count=suits.count(s), vp=SUIT_SET_VP[min(suits.count(s), 7)]) for s in sorted(set(suits))
    )
    return tuple(CardLine(card=d.id, vp=d.vp) for d in done), tuple(s for s in sets if s.vp)


def king_extra_vp(state: GameState) -> int:
    """1 VP per Divergent Paths Reward tile it claimed, 1 VP for every 3rd card left in its hand
    (its Basic Combat and Shield included)."""
    k = king(state)
    if modifier(state, "harder_hand_scoring"):  # harder: 1 VP per card, its own 2 combat cards excluded
        return len(state.players[k.seat].tiles) + _hand_cards_scored(state, k.hand)
    return len(state.players[k.seat].tiles) + len(k.hand) // 3


def _hand_cards_scored(state: GameState, hand: tuple[str, ...]) -> int:
    """The cards in its hand other than its own 2 combat cards. In a seat's view the hand is
    face down, but where its combat cards are is known: they return to its hand after every
    conflict (RESOLVING CONFLICTS AGAINST THE KING 5), so the hidden cards hold all of them but
    those seen on the table. (Played face down in a conflict, they are counted in its hand.)"""
    combat = king_combat_cards(state)
    hidden = hand.count(E.HIDDEN)
    known = sum(c != E.HIDDEN and c not in combat for c in hand)
    if not hidden:
        return known
    seen = {c for c in _played(state) if c in combat} | {c for c in hand if c in combat}
    return known + max(0, hidden - (len(combat) - len(seen)))


def _played(state: GameState) -> tuple[str, ...]:
    """Cards on the table in a conflict: in the fight being fought, or waiting to be put away."""
    out: tuple[str, ...] = ()
    f = fight_of(state.work)
    if f is not None:
        out += f.plays[0] + f.plays[1]
    for fr in state.frames:
        if isinstance(fr.then, CardToBottom):
            out += fr.then.plays[0] + fr.then.plays[1]
    return out


def winners(result: tuple[Score, ...]) -> tuple[tuple[int, ...], str]:
    """Most VP wins. The rulebook gives no tie-break; ours: most VP from Dreams, then most VP
    from the Ritual track; still tied, the victory is shared (docs/rules-decisions.md)."""
    best = max(s.total for s in result)
    tied = [s for s in result if s.total == best]
    if len(tied) == 1:
        return (tied[0].seat,), ""
    tie_breaks = (("most VP from Dreams", lambda s: s.dreams), ("most VP from the Ritual track", lambda s: s.ritual))
    for label, key in tie_breaks:
        top = max(key(s) for s in tied)
        tied = [s for s in tied if key(s) == top]
        if len(tied) == 1:
            return (tied[0].seat,), label
    return tuple(s.seat for s in tied), "shared victory"


def solo_winner(state: GameState, result: tuple[Score, ...]) -> tuple[tuple[int, ...], str]:
    """Solo: you win only with strictly more VP than the King; a tie is the King's."""
    seat = king(state).seat
    human = next(s for s in result if s.seat != seat)
    if human.total > result[seat].total:
        return (human.seat,), ""
    return (seat,), "a tie goes to the King" if human.total == result[seat].total else ""


def devoured_end_due(state: GameState) -> bool:
    """GAME END: once the devoured threshold has triggered the end, play goes on until all
    players have had an equal number of turns (checked at the end of each turn)."""
    return state.end_triggered and len({pl.turns for pl in state.players}) == 1


def end_game(state: GameState, reason: Literal["time", "devoured"], ev: list[Event]) -> GameState:
    result = scores(state)
    won, tie = winners(result) if state.king is None else solo_winner(state, result)
    outcome = Outcome(reason=reason, scores=result, winners=won, tie_break=tie)
    ev.append(E.GameOver(reason=reason, winners=won))
    return replace(state, phase="over", decision=None, outcome=outcome, queue=())
