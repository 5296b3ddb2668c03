"""Nightmarium's screens: the Creatures, the hand, the New game screen."""
