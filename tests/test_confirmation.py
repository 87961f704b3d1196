"""The confirmatory protocol: its plan, its refusals, its tests' error and coverage, one small run."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import tomli_w

from simkit.analysis import stats
from simkit.game.rules import Rules
from simkit.presentation.render import markdown_table
from simkit.studies import confirmation as cf
from simkit.studies import confirmation_protocol as cp
from simkit.studies.loop import run_study
from simkit.studies.summary import anchored

PUBLISHED = cp.read_protocol(Path("results/confirmation") / cp.PROTOCOL_FILE)  # format 1
SECOND = cp.read_protocol(Path("results/confirmation-2") / cp.PROTOCOL_FILE)  # format 2: Holm over the rules


def _at(v: dict, shares) -> np.ndarray:
    """Shares of a verdict's table: a two-team verdict takes the first two."""
    return np.asarray(shares[: v["teams"]] if v["teams"] == 2 else shares, np.float64)


def _at_margin(v: dict) -> np.ndarray:
    """The least favourable null of a verdict: team 0's advantage at its margin, the other teams equal."""
    m = v["margin"]
    return _at(v, (0.5 + m, 0.5 - m)) if v["teams"] == 2 else _at(v, (1 / 3 + m, 1 / 3 - m / 2, 1 / 3 - m / 2))


def _draw(rng, v: dict, shares, families: int) -> np.ndarray:
    """(families, teams) games won: the verdict's games, decided at its planned share."""
    decided = int(v["games"] * v["planned_at"]["decided_share"])
    return rng.multinomial(decided, shares, size=families)


def test_the_second_protocol_s_family_wise_error_is_at_most_five_percent() -> None:
    """The verdicts' own code (cp.decide, which verdict_rows writes) on every rule of the second protocol
    drawn at its margin: some rule is called fair in at most 5% of the families (plus three Monte Carlo
    standard errors)."""
    rng = np.random.default_rng(1)
    families = 4_000
    wins = [_draw(rng, v, _at_margin(v), families) for v in SECOND["verdict"]]
    fair = np.stack([d["fair"] for d in cp.decide(wins, SECOND)], axis=-1)
    rate = fair.any(axis=-1).mean()
    assert rate <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / families), rate


@pytest.mark.parametrize("null", [0, 15, 19])
def test_holm_holds_the_error_when_every_other_rule_is_fair(null: int) -> None:
    """Holm's least favourable case: one rule at its margin (a three-team rule's largest gap at its gap
    margin for rule 19), the 19 others at their planning estimates (nearly always passed, so Holm tests
    the last at the full 5%): the rule at its margin is called fair in at most 5% of the families."""
    rng = np.random.default_rng(2 + null)
    families = 4_000
    wins = []
    for i, v in enumerate(SECOND["verdict"]):
        shares = np.asarray(v["planned_at"]["shares"])
        if i == null:
            g = v.get("gap_margin")
            shares = _at(v, (1 / 3 + g / 2, 1 / 3 - g / 2, 1 / 3)) if g and null == 19 else _at_margin(v)
        wins.append(_draw(rng, v, shares, families))
    decisions = cp.decide(wins, SECOND)
    others = np.stack([d["fair"] for i, d in enumerate(decisions) if i != null], axis=-1)
    assert others.all(axis=-1).mean() > 0.8  # the others pass: Holm steps down to the full level
    rate = decisions[null]["fair"].mean()
    assert rate <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / families), rate


def test_the_second_protocol_s_chance_that_all_pass_holds_under_its_estimates() -> None:
    """Every rule drawn at its planning estimate with its games and measured decided share (below 1 at
    three teams): all 20 pass together about as often as the protocol computed (at least 0.9)."""
    rng = np.random.default_rng(5)
    families = 2_000
    wins = [_draw(rng, v, v["planned_at"]["shares"], families) for v in SECOND["verdict"]]
    fair = np.stack([d["fair"] for d in cp.decide(wins, SECOND)], axis=-1)
    rate = fair.all(axis=-1).mean()
    assert SECOND["all_pass"] >= cp.ALL_PASS
    assert rate >= SECOND["all_pass"] - 3 * np.sqrt(0.1 * 0.9 / families), rate


def test_the_power_calculation_counts_only_the_decided_games() -> None:
    """Fewer decided games, less power: a three-team rule with 80% of its games decided needs 1/0.8 times
    the games of one with all decided, and the plan sizes it so."""
    shares, level = (0.3345, 0.3330, 0.3325), 0.0025
    all_decided = cp.power_rule(shares, 0.005, 0.01, level, 800_000, seed=1)
    four_fifths = cp.power_rule(shares, 0.005, 0.01, level, int(800_000 * 0.8), seed=1)
    assert four_fifths < all_decided
    games, power = cp.games_for_power(
        lambda n: cp.power_rule(shares, 0.005, 0.01, level, int(n * 0.8), seed=1), 0.99, 4_000_000
    )
    decided_games, _ = cp.games_for_power(
        lambda n: cp.power_rule(shares, 0.005, 0.01, level, n, seed=1), 0.99, 4_000_000
    )
    assert power >= 0.99
    assert 1.15 < games / decided_games < 1.35
    three = [v for v in SECOND["verdict"] if v["teams"] == 3]
    assert all(v["planned_at"]["decided_share"] < 0.99 for v in three if v["strength"] == "casual")


def test_the_largest_gap_s_interval_has_a_real_lower_bound() -> None:
    """One pair's interval clear of zero bounds the largest gap below by its distance from zero."""
    wins = np.array([340_000, 330_000, 330_000])
    gap, _, floor, reach = cp.test_gaps(wins, 0.01, 0.0025)
    assert floor > 0.005 and floor < gap < reach
    assert cp.test_gaps(np.array([1000, 1000, 1000]), 0.01, 0.0025)[2] == 0.0


def test_a_plan_refuses_a_seed_used_anywhere_in_results(tmp_path) -> None:
    """A seed in an archived study's table, or in a run report's heading, is refused like a study's."""
    (tmp_path / "archive" / "old").mkdir(parents=True)
    (tmp_path / "archive" / "old" / "verdicts.csv").write_text("players,seed\n2,777\n")
    (tmp_path / "run.md").write_text("## players=2, teams=2, policies=random,random, seed=888 (n=1,000)\n")
    assert {777, 888} <= cp.used_seeds(tmp_path)
    for seed in (777, 887):
        with pytest.raises(cp.ProtocolError, match=f"seed {seed if seed == 777 else 888} was played"):
            cp.plan(None, tmp_path, seed)


def test_the_published_seeds_include_the_archive_and_the_run_reports() -> None:
    used = cp.used_seeds(Path("results"), besides=Path("results/confirmation-2"))
    assert {2026, 20261206, 20261207} <= used
    assert not {20261208, 20261209} & used


def test_a_protocol_outside_a_git_repository_is_refused(tmp_path) -> None:
    path = tmp_path / cp.PROTOCOL_FILE
    path.write_text("format = 'x'\n")
    with pytest.raises(cp.ProtocolError, match="outside a git repository"):
        cp.check_committed(path)


def test_one_rule_has_one_name() -> None:
    """10p/2t: the handicap of 10 turns deals exactly as the late card after 2 turns, and is named so."""
    assert cp.one_name(Rules.make(10, 2, handicap=10)) == {"late_card": 2}
    assert cp.one_name(Rules.make(12, 2, handicap=9)) == {"handicap": 9}
    assert {v["rule"] for v in SECOND["verdict"] if v["players"] == 10} == {"--late-card 2"}


def test_the_first_protocol_s_family_wise_error_at_the_margins_is_at_most_five_percent() -> None:
    """Every hypothesis of the first protocol drawn at its margin (the least favourable null), with its
    own games, tested by the study's own tests: some verdict passes in at most 5% of the families (plus
    three Monte Carlo standard errors)."""
    rng = np.random.default_rng(1)
    level, families = PUBLISHED["level"], 20_000
    passed = np.zeros(families, bool)  # some verdict of the family passes
    tested = 0
    for v in PUBLISHED["verdict"]:
        decided, m = int(v["games"] * PUBLISHED["decided_share"]), v["margin"]
        at_margin = (0.5 + m, 0.5 - m) if v["teams"] == 2 else (1 / 3 + m, 1 / 3 - m / 2, 1 / 3 - m / 2)
        _, _, low, high = cp.test_advantage(rng.multinomial(decided, at_margin, size=families), m, level)
        passed |= (-m < low) & (high < m)
        tested += 1
        if v["teams"] == 3:
            g = v["gap_margin"]
            at_gap = (1 / 3 + g / 2, 1 / 3 - g / 2, 1 / 3)
            passed |= cp.test_gaps(rng.multinomial(decided, at_gap, size=families), g, level)[3] < g
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


def test_the_published_protocols_plan_each_verdict_for_its_power() -> None:
    """The first protocol: every hypothesis at its power at its planned estimate, or the most games allowed.
    The second: every rule at its share of ALL_PASS (but for Monte Carlo noise at rounded games), and the
    chance that all pass the product of the rules'."""
    for v in PUBLISHED["verdict"]:
        for power in v["power"].values():
            assert power >= cp.POWER_1 or v["games"] == cp.MAX_GAMES[v["strength"]], v
    for v in SECOND["verdict"]:
        assert v["power"] >= SECOND["power_each"] - 0.002, v
    assert SECOND["all_pass"] == round(float(np.prod([v["power"] for v in SECOND["verdict"]])), 4)
    assert SECOND["all_pass"] >= cp.ALL_PASS


def test_a_plan_refuses_a_seed_a_published_study_played(tmp_path) -> None:
    with pytest.raises(cp.ProtocolError, match="seed 2027 was played"):
        cp.plan(None, Path("results"), 2027)


def test_a_protocol_is_never_rewritten(tmp_path) -> None:
    path = tmp_path / cp.PROTOCOL_FILE
    cp.write_protocol(path, {"format": cp.FORMAT})
    with pytest.raises(cp.ProtocolError, match="never rewritten"):
        cp.write_protocol(path, {"format": cp.FORMAT})


def test_an_uncommitted_protocol_is_refused_in_a_git_tree(tmp_path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    path = tmp_path / cp.PROTOCOL_FILE
    path.write_text("format = 'x'\n")
    with pytest.raises(cp.ProtocolError, match="commit"):
        cp.check_committed(path)
    subprocess.run(["git", "-C", str(tmp_path), "add", "."], check=True)
    subprocess.run(
        ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "p"], check=True
    )
    cp.check_committed(path)
    path.write_text("format = 'y'\n")
    with pytest.raises(cp.ProtocolError, match="commit"):
        cp.check_committed(path)


def test_the_late_card_arrives_after_the_seat_s_own_turn_unless_the_game_ends_there() -> None:
    """Two players, team 0's card at the end of its 3rd turn (game turn 5): games of 5 turns end on that
    turn (no card), games of 6 or more see it; the median game of 6 turns is the first player's 3rd turn."""
    rules = Rules.make(2, 2, late_card=3)
    length = np.zeros(10, np.int64)
    length[5], length[6], length[9] = 1, 2, 1
    assert cf.bite(rules, length) == (0.75, 0.75, 3)
    assert cf.bite(Rules.make(2, 2), length) is None


def test_short_all_game_deals_the_late_seats_one_card_fewer() -> None:
    assert cp.short_all_game(Rules.make(2, 2, late_card=28)) == (6, 7)
    assert cp.short_all_game(Rules.make(6, 3, handicap=(13, 8))) == (4, 4, 5)


@pytest.mark.parametrize("published", [PUBLISHED, SECOND], ids=["first", "second"])
def test_a_small_protocol_plays_and_decides(tmp_path, published) -> None:
    """Random play under two of the card's rules: verdicts, estimates and the late card's bite, and a second
    run plays nothing; an edited protocol is another study."""
    protocol = dict(published)
    protocol["verdict"] = [
        dict(v, lineup="random", games=2_000)
        for v in published["verdict"]
        if (v["players"], v["teams"], v["strength"]) in ((2, 2, "casual"), (3, 3, "casual"))
    ]
    protocol["estimate"] = [dict(e, games=1_000) for e in published["estimate"] if e["lineup"] == "random"][:2]
    if published is PUBLISHED:
        protocol["hypotheses"], protocol["level"] = 3, 0.05 / 3
    else:
        protocol["rules"], protocol["level"] = 2, 0.05 / 2
    (tmp_path / cp.PROTOCOL_FILE).write_text(tomli_w.dumps(protocol))
    outcome = run_study(cf.study_of(cp.read_protocol(tmp_path / cp.PROTOCOL_FILE)), tmp_path)
    assert outcome.tables is not None
    verdicts = outcome.tables.extra["verdicts"]
    assert list(verdicts.rule) == ["--late-card 28", "--handicap 23,17"]
    assert not verdicts.fair.any()  # random play keeps its edge under greedy's rules
    assert {"gap_passes", "p_gap"} <= set(verdicts.columns)
    if published is SECOND:
        assert {"p_rule", "p_holm", "gap_low", "decided"} <= set(verdicts.columns)
        assert (verdicts.p_holm >= verdicts.p_rule).all()
        key = outcome.tables.key
        assert key is not None and "stalemates" in key.columns
    assert len(outcome.tables.extra["estimates"]) == 4 and len(outcome.tables.extra["bite"]) == 4
    assert run_study(cf.study_of(protocol), tmp_path).games_played == 0
    edited = dict(protocol, family_error=0.1)
    with pytest.raises(cp.StudyError, match="another study"):
        run_study(cf.study_of(edited), tmp_path)


def test_the_published_summary_says_what_the_code_writes_from_its_files() -> None:
    """results/confirmation-2/summary.md's key table and the paragraph under it are what the study's code
    writes from the confirmation's published files (verdicts, its summary's stalemates and games won): its
    words change with the code, no game replayed."""
    folder = Path("results/confirmation-2")
    verdicts = pd.read_csv(folder / "verdicts.csv")
    summary = pd.read_csv(folder / "summary.csv")
    verdicts["stalemate_rate"] = summary[summary.study_group == "verdict"].stalemate_rate.to_numpy()
    by = cp.published_wins(folder)
    wins = [by[(v["players"], v["teams"], v["lineup"])] for v in SECOND["verdict"]]
    key = anchored(cf._key(verdicts, "99.50%", SECOND), sorted(set(zip(verdicts.players, verdicts.teams))))
    text = (folder / "summary.md").read_text(encoding="utf-8")
    assert markdown_table(list(key.columns), key.astype(str).itertuples(index=False)).rstrip("\n") in text
    family = cf._family_text(SECOND, verdicts, "99.50%", wins)
    assert family.rstrip("\n") in text
    assert "so over both attempts that chance is at most 10%" in family  # the same rules, confirmed twice
    assert "9p/3t strong (--handicap 10,7), passed at Holm's 20th step" in family
    assert "team 0's advantage +0.68 pp [+0.39, +0.97], its largest gap +1.05 pp [+0.55, +1.55]" in family
    assert "| yes † |" in text and text.count("†") == 2


def test_holm_tests_each_rule_at_its_step_s_level() -> None:
    """The j-th smallest of m p-values at 5%/(m - j + 1); a rule Holm passes has its p-value at most that level."""
    p = np.array([0.03, 0.0001, 0.2, 0.004])
    assert list(cp.holm_levels(p, 0.05)) == pytest.approx([0.05 / 2, 0.05 / 4, 0.05, 0.05 / 3])
    verdicts = pd.read_csv("results/confirmation-2/verdicts.csv")
    levels = cp.holm_levels(verdicts.p_rule, 0.05)
    assert ((verdicts.p_rule <= levels) == verdicts.fair).all()
    assert [(s, round(level, 6)) for _, s, level in cf.later_steps(SECOND, verdicts)] == [(20, 0.05)]


def test_the_assurance_allows_for_the_planning_estimates_own_error() -> None:
    """At the planning estimates all 20 pass with a chance of at least 0.916 (the plan: each rule at Holm's first
    step), more with Holm's later steps; drawing the truth from the law of those estimates (the games they were
    pooled from) lowers it; with estimates from many more games it returns to the chance at the estimates."""
    draws = 8_000
    se = np.sqrt(0.1 * 0.9 / draws)
    exact = cp.assurance(SECOND, draws=draws, seed=1, spread=False)
    loose = cp.assurance(SECOND, draws=draws, seed=1)
    assert exact >= SECOND["all_pass"] - 3 * se
    assert loose < exact - 3 * se
    many = [
        {**v, "planned_at": {**v["planned_at"], "games": v["planned_at"]["games"] * 10_000}} for v in SECOND["verdict"]
    ]
    assert abs(cp.assurance({**SECOND, "verdict": many}, draws=draws, seed=2) - exact) < 3 * se
