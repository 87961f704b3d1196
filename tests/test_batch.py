"""The batch driver (kernels/batch.py): threads that never write to one another's cache lines."""

from __future__ import annotations

import multiprocessing
import os
import threading

import numpy as np
import pytest
from numba import typeof

from simkit.game.cards import tables
from simkit.game.players import Lineup
from simkit.game.rules import Rules
from simkit.kernels.batch import DONE_STRIDE, n_blocks, new_done, run_batch, thread_states
from simkit.kernels.core.record import APART, CACHE_LINE, Record, cache_lines_apart
from simkit.kernels.core.state import STATE, STATE_FIELDS, new_state
from simkit.kernels.core.stats import GAME_STATS
from simkit.kernels.core.workspace import new_workspace


def _spans(arrays) -> list[tuple[int, int]]:
    return [(a.ctypes.data, a.ctypes.data + a.nbytes) for a in arrays if a.nbytes]


def _gap(one, other) -> int:
    """The fewest bytes between any array of `one` and any of `other` (negative: they overlap)."""
    return min(max(b0 - a1, a0 - b1) for a0, a1 in _spans(one) for b0, b1 in _spans(other))


def _buffer(a: np.ndarray) -> np.ndarray:
    while a.base is not None:
        a = a.base
    return a


def _fields(record) -> list[np.ndarray]:
    """The record's array fields (a nested record's place is checked through its dtype's offsets)."""
    return [record[name] for name in record.dtype.names if isinstance(record[name], np.ndarray)]


@pytest.mark.parametrize(
    "make", [new_state, lambda: tables(), lambda: new_workspace(20).sim], ids=["state", "tables", "spare state"]
)
def test_a_record_is_one_buffer_padded_at_both_ends_its_fields_on_cache_lines(make) -> None:
    """A record's fields are views of one buffer of its own, which holds APART bytes before the record
    and after it; each field starts a cache line, and the record starts an APART boundary."""
    record = make()
    fields = _fields(record)
    assert len({id(_buffer(a)) for a in fields}) == 1
    whole = _buffer(fields[0])
    lo, hi = whole.ctypes.data, whole.ctypes.data + whole.nbytes
    start = fields[0].ctypes.data
    assert start % APART == 0 and start - lo >= APART and hi - (start + record.dtype.itemsize) >= APART
    assert all(a.ctypes.data % CACHE_LINE == 0 for a in fields)
    assert all(offset % CACHE_LINE == 0 for _, offset in record.dtype.fields.values())


def test_the_spare_arrays_are_one_buffer_padded_at_both_ends() -> None:
    """The spare arrays besides their State (a search's arena) are views of one buffer of their own, with
    APART bytes before the first array and after the last: no other allocation within a cache-line pair."""
    arrays = list(new_workspace(20)[1:])
    assert len({id(_buffer(a)) for a in arrays}) == 1
    whole = _buffer(arrays[0])
    lo, hi = whole.ctypes.data, whole.ctypes.data + whole.nbytes
    spans = _spans(arrays)
    assert min(a for a, _ in spans) - lo >= APART and hi - max(b for _, b in spans) >= APART


def test_two_states_lie_apart_from_each_other_and_from_other_arrays() -> None:
    """Two States (and the spare arrays) are at least APART bytes from each other and from arrays made
    between them, so two threads never share a cache line or the line fetched with it."""
    first, between, second = new_state(), [np.zeros(n) for n in (1, 3, 7)], new_state()
    work = new_workspace(50)
    assert _gap(_fields(first), _fields(second)) >= APART
    assert _gap(_fields(first), between) >= APART and _gap(_fields(second), between) >= APART
    assert _gap([*work[1:]], _fields(first)) >= APART and _gap([*work[1:]], _fields(work[0])) >= APART


def test_a_record_holds_its_fields_shapes_types_and_zeros() -> None:
    """A State's fields have the declared shapes and types, zeroed, writable, each a view of the record:
    a write through one field is seen by the record and by no other field."""
    st = new_state()
    for name, scalar, shape in STATE_FIELDS:
        a = np.asarray(st[name])
        assert (a.shape, a.dtype) == (shape, np.dtype(scalar)) and not a.tobytes().strip(b"\0")
    st.chips[2, 1] = 7
    st.ctr.turns = 5
    assert st["chips"][2, 1] == 7 and st["ctr"]["turns"] == 5
    assert all(not np.asarray(st[n]).tobytes().strip(b"\0") for n, *_ in STATE_FIELDS if n not in ("chips", "ctr"))


def test_a_records_fields_read_and_write_its_memory_as_numpys_record_does() -> None:
    """A Record's fields (scalars, arrays, a record's scalars) read and write the record's memory, each seen at
    once through numpy's record of the same memory and back; numba types the two alike."""
    st = new_state()
    buffer = _buffer(_fields(st)[0])
    start = _fields(st)[0].ctypes.data - buffer.ctypes.data  # the first field's offset is 0
    numpy_st = buffer[start : start + STATE.itemsize].view(STATE).view(np.recarray)[0]
    assert isinstance(st, Record) and type(numpy_st) is np.record and typeof(st) == typeof(numpy_st)
    st.ctr.turns = 5
    st.stats.winner_team = -1
    st.chips[2, 1] = 7
    st.turn.card = np.int64(12)
    assert (numpy_st.ctr.turns, numpy_st.stats.winner_team, numpy_st.chips[2, 1], numpy_st.turn.card) == (5, -1, 7, 12)
    numpy_st.ctr.pile_pos = 9
    numpy_st.held[3] = np.uint64(2**63 + 1)
    assert (st.ctr.pile_pos, st.held[3]) == (9, np.uint64(2**63 + 1))
    assert type(st.ctr.turns) is type(numpy_st.ctr.turns) and type(st.chips) is np.ndarray


def test_cache_lines_apart_keeps_shapes_types_and_zeros() -> None:
    """Each array keeps its shape and type, starts a cache line, and is a C-contiguous writable zero array."""
    wanted: list[np.ndarray] = [
        np.zeros((3, 5), np.int16),
        np.zeros(1, np.uint64),
        np.zeros((0, 9), np.int64),
        np.zeros(7, np.float64),
    ]
    got = cache_lines_apart(wanted)
    for w, g in zip(wanted, got):
        assert (g.shape, g.dtype) == (w.shape, w.dtype)
        assert g.flags.c_contiguous and g.flags.writeable and g.flags.aligned and not g.any()
        assert g.size == 0 or g.ctypes.data % CACHE_LINE == 0
    got[0][2, 4] = -1
    assert got[1][0] == 0 and got[3].sum() == 0


@pytest.mark.parametrize("threads", [1, 2])
def test_the_done_counters_count_every_game_a_stride_apart(threads: int) -> None:
    """done holds one counter per block, DONE_STRIDE int64 apart; after a batch they sum to its games."""
    rules = Rules.make(4, 2)
    lineup = Lineup.parse("random", rules)
    n = 500
    done = new_done(n, threads)
    run_batch(lineup.decisions(), tables(), rules.cfg(), lineup.ids(), lineup.params(), 1, 0, n, threads, None, done)
    assert done.shape == (n_blocks(n, threads) * DONE_STRIDE,)
    assert done.sum() == n
    assert not np.delete(done, np.arange(0, done.size, DONE_STRIDE)).any()


def test_a_done_array_of_another_shape_is_refused() -> None:
    """A done array not made by new_done for the batch is refused, naming the shape it must have."""
    rules = Rules.make(2, 2)
    lineup = Lineup.parse("random", rules)
    with pytest.raises(ValueError, match=r"done must be new_done\(100, 2\)"):
        run_batch(
            lineup.decisions(),
            tables(),
            rules.cfg(),
            lineup.ids(),
            lineup.params(),
            1,
            0,
            100,
            2,
            None,
            np.zeros(n_blocks(100, 2), np.int64),
        )


@pytest.mark.parametrize("threads", [1, 2])
def test_a_batch_hands_over_a_record_of_statistics_per_game(threads: int) -> None:
    """A batch's statistics are one GAME_STATS record per game, in game order, and equal the games played
    one by one."""
    rules = Rules.make(2, 2)
    lineup = Lineup.parse("random", rules)
    args = (lineup.decisions(), tables(), rules.cfg(), lineup.ids(), lineup.params(), 3)
    rows = run_batch(*args, 10, 200, threads)
    assert rows.shape == (200,) and rows.dtype == GAME_STATS and rows.flags.c_contiguous
    one_by_one = np.concatenate([run_batch(*args, 10 + g, 1, 1) for g in range(0, 200, 37)])
    assert np.array_equal(one_by_one, rows[::37])


def _random_batch(first: int, n: int, threads: int) -> np.ndarray:
    rules = Rules.make(2, 2)
    lineup = Lineup.parse("random", rules)
    return run_batch(lineup.decisions(), tables(), rules.cfg(), lineup.ids(), lineup.params(), 5, first, n, threads)


def test_batches_reuse_the_kernel_threads_and_their_states() -> None:
    """A second batch on 2 threads starts no thread, and a thread's States are made once per workspace
    size: a batch allocates only its output."""
    _random_batch(0, 100, 2)
    threads = {t.ident for t in threading.enumerate()}
    _random_batch(100, 100, 2)
    assert {t.ident for t in threading.enumerate()} == threads
    lineup = Lineup.parse("random", Rules.make(2, 2))
    first = thread_states(lineup.ids(), lineup.params())
    again = thread_states(lineup.ids(), lineup.params())
    assert first[0] is again[0] and first[1] is again[1]


def test_a_thread_makes_spare_arrays_of_the_arena_each_line_up_needs() -> None:
    """A line-up that searches nothing plays on an arena of two nodes, a search on one of its own size: a
    thread that played one makes the other's when it plays it."""
    two = Rules.make(2, 2)
    for spec, nodes in (("random", 2), ("ismcts:iterations=30", 30 + 2 + 16), ("greedy", 2), ("lookahead", 2)):
        lineup = Lineup.parse(spec, two)
        _, work, _ = thread_states(lineup.ids(), lineup.params())
        assert len(work.nodes) == nodes


def _in_child(first: int, n: int) -> np.ndarray:
    return np.ascontiguousarray(_random_batch(first, n, 2))


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX only")
def test_a_forked_child_plays_on_kernel_threads_of_its_own() -> None:
    """A child forked after the parent's batches has none of its pool's threads: it makes its own pool
    (instead of waiting forever on threads that do not exist) and plays the same games."""
    parent = _random_batch(0, 300, 2)
    with multiprocessing.get_context("fork").Pool(1) as pool:
        child = pool.apply_async(_in_child, (0, 300)).get(timeout=120)
    assert np.array_equal(child, parent)
