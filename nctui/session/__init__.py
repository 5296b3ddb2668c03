"""One game between people: its store, its seats (people, computer players, the King), computer
turns off the screen's thread, autosave, the undo policy and the hot-seat hand-off; the ``Game``
protocol every game of the seeds implements."""
