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
def below(rng, n):
    """A uniform integer in 0..n-1 (1 <= n < 2**32), Lemire's unbiased method."""
    un = np.uint64(n)
    m = (next_u64(rng) >> np.uint64(32)) * un
    low = m & LOW32
    if low < un:
        t = (TWO32 - un) % un
        while low < t:
            m = (next_u64(rng) >> np.uint64(32)) * un
            low = m & LOW32
    return np.int64(m >> np.uint64(32))


@kernel
def shuffle(rng, a, n):
    """Fisher-Yates shuffle of a[:n] in place, from the end."""
    for i in range(n - 1, 0, -1):
        j = below(rng, i + 1)
        a[i], a[j] = a[j], a[i]
