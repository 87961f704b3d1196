"""Perft-style exact legal-action counts from fixed positions (tests/data/perft.json).

A legal action is a distinct (card code, cell) pair of RULES.md, "A turn" 2.
The expected numbers in the data file were worked out by hand; this file
checks that the kernel's rule queries (``targets``, ``is_dead``, the random
policy's candidate lists) give exactly those numbers, and that the naive
reference engine agrees with the same data (so a wrong hand count would be
caught by two engines, not silently copied from one).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from simkit.game.cards import tables
from simkit.kernels.core.rng import seed_stream
from simkit.kernels.core.state import is_dead, popcount, targets
from tests import naive
from tests.positions import (
    build,
    cells_of,
    cfg_for,
    code,
    codes_of,
    dead_codes,
    name,
    parse_picture,
    playable_codes,
    random_action,
)

DATA = json.loads((Path(__file__).parent / "data" / "perft.json").read_text())
PLAYERS = {2: 2, 3: 3}  # the smallest table for each team count: there seat s plays for team s
CASES = DATA["cases"]


def case_id(case: dict) -> str:
    return f"{case['position']}-t{case['team']}-{''.join(case['hand'])}-{'lim' if case['chip_limit'] else 'nolim'}"


def kernel_setup(case: dict):
    pos = DATA["positions"][case["position"]]
    teams = pos["teams"]
    players = PLAYERS[teams]
    seat = case["team"]  # seat s plays for team s % teams
    st = build(pos["picture"], hands={seat: case["hand"]})
    cfg = cfg_for(players, teams, chip_limit=case["chip_limit"])
    return st, cfg, seat


def naive_setup(case: dict) -> naive.Game:
    pos = DATA["positions"][case["position"]]
    teams = pos["teams"]
    rules = {
        "players": PLAYERS[teams],
        "teams": teams,
        "hand_size": 7,
        "sequences_to_win": 1,
        "max_turns": 10,
        "chip_limit": case["chip_limit"],
    }
    g = naive.Game(rules, naive.load_board())
    chips, locked = parse_picture(pos["picture"])
    for team, cells in chips.items():
        for c in cells:
            g.chips[c] = team
    for c in locked:
        g.locked[c] = True
    return g


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_perft_kernel(case: dict) -> None:
    """RULES.md, A turn (2): exact legal (card, cell) actions per card and in total, for the kernel."""
    tb = tables()
    st, cfg, seat = kernel_setup(case)
    team = case["team"]
    exp = case["expected"]
    distinct = sorted({code(c) for c in case["hand"]})
    total = 0
    for k in distinct:
        lo, hi = targets(tb, cfg, st, team, k)
        n = popcount(np.uint64(lo)) + popcount(np.uint64(hi))
        assert n == exp["per_card"][name(k)], (name(k), cells_of(lo, hi))
        assert len(cells_of(lo, hi)) == n
        if name(k) in exp.get("cells", {}):
            assert cells_of(lo, hi) == exp["cells"][name(k)], name(k)
        total += n
    assert total == exp["total"]

    # Dead cards (RULES.md, A turn, 1) and the policy's candidate lists (ENGINE.md, The random policy).
    dead = [name(k) for k in distinct if is_dead(tb, st, k)]
    assert dead == exp["dead"]
    assert [name(k) for k in codes_of(dead_codes(st, seat))] == exp["dead"]
    assert [name(k) for k in codes_of(playable_codes(tb, cfg, st, seat, team))] == exp["playable"]

    # No legal action <=> the policy passes (RULES.md, Simulation conventions, No legal play).
    seed_stream(st.rng, 1, 2)
    card, cell = random_action(tb, cfg, st, seat, team)
    if exp["total"] == 0:
        assert (card, cell) == (-1, -1)
    else:
        assert name(card) in exp["playable"]
        lo, hi = targets(tb, cfg, st, team, card)
        assert cell in cells_of(lo, hi)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_perft_naive_agrees_with_hand_counts(case: dict) -> None:
    """RULES.md, A turn (2): the naive reference gives the same hand-worked counts (checks the data)."""
    g = naive_setup(case)
    team = case["team"]
    exp = case["expected"]
    distinct = sorted({code(c) for c in case["hand"]})
    per_card = {name(k): len(g.targets(k, team)) for k in distinct}
    assert per_card == exp["per_card"]
    assert sum(per_card.values()) == exp["total"]
    assert [name(k) for k in distinct if g.is_dead(k)] == exp["dead"]
    assert [name(k) for k in distinct if g.targets(k, team)] == exp["playable"]
    for card, cells in exp.get("cells", {}).items():
        assert g.targets(code(card), team) == cells


def test_perft_data_is_consistent() -> None:
    """RULES.md, A turn (data self-check): totals are the sums of the per-card counts, every card is named."""
    assert len(CASES) >= 15
    for case in CASES:
        exp = case["expected"]
        assert set(exp["per_card"]) == set(case["hand"]), case_id(case)
        assert sum(exp["per_card"].values()) == exp["total"], case_id(case)
        assert [c for c in exp["playable"]] == sorted(exp["playable"], key=code)
        assert set(exp["playable"]) == {c for c, n in exp["per_card"].items() if n > 0}
    kinds = {c for case in CASES for c in case["hand"]}
    assert {"JD", "JC", "JS", "JH"} <= kinds  # both Jack kinds are exercised
    assert any(case["expected"]["dead"] for case in CASES)
    assert any(case["chip_limit"] for case in CASES)
    assert any(case["expected"]["total"] == 0 for case in CASES)
