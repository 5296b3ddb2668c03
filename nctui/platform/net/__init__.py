"""Play over a network: the game host (rooms over sessions, a store that survives restarts), the
protocol between client processes and the host, the SSH and web fronts."""
