"""Cathedral (seed 004): the two-player game of buildings placed in a walled city, Light and Dark."""
