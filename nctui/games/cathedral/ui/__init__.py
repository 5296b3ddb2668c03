"""Cathedral's screens: the city, the pieces, the New game screen."""
