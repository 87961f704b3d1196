"""Policies: who decides what, chosen per seat by an integer policy id.

A policy answers two questions on its seat's turn, reading only what the
seat may see (RULES.md, "Simulation conventions", Information): its own
hand, the board, the discards and the size of the draw pile.

- ``choose_dead`` -> the dead card code to discard, or -1 to keep the hand;
- ``choose_action`` -> (card code, cell), or (-1, -1) to pass when the hand
  has no legal play.

**Compile only what is played.** The game loop is compiled once per *policy
set*, a marker argument whose type says which policies a line-up may use:
``RandomOnly()``, ``UpToGreedy()`` (random and greedy), ``AllPolicies()``
(random, greedy and the lookahead) or, for line-ups with the later players,
``Strong(lookahead, ismcts, fast, swift, ismcts_rich)``: random and greedy,
and each of the five whose field is ``Yes()`` (``No()`` leaves it out). ``choose_action`` is
resolved from that type when the caller is compiled, so a random-only run
never compiles greedy, the lookahead or its evaluation, a greedy run never
compiles the lookahead, and a lookahead run compiles none of ismcts, fast,
swift and ismcts-rich. ``policy_set`` picks the smallest set that holds a line-up's ids. Each
set is compiled (and cached) on first use. The rollouts of the lookahead, swift
and ismcts play with ``UpToGreedy()``.

A new policy gets a module, an id here, a branch in ``choose_action`` (in
the smallest set that must hold it), and a name with its parameters in
``simkit.policies``. Per-seat parameters arrive as a float64 row ``params``;
``sim`` is the policies' spare arrays (``workspace``): a State to play ahead
on, or, when a tree search (ismcts, ismcts-rich) may play, a
``kernels.search.SearchWork`` holding that
State and the search tree's arena.
"""

import os
from typing import NamedTuple

import numpy as np
from numba.extending import overload

from .greedy import greedy_action
from .jit import COMPILE_OPTIONS, inline_kernel, kernel
from .random_policy import random_action, random_dead
from .state import State, new_state

RANDOM, GREEDY, LOOKAHEAD, ISMCTS, FAST, SWIFT, ISMCTS_RICH = 0, 1, 2, 3, 4, 5, 6
SEARCHES = (ISMCTS, ISMCTS_RICH)  # the tree searches: their line-ups' spare arrays hold a search arena


class RandomOnly(NamedTuple):
    """Policy set: every seat plays random."""


class UpToGreedy(NamedTuple):
    """Policy set: seats play random or greedy."""


class AllPolicies(NamedTuple):
    """Policy set: random, greedy and the lookahead."""


class Yes(NamedTuple):
    """A field of Strong: the set holds this policy."""


class No(NamedTuple):
    """A field of Strong: the set leaves this policy out (it is never compiled)."""


class Strong(NamedTuple):
    """Policy set: random, greedy, and each of the lookahead, ismcts, fast, swift and ismcts-rich marked Yes()."""

    lookahead: NamedTuple
    ismcts: NamedTuple
    fast: NamedTuple
    swift: NamedTuple
    ismcts_rich: NamedTuple


def policy_set(ids) -> NamedTuple:
    """The smallest policy set holding every policy id in `ids`; with SIMKIT_ONE_STRONG_SET=1 in the
    environment (the test suite), the one set holding every player for a line-up beyond the lookahead."""
    held = {int(i) for i in ids}
    if held <= {RANDOM}:
        return RandomOnly()
    if held <= {RANDOM, GREEDY}:
        return UpToGreedy()
    if held <= {RANDOM, GREEDY, LOOKAHEAD}:
        return AllPolicies()
    if os.environ.get("SIMKIT_ONE_STRONG_SET") == "1":
        return Strong(Yes(), Yes(), Yes(), Yes(), Yes())
    return Strong(*(Yes() if i in held else No() for i in (LOOKAHEAD, ISMCTS, FAST, SWIFT, ISMCTS_RICH)))


def searches(policies) -> bool:
    """Whether the policy set holds a tree search (its spare arrays then hold a search arena)."""
    return isinstance(policies, Strong) and (isinstance(policies.ismcts, Yes) or isinstance(policies.ismcts_rich, Yes))


def workspace(policies, ids, params):
    """The spare arrays the policies of a line-up play ahead on (made in Python: kernels never allocate).

    A State (``kernels.state.new_state``), or with a tree search in the set a
    ``kernels.search.SearchWork`` whose arena holds the largest search of
    the line-up. ids: (..., players) policy ids; params: (..., players, P)
    their parameter rows.
    """
    nodes = workspace_nodes(policies, ids, params)
    if nodes == 0:
        return new_state(0)
    from .search import new_work

    return new_work(nodes)


def workspace_nodes(policies, ids, params) -> int:
    """The search nodes of the line-up's workspace (``workspace``): 0 where it is a State."""
    if not searches(policies):
        return 0
    from .search import MAX_WIDTH, P_ITERATIONS

    ids, params = np.asarray(ids), np.asarray(params)
    iterations = params[..., P_ITERATIONS][np.isin(ids, SEARCHES)]
    return int(iterations.max(initial=0)) + 2 + MAX_WIDTH  # a node per walk, the root and its children


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
    if kind is Strong:
        def strong(policies, policy, params, tb, cfg, st, sim, seat, team):
            if policy == GREEDY:
                return greedy_action(tb, cfg, st, seat, team, params)
            played, code, cell = lookahead_branch(policies.lookahead, policy, params, tb, cfg, st, sim, seat, team)
            if played:
                return code, cell
            played, code, cell = ismcts_branch(policies.ismcts, policy, params, tb, cfg, st, sim, seat, team)
            if played:
                return code, cell
            played, code, cell = fast_branch(policies.fast, policy, params, tb, cfg, st, sim, seat, team)
            if played:
                return code, cell
            played, code, cell = swift_branch(policies.swift, policy, params, tb, cfg, st, sim, seat, team)
            if played:
                return code, cell
            played, code, cell = ismcts_rich_branch(policies.ismcts_rich, policy, params, tb, cfg, st, sim, seat, team)
            if played:
                return code, cell
            return random_action(tb, cfg, st, seat, team)
        return strong
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


def lookahead_branch(held, policy, params, tb, cfg, st, sim, seat, team):
    """(played, card, cell): the lookahead's choice if `policy` is it and the set holds it (Yes)."""
    raise NotImplementedError("kernel code only")


def ismcts_branch(held, policy, params, tb, cfg, st, sim, seat, team):
    """(played, card, cell): ismcts's choice if `policy` is it and the set holds it (Yes)."""
    raise NotImplementedError("kernel code only")


def fast_branch(held, policy, params, tb, cfg, st, sim, seat, team):
    """(played, card, cell): the fast policy's choice if `policy` is it and the set holds it (Yes)."""
    raise NotImplementedError("kernel code only")


def swift_branch(held, policy, params, tb, cfg, st, sim, seat, team):
    """(played, card, cell): swift's choice if `policy` is it and the set holds it (Yes)."""
    raise NotImplementedError("kernel code only")


def ismcts_rich_branch(held, policy, params, tb, cfg, st, sim, seat, team):
    """(played, card, cell): ismcts-rich's choice if `policy` is it and the set holds it (Yes)."""
    raise NotImplementedError("kernel code only")


def state_of(sim):
    """The State to play ahead on in the spare arrays `sim` (a State, or a SearchWork's)."""
    raise NotImplementedError("kernel code only")


@overload(state_of, inline="always", jit_options=COMPILE_OPTIONS)
def _state_of(sim):
    if getattr(sim, "instance_class", None) is State:
        return lambda sim: sim
    return lambda sim: sim.sim


def _not_held(held, policy, params, tb, cfg, st, sim, seat, team):
    return False, -1, -1


@overload(lookahead_branch, inline="always", jit_options=COMPILE_OPTIONS)
def _lookahead_branch(held, policy, params, tb, cfg, st, sim, seat, team):
    if held.instance_class is not Yes:
        return _not_held
    from .lookahead import lookahead_action

    def branch(held, policy, params, tb, cfg, st, sim, seat, team):
        if policy == LOOKAHEAD:
            code, cell = lookahead_action(tb, cfg, st, state_of(sim), seat, team, params)
            return True, code, cell
        return False, -1, -1
    return branch


@overload(ismcts_branch, inline="always", jit_options=COMPILE_OPTIONS)
def _ismcts_branch(held, policy, params, tb, cfg, st, sim, seat, team):
    if held.instance_class is not Yes:
        return _not_held
    from .lookahead import FittedLeaf
    from .search import search_action

    def branch(held, policy, params, tb, cfg, st, sim, seat, team):
        if policy == ISMCTS:
            code, cell = search_action(FittedLeaf(), tb, cfg, st, sim, seat, team, params)
            return True, code, cell
        return False, -1, -1
    return branch


@overload(ismcts_rich_branch, inline="always", jit_options=COMPILE_OPTIONS)
def _ismcts_rich_branch(held, policy, params, tb, cfg, st, sim, seat, team):
    if held.instance_class is not Yes:
        return _not_held
    from .lookahead import RichLeaf
    from .search import search_action

    def branch(held, policy, params, tb, cfg, st, sim, seat, team):
        if policy == ISMCTS_RICH:
            code, cell = search_action(RichLeaf(), tb, cfg, st, sim, seat, team, params)
            return True, code, cell
        return False, -1, -1
    return branch


@overload(fast_branch, inline="always", jit_options=COMPILE_OPTIONS)
def _fast_branch(held, policy, params, tb, cfg, st, sim, seat, team):
    if held.instance_class is not Yes:
        return _not_held
    from .fast import fast_action
    from .lookahead import FittedLeaf

    def branch(held, policy, params, tb, cfg, st, sim, seat, team):
        if policy == FAST:
            code, cell = fast_action(FittedLeaf(), tb, cfg, st, state_of(sim), seat, team, params)
            return True, code, cell
        return False, -1, -1
    return branch


@overload(swift_branch, inline="always", jit_options=COMPILE_OPTIONS)
def _swift_branch(held, policy, params, tb, cfg, st, sim, seat, team):
    if held.instance_class is not Yes:
        return _not_held
    from .lookahead import RichLeaf, raced_action

    def branch(held, policy, params, tb, cfg, st, sim, seat, team):
        if policy == SWIFT:
            code, cell = raced_action(RichLeaf(), tb, cfg, st, state_of(sim), seat, team, params)
            return True, code, cell
        return False, -1, -1
    return branch


@kernel
def decide(policies, policy, params, tb, cfg, st, sim, seat, team):
    """choose_action, callable from Python (tests, benchmarks)."""
    return choose_action(policies, policy, params, tb, cfg, st, sim, seat, team)
