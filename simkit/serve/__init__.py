"""simkit serve: a live page on this machine to play a run and watch the first player's edge (form, live, server)."""
