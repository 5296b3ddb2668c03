"""CONFLICTS 1-12, MANEUVER ("resolve X conflicts"), FORTRESS, REWARDS AND CONSEQUENCES, LIMBO."""

from __future__ import annotations

import msgspec
import pytest
from msgspec.structs import replace

from nctui.games.nightmare_cathedral.content import schema as cs
from nctui.games.nightmare_cathedral.engine import (
    IllegalAction,
    actions as A,
    apply,
    board,
    events as E,
    legal_actions,
    new_game,
    player_view,
    step,
)
from nctui.games.nightmare_cathedral.engine.events import HIDDEN
from nctui.games.nightmare_cathedral.engine.invariants import violations
from nctui.games.nightmare_cathedral.engine.ops import set_player
from nctui.games.nightmare_cathedral.engine.state import BASIC_COMBAT, FOLLOWERS, FORT_LEVELS, SHADOWS, AreaState
from nctui.games.nightmare_cathedral.engine.views import redact
from nctui.games.nightmare_cathedral.engine.work import ConflictWork, VictoryWork
from tests import helpers as H
from tests.helpers import but_limbo, config, narrow, present, through_setup

SH = board.SHADOWS_SIDE
GREEN, BLUE = 0, 1
STRIKE = "d1-waking-bell"  # 2 Attacks
STRIKE2 = "d1-mirror-of-plans"  # 2 Attacks
GUARD = "d1-bone-mortar"  # 1 Attack, 1 Defence
GUARD2 = "d1-cradle-hymn"  # 1 Attack, 1 Defence
SHIELD = "d1-ash-pilgrims"  # 1 Defence
SHIELD2 = "d1-swarm-lullaby"  # 1 Defence
JAB = "d1-moth-procession"  # 1 Attack
JAB2 = "d1-sleepers-chorus"  # 1 Attack
FOG = "c1-grasping-fog"  # Shadows: 1 -> 1 Attack, 2 -> 2 Attacks; Victory: produce 1; Defeat: add 1 Shadow
TEETH = "c1-teeth-in-the-dark"  # 2 Shadows: 2 Attacks 1 Defence; Defeat: remove 1 of your Followers


def turn_state(players=2, seed=0, colours=("green", "blue")):
    state = through_setup(new_game(config(players, seed, colours=colours[:players] if players == 2 else ())).state)
    return state


def position(state, areas: dict, active: int = GREEN, limbo: dict | None = None):
    """The board holds exactly ``areas`` (id -> followers tuple, shadows, fort=(owner, levels),
    fortress); supplies are recomputed so that every piece is conserved."""
    assert set(areas) <= set(board.area_index(state)), set(areas) - set(board.area_index(state))
    built = []
    for a in state.areas:
        spec = areas.get(a.id, {})
        owner, levels = spec.get("fort", (-1, 0))
        built.append(
            AreaState(
                id=a.id,
                followers=tuple(spec.get("f", (0,) * len(state.players))),
                shadows=spec.get("s", 0),
                fort_owner=owner,
                fort_levels=levels,
                fortress=owner if spec.get("fortress") else -1,
            )
        )
    state = replace(
        state,
        areas=tuple(built),
        active=active,
        shadows=SHADOWS - sum(a.shadows for a in built) - state.devoured_shadows,
    )
    for pl in state.players:
        lim = (limbo or {}).get(pl.seat, 0)
        on_board = sum(a.followers[pl.seat] for a in built)
        forts = sum(a.fort_levels for a in built if a.fort_owner == pl.seat)
        state = set_player(
            state,
            replace(
                pl, limbo=lim, supply=FOLLOWERS - on_board - lim - pl.devoured - pl.on_track, forts=FORT_LEVELS - forts
            ),
        )
    return state


def give(state, seat, *cards):
    """The seat's hand becomes Basic Combat + ``cards``, taken from wherever they are; its old
    cards go to the bottom of the Development deck."""
    d = state.decks
    where = d.development + d.development_discard + tuple(c for pl in state.players for c in pl.hand)
    assert all(c in where for c in cards), "a test card is out of reach (a starting Upgrade?)"
    for pl in state.players:
        kept = tuple(c for c in pl.hand if c not in cards)
        if pl.seat == seat:
            d = replace(d, development=d.development + tuple(c for c in kept if c != BASIC_COMBAT))
            kept = (BASIC_COMBAT,) + cards
        state = set_player(state, replace(pl, hand=kept))
    d = replace(
        d,
        development=tuple(c for c in d.development if c not in cards),
        development_discard=tuple(c for c in d.development_discard if c not in cards),
    )
    return replace(state, decks=d)


def plain_unit_limits(state):
    """Fortify Upgrades (a higher Unit Limit) go back to the bottom of the Development deck."""
    slot = board.pack(state).matrix.rondel.index("fortify")
    for pl in state.players:
        stack = pl.display[slot]
        display = pl.display[:slot] + (stack[:1],) + pl.display[slot + 1 :]
        state = replace(
            set_player(state, replace(pl, display=display)),
            decks=replace(state.decks, development=state.decks.development + stack[1:]),
        )
    return state


def conflict_on_top(state, card):
    rest = tuple(c for c in state.decks.conflict if c != card)
    return replace(state, decks=replace(state.decks, conflict=(card,) + rest))


def resolve_conflicts(state, seat=GREEN, count=1, where="any", ev=None):
    """Push a "resolve X conflicts" effect as if it were the Day action of ``seat``."""
    state = H.push_effect(state, seat, (cs.ResolveConflicts(count=count, where=where),), "day", then="day_done")
    return H.resolve(state, ev if ev is not None else [])


def play(state, *actions):
    for action in actions:
        state = apply(state, action)
    return state


def area(state, area_id):
    return board.area(state, area_id)


def ok(state):
    assert violations(state) == []
    return state


# ---------------------------------------------------------------------------------------------
# Worked examples


def green_vs_blue():
    """CONFLICTS example: green 2 Followers vs blue 1 Follower and a 2-level Fort in ash-nave.
    Around it: green's Fort in weeping-orchard, blue in bell-hollow and choir-of-teeth,
    Shadows in hollow-stair and lantern-fen."""
    state = position(
        turn_state(),
        {
            "ash-nave": {"f": (2, 1), "fort": (BLUE, 2)},
            "weeping-orchard": {"f": (0, 0), "fort": (GREEN, 1)},
            "bell-hollow": {"f": (0, 2)},
            "choir-of-teeth": {"f": (0, 1)},
            "hollow-stair": {"s": 1},
            "lantern-fen": {"s": 1},
        },
    )
    state = give(give(state, GREEN, STRIKE, GUARD), BLUE, STRIKE2, GUARD2)
    return ok(state)


def test_rulebook_example_green_against_blue():
    state = resolve_conflicts(green_vs_blue())
    assert legal_actions(state) == (A.StartConflict(area="ash-nave", sides=(GREEN, BLUE)),)
    state = apply(state, A.StartConflict(area="ash-nave", sides=(GREEN, BLUE)))
    # blue controls the area (its Fort): green plays first, blue second
    assert present(state.decision).seat == GREEN and present(state.decision).kind == "play_combat_card"
    state = play(state, A.PlayCombatCard(card=STRIKE), A.PlayCombatCard(card=GUARD))
    assert state.decision.seat == BLUE  # 2 Followers: no third card
    state = play(state, A.PlayCombatCard(card=STRIKE2), A.PlayCombatCard(card=GUARD2))
    # both deal 3 damage and 1 shield: 2 damage each
    a = area(state, "ash-nave")
    assert a.followers == (0, 0) and a.fort_owner == BLUE and a.fort_levels == 1
    assert state.players[GREEN].limbo == 2 and state.players[BLUE].limbo == 1
    assert state.players[BLUE].forts == FORT_LEVELS - 1
    # blue wins with its Fort; green has no unit left to retreat
    assert state.players[BLUE].conflicts_won == 1 and state.players[GREEN].conflicts_won == 0
    assert not isinstance(state.work, ConflictWork)
    ok(state)


def test_rulebook_example_concluded_the_last_green_follower_retreats_to_its_fort():
    """The example's text has green play 1 card per Follower, lose 2 and retreat "their
    remaining Follower": 3 Followers (the picture is lost), 3 cards making 3 damage 1 shield."""
    state = position(
        green_vs_blue(),
        {
            "ash-nave": {"f": (3, 1), "fort": (BLUE, 2)},
            "weeping-orchard": {"f": (0, 0), "fort": (GREEN, 1)},
            "bell-hollow": {"f": (0, 2)},
            "choir-of-teeth": {"f": (0, 1)},
            "hollow-stair": {"s": 1},
            "lantern-fen": {"s": 1},
        },
    )
    state = resolve_conflicts(give(state, GREEN, JAB, JAB2, GUARD))
    state = play(
        state,
        A.StartConflict(area="ash-nave", sides=(GREEN, BLUE)),
        A.PlayCombatCard(card=JAB),
        A.PlayCombatCard(card=JAB2),
        A.PlayCombatCard(card=GUARD),
        A.PlayCombatCard(card=STRIKE2),
        A.PlayCombatCard(card=GUARD2),
    )
    a = area(state, "ash-nave")
    assert a.fort_levels == 1 and a.followers == (1, 0) and state.players[GREEN].limbo == 2
    assert area(state, "ash-nave").followers == (1, 0)
    assert state.decision.kind == "retreat" and state.decision.seat == GREEN
    # only the adjacent area green controls: blue's areas and the Shadows' are closed to it
    assert but_limbo(legal_actions(state)) == (A.RetreatTo(area="weeping-orchard"),)
    for closed in ("bell-hollow", "hollow-stair"):
        with pytest.raises(IllegalAction, match="CONFLICTS 9"):
            apply(state, A.RetreatTo(area=closed))
    with pytest.raises(IllegalAction, match="CONFLICTS 9"):
        apply(state, A.RetreatTo(area="salt-spire"))  # not adjacent
    state = apply(state, A.RetreatTo(area="weeping-orchard"))
    assert area(state, "weeping-orchard").followers == (1, 0)
    assert area(state, "ash-nave").fort_owner == BLUE  # blue retained control
    ok(state)


def with_fortify_upgrade(state, seat, card="d1-watchful-battlements"):
    """``card`` (Unit Limit 3, 4 in one area) covers the seat's Fortify card, taken from wherever
    it is (the deck, the discard pile or a hand)."""
    slot = board.pack(state).matrix.rondel.index("fortify")
    d = state.decks
    state = replace(
        state,
        decks=replace(
            d,
            development=tuple(x for x in d.development if x != card),
            development_discard=tuple(x for x in d.development_discard if x != card),
        ),
        players=tuple(replace(p, hand=tuple(x for x in p.hand if x != card)) for p in state.players),
    )
    pl = state.players[seat]
    display = pl.display[:slot] + ((*pl.display[slot], card),) + pl.display[slot + 1 :]
    return set_player(state, replace(pl, display=display))


def blue_vs_two_shadows():
    """The second example: blue 4 Followers (an Upgrade's limit) against 2 Shadows."""
    state = position(
        with_fortify_upgrade(plain_unit_limits(turn_state()), BLUE),
        {"choir-of-teeth": {"f": (0, 4), "s": 2}, "salt-spire": {"f": (0, 1)}, "mirror-dunes": {"f": (1, 1)}},
        active=BLUE,
    )
    state = give(state, BLUE, STRIKE, GUARD, GUARD2, SHIELD)
    return ok(conflict_on_top(state, FOG))


def test_rulebook_example_blue_against_two_shadows_and_victory():
    state = resolve_conflicts(blue_vs_two_shadows(), seat=BLUE)
    state = apply(state, A.StartConflict(area="choir-of-teeth", sides=(BLUE, SH)))
    assert present(state.decision).seat == BLUE  # the player plays first
    conflict_deck = state.decks.conflict
    state = play(state, A.PlayCombatCard(card=STRIKE), A.PlayCombatCard(card=GUARD), A.PlayCombatCard(card=GUARD2))
    assert A.Done() in legal_actions(state)  # 3 of the 4 allowed
    assert state.decks.conflict == conflict_deck  # the Shadows' card is drawn after the player's
    state = apply(state, A.Done())
    # 4 damage and 2 shields against the line for 2 Shadows (2 Attacks)
    a = area(state, "choir-of-teeth")
    assert a.shadows == 0 and a.followers[BLUE] == 4
    assert state.players[BLUE].limbo == 0 and state.shadows == SHADOWS
    assert state.players[BLUE].conflicts_won == 1
    assert present(state.decision).kind == "take_victory" and present(state.decision).seat == BLUE
    assert isinstance(state.work, VictoryWork) and state.work.fight.shadow_card == FOG
    ok(state)
    state = apply(state, A.TakeVictory(take=True))  # Produce 1 in an area you control
    assert FOG not in state.decks.conflict  # held by the Victory effect until it is resolved
    assert present(state.decision).kind == "produce" and present(state.decision).seat == BLUE
    assert legal_actions(state) == (A.ProduceIn(area="salt-spire"),)  # Victory: as completely as possible
    assert state.frames[-1].source == "victory" and state.frames[-1].must
    state = apply(state, A.ProduceIn(area="salt-spire"))
    assert area(state, "salt-spire").followers[BLUE] == 2
    assert state.decks.conflict[-1] == FOG and FOG not in state.decks.conflict[:-1]
    ok(state)


# ---------------------------------------------------------------------------------------------
# Step 1: which conflicts


def test_any_area_with_two_sides_and_any_pair_of_them_even_without_the_resolver():
    state = turn_state(players=3, colours=())
    state = position(
        state,
        {
            "whorl-market": {"f": (0, 1, 1), "s": 1},
            "rust-keep": {"f": (1, 0, 0), "fort": (0, 1)},
            "glass-orchard": {"f": (0, 0, 0), "fort": (2, 1), "s": 2},
        },
    )
    state = resolve_conflicts(state, seat=0)
    assert state.decision.seat == 0
    assert set(legal_actions(state)) == {
        A.StartConflict(area="whorl-market", sides=(1, 2)),
        A.StartConflict(area="whorl-market", sides=(1, SH)),
        A.StartConflict(area="whorl-market", sides=(2, SH)),
        A.StartConflict(area="glass-orchard", sides=(2, SH)),
    }
    with pytest.raises(IllegalAction, match="CONFLICTS 1"):
        apply(state, A.StartConflict(area="whorl-market", sides=(0, 1)))  # seat 0 has nothing there
    with pytest.raises(IllegalAction, match="CONFLICTS 1"):
        apply(state, A.StartConflict(area="whorl-market", sides=(SH, 1)))  # Shadows named last
    with pytest.raises(IllegalAction, match="KEY CONCEPTS"):
        apply(state, A.StartConflict(area="atlantis", sides=(1, 2)))


def test_the_effects_area_filter_limits_the_conflicts():
    state = position(turn_state(), {"bell-hollow": {"f": (1, 1)}, "salt-spire": {"f": (1, 0), "s": 1}})
    state = set_player(state, replace(state.players[GREEN], shaper="salt-spire"))
    state = resolve_conflicts(state, where="shaper")
    assert legal_actions(state) == (A.StartConflict(area="salt-spire", sides=(GREEN, SH)),)
    with pytest.raises(IllegalAction, match="MANEUVER"):
        apply(state, A.StartConflict(area="bell-hollow", sides=(GREEN, BLUE)))


def test_no_conflict_possible_ends_the_step_at_once():
    state = position(turn_state(), {"bell-hollow": {"f": (2, 0)}, "salt-spire": {"f": (0, 1)}})
    ev: list = []
    state = resolve_conflicts(state, count=2, ev=ev)
    assert not isinstance(state.work, ConflictWork) and not state.frames
    assert state.decision.kind != "start_conflict"
    assert [(e.kind, e.left) for e in ev if e.kind == "no_conflict_possible"] == [("no_conflict_possible", 2)]


def test_resolve_two_conflicts_stops_early_when_none_is_left():
    state = position(
        turn_state(), {"bell-hollow": {"f": (2, 1)}, "salt-spire": {"f": (1, 0), "s": 1}, "ember-reach": {"f": (0, 0)}}
    )
    state = give(give(state, GREEN, STRIKE, STRIKE2), BLUE, SHIELD)
    state = resolve_conflicts(state, count=2)
    assert len(legal_actions(state)) == 2
    state = play(
        state,
        A.StartConflict(area="bell-hollow", sides=(GREEN, BLUE)),
        A.PlayCombatCard(card=SHIELD),
        A.PlayCombatCard(card=BASIC_COMBAT),
        A.Done(),
    )
    # green controls: blue plays first. Green's Attack is cancelled; green wins on units 2-1.
    assert state.decision.kind == "retreat" and state.decision.seat == BLUE
    state = apply(state, legal_actions(state)[0])
    # the second conflict is resolved in the other area
    assert present(state.decision).kind == "start_conflict"
    assert legal_actions(state) == (A.StartConflict(area="salt-spire", sides=(GREEN, SH)),)
    state = conflict_on_top(state, FOG)
    state = play(state, A.StartConflict(area="salt-spire", sides=(GREEN, SH)), A.PlayCombatCard(card=STRIKE))
    # 2 Attacks kill the Shadow; 1 Attack from FOG kills green's Follower: tie 0-0
    assert state.decision.kind == "break_tie" and state.decision.seat == GREEN
    state = apply(state, A.BreakTie(winner=GREEN))
    state = apply(state, A.TakeVictory(take=False))
    assert not isinstance(state.work, ConflictWork)
    ok(state)


def test_resolve_two_conflicts_stops_when_the_first_leaves_none():
    state = position(turn_state(), {"bell-hollow": {"f": (2, 1)}})
    state = resolve_conflicts(state, count=2)
    state = play(
        state,
        A.StartConflict(area="bell-hollow", sides=(GREEN, BLUE)),
        A.PlayCombatCard(card=BASIC_COMBAT),
        A.PlayCombatCard(card=BASIC_COMBAT),
        A.Done(),
    )
    assert state.decision.kind == "retreat" and state.decision.seat == BLUE
    state = apply(state, legal_actions(state)[0])
    assert not isinstance(state.work, ConflictWork)
    assert present(state.decision).kind != "start_conflict"
    ok(state)


# ---------------------------------------------------------------------------------------------
# Step 2: cards face down, order of play


def test_between_players_the_controller_plays_second():
    state = position(turn_state(), {"bell-hollow": {"f": (1, 2)}})
    state = resolve_conflicts(state)
    state = apply(state, A.StartConflict(area="bell-hollow", sides=(GREEN, BLUE)))
    assert present(state.decision).seat == GREEN and H.fight(state).order == (GREEN, BLUE)
    state = position(turn_state(), {"bell-hollow": {"f": (2, 1)}})
    state = apply(resolve_conflicts(state, seat=BLUE), A.StartConflict(area="bell-hollow", sides=(GREEN, BLUE)))
    assert present(state.decision).seat == BLUE and H.fight(state).order == (BLUE, GREEN)


def test_with_no_controller_the_active_player_chooses_who_plays_first():
    state = position(
        turn_state(players=3, colours=()),
        {"whorl-market": {"f": (0, 1, 1), "fort": (0, 1)}, "rust-keep": {"f": (0, 2, 2)}},
        active=0,
    )
    state = resolve_conflicts(state, seat=0)
    # seat 0 controls whorl-market but is not in the conflict: nobody in it controls
    state = apply(state, A.StartConflict(area="whorl-market", sides=(1, 2)))
    assert present(state.decision).kind == "plays_first" and present(state.decision).seat == 0
    assert set(legal_actions(state)) == {A.PlaysFirst(seat=1), A.PlaysFirst(seat=2)}
    with pytest.raises(IllegalAction, match="CONFLICTS 2"):
        apply(state, A.PlaysFirst(seat=0))
    state = apply(state, A.PlaysFirst(seat=2))
    assert present(state.decision).seat == 2 and H.fight(state).order == (2, 1)


def test_at_least_one_card_and_never_more_than_followers_plus_fort():
    state = position(turn_state(), {"bell-hollow": {"f": (1, 2), "fort": (GREEN, 3)}})
    state = give(give(state, GREEN, STRIKE, GUARD, SHIELD), BLUE, STRIKE2, GUARD2, SHIELD2)
    state = apply(resolve_conflicts(state), A.StartConflict(area="bell-hollow", sides=(GREEN, BLUE)))
    assert present(state.decision).seat == BLUE  # green controls with its Fort
    assert A.Done() not in legal_actions(state)  # at least 1 card
    with pytest.raises(IllegalAction):
        apply(state, A.Done())
    with pytest.raises(IllegalAction, match="CONFLICTS 2"):
        apply(state, A.PlayCombatCard(card=STRIKE))  # not in blue's hand
    assert set(legal_actions(state)) == {A.PlayCombatCard(card=c) for c in state.players[BLUE].hand}
    state = play(state, A.PlayCombatCard(card=STRIKE2), A.PlayCombatCard(card=GUARD2))
    # 2 Followers, no Fort: the third card is not allowed, green plays now
    assert state.decision.seat == GREEN and state.work.fight.plays[1] == (STRIKE2, GUARD2)
    state = play(state, A.PlayCombatCard(card=SHIELD), A.PlayCombatCard(card=GUARD))
    # 1 Follower + 1 for the Fort (not its 3 levels): revealed after 2 cards
    assert state.work.fight.revealed and state.work.fight.plays[0] == (SHIELD, GUARD)
    assert area(state, "bell-hollow").followers == (0, 2)  # 3 Attacks - 2 Defences; green wins by its Fort
    assert state.decision.kind == "retreat" and state.decision.seat == BLUE
    ok(state)


def test_face_down_cards_are_hidden_from_every_other_seat_until_revealed():
    state = position(turn_state(players=3, colours=()), {"whorl-market": {"f": (2, 1, 0), "fort": (1, 1)}})
    state = give(state, 0, STRIKE, GUARD)
    state = apply(resolve_conflicts(state, seat=0), A.StartConflict(area="whorl-market", sides=(0, 1)))
    state = play(state, A.PlayCombatCard(card=STRIKE))
    assert state.decision.seat == 0
    for seat, sees in ((0, True), (1, False), (2, False), (-1, False)):
        text = msgspec.json.encode(player_view(state, seat)).decode()
        assert (STRIKE in text) is sees, seat
    mine = H.fight(player_view(state, 0).state)
    assert mine.plays[0] == (STRIKE,)
    assert H.fight(player_view(state, 1).state).plays[0] == ("?",)
    ok(state)


def test_the_played_card_event_is_private():
    state = position(turn_state(), {"bell-hollow": {"f": (1, 2)}})
    state = give(state, GREEN, STRIKE)
    state = apply(resolve_conflicts(state), A.StartConflict(area="bell-hollow", sides=(GREEN, BLUE)))
    events = step(state, A.PlayCombatCard(card=STRIKE)).events
    played = H.of_kind(events, E.CombatCardPlayed)
    assert played and played[0].seat == GREEN and played[0].card == STRIKE
    assert narrow(redact(played[0], GREEN), E.CombatCardPlayed).card == STRIKE
    for seat in (BLUE, None):
        assert narrow(redact(played[0], seat), E.CombatCardPlayed).card == HIDDEN


# ---------------------------------------------------------------------------------------------
# Steps 3-8


def test_against_shadows_one_conflict_card_uses_the_line_for_the_number_of_shadows():
    state = position(turn_state(), {"bell-hollow": {"f": (3, 0), "s": 2}})
    state = conflict_on_top(give(state, GREEN, SHIELD), TEETH)
    state = apply(resolve_conflicts(state), A.StartConflict(area="bell-hollow", sides=(GREEN, SH)))
    state = play(state, A.PlayCombatCard(card=BASIC_COMBAT), A.Done())
    # green: 1 Attack 1 Defence. Teeth, 2 Shadows: 2 Attacks 1 Defence. Green loses 1, no Shadow dies.
    a = area(state, "bell-hollow")
    assert a.followers[GREEN] == 2 and a.shadows == 2
    assert state.players[GREEN].limbo == 1
    assert state.decks.conflict[0] != TEETH


def test_damage_beyond_units_falls_on_fort_levels_and_excess_is_ignored():
    state = position(turn_state(), {"bell-hollow": {"f": (3, 0), "fort": (BLUE, 2)}})
    state = give(give(state, GREEN, STRIKE, STRIKE2, GUARD), BLUE, SHIELD)
    state = apply(resolve_conflicts(state), A.StartConflict(area="bell-hollow", sides=(GREEN, BLUE)))
    state = play(
        state,
        A.PlayCombatCard(card=STRIKE),
        A.PlayCombatCard(card=STRIKE2),
        A.PlayCombatCard(card=GUARD),
        A.PlayCombatCard(card=SHIELD),
    )
    # 5 Attacks - 1 Defence = 4 damage on a side with no units and 2 Fort levels
    a = area(state, "bell-hollow")
    assert a.fort_levels == 0 and a.fort_owner == -1 and state.players[BLUE].forts == FORT_LEVELS
    assert state.players[GREEN].conflicts_won == 1  # no Fort left: green wins on units
    ok(state)


def test_the_fortress_owner_wins_in_its_fortress_and_keeps_its_last_level():
    state = position(
        turn_state(), {"bell-hollow": {"f": (3, 0), "fort": (BLUE, 1), "fortress": True}, "salt-spire": {"f": (0, 0)}}
    )
    state = give(give(state, GREEN, STRIKE, STRIKE2, GUARD), BLUE, SHIELD)
    state = apply(resolve_conflicts(state), A.StartConflict(area="bell-hollow", sides=(GREEN, BLUE)))
    state = play(state, A.PlayCombatCard(card=STRIKE), A.PlayCombatCard(card=STRIKE2), A.PlayCombatCard(card=GUARD))
    events = step(state, A.PlayCombatCard(card=SHIELD)).events
    state = apply(state, A.PlayCombatCard(card=SHIELD))
    assert [(e.seat, e.damage) for e in H.of_kind(events, E.ConflictDamage)] == [(GREEN, 0), (BLUE, 4)]
    assert not [e for e in events if e.kind == "fort_levels_lost"]
    a = area(state, "bell-hollow")
    assert a.fort_owner == BLUE and a.fort_levels == 1
    assert state.players[BLUE].conflicts_won == 1 and state.players[GREEN].conflicts_won == 0
    assert present(state.decision).kind == "retreat" and present(state.decision).seat == GREEN
    ok(state)


def test_the_active_player_breaks_an_unbreakable_tie():
    state = position(turn_state(), {"bell-hollow": {"f": (2, 2)}}, active=BLUE)
    state = give(give(state, GREEN, SHIELD), BLUE, SHIELD2)
    state = apply(resolve_conflicts(state, seat=GREEN), A.StartConflict(area="bell-hollow", sides=(GREEN, BLUE)))
    state = apply(state, A.PlaysFirst(seat=GREEN))
    state = play(state, A.PlayCombatCard(card=SHIELD), A.Done(), A.PlayCombatCard(card=SHIELD2), A.Done())
    assert state.decision.kind == "break_tie" and state.decision.seat == BLUE  # active, not the resolver
    with pytest.raises(IllegalAction, match="CONFLICTS 8"):
        apply(state, A.BreakTie(winner=SH))
    state = apply(state, A.BreakTie(winner=GREEN))
    assert state.players[GREEN].conflicts_won == 1
    assert present(state.decision).kind == "retreat" and present(state.decision).seat == BLUE


# ---------------------------------------------------------------------------------------------
# Steps 9-10: retreat


def test_retreat_to_controlled_present_or_empty_areas_within_the_unit_limit():
    # bell-hollow neighbours: ash-nave (green Fort, no green unit), choir-of-teeth (empty),
    # salt-spire (blue has 1 Follower, Shadows control), weeping-orchard (3 green: full)
    state = position(
        plain_unit_limits(turn_state()),
        {
            "bell-hollow": {"f": (3, 2), "fort": (BLUE, 1)},
            "ash-nave": {"fort": (GREEN, 1)},
            "salt-spire": {"f": (1, 1), "s": 2},
            "weeping-orchard": {"f": (3, 0)},
        },
    )
    state = give(give(state, GREEN, STRIKE), BLUE, SHIELD)
    state = apply(resolve_conflicts(state), A.StartConflict(area="bell-hollow", sides=(GREEN, BLUE)))
    state = play(state, A.PlayCombatCard(card=STRIKE), A.Done(), A.PlayCombatCard(card=SHIELD), A.Done())
    assert state.decision.kind == "retreat" and state.decision.seat == GREEN
    assert set(legal_actions(state)) == {
        A.RetreatTo(area="ash-nave"),
        A.RetreatTo(area="choir-of-teeth"),
        A.RetreatTo(area="salt-spire"),
    }
    with pytest.raises(IllegalAction, match="Unit Limit"):
        apply(state, A.RetreatTo(area="weeping-orchard"))
    state = play(state, A.RetreatTo(area="choir-of-teeth"), A.RetreatTo(area="ash-nave"))
    assert state.decision.kind == "retreat"
    state = apply(state, A.RetreatTo(area="choir-of-teeth"))
    assert area(state, "choir-of-teeth").followers[GREEN] == 2 and area(state, "ash-nave").followers[GREEN] == 1
    assert area(state, "bell-hollow").followers[GREEN] == 0
    ok(state)


def test_units_that_cannot_retreat_are_eliminated_to_limbo():
    # weeping-orchard's neighbours are all held by blue or the Shadows
    state = position(
        turn_state(),
        {
            "weeping-orchard": {"f": (2, 1), "fort": (BLUE, 1)},
            "ash-nave": {"f": (0, 1)},
            "bell-hollow": {"s": 1},
            "lantern-fen": {"f": (0, 2)},
        },
        limbo={GREEN: 1},
    )
    state = give(give(state, GREEN, SHIELD), BLUE, SHIELD2)
    state = apply(resolve_conflicts(state), A.StartConflict(area="weeping-orchard", sides=(GREEN, BLUE)))
    state = play(state, A.PlayCombatCard(card=SHIELD), A.Done(), A.PlayCombatCard(card=SHIELD2), A.Done())
    assert area(state, "weeping-orchard").followers[GREEN] == 0
    assert state.players[GREEN].limbo == 3
    assert not isinstance(state.work, ConflictWork)
    ok(state)


def test_losing_shadows_retreat_where_the_active_player_chooses():
    state = position(
        turn_state(),
        {
            "bell-hollow": {"f": (0, 3), "s": 2},
            "salt-spire": {"s": 3},
            "ash-nave": {"f": (1, 0)},
            "choir-of-teeth": {"s": 1},
            "weeping-orchard": {"f": (1, 0)},
        },
        active=GREEN,
    )
    state = conflict_on_top(give(state, BLUE, SHIELD), "c1-weeping-wall")
    state = apply(resolve_conflicts(state, seat=BLUE), A.StartConflict(area="bell-hollow", sides=(BLUE, SH)))
    state = play(state, A.PlayCombatCard(card=SHIELD), A.Done())
    # blue 0 Attack 1 Defence; 2 Shadows: 1 Attack 1 Defence. Nobody dies; blue wins 3-2.
    assert state.decision.kind == "retreat" and state.decision.seat == GREEN  # the active player
    assert legal_actions(state) == (A.RetreatTo(area="choir-of-teeth"),)  # salt-spire holds 3 Shadows
    state = apply(state, A.RetreatTo(area="choir-of-teeth"))
    state = apply(state, A.RetreatTo(area="choir-of-teeth"))
    assert area(state, "choir-of-teeth").shadows == 3 and area(state, "bell-hollow").shadows == 0
    assert present(state.decision).kind == "take_victory" and present(state.decision).seat == BLUE
    ok(state)


# ---------------------------------------------------------------------------------------------
# Steps 11-12


def test_victory_may_be_swapped_for_a_development_card_and_the_conflict_card_goes_to_the_bottom():
    state = play(
        resolve_conflicts(blue_vs_two_shadows(), seat=BLUE),
        A.StartConflict(area="choir-of-teeth", sides=(BLUE, SH)),
        A.PlayCombatCard(card=STRIKE),
        A.Done(),
    )
    top = state.decks.development[0]
    state = apply(state, A.TakeVictory(take=False))
    assert top in state.players[BLUE].hand
    assert state.decks.conflict[-1] == FOG
    assert not isinstance(state.work, ConflictWork)
    ok(state)


def test_defeat_is_resolved_as_completely_as_possible():
    state = position(turn_state(), {"bell-hollow": {"f": (1, 0), "s": 2}, "ember-reach": {"f": (2, 0)}})
    state = conflict_on_top(give(state, GREEN, SHIELD), TEETH)
    state = apply(resolve_conflicts(state), A.StartConflict(area="bell-hollow", sides=(GREEN, SH)))
    state = play(state, A.PlayCombatCard(card=SHIELD))  # 1 Follower: 1 card, no Done needed
    # 2 Attacks - 1 Defence: green's Follower dies, the Shadows win; Defeat: remove 1 Follower
    assert area(state, "bell-hollow").followers[GREEN] == 0
    assert state.decision.kind == "remove_follower" and state.decision.seat == GREEN
    assert A.Done() not in legal_actions(state)
    assert state.frames[-1].source == "defeat" and state.frames[-1].must
    ok(state)
    state = apply(state, A.PayFollower(area="ember-reach"))
    assert area(state, "ember-reach").followers[GREEN] == 1
    assert state.decks.conflict[-1] == TEETH
    ok(state)


def test_played_development_cards_are_discarded_and_basic_combat_returns_to_hand():
    state = position(turn_state(), {"bell-hollow": {"f": (2, 1)}})
    state = give(give(state, GREEN, STRIKE), BLUE, SHIELD)
    state = apply(resolve_conflicts(state), A.StartConflict(area="bell-hollow", sides=(GREEN, BLUE)))
    # green controls: blue plays first (1 card for 1 Follower), then green 2 cards
    state = play(
        state, A.PlayCombatCard(card=BASIC_COMBAT), A.PlayCombatCard(card=STRIKE), A.PlayCombatCard(card=BASIC_COMBAT)
    )
    assert area(state, "bell-hollow").followers == (2, 0)  # 3 Attacks - 1 Defence on 1 Follower
    assert not isinstance(state.work, ConflictWork)
    assert state.decks.development_discard[-1] == STRIKE
    assert BASIC_COMBAT in state.players[GREEN].hand and BASIC_COMBAT in state.players[BLUE].hand
    assert STRIKE not in state.players[GREEN].hand and SHIELD in state.players[BLUE].hand
    ok(state)


def test_a_victory_resolves_before_the_next_conflict():
    state = play(
        resolve_conflicts(blue_vs_two_shadows(), seat=BLUE, count=2),
        A.StartConflict(area="choir-of-teeth", sides=(BLUE, SH)),
        A.PlayCombatCard(card=STRIKE),
        A.Done(),
        A.TakeVictory(take=True),
    )
    assert state.decision.kind == "produce"
    state = apply(state, A.ProduceIn(area="salt-spire"))
    assert present(state.decision).kind == "start_conflict" and present(state.decision).seat == BLUE
    assert but_limbo(legal_actions(state)) == (A.StartConflict(area="mirror-dunes", sides=(GREEN, BLUE)),)
    ok(state)


def test_the_maneuver_action_resolves_the_example_from_its_scenario():

    from nctui.games.nightmare_cathedral.practice import BUNDLED
    from nctui.games.nightmare_cathedral.scenarios import load_scenario

    state = load_scenario(BUNDLED / "conflict-example-2p.toml")
    state = play(state, A.ChooseDay(action="maneuver"), A.Done())  # keep the MP
    assert legal_actions(state) == (A.StartConflict(area="ash-nave", sides=(GREEN, BLUE)),)
    state = play(
        state,
        A.StartConflict(area="ash-nave", sides=(GREEN, BLUE)),
        A.PlayCombatCard(card=STRIKE),
        A.PlayCombatCard(card=GUARD),
        A.PlayCombatCard(card=STRIKE2),
        A.PlayCombatCard(card=GUARD2),
    )
    a = area(state, "ash-nave")
    assert a.followers == (0, 0) and (a.fort_owner, a.fort_levels) == (BLUE, 1)
    assert state.players[BLUE].conflicts_won == 1 and state.phase == "turn"
    assert not isinstance(state.work, ConflictWork)
    ok(state)


def test_played_cards_are_put_away_only_after_the_victory_effect():
    """CONFLICTS 11 then 12: the Victory effect is resolved, then the played cards are discarded and
    the Basic Combat card returns (a Victory drawing from an empty deck can't reshuffle them)."""
    state = play(
        resolve_conflicts(blue_vs_two_shadows(), seat=BLUE),
        A.StartConflict(area="choir-of-teeth", sides=(BLUE, SH)),
        A.PlayCombatCard(card=STRIKE),
        A.PlayCombatCard(card=BASIC_COMBAT),
        A.Done(),
        A.TakeVictory(take=True),
    )
    assert state.decision.kind == "produce"  # the Victory effect, before step 12
    assert STRIKE not in state.decks.development_discard and BASIC_COMBAT not in state.players[BLUE].hand
    ok(state)
    state = apply(state, A.ProduceIn(area="salt-spire"))
    assert state.decks.development_discard[-1] == STRIKE and BASIC_COMBAT in state.players[BLUE].hand
    assert state.decks.conflict[-1] == FOG
    ok(state)


def _two_conflicts_in_bell_hollow(state):
    state = H.push_effect(state, GREEN, (cs.ResolveConflicts(count=2, area="bell-hollow"),), "day", then="day_done")
    return H.resolve(state, [])


def test_two_conflicts_in_one_area_stay_in_that_area():
    """ "Resolve 2 conflicts in that area": the second is in the same area too (ember-reach also
    holds a conflict)."""
    state = position(turn_state(), {"bell-hollow": {"f": (2, 1), "s": 1}, "ember-reach": {"f": (1, 1)}})
    state = _two_conflicts_in_bell_hollow(give(give(state, GREEN, STRIKE), BLUE, SHIELD))
    state = play(
        state,
        A.StartConflict(area="bell-hollow", sides=(GREEN, BLUE)),
        A.PlayCombatCard(card=BASIC_COMBAT),
        A.PlayCombatCard(card=STRIKE),
        A.PlayCombatCard(card=BASIC_COMBAT),
    )
    assert area(state, "bell-hollow").followers == (2, 0)
    assert but_limbo(legal_actions(state)) == (A.StartConflict(area="bell-hollow", sides=(GREEN, SH)),)
    ok(state)


def test_two_conflicts_in_one_area_stay_in_that_area_after_a_victory():
    state = position(turn_state(), {"bell-hollow": {"f": (2, 1), "s": 1}, "ember-reach": {"f": (1, 1)}})
    state = conflict_on_top(give(state, GREEN, STRIKE), FOG)
    state = play(
        _two_conflicts_in_bell_hollow(state),
        A.StartConflict(area="bell-hollow", sides=(GREEN, SH)),
        A.PlayCombatCard(card=STRIKE),
        A.Done(),
        A.TakeVictory(take=True),
    )
    while state.decision.kind == "produce":  # the Victory: produce 1 where green controls
        state = apply(state, but_limbo(legal_actions(state))[0])
    assert but_limbo(legal_actions(state)) == (A.StartConflict(area="bell-hollow", sides=(GREEN, BLUE)),)
    ok(state)
