"""The confirmatory protocol: its plan, its refusals, its tests' error and coverage, one small run."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest
import tomli_w

from simkit.analysis import stats
from simkit.game.rules import Rules
from simkit.studies import confirmation as cf
from simkit.studies.loop import run_study

PUBLISHED = cf.read_protocol(cf.Path("results/confirmation") / cf.PROTOCOL_FILE)


def test_the_family_wise_error_at_the_margins_is_at_most_five_percent() -> None:
    """Every hypothesis of the published protocol drawn at its margin (the least favourable null), with its
    own games, tested by the study's own tests: some verdict passes in at most 5% of the families (plus
    three Monte Carlo standard errors)."""
    rng = np.random.default_rng(1)
    level, families = PUBLISHED["level"], 20_000
    passed = np.zeros(families, bool)  # some verdict of the family passes
    tested = 0
    for v in PUBLISHED["verdict"]:
        decided, m = int(v["games"] * PUBLISHED["decided_share"]), v["margin"]
        at_margin = (0.5 + m, 0.5 - m) if v["teams"] == 2 else (1 / 3 + m, 1 / 3 - m / 2, 1 / 3 - m / 2)
        _, _, low, high = cf.test_advantage(rng.multinomial(decided, at_margin, size=families), m, level)
        passed |= (-m < low) & (high < m)
        tested += 1
        if v["teams"] == 3:
            g = v["gap_margin"]
            at_gap = (1 / 3 + g / 2, 1 / 3 - g / 2, 1 / 3)
            passed |= cf.test_gaps(rng.multinomial(decided, at_gap, size=families), g, level)[2] < g
            tested += 1
    assert tested == PUBLISHED["hypotheses"]
    rate = passed.mean()
    assert rate <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / families), rate


@pytest.mark.parametrize("shares", [(0.5, 0.5, 0.0), (0.40, 0.35, 0.25)])
def test_share_gap_covers_the_true_gap_95_percent_of_the_time(shares) -> None:
    rng = np.random.default_rng(2)
    p = np.array([s for s in shares if s > 0])
    truth = p[0] - p[1]
    draws = 4_000
    covered = sum(
        est.low <= truth <= est.high for est in (stats.share_gap(rng.multinomial(5_000, p), 0, 1) for _ in range(draws))
    )
    assert abs(covered / draws - 0.95) < 3 * np.sqrt(0.95 * 0.05 / draws)


@pytest.mark.parametrize("correlation", [0.0, 0.6])
def test_paired_difference_covers_the_true_difference_95_percent_of_the_time(correlation) -> None:
    rng = np.random.default_rng(3)
    n, draws, covered = 1_000, 2_000, 0
    common = rng.standard_normal((draws, n))
    a = 50.0 + np.sqrt(correlation) * common + np.sqrt(1 - correlation) * rng.standard_normal((draws, n))
    b = 49.5 + np.sqrt(correlation) * common + np.sqrt(1 - correlation) * rng.standard_normal((draws, n))
    for x, y in zip(a, b):
        sums = np.array([x.sum(), y.sum(), (x * x).sum(), (y * y).sum(), (x * y).sum()])
        est = stats.paired_difference(n, sums).estimate
        covered += est.low <= 0.5 <= est.high
    assert abs(covered / draws - 0.95) < 3 * np.sqrt(0.95 * 0.05 / draws)


def test_the_published_protocol_plans_each_verdict_for_its_power() -> None:
    """Every verdict reaches the protocol's power at its planned estimate, or plays the most games allowed."""
    for v in PUBLISHED["verdict"]:
        for power in v["power"].values():
            assert power >= cf.POWER or v["games"] == cf.MAX_GAMES[v["strength"]], v


def test_a_plan_refuses_a_seed_a_published_study_played(tmp_path) -> None:
    with pytest.raises(cf.ProtocolError, match="seed 2027 was played"):
        cf.plan(None, cf.Path("results"), 2027)


def test_a_protocol_is_never_rewritten(tmp_path) -> None:
    path = tmp_path / cf.PROTOCOL_FILE
    cf.write_protocol(path, {"format": cf.FORMAT})
    with pytest.raises(cf.ProtocolError, match="never rewritten"):
        cf.write_protocol(path, {"format": cf.FORMAT})


def test_an_uncommitted_protocol_is_refused_in_a_git_tree(tmp_path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    path = tmp_path / cf.PROTOCOL_FILE
    path.write_text("format = 'x'\n")
    with pytest.raises(cf.ProtocolError, match="commit"):
        cf.check_committed(path)
    subprocess.run(["git", "-C", str(tmp_path), "add", "."], check=True)
    subprocess.run(
        ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "p"], check=True
    )
    cf.check_committed(path)
    path.write_text("format = 'y'\n")
    with pytest.raises(cf.ProtocolError, match="commit"):
        cf.check_committed(path)


def test_the_late_card_arrives_after_the_seat_s_own_turn_unless_the_game_ends_there() -> None:
    """Two players, team 0's card at the end of its 3rd turn (game turn 5): games of 5 turns end on that
    turn (no card), games of 6 or more see it; the median game of 6 turns is the first player's 3rd turn."""
    rules = Rules.make(2, 2, late_card=3)
    length = np.zeros(10, np.int64)
    length[5], length[6], length[9] = 1, 2, 1
    assert cf.bite(rules, length) == (0.75, 0.75, 3)
    assert cf.bite(Rules.make(2, 2), length) is None


def test_short_all_game_deals_the_late_seats_one_card_fewer() -> None:
    assert cf.short_all_game(Rules.make(2, 2, late_card=28)) == (6, 7)
    assert cf.short_all_game(Rules.make(6, 3, handicap=(13, 8))) == (4, 4, 5)


def test_a_small_protocol_plays_and_decides(tmp_path) -> None:
    """Random play under two of the card's rules: verdicts, estimates and the late card's bite, and a second
    run plays nothing; an edited protocol is another study."""
    protocol = dict(PUBLISHED)
    protocol["verdict"] = [
        dict(v, lineup="random", games=2_000)
        for v in PUBLISHED["verdict"]
        if (v["players"], v["teams"], v["strength"]) in ((2, 2, "casual"), (3, 3, "casual"))
    ]
    protocol["estimate"] = [dict(e, games=1_000) for e in PUBLISHED["estimate"] if e["lineup"] == "random"][:2]
    protocol["hypotheses"], protocol["level"] = 3, 0.05 / 3
    (tmp_path / cf.PROTOCOL_FILE).write_text(tomli_w.dumps(protocol))
    outcome = run_study(cf.study_of(cf.read_protocol(tmp_path / cf.PROTOCOL_FILE)), tmp_path)
    assert outcome.tables is not None
    verdicts = outcome.tables.extra["verdicts"]
    assert list(verdicts.rule) == ["--late-card 28", "--handicap 23,17"]
    assert not verdicts.fair.any()  # random play keeps its edge under greedy's rules
    assert {"gap_passes", "p_gap"} <= set(verdicts.columns)
    assert len(outcome.tables.extra["estimates"]) == 4 and len(outcome.tables.extra["bite"]) == 4
    assert run_study(cf.study_of(protocol), tmp_path).games_played == 0
    edited = dict(protocol, family_error=0.1)
    with pytest.raises(cf.StudyError, match="another study"):
        run_study(cf.study_of(edited), tmp_path)
