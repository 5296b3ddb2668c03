"""Words for the decision that is due: its question, from the Work that asks it (its kind and
parameters) and the position it is asked in. A viewer's state is enough: nothing here needs a
hidden card."""

from __future__ import annotations

from ..engine import board, divergent, ritual, units, work as W
from ..engine.actions import Done, PayLimbo
from ..engine.conflict import card_limit, loser_of
from ..engine.flow import decision_of
from ..engine.state import HAND_LIMIT, GameState
from ..engine.work import kind_of
from .names import Words, plural, words_for

WAIT = "your supply is empty (take Followers back from Limbo, or stop)"
BONUS_TEXT = {
    "movement3": "receive 3 Movement Points",
    "fort_level": "add 1 Fort level to an area you control",
    "shaper_convert": "move your Shaper to an adjacent area, then perform 1 Conversion",
    "produce2": "Produce 2 spread among areas you control",
    "command_nightmare": "command a Nightmare",
}


def describe_decision(state: GameState) -> str:
    """The question of the decision due ('' when none is)."""
    w = state.work
    if state.decision is None or w is None:
        return ""
    words = words_for(state.pack)
    text = (
        _setup_and_turn(state, w, words)
        or _effects(state, w, words)
        or _conflicts(w, words)
        or _stage2_and_king(state, w, words)
    )
    return text or kind_of(w)


def _waiting(state: GameState, w: W.Work) -> bool:
    """A step placing Followers from an empty supply, waiting for Followers from Limbo (its only
    option is to stop: LIMBO's take-back comes with it)."""
    d = decision_of(state, w)
    return d is not None and d.options == (Done(),)


def _setup_and_turn(state: GameState, w: W.Work, words: Words) -> str:
    match w:
        case W.TurnStartWork() | W.SoloTurnStartWork():
            return "Choose the starting position of the Turn track"
        case W.ConquerWork():
            return "Conquer an area (one corner, one other)"
        case W.SoloCornerWork():
            return "Select your starting corner area"
        case W.PlaceDreamerWork():
            return "Place your Dreamer on a Night space"
        case W.KingPoweredWork(left=left):
            return (
                f"Harder game: choose a King's Action card to power up ({left} to choose): a Development card "
                "is drawn and tucked under it"
            )
        case W.ChooseDayWork():
            return "Move your Dreamer to a Day space"
        case W.DiscardDreamsWork():
            return "Discard unwanted Dream cards to the bottom of the deck"
        case W.DrawDreamWork():
            return "Draw a Dream card from the offer or the deck"
        case W.HandLimitWork(seat=seat):
            excess = len(state.players[seat].hand) - HAND_LIMIT
            return f"Discard down to {HAND_LIMIT} Development cards ({excess} to go)"
        case W.ReactWork():
            return f"React to {words.day(state.day)}: Conform, Dissent or Pass"
        case W.MoveDreamerWork():
            return "Move your Dreamer to any Night space"
        case W.DreamWork():
            return "Play a Dream card whose conditions are met, or go on"
    return ""


def _effects(state: GameState, w: W.Work, words: Words) -> str:
    match w:
        case W.ProduceWork(mode="each"):
            return (
                "Every area produces: choose which produces next (a short supply, or a higher Unit Limit that "
                "holds in one area only, makes the order count)"
            )
        case W.ProduceWork(left=left, mode=mode):
            what = f"Produce {left} in one area" if mode == "one" else f"Produce 1 ({left} left)"
            return f"{what}: {WAIT}" if _waiting(state, w) else what
        case W.MoveWork(mp=mp, shaper_only=shaper_only):
            what = "your Shaper only" if shaper_only else "a Follower or your Shaper to an adjacent area"
            return f"Spend 1 MP ({mp} left): move {what}"
        case W.ShaperWork(left=left, anywhere=anywhere):
            return f"Move your Shaper {'to any area' if anywhere else f'to an adjacent area ({left} left)'}"
        case W.ConvertWork(left=left, where=where):
            place = "in your Shaper's area" if where == "shaper" else "in an area adjacent to your Shaper"
            what = f"Convert an enemy unit {place} ({left} left)"
            return f"{what}: {WAIT}" if _waiting(state, w) else what
        case W.FortWork(costs=costs):
            cost = f"remove {plural(costs[0], 'Follower')}" if costs[0] else "free"
            return f"Add a Fort level ({cost}; {len(costs)} left)"
        case W.FortPayWork(owed=owed):
            return f"Remove a Follower from any area to pay for the Fort level ({owed} left)"
        case W.ClimbWork(paid_left=paid_left, free_left=free_left):
            if ritual.phase(state, w)[0]:
                steps = "any number of steps" if paid_left < 0 else f"{paid_left} left"
                return f"Climb the Ritual track, paying for each step ({steps})"
            return f"Climb the Ritual track: free step ({free_left} left)"
        case W.ClimbPayWork():
            return _pay_prompt(state, w, words)
        case W.BonusWork(space=space):
            return f"Space {space + 1}: {BONUS_TEXT.get(ritual.spaces(state)[space].bonus, '')}, or ignore it"
        case W.UpgradeWork(left=left, played=played):
            return "Play an Upgrade on its Action card" + (f" ({left - played} left)" if left else "")
        case W.PloyWork(left=left, played=played):
            return "Play a Ploy" + (f" ({left - played} left)" if left else "")
        case W.DevelopWork(upgrades=ups, ploys=ploys, upgrades_played=u, ploys_played=p):
            return _develop_prompt(ups - u if ups else 0, ploys - p if ploys else 0)
        case W.KeepWork(keep_left=keep):
            return f"Keep {keep} of the cards drawn"
        case W.ChooseWork():
            return "Choose one"
        case W.ConformWork():
            return "Perform the Conform part of one of your Action cards"
        case W.ShadowWork(left=left):
            return f"Add a Shadow ({left} left), respecting Unit Limits"
        case W.RemoveWork(left=left):
            return f"Return a Follower to your supply ({left} left)"
        case W.RecoverWork(left=left):
            return f"Bring a Follower back from Limbo ({left} left)"
    return ""


def _develop_prompt(upgrades: int, ploys: int) -> str:
    """DEVELOP: what is left of "any number of Upgrades and up to 3 Ploys" (0: any number)."""
    ups = f"{plural(upgrades, 'Upgrade')} left" if upgrades else "any number of Upgrades"
    return f"Play Upgrades and Ploys in any order ({ups}, {plural(ploys, 'Ploy')} left)"


def _pay_prompt(state: GameState, w: W.ClimbPayWork, words: Words) -> str:
    space = ritual.next_index(state, w.seat, w.marker) + 1
    symbols = ", ".join(words.symbol(s) for s in w.owed)
    text = f"Pay for space {space}: a Follower from an area of each symbol ({symbols})"
    limbo = state.players[w.seat].limbo
    if state.decision is not None and PayLimbo() in state.decision.options:
        return text + ", or 3 Followers from Limbo"
    if 0 < limbo < ritual.LIMBO_PRICE:
        return text + f" (Limbo holds {limbo}: fewer than 3 can't pay)"
    return text


def _conflicts(w: W.Work, words: Words) -> str:
    match w:
        case W.ConflictWork(left=left):
            return f"Resolve a conflict ({left} left): choose an area and 2 opposing sides"
        case W.PlaysFirstWork(fight=f):
            return f"Neither side controls {words.area(f.area)}: choose who plays their cards first"
        case W.TieWork(fight=f):
            return f"The conflict in {words.area(f.area)} is tied: choose its winner"
    return ""


def _stage2_and_king(state: GameState, w: W.Work, words: Words) -> str:
    match w:
        case W.CombatCardsWork(seat=seat, fight=f):
            played = len(f.plays[f.sides.index(seat)])
            limit = card_limit(state, f.area, seat)
            how_many = "1 card" if limit == 1 else f"1 to {limit} cards"
            return f"Play {how_many} face down in the conflict in {words.area(f.area)} ({played} played)"
        case W.RetreatWork(fight=f):
            left = units.count(board.area(state, f.area), loser_of(f))
            return f"Retreat a losing unit from {words.area(f.area)} ({left} left)"
        case W.VictoryWork(fight=f):
            card = words.pack.cards
            text = next((c.victory.text for c in card.conflicts if c.id == f.shadow_card), "")
            return f"Victory: {text} Or draw 1 Development card instead"
        case W.NightmareWork():
            return "Command a Nightmare: resolve its printed command effect"
        case W.NightmareMoveWork(left=left):
            return f"Move Nightmare {words.nightmare(state.commanding)} ({left} left)"
        case W.DevourWork(left=left):
            return f"Devour a unit ({left} left): choose whose"
        case W.CathedralPieceWork():
            pieces = divergent.available(state)
            named = ", ".join(f"{p} ({_tile(state, p, words)})" for p in pieces)
            return f"Choose the Cathedral piece to place and take its Reward tile: {named}"
        case W.KingPieceWork(card=card):
            return _king_piece(state, card, words)
        case W.KingDreamWork():
            return "Choose the Dream the King of Horrors takes"
        case W.KingShieldWork():
            return "The King's Shield returns to its hand: you may discard a card to climb 1 step"
        case W.KingManeuverWork():
            return "The King of Horrors maneuvers: choose the area for its Follower among those tied"
        case W.KingTuckWork(card=card):
            return (
                f"The King of Horrors develops: choose the Action card {words.card(card)} is tucked under (tied "
                "for the fewest tucked)"
            )
    return ""


def _tile(state: GameState, piece: str, words: Words) -> str:
    tile = dict(state.path_tiles).get(piece, "")
    return words.card(tile) if tile else "no tile"


def _king_piece(state: GameState, card: str, words: Words) -> str:
    """SOLO: you choose the piece the King takes among the available ones; its level shown,
    since a piece below the highest level available makes it climb."""
    pieces = divergent.available(state)
    why = f"The King completed its Dream {words.card(card)}" if card else "The King builds at the end of its turn"
    named = ", ".join(
        f"{p} ({divergent.SLOT[divergent.space_of(state, p).colour]}: {_tile(state, p, words)})" for p in pieces
    )
    top = divergent.LEVELS[max(divergent.level(state, p) for p in pieces)] if pieces else "gray"
    return (
        f"{why}: choose the Cathedral piece the King takes (it keeps the Reward tile; below {top}, it also "
        f"climbs): {named}"
    )
