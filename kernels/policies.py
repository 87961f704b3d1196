"""Policies: who decides what, chosen per seat by an integer policy id.

A policy answers two questions on its seat's turn, reading only what the
seat may see (RULES.md, "Simulation conventions", Information): its own
hand, the board, the discards and the size of the draw pile.

- ``choose_dead`` -> the dead card code to discard, or -1 to keep the hand;
- ``choose_action`` -> (card code, cell), or (-1, -1) to pass when the hand
  has no legal play.

**Compile only what is played.** The game loop is compiled once per *policy
set*, a marker argument whose type says which policies a line-up may use:
``RandomOnly()``, ``UpToGreedy()`` (random and greedy) or ``AllPolicies()``.
``choose_action`` is resolved from that type when the caller is compiled, so
a random-only run never compiles greedy, the lookahead or its evaluation,
and a greedy run never compiles the lookahead. Each set is compiled (and
cached) on first use. The lookahead's rollouts play with ``UpToGreedy()``.

A new policy gets a module, an id here, a branch in ``choose_action`` (in
the smallest set that must hold it), and a name with its parameters in
``simkit.policies``. Per-seat parameters arrive as a float64 row ``params``;
``sim`` is a spare State to play ahead on.
"""

from typing import NamedTuple

from numba.extending import overload

from .greedy import greedy_action
from .jit import COMPILE_OPTIONS, inline_kernel, kernel
from .random_policy import random_action, random_dead

RANDOM, GREEDY, LOOKAHEAD = 0, 1, 2


class RandomOnly(NamedTuple):
    """Policy set: every seat plays random."""


class UpToGreedy(NamedTuple):
    """Policy set: seats play random or greedy."""


class AllPolicies(NamedTuple):
    """Policy set: any policy, the lookahead included."""


def policy_set(ids) -> NamedTuple:
    """The smallest policy set holding every policy id in `ids`."""
    top = max(ids)
    if top == RANDOM:
        return RandomOnly()
    if top == GREEDY:
        return UpToGreedy()
    return AllPolicies()


@inline_kernel
def choose_dead(policy, params, tb, cfg, st, seat, team):
    """The dead card `policy` discards before its play, or -1.

    Every policy so far swaps a dead card whenever it holds one, uniformly
    among the distinct dead codes.
    """
    return random_dead(tb, st, seat)


def choose_action(policies, policy, params, tb, cfg, st, sim, seat, team):
    """The (card, cell) `policy` plays, or (-1, -1) to pass (kernel code only)."""
    raise NotImplementedError("choose_action is compiled into kernels; call it from jitted code")


@overload(choose_action, inline="always", jit_options=COMPILE_OPTIONS)
def _choose_action(policies, policy, params, tb, cfg, st, sim, seat, team):
    """Typing of choose_action: the branches of the policy set `policies`, no others."""
    kind = policies.instance_class
    if kind is RandomOnly:
        def only_random(policies, policy, params, tb, cfg, st, sim, seat, team):
            return random_action(tb, cfg, st, seat, team)
        return only_random
    if kind is UpToGreedy:
        def random_or_greedy(policies, policy, params, tb, cfg, st, sim, seat, team):
            if policy == GREEDY:
                return greedy_action(tb, cfg, st, seat, team, params)
            return random_action(tb, cfg, st, seat, team)
        return random_or_greedy
    if kind is AllPolicies:
        from .lookahead import lookahead_action  # here: its rollouts play turns that call choose_action

        def any_policy(policies, policy, params, tb, cfg, st, sim, seat, team):
            if policy == GREEDY:
                return greedy_action(tb, cfg, st, seat, team, params)
            if policy == LOOKAHEAD:
                return lookahead_action(tb, cfg, st, sim, seat, team, params)
            return random_action(tb, cfg, st, seat, team)
        return any_policy
    return None


def counts_lines(policies):
    """Whether the policy set's policies read the line counts st.in_line (greedy, the lookahead
    and its evaluation do; random play does not, and skips keeping them). Kernel code only."""
    raise NotImplementedError("counts_lines is compiled into kernels; call it from jitted code")


@overload(counts_lines, jit_options=COMPILE_OPTIONS)
def _counts_lines(policies):
    """A constant of the compiled code: False for RandomOnly, True for the others.

    Not inline="always": inlined at numba's IR level, numba 0.68 silently dropped the
    placement's effects under RandomOnly (no chip reached the board); as a call, LLVM still
    folds the constant and prunes the branch not taken.
    """
    counted = policies.instance_class is not RandomOnly

    def impl(policies):
        return counted
    return impl


@kernel
def decide(policies, policy, params, tb, cfg, st, sim, seat, team):
    """choose_action, callable from Python (tests, benchmarks)."""
    return choose_action(policies, policy, params, tb, cfg, st, sim, seat, team)
