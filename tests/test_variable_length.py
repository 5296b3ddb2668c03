"""BUILDING THE CATHEDRAL, VARIABLE LENGTH GAME: the pieces set up before the first turn, the
Dream card Cathedral icon, the icons resolved by the placing player only, the Stage II space and
the last piece."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from nctui.games.nightmare_cathedral.content.loader import get_pack
from nctui.games.nightmare_cathedral.engine import (
    IllegalAction,
    actions as A,
    apply,
    cathedral,
    effects,
    legal_actions,
    new_game,
    step,
    work as W,
)
from nctui.games.nightmare_cathedral.engine.invariants import violations
from nctui.games.nightmare_cathedral.engine.ops import set_player
from nctui.games.nightmare_cathedral.engine.state import Decision, GameState
from nctui.games.nightmare_cathedral.engine.work import DreamWork
from tests.helpers import config, first_turn, present

PACK = get_pack("base")
TRACK = tuple(sp.piece for sp in PACK.tracks.cathedral)
FIRST_RUNG = "dr1-first-rung"  # Cathedral icon; own turn: a Ritual marker on space 8
VICTOR = "dr1-victors-dream"  # Cathedral icon; after a conflict won; effect: draw 1
PLAIN = "dr1-whispers-every-hall"  # no Cathedral icon


def give_dream(state: GameState, seat: int, card: str) -> GameState:
    """``seat`` holds ``card`` (swapped with its first Dream wherever the card was)."""
    pl = state.players[seat]
    mine = pl.dreams[0]
    if card == mine:
        return state
    swap = {card: mine}
    d = state.decks
    decks = replace(d, **{k: tuple(swap.get(c, c) for c in getattr(d, k)) for k in ("dream", "dream_offer", "dream2")})
    players = tuple(replace(p, dreams=tuple(swap.get(c, c) for c in p.dreams)) for p in state.players)
    state = replace(state, decks=decks, players=players)
    pl = state.players[seat]
    return set_player(state, replace(pl, dreams=(card,) + pl.dreams[1:]))


def window(state: GameState, seat: int, card: str, timing: str = "own_turn") -> GameState:
    """A Dream window of ``seat`` offering ``card`` (the exact decision, conditions aside), opened
    after an action as the turn opens it (the turn goes on beneath it)."""
    state = give_dream(state, seat, card)
    state = effects.push(state, W.Frame(seat=seat, steps=(), source="turn", then=W.AfterWindow()))
    return replace(
        state,
        work=DreamWork(seat=seat, timings=(timing,)),
        decision=Decision(seat=seat, kind="play_dream", options=(A.PlayDream(card=card), A.Done())),
    )


def with_track(state: GameState, pieces: tuple[str, ...]) -> GameState:
    """``pieces`` left on the track, the others in the Cathedral."""
    built = ("1A",) + TRACK[: len(TRACK) - len(pieces)]
    return replace(state, cathedral_track=pieces, cathedral_built=built)


def play(state: GameState, action: A.Action) -> tuple[GameState, list]:
    res = step(state, action)
    return res.state, list(res.events)


# ---------------------------------------------------------------------------------------------
# Setup: the pieces before the first turn


@pytest.mark.parametrize(
    "players, built",
    [
        (2, ("1A", "1B", "2A")),  # the first piece, the 2-3 icon piece and the 2 icon piece
        (3, ("1A", "1B")),  # the first piece and the 2-3 icon piece
        (4, ("1A",)),  # the first piece only
    ],
)
def test_pieces_set_up_before_the_first_turn_depend_on_the_number_of_players(players, built):
    state, events = _setup(players, "variable")
    assert state.cathedral_built == built
    assert state.cathedral_track == tuple(p for p in TRACK if p not in built)
    assert [e.piece for e in events if e.kind == "cathedral_setup"] == list(built)
    icons = {sp.piece: sp.icons for sp in PACK.tracks.cathedral}
    assert all("players_2_3" in icons[p] or "players_2" in icons[p] for p in built[1:])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_standard_game_ignores_the_player_number_markings(players):
    state, _ = _setup(players, "standard")
    assert state.cathedral_built == (PACK.tracks.first_piece,) and state.cathedral_track == TRACK


def _setup(players: int, length: str) -> tuple[GameState, list]:
    res = new_game(config(players, 3, length=length))
    return res.state, list(res.events)


def test_the_setup_icons_are_not_resolved():
    state, events = _setup(2, "variable")  # 1B (produce) and 2A (shadow) are set up
    assert not any(e.kind == "cathedral_icon" for e in events)
    assert sum(a.shadows for a in state.areas) == 0


# ---------------------------------------------------------------------------------------------
# Not at the end of each turn


def test_no_piece_is_built_at_the_end_of_a_turn():
    state = first_turn(2, length="variable")
    built = state.cathedral_built
    assert not cathedral.builds_now(replace(state, turn_number=10))
    for _ in range(6):
        number = state.turn_number
        while state.turn_number == number:
            opts = legal_actions(state)
            ignored: A.Action | None = next((a for a in opts if isinstance(a, A.ChooseDay) and a.ignore), None)
            passing = (A.React(kind="pass"), A.Done(), A.KeepDreams())
            choice = ignored or next((a for a in opts if a in passing), opts[0])
            state, events = play(state, choice)
            assert not any(e.kind == "cathedral_piece" for e in events)
    assert state.cathedral_built == built and state.turn_number == 7


# ---------------------------------------------------------------------------------------------
# The Dream card Cathedral icon


def test_a_cathedral_dream_builds_the_next_piece_and_its_player_alone_resolves_the_icon():
    state = first_turn(3, length="variable")  # 1A and 1B built: next is 2A (shadow: must)
    seat = state.active
    assert state.cathedral_track[0] == "2A"
    supply = state.shadows
    state, events = play(window(state, seat, FIRST_RUNG), A.PlayDream(card=FIRST_RUNG))
    assert state.cathedral_built[-1] == "2A" and state.cathedral_track[0] == "2B"
    assert [(e.seat, e.piece) for e in events if e.kind == "cathedral_piece"] == [(seat, "2A")]
    assert [(e.seat, e.icon) for e in events if e.kind == "cathedral_icon"] == [(seat, "shadow")]
    # "you must add 1 Shadow": no Done
    assert present(state.decision).kind == "add_shadow" and present(state.decision).seat == seat
    with pytest.raises(IllegalAction):
        apply(state, A.Done())
    state = apply(state, legal_actions(state)[0])
    assert state.shadows == supply - 1
    # no other player adds a Shadow: the game resumes with the Dream window
    assert present(state.decision).seat == seat and present(state.decision).kind != "add_shadow"
    assert violations(state) == []


def test_the_produce_icon_is_a_may_for_the_placing_player_only():
    state = with_track(first_turn(2, length="variable"), TRACK)  # next: 1B (produce)
    seat = state.active
    state, _ = play(window(state, seat, FIRST_RUNG), A.PlayDream(card=FIRST_RUNG))
    assert (
        present(state.decision).kind == "produce"
        and present(state.decision).seat == seat
        and A.Done() in legal_actions(state)
    )
    state = apply(state, A.Done())
    assert present(state.decision).kind != "produce"


def test_the_climb_icon_for_the_placing_player():
    state = with_track(first_turn(2, length="variable"), TRACK[2:])  # next: 2B (climb)
    seat = 1 - state.active
    state, _ = play(window(state, seat, VICTOR, "after_conflict_won"), A.PlayDream(card=VICTOR))
    assert present(state.decision).kind == "climb" and present(state.decision).seat == seat  # an inactive player built
    state = apply(state, A.ClimbMarker(marker=0))
    assert state.players[seat].ritual[0] == 1 and present(state.decision).kind != "climb"


def test_the_icon_is_resolved_before_the_dreams_own_effect():
    state = with_track(first_turn(2, length="variable"), TRACK[3:])  # next: 1C (shaper MP)
    seat = state.active
    hand = len(state.players[seat].hand)
    state, _events = play(window(state, seat, VICTOR, "after_conflict_won"), A.PlayDream(card=VICTOR))
    assert present(state.decision).seat == seat and all(
        isinstance(a, (A.MoveShaper, A.Done)) for a in legal_actions(state)
    )
    # the Dream's draw waits below, above the turn's frame beneath the window
    assert [f.source for f in state.frames] == ["turn", "dream", "cathedral"]
    assert isinstance(state.frames[0].then, W.AfterWindow)
    assert len(state.players[seat].hand) == hand
    state = apply(state, A.Done())
    assert len(state.players[seat].hand) == hand + 1  # then the Dream's effect: draw 1


def test_a_dream_without_the_icon_builds_nothing():
    state = first_turn(2, length="variable")
    track = state.cathedral_track
    state, events = play(window(state, state.active, PLAIN), A.PlayDream(card=PLAIN))
    assert state.cathedral_track == track and not any(e.kind == "cathedral_piece" for e in events)


def test_the_standard_game_ignores_the_dream_cathedral_icon():
    state = first_turn(2)
    track = state.cathedral_track
    state, events = play(window(state, state.active, FIRST_RUNG), A.PlayDream(card=FIRST_RUNG))
    assert state.cathedral_track == track and not any(e.kind == "cathedral_piece" for e in events)


# ---------------------------------------------------------------------------------------------
# The Stage II space and the last piece


def test_the_stage_ii_space_works_in_the_variable_length_game():
    state = with_track(first_turn(2, length="variable"), TRACK[TRACK.index("4A") :])
    offer = state.decks.dream_offer
    state, events = play(window(state, state.active, FIRST_RUNG), A.PlayDream(card=FIRST_RUNG))
    kinds = [e.kind for e in events]
    assert kinds.count("stage2_dreams") == 1 and kinds.count("stage2_development") == 1
    assert state.decks.development2 == () and state.decks.dream2 == () and state.decks.dream_offer != offer
    assert state.stage == 1 and violations(state) == []


def test_the_last_piece_completes_the_cathedral_then_the_icon_builds_nothing():
    state = with_track(first_turn(2, length="variable"), TRACK[-1:])
    seat = state.active
    state, events = play(window(state, seat, FIRST_RUNG), A.PlayDream(card=FIRST_RUNG))
    assert state.stage == 2 and state.cathedral_track == () and "cathedral_complete" in [e.kind for e in events]
    state = apply(state, A.Done())  # the last space's climb
    other = 1 - seat
    state, events = play(window(state, other, VICTOR, "after_conflict_won"), A.PlayDream(card=VICTOR))
    assert [e.kind for e in events if "cathedral" in e.kind] == ["no_cathedral_piece"]
    assert len(state.cathedral_built) == 13
