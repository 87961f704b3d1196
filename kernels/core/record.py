"""Records: the State and the Tables as one C struct each, passed to a kernel as one pointer.

A numpy record whose fields are arrays (a structured scalar, ``np.record``) reaches a kernel as a
single pointer, and each of its fields is one load or store at an offset fixed when compiling. A
NamedTuple of arrays reached it as every array's data pointer, shape and strides: for the State
and the Tables, about 330 scalars a call, which made every call between kernels cost about a
random turn (docs/research.md, 2026-12-07).

Fields are declared once, as ``(name, dtype, shape)``; ``record_dtype`` lays them out, each on a
cache line of its own, and ``new_record`` makes a zeroed record in a buffer of its own, with
APART bytes of padding before and after it, so no cache line of it (nor the line fetched with
it) holds another thread's data (docs/research.md, 2026-12-01). In Python a record's fields are
attributes, each a view of the record's memory: ``st.chips[0, 1]``.

Plain Python: kernels never allocate (``kernels.core.jit``), their callers do.
"""

from collections.abc import Iterable

import numpy as np

CACHE_LINE = 64  # bytes (x86-64, ARMv8)
APART = 2 * CACHE_LINE  # bytes between two threads' data (CPUs fetch lines in pairs)


def _lines(nbytes: int) -> int:
    """nbytes rounded up to whole cache lines."""
    return -(-nbytes // CACHE_LINE) * CACHE_LINE


def record_dtype(fields: Iterable[tuple[str, type, tuple[int, ...]]], packed: bool = False) -> np.dtype:
    """The record type of `fields` (name, scalar type or record type, shape): each field starts a cache line
    and the record is whole cache lines long; packed: each field right after the one before, aligned as
    in a C struct (a record of records, or one of an array of them)."""
    names, formats, offsets, end = [], [], [], 0
    for name, scalar, shape in fields:
        field = np.dtype((np.dtype(scalar), shape))
        if packed:
            end = -(-end // field.alignment) * field.alignment
        names.append(name)
        formats.append(field)
        offsets.append(end)
        end += field.itemsize if packed else _lines(field.itemsize)
    if packed:
        align = max((f.alignment for f in formats), default=1)
        return np.dtype({"names": names, "formats": formats, "offsets": offsets, "itemsize": -(-end // align) * align})
    return np.dtype({"names": names, "formats": formats, "offsets": offsets, "itemsize": max(end, CACHE_LINE)})


def new_record(dtype: np.dtype) -> np.record:
    """A zeroed record of `dtype` in a buffer of its own: it starts on an APART boundary, with APART bytes
    of padding before and after it."""
    buffer = np.zeros(dtype.itemsize + 3 * APART, np.uint8)
    start = APART + (-buffer.ctypes.data % APART)
    return buffer[start : start + dtype.itemsize].view(dtype).view(np.recarray)[0]


def cache_lines_apart(arrays: list[np.ndarray]) -> list[np.ndarray]:
    """Zeroed arrays of the shapes and types of `arrays`, each starting a cache line, in one buffer of their
    own padded as ``new_record``'s: the fields of a record made for them (for arrays whose shapes vary from
    call to call, which the kernels cannot take as one record type: a tree search's arena). An array of records
    is a np.recarray: its elements are records (np.record) in Python too, whose fields are attributes."""
    record = new_record(record_dtype((f"a{i}", a.dtype, a.shape) for i, a in enumerate(arrays)))
    fields = [record[f"a{i}"] for i in range(len(arrays))]
    return [f.view(np.recarray) if f.dtype.names else f for f in fields]
