"""PLAYING DREAM CARDS: conditions, timings, the golden rule and the personal discard pile.

The golden rule: Dream cards are played only before an Action or Reaction is complete, never
in the middle of one. So ``turn`` opens a window exactly when a Day effect, a Conform or Dissent
effect, or "ignore and draw 2" has finished resolving, and at step 6 of the active player's
turn, before the reactions; what follows waits beneath it. No window opens when the player has
nothing playable. The Cathedral icon on a Dream card is ignored in the Standard
Game; in the Variable Length Game playing the card builds a Cathedral piece (``cathedral``).
"""

from __future__ import annotations

from msgspec.structs import replace

from ..content import schema as cs
from . import board, cards, cathedral, events as E
from .actions import Action, Done, PlayDream
from .effects import push_effect
from .errors import IllegalAction
from .events import Event
from .ops import drop_dream, set_player
from .rules import Refusal, Rule, legal, with_stop
from .state import GameState
from .work import DreamPlayed, DreamWork

Events = list[Event]
SECTION = "PLAYING DREAM CARDS"

# ---------------------------------------------------------------------------------------------
# Conditions


def _controlled(state: GameState, seat: int, where: str = "any") -> tuple[str, ...]:
    if where == "any":  # every area in play, in order: no need to look each up
        return tuple(a.id for a in state.areas if board.controller(a) == seat)
    return tuple(a for a in board.areas_matching(state, seat, where) if board.controller(board.area(state, a)) == seat)


def _present(state: GameState, seat: int, where: str = "any") -> tuple[str, ...]:
    if where == "any":
        return tuple(a.id for a in state.areas if board.present(a, seat))
    return tuple(a for a in board.areas_matching(state, seat, where) if board.present(board.area(state, a), seat))


def _fort_levels(state: GameState, seat: int) -> tuple[int, ...]:
    return tuple(a.fort_levels for a in state.areas if a.fort_owner == seat)


def _upgrades_in_display(state: GameState, seat: int) -> int:
    """Upgrades in the display stacks, covered ones included (they stay in the display)."""
    return sum(1 for stack in state.players[seat].display for c in stack if cards.is_upgrade(state, c))


def _no_shadows_near_fortress(state: GameState, seat: int) -> bool:
    fortress = board.areas_matching(state, seat, "fortress")
    near = set(fortress).union(*(board.adjacent(state, a) for a in fortress))
    return bool(fortress) and all(board.area(state, a).shadows == 0 for a in near)


def _ritual(state: GameState, seat: int, need: cs.RitualReached) -> bool:
    """A marker's position counts: 0 is the start, space N is the Nth space after it."""
    reached = [pos >= need.space for pos in state.players[seat].ritual]
    return all(reached) if need.both else any(reached)


# Small helpers, so that ``condition_met`` (asked of every Dream in hand whenever a window may
# open) makes no closure over its arguments at each call.


def _symbols_controlled(state: GameState, seat: int) -> int:
    return len({board.symbol_of(state, a) for a in _controlled(state, seat)})


def _most_in_an_area(state: GameState, seat: int) -> int:
    return max(a.followers[seat] for a in state.areas)


def _on_board(state: GameState, seat: int) -> int:
    return sum(a.followers[seat] for a in state.areas)


def _forts_with(state: GameState, seat: int, levels: int) -> int:
    return sum(1 for k in _fort_levels(state, seat) if k >= levels)


def condition_met(state: GameState, seat: int, need: cs.Condition) -> bool:
    """A Dream card's condition (content.schema.Condition), for ``seat`` now."""
    pl = state.players[seat]
    match need:
        case cs.ControlAreas(count=n, where=where):
            return len(_controlled(state, seat, where)) >= n
        case cs.ControlSymbols(count=n):
            return _symbols_controlled(state, seat) >= n
        case cs.PresenceAreas(count=n, where=where):
            return len(_present(state, seat, where)) >= n
        case cs.FollowersInArea(count=n):
            return _most_in_an_area(state, seat) >= n
        case cs.FollowersOnBoard(count=n):
            return _on_board(state, seat) >= n
        case cs.FortLevels(count=n):
            return sum(_fort_levels(state, seat)) >= n
        case cs.FortsWithLevels(count=n, levels=levels):
            return _forts_with(state, seat, levels) >= n
        case cs.RitualReached():
            return _ritual(state, seat, need)
        case cs.LimboAtLeast(count=n):
            return pl.limbo >= n
        case cs.HandAtLeast(count=n):
            return len(pl.hand) >= n  # Basic Combat counts
        case cs.UpgradesPlayed(count=n):
            return _upgrades_in_display(state, seat) >= n
        case cs.ShaperIn(where=where):
            return pl.shaper in board.areas_matching(state, seat, where)
        case cs.NoShadowsAdjacentFortress():
            return _no_shadows_near_fortress(state, seat)
        case cs.ConflictsWon(count=n):
            return pl.conflicts_won >= n
        case cs.DevouredAtLeast(count=n):
            return state.stage >= 2 and pl.devoured >= n
    raise ValueError(f"unknown Dream condition {need!r}")


def conditions_met(state: GameState, seat: int, card_id: str) -> bool:
    for need in cards.dream(state, card_id).needs:  # all(...), without a closure
        if not condition_met(state, seat, need):
            return False
    return True


# ---------------------------------------------------------------------------------------------
# Timing


def _step6(state: GameState, seat: int) -> bool:
    """Step 6 of the active player's own turn (the reactions are the inactive players')."""
    return state.phase == "reactions" and seat == state.active


def timings(state: GameState, seat: int) -> tuple[str, ...]:
    """The Dream timings open to ``seat`` in a window now."""
    out = ["any_time"]
    if seat == state.active:
        out.append("own_turn")
    if state.players[seat].conflicts_won > 0:
        out.append("after_conflict_won")
    if _step6(state, seat):
        out.append("end_of_own_turn")
    return tuple(out)


def playable(state: GameState, seat: int, when: tuple[str, ...]) -> tuple[str, ...]:
    """Dreams in hand whose timing is open, whose conditions are met and whose effect resolves."""
    out = []
    for card_id in dict.fromkeys(state.players[seat].dreams):
        card = cards.dream(state, card_id)
        if card.when in when and conditions_met(state, seat, card_id):
            out.append(card_id)
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# The window


def open_window(state: GameState, seat: int) -> GameState:
    """Offer ``seat`` its playable Dreams; with none, nothing happens (what waits beneath goes on)."""
    when = timings(state, seat)
    if not playable(state, seat, when):
        return state
    return replace(state, work=DreamWork(seat=seat, timings=when))


def _options(state: GameState, w: DreamWork) -> tuple[Action, ...]:
    opts = legal(state, w, (PlayDream(card=c) for c in dict.fromkeys(state.players[w.seat].dreams)), _refusal)
    return with_stop(opts, True)


def _apply(state: GameState, w: DreamWork, action: PlayDream | Done, ev: Events) -> GameState:
    """A Dream card goes to the personal discard pile (it scores at the end); its effect
    resolves as completely as possible; then the window reopens. Done closes the window."""
    if isinstance(action, Done):
        ev.append(E.Stopped(seat=w.seat, decision="play_dream"))
        return replace(state, work=None)
    pl = state.players[w.seat]
    state = set_player(state, replace(drop_dream(pl, action.card), dreams_played=pl.dreams_played + (action.card,)))
    card = cards.dream(state, action.card)
    ev.append(E.DreamPlayed(seat=w.seat, card=action.card, vp=card.vp))
    state = push_effect(
        replace(state, work=None),
        w.seat,
        card.effect.steps,
        "dream",
        card=action.card,
        must=True,
        then=DreamPlayed(seat=w.seat),
    )
    if card.cathedral:  # Variable Length Game: the piece is built before the Dream's effect
        return cathedral.cathedral_dream(state, w.seat, ev)
    return state


def dream_played(state: GameState, then: DreamPlayed, ev: Events) -> GameState:
    return open_window(state, then.seat)


WHEN = {
    "any_time": "at any time",
    "own_turn": "on your own turn",
    "after_conflict_won": "after you win a conflict",
    "end_of_own_turn": "at the end of your own turn",
}


def _refusal(state: GameState, w: DreamWork, action: PlayDream) -> Refusal:
    seat = w.seat
    if action.card not in state.players[seat].dreams:
        return IllegalAction(
            f"{action.card or 'that card'} is not a Dream card in your hand",
            rule="play from your hand",
            section=SECTION,
        )
    card = cards.dream(state, action.card)
    if card.when not in w.timings:
        return IllegalAction(
            f"{card.name} may be played only {WHEN[card.when]}", rule="each Dream says when", section=SECTION
        )
    if not conditions_met(state, seat, action.card):
        return IllegalAction(
            f"the conditions of {card.name} are not met: {card.text}", rule="each Dream's conditions", section=SECTION
        )
    return None


PLAY_DREAM = Rule(DreamWork, (PlayDream,), _options, _refusal, _apply)


def explain_no_window(state: GameState, action: PlayDream) -> IllegalAction:
    """The golden rule: Dreams only before an Action or Reaction is complete, never mid-way."""
    if state.frames:
        return IllegalAction(
            "Dream cards may be played only before an Action or Reaction is complete, never in the middle of one",
            rule="the golden rule",
            section=SECTION,
        )
    return IllegalAction(
        "no Dream card can be played now: wait for the end of an action or reaction, when your "
        "Dream's timing and conditions are met",
        rule="each Dream says when",
        section=SECTION,
    )
