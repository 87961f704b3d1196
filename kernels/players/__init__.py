"""The players: each module declares its players (``PLAYERS``, kernels.players.player.Player) beside
their kernels; dispatch holds the player sets and the one dispatcher. Imports kernels.core and
kernels.values only."""
