"""The explorer's data (simkit.studies.explorer) covers every published study, row for row, with the numbers of
its tables and commands that play them; every published summary.md has its tables' anchors and its links to
the explorer as simkit.studies.summary writes them. The page itself, in a browser: tests/test_explorer_browser.py.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pandas as pd
import pytest

import simkit
from simkit.studies.explorer import MARKER, SOURCES, explorer_data, study_folders
from simkit.studies.summary import _tables, anchored, explorer_link, table_id, tables_line

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "results"


@pytest.fixture(scope="module")
def data() -> dict:
    return explorer_data(RESULTS)


def test_every_published_study_is_in_the_explorer_with_every_row_of_its_tables(data):
    """Each study's folder (a study.json) is a study of the explorer, and each of its kind's tables gives one
    row per line (of the lines its source shows, for a file split by unit); a row's change is one of a kind at
    its table, line-up and table of the study."""
    folders = study_folders(RESULTS)
    assert [s["name"] for s in data["studies"]] == [f.name for f in folders]
    assert {"first-player", "hand-size", "teams", "variants", "skill", "compensation", "confirmation-2"} <= {
        f.name for f in folders
    }
    for study, folder in zip(data["studies"], folders):
        kind = json.loads((folder / "study.json").read_text())["identity"]["study"]
        sources = [s for s in SOURCES[kind] if (folder / s.file).exists()]
        assert [s["file"] for s in study["sources"]] == [s.file for s in sources]
        for i, source in enumerate(sources):
            frame = pd.read_csv(folder / source.file)
            if source.rows is not None:
                frame = frame[frame[source.rows[0]].astype(str) == source.rows[1]]
            assert sum(r["source"] == i for r in study["rows"]) == len(frame) > 0, (folder, source.file)
        keys = [(r["table"], r["lineup"], r["source"], r["change"]) for r in study["rows"]]
        assert len(keys) == len(set(keys)), folder.name


def _row(data: dict, study: str, **where) -> dict:
    (row,) = [r for r in next(s for s in data["studies"] if s["name"] == study)["rows"] if where.items() <= r.items()]
    return row


def test_a_row_shows_its_tables_numbers_games_and_holm_status(data):
    summary = pd.read_csv(RESULTS / "hand-size" / "summary.csv")
    line = summary[(summary.players == 8) & (summary.teams == 2) & (summary.policies == "greedy")]
    line = line[line.label == "9 cards each"].iloc[0]
    row = _row(data, "hand-size", table="8p2t", lineup="greedy", source=0, change="9 cards each")
    value, low, high, p = row["measures"][0]
    assert (value, low, high) == pytest.approx(
        (100 * line.advantage, 100 * line.advantage_low, 100 * line.advantage_high)
    )
    assert p == line.p_holm and row["games"] == line.games and row["confidence"] == 95
    shifts = pd.read_csv(RESULTS / "variants" / "shifts.csv")
    shift = shifts[(shifts.players == 12) & (shifts.teams == 2) & (shifts.policies == "swift")]
    shift = shift[shift.variant == "late card, K = 5"].iloc[0]
    row = _row(data, "variants", table="12p2t", lineup="swift", source=1, change="late card, K = 5")
    assert row["measures"][0] == pytest.approx(
        [100 * shift.advantage_shift, 100 * shift.advantage_shift_low, 100 * shift.advantage_shift_high,
         shift.advantage_shift_p_holm]
    )  # fmt: skip
    assert "run" not in row  # a shift compares two runs
    verdict = _row(data, "confirmation-2", table="3p3t", lineup="greedy", source=1)
    assert verdict["verdict"] is True and verdict["confidence"] == 99.5


def test_each_row_names_the_study_commands_that_play_it_and_a_configuration_its_own_run(data):
    """Every row has a recorded command of its study that plays its line-up at its table (compensation's
    lookahead rows: the commands that --check with it); every configuration (summary.csv) of a study published
    by this simkit has the `simkit run` command that makes the run id its study.json recorded, its seed and
    games (one published by another version has none: this simkit makes other run ids)."""
    for study in data["studies"]:
        published = json.loads((ROOT / "results" / study["name"] / "study.json").read_text(encoding="utf-8"))
        current = published["identity"]["simkit"] == simkit.__version__
        for row in study["rows"]:
            assert row["commands"], (study["name"], row)
            assert current or "run" not in row
            if row["source"] == 0 and current:
                words = shlex.split(row["run"])
                policy = words[words.index("--policy") + 1]  # the row's line-up, or one that holds its player
                assert words[:2] == ["simkit", "run"]
                assert policy == row["lineup"] or row["lineup"] in {p.split(":")[0] for p in policy.split(",")}
                assert int(words[words.index("--games") + 1]) == row["games"]
    checks = _row(data, "compensation", table="2p2t", lineup="lookahead", source=2)
    commands = next(s for s in data["studies"] if s["name"] == "compensation")["commands"]
    assert all("--check lookahead" in commands[i] for i in checks["commands"])


def test_the_docs_page_has_the_explorers_place():
    assert (ROOT / "docs" / "explorer.md").read_text(encoding="utf-8").count(MARKER) == 1


def test_a_key_table_gets_an_anchor_at_each_tables_first_row():
    key = pd.DataFrame({"table": ["2p / 2t", "2p / 2t", "12p/3t"], "line-up": ["random", "greedy", "random"]})
    marked = anchored(key, [(2, 2), (12, 3)])
    assert list(marked["table"]) == ['<a id="2p2t"></a>2p / 2t', "2p / 2t", '<a id="12p3t"></a>12p/3t']
    pairs = pd.DataFrame({"pair": ["random vs greedy", "greedy vs swift"]})  # one table, no column of it
    assert anchored(pairs, [(2, 2)]).iat[0, 0] == '<a id="2p2t"></a>random vs greedy'


def test_only_a_published_study_links_to_the_explorer(tmp_path):
    assert explorer_link(RESULTS / "hand-size") == "../../docs/explorer.md"
    assert explorer_link(tmp_path / "hand-size") is None
    assert "explorer" not in tables_line("hand-size", [(2, 2)], None)


@pytest.mark.parametrize("folder", study_folders(RESULTS), ids=lambda p: p.name)
def test_a_published_summary_has_its_tables_line_and_anchors(folder):
    """What summary_markdown writes: the tables line (anchors on the page, views of the explorer) and an anchor
    at each table's first row of the key table."""
    text = (folder / "summary.md").read_text(encoding="utf-8")
    tables = _tables(pd.read_csv(folder / "summary.csv"))
    assert tables_line(folder.name, tables, explorer_link(folder)) in text
    for players, teams in tables:
        assert text.count(f'<a id="{table_id(players, teams)}"></a>') == 1, (players, teams)


def test_a_summary_with_how_the_games_unfold_shows_it_and_one_older_than_those_columns_does_not(tmp_path):
    """The explorer shows the comebacks, the closing turns and the lead changes of a summary.csv that has them;
    a published one written before them keeps its measures as they were."""
    import shutil

    from simkit.studies.explorer import SUMMARY, study_page

    folder = tmp_path / "first-player"
    shutil.copytree(RESULTS / "first-player", folder)
    older = study_page(folder)
    assert [m[0] for m in older.sources[0]["measures"]] == [m.name for m in SUMMARY[:4]]
    summary = pd.read_csv(folder / "summary.csv")
    for name in ("comebacks", "closing_turns", "lead_changes"):
        summary[name], summary[f"{name}_low"], summary[f"{name}_high"] = 0.25, 0.2, 0.3
    summary.to_csv(folder / "summary.csv", index=False)
    newer = study_page(folder)
    assert [m[0] for m in newer.sources[0]["measures"]] == [m.name for m in SUMMARY]
    assert newer.rows[0]["measures"][4:] == [[25.0, 20.0, 30.0, None], [0.25, 0.2, 0.3, None], [0.25, 0.2, 0.3, None]]
