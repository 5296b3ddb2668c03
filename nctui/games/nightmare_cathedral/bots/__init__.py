"""Computer players for any seat. A bot sees only its seat's view."""

from .expert_bot import ExpertBot
from .greedy_bot import GreedyBot
from .planner_bot import PlannerBot
from .random_bot import RandomBot

BOTS: dict[str, type[RandomBot | GreedyBot | PlannerBot | ExpertBot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "planner": PlannerBot,
    "expert": ExpertBot,
}


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the computer player of ``seat`` in a game seeded ``seed``: a game between
    computer players depends only on its seed."""
    return seed * 16 + seat


__all__ = ["BOTS", "ExpertBot", "GreedyBot", "PlannerBot", "RandomBot", "bot_seed"]
