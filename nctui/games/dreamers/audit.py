"""What each seat of Dreamers and Nightmares may know (seed 002): everything on the table. The
Dreamer cards, the Nightmare cards, the dreams drawn and rolled and how many of each colour are in
the bag are all in view; only the bag's future is hidden, which is the RNG. So no token is hidden,
and a view is the whole state but for the RNG and the seed (with either, anyone could know the
next draw and roll). tests/test_contract.py holds the views to that."""

HIDDEN_INFORMATION = False
