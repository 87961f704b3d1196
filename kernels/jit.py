"""The one decorator for kernel functions, and a cache that cannot go stale.

``kernel`` is ``numba.njit`` with:
- ``cache=True``: compiled code is kept on disk between runs;
- ``_nrt=False``: no reference counting. Kernel functions take arrays and
  never allocate; without this, numba increfs and decrefs every array of
  every tuple argument on every call (numba issue #2350: refcounts split
  across branches are not pruned), which made a game 20x slower;
- ``error_model="numpy"``: no zero-division checks on ``%`` and ``//``.
Functions that allocate (``new_state``, the batch driver) use plain njit.

Numba keys a cached function on its own source file only, so a change to a
callee in another file would leave callers running stale machine code. Every
function defined in this folder is therefore stamped with a hash of all the
folder's sources: change any kernel file and every kernel recompiles.
"""

import hashlib
from functools import partial
from pathlib import Path

from numba import njit
from numba.core import caching

KERNELS_DIR = Path(__file__).resolve().parent
SOURCES_HASH = hashlib.sha256(
    b"".join(p.read_bytes() for p in sorted(KERNELS_DIR.glob("*.py")))
).hexdigest()


def _stamped(locator):
    """A cache locator like `locator`, for kernel files, stamped with SOURCES_HASH."""

    class KernelLocator(locator):
        @classmethod
        def from_function(cls, py_func, py_file):
            if Path(py_file).resolve().parent != KERNELS_DIR:
                return None
            return super().from_function(py_func, py_file)

        def get_source_stamp(self):
            return (super().get_source_stamp(), SOURCES_HASH)

    return KernelLocator


_impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl  # renamed in numba 0.61
if not getattr(_impl, "_simkit_stamped", False):
    _impl._locator_classes = [_stamped(c) for c in _impl._locator_classes] + list(_impl._locator_classes)
    _impl._simkit_stamped = True

kernel = partial(njit, cache=True, _nrt=False, error_model="numpy")
# For small functions on the hot path: inlined into the caller at numba IR
# level, whatever LLVM's inliner later decides about large callees.
inline_kernel = partial(njit, cache=True, _nrt=False, error_model="numpy", inline="always")
