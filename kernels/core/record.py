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
attributes, each a view of the record's memory made once (``Record``): ``st.chips[0, 1]``.

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


_void_attribute = np.void.__getattribute__


class Record(np.record):
    """A record whose fields are read and written in Python through views of its memory made once (``viewed``).

    numpy's record looks for a field after the scalar's own attributes and makes a new view at every read:
    microseconds that kernels run as Python (NUMBA_DISABLE_JIT) pay millions of times a game. Here a field is
    a dict lookup: an array field its view, a record field its Record, a scalar field the element of a view
    of one. numba types it as any record of its dtype.
    """

    def __getattribute__(self, name):
        field = _void_attribute(self, "__dict__").get(name)
        if field is None:
            return np.record.__getattribute__(self, name)
        view, scalar = field
        return view[0] if scalar else view

    def __setattr__(self, name, value):
        field = _void_attribute(self, "__dict__").get(name)
        if field is None or not field[1]:
            np.record.__setattr__(self, name, value)
        else:
            field[0][0] = value


def viewed(one: np.ndarray) -> Record:
    """The Record of the one-record array `one` (shape (1,)), its fields' views made (record fields' too)."""
    record = one.view(np.dtype((Record, one.dtype)))[0]
    fields = _void_attribute(record, "__dict__")
    for name in one.dtype.names:
        column = one[name]  # (1, *shape): a view of the field
        if column.dtype.names is not None and column.ndim == 1:
            fields[name] = (viewed(column), False)
        elif column.ndim == 1:
            fields[name] = (column, True)
        else:
            fields[name] = (column[0], False)
    return record


def new_record(dtype: np.dtype) -> Record:
    """A zeroed record of `dtype` (a ``Record``) in a buffer of its own: it starts on an APART boundary, with
    APART bytes of padding before and after it."""
    buffer = np.zeros(dtype.itemsize + 3 * APART, np.uint8)
    start = APART + (-buffer.ctypes.data % APART)
    return viewed(buffer[start : start + dtype.itemsize].view(dtype))


def cache_lines_apart(arrays: list[np.ndarray]) -> list[np.ndarray]:
    """Zeroed arrays of the shapes and types of `arrays`, each starting a cache line, in one buffer of their
    own padded as ``new_record``'s: the fields of a record made for them (for arrays whose shapes vary from
    call to call, which the kernels cannot take as one record type: a tree search's arena). An array of records
    is a np.recarray: its elements are records (np.record) in Python too, whose fields are attributes."""
    record = new_record(record_dtype((f"a{i}", a.dtype, a.shape) for i, a in enumerate(arrays)))
    fields = [record[f"a{i}"] for i in range(len(arrays))]
    return [f.view(np.recarray) if f.dtype.names else f for f in fields]
