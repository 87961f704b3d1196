"""Kernel code runs as Python too: every intrinsic the kernels call has a Python twin that agrees with it."""

from __future__ import annotations

import numpy as np
import pytest
from numba import config, njit

from simkit.kernels.core.state import FAST_PDEP, pdep

SEED = 20261207


@pytest.mark.skipif(config.DISABLE_JIT or not FAST_PDEP, reason="compares the compiled PDEP instruction")
def test_pdep_in_python_agrees_with_the_instruction() -> None:
    """The Python twin of the PDEP intrinsic deposits the same bits as the instruction, on random pairs of
    dense and sparse masks."""

    @njit
    def compiled(src, mask, out):
        for i in range(src.shape[0]):
            out[i] = pdep(src[i], mask[i])  # compiled: the overload, which calls the intrinsic

    rng = np.random.default_rng(SEED)
    words = rng.integers(0, 2**64, (4, 5000), dtype=np.uint64, endpoint=False)
    src = np.concatenate([words[0], words[1]])
    mask = np.concatenate([words[2], words[2] & words[3] & rng.integers(0, 2**64, 5000, dtype=np.uint64)])
    out = np.zeros_like(src)
    compiled(src, mask, out)
    assert [pdep(s, m) for s, m in zip(src, mask)] == list(out)
