"""The game as Python sees it: rule options and rules, cards and the board, players and line-ups,
playing games through the kernels, game records and their replay, the shared defaults."""
