"""Computer players for any seat. A bot sees only its seat's view."""

from .random_bot import RandomBot

__all__ = ["RandomBot"]
