"""Nightmare Cathedral's screens and widgets: the board, the Action Matrix, the hand, the tracks, the
players, conflicts, the King's turn, the inspector, game over, the tutorial and the New game screen."""
