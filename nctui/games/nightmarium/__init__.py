"""Nightmarium (seed 003): the card game of Night Terrors woven into Creatures, 2-5 players."""
