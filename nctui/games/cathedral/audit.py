"""What each seat of Cathedral may know (seed 004): everything. Every building is placed face up
and nothing is left to chance: no token is hidden, and a view is the whole state but for the seed
(it seeds the computer players: with it a person could run a computer player's own code and know
its next move). tests/test_contract.py holds the views to that."""

HIDDEN_INFORMATION = False
