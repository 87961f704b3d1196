"""The fair-Sequence rules card: made from the published studies (and the committed card is what they make),
its rules in words from what the rule options deal, its choice of rule, its page, its command."""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from simkit.game.options import flags_text, from_flags
from simkit.game.rules import Rules
from simkit.presentation.render import pp
from simkit.studies.confirmation_protocol import holm_levels, one_name, published_wins, rule_tests
from simkit.studies.pooled import POOLED_FILE
from simkit.studies.rule_words import rule_words
from simkit.studies.rules_card import CARD, CONFIRMATIONS, make_card
from simkit.studies.rules_card_page import figure
from simkit.studies.rules_card_text import cells, markdown

RESULTS = Path(__file__).resolve().parents[1] / "results"


def test_the_committed_card_is_what_the_published_studies_make():
    """results/fair-sequence-card.md is regenerated from the published files, never edited: after a study is
    re-run, `simkit card --out results` (a line of `make results`) makes it again."""
    made = markdown(make_card(RESULTS))
    assert (RESULTS / f"{CARD}.md").read_text(encoding="utf-8") == made, (
        "results/fair-sequence-card.md differs from what the published studies make: run `simkit card --out results`"
    )


def test_the_card_has_every_table_and_the_confirmation_s_verdicts():
    """Each table's rule, for casual and strong play, is the confirmation's: its line-up, its verdict and its
    interval, whether it passed or not."""
    card = make_card(RESULTS)
    assert [(r.players, r.teams) for r in card.rows] == [
        (2, 2),
        (3, 3),
        (4, 2),
        (6, 2),
        (6, 3),
        (8, 2),
        (9, 3),
        (10, 2),
        (12, 2),
        (12, 3),
    ]
    assert card.family is not None
    assert card.family.folder == CONFIRMATIONS[-1] and card.family.earlier == CONFIRMATIONS[:-1]  # the newest decides
    verdicts = pd.read_csv(RESULTS / card.family.folder / "verdicts.csv")
    assert card.family.hypotheses == 28 and card.family.rules == 20
    assert card.family.passed == int(verdicts.fair.sum())
    for row in card.rows:
        for column, lineup in (("casual", "greedy"), ("strong", "swift")):
            rule = row.rules[column]
            assert rule is not None
            v = verdicts[
                (verdicts.players == row.players) & (verdicts.teams == row.teams) & (verdicts.strength == column)
            ].iloc[0]
            assert rule.lineup == lineup == v.lineup and rule.source == card.family.folder
            named = one_name(Rules.make(row.players, row.teams, **from_flags(v.rule)))
            assert rule.code == flags_text(named) and rule.fair == bool(v.fair)  # one name for one rule
            assert rule.edge.advantage == (v.advantage, v.advantage_low, v.advantage_high)
    strong = {(r.players, r.teams): r.rules["strong"] for r in card.rows}
    six_two = strong[6, 2]
    assert six_two is not None and six_two.family == "handicap"  # the card's strong rule at 6p/2t: handicap 14


@pytest.mark.parametrize(
    "options, words",
    [
        (
            {"players": 2, "late_card": 24},
            "The first player is dealt 6 cards and takes their 7th at the end of their 24th turn.",
        ),
        (
            {"players": 4, "late_card": 8},
            "The first team's players are dealt 5 cards and take their 6th at the end of their 8th turn.",
        ),
        (
            {"players": 6, "handicap": 15},  # the same rule as late_card 5: each of the 3 seats 5 turns
            "The first team's players are dealt 4 cards and take their 5th at the end of their 5th turn.",
        ),
        (
            {"players": 12, "handicap": 9},  # 6 seats: 2, 2, 2, 1, 1, 1 turns
            "The first team's players are dealt 2 cards and take their 3rd at the end of their 2nd turn (the first "
            "three to play) or 1st turn (the other three).",
        ),
        (
            {"players": 12, "handicap": 3},  # 3 seats of 6 short for one turn, the others dealt in full
            "The first three of the first team's players to play are dealt 2 cards and take their 3rd at the end of "
            "their 1st turn.",
        ),
        (
            {"players": 3, "handicap": (23, 17)},
            "The first player is dealt 5 cards and takes their 6th at the end of their 23rd turn; the second player is "
            "dealt 5 cards and takes their 6th at the end of their 17th turn.",
        ),
        (
            {"players": 3, "hand_size": "6,7,7", "handicap": (0, 18)},
            "The second player is dealt 6 cards and takes their 7th at the end of their 18th turn; the third player "
            "is dealt 7 cards.",
        ),
        (
            {"players": 9, "teams": 3, "handicap": (11, 7)},
            "The first team's players are dealt 3 cards and take their 4th at the end of their 4th turn (the first two "
            "to play) or 3rd turn (the other); the second team's players are dealt 3 cards and take their 4th at the "
            "end of their 3rd turn (the first to play) or 2nd turn (the other two).",
        ),
        ({"players": 2}, "No rule needed: everyone is dealt the usual 7 cards."),
    ],
)
def test_a_rule_in_plain_words(options, words):
    assert rule_words(Rules.make(**options)) == words


def test_a_table_without_a_fair_rule_shows_the_closest_and_says_so(tmp_path):
    """A family whose answer is not fair at a table (here swift's at 6p/3t, handicap 13,8, made unfair on a
    copy of the published studies): the card shows the closest rule found, with its edge, and says it is not
    fair."""
    import shutil

    for study in RESULTS.glob("compensation*"):
        shutil.copytree(study, tmp_path / study.name, ignore=shutil.ignore_patterns("p*-*"))
    shutil.copytree(RESULTS / "first-player", tmp_path / "first-player", ignore=shutil.ignore_patterns("p*-*"))
    path = tmp_path / "compensation" / "verdicts.csv"
    verdicts = pd.read_csv(path, dtype={"setting": str})
    unfair = (verdicts.players == 6) & (verdicts.teams == 3) & (verdicts.policies == "swift")
    verdicts.loc[unfair, "fair"] = False
    verdicts.to_csv(path, index=False)
    row = next(r for r in make_card(tmp_path).rows if (r.players, r.teams) == (6, 3))
    words, edge, code = cells(row, "strong")
    strong = row.rules["strong"]
    assert strong is not None and not strong.fair and code == "--handicap 13,8"
    assert words.startswith("Not shown fair; the rule tried: the first team's players are dealt 4 cards")
    assert edge.startswith(pp(verdicts[unfair].advantage.iloc[0], digits=2).split(" ")[0])


def test_the_card_names_each_fair_rule_whose_interval_reaches_past_its_margin():
    """The intervals are Holm's first step: a rule Holm passes at a later step may have its interval reach past
    the margin, and the card says which, and beside that interval prints the intervals of the level Holm tested
    the rule at, which lie within its margins: no row's intervals contradict its verdict."""
    verdicts = pd.read_csv(RESULTS / CONFIRMATIONS[-1] / "verdicts.csv")
    wide = verdicts[
        verdicts.fair & ((verdicts.advantage_low < -verdicts.margin) | (verdicts.advantage_high > verdicts.margin))
    ]
    card = make_card(RESULTS)
    text = markdown(card)
    assert len(wide) > 0
    for v in wide.itertuples():
        assert f"{v.players}p/{v.teams}t {v.strength} passed at a later Holm step" in text
        row = next(r for r in card.rows if (r.players, r.teams) == (v.players, v.teams))
        rule = row.rules[v.strength]
        assert rule is not None and rule.step is not None
        _, low, high = rule.step.edge.advantage
        assert -v.margin < low and high < v.margin  # the interval of Holm's level: inside, as the verdict says
        if v.teams == 3:
            assert rule.step.edge.gap[2] < v.gap_margin
        assert rule.step.text() in cells(row, v.strength)[1]
    assert "at Holm's 20th step (5% a side), 90%: +0.68 pp [+0.39, +0.97]" in text  # 9p/3t strong, tested last


def test_every_rule_holm_passes_has_its_interval_of_holm_s_level_within_its_margins():
    """Holm's step-down tests the j-th smallest of m p-values at 5%/(m - j + 1); a rule it passes has the
    1 - 2 level intervals of that level within its margins, whatever its first-step interval (the same tests
    on its games won, rebuilt from the published summary)."""
    folder = RESULTS / CONFIRMATIONS[-1]
    verdicts = pd.read_csv(folder / "verdicts.csv")
    levels = holm_levels(verdicts.p_rule, 0.05)
    assert sorted(levels) == pytest.approx([0.05 / k for k in range(20, 0, -1)])
    wins = published_wins(folder)
    for v, level in zip(verdicts.itertuples(), levels):
        gap_margin = v.gap_margin if v.teams == 3 else None
        tested = rule_tests(wins[(v.players, v.teams, v.lineup)], v.margin, gap_margin, level)
        assert bool(tested["fair"]) == bool(v.fair), v
        assert float(tested["advantage"]) == pytest.approx(v.advantage, abs=1e-6)


def test_the_card_counts_both_attempts_and_labels_every_interval():
    """The same 20 rules were confirmed twice: the card gives each confirmation's family-wise error and the
    error over both attempts; every interval says its level (the edge left 99.50%, the edge without a rule 95%,
    the Holm-step intervals theirs); the joint coverage is said of the intervals it covers; and the analysis of
    both confirmations together (declared in the docs before it was computed) is written beside the card."""
    card = make_card(RESULTS)
    text = markdown(card)
    assert card.family is not None and card.family.attempts == 2
    assert "a chance of at most 5% (Holm)" in text and "over both attempts it is at most 10%" in text
    assert "14 of 20 passed in results/confirmation" in text
    assert "| edge left (99.50%) |" in text and "| edge without a rule (95%): casual / strong |" in text
    assert "(pp; 95% intervals)" in text
    assert "The 99.50% intervals hold together with at least 78% chance, others each alone" in text
    pooled = card.family.pooled
    assert pooled is not None and len(pooled) == 20 and pooled.fair.all()
    assert f"Holm-adjusted p ≤ {pooled.p_holm.max():.1e}" in text and pooled.p_holm.max() < 4e-6
    assert (pooled.decided == pooled["decided_confirmation"] + pooled["decided_confirmation-2"]).all()
    published = pd.read_csv(RESULTS / POOLED_FILE)
    assert list(published.columns) == list(pooled.columns)
    pd.testing.assert_frame_equal(published, pd.read_csv(io.StringIO(pooled.to_csv(index=False, float_format="%.6g"))))
    guide = (Path(__file__).resolve().parents[1] / "docs" / "guide" / "fair-sequence.md").read_text(encoding="utf-8")
    assert "an analysis declared here, on 2026-12-07, before it was computed" in guide


def test_the_card_fits_one_a4_page():
    fig = figure(make_card(RESULTS))
    assert tuple(fig.get_size_inches()) == pytest.approx((8.27, 11.69))
    texts = [t.get_text() for t in fig.texts]
    assert texts[0] == "A fair Sequence: the rules card"
    words = [" ".join(t.split()) for t in texts]  # a paragraph's words, wherever its lines break
    assert any("pp" in t and "A rule is fair when" in t for t in words)  # the unit and what fair means
    assert any("over both attempts it is at most 10%" in t for t in words)  # the error over both confirmations
    for players, teams in [(2, 2), (3, 3), (4, 2), (6, 2), (6, 3), (8, 2), (9, 3), (10, 2), (12, 2), (12, 3)]:
        assert f"{players} players\n{teams} teams" in texts


def test_simkit_card_writes_the_markdown_png_and_pdf(tmp_path):
    from simkit.cli import app

    result = CliRunner().invoke(app, ["card", "--results", str(RESULTS), "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    for suffix in ("md", "png", "pdf"):
        assert (tmp_path / f"{CARD}.{suffix}").stat().st_size > 0
    assert (tmp_path / f"{CARD}.md").read_text(encoding="utf-8") == (RESULTS / f"{CARD}.md").read_text(encoding="utf-8")
    assert (tmp_path / POOLED_FILE).read_bytes() == (RESULTS / POOLED_FILE).read_bytes()
    missing = CliRunner().invoke(app, ["card", "--results", str(tmp_path / "none"), "--out", str(tmp_path / "o")])
    assert missing.exit_code == 1
    err = missing.stderr.strip()
    assert err.startswith("error: no compensation study in ") and "\n" not in err
    assert not (tmp_path / "o").exists()


def test_the_newest_confirmation_decides_the_card(tmp_path):
    """A second confirmation with verdicts decides the card: Holm's family in the intro with the intervals'
    joint coverage, the first confirmation named as still published, its largest-gap lower bounds and
    stalemate shares, and its strong baseline (swift, no rule) as the edge without a rule."""
    import shutil

    for name in ("compensation", "first-player", "confirmation"):
        shutil.copytree(RESULTS / name, tmp_path / name)
    second = tmp_path / "confirmation-2"
    second.mkdir()
    verdicts = pd.read_csv(RESULTS / "confirmation" / "verdicts.csv")
    verdicts["level"] = 0.05 / 20
    verdicts["gap_low"] = verdicts.max_gap / 2
    verdicts["stalemate_rate"] = 0.125
    verdicts["p_rule"] = verdicts.p_advantage
    verdicts["p_holm"] = verdicts.p_advantage
    verdicts.to_csv(second / "verdicts.csv", index=False)
    baseline = pd.DataFrame(
        [
            {
                "players": p,
                "teams": t,
                "rule_of": "none",
                "rule": "",
                "lineup": "swift",
                "games": 50_000,
                "advantage": 0.01,
                "advantage_low": 0.0055,
                "advantage_high": 0.0145,
                "max_gap": 0.02,
                "max_gap_low": 0.01,
                "max_gap_high": 0.03,
            }
            for p, t in [(2, 2), (3, 3), (4, 2), (6, 2), (6, 3), (8, 2), (9, 3), (10, 2), (12, 2), (12, 3)]
        ]
    )
    baseline.to_csv(second / "estimates.csv", index=False)
    card = make_card(tmp_path)
    assert card.family is not None and card.family.folder == "confirmation-2"
    assert card.family.correction == "holm" and card.family.earlier == ("confirmation",)
    text = markdown(card)
    assert "(Holm)" in text and "results/confirmation-2" in text and "results/confirmation)" in text
    assert "Stalemates: 12% of games." in text or "Stalemates: 13% of games." in text
    three = next(r for r in card.rows if (r.players, r.teams) == (12, 3))
    rule = three.rules["strong"]
    assert rule is not None and rule.edge.gap[1] == pytest.approx(rule.edge.gap[0] / 2)
    assert three.without["strong"] is not None and three.without["strong"].games == 50_000
    assert "confirmation-2/estimates.csv" in card.sources
