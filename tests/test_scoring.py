"""FINAL SCORE: Ritual markers, Forts, Devoured units, winner and tie-break."""

from __future__ import annotations

from msgspec.structs import replace

from nctui.games.nightmare_cathedral.engine import new_game
from nctui.games.nightmare_cathedral.engine.ops import set_player
from nctui.games.nightmare_cathedral.engine.scoring import devoured_vp, fort_vp, ritual_vp, scores, winners
from nctui.games.nightmare_cathedral.engine.state import Score
from tests.helpers import config, through_setup


def _state(players=4):
    s = through_setup(new_game(config(players, 1)).state)
    return s


def _stage2(players=4):
    """The Devoured Units board is in play from Stage 2."""
    return replace(_state(players), stage=2)


def test_a_ritual_marker_scores_the_highest_vp_space_it_reached():
    s = _state()
    assert ritual_vp(s, 0) == 0
    assert ritual_vp(s, 3) == 0 and ritual_vp(s, 4) == 1  # space 4 is the first VP space
    assert ritual_vp(s, 15) == 7 and ritual_vp(s, 14) == 5
    assert ritual_vp(s, 21) == 12


def test_forts_score_one_at_two_levels_and_two_at_three():
    s = _state()
    areas = list(s.areas)
    for i, lv in ((0, 1), (1, 2), (2, 3)):
        areas[i] = replace(areas[i], fort_owner=3, fort_levels=lv, followers=areas[i].followers, fortress=-1)
    s = replace(s, areas=tuple(areas))
    assert fort_vp(s, 3) == 3  # the rulebook example: 0 + 1 + 2


def test_devoured_ties_share_the_summed_positions_rounded_down():
    s = _stage2(4)
    # red most, blue and green tied second (the rulebook example: 5 + 3 shared = 4 each), Shadows 4th
    for seat, n in ((0, 6), (1, 4), (2, 4), (3, 0)):
        s = set_player(s, replace(s.players[seat], devoured=n))
    s = replace(s, devoured_shadows=1)
    assert devoured_vp(s) == (8, 4, 4, 0)
    s = replace(s, devoured_shadows=7)  # the Shadows take first place but score nothing
    assert devoured_vp(s) == (5, 2, 2, 0)  # (3 + 2) // 2


def test_devoured_positions_use_the_highest_numbers_with_fewer_players():
    s = _stage2(2)
    s = set_player(s, replace(s.players[0], devoured=3))
    s = set_player(s, replace(s.players[1], devoured=1))
    assert devoured_vp(s) == (8, 5)


def test_a_side_with_nothing_devoured_has_the_fewest_and_scores_for_it():
    """FINAL SCORE 3: most/2nd/3rd/fewest, 8/5/3 in a 2-player game; none devoured is the fewest."""
    s = _stage2(2)
    s = set_player(s, replace(s.players[0], devoured=2))
    s = replace(s, devoured_shadows=1)
    assert devoured_vp(s) == (8, 3)  # red most, the Shadows 2nd, blue (0) fewest
    s = replace(s, devoured_shadows=0)
    assert devoured_vp(s) == (8, 4)  # blue and the Shadows tied 2nd-3rd: (5 + 3) // 2


def test_a_game_ending_in_stage_1_scores_devoured_places_too():
    """FINAL SCORE 3 has no stage condition: in Stage 1 nobody has devoured, every side ties."""
    assert devoured_vp(_state(2)) == (5, 5)
    assert devoured_vp(_state(3)) == (4, 4, 4)
    assert devoured_vp(_state(4)) == (3, 3, 3, 3)  # (8 + 5 + 3 + 2 + 0) // 5


def test_with_nothing_devoured_every_side_shares_all_positions():
    assert devoured_vp(_stage2(2)) == (5, 5)  # (8 + 5 + 3) // 3, the Shadows included
    assert devoured_vp(_stage2(3)) == (4, 4, 4)  # (8 + 5 + 3 + 2) // 4


def test_scores_add_up_and_the_tie_break_is_named():
    a = Score(seat=0, ritual=10, forts=3, devoured=4, upgrades=2, dreams=15)
    assert a.total == 34  # the rulebook's scoring example for blue
    b = Score(seat=1, ritual=14, forts=3, devoured=4, upgrades=2, dreams=11)
    assert winners((a, b)) == ((0,), "most VP from Dreams")
    c = Score(seat=2, ritual=10, forts=3, devoured=4, upgrades=2, dreams=15)
    assert winners((a, c)) == ((0, 2), "shared victory")
    assert winners((a, replace(c, forts=0))) == ((0,), "")


def test_a_fresh_game_scores_only_the_shared_devoured_places():
    s = _state(3)
    assert all(sc.total == sc.devoured == 4 for sc in scores(s))
