"""Each player is declared once (kernels/players/<module>.py, PLAYERS), and everything reads the entry."""

from __future__ import annotations

import re
from pathlib import Path

from simkit.analysis import stats
from simkit.game import players
from simkit.game.play import GAME_LOOP
from simkit.game.players import Lineup, markdown_table
from simkit.game.rules import Rules
from simkit.kernels.core.turn import RANDOM
from simkit.kernels.players.dispatch import PLAYERS, decision, decisions
from simkit.kernels.players.player import HEAVY, LIGHT
from simkit.running.runner import compile_estimate, compile_seconds, default_chunk_size
from simkit.studies.kind import PRECISE_HALF_WIDTH, STRONG_HALF_WIDTH, default_games, round_games
from simkit.studies.skill import SKILL_POLICIES

ROOT = Path(__file__).resolve().parents[1]
PLAYERS_PAGE = ROOT / "docs" / "guide" / "players.md"


def rated() -> list[str]:
    """The players of the published skill study, weakest first by their ratings."""
    ratings = (ROOT / "results" / "skill" / "ratings.csv").read_text(encoding="utf-8").splitlines()[1:]
    return [name for name, _ in sorted((line.split(",")[:2] for line in ratings), key=lambda r: float(r[1]))]


def test_the_docs_players_table_is_the_table():
    """The docs' players table is simkit.game.players.markdown_table(), word for word, weakest first as the
    published skill study rates them."""
    text = PLAYERS_PAGE.read_text(encoding="utf-8")
    found = re.search(
        r"<!-- players table: simkit.game.players.markdown_table\(rated\) -->\n"
        r"(.*?)<!-- end of players table -->",
        text,
        re.S,
    )
    assert found and found.group(1) == markdown_table(rated())


def test_the_readme_quotes_the_measured_compile_estimates():
    """The README's first compile of random and greedy play is what the compile notice says: the game
    loop's, then the game loop's and greedy's decision's (benchmarks/compile_estimates.py)."""
    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    found = re.search(r"compiles the kernels \(about (\d+) s for random play, (\d+) s for greedy\)", text)
    assert found, "the README no longer quotes the first compile"
    measured = compile_seconds()
    assert (int(found.group(1)), int(found.group(2))) == (measured[GAME_LOOP], measured[GAME_LOOP] + measured["greedy"])


def test_one_entry_per_name_and_one_kernel_per_id():
    assert [p.name for p in PLAYERS] == list(players.PLAYERS) and len(set(players.PLAYERS)) == len(PLAYERS)
    for p in PLAYERS:
        same = [q for q in PLAYERS if q.id == p.id]
        assert {q.action for q in same} == {p.action}


def test_the_skill_study_plays_the_players_it_declares_and_the_decisions_read_the_entries():
    """The skill study's round robin is its own declaration (a player added later joins it only there),
    ordered as its published ratings; a line-up's decisions hold each player's entry by id."""
    assert list(SKILL_POLICIES) == rated()
    for p in PLAYERS:
        if p.id != RANDOM:  # random alone has no decisions: its game loop plays it directly
            assert decisions([p.id])[p.id] is decision(p.id)
    assert decisions([RANDOM, 1])[RANDOM] is decision(RANDOM)


def test_costs_give_the_runs_chunks_the_studies_games_and_the_compile_notice(monkeypatch):
    """A cost class's study games give the half-width the studies ask for; the compile notice says the
    measured seconds of what is not compiled yet, an entry point's where nothing is."""
    from simkit.running import runner

    monkeypatch.setattr(
        runner,
        "left_to_compile",
        lambda lineup, rules: [GAME_LOOP, *(p.kind.name for p in lineup.per_team if p.kind.name != "random")],
    )
    assert LIGHT.study_games >= round_games(stats.games_for_half_width(PRECISE_HALF_WIDTH))
    assert HEAVY.study_games >= round_games(stats.games_for_half_width(STRONG_HALF_WIDTH))
    two = Rules.make(2)
    measured = compile_seconds()
    for p in PLAYERS:
        lineup = Lineup.parse(f"{p.name},random", two)
        assert default_chunk_size(lineup) == min(p.cost.chunk_size, LIGHT.chunk_size)
        assert default_games(lineup) == min(p.cost.study_games, LIGHT.study_games)
        if p.name != "random":  # the game loop, and the player's decision (one not measured: the slowest's)
            slowest = max(v for k, v in measured.items() if k != GAME_LOOP)
            assert compile_estimate(f"{p.name},random") == measured[GAME_LOOP] + measured.get(p.name, slowest)
    assert compile_estimate("random") == measured[GAME_LOOP]  # random's decision is the game loop's
    lookahead, swift = measured["lookahead"], measured["swift"]
    assert compile_estimate("lookahead and swift,lookahead") == measured[GAME_LOOP] + lookahead + swift  # each once
    monkeypatch.setattr(runner, "left_to_compile", lambda lineup, rules: [])
    assert compile_estimate("lookahead,random") == runner.ENTRY_SECONDS
    assert compile_estimate("greedy and lookahead") == 2 * runner.ENTRY_SECONDS  # an entry point each
    monkeypatch.setattr(runner, "left_to_compile", lambda lineup, rules: ["swift"])  # the loop and lookahead cached
    assert compile_estimate("swift,lookahead") == swift


def test_no_code_reads_strength_from_the_order_of_ids():
    """Facts about a player come from its entry: no `id >=` / `id >` comparisons outside kernels/players/."""
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in [*ROOT.glob("simkit/**/*.py"), ROOT / "cli.py"]
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\bid\s*[<>]=?\s*[A-Z_]+|\bid\b\s*[<>]=?\s*\d", line)
    ]
    assert not found


def test_tables_a_player_does_not_play_are_refused_naming_what_to_play():
    three = Rules.make(3)
    for p in PLAYERS:
        if not p.plays("3 teams"):
            try:
                Lineup.parse(p.name, three)
            except ValueError as e:
                assert p.instead and p.instead in str(e)
            else:
                raise AssertionError(f"{p.name} was not refused at three teams")
