"""Nightmare Cathedral (Board&Dice, 2023), the core and solo rulebooks (seeds 000 and 001): the rules
engine, its content pack, its words, its computer players and the King of Horrors, scenarios and
practice positions, and its screens."""
