"""The rules of the game, listed: one rule per kind of decision, one start per kind of effect
step, one continuation per kind of frame end, and the explanations of actions that no decision
of the moment offers.

This is the only module that imports every rule module; no module registers itself by being
imported. ``tests/test_rule_table.py`` checks that every Work, Step and continuation type has
exactly one entry.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..content import schema as cs
from . import (
    actions as A,
    cathedral,
    conflict,
    dreams,
    fortify,
    king_actions,
    king_combat,
    king_conflicts,
    king_dreams,
    king_nightmares,
    king_turn,
    limbo,
    movement,
    nightmares,
    ritual,
    setup,
    solo,
    steps_basic,
    turn,
    work as W,
)
from .errors import IllegalAction
from .events import Event
from .rules import Rule
from .state import GameState

Events = list[Event]

RULES: dict[type, Rule[Any]] = {
    r.work: r
    for r in (
        # setup
        setup.TURN_START,
        setup.CONQUER,
        setup.PLACE_DREAMER,
        solo.SOLO_TURN_START,
        solo.SOLO_CORNER,
        solo.KING_POWERED,
        # the turn
        turn.CHOOSE_DAY,
        turn.DISCARD_DREAMS,
        turn.DRAW_DREAM,
        turn.HAND_LIMIT_RULE,
        turn.REACT,
        turn.MOVE_DREAMER,
        # effects
        steps_basic.PRODUCE,
        steps_basic.KEEP,
        steps_basic.ADD_SHADOW,
        steps_basic.REMOVE,
        steps_basic.RECOVER,
        steps_basic.CHOOSE,
        steps_basic.CONFORM,
        steps_basic.UPGRADE,
        steps_basic.PLOY,
        steps_basic.DEVELOP,
        movement.MOVE,
        movement.SHAPER_MOVE,
        movement.CONVERT,
        fortify.BUILD_FORT_LEVEL,
        fortify.PAY_FORT_LEVEL,
        ritual.CLIMB,
        ritual.CLIMB_PAY,
        ritual.RITUAL_BONUS,
        # conflicts
        conflict.START_CONFLICT,
        conflict.PLAYS_FIRST,
        conflict.PLAY_COMBAT_CARD,
        conflict.BREAK_TIE,
        conflict.RETREAT,
        conflict.TAKE_VICTORY,
        # Dreams, Stage 2, the Cathedral
        dreams.PLAY_DREAM,
        nightmares.COMMAND_NIGHTMARE,
        nightmares.MOVE_NIGHTMARE,
        nightmares.DEVOUR,
        cathedral.CATHEDRAL_PIECE,
        cathedral.KING_CATHEDRAL_PIECE,
        # solo: your choices for the King
        king_dreams.KING_DREAM,
        king_combat.KING_SHIELD,
        king_actions.KING_MANEUVER,
        king_actions.KING_TUCK,
    )
}

# RESOLVING ACTIONS AND REACTIONS: how each kind of step of an effect begins.
StepStart = Callable[[GameState, W.Frame, Any, Events], GameState]
STEPS: dict[type, StepStart] = {
    cs.Produce: steps_basic.start_produce,
    cs.Move: movement.start_move,
    cs.Convert: movement.start_convert,
    cs.ShaperMove: movement.start_shaper_move,
    cs.AddFortLevels: fortify.start_fortify,
    cs.Climb: ritual.start_climb,
    cs.Draw: steps_basic.start_draw,
    cs.PlayUpgrades: steps_basic.start_upgrades,
    cs.PlayPloys: steps_basic.start_ploys,
    cs.ResolveConflicts: conflict.start_conflicts,
    cs.AddShadows: steps_basic.start_shadows,
    cs.RemoveFollowers: steps_basic.start_remove,
    cs.RecoverLimbo: steps_basic.start_recover,
    cs.CommandNightmare: nightmares.start_command,
    cs.Devour: nightmares.start_devour,
    cs.NightmareMove: nightmares.start_nightmare_move,
    cs.NightmareReturn: nightmares.start_nightmare_return,
    cs.MoveDreamer: steps_basic.start_move_dreamer,
    cs.PerformConform: steps_basic.start_conform,
    cs.Choose: steps_basic.start_choose,
}

# What happens when a frame ends, by the type of its continuation.
Continuation = Callable[[GameState, Any, Events], GameState]
CONTINUATIONS: dict[type, Continuation] = {
    W.FirstTurn: turn.first_turn,
    W.ActionDone: turn.action_done,
    W.ReactionDone: turn.action_done,
    W.AfterWindow: turn.after_window,
    W.NextReaction: turn.next_reaction,
    W.KingTurnReactions: turn.king_turn_reactions,
    W.EndTurn: turn.end_turn,
    W.DreamPlayed: dreams.dream_played,
    W.CardToBottom: conflict.card_to_bottom,
    W.ActivationEnds: nightmares.activation_ends,
    W.CathedralNext: cathedral.next_player,
    W.RewardDone: cathedral.reward_done,
    W.BuildAfterKing: cathedral.build_after_king,
    W.KingPieceDue: cathedral.king_piece_due,
    W.KingPerform: king_turn.perform_later,
    W.KingActionDone: king_turn.action_done,
    W.KingManeuverRest: king_actions.maneuver_rest,
    W.KingConflicts: king_conflicts.king_conflicts,
    W.KingLoop: king_conflicts.conflict_done,
    W.KingCommand: king_nightmares.king_command_nightmare,
    W.KingCommandResume: king_nightmares.resume,
    W.KingRitualBonuses: king_actions.ritual_bonuses,
}

# Why an action of a type no decision of the moment offers is refused (else: the decision due).
ABSENT: dict[type, Callable[[GameState, Any], IllegalAction]] = {
    A.PlayDream: dreams.explain_no_window,
    A.ChooseNightmare: nightmares.explain_command_absent,
    A.MoveNightmare: nightmares.explain_move_absent,
    A.DevourUnit: nightmares.explain_devour_absent,
    A.ReturnFromLimbo: limbo.explain_return,
}
