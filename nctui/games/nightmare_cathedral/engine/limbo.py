"""LIMBO: "All eliminated Followers are moved to the Limbo. You can take these Followers back to
your supply at any time, but it might be beneficial to leave them there" (CONFLICTS, LIMBO).

Taking them back is a free move that comes with the decisions where it can make a difference:
``ReturnFromLimbo`` for 1 of them, or all of them (never for the King, who has no Limbo). The
supply matters only when Followers are placed from it, so the move is offered where an action,
a reaction, an effect, a Ploy, a Dream or a Victory is about to begin (``BEFORE_EFFECTS``: what
it places may come from the supply without another decision), and in a step placing Followers
while Followers from Limbo would change its options (the supply is short). Elsewhere (choosing
combat cards, paying a Ritual step, a Limbo recovery…) it is not offered: it would change nothing
asked there, or only lose what Limbo pays (docs/rules-decisions.md). ``flow`` adds these options
to each decision it hands out (``offer``). After the move the decision due is asked again by its
rule, so that options depending on the supply are right (``flow`` resolves again). A Ritual
space being paid for is paid in full, so Followers stay in Limbo while 3 of them are the only way
left to pay it.
"""

from __future__ import annotations

from msgspec.structs import replace

from . import events as E, ritual, units
from .actions import ReturnFromLimbo
from .errors import IllegalAction
from .events import Event, plural
from .king import is_king
from .ops import set_player
from .state import Decision, GameState
from .work import ClimbPayWork, ConvertWork, ProduceWork

Events = list[Event]
LIMBO = "LIMBO"


def holder(state: GameState, d: Decision) -> int:
    """The Followers in the deciding seat's Limbo (0 for the King: it has none)."""
    if not 0 <= d.seat < len(state.players) or is_king(state, d.seat):
        return 0
    return state.players[d.seat].limbo


# The decisions after which an effect may place Followers from the supply without asking again.
BEFORE_EFFECTS = frozenset(
    (
        "choose_day",
        "react",
        "choose_action",
        "choose",
        "ritual_bonus",
        "develop",
        "play_ploy",
        "play_dream",
        "take_victory",
    )
)


def applies(state: GameState, d: Decision) -> bool:
    """Whether taking Followers back can make a difference at ``d`` (its seat's Limbo holds some)."""
    if d.kind in BEFORE_EFFECTS:
        return True
    w = state.work
    if not isinstance(w, ProduceWork | ConvertWork):
        return False
    from .table import RULES  # the table imports this module (its refusal of a take-back)

    pl = state.players[d.seat]
    refilled = set_player(state, replace(pl, supply=pl.supply + pl.limbo, limbo=0))
    return RULES[type(w)].options(refilled, w) != _base(d)


def returns(state: GameState, d: Decision) -> tuple[ReturnFromLimbo, ...]:
    """The take-back options that come with ``d``: 1 Follower, and all of them when Limbo holds
    more, where taking them back can make a difference (``applies``)."""
    held = holder(state, d)
    if not held or not applies(state, d):
        return ()
    return tuple(ReturnFromLimbo(count=n) for n in ((1, held) if held > 1 else (1,)))


def _payment_survives(state: GameState, left: int) -> bool:
    """PERFORM RITUAL: a space being paid for must be paid in full; Followers leave Limbo only if
    the payment can still be completed without them."""
    w = state.work
    return not isinstance(w, ClimbPayWork) or ritual.still_payable(state, w, left)


def _base(d: Decision) -> tuple:
    return tuple(o for o in d.options if not isinstance(o, ReturnFromLimbo))


def offer(state: GameState) -> GameState:
    """The decision due, with the take-back options its seat has now (and no stale ones)."""
    d = state.decision
    if d is None:
        return state
    if not (d.options and isinstance(d.options[-1], ReturnFromLimbo)):
        players = state.players  # ``holder``: an empty Limbo is 0 whoever holds it, the King's included
        if not 0 <= d.seat < len(players) or not players[d.seat].limbo or not holder(state, d):
            return state  # nothing to take back, and none offered: the usual case, said quickly
    extra = returns(state, d)
    if not extra and not (d.options and isinstance(d.options[-1], ReturnFromLimbo)):
        return state  # nothing to take back, and none offered (they always come last)
    options = _base(d) + extra
    return state if options == d.options else replace(state, decision=replace(d, options=options))


def take_back(state: GameState, seat: int, action: ReturnFromLimbo, ev: Events) -> GameState:
    """The Followers go back to the supply; ``flow`` then asks the decision due again."""
    state = units.from_limbo(state, seat, action.count)
    ev.append(E.LimboReturn(seat=seat, count=action.count))
    return state


def explain_return(state: GameState, action: ReturnFromLimbo) -> IllegalAction:
    d = state.decision
    assert d is not None
    held = holder(state, d)
    if is_king(state, d.seat):
        why = "the King of Horrors has no Limbo"
    elif held == 0:
        why = "there is no Follower in your Limbo to take back"
    elif action.count < 1:
        why = "take back at least 1 Follower"
    elif action.count > held:
        why = f"your Limbo holds only {plural(held, 'Follower')}"
    elif not _payment_survives(state, held - action.count):
        why = (
            "the Ritual space you are paying for must be paid in full, and only 3 Followers from Limbo can "
            "still pay it: finish the payment first"
        )
    elif not applies(state, d):
        why = (
            "taking Followers back changes nothing in this decision: it is offered before an action, a reaction or "
            "an effect begins, and while placing Followers with a supply too short"
        )
    else:
        why = f"take back 1 Follower or all {held} at once"
    return IllegalAction(why, rule="taking Followers back from Limbo", section=LIMBO)
