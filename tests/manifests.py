"""A run's manifest as the tests read it: one that must be there."""

from __future__ import annotations

from pathlib import Path

from simkit.running import dataset as ds


def manifest_of(directory: Path) -> dict:
    """The manifest of the run in `directory` (simkit.running.dataset.read_manifest); there must be one."""
    manifest = ds.read_manifest(directory)
    assert manifest is not None, f"no manifest in {directory}"
    return manifest
