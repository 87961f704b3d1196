"""The rule options table (simkit.game.options.OPTIONS): every door derives from it, and checks what it is given."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import re
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import simkit
from simkit.cli import app
from simkit.game import rules as rules_module
from simkit.game.options import OPTIONS, RulesError, markdown_table
from simkit.game.players import Lineup
from simkit.game.records import game_record
from simkit.game.rules import Rules
from simkit.running import dataset as ds
from simkit.running.reading import read_games
from simkit.running.runner import RunSpec, run_folder_name

OPTIONS_PAGE = Path(__file__).resolve().parents[1] / "docs" / "guide" / "rule-options.md"
runner = CliRunner()


def test_the_docs_option_table_is_the_table():
    """The docs' rule-options table is simkit.game.options.markdown_table(), word for word."""
    text = OPTIONS_PAGE.read_text(encoding="utf-8")
    found = re.search(
        r"<!-- options table: simkit.game.options.markdown_table\(\) -->\n"
        r"(.*?)<!-- end of options table -->",
        text,
        re.S,
    )
    assert found and found.group(1) == markdown_table()


def test_rules_fields_are_the_options_in_table_order():
    assert [f.name for f in dataclasses.fields(Rules)] == list(OPTIONS)


def test_the_fields_declared_to_the_type_checker_are_the_rules_fields():
    """simkit/game/rules.py declares Rules' fields to the type checker (_RulesFields, read by mypy only): the same
    names in the same order, with the same types, as the fields OPTIONS makes."""
    source = Path(rules_module.__file__).read_text(encoding="utf-8")
    declared = next(
        node for node in ast.walk(ast.parse(source)) if isinstance(node, ast.ClassDef) and node.name == "_RulesFields"
    )
    names_and_types = [
        (item.target.id, ast.unparse(item.annotation))
        for item in declared.body
        if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
    ]
    made = [(f.name, f.type if isinstance(f.type, str) else f.type.__name__) for f in dataclasses.fields(Rules)]
    assert names_and_types == made


@pytest.mark.parametrize("command", ["run", "study", "play"])
def test_every_option_is_on_the_command_line(command):
    """Each option's flag (both forms for a yes/no option) is in the command's help."""
    from typer.main import get_group

    click_command = get_group(app).commands[command]
    declared = {opt for p in click_command.params for opt in [*p.opts, *p.secondary_opts]}
    for option in OPTIONS.values():
        for flag in option.flags.split("/"):
            assert flag in declared, (command, flag)


def test_every_option_is_a_keyword_of_simulate_and_a_column():
    params = inspect.signature(simkit.simulate).parameters
    assert set(OPTIONS) <= set(params)
    assert list(OPTIONS) == ds.SCHEMA.names[: len(OPTIONS)]


def test_an_option_at_its_default_adds_nothing_to_the_folder_name():
    rules = Rules.make(2)
    lineup = Lineup.parse("random", rules)
    assert run_folder_name(rules, lineup, 1, 1) == "p2t2-random"
    odd = Rules.make(
        2,
        reshuffle=False,
        dead_swap=False,
        late_card=5,
        chip_limit=True,
        max_turns=300,
        hand_size="6,7",
        sequences_to_win=3,
    )
    assert (
        run_folder_name(odd, Lineup.parse("random", odd), 1, 1)
        == "p2t2-random-h6,7-q3-cap300-chips-noreshuffle-nodeadswap-late5"
    )
    # the defaults given explicitly are still the defaults
    explicit = Rules.make(2, reshuffle=True, dead_swap=True, late_card=0, hand_size=7)
    assert explicit == rules and run_folder_name(explicit, lineup, 1, 1) == "p2t2-random"


def test_identity_records_and_titles_carry_every_option():
    """The run identity holds every option (defaults included); records and report titles list the
    required ones and those not at their default (RECORD.md, RULES.md "Rule variants")."""
    from simkit.analysis.report import title_config

    rules = Rules.make(3, late_card=2, reshuffle=False)
    identity = RunSpec(rules, Lineup.parse("random", rules), 1, 10).identity()
    assert set(OPTIONS) <= set(identity["rules"])
    assert ds.run_id(identity) != ds.run_id(RunSpec(Rules.make(3), Lineup.parse("random", rules), 1, 10).identity())
    record = game_record(rules, Lineup.parse("random", rules), 1, 0)
    assert record["rules"] == {
        "players": 3,
        "teams": 3,
        "hand_size": 6,
        "sequences_to_win": 1,
        "max_turns": 1000,
        "reshuffle": False,
        "late_card": 2,
    }
    config = {**rules.as_dict(), "policies": "random", "seed": 1}
    assert list(title_config(config)) == [
        "players",
        "teams",
        "hand_size",
        "sequences_to_win",
        "max_turns",
        "reshuffle",
        "late_card",
        "policies",
        "seed",
    ]
    as_columns = {**config, "hand_size": "6", "handicap": "0"}  # a dataset's text columns
    assert list(title_config(as_columns)) == list(title_config(config))
    assert "handicap" in title_config({**as_columns, "late_card": 0, "handicap": "4,1", "teams": 3})


@pytest.mark.parametrize(
    "fields",
    [
        (5, 2, 7, 2, 1000, False, True, True, 0, 0, "official"),  # five players in two teams
        (2, 2, 0, 2, 1000, False, True, True, 0, 0, "official"),  # an empty hand
        (2, 2, 7, 2, 1000, False, True, True, -1, 0, "official"),  # a late card before the first turn
        (2, 2, 7, 2, 1000, 1, True, True, 0, 0, "official"),  # chip_limit is yes or no
        (2, 2, 7, 2, 1000, False, True, True, 2, 3, "official"),  # two compensations at once
        (2, 2, 7, 2, 1000, False, True, True, 0, (3, 1), "official"),  # team 1's handicap at a two-team table
    ],
)
def test_rules_refuse_an_illegal_configuration_however_built(fields):
    with pytest.raises(RulesError):
        Rules(*fields)


def test_rules_take_numpy_integers():
    assert Rules.make(np.int64(4), np.int8(2), late_card=np.int32(3)) == Rules.make(4, 2, late_card=3)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(seed=1.5), "seed must be a whole number, got 1.5 (float)"),
        (dict(games=True), "games must be a whole number, got True (bool)"),
        (dict(games="10"), "games must be a whole number, got '10' (str)"),
        (dict(games=-1), "games must be at least 1, got -1"),
        (dict(players=4.0), "players must be a whole number, got 4.0 (float)"),
        (dict(late_card="3"), "late_card must be a whole number, got '3' (str)"),
        (dict(late_card=-2), "late_card must be a whole number from 0 to 100,000, got -2"),
        (dict(reshuffle=0), "reshuffle must be true or false, got 0"),
        (dict(hand_size=6.5), "hand_size must be a whole number, got 6.5 (float)"),
        (dict(players=6, hand_size="4,5,4"), "hand_size list 4,5,4 does not fit 6 players in 2 teams"),
        (dict(first_game=2.0), "first_game must be a whole number, got 2.0 (float)"),
        (dict(jokers=True), "unknown rule option 'jokers'"),
    ],
)
def test_simulate_refuses_bad_arguments_naming_them(kwargs, message):
    with pytest.raises(ValueError) as caught:
        simkit.simulate(games=kwargs.pop("games", 10), **kwargs)
    assert message in str(caught.value)


def test_simulate_takes_numpy_integers():
    a = simkit.simulate(games=np.int64(50), seed=np.uint32(3), players=np.int64(2), late_card=np.int16(2))
    b = simkit.simulate(games=50, seed=3, late_card=2)
    assert a.equals(b)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--players", "5"], "--players must be 2, 3, 4, 6, 8, 9, 10 or 12, got 5"),
        (["--late-card", "-1"], "--late-card must be a whole number from 0 to 100,000, got -1"),
        (["--hand-size", "0"], "--hand-size 0 is not allowed: each size must be 1..15"),
        (["--sequences-to-win", "9"], "--sequences-to-win must be a whole number from 1 to 8, got 9"),
        (["--players", "4", "--teams", "3"], "4 players cannot form 3 equal teams"),
        (
            ["--players", "6", "--hand-size", "4,5,4"],
            "--hand-size list 4,5,4 does not fit 6 players in 2 teams: a list cycles over the seats, and 3 sizes "
            "do not repeat in step with the teams; give one size, or 2 or 6 (2: one per team, 6: one per seat)",
        ),
    ],
)
@pytest.mark.parametrize("command", ["run", "play", "study first-player", "fair"])
def test_bad_option_values_end_in_one_error_line(tmp_path, command, args, message):
    if command == "study first-player" and args[0] == "--players" and "--teams" in args:
        message = "4 players cannot form 3 equal teams"
    result = runner.invoke(
        app,
        [
            *command.split(),
            *args,
            "--out" if command != "play" else "--no-board",
            *([str(tmp_path / "x")] if command != "play" else []),
        ],
    )
    assert result.exit_code == 1, result.output
    err = result.stderr.strip()
    assert err.startswith("error: ") and "\n" not in err and message in err, err
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize(
    "players, teams, sizes, fits",
    [
        (6, 2, "4,5", True),  # one per team
        (6, 2, "4,5,5,5,5,5", True),  # one per seat
        (12, 2, "2,3,3,3", True),  # a pattern of 4 that repeats in step with 2 teams
        (6, 3, "4,4,5", True),
        (3, 3, "6,7,7", True),
        (6, 2, "4,5,4", False),  # 3 sizes at 2 teams: team 0 would hold 4,4,5 and team 1 5,4,4
        (6, 2, "4,5,5,5", False),  # 4 sizes do not divide 6 seats
        (6, 3, "4,5", False),
        (12, 3, "3,4", False),
        (3, 3, "6,7", False),
    ],
)
def test_a_hand_size_list_must_repeat_in_step_with_the_teams(players, teams, sizes, fits):
    """A list cycles over the seats: it is taken only when each of its places always deals to one team, so no
    list that does not fit the table deals a team's players unlike hands by accident."""
    if fits:
        rules = Rules.make(players, teams, hand_size=sizes)
        listed = [int(h) for h in sizes.split(",")]
        assert rules.hand_sizes == tuple(listed[s % len(listed)] for s in range(players))
    else:
        with pytest.raises(RulesError, match=f"list {sizes} does not fit {players} players in {teams} teams"):
            Rules.make(players, teams, hand_size=sizes)


def test_variant_runs_from_the_command_line(tmp_path):
    """--no-reshuffle, --no-dead-swap and --late-card reach the games: the same rows as simulate."""
    result = runner.invoke(
        app,
        [
            "run",
            "--games",
            "200",
            "--no-reshuffle",
            "--no-dead-swap",
            "--late-card",
            "4",
            "--out",
            str(tmp_path / "v"),
            "--quiet",
        ],
    )
    assert result.exit_code == 0, result.output
    rows = read_games(tmp_path / "v")
    assert not rows["reshuffle"].any() and not rows["dead_swap"].any() and (rows["late_card"] == 4).all()
    assert (rows["dead_swaps"] == 0).all() and (rows["reshuffles"] == 0).all()
    assert rows.equals(simkit.simulate(games=200, reshuffle=False, dead_swap=False, late_card=4))


def test_a_line_up_parsed_for_another_table_is_refused_before_any_kernel_runs(tmp_path):
    """A run spec whose line-up was parsed for another table is refused (its seats, or its
    table-dependent defaults such as the lookahead's value weights, are another table's)."""
    from simkit.game.play import simulate
    from simkit.running.runner import run

    two, four, three = Rules.make(2), Rules.make(4), Rules.make(3)
    with pytest.raises(ValueError, match="parsed for another table"):
        run(tmp_path / "a", RunSpec(four, Lineup.parse("random", two), 1, 10))
    with pytest.raises(ValueError, match="parsed for another table"):  # a lookahead of 6 players in 3 teams
        run(tmp_path / "b", RunSpec(Rules.make(3), Lineup.parse("lookahead", Rules.make(6, 3)), 1, 10))
    with pytest.raises(ValueError, match="cannot play a table of 3 players"):
        simulate(three, Lineup.parse("greedy", two), 1, 0, 5)
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


def test_the_games_stamp_corpus_moves_every_rule_option_from_its_default():
    """tests/fingerprint.py plays each rule option of OPTIONS away from its default (its tables vary players and
    teams): an option added to OPTIONS needs its games there (AWAY, with a new GAMES_STAMP, or an ADDED group)."""
    from tests.fingerprint import TABLE_OPTIONS, every_configuration

    moved = {name for *_, given, _swap in every_configuration() for name in given}
    assert set(OPTIONS) - set(TABLE_OPTIONS) - moved == set()
