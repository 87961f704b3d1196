"""simkit: a high-throughput, exactly reproducible Monte Carlo simulator for Sequence."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("simkit")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0+unknown"
