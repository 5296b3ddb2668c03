"""Dreamers and Nightmares' screens: the dice, the Dreamers, the New game screen."""
