"""The platform every game runs on: the ``Game`` protocol (``game``), the registry that names every
game once, the history of a game (``store``), saves, one game between people (``session``), the
headless runner, the RNG, the safe readers, and the host with its fronts (``net``). It knows only
the ``Game`` protocol: it imports no game."""
