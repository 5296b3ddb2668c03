"""Plain words for actions and events: the options list and the log both use them.

Nothing here decides anything or looks at secrets: an event's cards are named only when the
event carries them (``redact`` has already replaced secret ones with ``HIDDEN``).
"""

from __future__ import annotations

import re

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

from .content.loader import Pack, get_pack
from .engine.actions import (
    Action, AddShadow, BreakTie, BuildFortLevel, ChooseAction, ChooseDay, ChooseOption, ChooseTurnStart, ClimbMarker,
    Conquer, ConvertUnit, DiscardDevelopment, DiscardDream, Done, KeepCard, KeepDreams, MoveFollower, MoveShaper,
    PayFollower, PayLimbo, PlaceDreamer, PlayCombatCard, PlayDream, PlayPloy, PlaysFirst, PlayUpgrade, ProduceIn,
    React, RecoverTo, RetreatTo, StartConflict, TakeBonus, TakeDream, TakeVictory,
)
from .engine.actions import ChooseArea, ChooseNightmare, DevourUnit, MoveNightmare, ReturnFromLimbo, TakePiece
from .engine.events import HIDDEN, Event, plural
from .engine.state import GameState

SEAT_LETTERS = {"red": "R", "blue": "B", "green": "G", "yellow": "Y"}
END_REASONS = {"time": "the Time marker reached the skull", "devoured": "the Devoured end condition was met"}

_IDS = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")  # a word or a hyphenated id


class Words:
    """Names from one content pack: areas, symbols, spaces, cards."""

    def __init__(self, pack: Pack) -> None:
        self.pack = pack
        self.areas = {a.id: a for sm in pack.sides for a in sm.side.areas}
        self.corners = {a.id for sm in pack.sides for a in sm.side.areas if a.corner}
        self.symbols = {s.id: s for s in pack.board.symbols}
        self.days = {d.action: d for d in pack.matrix.days}
        self.nights = {n.id: n for n in pack.matrix.nights}
        c = pack.cards
        names = {a.id: a.name for a in c.actions}
        names[c.basic_combat.id] = c.basic_combat.name
        names.update((d.id, d.name) for d in c.development)
        names.update((d.id, d.name) for d in c.dreams)
        names.update((d.id, d.name) for d in c.conflicts)
        names.update((d.id, d.name) for d in c.king_combat)
        self.cards = names
        # ids a King's sentence may name, with the name to show instead
        self.named = {**{a: self.area(a) for a in self.areas}, **names, **{d: self.day_short(d) for d in self.days}}
        self.nightmares = {n.number: n.name for n in c.nightmares}

    def area(self, area_id: str) -> str:
        a = self.areas.get(area_id)
        return a.name if a else area_id

    def symbol(self, symbol_id: str, *, name: bool = True) -> str:
        """'◉E Eye': the glyph, the letter (for monochrome terminals) and the name."""
        s = self.symbols.get(symbol_id)
        if s is None:
            return symbol_id
        return f"{s.glyph}{s.letter} {s.name}" if name else f"{s.glyph}{s.letter}"

    def day(self, action: str) -> str:
        d = self.days.get(action)
        return d.name if d else action.capitalize()

    def day_short(self, action: str) -> str:
        """'Ritual', 'Maneuver': the action's one-word name."""
        return action.capitalize()

    def space(self, space_id: str) -> str:
        """A Night space or a Day space, by id."""
        if space_id in self.nights:
            return self.nights[space_id].name
        if space_id in self.days:
            return self.day_short(space_id)
        return space_id or "off the board"

    def card(self, card_id: str) -> str:
        if card_id == HIDDEN:
            return "a hidden card"
        return self.cards.get(card_id, card_id)

    def names_in(self, text: str) -> str:
        """``text`` with the ids of areas, cards and actions it names replaced by their names
        (the engine's prompts and the King's sentences speak in ids)."""
        return _IDS.sub(lambda m: self.named.get(m.group(0), m.group(0)), text)

    def cards_list(self, cards: Sequence[str]) -> str:
        return ", ".join(self.card(c) for c in cards)

    def nightmare(self, number: int) -> str:
        name = self.nightmares.get(number)
        return f"{number} ({name})" if name else str(number)


@lru_cache(maxsize=8)
def words_for(pack_id: str) -> Words:
    return Words(get_pack(pack_id))


def _is_king(state: GameState, seat: int) -> bool:
    """The King of Horrors' seat in solo (named from the start, before its play area is set up)."""
    seats = state.config.seats
    return 0 <= seat < len(seats) and seats[seat] == "king"


def seat_name(state: GameState, seat: int) -> str:
    """'Red', from the seat's colour; 'King' for the King of Horrors' seat in solo."""
    if _is_king(state, seat):
        return "King"
    if 0 <= seat < len(state.players):
        return state.players[seat].colour.capitalize()
    return "Nobody"


def seat_letter(state: GameState, seat: int) -> str:
    if _is_king(state, seat):
        return "K"
    if 0 <= seat < len(state.players):
        colour = state.players[seat].colour
        return SEAT_LETTERS.get(colour, colour[:1].upper())
    return "?"


def describe_prompt(prompt: str, state: GameState) -> str:
    """A decision's prompt with names instead of ids ('the conflict in Ash Nave')."""
    return words_for(state.pack).names_in(prompt)


# ---------------------------------------------------------------------------------------------
# Actions


def describe_action(action: Action, state: GameState) -> str:
    """The option as the deciding player reads it, e.g. 'Conquer Ash Nave'."""
    w = words_for(state.pack)
    match action:
        case ChooseTurnStart(position=p):
            track = w.pack.tracks.turn
            sym = w.symbol(track[p]) if 0 <= p < len(track) else "?"
            return f"Start the Turn track at position {p + 1}: {sym}"
        case Conquer(area=a):
            sym = w.symbol(w.areas[a].symbol, name=False) if a in w.areas else ""
            corner = " (corner)" if a in w.corners else ""
            return f"Conquer {w.area(a)} {sym}{corner}".replace("  ", " ")
        case PlaceDreamer(night=n):
            night = w.nights.get(n)
            beside = f" (next to {', '.join(w.day_short(d) for d in night.adjacent)})" if night else ""
            return f"{w.space(n)}{beside}"
        case ChooseDay(action=a, ignore=True):
            return f"{w.day_short(a)}: ignore it and draw 2 cards"
        case ChooseDay(action=a):
            return f"{w.day_short(a)}: perform it"
        case DiscardDream(card=c):
            return f"Discard {w.card(c)}"
        case KeepDreams():
            return "Keep the rest"
        case TakeDream(card=""):
            return "Draw blind from the Dream deck"
        case TakeDream(card=c):
            return f"Take {w.card(c)} from the offer"
        case DiscardDevelopment(card=c):
            return f"Discard {w.card(c)}"
        case React(kind="conform"):
            return f"Conform ({w.day(state.day)})" if state.day else "Conform"
        case React(kind="dissent"):
            return f"Dissent ({w.day(state.day)})" if state.day else "Dissent"
        case React(kind="pass"):
            return "Pass"
    return _describe_effect_action(action, state, w)


def _decision_kind(state: GameState) -> str:
    """The kind of the decision an option belongs to (one action type serves several)."""
    return state.decision.kind if state.decision is not None else ""


def side_name(state: GameState, side: int) -> str:
    """A seat's colour, or the Shadows (side -2)."""
    return "the Shadows" if side == -2 else seat_name(state, side)


def _describe_effect_action(action: Action, state: GameState, w: "Words") -> str:
    """The choices made while an effect, a conflict or a Dream window is being resolved."""
    match action:
        case Done():
            return "Done (stop here)"
        case ProduceIn(area=a):
            return f"Produce in {w.area(a)}"
        case MoveFollower(source=s, to=t):
            return f"Move a Follower: {w.area(s)} → {w.area(t)}"
        case MoveShaper(to=t):
            return f"Move your Shaper to {w.area(t)}"
        case ConvertUnit(area=a, side=side):
            return f"Convert a unit of {side_name(state, side)} in {w.area(a)}"
        case BuildFortLevel(area=a):
            return f"Add a Fort level in {w.area(a)}"
        case PayFollower(area=a):
            return f"Remove a Follower from {w.area(a)}"
        case PayLimbo():
            return "Pay with 3 Followers from Limbo"
        case ReturnFromLimbo(count=n):
            held = state.players[state.decision.seat].limbo if state.decision is not None else 0
            return f"Take {'all ' if n == held > 1 else ''}{plural(n, 'Follower')} back from Limbo to your supply"
        case ClimbMarker(marker=m):
            return f"Climb with Ritual marker {m + 1}"
        case TakeBonus(take=True):
            return "Resolve the space's bonus"
        case TakeBonus(take=False):
            return "Ignore the space's bonus"
        case PlayUpgrade(card=c):
            return f"Play the Upgrade {w.card(c)}"
        case PlayPloy(card=c):
            return f"Play the Ploy {w.card(c)}"
        case KeepCard(card=c):
            return f"Keep {w.card(c)}"
        case ChooseOption(index=i):
            return f"Option {i + 1}"
        case ChooseAction(action=a):
            kind = _decision_kind(state)
            if kind == "king_tuck":
                return f"Tuck the card under the King's {w.day_short(a)} card"
            if kind == "king_powered":
                return f"Power up the King's {w.day_short(a)} card"
            return f"Conform with your {w.day_short(a)} card"
        case ChooseArea(area=a):
            king = _decision_kind(state) == "king_maneuver"
            return f"Place the King's Follower in {w.area(a)}" if king else f"Choose {w.area(a)}"
        case AddShadow(area=a):
            return f"Add a Shadow to {w.area(a)}"
        case RecoverTo(area=a):
            return f"Bring a Follower from Limbo to {w.area(a)}"
        case StartConflict(area=a, sides=(x, y)):
            return f"Conflict in {w.area(a)}: {side_name(state, x)} against {side_name(state, y)}"
        case PlaysFirst(seat=s):
            return f"{seat_name(state, s)} plays cards first"
        case PlayCombatCard(card=c):
            return f"Play {w.card(c)} face down"
        case BreakTie(winner=s):
            return f"{side_name(state, s)} wins the tie"
        case RetreatTo(area=a):
            return f"Retreat to {w.area(a)}"
        case TakeVictory(take=True):
            return "Resolve the Victory effect"
        case TakeVictory(take=False):
            return "Draw 1 Development card instead"
        case PlayDream(card=c):
            return f"Play the Dream {w.card(c)}"
        case ChooseNightmare(number=n):
            return f"Command Nightmare {w.nightmare(n)}"
        case MoveNightmare(to=t):
            return f"Move the Nightmare to {w.area(t)}"
        case DevourUnit(area=a, side=side):
            return f"Devour a unit of {side_name(state, side)} in {w.area(a)}"
        case TakePiece(piece=p):
            tile = dict(state.path_tiles).get(p)
            return f"Place piece {p}" + (f" and take the Reward tile {w.card(tile)}" if tile else "")
    return type(action).__name__


# ---------------------------------------------------------------------------------------------
# Events


def describe_event(event: Event, state: GameState) -> str:
    """One event in a sentence. ``state`` gives the names (seats' colours, the pack)."""
    w = words_for(state.pack)
    who = seat_name(state, event.seat)
    k = event.kind
    if k == "setup_board":
        return f"The board: {event.detail} ({event.value} areas in play)"
    if k == "first_player":
        return f"{who} is the first player"
    if k == "turn_start":
        track = w.pack.tracks.turn
        sym = w.symbol(track[event.value]) if 0 <= event.value < len(track) else "?"
        return f"{who} starts the Turn track at position {event.value + 1} ({sym})"
    if k == "starting_upgrade":
        return f"{who} receives the starting Upgrade {w.cards_list(event.cards)}"
    if k == "dealt_development":
        return f"{who} is dealt {plural(len(event.cards), 'Development card')}{_names(w, event.cards)}"
    if k == "dealt_dreams":
        return f"{who} is dealt {plural(len(event.cards), 'Dream card')}{_names(w, event.cards)}"
    if k == "dream_offer":
        return f"The Dream offer: {w.cards_list(event.cards)}"
    if k == "conquer":
        return f"{who} conquers {w.area(event.area)}"
    if k == "seed_shadows":
        verb = "seeps" if event.value == 1 else "seep"
        return f"{plural(event.value, 'Shadow')} {verb} into {w.area(event.area)}"
    if k == "place_dreamer":
        return f"{who} places its Dreamer on {w.space(event.detail)}"
    if k == "nightmares":
        numbers = [int(n) for n in event.detail.split(" & ") if n.strip().isdigit()]
        how = " (chosen)" if event.value == 1 else " (revealed at random)"
        return "The Nightmares: " + (" and ".join(w.nightmare(n) for n in numbers) or event.detail) + how
    if k == "turn_begins":
        marked = f"; the marked symbol is {w.symbol(event.detail)}" if event.detail else ""
        return f"Turn {event.value}: {who} is the active player{marked}"
    if k == "choose_day":
        how = "ignores it" if event.value else "performs it"
        return f"{who} moves its Dreamer to {w.day(event.detail)} and {how}"
    if k == "drew_development":
        return f"{who} draws {plural(event.value, 'Development card')}{_names(w, event.cards)}"
    if k == "development_reshuffled":
        return f"The Development discard pile is shuffled into a new deck ({plural(event.value, 'card')})"
    if k == "discard_dream":
        return f"{who} puts {_one(w, event.cards, 'a Dream card')} at the bottom of the Dream deck"
    if k == "take_dream":
        if event.detail == "offer":
            return f"{who} takes {w.cards_list(event.cards)} from the Dream offer"
        return f"{who} draws {_one(w, event.cards, 'a Dream card')} from the Dream deck"
    if k == "dream_offer_refilled":
        return f"{w.cards_list(event.cards)} joins the Dream offer"
    if k == "discard_development":
        return f"{who} discards {w.cards_list(event.cards)}"
    if k == "react":
        verb = {"conform": "conforms", "dissent": "dissents", "pass": "passes"}.get(event.detail, event.detail)
        return f"{who} {verb}"
    if k == "dreamer_moves":
        return f"{who}'s Dreamer follows its arrow to {w.space(event.detail)}"
    if k == "time_advances":
        return f"The Time marker advances to {event.detail or event.value}"
    if k == "game_over":
        winners = [seat_name(state, int(s)) for s in event.cards if s.lstrip("-").isdigit()]
        reason = END_REASONS.get(event.detail, event.detail)
        won = " and ".join(winners) or "nobody"
        return f"The game ends ({reason}): {won} {'wins' if len(winners) == 1 else 'win'}"
    words = EFFECT_EVENTS.get(k)
    if words is not None:
        return words(w, who, event, state)
    if k.startswith("king_") and event.detail:  # the King's steps carry their own sentence
        detail = w.names_in(event.detail)
        return detail[0].upper() + detail[1:]
    return _generic(event, state)


def _side(state: GameState, side: int | str) -> str:
    return side_name(state, int(side))


def _conflict_sides(state: GameState, detail: str) -> str:
    a, _, b = detail.partition(",")
    return f"{_side(state, a)} and {_side(state, b)}" if b else detail


def _space(e: Event) -> str:
    return f"Ritual space {e.value}"


# Events of effects, conflicts, the Ritual track, Dreams and the Cathedral:
# kind -> (words, who, event, state) -> sentence.
EFFECT_EVENTS: dict[str, Callable[[Words, str, Event, GameState], str]] = {
    "stop": lambda w, who, e, s: f"{who} stops here",
    "produce": lambda w, who, e, s: f"{w.area(e.area)} produces {plural(e.value, 'unit')} for {_side(s, e.seat)}",
    "add_shadow": lambda w, who, e, s: f"{who} adds a Shadow to {w.area(e.area)}",
    "remove_follower": lambda w, who, e, s: f"{who} returns a Follower from {w.area(e.area)} to its supply"
    + (" to pay for a Fort level" if e.detail == "fort_level" else ""),
    "recover_limbo": lambda w, who, e, s: f"{who} brings a Follower back from Limbo to {w.area(e.area)}",
    "limbo_return": lambda w, who, e, s: f"{who} takes {plural(e.value, 'Follower')} back from Limbo to its supply",
    "choose": lambda w, who, e, s: f"{who} chooses option {e.value + 1}",
    "perform_conform": lambda w, who, e, s: f"{who} performs the Conform part of its {w.day_short(e.detail)} card",
    "dreamer_free": lambda w, who, e, s: f"{who}'s Dreamer will go to any Night space at the end of the turn",
    "no_effect_stage1": lambda w, who, e, s: "Nightmares and devouring have no effect before Stage 2",
    "play_upgrade": lambda w, who, e, s: f"{who} plays the Upgrade {w.cards_list(e.cards)} on its "
    f"{w.day_short(e.detail)} card",
    "play_ploy": lambda w, who, e, s: f"{who} plays the Ploy {w.cards_list(e.cards)}",
    "drew_dreams": lambda w, who, e, s: f"{who} draws {plural(e.value, 'Dream card')}{_names(w, e.cards)}",
    "ritual_followers_return": lambda w, who, e, s: f"{plural(e.value, 'Follower')} paid on the Ritual track "
    f"return to {who}'s supply",
    # movement
    "gain_mp": lambda w, who, e, s: f"{who} gains {e.value} MP" + (" for its Shaper only" if e.detail == "shaper" else ""),
    "move_follower": lambda w, who, e, s: f"{who} moves a Follower from {w.area(e.detail)} to {w.area(e.area)}",
    "move_shaper": lambda w, who, e, s: f"{who} moves its Shaper from {w.area(e.detail)} to {w.area(e.area)}",
    "convert": lambda w, who, e, s: f"{who}'s Shaper converts a unit of {_side(s, e.value)} in {w.area(e.area)}",
    # Fort levels
    "build_fort_level": lambda w, who, e, s: f"{who} adds a Fort level in {w.area(e.area)} (now {e.value})",
    # the Ritual track
    "ritual_pay": lambda w, who, e, s: f"{who} removes a Follower from {w.area(e.area)} to pay for {_space(e)}",
    "ritual_pay_limbo": lambda w, who, e, s: f"{who} spends 3 Followers from Limbo to pay for {_space(e)}",
    "ritual_climb": lambda w, who, e, s: f"{who}'s Ritual marker {int(e.detail or 0) + 1} climbs to {_space(e)}",
    "ritual_bonus": lambda w, who, e, s: f"{who} resolves the bonus of {_space(e)}",
    "ritual_bonus_ignored": lambda w, who, e, s: f"{who} forfeits the bonus of {_space(e)}",
    # conflicts
    "conflict_start": lambda w, who, e, s: f"{who} resolves a conflict in {w.area(e.area)} between "
    f"{_conflict_sides(s, e.detail)}",
    "plays_first": lambda w, who, e, s: f"{who} lets {_side(s, e.value)} play cards first",
    "combat_card_played": lambda w, who, e, s: f"{who} plays {_one(w, e.cards, 'a card')} face down",
    "combat_cards_done": lambda w, who, e, s: f"{who} has played {plural(e.value, 'card')}",
    "conflict_reveal": lambda w, who, e, s: f"{_side(s, e.seat)} reveals {w.cards_list(e.cards)}: {e.detail}",
    "conflict_damage": lambda w, who, e, s: f"{_side(s, e.seat)} takes {e.value} damage",
    "units_eliminated": lambda w, who, e, s: f"{plural(e.value, 'unit')} of {_side(s, e.seat)} "
    f"{'is' if e.value == 1 else 'are'} eliminated" + (" to Limbo" if e.detail == "limbo" else ""),
    "fort_levels_lost": lambda w, who, e, s: f"{who} loses {plural(e.value, 'Fort level')}",
    "conflict_won": lambda w, who, e, s: f"{_side(s, e.seat)} wins the conflict in {w.area(e.area)}"
    + (f" ({e.detail})" if e.detail else ""),
    "break_tie": lambda w, who, e, s: f"{who} breaks the tie: {_side(s, e.value)} wins",
    "retreat": lambda w, who, e, s: f"{_side(s, e.seat)} retreats a unit from {w.area(e.detail)} to {w.area(e.area)}",
    "conflict_victory": lambda w, who, e, s: f"{who} resolves the Victory of {w.cards_list(e.cards)}",
    "victory_draw_instead": lambda w, who, e, s: f"{who} draws a Development card instead of the Victory of "
    f"{w.cards_list(e.cards)}",
    "conflict_defeat": lambda w, who, e, s: f"{who} suffers the Defeat of {w.cards_list(e.cards)}",
    "effect_not_resolvable": lambda w, who, e, s: f"The {e.detail} of {w.cards_list(e.cards)} can't be resolved",
    "conflict_card_bottom": lambda w, who, e, s: f"{w.cards_list(e.cards)} goes to the bottom of the Conflict deck",
    "basic_combat_returned": lambda w, who, e, s: f"{who} takes its Basic Combat card back",
    "combat_cards_discarded": lambda w, who, e, s: f"{who}'s played cards are discarded",
    "no_conflict_possible": lambda w, who, e, s: "No conflict is left to resolve",
    # Dreams and the Cathedral
    "play_dream": lambda w, who, e, s: f"{who} plays the Dream {w.cards_list(e.cards)} ({e.value} VP)",
    "cathedral_piece": lambda w, who, e, s: f"{who} adds piece {e.detail} to the Cathedral",
    "cathedral_icon": lambda w, who, e, s: f"{who} resolves the Cathedral space's {e.detail.replace('_', ' ')} icon",
    "cathedral_complete": lambda w, who, e, s: "The Cathedral is complete: Stage 2 begins",
    "stage2_development": lambda w, who, e, s: f"{plural(e.value, 'Stage 2 Development card')} are shuffled "
    "into the deck",
    "stage2_dreams": lambda w, who, e, s: f"{plural(e.value, 'Stage 2 Dream card')} and the offer are shuffled "
    "into the Dream deck",
    "stage2_conflicts": lambda w, who, e, s: "The Stage 1 Conflict cards leave the game; the Stage 2 deck is used",
    "stage2_conflicts_missing": lambda w, who, e, s: "There are no Stage 2 Conflict cards: the Stage 1 deck stays",
    # Stage 2: Nightmares and devouring
    "sideboard_flipped": lambda w, who, e, s: "The Cathedral sideboard turns to its Devoured Units side",
    "nightmares_enter": lambda w, who, e, s: "The Nightmares "
    + " and ".join(w.nightmare(n) for n in s.nightmares) + " enter the Cathedral space",
    "nightmares_unavailable": lambda w, who, e, s: f"{who} has already commanded both Nightmares this turn: "
    "nothing happens",
    "command_nightmare": lambda w, who, e, s: f"{who} commands Nightmare {w.nightmare(e.value)}",
    "nightmare_moves": lambda w, who, e, s: f"Nightmare {w.nightmare(e.value)} moves from {_where(w, e.detail)} "
    f"to {w.area(e.area)}",
    "nightmare_stuck": lambda w, who, e, s: (f"Nightmare {w.nightmare(e.value)} has no area it may enter: "
                                             "its move ends") if e.value else "No Nightmare is commanded: nothing moves",
    "nightmare_returns": lambda w, who, e, s: f"Nightmare {w.nightmare(e.value)} returns from {_where(w, e.detail)} "
    "to the Cathedral space",
    "devour": lambda w, who, e, s: f"{who}'s effect devours a unit of {_side(s, e.value)} in {w.area(e.area)}",
    "nothing_to_devour": lambda w, who, e, s: f"Nothing left to devour ({plural(e.value, 'unit')} not devoured)",
    # the Cathedral: Variable Length Game and Divergent Paths
    "cathedral_setup": lambda w, who, e, s: f"Piece {e.detail} stands in the Cathedral space from the start",
    "reward_tiles_out": lambda w, who, e, s: f"The {e.detail} Reward tiles come out face up: {w.cards_list(e.cards)}",
    "reward_tile_discarded": lambda w, who, e, s: f"The Reward tile {w.cards_list(e.cards)} by piece {e.detail} "
    "is discarded",
    "reward_tile": lambda w, who, e, s: f"{who} takes the Reward tile {w.cards_list(e.cards)} from the space of "
    f"piece {e.detail} and resolves it",
    "reward_tile_skipped": lambda w, who, e, s: f"The ability of {w.cards_list(e.cards)} can't be resolved and is "
    "skipped",
    "no_cathedral_piece": lambda w, who, e, s: "No Cathedral piece is left to build",
    "dreamer_free_move": lambda w, who, e, s: f"{who} moves its Dreamer to {w.space(e.detail)}",
    "conflict_follows": lambda w, who, e, s: f"{who} will resolve a conflict in {w.area(e.area)}",
    "end_triggered": lambda w, who, e, s: f"{plural(e.value, 'unit')} devoured (the Nightmares' number is "
    f"{e.detail}): the game ends once every player has had as many turns",
}


def _where(w: Words, area_id: str) -> str:
    return "the Cathedral space" if area_id == "cathedral" else w.area(area_id)


def _names(w: Words, cards: Sequence[str]) -> str:
    """': a, b' when the cards are visible, nothing when they are hidden."""
    if not cards or any(c == HIDDEN for c in cards):
        return ""
    return f": {w.cards_list(cards)}"


def _one(w: Words, cards: Sequence[str], hidden: str) -> str:
    if not cards or cards[0] == HIDDEN:
        return hidden
    return w.cards_list(cards)


def _generic(event: Event, state: GameState) -> str:
    parts = [event.kind.replace("_", " ").capitalize()]
    if event.seat >= 0:
        parts.append(seat_name(state, event.seat))
    if event.area:
        parts.append(words_for(state.pack).area(event.area))
    if event.detail:
        parts.append(event.detail)
    if event.value:
        parts.append(str(event.value))
    if event.cards:
        parts.append(words_for(state.pack).cards_list(event.cards))
    return ": ".join([parts[0], ", ".join(parts[1:])]) if len(parts) > 1 else parts[0]


def describe_events(events: Iterable[Event], state: GameState) -> list[str]:
    """The events as lines; a Dreamer ignoring its action and the 2 cards drawn for it read as
    one sentence ('Red moves its Dreamer to Maneuver and draws 2 Development cards')."""
    out: list[str] = []
    items = list(events)
    i = 0
    while i < len(items):
        e = items[i]
        nxt = items[i + 1] if i + 1 < len(items) else None
        if (e.kind == "choose_day" and e.value and nxt is not None and nxt.kind == "drew_development"
                and nxt.seat == e.seat):
            w = words_for(state.pack)
            out.append(f"{seat_name(state, e.seat)} moves its Dreamer to {w.day(e.detail)} and draws "
                       f"{plural(nxt.value, 'Development card')}{_names(w, nxt.cards)}")
            i += 2
            continue
        out.append(describe_event(e, state))
        i += 1
    return out
