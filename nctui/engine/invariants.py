"""Invariants that hold in every reachable state; random-play tests and `simulate` check them."""

from __future__ import annotations

from collections import Counter

from . import board, divergent
from .actions import ReturnFromLimbo
from .events import HIDDEN
from .flow import decision_of
from .king_state import KING_COMBAT
from .limbo import returns
from .state import BASIC_COMBAT, FOLLOWERS, FORT_LEVELS, SHADOWS, UNIT_LIMIT, GameState
from .work import CardToBottom, Fight, KeepWork, KingTuckWork


def violations(state: GameState) -> list[str]:
    """Every broken invariant, in words (empty when all hold)."""
    out: list[str] = []
    out += _pieces(state)
    if state.turn_start >= 0:  # the cards are dealt once the Turn track is set (SETUP 7-16)
        out += _cards(state)
    out += _board(state)
    out += _nightmares(state)
    if state.config.divergent_paths and state.turn_start >= 0:
        out += divergent.violations(state)
    for pl in state.players:
        if not set(pl.free_dreams) <= set(pl.dreams):
            out.append(f"seat {pl.seat}: a Dream exempt from the limit is not in hand")
    if state.phase == "over":
        if state.decision is not None or state.outcome is None:
            out.append("a finished game has an outcome and no decision")
    elif state.decision is None or not state.decision.options:
        out.append("an unfinished game always has a decider with options")
    out += _decision(state)
    return out


def _decision(state: GameState) -> list[str]:
    """The decision is the one its Work's rule asks (which lets LIMBO's take-back ask it again),
    and the take-back options a decision carries are its seat's (``flow`` adds them all; a
    hand-built position may lack them)."""
    d = state.decision
    if d is None:
        return []
    out = []
    taken = tuple(o for o in d.options if isinstance(o, ReturnFromLimbo))
    if not set(taken) <= set(returns(state, d)):
        out.append(f"the decision offers {taken} to take Followers back from Limbo, not {returns(state, d)}")
    if state.work is None:
        return [*out, f"the decision {d.kind} comes from no Work"]
    asked = decision_of(state, state.work)
    base = d.options[:len(d.options) - len(taken)]
    if asked is None or (asked.seat, asked.kind, asked.options) != (d.seat, d.kind, base):
        out.append(f"the decision {d.kind} is not the one its step ({type(state.work).__name__}) asks")
    return out


def _pieces(state: GameState) -> list[str]:
    out = []
    for pl in state.players:
        on_board = sum(a.followers[pl.seat] for a in state.areas)
        if pl.supply + pl.limbo + on_board + pl.devoured + pl.on_track != FOLLOWERS or min(pl.supply, pl.limbo) < 0:
            out.append(f"seat {pl.seat}: Followers not conserved ({pl.supply}+{pl.limbo}+{on_board}+{pl.devoured})")
        forts = sum(a.fort_levels for a in state.areas if a.fort_owner == pl.seat)
        if pl.forts + forts != FORT_LEVELS or pl.forts < 0:
            out.append(f"seat {pl.seat}: Fort levels not conserved")
    if state.shadows + sum(a.shadows for a in state.areas) + state.devoured_shadows != SHADOWS or state.shadows < 0:
        out.append("Shadows not conserved")
    return out


def _cards(state: GameState) -> list[str]:
    p = board.pack(state)
    d = state.decks
    conflict_ids = {c.id for c in p.cards.conflicts}
    removed = tuple(c for c in d.removed if c not in conflict_ids)  # the Stage II space removes Conflicts too
    seen = Counter(d.development + d.development_discard + d.development2 + removed + _cards_in_work(state))
    for pl in state.players:
        seen.update(pl.hand)
        seen.update(c for stack in pl.display for c in stack[1:])
    k = state.king
    if k is not None:  # solo: the King's hand (its own combat cards aside) and its tucked cards
        seen.update(c for c in k.hand if c not in KING_COMBAT)
        seen.update(c for stack in k.tucked for c in stack)
    dev = Counter({c.id: 1 for c in p.cards.development})
    dev[BASIC_COMBAT] = len(state.players) - (k is not None)
    out = []
    if HIDDEN in seen:
        out.append("a hidden placeholder is in the state itself")
    if seen != dev:
        out.append(f"Development cards not conserved: {sorted((seen - dev) + (dev - seen))[:5]}")
    dreams = Counter(d.dream + d.dream_offer + d.dream2 + _dreams_in_work(state))
    for pl in state.players:
        dreams.update(pl.dreams + pl.dreams_played)
    if k is not None:
        dreams.update(k.dreams + k.completed)
        if sum(c in KING_COMBAT for c in k.hand) + _king_combat_in_play(state) != len(KING_COMBAT):
            out.append("the King's 2 combat cards are not conserved")
    if dreams != Counter({c.id: 1 for c in p.cards.dreams}):
        out.append("Dream cards not conserved")
    conflicts = Counter(d.conflict + d.conflict2 + _cards_in_work(state, "conflict"))
    conflicts.update(c for c in d.removed if c in conflict_ids)  # Stage 1 Conflicts after the Stage II space
    if conflicts != Counter(conflict_ids):
        out.append("Conflict cards not conserved")
    return out


def _board(state: GameState) -> list[str]:
    out = []
    for a in state.areas:
        if a.fort_levels and not 1 <= a.fort_levels <= 3:
            out.append(f"{a.id}: a Fort has 1 to 3 levels")
        if (a.fort_levels == 0) != (a.fort_owner == -1):
            out.append(f"{a.id}: Fort owner and levels disagree")
        if a.fortress >= 0 and (a.fort_owner != a.fortress or a.fort_levels < 1):
            out.append(f"{a.id}: the Fortress lost its last Fort level")
        if a.shadows > UNIT_LIMIT:
            out.append(f"{a.id}: more than {UNIT_LIMIT} Shadows")
        if any(f < 0 for f in a.followers) or a.shadows < 0:
            out.append(f"{a.id}: negative units")
        if any(f > 5 for f in a.followers):
            out.append(f"{a.id}: more Followers than any Unit Limit allows")
    if state.phase != "setup":
        for pl in state.players:
            if pl.shaper == "" and not (state.king is not None and pl.seat == state.king.seat):  # no Shaper
                out.append(f"seat {pl.seat}: the Shaper is off the board")
    return out


def _nightmares(state: GameState) -> list[str]:
    """THE NIGHTMARE CATHEDRAL: off the board in Stage 1; in Stage 2 each in the Cathedral space or
    an area in play; a commanded Nightmare is one of the two; the devoured end only in Stage 2."""
    out = []
    where = state.nightmare_at
    if where and len(where) != len(state.nightmares):
        out.append("one place per Nightmare")
    if state.stage < 2 and any(where):
        out.append("a Nightmare is on the board before the Cathedral is complete")
    in_play = board.area_index(state)
    if state.stage >= 2 and (len(where) != len(state.nightmares)
                             or any(w != board.CATHEDRAL and w not in in_play for w in where)):
        out.append(f"Stage 2: every Nightmare is in the Cathedral space or an area in play, not {where}")
    active = ((state.commanding,) if state.commanding else ()) + tuple(n for n, _ in state.suspended)
    if any(n not in state.nightmares for n in active):
        out.append(f"a Nightmare not in play is being commanded: {active}")
    if state.suspended and not state.commanding:
        out.append("an interrupted activation with no Nightmare commanded")
    if not state.commanding and state.visited:
        out.append("areas visited with no Nightmare commanded")
    if any(n not in state.nightmares for _, n in state.commanded):
        out.append("a Nightmare not in play was commanded")
    if state.devoured_shadows < 0 or any(pl.devoured < 0 for pl in state.players):
        out.append("negative devoured units")
    if state.end_triggered and state.stage < 2:
        out.append("the devoured end was triggered before Stage 2")
    if state.outcome is not None and state.outcome.reason == "devoured" and len({p.turns for p in state.players}) != 1:
        out.append("a devoured end before every player had an equal number of turns")
    return out


def _fight(state: GameState) -> Fight | None:
    """The conflict being fought, if a decision of one of its stages is due."""
    f = getattr(state.work, "fight", None)
    return f if isinstance(f, Fight) else None


def _king_combat_in_play(state: GameState) -> int:
    """The King's own combat cards played in a conflict still in progress."""
    f = _fight(state)
    return 0 if f is None else sum(c in KING_COMBAT for c in f.plays[0] + f.plays[1])


def _cards_in_work(state: GameState, deck: str = "development") -> tuple[str, ...]:
    """Cards set aside by a step in progress: Development cards drawn and not yet kept, played
    in a conflict, or drawn by the King and waiting to be tucked; with ``deck="conflict"``, the
    Conflict card played for the Shadows, until its Victory or Defeat effect is resolved."""
    w = state.work
    f = _fight(state)
    held: tuple[str, ...] = ()
    if deck == "conflict":
        if f is not None and f.shadow_card:
            held += (f.shadow_card,)
        return held + tuple(fr.then.card for fr in state.frames if isinstance(fr.then, CardToBottom))
    if isinstance(w, KeepWork) and w.deck.startswith("development"):
        held += w.drawn
    if f is not None:
        held += tuple(c for c in f.plays[0] + f.plays[1] if c not in KING_COMBAT)  # the King's are not Development cards
    if isinstance(w, KingTuckWork):  # solo DEVELOP: the card waits for your choice of Action card
        held += (w.card,)
    return held


def _dreams_in_work(state: GameState) -> tuple[str, ...]:
    """Dream cards drawn and not yet kept (a Reward tile's draw from the Stage 2 Dream deck)."""
    w = state.work
    if isinstance(w, KeepWork) and w.deck.startswith("dream"):
        return w.drawn
    return ()
