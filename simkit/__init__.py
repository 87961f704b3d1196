"""simkit: a high-throughput, exactly reproducible Monte Carlo simulator for Sequence.

For notebooks and scripts: ``simkit.simulate(...)`` plays games into a pandas
DataFrame, ``simkit.read_games(DIR)`` reads a dataset, ``simkit.summarise(df)``
gives the report's tables as DataFrames (``simkit.api``). They are loaded on
first use, so ``import simkit`` stays light.
"""

from simkit.version import VERSION as __version__

__all__ = ["simulate", "read_games", "summarise", "__version__"]


def __getattr__(name: str):
    if name in ("simulate", "read_games", "summarise"):
        from simkit import api

        return getattr(api, name)
    raise AttributeError(f"module 'simkit' has no attribute {name!r}")
