"""Computer players for any seat. A bot sees only its seat's view."""

from .greedy_bot import GreedyBot
from .planner_bot import PlannerBot
from .random_bot import RandomBot

BOTS: dict[str, type[RandomBot | GreedyBot | PlannerBot]] = {
    "random": RandomBot, "greedy": GreedyBot, "planner": PlannerBot,
}

__all__ = ["BOTS", "GreedyBot", "PlannerBot", "RandomBot"]
