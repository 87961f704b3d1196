"""The studies published in results/ name their configurations by the run ids the code computes.

A study.json records, for every configuration, the run id of the dataset its
tables were made from (``simkit.running.dataset.identity_of``: the rules, the line-up
with every policy parameter resolved, the seed, simkit's version and the
games stamp). A change that alters an identity without altering the games (a
policy parameter added with a default that plays as before) leaves those ids
naming runs the code no longer makes: the numbers stay right, their
provenance does not, and the regenerate command re-plays what it should find;
a change of a policy's defaults leaves the numbers wrong too. Re-run the
study with --overwrite (its line in results/README.md or ``make results``):
it replays those configurations alone where the datasets are on disk. This
test names the study and the configurations.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import simkit
from simkit.running import dataset as ds
from simkit.studies.directory import config_from_json
from simkit.studies.kind import config_run_id

RESULTS = Path(__file__).resolve().parents[1] / "results"
STUDIES = sorted(RESULTS.glob("*/study.json"))


def test_results_hold_studies():
    assert len(STUDIES) >= 7, [p.parent.name for p in STUDIES]


@pytest.mark.parametrize("path", STUDIES, ids=[p.parent.name for p in STUDIES])
def test_a_published_study_names_the_runs_the_code_makes(path):
    study = json.loads(path.read_text(encoding="utf-8"))
    recorded = study["identity"]
    if (recorded["simkit"], recorded["kernel"]) != (simkit.__version__, ds.GAMES_STAMP):
        pytest.skip(
            f"{path.parent.name} was published with simkit {recorded['simkit']}, kernel "
            f"{recorded['kernel']}: republish it with this version"
        )
    stale = []
    for record in study["configurations"]:
        made = config_run_id(config_from_json(record), recorded["seed"])
        if made != record["run_id"]:
            stale.append(f"{record['folder']} ({record['run_id']}, the code: {made})")
    assert not stale, (
        f"results/{path.parent.name}/study.json names runs the code no longer makes; re-run "
        f"`{study['commands'][0]} --overwrite` to replay them: " + ", ".join(stale)
    )


@pytest.mark.parametrize("name", ["hand-size", "teams", "variants"])
def test_a_shift_study_s_summary_says_in_words_what_the_code_writes_from_its_files(name):
    """The shift studies' summaries say in words what their code writes from their published shifts.csv and
    summary.csv (tests/published_summaries.py): what each shift is, the resolution, that casual and strong
    play's differences take two shifts sharing deals as independent and by how much that could move them, and
    for teams which measure says "fairer"; so a word the code changes cannot stay behind in results/."""
    from tests.published_summaries import paragraphs

    text = (RESULTS / name / "summary.md").read_text(encoding="utf-8")
    made = paragraphs(RESULTS / name, name)
    assert made
    for paragraph in made:
        assert paragraph in text, f"results/{name}/summary.md does not say: {paragraph[:160]}..."
    assert "independent games" not in text  # the line-ups and the tables share the study's seed
    if name == "teams":
        assert "## Which measure to read" in text and "A designer should read team 0's relative advantage" in text
        assert "2.9 pp of that fall is the smaller fair share alone" in text
