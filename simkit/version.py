"""simkit's version, as the installed distribution states it."""

from importlib.metadata import PackageNotFoundError, version

try:
    VERSION = version("simkit")
except PackageNotFoundError:  # running from a source tree that is not installed
    VERSION = "0.0.0+unknown"
