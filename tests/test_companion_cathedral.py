"""Cathedral (seed 004): each rule on a hand-built position, whole random games with invariants,
the game through the session and saves."""

from __future__ import annotations

import random

import msgspec
import pytest
from msgspec.structs import replace

from nctui.games.cathedral import city, pieces, rules
from nctui.games.cathedral.bots import GreedyBot, RandomBot, StrongBot
from nctui.games.cathedral.pieces import CATHEDRAL, DARK, FULL, LIGHT
from nctui.games.cathedral.state import (
    Building,
    Captured,
    CathedralConfig,
    CathedralState,
    Claimed,
    GameOver,
    NotClaimed,
    Passed,
    Place,
    SeriesOver,
)
from nctui.platform import registry, saves
from nctui.platform.session import new_session
from nctui.platform.store import Store
from tests.helpers import present

GAME = registry.game("cathedral")


def bit(row: int, col: int) -> int:
    return 1 << (row * 10 + col)


def cells_turn(building: str, colour: int, cells: set[tuple[int, int]]) -> int:
    """The turn of ``building`` whose shape is ``cells`` (normalised)."""
    for t, shape in enumerate(pieces.turns(pieces.shape_of(building, colour))):
        if set(shape) == cells:
            return t
    raise AssertionError(f"{building} has no turn {cells}")


def position(*, light=(), dark=(), cathedral=(0, 5, 5), to_move=DARK, first_done=True) -> CathedralState:
    """A position in the build phase: (building, turn, row, col) for each side; the rest of each
    side's set in its supply."""
    state = rules.new_game(CathedralConfig(seats=("human", "human"))).state
    placed = []
    if cathedral is not None:
        t, r, c = cathedral
        placed.append(Building(CATHEDRAL, None, present(pieces.placement(CATHEDRAL, LIGHT, t, r, c)).mask))
    supply = [list(pieces.starting_supply()), list(pieces.starting_supply())]
    for colour, items in ((LIGHT, light), (DARK, dark)):
        for b, t, r, c in items:
            placed.append(Building(b, colour, present(pieces.placement(b, colour, t, r, c)).mask))
            supply[colour].remove(b)
    state = replace(
        state,
        phase="build",
        buildings=tuple(placed),
        to_move=to_move,
        supply=(tuple(supply[0]), tuple(supply[1])),
        placed_first=(first_done, first_done),
        cathedral_gone=cathedral is None,
    )
    assert rules.problems(state) == []
    return state


def test_the_sets_have_fourteen_buildings_of_47_squares_and_a_cathedral_of_6() -> None:
    supply = pieces.starting_supply()
    assert len(supply) == 14
    assert sum(pieces.size_of(b) for b in supply) == 47
    assert pieces.size_of(CATHEDRAL) == 6
    # Dark's chiral buildings are Light's mirror images (no turn of one is the other)
    for b in ("abbey", "academy"):
        assert set(pieces.turns(pieces.shape_of(b, LIGHT))).isdisjoint(pieces.turns(pieces.shape_of(b, DARK)))


def test_light_places_the_cathedral_first_then_dark_moves_first() -> None:
    state = rules.new_game(CathedralConfig()).state
    assert state.phase == "cathedral" and rules.decider(state) == 0
    assert {a.building for a in rules.legal_actions(state)} == {CATHEDRAL}
    with pytest.raises(rules.Refused, match="Rule 3"):
        rules.step(state, Place("tavern", 0, 0, 0))
    state = rules.step(state, Place(CATHEDRAL, 0, 3, 3)).state
    assert state.to_move == DARK and rules.decider(state) == 1


def test_a_building_lies_inside_the_city_on_free_squares_outside_the_opponents_property() -> None:
    state = position(light=[("tavern", 0, 0, 0)])
    with pytest.raises(rules.Refused, match="within the city"):
        rules.step(state, Place("bridge", 0, 0, 8))
    with pytest.raises(rules.Refused, match="not on another building"):
        rules.step(state, Place("tavern", 0, 0, 0))
    state = replace(state, territory=(bit(9, 9), 0))
    with pytest.raises(rules.Refused, match="Rule 4"):
        rules.step(state, Place("tavern", 0, 9, 9))
    with pytest.raises(rules.Refused, match="Rule 1"):
        rules.step(replace(state, supply=(state.supply[0], ())), Place("tavern", 0, 5, 0))


def test_enclosing_a_corner_with_the_wall_claims_it() -> None:
    state = position(dark=[("stable", 0, 1, 0)])  # B2? no: row 1, cols 0-1
    result = rules.step(state, Place("tavern", 0, 0, 1))
    claimed = [e for e in result.events if isinstance(e, Claimed)]
    assert [c.mask for c in claimed] == [bit(0, 0)]
    assert result.state.territory[DARK] == bit(0, 0)
    light_turn = replace(result.state, to_move=LIGHT)
    assert all(not a.row == a.col == 0 for a in rules.legal_actions(light_turn) if a.building == "tavern")


def test_buildings_meeting_only_at_a_corner_enclose_nothing() -> None:
    state = position(dark=[("tavern", 0, 1, 0)])
    result = rules.step(state, Place("tavern", 0, 0, 1))
    assert not [e for e in result.events if isinstance(e, Claimed | NotClaimed)]
    assert result.state.territory == (0, 0)


def test_the_cathedral_is_no_boundary() -> None:
    # the Cathedral's arm closes the corner with Dark's Stable: its squares are part of the city
    # around the corner, not a wall, so nothing is enclosed
    cross = (cells_turn(CATHEDRAL, LIGHT, {(0, 1), (1, 0), (1, 1), (1, 2), (2, 1), (3, 1)}), 0, 0)
    state = position(cathedral=cross, dark=[("stable", 0, 4, 0)])
    result = rules.step(state, Place("bridge", cells_turn("bridge", DARK, {(0, 0), (1, 0), (2, 0)}), 1, 3))
    assert not [e for e in result.events if isinstance(e, Claimed | Captured)]


def test_enclosing_the_cathedral_alone_removes_it_for_the_rest_of_the_game() -> None:
    cross = (cells_turn(CATHEDRAL, LIGHT, {(0, 1), (1, 0), (1, 1), (1, 2), (2, 1), (3, 1)}), 0, 0)
    down = cells_turn("bridge", DARK, {(0, 0), (1, 0), (2, 0)})
    state = position(cathedral=cross, dark=[("bridge", down, 0, 3), ("castle", 0, 4, 0)])
    # rows 0-3 of columns 0-2 hold the Cathedral; the Castle's row 4 and this Inn close them in
    result = rules.step(state, Place("inn", cells_turn("inn", DARK, {(0, 0), (1, 0), (1, 1)}), 3, 3))
    captured = [e for e in result.events if isinstance(e, Captured)]
    assert [(c.building, c.owner) for c in captured] == [(CATHEDRAL, None)]
    assert result.state.cathedral_gone
    assert not any(b.id == CATHEDRAL for b in result.state.buildings)
    assert rules.problems(result.state) == []


def test_enclosing_one_opposing_building_captures_it_back_to_its_supply() -> None:
    state = position(light=[("tavern", 0, 0, 0)], dark=[("stable", 0, 1, 0)])
    result = rules.step(state, Place("tavern", 0, 0, 1))
    captured = [e for e in result.events if isinstance(e, Captured)]
    assert [(c.building, c.owner) for c in captured] == [("tavern", LIGHT)]
    assert result.state.supply[LIGHT].count("tavern") == 2
    assert result.state.territory[DARK] == bit(0, 0)
    assert rules.problems(result.state) == []


def test_enclosing_two_buildings_captures_none_and_claims_nothing() -> None:
    state = position(light=[("tavern", 0, 0, 0), ("tavern", 0, 0, 1)], dark=[("bridge", 0, 1, 0)])
    result = rules.step(state, Place("tavern", 0, 0, 2))
    assert [e.reason for e in result.events if isinstance(e, NotClaimed)] == ["two_or_more"]
    assert not [e for e in result.events if isinstance(e, Captured | Claimed)]
    assert result.state.territory == (0, 0)


def test_no_space_is_claimed_on_a_first_move() -> None:
    state = position(dark=[("stable", 0, 1, 0)], first_done=False)
    result = rules.step(state, Place("tavern", 0, 0, 1))
    assert [e.reason for e in result.events if isinstance(e, NotClaimed)] == ["first_move"]
    assert result.state.territory == (0, 0)
    # the next building claims what it encloses, not what the first one did
    state = replace(position(dark=[("stable", 0, 1, 0), ("tavern", 0, 0, 1)]), to_move=DARK)
    assert not [e for e in rules.step(state, Place("bridge", 0, 9, 0)).events if isinstance(e, Claimed)]


def checkerboard(parity: int) -> int:
    return sum(bit(r, c) for r in range(10) for c in range(10) if (r + c) % 2 == parity)


def test_a_side_that_cannot_move_passes_and_the_game_ends_when_neither_can() -> None:
    # Light's property: the even squares; Dark's: the odd ones. Light has two Taverns left, Dark
    # a Square: Dark's odd squares hold no 2x2 block, so Dark can never move.
    state = position(cathedral=None)
    state = replace(
        state,
        buildings=(),
        territory=(checkerboard(0), checkerboard(1)),
        to_move=LIGHT,
        supply=(("tavern", "tavern"), ("square",)),
    )
    assert not rules.can_move(state, DARK)
    with pytest.raises(rules.Refused, match="Rule 4"):
        rules.step(state, Place("tavern", 0, 0, 1))  # an odd square: Dark's property
    result = rules.step(state, Place("tavern", 0, 0, 0))
    assert [e for e in result.events if isinstance(e, Passed)] == [Passed(DARK)]
    assert result.state.to_move == LIGHT and result.state.phase == "build"
    last = rules.step(result.state, Place("tavern", 0, 0, 2))
    assert [e for e in last.events if isinstance(e, GameOver)] == [GameOver(0, (0, 4), LIGHT, 0)]
    assert last.state.phase == "over"


def test_the_winner_has_the_fewest_unplaced_squares_and_a_series_swaps_roles() -> None:
    state = position(cathedral=None)
    state = replace(
        state,
        buildings=(),
        territory=(checkerboard(0), checkerboard(1)),
        to_move=LIGHT,
        supply=(("tavern",), ("square",)),
        config=replace(state.config, games=2),
    )
    result = rules.step(state, Place("tavern", 0, 0, 0))
    over = [e for e in result.events if isinstance(e, GameOver)]
    assert over and over[0].unplaced == (0, 4) and over[0].winner == LIGHT
    nxt = result.state
    assert nxt.game == 1 and nxt.phase == "cathedral" and rules.decider(nxt) == 1  # seat 1 has Light
    assert nxt.results[0].unplaced == (0, 4)  # by seat
    # the second game: seat 1 (Light) leaves 4 squares, seat 0 (Dark) none
    second = replace(
        nxt,
        phase="build",
        to_move=LIGHT,
        territory=(checkerboard(1), checkerboard(0)),
        supply=(("square",), ("tavern",)),
        cathedral_gone=True,
    )
    second = replace(second, to_move=DARK)
    done = rules.step(second, Place("tavern", 0, 0, 0))
    series = [e for e in done.events if isinstance(e, SeriesOver)]
    assert series == [SeriesOver((0, 8), (0,))]
    assert done.state.outcome is not None and done.state.outcome.winners == (0,)
    assert rules.decider(done.state) is None and rules.legal_actions(done.state) == ()


@pytest.mark.parametrize("seed", range(12))
def test_random_games_keep_every_invariant(seed: int) -> None:
    rng = random.Random(seed)
    state = rules.new_game(CathedralConfig(games=2)).state
    while state.phase != "over":
        actions = rules.legal_actions(state)
        assert actions, "a side to move has a placement"
        action = rng.choice(actions)
        result = rules.step(state, action)
        state = result.state
        assert rules.problems(state) == []
        covered = sum(b.mask.bit_count() for b in state.buildings)
        placed = sum(pieces.size_of(b.id) for b in state.buildings)
        assert covered == placed <= 100
    assert state.outcome is not None and len(state.results) == 2


def test_legal_actions_are_exactly_what_step_accepts() -> None:
    rng = random.Random(5)
    state = rules.new_game(CathedralConfig()).state
    for _ in range(8):
        state = rules.step(state, rng.choice(rules.legal_actions(state))).state
    legal = set(rules.legal_actions(state))
    for b in pieces.starting_supply():
        for t in range(len(pieces.turns(pieces.shape_of(b, state.to_move)))):
            for r in range(-1, 10):
                for c in range(-1, 10):
                    action = Place(b, t, r, c)
                    assert (rules.problem(state, action) is None) == (action in legal)


@pytest.mark.parametrize("bot", [RandomBot, GreedyBot, StrongBot])
def test_each_computer_player_finishes_a_game(bot) -> None:
    state = rules.new_game(CathedralConfig()).state
    players = [bot(1), bot(2)]
    while state.phase != "over":
        state = rules.step(state, players[present(rules.decider(state))].choose(state)).state
    assert state.outcome is not None


def test_the_greedy_player_beats_the_random_one() -> None:
    wins = 0
    for g in range(4):
        state = rules.new_game(CathedralConfig()).state
        players: list[GreedyBot | RandomBot] = (
            [GreedyBot(g), RandomBot(g)] if g % 2 == 0 else [RandomBot(g), GreedyBot(g)]
        )
        while state.phase != "over":
            state = rules.step(state, players[present(rules.decider(state))].choose(state)).state
        wins += present(state.outcome).winners == (g % 2,)
    assert wins >= 3


def test_a_game_through_the_store_undoes_and_saves(tmp_path) -> None:
    store = Store(CathedralConfig(seats=("human", "human")), game=GAME)
    rng = random.Random(3)
    for _ in range(6):
        store.dispatch(rng.choice(GAME.options(store.state)))
    before = store.state
    store.undo()
    store.redo()
    assert store.state == before
    path = tmp_path / "c.nctui.json"
    session = new_session(CathedralConfig(seats=("human", "human")), game=GAME, folder=tmp_path, autosave=False)
    for action in store.actions():
        session.send(action, seen_state_id=session.state_id, seat=present(session.deciding_seat()))
    session.save(path)
    loaded = saves.load(path)
    assert loaded.game.id == "cathedral" and loaded.store.state == before
    assert msgspec.json.decode(path.read_bytes())["game"] == "cathedral"
    summary = GAME.summary(before)
    assert summary.turn == 6 and "game 1 of 1" in summary.progress


def test_the_piece_data_is_checked() -> None:
    with pytest.raises(pieces.PieceError, match="side to side"):
        pieces.load('[cathedral]\nname="C"\nshape=["#"]\n[[building]]\nid="x"\nname="X"\nshape=["#.", ".#"]\n')
    with pytest.raises(pieces.PieceError, match=r"pieces\.toml"):
        pieces.load('[cathedral]\nname="C"\n')
    assert FULL.bit_count() == 100


def test_every_building_has_a_two_letter_code_on_the_city() -> None:
    from nctui.games.cathedral.words import CODES

    ids = {b.id for b in pieces.piece_set().building} | {CATHEDRAL}
    assert set(CODES) == ids
    assert all(len(code) == 2 and code.isascii() for code in CODES.values())
    assert len({code.lower() for code in CODES.values()}) == len(CODES)


def test_nctui_simulate_plays_cathedral_between_computer_players(capsys) -> None:
    from nctui.cli import main

    assert (
        main(["simulate", "--game", "cathedral", "--games", "2", "--seed", "3", "--levels", "greedy,random", "--json"])
        == 0
    )
    report = msgspec.json.decode(capsys.readouterr().out)
    assert report["games"] == 2 and report["errors"] == 0 and sum(report["seat_wins"]) + report["shared"] >= 2
    assert report["seat_wins"][0] == 2  # greedy beats random
    assert main(["simulate", "--game", "cathedral", "--levels", "greedy,champion"]) == 2
    assert "each one of random, greedy, strong" in capsys.readouterr().err
    assert main(["simulate", "--game", "chess"]) == 2


def test_a_line_across_the_city_encloses_the_smaller_part_only() -> None:
    """Issue 38 item 13, reconsidered: rule 4 "If you completely enclose a part of the city with
    your buildings ... and the wall". A line of Dark's buildings from wall to wall across row 6
    leaves 50 squares on one side and 40 on the other; both touch the wall and the line, and the
    text gives no way to choose between them, so the reading stays: the largest part is the rest
    of the city and only the smaller one is enclosed (docs/cathedral.md)."""
    state = position(cathedral=None)
    row = sum(bit(5, c) for c in range(10))
    line = Building("line", DARK, row)
    state = replace(state, buildings=(line,))
    parts = rules.enclosed_parts(state, DARK, line)
    assert [city.count(p) for p in parts] == [40]  # rows 7-10, not rows 1-5
    assert parts[0] == sum(bit(r, c) for r in range(6, 10) for c in range(10))


def test_the_strong_players_budget_bounds_its_search_and_deepens_it() -> None:
    """Issue 38: the budget (placements tried a decision) is the strong player's setting; twice
    the budget searches a move deeper twice as early rather than the same lines cut short (or,
    ``deepen`` off, twice as many lines)."""
    from nctui.games.cathedral.bots import BUDGET, LATE, WIDTH

    bots = (StrongBot(1), StrongBot(1, budget=2 * BUDGET), StrongBot(1, budget=BUDGET // 2))
    assert [(b.width, b.late) for b in bots] == [(WIDTH, LATE), (WIDTH, 2 * LATE), (WIDTH, LATE // 2)]
    wider = (StrongBot(1, deepen=False), StrongBot(1, budget=2 * BUDGET, deepen=False))
    assert [(b.width, b.late) for b in wider] == [(WIDTH, LATE), (2 * WIDTH, LATE)]
    state = rules.new_game(CathedralConfig()).state
    players = [GreedyBot(1), GreedyBot(2)]
    for _ in range(3):  # the Cathedral and a building a side
        state = rules.step(state, players[present(rules.decider(state))].choose(state)).state
    small = StrongBot(1, budget=2000)
    assert small.choose(state) in rules.legal_actions(state)
    assert small.spent <= 2000 + 2 * len(rules.legal_actions(state))  # the budget, and the node that passed it


def test_the_strong_players_work_is_capped_late_in_a_game_too() -> None:
    """Issue 38: a decision's work is counted in units, never in time (a placement tried costs
    more in a fuller city, an evaluation by the placements it looks at) and capped, so that the
    deep searches of the last moves stop like the early ones; the same seed makes the same move
    (replays are exact)."""
    from nctui.games.cathedral.bots import BUDGET, SAMPLE, WIDTH, WORK, tried

    assert StrongBot(1).cap == round(WORK * BUDGET) and StrongBot(1, budget=BUDGET // 2).cap == round(WORK * BUDGET / 2)
    state = rules.new_game(CathedralConfig()).state
    players = [GreedyBot(1), GreedyBot(2)]
    while state.phase == "cathedral" or (state.phase == "build" and len(rules.legal_actions(state)) > 40):
        state = rules.step(state, players[present(rules.decider(state))].choose(state)).state
    assert state.phase == "build"
    assert tried(state) > tried(rules.new_game(CathedralConfig()).state)
    free, capped = StrongBot(1, cap=0), StrongBot(1, cap=3000)
    free.choose(state)
    move = capped.choose(state)
    assert move in rules.legal_actions(state)
    assert free.work > 3000 and free.spent <= BUDGET  # the placements alone did not stop it
    node = 200 * tried(state) + (SAMPLE + 4) * WIDTH * 20  # the node that passed the cap, generously
    assert capped.work <= 3000 + node
    assert StrongBot(1, cap=3000).choose(state) == move
