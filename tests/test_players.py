"""Each player is declared once (kernels/players/<module>.py, PLAYERS), and everything reads the entry."""

from __future__ import annotations

import re
from pathlib import Path

from simkit.analysis import stats
from simkit.game import players
from simkit.game.play import GAME_LOOP
from simkit.game.players import Lineup, markdown_table
from simkit.game.rules import Rules
from simkit.kernels.core.decide import PlayerSet
from simkit.kernels.players.dispatch import DECISIONS_LOOP_SECONDS, PLAYERS, decision, player_set
from simkit.kernels.players.player import HEAVY, LIGHT
from simkit.running.runner import compile_estimate, default_chunk_size
from simkit.studies.kind import PRECISE_HALF_WIDTH, STRONG_HALF_WIDTH, default_games, round_games
from simkit.studies.skill import SKILL_POLICIES

ROOT = Path(__file__).resolve().parents[1]
PLAYERS_PAGE = ROOT / "docs" / "guide" / "players.md"


def test_the_docs_players_table_is_the_table():
    """The docs' players table is simkit.game.players.markdown_table(), word for word."""
    text = PLAYERS_PAGE.read_text(encoding="utf-8")
    found = re.search(
        r"<!-- players table: simkit.game.players.markdown_table\(\) -->\n"
        r"(.*?)<!-- end of players table -->",
        text,
        re.S,
    )
    assert found and found.group(1) == markdown_table()


def test_the_readme_quotes_the_declared_compile_estimates():
    """The README's first compile of random and greedy play is what the compile notice declares: random's
    game loop, and the shared game loop with greedy's decision (measured cold on a 2-core machine: random
    9.7-10.5 s, greedy 15.5-17.2 s)."""
    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    found = re.search(r"compiles the kernels \(about (\d+) s for random play, (\d+) s for greedy\)", text)
    assert found, "the README no longer quotes the first compile"
    random = players.PLAYERS["random"].compile_seconds
    greedy = DECISIONS_LOOP_SECONDS + players.PLAYERS["greedy"].compile_seconds
    assert (int(found.group(1)), int(found.group(2))) == (random, greedy)
    assert 9 <= random <= 11 and 15 <= greedy <= 19


def test_one_entry_per_name_and_one_kernel_per_id():
    assert [p.name for p in PLAYERS] == list(players.PLAYERS) and len(set(players.PLAYERS)) == len(PLAYERS)
    for p in PLAYERS:
        same = [q for q in PLAYERS if q.id == p.id]
        assert {q.mark for q in same} == {p.mark} and {q.action for q in same} == {p.action}
    assert [p.name for p in PLAYERS if p.mark is None] == ["random"]  # in every set, the dispatcher's last word
    assert sorted(p.ladder for p in PLAYERS) == list(range(len(PLAYERS)))


def test_the_skill_ladder_and_the_policy_sets_read_the_entries():
    assert SKILL_POLICIES == tuple(p.name for p in sorted(PLAYERS, key=lambda p: p.ladder))
    for p in PLAYERS:
        made = player_set([p.id])
        assert made == PlayerSet(()) if p.mark is None else made.by_id[p.id] is decision(p.id)


def test_costs_give_the_runs_chunks_the_studies_games_and_the_compile_notice(monkeypatch):
    """A cost class's study games give the half-width the studies ask for; the compile notice says the
    players' declared seconds where the game loop is not compiled yet, an entry point's where it is."""
    from simkit.running import runner

    monkeypatch.setattr(
        runner, "left_to_compile", lambda lineup, rules: [GAME_LOOP, *(p.kind.name for p in lineup.per_team)]
    )
    assert LIGHT.study_games >= round_games(stats.games_for_half_width(PRECISE_HALF_WIDTH))
    assert HEAVY.study_games >= round_games(stats.games_for_half_width(STRONG_HALF_WIDTH))
    two = Rules.make(2)
    for p in PLAYERS:
        lineup = Lineup.parse(f"{p.name},random", two)
        assert default_chunk_size(lineup) == min(p.cost.chunk_size, LIGHT.chunk_size)
        assert default_games(lineup) == min(p.cost.study_games, LIGHT.study_games)
        if p.name != "random":  # the game loop of every line-up beyond random, and the player's decision
            assert compile_estimate(f"{p.name},random") == DECISIONS_LOOP_SECONDS + p.compile_seconds
    assert compile_estimate("random") == players.PLAYERS["random"].compile_seconds  # its own game loop
    lookahead, swift = players.PLAYERS["lookahead"].compile_seconds, players.PLAYERS["swift"].compile_seconds
    assert compile_estimate("lookahead and swift,lookahead") == DECISIONS_LOOP_SECONDS + lookahead + swift  # each once
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
