"""Write the practice position king-die-roll-solo.toml: the solo rules' example of the King's
turn (KING'S TURN, TURN SEQUENCE 1): the Horror Die rolls 4, the King's Dreamer on the Maneuver
space counts the two Cultists on Develop, the one on Ritual and the one on Summon, and ends on
Summon.

    PYTHONPATH=. python tools/practice_king_roll.py

A solo game (seed 21, normal) is played by the planner up to the person's last decision before a
King's turn; the King's Dreamer and Cultists are set as in the example (one Cultist less on the
person's Day space when the King conforms and adds one there), and an RNG state is searched for
that rolls the 4. The position is written in the complete form.
"""

from __future__ import annotations

from pathlib import Path

from msgspec.structs import replace

from nctui.games.nightmare_cathedral.bots import PlannerBot
from nctui.games.nightmare_cathedral.engine import events as E, flow
from nctui.games.nightmare_cathedral.engine.config import DIFFICULTY_PRESETS, GameConfig
from nctui.games.nightmare_cathedral.engine.views import player_view
from nctui.games.nightmare_cathedral.scenario_state import scenario_text
from nctui.platform.rng import Rng

GAME = Path(__file__).resolve().parent.parent / "nctui" / "games" / "nightmare_cathedral"
OUT = GAME / "practice" / "positions" / "king-die-roll-solo.toml"
CULTISTS = {"ritual": 1, "summon": 1, "fortify": 0, "maneuver": 0, "develop": 2}  # when the King rolls
COUNTED = ("develop", "develop", "ritual", "summon")  # the example's count of 4
HEADER = """# The solo rules' example of the King's turn (KING'S TURN, TURN SEQUENCE 1). The King's
# Dreamer is on the Maneuver space. Finish your turn: the King rolls the Horror Die with 2
# Cultists on Develop, 1 on Ritual and 1 on Summon (counting one it adds if it conforms): 4.
# Counting Cultists clockwise from the space after Maneuver: the two on Develop, the one on
# Ritual, the one on Summon: the King's action is Summon. (Written by tools/practice_king_roll.py.)

"""


def before_kings_turns():
    """Each position where the person's decision ends their turn and the King's turn begins."""
    config = GameConfig(players=1, seats=("human", "king"), difficulty=DIFFICULTY_PRESETS["normal"], seed=21)
    state, bot = flow.new_game(config).state, PlannerBot(3)
    while state.outcome is None:
        d = state.decision
        assert d is not None
        action = bot.choose(player_view(state, d.seat))
        if d.seat == 0 and state.active == 0 and state.turn_number >= 3:
            if any(isinstance(e, E.KingDreamerMoves) for e in flow.step(state, action).events):
                yield state, action
        state = flow.apply(state, action)


def main() -> None:
    rondel = ("ritual", "summon", "fortify", "maneuver", "develop")
    for state, action in before_kings_turns():
        assert state.king is not None
        cultists = dict(CULTISTS)
        if cultists.get(state.day, 0) > 0:
            cultists[state.day] -= 1  # the King conforms: a Cultist of its own joins the person's Day space
        state = replace(
            state, king=replace(state.king, dreamer="maneuver", day_cultists=tuple(cultists[a] for a in rondel))
        )
        for n in range(1, 2000):
            candidate = replace(state, rng=Rng(state=n))
            moves = [e for e in flow.step(candidate, action).events if isinstance(e, E.KingDreamerMoves)]
            if moves and moves[0].counted == COUNTED:
                text = scenario_text(
                    candidate,
                    name="The King's die roll",
                    description="Solo KING'S TURN example: the Horror Die rolls 4 from Maneuver",
                )
                OUT.write_text(HEADER + text, encoding="utf-8")
                print(f"{OUT}: turn {state.turn_number}, RNG state {n}")
                return
    raise SystemExit("no position rolls the example's 4")


if __name__ == "__main__":
    main()
