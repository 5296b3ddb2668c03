"""The screens of the companion games, one module each, on the app's shell (title, saves,
sessions)."""
