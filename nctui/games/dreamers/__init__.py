"""The dice game of Dreamers and Nightmares (seed 002), 2-4 players."""
