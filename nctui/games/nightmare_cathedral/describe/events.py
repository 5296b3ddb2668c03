"""Words for events: one sentence each, for the log, the hand-off, the King's turn and the
timeline. An event's cards are named only when it carries them: another seat's secret ones have
been redacted to ``HIDDEN`` before they get here (``engine.views.redact``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..engine import events as E
from ..engine.events import HIDDEN, Event
from ..engine.state import GameState
from .names import END_REASONS, Words, plural, seat_name, side_does, side_name, words_for
from .steps import NOT_DONE, describe_steps

# A step that had nothing to do (engine.futile.Nothing), followed by what did not happen.
_NOTHING_LOG = {
    "nothing_to_pay": "{who} has nothing to pay",
    "track_end": "{who}'s Ritual markers may enter no space",
    "limbo_empty": "{who}'s Limbo is empty",
    "no_upgrade": "{who} has no Upgrade in hand",
    "no_ploy": "{who} has no Ploy in hand",
    "no_development": "{who} has no Upgrade or Ploy in hand",
    "no_conflict": "No conflict is possible",
    "no_effect": "{who}'s effect has no step",
    "no_target": "{who} has no legal target",
    "stage1": "Nightmares and devouring have no effect before Stage 2",
}
# Another seat's step of playing cards that ended (what its hand held stays secret): it may have played some.
_NOT_PLAYED = {
    "play_ploy": "plays no more Ploys",
    "play_upgrade": "plays no more Upgrades",
    "develop": "plays no more Upgrades or Ploys",
}
_REACTED = {"conform": "conforms", "dissent": "dissents", "pass": "passes"}

# What makes a step one the strict undo policy will not take back, by what the event reveals.
_WHY = {"owner": "it showed hidden cards", "all": "it revealed hidden information", "chance": "it used chance"}


def why_irreversible(event: Event) -> str:
    """Why a step with ``event`` cannot be taken back fairly ('' when nothing was revealed)."""
    reveal = event.reveals()
    if reveal == "none":
        return ""
    return f"{_WHY[reveal]} ({event.kind.replace('_', ' ')})"


def describe_events(events: Iterable[Event], state: GameState) -> list[str]:
    """The events as lines; a Dreamer ignoring its action and the 2 cards drawn for it read as
    one sentence ('Red moves its Dreamer to Maneuver and draws 2 Development cards')."""
    out: list[str] = []
    items = list(events)
    i = 0
    while i < len(items):
        e = items[i]
        nxt = items[i + 1] if i + 1 < len(items) else None
        if isinstance(e, E.DayChosen) and e.ignore and isinstance(nxt, E.DrewDevelopment) and nxt.seat == e.seat:
            w = words_for(state.pack)
            out.append(
                f"{seat_name(state, e.seat)} moves its Dreamer to {w.day(e.action)} and draws "
                f"{plural(nxt.count, 'Development card')}{_names(w, nxt.cards)}"
            )
            i += 2
            continue
        out.append(describe_event(e, state))
        i += 1
    return out


def describe_event(event: Event, state: GameState) -> str:
    """One event in a sentence. ``state`` gives the names (seats' colours, the pack)."""
    w = words_for(state.pack)
    who = seat_name(state, event.seat)
    for part in (_setup, _turn, _effects, _conflicts, _cathedral, _stage2, _king_turn, _king_rules, _king_more):
        text = part(event, state, w, who)
        if text:
            return text
    return event.kind.replace("_", " ").capitalize()


def _setup(e: Event, s: GameState, w: Words, who: str) -> str:
    match e:
        case E.SetupBoard(side=side, areas=n):
            return f"The board: {w.board_side(side)} ({n} areas in play)"
        case E.FirstPlayer():
            return f"{who} is the first player"
        case E.TurnStartChosen(position=p):
            track = w.pack.tracks.turn
            sym = w.symbol(track[p]) if 0 <= p < len(track) else "?"
            return f"{who} starts the Turn track at position {p + 1} ({sym})"
        case E.StartingUpgrade(card=card):
            return f"{who} receives the starting Upgrade {w.card(card)}"
        case E.DealtDevelopment(cards=cards):
            return f"{who} is dealt {plural(len(cards), 'Development card')}{_names(w, cards)}"
        case E.DealtDreams(cards=cards):
            return f"{who} is dealt {plural(len(cards), 'Dream card')}{_names(w, cards)}"
        case E.DreamOffer(cards=cards):
            return f"The Dream offer: {w.cards_list(cards)}"
        case E.Conquered(area=area):
            return f"{who} conquers {w.area(area)}"
        case E.ShadowsSeeded(area=area, count=n):
            return f"{plural(n, 'Shadow')} {'seeps' if n == 1 else 'seep'} into {w.area(area)}"
        case E.DreamerPlaced(night=night):
            return f"{who} places its Dreamer on {w.space(night)}"
        case E.NightmaresRevealed(numbers=numbers, chosen=chosen):
            how = " (chosen)" if chosen else " (revealed at random)"
            return "The Nightmares: " + " and ".join(w.nightmare(n) for n in numbers) + how
        case E.CathedralSetup(piece=piece):
            return f"Piece {piece} stands in the Cathedral space from the start"
        case E.RewardTileDiscarded(piece=piece, tile=tile):
            return f"The Reward tile {w.card(tile)} by piece {piece} is discarded"
        case E.RewardTilesOut(colour=colour, tiles=tiles):
            return f"The {colour} Reward tiles come out face up: {w.cards_list(tiles)}"
        case E.KingSetup():
            return (
                "The King of Horrors takes 2 Dreams, its 2 combat cards, its Dreamer goes on Ritual and a "
                "Cultist on every Day space"
            )
    return ""


def _turn(e: Event, s: GameState, w: Words, who: str) -> str:
    match e:
        case E.TurnBegins(turn=n, marked=marked):
            mark = f"; the marked symbol is {w.symbol(marked)}" if marked else ""
            return f"Turn {n}: {who} is the active player{mark}"
        case E.DayChosen(action=action, ignore=ignore):
            return f"{who} moves its Dreamer to {w.day(action)} and {'ignores it' if ignore else 'performs it'}"
        case E.RitualFollowersReturn(count=n):
            verb = "returns" if n == 1 else "return"
            return f"{plural(n, 'Follower')} paid on the Ritual track {verb} to {who}'s supply"
        case E.DreamDiscarded(card=card):
            return f"{who} puts {_one(w, card, 'a Dream card')} at the bottom of the Dream deck"
        case E.DreamTaken(card=card):
            return f"{who} takes {w.card(card)} from the Dream offer"
        case E.DreamDrawn(card=card):
            return f"{who} draws {_one(w, card, 'a Dream card')} from the Dream deck"
        case E.DreamOfferRefilled(card=card):
            return f"{w.card(card)} joins the Dream offer"
        case E.DevelopmentDiscarded(card=card):
            return f"{who} discards {w.card(card)}"
        case E.Reacted(reaction=reaction):
            return f"{who} {_REACTED[reaction]}"
        case E.DreamerMoves(night=night):
            return f"{who}'s Dreamer follows its arrow to {w.space(night)}"
        case E.DreamerFreeMove(night=night):
            return f"{who} moves its Dreamer to {w.space(night)}"
        case E.TimeAdvances(time=t):
            labels = w.pack.tracks.time
            return f"The Time marker advances to {labels[t] if 0 <= t < len(labels) and labels[t] else t}"
        case E.GameOver(reason=reason, winners=winners):
            names = [seat_name(s, x) for x in winners]
            return (
                f"The game ends ({END_REASONS.get(reason, reason)}): {' and '.join(names) or 'nobody'} "
                f"{'wins' if len(names) == 1 else 'win'}"
            )
    return ""


def _effects(e: Event, s: GameState, w: Words, who: str) -> str:
    match e:
        case E.Stopped():
            return f"{who} stops here"
        case E.DrewDevelopment(cards=cards, count=n):
            return f"{who} draws {plural(n, 'Development card')}{_names(w, cards)}"
        case E.DrewDreams(cards=cards, count=n):
            return f"{who} draws {plural(n, 'Dream card')}{_names(w, cards)}"
        case E.CardsDrawnToKeep(deck=deck, cards=cards, keep=keep):
            what = "Dream card" if deck.startswith("dream") else "Development card"
            return f"{who} draws {plural(len(cards), what)} to keep {keep}{_names(w, cards)}"
        case E.CardKept(card=card):
            return f"{who} keeps {_one(w, card, 'one of them')}"
        case E.DeckShuffled(deck=deck):
            return f"The rest go back and the {_deck(deck)} is shuffled"
        case E.DevelopmentReshuffled(count=n):
            return f"The Development discard pile is shuffled into a new deck ({plural(n, 'card')})"
        case E.Produced(area=area, count=n):
            return f"{w.area(area)} produces {plural(n, 'unit')} for {side_name(s, e.seat)}"
        case E.ShadowAdded(area=area, count=n):
            return f"{who} adds {'a Shadow' if n == 1 else plural(n, 'Shadow')} to {w.area(area)}"
        case E.FollowerRemoved(area=area, for_fort=for_fort):
            return f"{who} returns a Follower from {w.area(area)} to its supply" + (
                " to pay for a Fort level" if for_fort else ""
            )
        case E.RecoveredFromLimbo(area=area):
            return f"{who} brings a Follower back from Limbo to {w.area(area)}"
        case E.LimboReturn(count=n):
            return f"{who} takes {plural(n, 'Follower')} back from Limbo to its supply"
        case E.OptionChosen(steps=steps) if steps:
            return f"{who} chooses to {describe_steps(steps, w)}"
        case E.OptionChosen(index=i):
            return f"{who} chooses option {i + 1}"
        case E.NothingDone(step=step, reason=reason):
            if reason == HIDDEN:  # another seat's hand: only that nothing was played
                return f"{who} {_NOT_PLAYED.get(step, 'plays nothing: ' + NOT_DONE.get(step, 'nothing done'))}"
            why = _NOTHING_LOG.get(reason, "{who} can do nothing").format(who=who)
            return f"{why}: {NOT_DONE.get(step, 'nothing done')}"
        case E.ConformPerformed(action=action):
            return f"{who} performs the Conform part of its {w.day_short(action)} card"
        case E.DreamerFree():
            return f"{who}'s Dreamer will go to any Night space at the end of the turn"
        case E.UpgradePlayed(card=card, action=action):
            return f"{who} plays the Upgrade {w.card(card)} on its {w.day_short(action)} card"
        case E.OverUnitLimit(areas=areas):
            where = ", ".join(w.area(a) for a in areas)
            return f"{who}'s new Unit Limit is lower: {plural(len(areas), 'Follower')} back to its supply ({where})"
        case E.PloyPlayed(card=card):
            return f"{who} plays the Ploy {w.card(card)}"
        case E.ConflictFollows(area=area):
            return f"{who} will resolve a conflict in {w.area(area)}"
        case E.GainMp(mp=mp, shaper_only=shaper_only):
            return f"{who} gains {mp} MP" + (" for its Shaper only" if shaper_only else "")
        case E.FollowerMoved(source=source, to=to):
            return f"{who} moves a Follower from {w.area(source)} to {w.area(to)}"
        case E.ShaperMoved(source=source, to=to):
            return f"{who} moves its Shaper from {w.area(source)} to {w.area(to)}"
        case E.Converted(area=area, side=side):
            return f"{who}'s Shaper converts a unit of {side_name(s, side)} in {w.area(area)}"
        case E.FortLevelBuilt(area=area, levels=n):
            return f"{who} adds a Fort level in {w.area(area)} (now {n})"
        case E.RitualPaid(area=area, space=space):
            return f"{who} removes a Follower from {w.area(area)} to pay for Ritual space {space}"
        case E.RitualPaidLimbo(space=space):
            return f"{who} spends 3 Followers from Limbo to pay for Ritual space {space}"
        case E.RitualClimbed(marker=m, space=space):
            return f"{who}'s Ritual marker {m + 1} climbs to Ritual space {space}"
        case E.RitualBonus(space=space):
            return f"{who} resolves the bonus of Ritual space {space}"
        case E.RitualBonusIgnored(space=space):
            return f"{who} forfeits the bonus of Ritual space {space}"
        case E.NoEffectStage1():
            return "Nightmares and devouring have no effect before Stage 2"
        case E.NightmaresUnavailable():
            return f"{who} has already commanded both Nightmares this turn: nothing happens"
    return ""


def _conflicts(e: Event, s: GameState, w: Words, who: str) -> str:
    side = side_name(s, e.seat)
    match e:
        case E.ConflictStarted(area=area, sides=(a, b)):
            return f"{who} resolves a conflict in {w.area(area)} between {side_name(s, a)} and {side_name(s, b)}"
        case E.PlaysFirstChosen(first=first):
            return f"{who} lets {side_name(s, first)} play cards first"
        case E.CombatCardPlayed(card=card):
            return f"{who} plays {_one(w, card, 'a card')} face down"
        case E.CombatCardsDone(count=n):
            return f"{who} has played {plural(n, 'card')}"
        case E.ConflictReveal(cards=cards, attack=attack, defense=defense):
            return (
                f"{side_does(s, e.seat, 'reveals', 'reveal')} {w.cards_list(cards)}: {attack} attack, {defense} defence"
            )
        case E.ConflictDamage(damage=n):
            return f"{side_does(s, e.seat, 'takes', 'take')} {n} damage"
        case E.UnitsEliminated(count=n, to_limbo=to_limbo):
            return f"{plural(n, 'unit')} of {side} {'is' if n == 1 else 'are'} eliminated" + (
                " to Limbo" if to_limbo else ""
            )
        case E.FortLevelsLost(count=n):
            return f"{who} loses {plural(n, 'Fort level')}"
        case E.ConflictWon(area=area, why=why):
            return f"{side_does(s, e.seat, 'wins', 'win')} the conflict in {w.area(area)} ({why})"
        case E.TieBroken(winner=winner):
            return f"{who} breaks the tie: {side_does(s, winner, 'wins', 'win', opens=False)}"
        case E.Retreated(source=source, to=to):
            return f"{side_does(s, e.seat, 'retreats', 'retreat')} a unit from {w.area(source)} to {w.area(to)}"
        case E.VictoryResolved(card=card):
            return f"{who} resolves the Victory of {w.card(card)}"
        case E.VictoryDrawInstead(card=card):
            return f"{who} draws a Development card instead of the Victory of {w.card(card)}"
        case E.DefeatSuffered(card=card):
            return f"{who} suffers the Defeat of {w.card(card)}"
        case E.ConflictCardBottom(card=card):
            return f"{w.card(card)} goes to the bottom of the Conflict deck"
        case E.BasicCombatReturned():
            return f"{who} takes its Basic Combat card back"
        case E.CombatCardsDiscarded():
            return f"{who}'s played cards are discarded"
        case E.NoConflictPossible():
            return "No conflict is left to resolve"
    return ""


def _cathedral(e: Event, s: GameState, w: Words, who: str) -> str:
    match e:
        case E.DreamPlayed(card=card, vp=vp):
            return f"{who} plays the Dream {w.card(card)} ({vp} VP)"
        case E.CathedralPiece(piece=piece):
            return f"{who} adds piece {piece} to the Cathedral"
        case E.CathedralIcon(icon=icon):
            return f"{who} resolves the Cathedral space's {icon.replace('_', ' ')} icon"
        case E.CathedralComplete():
            return "The Cathedral is complete: Stage 2 begins"
        case E.NoCathedralPiece():
            return "No Cathedral piece is left to build"
        case E.RewardTile(tile=tile, piece=piece):
            return f"{who} takes the Reward tile {w.card(tile)} from the space of piece {piece} and resolves it"
        case E.Stage2Development(count=n):
            return f"{plural(n, 'Stage 2 Development card')} are shuffled into the deck"
        case E.Stage2Dreams(count=n):
            return f"{plural(n, 'Stage 2 Dream card')} and the offer are shuffled into the Dream deck"
        case E.Stage2Conflicts():
            return "The Stage 1 Conflict cards leave the game; the Stage 2 deck is used"
        case E.Stage2ConflictsMissing():
            return "There are no Stage 2 Conflict cards: the Stage 1 deck stays"
    return ""


def _stage2(e: Event, s: GameState, w: Words, who: str) -> str:
    match e:
        case E.SideboardFlipped():
            return "The Cathedral sideboard turns to its Devoured Units side"
        case E.NightmaresEnter(numbers=numbers):
            return "The Nightmares " + " and ".join(w.nightmare(n) for n in numbers) + " enter the Cathedral space"
        case E.NightmareCommanded(number=n):
            return f"{who} commands Nightmare {w.nightmare(n)}"
        case E.NightmareMoves(number=n, source=source, to=to):
            return f"Nightmare {w.nightmare(n)} moves from {w.area(source)} to {w.area(to)}"
        case E.NightmareStuck(number=n):
            return (
                f"Nightmare {w.nightmare(n)} has no area it may enter: its move ends"
                if n
                else "No Nightmare is commanded: nothing moves"
            )
        case E.NightmareReturns(number=n, source=source):
            return f"Nightmare {w.nightmare(n)} returns from {w.area(source)} to the Cathedral space"
        case E.Devoured(area=area, side=side):
            return f"{who}'s effect devours a unit of {side_name(s, side)} in {w.area(area)}"
        case E.NothingToDevour(left=n):
            return f"Nothing left to devour ({plural(n, 'unit')} not devoured)" if n else "Nothing left to devour"
        case E.EndTriggered(devoured=n, threshold=t):
            return (
                f"{plural(n, 'unit')} devoured (the Nightmares' number is {t}): the game ends once every player "
                "has had as many turns"
            )
    return ""


# ---------------------------------------------------------------------------------------------
# The King of Horrors

_PURPOSE = {
    "remove": "for the Follower the King removes",
    "produce": "to produce in (the King is short of Followers)",
    "fort": "for the King's Fort level",
    "devour": "for the unit the King devours",
    "nightmare": "for the King's Nightmare",
    "retreat": "for the retreat",
    "devour_three": "to devour from",
    "shadow": "for the Shadow its Defeat adds",
}
_TUCK_HOW = {"choice": " (your choice among the tied cards)", "powered": " (your choice: the King starts powered up)"}


def _king_turn(e: Event, s: GameState, w: Words, who: str) -> str:
    match e:
        case E.KingDreamerMoves(roll=roll, counted=counted, to=to):
            spaces = ", ".join(w.day_short(a) for a in counted) or "no Cultist to count"
            return f"Rolled {roll}: {spaces}; the King's Dreamer moves to {w.day_short(to)}"
        case E.KingHorrorDie(value=value):
            return f"The King rolled the Horror Die: {value}"
        case E.KingPower(moved=moved, action=action, power=p):
            return (
                f"{plural(moved, 'Cultist')} {'goes' if moved == 1 else 'go'} onto the King's "
                f"{w.day_short(action)} card: Power {p}"
            )
        case E.KingAction(action=action, power=p):
            return f"The King takes {w.day_short(action)} with Power {p}"
        case E.KingCultistsReturn(count=n, action=action):
            return (
                f"{plural(n, 'Cultist')} {'leaves' if n == 1 else 'leave'} the King's Action cards; "
                f"one goes back on the {w.day_short(action)} space"
            )
        case E.KingConforms(action=action, easier=True):
            return f"The King conforms to {w.day_short(action)}: a Cultist goes on a Dream"
        case E.KingConforms(action=action):
            day = w.day_short(action)
            return f"The King conforms to {day}: a Cultist goes on the {day} space and one on a Dream"
        case E.KingDissents(action=action):
            return f"The King dissents from {w.day_short(action)}: it draws a Development card"
        case E.KingAreaCard(area=area, purpose="overflow", source=source):
            return f"The Area Selection cards chose {w.area(area)} for a Follower that does not fit in {w.area(source)}"
        case E.KingAreaCard(area=area, purpose=purpose):
            return f"The Area Selection cards chose {w.area(area)} {_PURPOSE.get(purpose, '')}".rstrip()
        case E.KingClimbs(steps=n, to=to, why=why, piece=piece):
            reason = {
                "piece": f"Cathedral piece {piece}",
                "below_highest": f"Piece {piece} is below the highest level available",
                "nightmare": "A King's Nightmare",
            }[why]
            return f"{reason}: the King climbs its lower Ritual marker {plural(n, 'step')}, to space {to}"
        case E.KingTucks(card=card, action=action, why="dissent"):
            return f"The King tucks the Upgrade {w.card(card)} under its {w.day_short(action)} card"
        case E.KingTucks(card=card, action=action, why=why):
            return f"The King tucks {w.card(card)} under its {w.day_short(action)} card{_TUCK_HOW.get(why, '')}"
        case E.KingHandCard(count=n):
            return f"The King shuffles {'a card' if n == 1 else plural(n, 'card')} into its hand"
    return ""


def _king_rules(e: Event, s: GameState, w: Words, who: str) -> str:
    match e:
        case E.KingDevours(count=n, from_supply=k):
            return (
                f"The Devoured side-board comes into play: the King devours {n} of its Followers, {k} from its "
                "supply (harder game)"
            )
        case E.KingKeepsLast(count=n):
            return f"The King keeps its last Follower in every area: {plural(n, 'Follower')} not removed"
        case E.KingRemoves(area=area):
            return f"The King removes a Follower from {w.area(area)}"
        case E.KingProduceLost(area=area):
            return f"A Follower for {w.area(area)} fits nowhere"
        case E.KingProduces(area=area, overflow_from=source):
            return f"The King produces a Follower in {w.area(area)}" + (
                f" (overflow from {w.area(source)})" if source else ""
            )
        case E.KingSummons(power=p):
            return f"The King summons (Power {p})"
        case E.KingMarkerClimbs(space=space, space_kind=kind):
            return f"The King's marker climbs to space {space} ({kind})"
        case E.KingRitual(higher=higher, steps=n):
            return f"The King's {'higher' if higher else 'lower'} marker climbs {plural(n, 'step')}"
        case E.KingNoFort():
            return "The King has nowhere to build a Fort level"
        case E.KingFortLevel(area=area, levels=n):
            return f"The King builds a Fort level in {w.area(area)} (now {n})"
        case E.KingNothingToDevour():
            return "There is no unit for the King to devour"
        case E.KingFortifyToManeuver():
            return "Every area the King controls has 3 Fort levels: it maneuvers instead"
        case E.KingManeuvers(area=area, chosen=chosen):
            return f"The King places a Follower in {w.area(area)}" + (
                " (your choice among the tied areas)" if chosen else ""
            )
        case E.KingMpUnused():
            return "No area for the King to maneuver into"
        case E.KingDevelops(count=n):
            return f"The King draws {plural(n, 'Development card')}"
        case E.KingDayCultist(action=action):
            return f"A Cultist goes on the {w.day_short(action)} Day space"
        case E.KingMarkedProduce(area=area, side=-1):
            return f"The Marked Area {w.area(area)} is controlled by nobody: it produces nothing"
        case E.KingMarkedProduce(area=area, side=side):
            whom = "the Shadows" if side == E.SHADOWS else "its controller"
            return f"The Marked Area {w.area(area)} produces 1 for {whom}"
    return ""


def _king_more(e: Event, s: GameState, w: Words, who: str) -> str:
    match e:
        case E.KingCombatCards(count=n, revealed=True):
            return f"The King reveals {plural(n, 'combat card')}: you play yours after seeing them"
        case E.KingCombatCards(count=n):
            return f"The King draws {plural(n, 'combat card')} face down: you play yours first"
        case E.KingVictoryCard():
            return "The King wins against the Shadows and draws a card"
        case E.KingCombatReturned():
            return "The King's own combat card(s) return to its hand"
        case E.KingShieldDiscard(card=card):
            return f"{who} discards {w.card(card)} as the King's Shield returns, to climb 1 step"
        case E.KingConflictsEnd(resolved=n):
            return f"The King's conflicts end after {plural(n, 'conflict')}"
        case E.KingConflictCard(area=area):
            return f"The King draws the Area Selection card {w.area(area)}"
        case E.KingConflictSkipped(area=area):
            return f"No conflict in {w.area(area)} is desirable for the King: the card is set aside"
        case E.KingCultistReturned():
            return "The King has no Dream in play: the Cultist returns to its supply"
        case E.KingCultistOnDream(card=card, why="discount"):
            return f"A Cultist goes onto the King's new Dream {w.card(card)} at once (harder game)"
        case E.KingCultistOnDream(card=card, why="ritual"):
            return f"A Cultist goes onto the King's Dream {w.card(card)}"
        case E.KingCultistOnDream(card=card, cultists=n, vp=vp):
            return f"A Cultist goes onto the King's Dream {w.card(card)} ({n} of {vp})"
        case E.KingDreamCompleted(card=card):
            return f"The King completes its Dream {w.card(card)}"
        case E.KingTakesDream(card=card):
            return f"The King takes the Dream {w.card(card)} from the display"
        case E.KingBuilds(card=card):
            return f"The King's Dream {w.card(card)} shows the Cathedral icon: the King builds a Cathedral piece"
        case E.KingKeepsTile(piece=piece):
            return f"The King keeps the Reward tile of piece {piece} for 1 VP at the end, instead of its ability"
        case E.KingNightmareSkipped(why="both"):
            return "The King has commanded both Nightmares this turn: no command"
        case E.KingNightmareSkipped():
            return "The King is already commanding a Nightmare: no other command"
        case E.KingCommandsNightmare(number=n):
            return f"The King commands Nightmare {w.nightmare(n)} and moves its Cultist onto it"
        case E.KingNightmareFailure(number=n, area=area):
            return (
                f"No adjacent area suits Nightmare {w.nightmare(n)}: it moves to {w.area(area)} and its Failure "
                "resolves"
            )
        case E.KingEffectSkipped(step=step):
            return f"The King cannot resolve a {step.replace('_', ' ')} step"
    return ""


def _deck(deck: str) -> str:
    name = "Dream deck" if deck.startswith("dream") else "Development deck"
    return name + (" (Stage 2)" if deck.endswith("2") else "")


def _names(w: Words, cards: Sequence[str]) -> str:
    """': a, b' when the cards are visible, nothing when they are hidden."""
    if not cards or any(c == HIDDEN for c in cards):
        return ""
    return f": {w.cards_list(cards)}"


def _one(w: Words, card: str, hidden: str) -> str:
    return hidden if not card or card == HIDDEN else w.card(card)
