"""The Numba kernel against the naive reference engine, game by game.

docs/ENGINE.md promises that the kernel (``kernels/``) and ``tests/naive.py``
play bit-for-bit identical games from the same (seed, game, rules, policies).
For over a thousand games spread over every legal table, with the chip limit,
odd hand sizes, odd sequence targets and tiny turn caps, this checks that

- the kernel's record (``simkit.game.records.game_record``) equals naive's record;
- the independent referee (``tests/referee.py``) finds nothing wrong with it;
- the statistics rows of ``simkit.game.play.simulate`` equal those computed from
  the record (``naive.stats``).
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

import numba
import pytest

from simkit.game.play import simulate
from simkit.game.players import Lineup
from simkit.game.records import game_record
from simkit.game.rules import Rules
from simkit.kernels.core.stats import COLUMNS, as_rows
from tests import naive, referee
from tests.positions import replay, reshuffle_events

# (id, Rules.make keywords, seed, games). Standard tables first (strict referee),
# then non-standard options (referee with strict_rules=False).
_Run = tuple[str, dict[str, Any], int, int]
STANDARD: list[_Run] = [
    ("2p", dict(players=2), 101, 100),
    ("3p", dict(players=3), 102, 90),
    ("4p", dict(players=4), 103, 90),
    ("6p2t", dict(players=6, teams=2), 104, 80),
    ("6p3t", dict(players=6, teams=3), 105, 80),
    ("8p", dict(players=8), 106, 80),
    ("9p3t", dict(players=9, teams=3), 107, 80),
    ("10p", dict(players=10), 108, 80),
    ("12p2t", dict(players=12, teams=2), 109, 80),
    ("12p3t", dict(players=12, teams=3), 110, 80),
    # The chip limit is a simulation option, not a table change: still strict.
    ("2p-chips", dict(players=2, chip_limit=True), 111, 40),
    ("6p3t-chips", dict(players=6, teams=3, chip_limit=True), 112, 30),
    ("12p3t-chips", dict(players=12, teams=3, chip_limit=True), 113, 30),
]
NON_STANDARD: list[_Run] = [
    # Long games in which red runs out of chips (35) and blue/green come close.
    ("3p-win8-chips", dict(players=3, sequences_to_win=8, chip_limit=True), 114, 15),
    ("2p-win8", dict(players=2, sequences_to_win=8), 115, 10),
    ("2p-win3", dict(players=2, sequences_to_win=3), 116, 30),
    ("3p-win2", dict(players=3, sequences_to_win=2), 117, 30),
    ("9p3t-win2", dict(players=9, teams=3, sequences_to_win=2), 118, 20),
    ("2p-hand1", dict(players=2, hand_size=1), 119, 30),
    ("2p-hand15", dict(players=2, hand_size=15), 120, 30),
    ("12p3t-hand1", dict(players=12, teams=3, hand_size=1), 121, 30),
    ("6p3t-hand10", dict(players=6, teams=3, hand_size=10), 122, 20),
    # 8 x 13 = 104: the deal empties the pile, every draw reshuffles.
    ("8p-hand13", dict(players=8, hand_size=13), 123, 20),
    # Per-seat hand sizes (cycling over the seats): a seat, a team, or the later teams short or long.
    ("2p-hand6,7", dict(players=2, hand_size="6,7"), 127, 40),
    ("2p-hand7,8", dict(players=2, hand_size="7,8"), 128, 40),
    ("4p-hand6,5", dict(players=4, hand_size="6,5"), 129, 30),
    ("3p-hand6,6,5", dict(players=3, hand_size="6,6,5"), 130, 30),
    # Seats alternately 3 and 4 cards at 12p/3t, each team's players unlike: given seat by seat (a list of
    # two sizes does not repeat in step with three teams and is refused).
    ("12p3t-hand3,4", dict(players=12, teams=3, hand_size=(3, 4) * 6), 131, 20),
    ("2p-cap1", dict(players=2, max_turns=1), 124, 10),
    ("4p-cap25", dict(players=4, max_turns=25), 125, 30),
    ("12p2t-cap40-chips", dict(players=12, teams=2, max_turns=40, chip_limit=True), 126, 30),
]
# RULES.md, "Rule variants": each option alone at several tables, then in combination with the
# others, per-seat hand sizes, the chip limit and turn caps.
VARIANTS: list[_Run] = [
    ("2p-noreshuffle", dict(players=2, reshuffle=False), 140, 60),
    ("3p-noreshuffle", dict(players=3, reshuffle=False), 141, 40),
    ("4p-noreshuffle", dict(players=4, reshuffle=False), 142, 30),
    ("12p3t-noreshuffle", dict(players=12, teams=3, reshuffle=False), 143, 20),
    # 8 x 13 = 104: no draw pile at all after the deal, and no reshuffle to make one.
    ("8p-hand13-noreshuffle", dict(players=8, hand_size=13, reshuffle=False), 144, 10),
    ("2p-nodeadswap", dict(players=2, dead_swap=False), 145, 60),
    ("6p3t-nodeadswap", dict(players=6, teams=3, dead_swap=False), 146, 30),
    ("2p-late1", dict(players=2, late_card=1), 147, 50),
    ("2p-late5", dict(players=2, late_card=5), 148, 50),
    ("2p-late40", dict(players=2, late_card=40), 149, 30),
    ("4p-late3", dict(players=4, late_card=3), 150, 30),
    ("12p3t-late2", dict(players=12, teams=3, late_card=2), 151, 30),
    ("9p3t-late1", dict(players=9, teams=3, late_card=1), 152, 20),
    # Team 0 dealt no card at all: it passes until its late card comes.
    ("2p-hand1-late3", dict(players=2, hand_size=1, late_card=3), 153, 30),
    ("2p-late5-cap9", dict(players=2, late_card=5, max_turns=9), 154, 20),
    ("2p-late5-cap10", dict(players=2, late_card=5, max_turns=10), 155, 20),
    ("2p-noreshuffle-nodeadswap", dict(players=2, reshuffle=False, dead_swap=False), 156, 40),
    ("2p-noreshuffle-late30", dict(players=2, reshuffle=False, late_card=30), 157, 30),
    ("3p-all-chips", dict(players=3, reshuffle=False, dead_swap=False, late_card=4, chip_limit=True), 158, 20),
    (
        "12p2t-hand3,4-late2-noreshuffle",
        dict(players=12, teams=2, hand_size="3,4", late_card=2, reshuffle=False),
        159,
        20,
    ),
    ("8p-hand13-late2", dict(players=8, hand_size=13, late_card=2), 160, 10),
    (
        "6p2t-hand2-late1-nodeadswap-win3",
        dict(players=6, teams=2, hand_size=2, late_card=1, dead_swap=False, sequences_to_win=3),
        161,
        20,
    ),
    # handicap: a team's seats share H turns of a card short (docs/RULES.md), H0,H1 with three teams.
    ("2p-hc9", dict(players=2, handicap=9), 162, 30),
    ("12p2t-hc7", dict(players=12, teams=2, handicap=7), 163, 30),
    ("12p2t-hc1", dict(players=12, teams=2, handicap=1), 164, 20),
    ("6p3t-hc5,2", dict(players=6, teams=3, handicap="5,2"), 165, 30),
    ("3p-hc12,4", dict(players=3, handicap=(12, 4)), 166, 30),
    ("12p3t-hc6,3-noreshuffle", dict(players=12, teams=3, handicap="6,3", reshuffle=False), 167, 20),
    ("4p-hand6,5-hc3-nodeadswap", dict(players=4, hand_size="6,5", handicap=3, dead_swap=False), 168, 20),
]
# A variant is a rule option, not a table change: the referee checks the RULES.md tables too.
STANDARD_IDS = {rid for rid, *_ in STANDARD} | {
    rid for rid, kw, *_ in VARIANTS if not {"hand_size", "sequences_to_win", "max_turns"} & set(kw)
}
# id -> (keywords, seed, games, whether the referee checks the RULES.md tables too)
RUNS = {rid: (kw, seed, n, rid in STANDARD_IDS) for rid, kw, seed, n in STANDARD + NON_STANDARD + VARIANTS}
LEGAL = [(2, 2), (3, 3), (4, 2), (6, 2), (6, 3), (8, 2), (9, 3), (10, 2), (12, 2), (12, 3)]


# Each run's three tests on one pytest-xdist worker (--dist loadgroup): the naive engine plays it once.
RIDS = [pytest.param(rid, marks=pytest.mark.xdist_group(f"naive {rid}")) for rid in RUNS]
NAIVE_RECORDS = Path(__file__).resolve().parent / "golden" / "naive_records.json"


@cache
def play_run(rid: str):
    """(rules, kernel records, kernel stats rows) of one run."""
    kw, seed, n, _ = RUNS[rid]
    rules = Rules.make(**kw)
    lineup = Lineup.parse("random", rules)
    assert lineup.names == ["random"] * rules.players
    kernel = [game_record(rules, lineup, seed, g) for g in range(n)]
    rows = as_rows(simulate(rules, lineup, seed, 0, n))
    return rules, kernel, rows


def naive_run(rid: str) -> list[dict]:
    """The naive engine's records of a run."""
    kw, seed, n, _ = RUNS[rid]
    rules = Rules.make(**kw)
    return [naive.play_game(rules.record_rules(), ["random"] * rules.players, seed, g) for g in range(n)]


def records_hash(records: list[dict]) -> str:
    """sha256 of a run's records (their JSON, keys sorted)."""
    return hashlib.sha256(json.dumps(records, sort_keys=True).encode()).hexdigest()


def naive_hashes() -> dict[str, str]:
    """Each run's naive records' hash, as tests/golden/naive_records.json holds them (make regenerate)."""
    return {rid: records_hash(naive_run(rid)) for rid in RUNS}


def first_difference(a: dict, b: dict) -> str:
    """Where two records first differ, for a readable failure."""
    for key in a.keys() | b.keys():
        if key != "turns" and a.get(key) != b.get(key):
            return f"{key}: kernel {a.get(key)!r} vs naive {b.get(key)!r}"
    ta, tb = a.get("turns", []), b.get("turns", [])
    for i, (x, y) in enumerate(zip(ta, tb)):
        if x != y:
            return f"turn {i + 1}: kernel {x} vs naive {y}"
    return f"turn counts differ: kernel {len(ta)} vs naive {len(tb)}"


def test_runs_cover_every_legal_table_and_1000_games() -> None:
    """ENGINE.md (two engines, identical games): every legal table, over 1,000 games in all."""
    tables_seen = {(Rules.make(**kw).players, Rules.make(**kw).teams) for kw, *_ in RUNS.values()}
    assert set(LEGAL) <= tables_seen
    assert sum(n for _, _, n, _ in RUNS.values()) >= 1000
    assert any(kw.get("chip_limit") for kw, *_ in RUNS.values())
    assert any("hand_size" in kw for kw, *_ in RUNS.values())
    assert any("sequences_to_win" in kw for kw, *_ in RUNS.values())
    assert any("max_turns" in kw for kw, *_ in RUNS.values())


@pytest.mark.parametrize("rid", RIDS)
def test_kernel_records_equal_naive_records(rid: str) -> None:
    """ENGINE.md: the kernel and the naive engine play bit-for-bit identical games. The naive records' hash is
    recorded (tests/golden/naive_records.json): the bounds-checked pass compares the kernel's records with it
    rather than playing the naive engine again."""
    _, kernel, _ = play_run(rid)
    stored = json.loads(NAIVE_RECORDS.read_text(encoding="utf-8"))
    if numba.config.BOUNDSCHECK:
        assert records_hash(kernel) == stored[rid], f"{rid}: the bounds-checked kernel plays other games"
        return
    ref = naive_run(rid)
    for g, (k, n) in enumerate(zip(kernel, ref)):
        assert k == n, f"{rid} game {g}: {first_difference(k, n)}"
    assert stored.get(rid) == records_hash(ref), f"{rid}: the naive records changed: run make regenerate"


@pytest.mark.parametrize("rid", RIDS)
def test_kernel_records_pass_referee(rid: str) -> None:
    """RULES.md (all sections) via tests/referee.py: every kernel record is a legal game."""
    rules, kernel, _ = play_run(rid)
    strict = RUNS[rid][3]
    for g, rec in enumerate(kernel):
        assert rec["rules"] == rules.record_rules()
        problems = referee.check_record(rec, strict_rules=strict)
        assert problems == [], f"{rid} game {g}: {problems[:5]}"


@pytest.mark.parametrize("rid", RIDS)
def test_simulate_stats_equal_record_stats(rid: str) -> None:
    """ENGINE.md, Per-game statistics: simulate's rows equal the statistics of the records.

    ``reshuffles`` is compared with the number of reshuffle events replayed
    from the record (a total over the game); it equals naive.stats' count of
    turns flagged ``reshuffle`` except when one turn reshuffles twice
    (test_two_reshuffles_in_one_turn_count_twice).
    """
    rules, kernel, rows = play_run(rid)
    assert rows.shape == (len(kernel), len(COLUMNS))
    for g, rec in enumerate(kernel):
        expected = naive.stats(rec)
        flagged = expected["reshuffles"]
        events = reshuffle_events(rec)
        double = any(e > 1 for *_, e in replay(rec))
        assert events == flagged or double, (rid, g)
        expected["reshuffles"] = events
        got = dict(zip(COLUMNS, (int(v) for v in rows[g])))
        assert got == expected, f"{rid} game {g}: " + ", ".join(
            f"{k}: kernel {got[k]} vs record {expected[k]}" for k in COLUMNS if got[k] != expected[k]
        )


def test_two_reshuffles_in_one_turn_count_twice() -> None:
    """ENGINE.md, Drawing / Per-game statistics: ``reshuffles`` totals the reshuffles of the game.

    With 8 players x 13 cards the deal leaves no draw pile, so a turn with a
    dead-card swap reshuffles for the replacement and again for the end-of-turn
    draw. The record can only flag the turn; the statistic counts both.
    """
    rules, kernel, rows = play_run("8p-hand13")
    col = COLUMNS.index("reshuffles")
    doubles = 0
    for g, rec in enumerate(kernel):
        per_turn = [e for *_, e in replay(rec)]
        doubles += sum(e == 2 for e in per_turn)
        assert rows[g, col] == sum(per_turn)
        assert rows[g, col] > naive.stats(rec)["reshuffles"] or 2 not in per_turn
    assert doubles > 0


def test_runs_reach_every_feature() -> None:
    """RULES.md (A turn, Sequences, Simulation conventions): the compared games exercise every rule."""
    seen = dict.fromkeys(
        [
            "win",
            "stalemate",
            "turn_cap",
            "dead",
            "remove",
            "two_eyed",
            "pass",
            "reshuffle",
            "two_sequences_one_turn",
            "team2_win",
            "chip_limit_reached",
            "play_without_draw",
            "late_card",
            "late_card_on_a_pass",
            "empty_hand_pass",
            "dead_kept",
        ],
        0,
    )
    for rid in RUNS:
        rules, kernel, _ = play_run(rid)
        for rec in kernel:
            seen[rec["result"]["end"]] += 1
            seen["team2_win"] += rec["result"]["winner_team"] == 2
            for i, t in enumerate(rec["turns"]):
                seen["dead"] += t["dead"] is not None
                normal = int(t["dead"] is not None) + int(t["action"] != "pass")
                seen["play_without_draw"] += (
                    t["action"] != "pass" and len(t["drawn"]) < normal and i + 1 < len(rec["turns"])
                )
                seen["late_card"] += len(t["drawn"]) > normal
                seen["late_card_on_a_pass"] += t["action"] == "pass" and len(t["drawn"]) > normal
                seen["remove"] += t["action"] == "remove"
                seen["pass"] += t["action"] == "pass"
                seen["two_eyed"] += t["card"] in ("JD", "JC")
                seen["reshuffle"] += t["reshuffle"]
                seen["two_sequences_one_turn"] += len(t["sequences"]) >= 2
            for _, turn, snap, _ in replay(rec):
                hand = snap.hands[turn["seat"]]
                seen["empty_hand_pass"] += turn["action"] == "pass" and not hand
                seen["dead_kept"] += not rules.dead_swap and any(snap.dead(c) for c in hand)
            if rules.chip_limit:
                for _, _turn, snap, _ in replay(rec):
                    counts = [sum(1 for x in snap.owner.values() if x == t) for t in range(rules.teams)]
                    seen["chip_limit_reached"] += any(c >= (50, 50, 35)[t] for t, c in enumerate(counts))
    assert all(v > 0 for v in seen.values()), seen
