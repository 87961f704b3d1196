"""The build backend: setuptools' own, with its note on an editable install of this layout left out.

pyproject.toml installs the top-level ``kernels/`` as ``simkit.kernels`` (``package-dir``), a package outside
the folder of its parent. setuptools serves such a layout, installed editable, through an import hook of
its own (a meta path finder, not a path added to ``sys.path``), and says so on every ``pip install -e`` in a
boxed ``Editable installation`` warning (setuptools.warnings.InformationOnly): folders of the working
directory named as the package may shadow it. Here the one such folder is ``simkit/`` itself, so the box
says nothing to act on; this backend drops that one note and passes every other warning and every hook
through unchanged. A wheel or an sdist is built by setuptools untouched.
"""

from __future__ import annotations

import warnings

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F403  # every hook of PEP 517 and PEP 660, as setuptools has them
from setuptools.warnings import InformationOnly


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """setuptools' editable wheel, without its note on the import hook this layout needs."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Editable installation", category=InformationOnly)
        return build_meta.build_editable(wheel_directory, config_settings, metadata_directory)
