"""Nightmare Cathedral's widgets."""
