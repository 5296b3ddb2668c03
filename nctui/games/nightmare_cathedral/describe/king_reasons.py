"""Why the King of Horrors did each step of its turn: the rule of the solo rulebook (section
named as printed) or the card/die that made it do so, for the King's turn panel.

The King's events carry what happened; most say why by their own fields (``KingClimbs.why``,
``KingAreaCard.purpose``, ``KingTucks.why``), the rest by the step they belong to (an area's
removal in a Ritual or a Fortify, the Horror Die rolled for the Dreamer or for an action, the
Power before and after the rule for even Power). So the reasons are read off the turn's events in
order, each with the King's latest "driver" (the action being resolved, the reaction, the
conflict, the Nightmare) in mind.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import events as E
from ..engine.events import Event
from .names import Words

# KING'S TURN: the actions, by the Action card resolved (ACTION ACTIVATION and the action's section)
_ACTION = {
    "ritual": "PERFORM RITUAL",
    "summon": "SUMMON",
    "fortify": "FORTIFY",
    "maneuver": "MANEUVER",
    "develop": "DEVELOP",
}
_AREA_CARD = {
    "remove": "a tie among the areas to remove from, drawn at random (REMOVING FOLLOWERS)",
    "overflow": "over its Unit Limit: a random adjacent area it does not control (SUMMON)",
    "produce": "short of Followers, a tie drawn at random (SUMMON)",
    "fort": "a tie among its areas for the Fort level, drawn at random (FORTIFY)",
    "devour": "a tie among the units to devour, drawn at random (DEVOURING UNITS)",
    "nightmare": "several areas suit the Nightmare: drawn at random (COMMANDING NIGHTMARES)",
    "retreat": "a tie among the retreat areas, drawn at random (RESOLVING CONFLICTS AGAINST THE KING 4)",
    "devour_three": "a tie among its areas, drawn at random (FOR A HARDER GAME)",
    "shadow": "the areas its Defeat may add a Shadow to, drawn at random (CONFLICTS 11)",
}
_CLIMB = {
    "piece": "it builds a piece: its lower marker climbs 1 (KING'S TURN 8)",
    "below_highest": "a piece below the highest level (BUILDING THE CATHEDRAL)",
    "nightmare": "its Nightmare card says so (COMMANDING NIGHTMARES)",
}
_TUCK = {
    "dissent": "a drawn Upgrade is tucked under its Action (THE KING DISSENTS)",
    "develop": "the first Upgrade drawn, or the last card, is tucked (DEVELOP)",
    "choice": "no Upgrade drawn: under the card with fewest tucked, your choice if tied (DEVELOP)",
    "powered": "the King starts powered up (FOR A HARDER GAME)",
}
GENERIC = "its action card says so"  # no rule more precise known: the walk of seeded games checks it is rare
_DREAM = {
    "conform": "it conforms: a Cultist on one of its Dreams (THE KING CONFORMS)",
    "marked": "1 MP per Marked Area it controls: a Cultist on a Dream (MANEUVER)",
    "conflict": "a conflict the King won, or you lost to the Shadows (MANEUVER)",
    "ritual": "its marker entered a Dream space: a Cultist on each Dream (PERFORM RITUAL)",
    "discount": "the harder game: a new Dream gets a Cultist at once (FOR A HARDER GAME)",
}
# Reasons that depend only on the kind of event
_FIXED = {
    "king_setup": "the King's setup (SOLO SETUP 2-3)",
    "king_dreamer_moves": "it counts Cultists, not spaces, clockwise (KING'S TURN 1)",
    "king_power": "one per Cultist on the card, one per card tucked under it (KING'S TURN 3)",
    "king_cultists_return": "the Cultists go back; one returns to the Dreamer's space (KING'S TURN 7)",
    "king_conforms": "your action is ahead of its Dreamer (THE KING CONFORMS)",
    "king_dissents": "your action is not ahead of its Dreamer (THE KING DISSENTS)",
    "king_hand_card": "a drawn card that is not tucked goes into its hand (DISSENTS, DEVELOP)",
    "king_devours": "the harder game: 3 Followers go to the Devoured side-board (FOR A HARDER GAME)",
    "king_keeps_last": "it never removes its last Follower from an area (REMOVING FOLLOWERS)",
    "king_removes": "most Followers over Fort levels, then most Followers and Forts (REMOVING FOLLOWERS)",
    "king_produce_lost": "its supply is empty: this Follower is not produced (SUMMON)",
    "king_produces": "the areas it controls produce, more with Forts (SUMMON)",
    "king_summons": "the Summon action card at this Power (SUMMON)",
    "king_ritual": "the Horror Die picks the lower or higher marker (PERFORM RITUAL)",
    "king_marker_climbs": "it ignores costs and printed bonuses, only the special spaces count (PERFORM RITUAL)",
    "king_no_fort": "every area it controls has 3 Fort levels (FORTIFY)",
    "king_fort_level": "its area with fewest Fort levels, then fewest of your units (FORTIFY)",
    "king_nothing_to_devour": "no unit it may devour (DEVOURING UNITS)",
    "king_fortify_to_maneuver": "Fortify cannot be resolved: a Maneuver of the same Power (FORTIFY)",
    "king_maneuvers": "an empty adjacent area first, then a tie, then your majority, Marked soonest (MANEUVER)",
    "king_mp_unused": "no adjacent area it lacks majority in (MANEUVER)",
    "king_develops": "the Develop action card at this Power: 2/3/4 cards (DEVELOP)",
    "king_day_cultist": "the Develop action card at this Power (DEVELOP)",
    "king_marked_produce": "the Summon action card: the Marked Areas produce too (SUMMON)",
    "king_combat_cards": "a card per Follower, +1 with a Fort (RESOLVING CONFLICTS AGAINST THE KING 2)",
    "king_victory_card": "the Victory effect of the conflict (RESOLVING CONFLICTS AGAINST THE KING 4)",
    "king_combat_returned": "its basic Combat card and Shield return (RESOLVING CONFLICTS AGAINST THE KING 5)",
    "king_shield_discard": "the Shield returned in a conflict against you (RESOLVING CONFLICTS AGAINST THE KING 5)",
    "king_conflicts_end": "3 conflicts, 3 cards drawn or none possible (MANEUVER 5)",
    "king_conflict_card": "the Area Selection cards of the areas where a conflict could occur (MANEUVER 1)",
    "king_conflict_skipped": "its strength is below its opponent's: not desirable (RESOLVING CONFLICTS)",
    "king_cultist_returned": "a Cultist with no Dream to go on returns to the supply (CULTISTS)",
    "king_dream_completed": "as many Cultists as its VP (COMPLETING THE KING'S DREAMS)",
    "king_takes_dream": "0 or 1 Dreams left: most scored suit, then lowest VP (REFILL DREAMS)",
    "king_builds": "the Dream's Cathedral icon (COMPLETING THE KING'S DREAMS 2)",
    "king_keeps_tile": "the King keeps Reward tiles for 1 VP each (ENDGAME & SCORING)",
    "king_nightmare_skipped": "one command at a time, both at most a turn (COMMANDING NIGHTMARES)",
    "king_commands_nightmare": "the Nightmare without the Cultist on it (COMMANDING NIGHTMARES)",
    "king_nightmare_failure": "no adjacent area matches: a random one, then Failure (COMMANDING NIGHTMARES)",
    "king_effect_skipped": "nothing for that step to act on",
}
# The events after which a Cultist on a Dream (and a Horror Die) has a different cause
_DRIVERS = frozenset(
    {
        "king_power",
        "king_action",
        "king_conforms",
        "king_dissents",
        "king_conflict_card",
        "king_commands_nightmare",
        "king_marker_climbs",
        "king_fortify_to_maneuver",
        "turn_begins",
    }
)


def king_reasons(events: Sequence[Event], w: Words) -> list[str]:
    """One reason per event: why the King did it (empty for events that are not the King's)."""
    out: list[str] = []
    driver: Event | None = None
    action = ""
    for i, e in enumerate(events):
        nxt = events[i + 1] if i + 1 < len(events) else None
        out.append(_reason(e, driver, action, nxt, w) if e.kind.startswith("king_") else "")
        if isinstance(e, E.KingAction):
            action = e.action
        elif isinstance(e, E.KingFortifyToManeuver):
            action = "maneuver"
        elif e.kind == "turn_begins":
            action = ""
        if e.kind in _DRIVERS:
            driver = e
    return out


def _reason(e: Event, driver: Event | None, action: str, nxt: Event | None, w: Words) -> str:
    match e:
        case E.KingAction(power=p):
            was = driver.power if isinstance(driver, E.KingPower) else p
            if was != p:
                rule = "the rule for even Power" if was in (2, 4) else "Power 6 or more comes down to 5"
                return f"Power {was} → {p}: {rule}; resolve the [{p}] row (KING'S TURN 3-4)"
            return f"resolve the [{p}] row of its {w.day_short(e.action)} card (KING'S TURN 4)"
        case E.KingHorrorDie():
            return _die(nxt, action)
        case E.KingAreaCard(purpose=purpose):
            return _AREA_CARD.get(purpose, "an Area Selection card breaks a tie")
        case E.KingClimbs(why=why):
            return _CLIMB[why]
        case E.KingTucks(why=why):
            return _TUCK[why]
        case E.KingCultistOnDream(why="placed"):  # a game saved before the cause was recorded
            return _on_dream(driver, action)
        case E.KingCultistOnDream(why="power") if isinstance(driver, E.KingPower):
            return _on_dream(driver, "")  # with the Power it came from
        case E.KingCultistOnDream(why="power"):
            return "a Power of 2, 4 or 6+ sends Cultists to Dreams (KING'S TURN 3)"
        case E.KingCultistOnDream(why=why):
            return _DREAM[why]
        case E.KingProduces(overflow_from=source) if source:
            return f"{w.area(source)} is at its Unit Limit: an adjacent area instead (SUMMON)"
        case E.KingProduces() if isinstance(driver, E.KingMarkerClimbs):
            return "its marker entered a produce space: each of its areas produces 1 (PERFORM RITUAL)"
        case E.KingRemoves() if action == "ritual":
            return "Perform Ritual removes 2/1/0 Followers by Power; " + _FIXED["king_removes"]
        case E.KingRemoves() if action == "fortify":
            return "the Fortify card and the Horror Die; " + _FIXED["king_removes"]
        case E.KingManeuvers(chosen=True):
            return "the areas were tied on every rule: your choice (MANEUVER)"
    return _FIXED.get(e.kind, GENERIC)


def _die(nxt: Event | None, action: str) -> str:
    if isinstance(nxt, E.KingDreamerMoves):
        return "rolled to move its Dreamer (KING'S TURN 1)"
    if action == "ritual":
        return "rolled to pick the marker that climbs (PERFORM RITUAL)"
    if action == "fortify":
        return "rolled: the Power and the die pick what it does (FORTIFY)"
    return GENERIC


def _on_dream(driver: Event | None, action: str) -> str:
    match driver:
        case E.KingPower(power=p) if p in (2, 4):
            return f"Power {p} is even: one Cultist leaves the card for a Dream (KING'S TURN 3)"
        case E.KingPower(power=p):
            return f"Power {p} is over 5: Cultists leave the card for Dreams until 5 (KING'S TURN 3)"
        case E.KingConforms():
            return "it conforms: a Cultist on one of its Dreams (THE KING CONFORMS)"
        case E.KingConflictCard():
            return "a conflict the King won, or you lost to the Shadows (MANEUVER)"
        case E.KingCommandsNightmare():
            return "its Nightmare card says so (COMMANDING NIGHTMARES)"
        case E.KingMarkerClimbs():
            return "its marker entered a Dream space (PERFORM RITUAL)"
    if action == "maneuver":
        return "1 MP per Marked Area it controls: a Cultist on a Dream (MANEUVER)"
    return f"its {_ACTION[action]} card says so" if action in _ACTION else GENERIC
