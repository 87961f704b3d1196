"""Studies: the registry of kinds, summaries recomputed from the rows, resume and extend, the study directory's
identity, the hand-size shifts, ratings, the variants and compensation studies, bad input."""

from __future__ import annotations

import io
import json
import math
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from rich.console import Console
from scipy.stats import binomtest
from typer.testing import CliRunner

from simkit.analysis import stats
from simkit.analysis.metrics import METRICS
from simkit.game.options import RulesError
from simkit.kernels.core.params import Layout
from simkit.kernels.players.greedy import GREEDY
from simkit.presentation.render import metrics_markdown
from simkit.running import dataset as ds
from simkit.running.reading import read_games
from simkit.running.runner import RunEvents
from simkit.studies.directory import default_folder
from simkit.studies.kind import LEGAL_TABLES, Results
from simkit.studies.loop import run_study
from simkit.studies.options import StudyError
from simkit.studies.registry import KINDS, make_study
from tests.manifests import manifest_of

REPORTS_PAGE = Path(__file__).resolve().parents[1] / "docs" / "guide" / "reports.md"
GAMES = 400


def first_player(players: int, policies=("random",), games: int = GAMES, seed: int = 3):
    return make_study("first-player", list(policies), games, seed, {"players": players})


@pytest.fixture(scope="module")
def done(tmp_path_factory) -> Path:
    """A first-player study of three tables, built by three commands (the tables accumulate)."""
    out = tmp_path_factory.mktemp("study")
    for players in (2, 3, 4):
        run_study(
            first_player(players),
            out,
            command=["simkit", "study", "first-player", "-p", str(players), "--games", str(GAMES), "--seed", "3"],
        )
    return out


def wilson(k, n):
    ci = binomtest(k, n).proportion_ci(0.95, method="wilson")
    return ci.low, ci.high


def printed_lines(renderable, width: int) -> list[str]:
    out = io.StringIO()
    Console(file=out, width=width, color_system=None).print(renderable)
    return out.getvalue().splitlines()


def folders(out: Path) -> list[str]:
    return [c["folder"] for c in json.loads((out / "study.json").read_text())["configurations"]]


def test_every_study_kind_is_one_entry_of_the_registry():
    assert list(KINDS) == [
        "first-player",
        "hand-size",
        "teams",
        "skill",
        "variants",
        "restricted",
        "layouts",
        "compensation",
    ]
    for kind in KINDS.values():
        assert kind.question.endswith("?") and kind.help and callable(kind.plan) and callable(kind.tables)


def test_summary_recomputed_by_hand_from_the_rows(done):
    out = done
    summary = pd.read_csv(out / "summary.csv")
    assert len(summary) == 3 and list(summary["games"]) == [GAMES] * 3
    assert list(zip(summary["players"], summary["teams"])) == [(2, 2), (3, 3), (4, 2)]  # numeric order
    p_values = []
    for row, name in zip(summary.itertuples(), folders(out)):
        rows = read_games(out / name)
        assert len(rows) == GAMES and (rows["seed"] == 3).all()
        winner = rows["winner_team"].to_numpy()
        for t in range(row.teams):
            k = int((winner == t).sum())
            low, high = wilson(k, GAMES)
            assert getattr(row, f"win_rate_{t}") == pytest.approx(k / GAMES, abs=1e-6)
            assert getattr(row, f"win_rate_{t}_low") == pytest.approx(low, abs=1e-5)
            assert getattr(row, f"win_rate_{t}_high") == pytest.approx(high, abs=1e-5)
        decided = int((winner >= 0).sum())
        share = (winner == 0).sum() / decided
        assert row.advantage == pytest.approx(share - 1 / row.teams, abs=1e-6)
        assert row.relative_advantage == pytest.approx(share * row.teams - 1, abs=1e-6)
        low, high = wilson(int((winner == 0).sum()), decided)
        assert row.advantage_low == pytest.approx(low - 1 / row.teams, abs=1e-5)
        assert row.relative_advantage_high == pytest.approx(high * row.teams - 1, abs=1e-5)
        assert row.draw_rate == pytest.approx((winner < 0).mean(), abs=1e-6)
        assert row.mean_turns == pytest.approx(rows["turns"].mean(), abs=1e-4)
        assert row.median_turns == pytest.approx(rows["turns"].median())
        assert row.drawishness == pytest.approx((rows["end"] == "stalemate").mean(), abs=1e-6)
        wins = np.bincount(winner[winner >= 0], minlength=row.teams)
        assert row.balance == pytest.approx(1 - (wins.max() - wins.min()) / GAMES, abs=1e-6)
        assert row.balance_decided == pytest.approx(1 - (wins.max() - wins.min()) / decided, abs=1e-6)
        for t in range(row.teams):
            assert getattr(row, f"share_{t}") == pytest.approx(wins[t] / decided, abs=1e-6)
        assert row.max_gap == pytest.approx((wins.max() - wins.min()) / decided, abs=1e-6)
        first = rows["first_sequence_team"].to_numpy()
        settled = (first >= 0) & (winner >= 0)
        assert row.comebacks_n == settled.sum()
        assert row.comebacks == pytest.approx((winner != first)[settled].mean(), abs=1e-6)
        closing = (rows["turns"] - rows["first_sequence_turn"])[first >= 0]
        assert row.closing_turns_n == len(closing) and row.closing_turns == pytest.approx(closing.mean(), rel=1e-5)
        assert row.lead_changes_n == row.lead_changed_n == GAMES
        assert row.lead_changes == pytest.approx(rows["lead_changes"].mean(), rel=1e-5, abs=1e-9)
        assert row.lead_changed == pytest.approx((rows["lead_changes"] > 0).mean(), abs=1e-6)
        p = binomtest(int((winner == 0).sum()), decided, 1 / row.teams).pvalue
        assert row.p_value == pytest.approx(p, rel=1e-5)
        p_values.append(p)
    # Holm by hand: sort, multiply by (m - rank), running maximum, cap at 1.
    order = np.argsort(p_values)
    holm, running = np.empty(3), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (3 - rank) * p_values[i]))
        holm[i] = running
    assert summary["p_holm"].to_numpy() == pytest.approx(holm, rel=1e-5)
    assert summary.loc[2, "turn_order"] == "team 0: 1st,3rd; team 1: 2nd,4th"


def test_the_study_directory_holds_what_the_readme_promises(done):
    out = done
    names = sorted(p.name for p in out.iterdir() if not p.name.startswith("."))
    assert names == sorted(folders(out) + ["summary.csv", "summary.md", "study.json", "first_player.png"])
    assert (out / "first_player.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    meta = json.loads((out / "study.json").read_text())
    assert meta["commands"] == [f"simkit study first-player -p {p} --games {GAMES} --seed 3" for p in (2, 3, 4)]
    assert meta["identity"]["seed"] == 3 and meta["lineups"] == {"random": GAMES}
    assert {"simkit", "kernel_sources", "numba"} <= set(meta["versions"])
    assert [c["run_id"] for c in meta["configurations"]] == [manifest_of(out / f)["run_id"] for f in folders(out)]
    text = (out / "summary.md").read_text()
    assert f"    simkit study first-player -p 3 --games {GAMES} --seed 3" in text and "Holm" in text
    for column in (
        "players",
        "teams",
        "hand_size",
        "sequences_to_win",
        "reshuffle",
        "late_card",
        "policies",
        "games",
        "win_rate_0",
        "win_rate_0_low",
        "win_rate_0_high",
        "win_rate_1",
        "win_rate_2",
        "draw_rate",
        "mean_turns",
        "relative_advantage_low",
        "share_0",
        "max_gap_high",
    ):
        assert column in pd.read_csv(out / "summary.csv").columns


def test_the_key_table_shows_how_the_games_unfold_and_reads_a_summary_older_than_its_columns(done):
    """summary.md's key table has the comebacks, the closing turns and the lead changes with their intervals, and
    its note says what they are; a published summary.csv written before those columns still makes a key table,
    with '—' there."""
    from simkit.studies import first_player
    from simkit.studies.summary import UNFOLD_COLUMNS, UNFOLD_NOTE

    text = (done / "summary.md").read_text()
    assert all(column in text for column in UNFOLD_COLUMNS) and UNFOLD_NOTE in text
    key = first_player.key_table(pd.read_csv(done / "summary.csv"))
    assert key[UNFOLD_COLUMNS[0]].str.fullmatch(r"\d+\.\d% \[\d+\.\d, \d+\.\d\]").all()
    published = pd.read_csv(REPORTS_PAGE.parents[2] / "results" / "first-player" / "summary.csv")
    assert "comebacks" not in published.columns
    older = first_player.key_table(published)
    assert len(older) == len(published) and (older[list(UNFOLD_COLUMNS)] == "—").all().all()


def test_a_finished_study_plays_nothing_and_rebuilds_its_summary(done, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(done, copy)
    (copy / "summary.csv").unlink()
    (copy / "first_player.png").unlink()
    again = run_study(first_player(3), copy)
    assert again.games_played == 0 and not again.added
    assert (copy / "first_player.png").exists()
    pd.testing.assert_frame_equal(pd.read_csv(copy / "summary.csv"), pd.read_csv(done / "summary.csv"))


def test_a_re_run_that_differs_only_in_how_it_runs_adds_no_command(done, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(done, copy)
    recorded = json.loads((done / "study.json").read_text())["commands"]
    quiet = [
        "simkit",
        "study",
        "first-player",
        "-p",
        "3",
        "--games",
        str(GAMES),
        "--seed",
        "3",
        "--quiet",
        "--threads",
        "1",
        "--scheduler=local:2",
        "--overwrite",
    ]
    run_study(first_player(3), copy, command=quiet)
    assert json.loads((copy / "study.json").read_text())["commands"] == recorded
    assert "--quiet" not in (copy / "summary.md").read_text()
    more = ["simkit", "study", "first-player", "-p", "3", "--games", str(2 * GAMES), "--seed", "3", "-q"]
    run_study(first_player(3, games=2 * GAMES), copy, command=more)
    assert json.loads((copy / "study.json").read_text())["commands"] == [*recorded, " ".join(more)]


def test_a_summary_removes_the_figures_and_tables_it_no_longer_makes(done, tmp_path):
    """A figure or table left by an earlier summary (here: planted) goes; what this one makes stays."""
    copy = tmp_path / "copy"
    shutil.copytree(done, copy)
    (copy / "compensation_handicap.png").write_bytes((copy / "first_player.png").read_bytes())
    (copy / "shifts.csv").write_text("a\n1\n")
    run_study(first_player(3), copy)
    names = sorted(p.name for p in copy.iterdir() if p.is_file() and not p.name.startswith("."))
    assert names == ["first_player.png", "study.json", "summary.csv", "summary.md"]


class StopAfter(RunEvents):
    def __init__(self, games):
        self.left = games

    def advanced(self, games):
        self.left -= games
        if self.left <= 0:
            raise KeyboardInterrupt


def test_a_study_holding_a_retired_players_rows_goes_on_without_them_only_when_asked(tmp_path):
    """A player retired by a later simkit: its line-up cannot be played or read; the study is refused with
    one line naming it, and --overwrite goes on without its rows."""
    study = make_study("first-player", ["random"], 200, 3, {"players": 2})
    run_study(study, tmp_path)
    record = json.loads((tmp_path / "study.json").read_text())
    record["lineups"]["quick"] = 200
    record["configurations"].append({**record["configurations"][0], "lineup": "quick"})
    (tmp_path / "study.json").write_text(json.dumps(record))
    with pytest.raises(StudyError, match=r"holds line-ups this simkit cannot play \(quick: unknown player 'quick'"):
        run_study(study, tmp_path)
    again = run_study(study, tmp_path, overwrite=True)
    assert again.replaced == "the rows of line-ups this simkit cannot play (quick)" and again.games_played == 0
    assert list(pd.read_csv(tmp_path / "summary.csv")["policies"]) == ["random"]
    assert "quick" not in (tmp_path / "study.json").read_text()


def test_a_line_up_whose_rows_are_gone_leaves_the_study_with_its_commands(tmp_path):
    """A clone holds summaries, not datasets: a line-up none of whose rows is on disk any more leaves the
    summary, study.json's line-ups and the commands that named it alone."""
    run_study(
        make_study("first-player", ["random"], 200, 3, {"players": 2}),
        tmp_path,
        command=["simkit", "study", "first-player", "--players", "2"],
    )
    run_study(
        make_study("first-player", ["greedy"], 200, 3, {"players": 2}),
        tmp_path,
        command=["simkit", "study", "first-player", "--players", "2", "--policy", "greedy"],
    )
    assert len(json.loads((tmp_path / "study.json").read_text())["commands"]) == 2
    shutil.rmtree(next(tmp_path.glob("p2t2-greedy*")))
    run_study(
        make_study("first-player", ["random"], 200, 3, {"players": 2}),
        tmp_path,
        command=["simkit", "study", "first-player", "--players", "2"],
    )
    record = json.loads((tmp_path / "study.json").read_text())
    assert record["commands"] == ["simkit study first-player --players 2"] and list(record["lineups"]) == ["random"]
    assert "greedy" not in (tmp_path / "summary.md").read_text()


def test_an_interrupted_study_resumes_and_more_games_extend_it(done, tmp_path):
    both = make_study("first-player", ["random", "greedy"], GAMES, 3, {"players": 2})
    stopped = run_study(both, tmp_path, events=StopAfter(GAMES + 50))
    assert stopped.interrupted and not (tmp_path / "summary.csv").exists()
    assert (tmp_path / "study.json").exists()  # the directory is the study's: another one is refused
    resumed = run_study(both, tmp_path)
    assert not resumed.interrupted and 0 < resumed.games_played < 2 * GAMES
    more = run_study(make_study("first-player", ["random", "greedy"], GAMES + 100, 3, {"players": 2}), tmp_path)
    assert more.games_played == 2 * (GAMES + 100)  # each run's one short chunk is replayed whole
    assert list(pd.read_csv(tmp_path / "summary.csv")["games"]) == [GAMES + 100] * 2
    first = read_games(tmp_path / "p2t2-random")
    assert first["game"].tolist() == list(range(GAMES + 100))
    assert first.iloc[:GAMES].reset_index(drop=True).equals(read_games(done / "p2t2-random"))


def test_fewer_games_than_on_disk_are_refused_and_a_new_line_up_joins(done, tmp_path):
    """A study directory is never overwritten by a smaller study; another line-up joins it."""
    copy = tmp_path / "copy"
    shutil.copytree(done, copy)
    with pytest.raises(
        StudyError,
        match=rf"already holds {GAMES} games per configuration of random; ask for at "
        rf"least that many \(--games {GAMES}\)",
    ):
        run_study(first_player(2, games=GAMES - 100), copy)
    joined = run_study(first_player(2, ["greedy"]), copy)
    assert joined.added == ["greedy"] and joined.games_played == GAMES
    summary = pd.read_csv(copy / "summary.csv")
    assert len(summary) == 4 and list(summary["policies"]).count("greedy") == 1
    for name in folders(done):  # the other configurations' games are unchanged
        assert read_games(copy / name).equals(read_games(done / name))


def test_a_clone_without_the_datasets_says_which_configurations_it_leaves_out(done, tmp_path):
    """A fresh clone holds a study's summaries but not its datasets (.gitignore): re-running one of its
    commands rebuilds the summary from what is on disk, and says which configurations it left out,
    with their line-ups, instead of dropping them silently."""
    from simkit.cli import app

    gone = [name for name in folders(done) if not name.startswith("p2")]
    assert len(gone) == 2

    def clone(name: str) -> Path:
        """A copy of the study as a clone has it: the datasets of `gone` are not in git."""
        copy = tmp_path / name
        shutil.copytree(done, copy)
        for folder in gone:
            shutil.rmtree(copy / folder)
        return copy

    def two_players(out: Path):
        return CliRunner().invoke(
            app,
            [
                "study",
                "first-player",
                "--players",
                "2",
                "--games",
                str(GAMES),
                "--seed",
                "3",
                "--policy",
                "random",
                "--out",
                str(out),
                "--quiet",
            ],
        )

    copy = clone("copy")
    outcome = run_study(first_player(2), copy)
    assert outcome.games_played == 0
    assert sorted(c.folder(3) for c in outcome.left_out) == sorted(gone)
    assert len(pd.read_csv(copy / "summary.csv")) == 1
    result = two_players(clone("again"))
    assert result.exit_code == 0, result.output
    assert "left out of the summary: 2 configurations" in result.output and "(random)" in result.output
    complete = two_players(copy)
    assert complete.exit_code == 0 and "left out" not in complete.output  # said once, when it happened


def test_another_study_is_refused_naming_what_differs_unless_overwrite(done, tmp_path):
    """The refusal names both studies' differing fields; --overwrite says what it replaced."""
    copy = tmp_path / "copy"
    shutil.copytree(done, copy)
    other_seed = first_player(2, seed=7)
    with pytest.raises(StudyError, match=r"holds another study: seed 7 asked, 3 on disk; use --overwrite"):
        run_study(other_seed, copy)
    no_reshuffle = make_study("first-player", ["random"], GAMES, 3, {"players": 2, "reshuffle": False})
    with pytest.raises(
        StudyError,
        match=r"reshuffle False asked, \(default\) on disk.*"
        r"runs/first-player-noreshuffle-s3",
    ):
        run_study(no_reshuffle, copy)
    other_kind = make_study("teams", ["random"], 20, 3)
    with pytest.raises(StudyError, match=r"study teams asked, first-player on disk"):
        run_study(other_kind, copy)
    replaced = run_study(other_seed, copy, overwrite=True)
    assert replaced.replaced == "the first-player study, seed 3"
    assert json.loads((copy / "study.json").read_text())["identity"]["seed"] == 7
    assert not (copy / "p3t3-random").exists()


def test_a_run_the_code_would_play_differently_is_refused_then_replayed_alone(tmp_path, monkeypatch):
    """A configuration's folder holding a run made with other policy parameters (a default changed since)
    is neither counted nor resumed: the study is refused before it writes anything, naming the folder and
    the parameter; --overwrite replays that folder alone and keeps the study's other runs."""
    from dataclasses import replace

    from simkit.game.players import PLAYERS

    out = tmp_path / "study"
    study = first_player(2, policies=("random", "greedy"), games=200)
    run_study(study, out)
    before = (out / "study.json").read_text()
    kept = {p.name: p.stat().st_mtime_ns for p in (out / "p2t2-random").glob("part-*.parquet")}
    greedy = PLAYERS["greedy"]
    monkeypatch.setitem(PLAYERS, "greedy", replace(greedy, layout=Layout.of(("own", GREEDY.with_defaults(build=2.0)))))
    with pytest.raises(
        StudyError,
        match=r"holds 1 run that this simkit would play differently: p2t2-greedy "
        r"\(greedy's build 2 asked, 1 on disk\)\. Use --overwrite to replay it",
    ):
        run_study(study, out)
    assert (out / "study.json").read_text() == before
    outcome = run_study(study, out, overwrite=True)
    assert outcome.games_played == 200
    assert {p.name: p.stat().st_mtime_ns for p in (out / "p2t2-random").glob("part-*.parquet")} == kept
    record = {c["folder"]: c["run_id"] for c in json.loads((out / "study.json").read_text())["configurations"]}
    assert record["p2t2-greedy"] == json.loads((out / "p2t2-greedy" / ds.MANIFEST).read_text())["run_id"]
    assert run_study(study, out).games_played == 0
    # a stale run of an earlier command's line-up is refused too, and replayed by a command without it
    monkeypatch.setitem(PLAYERS, "greedy", replace(greedy, layout=Layout.of(("own", GREEDY.with_defaults(build=3.0)))))
    random_only = first_player(2, policies=("random",), games=200)
    with pytest.raises(StudyError, match=r"p2t2-greedy \(greedy's build 3 asked, 2 on disk\)"):
        run_study(random_only, out)
    replayed = run_study(random_only, out, overwrite=True)
    assert replayed.games_played == 200 and not replayed.left_out
    assert [c.folder(3) for c in replayed.configs] == ["p2t2-random", "p2t2-greedy"]


def test_non_default_options_name_the_default_folder():
    """Without --out a study with non-default options writes to a folder named after them."""
    assert default_folder(make_study("hand-size")) == "hand-size"
    assert default_folder(make_study("hand-size", rules={"players": 4})) == "hand-size"  # a table of it
    assert default_folder(make_study("skill", seed=7)) == "skill-s7"
    assert default_folder(make_study("first-player", rules={"players": 4})) == "first-player"  # a table of it
    assert default_folder(make_study("first-player", rules={"late_card": 2})) == "first-player-late2"
    # the families, like the tables, choose among the study's searches: such a command joins the study
    assert default_folder(make_study("compensation", families=["handicap"])) == "compensation"
    assert make_study("compensation", families=["handicap"]).identity() == make_study("compensation").identity()
    # a per-seat option is read at the table the command chooses (it was read at two players: an error)
    three = make_study("compensation", rules={"players": 3, "hand_size": "6,7,7"})
    assert default_folder(three) == "compensation-h6,7,7"


def test_hand_size_study_sweeps_then_penalises_and_compensates_with_paired_shifts(tmp_path):
    study = make_study(
        "hand-size", ["random"], 300, 5, {"players": 4}, sizes=[5, 6], parts=["penalties", "compensation"]
    )
    outcome = run_study(study, tmp_path)
    assert outcome.tables is not None
    summary = outcome.tables.summary
    kinds = list(zip(summary["study_group"], summary["label"], summary["hand_size"]))
    assert kinds == [
        ("sweep", "5 cards each", "5"),
        ("sweep", "6 cards each", "6"),
        ("penalty", "seat 0 (moves first) one card short", "5,6,6,6"),
        ("penalty", "seat 1 (moves second) one card short", "6,5,6,6"),
        ("penalty", "team 0 one card short (every seat)", "5,6,5,6"),
        ("penalty", "team 1 one card short (every seat)", "6,5,6,5"),
        ("compensation", "every later team one card more", "6,7,6,7"),
    ]
    shifts = outcome.tables.extra["shifts"]
    assert list(shifts["label"]) == ["everyone one card fewer than usual", *summary["label"][2:]]
    assert list(shifts["hand_size"]) == list(summary["hand_size"][[0, 2, 3, 4, 5, 6]])
    assert set(shifts["reference_hand_size"]) == {"6"}
    even = summary.iloc[1]
    for row, (_, config) in zip(shifts.itertuples(), summary.iloc[[0, 2, 3, 4, 5, 6]].iterrows()):
        assert row.shift == pytest.approx(config.advantage - even.advantage, abs=1e-9)
        assert row.shift_low < row.shift < row.shift_high and row.unpaired_low < row.shift < row.unpaired_high
        assert -1 <= row.correlation <= 1 and row.p_holm >= row.p_value
    assert (tmp_path / "hand_size.png").exists() and (tmp_path / "hand_size_shifts.png").exists()
    text = (tmp_path / "summary.md").read_text()
    assert "Shifts from the even game" in text and "correlation was" in text and "Not played" not in text


def test_hand_size_sizes_play_what_was_asked_and_the_usual_hand_each_size_and_step_a_shift(tmp_path):
    """--sizes 3,4,5 at two players (usual hand 7) plays 3, 4, 5 and 7 cards each, nothing else; each size
    has its shift from 7 cards and each one-card step its shift from the size above, with its interval, all
    in one Holm family; the summary says how to play the penalties and the compensation."""
    from simkit.commands.study_output import rich_table
    from simkit.studies import hand_size

    study = make_study("hand-size", ["random"], 3000, 5, {"players": 2}, sizes=[5, 3, 4])
    outcome = run_study(study, tmp_path)
    assert outcome.tables is not None
    summary = outcome.tables.summary
    assert list(summary["label"]) == ["3 cards each", "4 cards each", "5 cards each", "7 cards each"]
    assert sorted(p.name for p in tmp_path.glob("p2t2-*")) == ["p2t2-random", *(f"p2t2-random-h{h}" for h in (3, 4, 5))]
    shifts = outcome.tables.extra["shifts"]
    changes = list(zip(shifts["label"], shifts["hand_size"], shifts["reference_hand_size"], shifts["step"]))
    assert changes == [
        ("everyone 4 cards fewer than usual", "3", "7", False),
        ("everyone 3 cards fewer than usual", "4", "7", False),
        ("everyone 2 cards fewer than usual", "5", "7", False),
        ("everyone one card fewer, 4 to 3", "3", "4", True),
        ("everyone one card fewer, 5 to 4", "4", "5", True),
    ]
    advantage = dict(zip(summary["hand_size"], summary["advantage"]))
    for r in shifts.itertuples():
        assert r.shift == pytest.approx(advantage[r.hand_size] - advantage[r.reference_hand_size], abs=1e-12)
        assert r.even_advantage == pytest.approx(advantage[r.reference_hand_size], abs=1e-12)
        assert r.shift_low < r.shift < r.shift_high and 0 < r.shift_high - r.shift_low < 0.1
    assert list(shifts["p_holm"]) == pytest.approx(list(stats.holm(shifts["p_value"])))
    on_disk = pd.read_csv(tmp_path / "shifts.csv")
    assert list(on_disk["label"]) == list(shifts["label"])
    text = (tmp_path / "summary.md").read_text()
    assert "The 5 shifts are tested together (Holm)" in text and "no effect" not in text
    assert "| everyone one card fewer, 5 to 4 " in text
    assert "The same command with `--with penalties --with compensation` plays them" in text
    lines = printed_lines(rich_table(hand_size.shifts_terminal_table(shifts), "shifts"), 100)
    assert len(lines) == 3 + len(shifts) and max(map(len, lines)) <= 100  # a row to a line at 100 columns
    # --with plays a part into the same study (it is not the study's identity), the sweep's games kept
    assert (
        study.identity()
        == make_study("hand-size", ["random"], 3000, 5, {"players": 2}, sizes=[5, 3, 4], parts=["penalties"]).identity()
    )
    more = make_study("hand-size", ["random"], 3000, 5, {"players": 2}, sizes=[5, 3, 4], parts=["penalties"])
    again = run_study(more, tmp_path)
    assert again.games_played == 2 * 3000 and again.tables is not None
    assert list(again.tables.summary["study_group"]) == ["sweep"] * 4 + ["penalty"] * 2
    assert len(again.tables.extra["shifts"]) == 7
    text = (tmp_path / "summary.md").read_text()
    assert "The same command with `--with compensation` plays it" in text


def test_hand_size_without_sizes_plays_every_part():
    """The default study (as published): the sweep 3..9, the penalties and the compensation; --sizes alone
    plays its sweep and the usual hand; --with chooses the parts."""
    from simkit.studies import hand_size

    def groups(**options) -> list[str]:
        _, rows = hand_size.variants(make_study("hand-size", rules={"players": 4}, **options))
        return [f"{group}:{sizes[0]}" if group == "sweep" else group for group, _, sizes in rows]

    penalties = ["penalty"] * 4
    assert groups() == [f"sweep:{h}" for h in range(3, 10)] + penalties + ["compensation"]
    assert groups(sizes=[4, 5]) == ["sweep:4", "sweep:5", "sweep:6"]
    assert groups(sizes=[4, 5], parts=["compensation"]) == ["sweep:4", "sweep:5", "sweep:6", "compensation"]
    assert groups(parts=["penalties"]) == [f"sweep:{h}" for h in range(3, 10)] + penalties


def test_skill_study_scores_pairs_and_rates_them_anchored_at_greedy(tmp_path):
    outcome = run_study(make_study("skill", ["random", "greedy"], 400, 5), tmp_path)
    assert outcome.tables is not None
    pairs, ratings = outcome.tables.extra["pairs"], outcome.tables.extra["ratings"]
    rows = read_games(tmp_path / folders(tmp_path)[0])
    a_team = rows["game"] % 2  # random is team 0 in even games, team 1 in odd ones
    a_wins = int((rows["winner_team"] == a_team).sum())
    draws = int((rows["winner_team"] < 0).sum())
    assert pairs.loc[0, "a_wins"] == a_wins and pairs.loc[0, "draws"] == draws
    score = (a_wins + draws / 2) / 400
    assert pairs.loc[0, "a_score"] == pytest.approx(score)
    by = ratings.set_index("policy")
    assert by.loc["greedy", "rating"] == 0  # the anchor
    # Two players: the rating is the Elo-scaled log-odds of the score.
    assert by.loc["random", "rating"] == pytest.approx(400 * math.log10(score / (1 - score)), rel=1e-4)
    assert by.loc["random", "rating_low"] < by.loc["random", "rating"] < by.loc["random", "rating_high"]
    assert "from a coin flip" in (tmp_path / "summary.md").read_text()


def test_teams_study_lists_each_configuration_once():
    """6 players in 2 teams needing 2 sequences is one configuration, listed (and tested) once."""
    from simkit.studies.kind import Results

    configs = KINDS["teams"].plan(make_study("teams", ["random"], 10), Results(Path("."), 1))
    labels = [c.label for c in configs]
    assert labels[:4] == [
        "6 players in 2 teams",
        "6 players in 3 teams",
        "12 players in 2 teams",
        "12 players in 3 teams",
    ]
    assert "2 players, 3 sequences to win" in labels and "6 players, 1 sequence to win" in labels
    assert "6 players, 2 sequences to win" not in labels and "12 players, 2 sequences to win" not in labels
    # every two-team table needs 1, 2 or 3 sequences: 4 split configurations, 6 x 3 - 2 sequences ones
    assert "10 players, 3 sequences to win" in labels and "8 players, 2 sequences to win" in labels
    assert len({c.folder(1) for c in configs}) == len(configs) == 20


def test_shift_studies_play_every_legal_table_casual_and_strong_by_default():
    """hand-size and variants play the 10 legal tables, teams 6 and 12 players in two or three teams and every
    two-team table's sequences; random, greedy and swift, swift at SHIFT_GAMES (each shift within ±1 pp)."""
    from simkit.studies.kind import SHIFT_GAMES, shift_decided_games

    assert shift_decided_games() == math.ceil(2 * stats.Z**2 * 0.25 / 0.01**2) == 19_208
    assert SHIFT_GAMES == 20_000 >= shift_decided_games()
    # at three teams (share 1/3) SHIFT_GAMES leave room for 14% of stalemates
    assert SHIFT_GAMES * (1 - 0.14) >= shift_decided_games(share=1 / 3)
    two_team = [(p, t) for p, t in LEGAL_TABLES if t == 2]
    expected = {"hand-size": set(LEGAL_TABLES), "variants": set(LEGAL_TABLES), "teams": {(6, 3), (12, 3), *two_team}}
    for name, tables in expected.items():
        study = make_study(name)
        assert study.lineups == {"random": 1_000_000, "greedy": 1_000_000, "swift": SHIFT_GAMES}
        configs = KINDS[name].plan(study, Results(Path("."), 1))
        assert {(c.rules.players, c.rules.teams) for c in configs} == tables, name
        assert {c.lineup.spec for c in configs} == {"random", "greedy", "swift"}
    teams = KINDS["teams"].plan(make_study("teams"), Results(Path("."), 1))
    for p, t in two_team:
        assert {c.rules.sequences_to_win for c in teams if (c.rules.players, c.rules.teams) == (p, t)} == {1, 2, 3}
    # --players and --teams narrow a study to the tables asked for
    for name in expected:
        six = KINDS[name].plan(make_study(name, ["random"], 10, rules={"players": 6}), Results(Path("."), 1))
        assert {(c.rules.players, c.rules.teams) for c in six} == {(6, 2), (6, 3)}, name
        one = make_study(name, ["random"], 10, rules={"players": 6, "teams": 3})
        assert {(c.rules.players, c.rules.teams) for c in KINDS[name].plan(one, Results(Path("."), 1))} == {(6, 3)}


def test_hand_size_default_sweep_is_what_the_deck_can_deal_at_each_table():
    """Without --sizes each table sweeps the sizes of 3..9 the deck deals (12 players: 3..8); a size given that
    a table cannot be dealt is refused."""
    from simkit.studies import hand_size

    study = make_study("hand-size", ["random"], 10)
    for players, teams in [(2, 2), (9, 3), (12, 2), (12, 3)]:
        _, rows = hand_size.variants(study, (players, teams))
        swept = sorted(sizes[0] for group, _, sizes in rows if group == "sweep")
        assert swept == [h for h in range(3, 10) if h * players <= 104], (players, teams)
    with pytest.raises(StudyError, match="hand size 9 cannot be dealt to 12 players"):
        KINDS["hand-size"].plan(make_study("hand-size", ["random"], 10, sizes=[9]), Results(Path("."), 1))


def test_hand_size_at_two_tables_measures_each_change_at_its_own_table(tmp_path):
    """At 6 players in two and three teams every shift is against the even game of its own table and line-up,
    the figure of every table is drawn, and summary.md opens with what changes and where."""
    study = make_study("hand-size", ["random"], 300, 5, {"players": 6}, sizes=[4], parts=["penalties"])
    outcome = run_study(study, tmp_path)
    assert outcome.tables is not None
    s, summary = outcome.tables.extra["shifts"], outcome.tables.summary
    assert set(zip(s["players"], s["teams"])) == {(6, 2), (6, 3)}
    advantage = {(r.players, r.teams, r.hand_size): r.advantage for r in summary.itertuples()}
    for r in s.itertuples():
        assert r.shift == pytest.approx(
            advantage[r.players, r.teams, r.hand_size] - advantage[r.players, r.teams, r.reference_hand_size], abs=1e-12
        )
    assert (s[s["teams"] == 3]["label"] == "team 2 one card short (every seat)").sum() == 1
    assert (tmp_path / "hand_size_tables.png").exists() and not (tmp_path / "hand_size_shifts.png").exists()
    text = (tmp_path / "summary.md").read_text()
    assert text.index("## What changes and where") < text.index("Regenerate with")
    assert "6p/3t: team 2 one card short" in text


def test_teams_study_shifts_sequences_and_team_counts_at_their_tables(tmp_path):
    """Each number of sequences against the rules' 2 at its table (paired), three teams against two at the
    same players (relative advantage, independent games), one Holm family; a figure of every table."""
    study = make_study("teams", ["random"], 300, 5, {"players": 6})
    outcome = run_study(study, tmp_path)
    assert outcome.tables is not None
    s = outcome.tables.extra["shifts"].set_index("change")
    summary = outcome.tables.summary.set_index("label")
    one = s.loc["1 sequence to win, not 2"]
    assert one["shift"] == pytest.approx(
        summary.loc["6 players, 1 sequence to win", "advantage"] - summary.loc["6 players in 2 teams", "advantage"],
        abs=1e-12,
    )
    three = s.loc["3 teams, not 2"]
    assert three["shift"] == pytest.approx(
        summary.loc["6 players in 3 teams", "relative_advantage"]
        - summary.loc["6 players in 2 teams", "relative_advantage"],
        abs=1e-9,
    )
    assert three["shift_low"] < three["shift"] < three["shift_high"] and not three["paired"]
    assert list(s["p_holm"]) == pytest.approx(list(stats.holm(s["p_value"])))
    assert (tmp_path / "teams_tables.png").exists()
    assert (tmp_path / "summary.md").read_text().count("## What changes and where") == 1


def test_what_changes_names_only_shifts_that_survive_holm_and_where_casual_and_strong_play_differ():
    from simkit.studies.summary import what_changes

    def row(players, teams, policies, strength, change, shift, half, p_holm):
        return dict(
            players=players, teams=teams, policies=policies, strength=strength, games=20_000, change=change,
            shift=shift, low=shift - half, high=shift + half, p_holm=p_holm,
        )  # fmt: skip

    frame = pd.DataFrame(
        [
            row(2, 2, "greedy", "casual", "seat 0 short", -0.0625, 0.0015, 1e-9),
            row(2, 2, "swift", "strong", "seat 0 short", -0.004, 0.01, 0.6),
            row(4, 2, "greedy", "casual", "seat 0 short", -0.05, 0.0015, 1e-9),
            row(4, 2, "swift", "strong", "seat 0 short", -0.05, 0.01, 1e-5),
            row(2, 2, "greedy", "casual", "no reshuffle", 0.001, 0.0015, 0.9),
            row(2, 2, "swift", "strong", "no reshuffle", -0.002, 0.01, 0.9),
            row(2, 2, "greedy", "casual", "late card", -0.004, 0.0015, 1e-6),
            row(2, 2, "swift", "strong", "late card", 0.003, 0.01, 0.9),
            row(4, 2, "greedy", "casual", "late card", -0.004, 0.0015, 1e-6),
            row(4, 2, "swift", "strong", "late card", -0.001, 0.01, 0.9),
        ]
    )
    text = what_changes(frame, "team 0's advantage")
    assert text.startswith("## What changes and where")
    assert "±1.00 pp" in text and "20,000 games per configuration" in text
    seat = next(line for line in text.splitlines() if line.startswith("- **seat 0 short**"))
    assert "3 of its 4 rows" in seat and "2 of 2 casual, 1 of 2 strong" in seat
    assert "-6.25 pp [-6.40, -6.10] (2p/2t, greedy)" in seat
    # strong minus casual, Holm over the 5 comparisons: 2p/2t differs by far more than its interval; 4p/2t not
    assert "Casual and strong play differ (strong play's shift minus casual play's, Holm over the section's 5" in seat
    assert "2p/2t, swift minus greedy: +5.85 pp [+4.84, +6.86]" in seat and "4p/2t, swift minus" not in seat
    late = next(line for line in text.splitlines() if line.startswith("- **late card**"))
    # casual play shows a shift that strong play's intervals hold too: its span is said, and no difference
    assert "2 of 2 casual, 0 of 2 strong" in late
    assert "Strong play's estimates, none surviving, run from -0.10 pp [-1.10, +0.90] (4p/2t, swift)" in late
    assert "differ at no table beyond Holm's correction over the section's 5 comparisons" in late
    assert "the largest difference, 2p/2t, swift minus greedy: +0.70 pp [-0.31, +1.71]" in late
    assert "- **no reshuffle**: no shift survives Holm" in text
    for word in ("fair", "no effect"):
        assert word not in text


def test_a_casual_strong_difference_says_how_far_the_deals_its_line_ups_share_could_move_it():
    """Every line-up plays the study's seed, so swift's 20,000 games share their deals with the first 20,000 of
    greedy's 1,000,000: the two shifts correlate by at most sqrt(20,000 / 1,000,000) = 0.14, which bounds how
    far their difference's interval, taken as independent, is from the true one; with as many games on both,
    nothing bounds it and the sentence says so. A correlated simulation stays within the bound."""
    from simkit.studies.summary import casual_strong_differences, shared_deals

    def row(policies, strength, games, half):
        return dict(
            players=2, teams=2, policies=policies, strength=strength, games=games, change="c", shift=0.0,
            low=-half, high=half, p_holm=1.0,
        )  # fmt: skip

    frame = pd.DataFrame([row("greedy", "casual", 1_000_000, 0.0015), row("swift", "strong", 20_000, 0.01)])
    d = casual_strong_differences(frame)
    assert d.shared.iloc[0] == pytest.approx(np.sqrt(0.02))
    said = shared_deals(d)
    assert "the 20,000 games of one share their deals with the first 20,000 of the other's 1,000,000" in said
    assert "correlates the two shifts by at most 0.14" in said and f"{100 * d.moved.iloc[0]:.1f}% narrower" in said
    # the bound: two means over per-game terms sharing their first n of N games, fully correlated there
    rng = np.random.default_rng(1)
    n, big, draws = 200, 10_000, 4_000
    common = rng.standard_normal((draws, n))
    strong = common.mean(axis=1)
    casual = (common.sum(axis=1) + rng.standard_normal((draws, big - n)).sum(axis=1)) / big
    assert abs(np.corrcoef(strong, casual)[0, 1]) <= np.sqrt(n / big) + 0.03
    same = casual_strong_differences(
        pd.DataFrame([row("greedy", "casual", 20_000, 0.01), row("swift", "strong", 20_000, 0.01)])
    )
    assert "share every deal and those intervals are only approximate" in shared_deals(same)


def test_shift_grid_draws_every_table_casual_beside_strong():
    from simkit.presentation import plots

    frame = pd.DataFrame(
        [
            dict(
                players=p, teams=t, policies=spec, strength=kind, change=change,
                shift=0.01, low=0.0, high=0.02, p_holm=0.01 if spec == "greedy" else 0.5,
            )
            for p, t in LEGAL_TABLES
            for spec, kind in (("greedy", "casual"), ("swift", "strong"))
            for change in ("a", "b", "c", "d")
        ]
    )  # fmt: skip
    figure = plots.shift_grid(frame, "shift", "Changes")
    title = figure.get_suptitle()
    assert all(f"{p}p/{t}t" in title for p, t in LEGAL_TABLES) and "strong play: swift" in title
    visible = [ax for ax in figure.axes if ax.get_visible()]
    assert [ax.get_title() for ax in visible] == ["a", "b", "c", "d"]
    assert [t.get_text() for t in visible[0].get_xticklabels()] == [f"{p}p/{t}t" for p, t in LEGAL_TABLES]
    # a change played at some tables only shows those tables
    some = frame[(frame["change"] != "d") | (frame["teams"] == 3)]
    last = [ax for ax in plots.shift_grid(some, "shift", "Changes").axes if ax.get_visible()][-1]
    assert [t.get_text() for t in last.get_xticklabels()] == [f"{p}p/{t}t" for p, t in LEGAL_TABLES if t == 3]


def test_variants_study_compares_each_variant_with_the_standard_game_on_the_same_deals(tmp_path):
    study = make_study("variants", ["random"], 300, 5, {"players": 2})
    outcome = run_study(study, tmp_path)
    assert outcome.tables is not None
    s = outcome.tables.extra["shifts"]
    assert list(s["variant"]) == [
        "no reshuffle",
        "no dead-card swap",
        "no reshuffle, no dead-card swap",
        "late card, K = 1",
        "late card, K = 5",
        "late card, K = 10",
    ]
    summary = outcome.tables.summary.set_index("label")
    for r in s.itertuples():
        assert r.advantage_shift == pytest.approx(
            summary.loc[r.variant, "advantage"] - summary.loc["standard", "advantage"], abs=1e-9
        )
        assert r.turns_shift == pytest.approx(summary.loc[r.variant, "duration"] - summary.loc["standard", "duration"])
        assert r.stalemate_shift == pytest.approx(
            summary.loc[r.variant, "drawishness"] - summary.loc["standard", "drawishness"]
        )
    # no reshuffle changes nothing until the pile runs out: its pairs are the most alike
    assert s.set_index("variant").loc["no reshuffle", "turns_shift_correlation"] > 0.5
    assert (tmp_path / "variants.png").exists() and (tmp_path / "variants_tables.png").exists()
    assert set(s["strength"]) == {"casual"}
    head = "# variants study: What do the rule variants change, against the standard game?\n\n"
    assert (tmp_path / "summary.md").read_text().startswith(head + "## What changes and where")


# --- the compensation search -------------------------------------------------------


class Synthetic(Results):
    """Results of a made-up family: team 0's share of the decided games falls linearly with the knob,
    crossing its fair share at `crossing`, exactly (counts equal to their expectation)."""

    def __init__(self, crossing: float, slope: float = 0.004, games: int = 400_000, seed: int = 1):
        super().__init__(Path("."), seed)
        self.crossing, self.slope, self.games = crossing, slope, games
        self.asked: list[str] = []

    def aggregate(self, config):
        from simkit.analysis.aggregate import Aggregate

        self.asked.append(config.label)
        knob = int(str(dict(config.facts)["setting"]).split(",")[0])
        teams = config.rules.teams
        share0 = 1 / teams + self.slope * (self.crossing - knob)
        wins = [round(self.games * share0)] + [round(self.games * (1 - share0) / (teams - 1))] * (teams - 1)
        agg = Aggregate.empty(teams, 10)
        for t, w in enumerate(wins):
            agg.outcomes[0, t + 1, 0, 0] = w
        return agg


@pytest.mark.parametrize("crossing", [0.0, 3.4, 7.6, 10.5])
def test_the_search_brackets_a_known_crossing(crossing):
    from simkit.game.players import Lineup
    from simkit.game.rules import Rules
    from simkit.studies.compensation_search import Search
    from simkit.studies.compensation_text import outcome_text

    rules = Rules.make(12, 2)
    synthetic = Synthetic(crossing)
    search = Search("late_card", rules, Lineup.parse("greedy", rules), 1000, synthetic)
    search.run()
    low, up = search.bracket
    if crossing == 0.0:
        assert search.chosen == (0,) and outcome_text(search.outcome) == "no edge at 0: its interval holds zero"
        return
    assert low is not None and up is not None
    assert low[0] < crossing < up[0] and up[0] - low[0] <= 3
    # The setting nearest the crossing; at 10.5, 10 and 11 are equally near, and the fitted line's
    # last bit (10.500000000000002 with numpy 2.4) decides, so either is right.
    assert abs(search.answer()[0] - crossing) <= 0.5
    assert abs(search.crossing - crossing) < 0.2
    assert len(search.points) <= 9  # bisection, not a sweep of all 12 settings


def test_a_search_that_cannot_reach_zero_says_so():
    from simkit.game.players import Lineup
    from simkit.game.rules import Rules
    from simkit.studies.compensation_search import Ending, Search, Steps
    from simkit.studies.compensation_text import outcome_text

    rules = Rules.make(12, 2)
    search = Search("late_card", rules, Lineup.parse("greedy", rules), 1000, Synthetic(40.0))
    search.run()
    assert outcome_text(search.outcome).startswith("cannot reach zero") and search.chosen == (search.high,)
    assert search.outcome.steps == Steps(Ending.CANNOT_REACH, last_above=search.high)  # how it ended, as data


def test_the_three_team_search_moves_both_knobs():
    from simkit.game.players import Lineup
    from simkit.game.rules import Rules
    from simkit.studies.compensation_search import Search

    class TwoKnobs(Synthetic):
        def aggregate(self, config):
            from simkit.analysis.aggregate import Aggregate

            h0, *rest = (int(x) for x in str(dict(config.facts)["setting"]).split(","))
            h1 = rest[0] if rest else 0
            s0 = 1 / 3 + 0.003 * (6.3 - h0)
            s1 = 1 / 3 + 0.002 * (4.2 - h1) - 0.0005 * (6.3 - h0)
            agg = Aggregate.empty(3, 10)
            for t, share in enumerate((s0, s1, 1 - s0 - s1)):
                agg.outcomes[0, t + 1, 0, 0] = round(self.games * share)
            return agg

    rules = Rules.make(3)
    search = Search("handicap", rules, Lineup.parse("greedy", rules), 1000, TwoKnobs(0))
    search.run()
    assert search.chosen == (6, 4)


class Shares(Results):
    """Made-up results: each setting's shares of the decided games from `table` ((h0, h1) -> shares of
    teams 0, 1, 2), `far` elsewhere; `games` decided games per setting, or `by_games(games asked)`."""

    def __init__(self, table: dict, far=(0.36, 0.33, 0.31), games: int = 400_000):
        super().__init__(Path("."), 0)
        self.table, self.far, self.games = table, far, games

    def aggregate(self, config):
        from simkit.analysis.aggregate import Aggregate

        h0, *rest = (int(x) for x in str(dict(config.facts)["setting"]).split(","))
        shares = self.table.get((h0, rest[0] if rest else 0), self.far)
        agg = Aggregate.empty(config.rules.teams, 10)
        for t, share in enumerate(shares):
            agg.outcomes[0, t + 1, 0, 0] = round(self.games * share)
        return agg


def test_the_three_team_polish_keeps_the_neighbour_nearest_fair():
    """Three teams: the eight neighbours of where the coordinate search's steps end are visited, and one
    where both criteria are nearer zero is the answer; every neighbour is asked for (a missing one is
    played: the search resumes there)."""
    from simkit.game.players import Lineup
    from simkit.game.rules import Rules
    from simkit.studies.compensation_search import Need, Search
    from simkit.studies.compensation_text import outcome_text

    rules = Rules.make(3)
    near = {(6, 4): (0.3353, 0.3333, 0.3314), (7, 5): (0.3335, 0.3333, 0.3332), (5, 3): (0.3340, 0.3340, 0.3320)}
    search = Search("handicap", rules, Lineup.parse("greedy", rules), 1000, Shares(near))
    search.visit_neighbours((6, 4))
    assert search.nearest_fair((6, 4)) == (7, 5)
    assert "7,5 is nearest fair (the steps ended at 6,4)" in outcome_text(search.outcome)
    assert len(search.points) == 9
    tie = Search("handicap", rules, Lineup.parse("greedy", rules), 1000, Shares({}))
    tie.visit_neighbours((6, 4))
    assert tie.nearest_fair((6, 4)) == (6, 4) and outcome_text(tie.outcome) == ""  # all alike: the search's own answer

    class Missing(Shares):
        def aggregate(self, config):
            return None if dict(config.facts)["setting"] == "7,5" else super().aggregate(config)

    with pytest.raises(Need) as need:
        Search("handicap", rules, Lineup.parse("greedy", rules), 1000, Missing(near)).visit_neighbours((6, 4))
    assert dict(need.value.config.facts)["setting"] == "7,5"


def test_a_guided_search_does_not_stop_at_a_standard_game_even_by_chance():
    """The standard game's games came out nearly even (its interval holds zero) while every other setting
    falls through even at 8.3: unguided, the search stops at 0; begun at another line-up's answer (9), it goes
    on and finds 8."""
    from simkit.game.players import Lineup
    from simkit.game.rules import Rules
    from simkit.studies.compensation_search import Search
    from simkit.studies.compensation_text import NO_EDGE_AT_0, outcome_text

    rules = Rules.make(2)
    line = {(k, 0): (0.5 + 0.004 * (8.3 - k), 0.5 - 0.004 * (8.3 - k)) for k in range(1, 63)}
    line[0, 0] = (0.5014, 0.4986)  # +0.14 pp, its interval [-0.02, +0.30] holding zero
    alone = Search("late_card", rules, Lineup.parse("greedy", rules), 1000, Shares(line))
    alone.run()
    assert alone.chosen == (0,) and outcome_text(alone.outcome) == NO_EDGE_AT_0
    guided = Search("late_card", rules, Lineup.parse("greedy", rules), 1000, Shares(line), near=(9,))
    guided.run()
    assert guided.chosen == (8,) and outcome_text(guided.outcome).startswith("bracketed")
    assert (0,) in guided.points  # the standard game is played all the same: the edge without a rule


def test_the_answer_is_the_visited_setting_nearest_fair():
    """The steps bracket the crossing and fit a line through the bracket, which ends at 20 (+0.08 pp); the
    bisection visited 19, at 0.00 pp: the answer is 19 (where the steps ended was the answer before)."""
    from simkit.game.players import Lineup
    from simkit.game.rules import Rules
    from simkit.studies.compensation_search import Search
    from simkit.studies.compensation_text import outcome_text

    rules = Rules.make(2)
    lucky = {(k, 0): (0.5 + 0.002 * (20.4 - k), 0.5 - 0.002 * (20.4 - k)) for k in range(63)}
    lucky[19, 0] = (0.5, 0.5)  # a setting whose games came out even
    search = Search("late_card", rules, Lineup.parse("greedy", rules), 1000, Shares(lucky))
    search.run()
    assert search.steps == (20,) and search.bracket == ((18,), (22,))
    assert search.chosen == (19,)
    assert (
        outcome_text(search.outcome)
        == f"bracketed; of the {len(search.points)} settings visited, 19 is nearest fair (the "
        "steps ended at 20)"
    )
    assert search.unfairness((19,)) < search.unfairness((20,))


def test_nearest_fair_weighs_both_criteria_by_their_intervals():
    """Three teams: a setting is as far from fair as the larger of its advantage interval's farthest bound
    over the fair band and its largest gap's upper bound over the gap target (the confirmation's test with
    the margins scaled). Where the steps ended (43,33) is farther than a setting visited on the way (31,15),
    and a setting with team 0 at its fair share but teams 1 and 2 far apart (20,0) is farther still."""
    from simkit.analysis import stats
    from simkit.game.players import Lineup
    from simkit.game.rules import Rules
    from simkit.studies.compensation_search import FAIR_BAND, GAP_TARGET, Search
    from simkit.studies.compensation_text import outcome_text

    rules = Rules.make(3)
    visited = {
        (43, 33): (0.3487, 0.3233, 0.3280),
        (31, 15): (0.3352, 0.3268, 0.3380),
        (20, 0): (0.3333, 0.3533, 0.3134),
        (0, 0): (0.3600, 0.3300, 0.3100),
    }
    search = Search("handicap", rules, Lineup.parse("lookahead", rules), 5000, Shares(visited, games=5000))
    for knobs in visited:
        search.value(knobs)
    assert search.nearest_fair((43, 33)) == (31, 15)
    assert (
        outcome_text(search.outcome) == "; of the 4 settings visited, 31,15 is nearest fair (the steps ended at 43,33)"
    )
    wins = search.value((31, 15)).agg.wins()
    adv, gap = stats.advantage(wins), stats.max_gap(wins)
    assert search.unfairness((31, 15)) == pytest.approx(
        max(max(-adv.low, adv.high) / FAIR_BAND["strong"], gap.high / GAP_TARGET["strong"])
    )
    assert search.unfairness((20, 0)) > search.unfairness((31, 15))


@pytest.mark.parametrize(
    "share0, looks",
    [
        (0.5030, 2),  # the point fair, the interval across +0.5 pp
        (0.5000, 1),  # fair at the first look
        (0.5100, 1),
    ],
)  # plainly unfair: more games would not help
def test_an_inconclusive_confirmation_takes_a_second_look(share0, looks):
    """A first confirmation whose point estimate is fair but whose interval crosses the band's
    edge goes on to its next look's games on the same seed; a settled one stops."""
    from simkit.game.players import Lineup
    from simkit.game.rules import Rules
    from simkit.studies.compensation_plan import LOOKS, confirmation, first_look
    from simkit.studies.compensation_search import Search

    rules = Rules.make(2)

    class Confirming(Shares):
        def aggregate(self, config):
            self.games = config.games  # each confirmation has exactly the games it asks for
            return super().aggregate(config)

    results = Confirming({(28, 0): (share0, 1 - share0)})
    search = Search("late_card", rules, Lineup.parse("greedy", rules), 100_000, results)
    search.chosen = (28,)
    search.value((28,))
    first = first_look(search)
    assert first >= 150_000  # 0.25 pp on team 0's share
    config = confirmation(search, 2026)
    assert config.seed == 2027 and config.games == first * LOOKS["casual"][looks - 1]


@pytest.mark.parametrize(
    "share0, on_disk, asked",
    [
        (0.5080, 1, 2),  # +0.8 pp: inconclusive at each look
        (0.5080, 2, 4),
        (0.5080, 4, 4),  # the last look ends it
        (0.5080, 3, 4),  # an interrupted look resumes
        (0.5040, 1, 2),
        (0.5040, 2, 2),
    ],
)  # +0.4 pp: settled at the second
def test_a_strong_confirmation_looks_again_while_inconclusive(share0, on_disk, asked):
    """Under a strong line-up a confirmation goes on from its first look to 2, then 4 times its games
    while each look is inconclusive, deciding from the games on disk (in multiples of the first look's)."""
    from simkit.game.players import Lineup
    from simkit.game.rules import Rules
    from simkit.studies.compensation_plan import confirmation, first_look, looks_taken
    from simkit.studies.compensation_search import Search

    rules = Rules.make(2)

    class OnDisk(Shares):
        confirmed = 0  # the confirmation's games on disk

        def aggregate(self, config):
            if dict(config.facts)["role"] == "confirmation":
                if config.games > self.confirmed:
                    return None  # not played that far
                self.games = self.confirmed
            return super().aggregate(config)

    results = OnDisk({(24, 0): (share0, 1 - share0)}, games=5_000)
    search = Search("late_card", rules, Lineup.parse("lookahead", rules), 5_000, results)
    search.chosen = (24,)
    search.value((24,))
    first = first_look(search)
    results.confirmed = on_disk * first
    config = confirmation(search, 2026)
    assert config.seed == 2027 and config.games == asked * first
    assert looks_taken(search, config) == {1: 1, 2: 2, 4: 3}[asked]


class BySeed(Results):
    """Made-up results: on each seed, two teams' shares fall linearly with the knob and cross even at that
    seed's `crossings` value (exactly: counts equal to their expectation); every configuration has the
    games it asks for."""

    def __init__(self, crossings: dict[int, float], slope: float = 0.01, seed: int = 2026):
        super().__init__(Path("."), seed)
        self.crossings, self.slope = crossings, slope
        self.asked: list[tuple[str, int, int]] = []

    def aggregate(self, config):
        from simkit.analysis.aggregate import Aggregate

        seed = config.seed_of(self.seed)
        self.asked.append((dict(config.facts)["setting"], seed, config.games))
        share0 = 0.5 + self.slope * (self.crossings[seed] - int(dict(config.facts)["setting"]))
        agg = Aggregate.empty(2, 10)
        agg.outcomes[0, 1, 0, 0], agg.outcomes[0, 2, 0, 0] = (
            round(config.games * share0),
            round(config.games * (1 - share0)),
        )
        return agg


def test_a_strong_answer_not_confirmed_fair_is_refined_and_confirmed_on_fresh_seeds():
    """A strong line-up's search (5,000 games per setting) ends a step off the crossing of its deals (18.4 on
    the search's seed, 17.2 on any other): its confirmation is not fair, so the settings around the answer
    are played again on seed + 3, REFINE_GAMES each, the fitted line chooses 17, and 17 is confirmed on
    seed + 4; the first confirmation keeps its row as 'first confirmation'. The plan asks for all of it."""
    from simkit.studies.compensation_plan import plan, searches
    from simkit.studies.compensation_search import REFINE_GAMES
    from simkit.studies.compensation_text import outcome_text

    study = make_study("compensation", ["lookahead"], 5000, 2026, {"players": 4, "teams": 2}, families=["handicap"])
    results = BySeed({2026: 18.4, **{seed: 17.2 for seed in (2027, 2029, 2030)}})
    (guide, _), (search, confirm) = searches(study, results)
    assert confirm is not None and search.first_confirmation is not None
    assert guide.guide and search.first == (18,) and search.chosen == (17,)
    assert search.crossing == pytest.approx(17.2, abs=0.05)  # the refinement's fitted line
    assert sorted(search.refined) == [(16,), (17,), (18,), (19,), (20,)]
    assert {p.config.seed for p in search.refined.values()} == {2029}
    assert {p.config.games for p in search.refined.values()} == {REFINE_GAMES["strong"]}
    assert confirm.seed == 2030 and dict(confirm.facts)["setting"] == "17"
    assert dict(search.first_confirmation.facts)["role"] == "first confirmation"
    assert search.first_confirmation.seed == 2027
    assert (
        "so the settings around 18 were played again, 20,000 games each on seed 2029: 17 is nearest "
        "fair on the line fitted through the last of them" in outcome_text(search.outcome)
    )
    roles = [dict(c.facts)["role"] for c in plan(study, results)]
    assert roles.count("refinement") == 5 and roles.count("first confirmation") == 1


def test_a_refinement_follows_its_fit_beyond_the_settings_it_played():
    """The refinement's deals cross even at 14.6, far below the first answer 18: the line through 16..20
    puts the setting nearest fair at 15, beyond them, so a second round plays 13..17 around it; its line
    chooses 15, among the settings it played."""
    from simkit.studies.compensation_plan import searches
    from simkit.studies.compensation_search import REFINE_ROUNDS
    from simkit.studies.compensation_text import outcome_text

    study = make_study("compensation", ["lookahead"], 5000, 2026, {"players": 4, "teams": 2}, families=["handicap"])
    search, confirm = searches(study, BySeed({2026: 18.4, 2027: 14.6, 2029: 14.6, 2030: 14.6}))[-1]
    assert confirm is not None
    assert search.first == (18,) and search.chosen == (15,) and confirm.seed == 2030
    assert sorted(search.refined) == [(k,) for k in range(13, 21)] and REFINE_ROUNDS >= 2
    assert "so the settings around 18, then around 15 (2 rounds, 8 settings), were played again" in outcome_text(
        search.outcome
    )


def test_only_a_strong_answer_not_confirmed_fair_is_refined():
    """A greedy search (100,000 games per setting) is not refined, nor a strong one confirmed fair."""
    from simkit.studies.compensation_plan import searches

    fair_everywhere = BySeed({seed: 17.0 for seed in (2026, 2027, 2029, 2030)})
    for lineup in ("greedy", "lookahead"):
        study = make_study("compensation", [lineup], 5000, 2026, {"players": 4, "teams": 2}, families=["handicap"])
        search, confirm = searches(study, fair_everywhere)[-1]
        assert confirm is not None
        assert not search.refined and search.first is None and confirm.seed == 2027
    greedy = make_study("compensation", ["greedy"], 100_000, 2026, {"players": 4, "teams": 2}, families=["handicap"])
    search, confirm = searches(greedy, BySeed({2026: 18.4, 2027: 17.2}))[-1]
    assert confirm is not None
    assert not search.refined and confirm.seed == 2027


def test_a_refinement_chooses_on_the_fitted_plane_not_a_lucky_setting():
    """Three teams: the refinement's nine settings follow a plane whose shares are nearest equal at (6,4);
    at (8,6) the games happened to come out even. The fitted plane still chooses (6,4); the settings'
    own values alone would choose (8,6)."""
    from simkit.analysis.aggregate import Aggregate
    from simkit.game.players import Lineup
    from simkit.game.rules import Rules
    from simkit.studies.compensation_search import Point, Search, fitted_nearest_fair

    rules = Rules.make(3)
    search = Search("handicap", rules, Lineup.parse("greedy", rules), 20_000, Shares({}))  # its configurations

    def point(h0, h1, games=20_000):
        s0 = 1 / 3 + 0.003 * (6.3 - h0)
        s1 = 1 / 3 + 0.002 * (4.2 - h1) - 0.0005 * (6.3 - h0)
        shares = (1 / 3, 1 / 3, 1 / 3) if (h0, h1) == (8, 6) else (s0, s1, 1 - s0 - s1)
        agg = Aggregate.empty(3, 10)
        for t, share in enumerate(shares):
            agg.outcomes[0, t + 1, 0, 0] = round(games * share)
        return Point((h0, h1), search.config((h0, h1)), agg)

    points: dict[tuple[int, ...], Point] = {(h0, h1): point(h0, h1) for h0 in (6, 7, 8) for h1 in (4, 5, 6)}
    best, crossing = fitted_nearest_fair(points, 3)
    assert best == (6, 4) and 5.5 < crossing < 7.5  # team 0's fitted advantage crosses zero near 6.3
    alone, no_fit = fitted_nearest_fair({(8, 6): points[8, 6]}, 3)
    assert alone == (8, 6) and math.isnan(no_fit)  # one setting: no fit, no crossing


def test_a_compensation_study_confirms_resumes_and_then_plays_nothing(tmp_path):
    study = make_study("compensation", ["greedy"], 6000, 4, {"players": 12, "teams": 2}, families=["handicap"])
    stopped = run_study(study, tmp_path, events=StopAfter(15_000))
    assert stopped.interrupted
    resumed = run_study(study, tmp_path)
    assert not resumed.interrupted and resumed.games_played > 0
    summary = pd.read_csv(tmp_path / "summary.csv")
    confirmation = summary[summary["role"] == "confirmation"]
    assert len(confirmation) == 1 and confirmation["seed"].iloc[0] == 5  # a fresh seed
    assert confirmation["games"].iloc[0] >= 150_000  # a 0.25 pp half-width on team 0's share
    assert {
        "players",
        "teams",
        "policies",
        "family",
        "setting",
        "role",
        "seed",
        "games",
        "advantage",
        "advantage_low",
        "advantage_high",
        "share_0_low",
        "max_gap_high",
        "run_args",
    } <= set(summary.columns)
    args = confirmation["run_args"].iloc[0]
    assert args.startswith("--players 12 --teams 2 --handicap ") and "--policy greedy" in args
    again = run_study(study, tmp_path)
    assert again.games_played == 0
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "summary.csv"), summary)
    assert (tmp_path / "compensation_handicap.png").exists()
    # another family by its own command joins the study; the summary keeps every search on disk, even
    # one whose command stopped before it listed its configurations in study.json
    record = json.loads((tmp_path / "study.json").read_text())
    record["configurations"] = []
    (tmp_path / "study.json").write_text(json.dumps(record))
    more = make_study("compensation", ["greedy"], 6000, 4, {"players": 12, "teams": 2}, families=["late_card"])
    assert run_study(more, tmp_path).games_played > 0
    verdicts = pd.read_csv(tmp_path / "verdicts.csv")
    assert sorted(verdicts["family"]) == ["handicap", "late_card"] and set(verdicts["looks"]) <= {1, 2}
    both = pd.read_csv(tmp_path / "summary.csv")
    assert len(both[both["family"] == "handicap"]) == len(summary)  # the first command's rows, all there


def test_one_family_of_a_compensation_study_writes_its_own_rows_alone(tmp_path):
    """Every family's setting 0 is the standard game, one folder. Random play at 12p/2t on 200 games has no
    edge the search can see at 0: the late_card search stops there and confirms setting 0, which the
    handicap search would find on disk too; the summary lists the handicap search only once a command asks
    for it, and keeps both families' rows through later commands."""

    def families() -> list[str]:
        verdicts = sorted(pd.read_csv(tmp_path / "verdicts.csv")["family"])
        assert sorted(pd.read_csv(tmp_path / "summary.csv")["family"].unique()) == verdicts
        return verdicts

    def study(family: str):
        return make_study("compensation", ["random"], 200, 4, {"players": 12, "teams": 2}, families=[family])

    run_study(study("late_card"), tmp_path)
    assert families() == ["late_card"]
    assert pd.read_csv(tmp_path / "verdicts.csv")["setting"].tolist() == [0]  # it stopped at setting 0
    assert not (tmp_path / "compensation_handicap.png").exists()
    assert run_study(study("handicap"), tmp_path).games_played == 0  # the same games, on disk
    assert families() == ["handicap", "late_card"]
    for family in ("handicap", "late_card"):
        run_study(study(family), tmp_path)
        assert families() == ["handicap", "late_card"]


def test_a_compensation_answer_is_checked_by_another_line_up_with_its_wall_time(tmp_path):
    """--check: each confirmed answer is played again by another line-up on seed + 2; the summary says whether
    it holds, each search's wall time, and the standard game's edge the search measured."""
    from simkit.studies.options import CHECK_GAMES

    study = make_study(
        "compensation", ["random"], 200, 4, {"players": 12, "teams": 2}, families=["late_card"], checks=["greedy"]
    )
    run_study(study, tmp_path)
    checks = pd.read_csv(tmp_path / "checks.csv", dtype={"setting": str})
    assert len(checks) == 1 and checks["checked_by"].iloc[0] == "greedy" and checks["found_by"].iloc[0] == "random"
    assert checks["games"].iloc[0] == CHECK_GAMES and checks["seed"].iloc[0] == 6  # the study's seed + 2
    assert checks["holds"].iloc[0] == (abs(checks["advantage"].iloc[0]) <= 0.015)
    assert checks["answer"].iloc[0]  # the setting checked is the search's answer
    assert checks["wall_seconds"].iloc[0] > 0
    verdicts = pd.read_csv(tmp_path / "verdicts.csv")
    assert verdicts["wall_seconds"].iloc[0] > 0 and verdicts["standard_games"].iloc[0] == 200
    text = (tmp_path / "summary.md").read_text()
    assert "## Checked by another player" in text and "## Wall time per table" in text
    summary = pd.read_csv(tmp_path / "summary.csv")
    assert list(summary["role"]).count("check") == 1
    assert run_study(study, tmp_path).games_played == 0  # done: asked again, it plays nothing
    without = make_study("compensation", ["random"], 200, 4, {"players": 12, "teams": 2}, families=["late_card"])
    run_study(without, tmp_path)  # a later command without --check keeps the check on record
    assert len(pd.read_csv(tmp_path / "checks.csv")) == 1


# --- the command line ------------------------------------------------------------


def test_the_docs_metric_table_is_the_registry():
    assert metrics_markdown() in REPORTS_PAGE.read_text(encoding="utf-8")
    assert list(METRICS) == [
        "advantage",
        "relative_advantage",
        "balance",
        "balance_decided",
        "completion",
        "drawishness",
        "timeouts",
        "duration",
        "duration_sd",
        "comebacks",
        "closing_turns",
        "lead_changes",
        "lead_changed",
    ]


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["study", "nonsense"],
            "unknown study 'nonsense'; known: first-player, hand-size, teams, skill, variants, restricted, layouts, "
            "compensation",
        ),
        (["study", "hand-size", "--sizes", "9..3"], "the hand-size sweep is empty"),
        (["study", "hand-size", "--sizes", "0..3"], "hand size 0 cannot be dealt to 2 players"),
        (["study", "hand-size", "--sizes", "three"], "--sizes 'three' must be a range such as 3..9"),
        (["study", "hand-size", "--players", "12", "--sizes", "9"], "hand size 9 cannot be dealt to 12 players"),
        (["study", "hand-size", "--hand-size", "6"], "the hand-size study sets --hand-size itself; leave it out"),
        (["study", "first-player", "--hand-size", "7,7,7"], "--hand-size list 7,7,7 has 3 sizes for 2 seats"),
        (["study", "first-player", "--hand-size", "15"], "deals 120 cards to 8 players; the deck holds 104"),
        (["study", "teams", "--sizes", "3..5"], "--sizes applies to the hand-size study, not to teams"),
        (["study", "hand-size", "--with", "seats"], "--with 'seats' must be penalties or compensation"),
        (["study", "teams", "--with", "penalties"], "--with applies to the hand-size study, not to teams"),
        (["study", "teams", "--sequences-to-win", "3"], "the teams study sets --sequences-to-win itself"),
        (["study", "skill", "--policy", "greedy"], "a skill study needs at least two --policy line-ups"),
        (["study", "skill", "--policy", "greedy", "--policy", "greedy"], "a line-up is given twice"),
        (["study", "first-player", "--policy", "clever"], "unknown player 'clever'"),
        (["study", "first-player", "--games", "0"], "--games must be at least 1"),
        (
            ["study", "compensation", "--family", "komi"],
            "unknown compensation family 'komi'; families: late_card, handicap",
        ),
        (["study", "compensation", "--late-card", "3"], "the compensation study sets --late-card itself"),
        (["study", "compensation", "--players", "5"], "--players must be 2, 3, 4, 6, 8, 9, 10 or 12, got 5"),
        (["study", "first-player", "--family", "handicap"], "--family applies to the compensation study"),
        (["study", "first-player", "--check", "greedy"], "--check applies to the compensation study"),
        (["study", "compensation", "--check", "clever"], "unknown player 'clever'"),
    ],
)
def test_bad_study_input_gets_one_error_line(tmp_path, args, message):
    from simkit.cli import app

    result = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "s")])
    assert result.exit_code == 1, result.output
    err = result.stderr.strip()
    assert err.startswith("error: ") and "\n" not in err and message in err, err
    assert not (tmp_path / "s").exists()


def test_the_study_command_prints_its_key_table(tmp_path):
    from simkit.cli import app

    result = CliRunner().invoke(app, ["study", "teams", "--games", "60", "--out", str(tmp_path), "--policy", "random"])
    assert result.exit_code == 0, result.output
    assert "6p/3t" in result.stdout and "advantage" in result.stdout
    assert "relative: that share over the fair share" in result.stdout  # what the short headers stand for
    skill = CliRunner().invoke(
        app,
        [
            "study",
            "skill",
            "--policy",
            "random",
            "--policy",
            "greedy",
            "--games",
            "60",
            "--out",
            str(tmp_path / "skill"),
        ],
    )
    assert skill.exit_code == 0 and "rating [95% CI]" in skill.stdout  # the ratings on the terminal


def test_a_study_on_a_dask_cluster_gives_the_local_rows(done, tmp_path):
    """--scheduler on a study: one cluster for every configuration, the same games as on this machine."""
    pytest.importorskip("distributed")
    for players in (2, 3, 4):
        outcome = run_study(first_player(players), tmp_path, scheduler="local:2")
        assert outcome.games_played == GAMES
    for name in folders(done):
        pd.testing.assert_frame_equal(read_games(tmp_path / name), read_games(done / name))
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "summary.csv"), pd.read_csv(done / "summary.csv"))


def test_line_ups_keep_one_order_whatever_joined_them():
    """study.json stores line-ups sorted by name; a re-run lists the kind's defaults first, in their order, then
    the others by name, so a summary's rows do not change order between the first run and the next."""
    from simkit.studies.directory import line_up_order

    on_disk = {"greedy": 10, "lookahead": 5, "greedy:block4=800": 10, "random": 10}
    assert list(line_up_order(on_disk, ("random", "greedy"))) == ["random", "greedy", "greedy:block4=800", "lookahead"]


def test_the_whole_compensation_study_keeps_a_per_seat_option_to_its_own_tables(tmp_path):
    """The summary replays every search on disk (`whole`: every table); a per-seat hand size
    (--players 3 --hand-size 6,7,7) does not fit two seats, nor any two-team table (a list cycles over a
    larger table only in step with its teams: the three-team tables), and those tables are left out instead
    of ending the study with an error after its last game."""
    from simkit.studies.compensation_plan import searches, whole
    from simkit.studies.kind import Results

    study = make_study("compensation", ["greedy"], 100, rules={"players": 3, "hand_size": "6,7,7"})
    found = {
        (s.rules.players, s.rules.teams): s.rules.hand_size
        for s, _ in searches(whole(study), Results(tmp_path, study.seed))
    }
    assert (2, 2) not in found and found[3, 3] == (6, 7, 7) and found[6, 3] == (6, 7, 7, 6, 7, 7)
    assert {table for table in found if table[1] == 2} == set()  # 4,5,4-like cycles at 4p/2t and up: refused
    with pytest.raises(RulesError):  # a table chosen on the command line that the option does not fit
        searches(
            make_study("compensation", ["greedy"], 100, rules={"players": 2, "hand_size": "6,7,7"}),
            Results(tmp_path, study.seed),
        )


def test_the_study_help_says_what_each_study_takes():
    """`simkit study --help` gives each kind's tables and options from the fields that decide them
    (StudyKind.accepts), and what it says holds: the options it sets itself are refused, the tables it
    names are played, a table outside them is refused."""
    from typer.testing import CliRunner

    from simkit.cli import app
    from simkit.game.options import OPTIONS
    from simkit.studies.kind import Results

    text = "".join(CliRunner().invoke(app, ["study", "--help"]).stdout.split())
    for kind in KINDS.values():
        assert "".join(kind.accepts().split()) in text, kind.name
        for name in kind.varies:
            if name in kind.restricts:
                continue
            with pytest.raises(StudyError, match=f"sets {OPTIONS[name].flag} itself"):
                make_study(
                    kind.name, ["random"] if kind.name != "skill" else None, 10, rules={name: OPTIONS[name].default}
                )
    results = Results(Path("."), 1)
    for players, teams in LEGAL_TABLES:  # "any other legal table": variants plays each it is given
        study = make_study("variants", ["random"], 10, rules={"players": players, "teams": teams})
        assert {(c.rules.players, c.rules.teams) for c in KINDS["variants"].plan(study, results)} == {(players, teams)}
    assert "6p/3t" not in KINDS["skill"].tables_text()
    with pytest.raises(StudyError, match="two-team table"):
        KINDS["skill"].plan(make_study("skill", ["random", "greedy"], 10, rules={"players": 6, "teams": 3}), results)
    assert "Its own options: --sizes" in KINDS["hand-size"].accepts()
    assert "--family" in KINDS["compensation"].accepts() and "--family" not in KINDS["teams"].accepts()
