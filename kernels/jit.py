"""The one decorator for kernel functions.

``kernel`` is ``numba.njit`` with:
- ``cache=True``: compiled code is kept on disk between runs;
- ``_nrt=False``: no reference counting. Kernel functions take arrays and
  never allocate; without this, numba increfs and decrefs every array of
  every tuple argument on every call (numba issue #2350: refcounts split
  across branches are not pruned), which made a game 20x slower;
- ``error_model="numpy"``: no zero-division checks on ``%`` and ``//``.
Functions that allocate (``new_state``, the batch driver) use plain njit.
"""

from functools import partial

from numba import njit

kernel = partial(njit, cache=True, _nrt=False, error_model="numpy")
