"""Nightmare Cathedral's screens."""
