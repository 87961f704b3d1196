"""The bounds-checked pass really checks: run by `make test-boundscheck` (part of `make test`) only.

That pass sets NUMBA_BOUNDSCHECK=1 and a numba cache of its own
(NUMBA_CACHE_DIR), then runs the naive-engine, golden-record and referee
tests on kernels compiled with bounds checks. The kernels compile with
``_nrt=False``; numba needs no runtime for the check: an index out of
bounds returns a static IndexError through the call convention's status
code, from an inlined callee, a nogil kernel and a kernel thread alike.
These tests prove it. In the fast build the bad write below would corrupt
memory, so they are skipped there.
"""

from __future__ import annotations

import threading
from pathlib import Path

import numba
import numpy as np
import pytest

from simkit.kernels.core.jit import KERNELS_DIR, inline_kernel, kernel

pytestmark = pytest.mark.skipif(
    not numba.config.BOUNDSCHECK, reason="bounds-checked pass only (make test-boundscheck: NUMBA_BOUNDSCHECK=1)"
)


@inline_kernel
def _put(a, i, v):
    a[i] = v


@kernel(nogil=True)
def _write_at(a, i, v):
    """A throwaway kernel, compiled as every kernel is (kernels.core.jit: cache, _nrt=False), that writes a[i]."""
    _put(a, i, v)
    return a[0]


def test_an_out_of_bounds_write_in_a_kernel_raises_index_error():
    block = np.zeros(16, np.int64)
    a, guard = block[:8], block[8:]  # the memory just past `a` is `guard`
    assert _write_at(a, 7, 1) == 0  # in bounds: written
    with pytest.raises(IndexError, match="index is out of bounds"):
        _write_at(a, 8, 99)
    with pytest.raises(IndexError):
        _write_at(a, -9, 99)
    assert not guard.any(), "the bad write reached the memory past the array"


def test_an_out_of_bounds_write_in_a_kernel_thread_raises_there():
    a = np.zeros(4, np.int64)
    caught = []

    def play():
        try:
            _write_at(a, 4, 99)
        except IndexError as e:
            caught.append(e)

    thread = threading.Thread(target=play)
    thread.start()
    thread.join()
    assert len(caught) == 1


def test_the_game_kernels_are_checked_and_cached_apart_from_the_fast_build(monkeypatch):
    """The real kernels, from this pass's own cache, refuse a configuration of more seats than they hold."""
    from simkit.game.play import simulate
    from simkit.game.players import Lineup
    from simkit.game.rules import Rules
    from simkit.kernels.batch import play_block

    cache = Path(numba.config.CACHE_DIR).resolve()
    assert numba.config.CACHE_DIR and cache != KERNELS_DIR / "__pycache__"
    rules = Rules.make(2)
    lineup = Lineup.parse("random", rules)
    assert len(simulate(rules, lineup, 1, 0, 4)) == 4  # compiled (or loaded) here, then:
    assert Path(play_block.stats.cache_path).resolve().is_relative_to(cache)
    bad = rules.cfg()
    bad.players = 13  # a seat past the 12 of every per-seat field
    monkeypatch.setattr(Rules, "cfg", lambda self: bad)
    with pytest.raises(IndexError):
        simulate(rules, lineup, 1, 0, 4)
