"""Computer players for any seat. A bot sees only its seat's view."""

from .greedy_bot import GreedyBot
from .random_bot import RandomBot

BOTS = {"random": RandomBot, "greedy": GreedyBot}

__all__ = ["BOTS", "GreedyBot", "RandomBot"]
