"""A game's configuration: the rule options the kernel reads, as one record (``CONFIG_FIELDS``).

Written in Python from a ``simkit.game.rules.Rules`` (each rule option writes its fields:
``simkit.game.options``) and read by kernels as ``cfg.players``, ``cfg.hand[seat]``, ...
"""

import numpy as np

from .record import new_record, record_dtype

MAX_PLAYERS = 12
MAX_TEAMS = 3

CONFIG_FIELDS = (
    ("players", np.int64, ()),  # seats at the table; seat s plays for team s % teams
    ("teams", np.int64, ()),
    ("sequences_to_win", np.int64, ()),
    ("max_turns", np.int64, ()),  # the turn cap
    ("chip_limit", np.int64, ()),  # 0: unlimited chips; 1: each team places at most its supply
    ("supply", np.int64, (MAX_TEAMS,)),  # each team's chips under the chip limit, team 0 first
    ("reshuffle", np.int64, ()),  # 1: an empty pile is refilled from the shuffled discards; 0: nothing drawn
    ("dead_swap", np.int64, ()),  # 1: a dead card may be swapped
    ("hand", np.int64, (MAX_PLAYERS,)),  # each seat's hand size, seat 0 first
    # the seat's own turn (from 1) at whose end it draws its late card, having been dealt one card short;
    # 0: dealt in full
    ("late", np.int64, (MAX_PLAYERS,)),
)
CONFIG = record_dtype(CONFIG_FIELDS, packed=True)


def new_config() -> np.record:
    """A zeroed configuration record (``kernels.core.record.new_record``)."""
    return new_record(CONFIG)
