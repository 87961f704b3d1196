"""A counter-based splitmix64 generator: one stream per (master seed, game index).

The state is a (1,) uint64 array owned by one game; nothing here is global.
docs/ENGINE.md, "Random numbers", is the specification.
"""

import numpy as np

from .jit import inline_kernel, kernel

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
LOW32 = np.uint64(0xFFFFFFFF)
TWO32 = np.uint64(1 << 32)


@inline_kernel
def mix(z):
    """splitmix64's finaliser: a bijection of uint64."""
    z = (z ^ (z >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    return z ^ (z >> np.uint64(31))


@kernel
def seed_stream(rng, seed, game):
    """Start the stream of game `game` of master seed `seed` in rng (1,) uint64."""
    rng[0] = mix(mix(np.uint64(seed)) ^ np.uint64(game))


@inline_kernel
def next_u64(rng):
    """The next uint64 of the stream."""
    rng[0] = rng[0] + GOLDEN
    return mix(rng[0])


@inline_kernel
def below_state(state, n):
    """(the stream's next state, a uniform integer in 0..n-1): ``below`` on a state held in a
    local variable rather than in the (1,) array, for loops that draw many."""
    un = np.uint64(n)
    state += GOLDEN
    m = (mix(state) >> np.uint64(32)) * un
    low = m & LOW32
    if low < un:
        t = (TWO32 - un) % un
        while low < t:
            state += GOLDEN
            m = (mix(state) >> np.uint64(32)) * un
            low = m & LOW32
    return state, np.int64(m >> np.uint64(32))


@inline_kernel
def below(rng, n):
    """A uniform integer in 0..n-1 (1 <= n < 2**32), Lemire's unbiased method."""
    state, x = below_state(rng[0], n)
    rng[0] = state
    return x


@kernel
def shuffle(rng, a, n):
    """Fisher-Yates shuffle of a[:n] in place, from the end.

    The stream's state stays in a register for the whole shuffle: kept in rng, it would be
    stored and loaded again by every draw (the compiler cannot tell rng from `a`).
    """
    state = rng[0]
    for i in range(n - 1, 0, -1):
        state, j = below_state(state, i + 1)
        a[i], a[j] = a[j], a[i]
    rng[0] = state


@inline_kernel
def shuffle_front(rng, a, lo, hi, k):
    """Fisher-Yates from the front over a[lo:hi], stopped after k places: a[lo:lo + k] is then a
    uniformly random ordered choice of a[lo:hi]'s items (k = hi - lo - 1: all of a[lo:hi] shuffled).

    Draws k numbers from the stream; its state stays in a register, as in shuffle.
    """
    state = rng[0]
    for i in range(lo, lo + k):
        state, j = below_state(state, hi - i)
        j += i
        a[i], a[j] = a[j], a[i]
    rng[0] = state
