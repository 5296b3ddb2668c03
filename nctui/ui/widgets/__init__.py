"""Widgets of the game screen: each draws what it is given and holds no game state."""
