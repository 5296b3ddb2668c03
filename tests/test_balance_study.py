"""tools/balance_study.py --planner: the rows asked for, and the 2-player winner's VP in parts."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from balance_study import PARTS, planner_study


def test_the_planner_study_plays_only_the_rows_asked_for_and_splits_the_winners_vp():
    res = planner_study(games=1, seed=5, jobs=1, budget=30, rows=("normal", "2p"))
    table = res["table"]
    assert set(table) == {"normal", "2 players"} and table["normal"]["games"] == 1
    two = table["2 players"]
    assert sum(two["winner_parts"][p] for p in PARTS) == two["winner_vp"] > 0
    assert planner_study(games=1, seed=5, jobs=1, budget=30, rows=("easy",))["table"]["2 players"] == {}
