"""The command line: exact interfaces, clear errors, no tracebacks."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

import simkit
from simkit.cli import app
from simkit.game.records import read_records
from simkit.running import dataset as ds
from simkit.running.reading import read_games
from tests import referee

runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, list(args), catch_exceptions=False)


def test_version():
    result = invoke("--version")
    assert result.exit_code == 0 and simkit.__version__ in result.stdout


def test_play_writes_records_an_independent_referee_accepts(tmp_path):
    path = tmp_path / "games.jsonl"
    result = invoke(
        "play",
        "--players",
        "4",
        "--teams",
        "2",
        "--policy",
        "random",
        "--seed",
        "3",
        "--games",
        "3",
        "--first-game",
        "10",
        "--record",
        str(path),
    )
    assert result.exit_code == 0, result.output
    records = read_records(path)
    assert [r["game"] for r in records] == [10, 11, 12]
    assert all(r["seed"] == 3 and r["format"] == "simkit.game/1" for r in records)
    for r in records:
        assert referee.check_record(r) == []
    assert result.stdout.count("game 1") == 3  # one result line per game
    assert "XX" in result.stdout  # the board is shown


def test_play_is_reproducible(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    invoke("play", "--seed", "9", "--games", "2", "--record", str(a), "--no-board")
    invoke("play", "--seed", "9", "--games", "1", "--first-game", "1", "--record", str(b), "--no-board")
    assert read_records(a)[1] == read_records(b)[0]


def test_the_usage_errors_are_the_classes_typer_raises():
    """The one-line errors catch typer's Click exceptions by class (simkit.commands.errors.click_exceptions):
    this fails when typer moves them or stops raising them."""
    from simkit.commands.errors import click_exceptions

    exceptions = click_exceptions()
    assert issubclass(typer.BadParameter, exceptions.UsageError)
    assert issubclass(exceptions.NoSuchOption, exceptions.UsageError)
    run_command = typer.main.get_group(app).commands["run"]
    with pytest.raises(exceptions.NoSuchOption):
        run_command.make_context("run", ["--no-such-flag"])


@pytest.mark.parametrize(
    "args, message",
    [
        (["play", "--players", "5"], "--players must be 2, 3, 4, 6, 8, 9, 10 or 12, got 5; legal: 2 players"),
        (["play", "--players", "4", "--teams", "3"], "cannot form 3 equal teams"),
        (["play", "--policy", "clever"], "unknown player 'clever'; known: random"),
        (["play", "--policy", "random:depth=3"], "bad parameter"),
        (["play", "--hand-size", "0"], "--hand-size 0 is not allowed"),
        (["play", "--record", "/nonexistent-dir/x.jsonl"], "the folder /nonexistent-dir does not exist"),
        (["play", "--record", "{tmp}/afile/x.jsonl"], "afile is a file, not a folder"),
        (["run", "--games", "0", "--out", "{tmp}/x"], "--games must be at least 1"),
        (["run", "--games", "-3", "--out", "{tmp}/x"], "--games must be at least 1"),
        (["run", "--games", "10", "--threads", "99", "--out", "{tmp}/x"], "threads must be 1.."),
        (["run", "--games", "10", "--chunk-size", "0", "--out", "{tmp}/x"], "chunk size must be"),
        (["run", "--games", "10", "--seed", str(2**63), "--out", "{tmp}/x"], "seed must be 0.."),
        (["run", "--games", "10", "--out", "{tmp}/afile/x"], "cannot write"),
        (["report", "{tmp}"], "holds no simkit dataset"),
        (["report", "{tmp}/missing"], "{tmp}/missing does not exist"),
        (["report", "{tmp}/afile"], "{tmp}/afile is a file, not a dataset folder"),
        # Studies, as runs.
        (["study", "nosuch"], "unknown study 'nosuch'; known: first-player, hand-size"),
        (["study", "first-player", "--sizes", "3..9"], "--sizes applies to the hand-size study, not to first-player"),
        (["study", "hand-size", "--sizes", "3..x"], "--sizes '3..x' must be a range such as 3..9"),
        (["study", "first-player", "--players", "5"], "--players must be 2, 3, 4, 6, 8, 9, 10 or 12, got 5"),
        (["study", "first-player", "--policy", "clever"], "unknown player 'clever'"),
        (
            ["study", "first-player", "--out", "{tmp}/afile", "--players", "2", "--policy", "random"],
            "exists and is not a directory",
        ),
        # Replays.
        (["replay", "{tmp}/missing.jsonl"], "cannot read {tmp}/missing.jsonl: No such file or directory"),
        (["replay", "{tmp}/afile"], "line 1 of {tmp}/afile is not JSON"),
        (["replay", "{tmp}"], "cannot read {tmp}"),
        # Line-ups are exact: one policy per team, no repeated parameter, no empty name.
        (
            ["run", "--games", "10", "--policy", "greedy,random,lookahead", "--out", "{tmp}/x"],
            "3 players in 'greedy,random,lookahead' for 2 teams; the list gives one player per team",
        ),
        (
            ["run", "--games", "10", "--policy", "greedy:block4=800:block4=100", "--out", "{tmp}/x"],
            "parameter block4 of 'greedy' is given twice",
        ),
        (["run", "--games", "10", "--policy", "greedy,,random", "--out", "{tmp}/x"], "empty player"),
        (["play", "-p", "4", "--policy", "greedy,random,random,random"], "4 players in"),
        # Hand sizes per seat.
        (
            ["run", "--games", "10", "--hand-size", "7,6,5", "--out", "{tmp}/x"],
            "--hand-size list 7,6,5 has 3 sizes for 2 seats",
        ),
        (
            ["run", "--games", "10", "-p", "8", "--hand-size", "13,14", "--out", "{tmp}/x"],
            "deals 108 cards to 8 players; the deck holds 104",
        ),
        (["run", "--games", "10", "--hand-size", "7,", "--out", "{tmp}/x"], "--hand-size '7,' is empty"),
        # Records are checked before any game is played.
        (["play", "--games", "3", "--record", "{tmp}"], "it is a directory; give a file name"),
        (["play", "--record", "{tmp}/afile"], "already exists; use --force to replace it"),
        (["run", "--games", "10", "--scheduler", "lan:3", "--out", "{tmp}/x"], "scheduler"),
    ],
)
def test_bad_input_gets_one_line_error(tmp_path, args, message):
    (tmp_path / "afile").write_text("x")
    result = runner.invoke(app, [a.replace("{tmp}", str(tmp_path)) for a in args])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    err = result.stderr.strip()
    message = message.replace("{tmp}", str(tmp_path))
    assert err.startswith("error: ") and "\n" not in err and message in err, err
    assert not (tmp_path / "x").exists()  # nothing written for a refused run
    assert "game 0" not in result.stdout  # nothing played either


@pytest.mark.parametrize(
    "args, message",
    [
        (["run", "--policy", "swfit"], "error: unknown player 'swfit' (did you mean swift?); known: random, greedy"),
        (["study", "first-player", "--policy", "gredy"], "unknown player 'gredy' (did you mean greedy?)"),
        (
            ["run", "--policy", "swift:rolouts=5"],
            "bad parameter 'rolouts=5' for player 'swift' (did you mean rollouts?)",
        ),
        (["run", "--policy", "ismcts:chet=1"], "(did you mean research.cheat?)"),
        (["study", "firstplayer"], "error: unknown study 'firstplayer' (did you mean first-player?); known: "),
        (["study", "handsize"], "unknown study 'handsize' (did you mean hand-size?)"),
        (["study", "compensation", "--family", "latecard"], "unknown compensation family 'latecard' (did you mean"),
    ],
)
def test_a_mistyped_name_gets_its_close_match(tmp_path, args, message):
    """Players, their parameters, studies and a study's words: the close match in the one error line."""
    result = runner.invoke(app, [*args, "--games", "10", "--out", str(tmp_path / "x")])
    assert result.exit_code == 1, result.output
    err = result.stderr.strip()
    assert err.startswith("error: ") and "\n" not in err and message in err, err
    assert not (tmp_path / "x").exists()


def test_a_players_parameter_error_names_its_weights_by_family():
    """swift's parameters: its own by name, then its greedy weights, its value and opponent weights by prefix
    and count, the restrictions last."""
    result = runner.invoke(app, ["run", "--policy", "swift:rolouts=5", "--games", "10"])
    err = result.stderr.strip()
    assert (
        "parameters: rollouts, shortlist, margin, playout, horizon, race, gap, batch, view, removals, complete," in err
    )
    assert "51 value_* and 7 opponent_* weights" in err and "value_own_sequences" not in err, err
    assert err.endswith("and the restrictions dead_swap, one_eyed, two_eyed, blocking, corners"), err
    assert len(err) < 450, err  # its 90 names would take about 1,400 characters


def test_corrupt_dataset_is_reported_not_crashed(tmp_path):
    """An unreadable part is named, first, with the command that plays it again (exit code 3); the rest is
    reported as incomplete on purpose only (--allow-incomplete); a bad manifest is one error."""
    invoke("run", "--games", "20", "--chunk-size", "10", "--out", str(tmp_path), "--quiet")
    (tmp_path / "part-000000000000.parquet").write_bytes(b"not parquet")
    refused = runner.invoke(app, ["report", str(tmp_path), "--format", "markdown"])
    assert refused.exit_code == 3 and "Traceback" not in refused.output and refused.stdout == ""
    first, named, command, then = refused.stderr.splitlines()
    assert first.startswith(f"error: {tmp_path} is incomplete: 1 run lacks games, 1 part left out")
    assert named.startswith(
        f"  {tmp_path}: 10 of 20 games; damaged part-000000000000.parquet (its bytes are not the ones written: sha256 "
    )
    assert command == f"  complete it: simkit run --games 20 --policy random --seed 2026 --players 2 --out {tmp_path}"
    assert "--allow-incomplete" in then
    result = runner.invoke(app, ["report", str(tmp_path), "--format", "markdown", "--allow-incomplete"])
    assert result.exit_code == 0 and "Traceback" not in result.output
    assert result.stderr.startswith(f"warning: {tmp_path} is incomplete")
    assert f"damaged part {tmp_path / 'part-000000000000.parquet'} (its bytes are not" in result.stdout
    assert "n=10 of 20: incomplete" in result.stdout
    (tmp_path / "_manifest.json").write_text("{}")
    result = runner.invoke(app, ["report", str(tmp_path)])
    assert result.exit_code == 1 and "not a simkit dataset manifest" in result.stderr


def test_run_then_report_formats(tmp_path):
    out = tmp_path / "ds"
    result = invoke("run", "--games", "400", "--chunk-size", "150", "--seed", "1", "--out", str(out), "--quiet")
    assert result.exit_code == 0, result.output
    again = invoke("run", "--games", "400", "--chunk-size", "150", "--seed", "1", "--out", str(out), "--quiet")
    assert "nothing to do" in again.stderr
    refused = runner.invoke(app, ["run", "--games", "400", "--players", "4", "--out", str(out), "--quiet"])
    assert refused.exit_code == 1 and "--overwrite" in refused.stderr
    rows = read_games(out)
    wins = [int((rows["winner_team"] == t).sum()) for t in (0, 1)]
    as_json = invoke("report", str(out), "--format", "json")
    assert as_json.exit_code == 0
    (summary,) = json.loads(as_json.stdout)
    assert summary["games"] == 400 and summary["complete"] and summary["config"]["seed"] == 1
    assert [t["wins"] for t in summary["teams"]] == wins
    as_csv = invoke("report", str(out), "--format", "csv").stdout.splitlines()
    assert as_csv[0].endswith("section,metric,key,value,ci_low,ci_high,text")
    assert any(line.endswith(f"teams,wins,0,{wins[0]},,,{wins[0]:,}") for line in as_csv)
    as_md = invoke("report", str(out), "--format", "markdown").stdout
    assert as_md.startswith("## players=2, teams=2") and "(n=400)" in as_md and "### Team win rates" in as_md
    as_rich = invoke("report", str(out)).stdout
    assert "Team win rates" in as_rich and f"{wins[0]:,}" in as_rich and "First-mover advantage" in as_rich


def test_a_run_without_out_is_named_after_its_configuration(tmp_path, monkeypatch):
    """`simkit run -p 4` must not land in (and --overwrite must not replace) the default run's folder."""
    monkeypatch.chdir(tmp_path)
    assert invoke("run", "--games", "50", "--quiet").exit_code == 0
    assert invoke("run", "-p", "4", "--games", "50", "--quiet").exit_code == 0
    assert (
        invoke(
            "run",
            "--games",
            "50",
            "--policy",
            "greedy,random",
            "--swap-seats",
            "--seed",
            "7",
            "--hand-size",
            "6,7",
            "--quiet",
        ).exit_code
        == 0
    )
    assert sorted(p.name for p in (tmp_path / "runs").iterdir()) == [
        "default-2p-random",
        "p2t2-greedy+random-h6,7-swap-s7",
        "p4t2-random",
    ]
    assert len(read_games(tmp_path / "runs" / "default-2p-random")) == 50
    assert not (tmp_path / "results").exists()  # the published results are written only when --out names them


def test_overwrite_says_what_it_replaced(tmp_path):
    invoke("run", "--games", "60", "--out", str(tmp_path), "--quiet")
    result = invoke("run", "--games", "40", "-p", "4", "--out", str(tmp_path), "--overwrite", "--quiet")
    assert result.exit_code == 0
    assert (
        f"replaced {tmp_path}: it held 60 games of 2 players, 2 teams, hand 7, 2 sequences to win, "
        "turn cap 1,000, policies random, seed 2026"
    ) in result.stderr


def test_play_record_refuses_to_clobber_unless_forced_and_writes_per_seat_hand_sizes(tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text("precious\n")
    refused = runner.invoke(app, ["play", "--record", str(path)])
    assert refused.exit_code == 1 and path.read_text() == "precious\n"
    forced = invoke("play", "--record", str(path), "--force", "--hand-size", "6,7", "--games", "2", "--no-board")
    assert forced.exit_code == 0
    records = read_records(path)
    assert [r["rules"]["hand_size"] for r in records] == [[6, 7], [6, 7]]
    assert [len(h) for h in records[0]["hands"]] == [6, 7]
    for r in records:
        assert referee.check_record(r, strict_rules=False) == []


def test_ctrl_c_during_play_keeps_the_finished_records(tmp_path):
    """A real SIGINT while `simkit play --record` runs: the games already finished are kept, and it says so."""
    import os
    import signal
    import subprocess
    import sys
    import time

    path = tmp_path / "many.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-m", "simkit", "play", "--games", "100000", "--no-board", "--quiet", "--record", str(path)],
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # `make test &` ignores it
    deadline = time.monotonic() + 120
    tmp = None
    while tmp is None or tmp.stat().st_size < 200_000:  # some games are finished and written
        assert proc.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
        tmp = next(tmp_path.glob(".many.jsonl.*.tmp"), None)
    os.kill(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    kept = read_records(path)
    assert len(kept) > 1 and f"interrupted: kept the {len(kept)} finished game record(s) in {path}" in err
    assert [r["game"] for r in kept] == list(range(len(kept)))
    assert not list(tmp_path.glob("*.tmp")) and not list(tmp_path.glob(".*.tmp"))


def test_the_progress_bar_waits_for_the_games_and_its_rate_for_half_a_second():
    """While the kernels compile only the notice line shows (no bar at 0/?), and the
    first games of a chunk, reported together, do not show as billions of games per second."""
    from rich.progress import Progress

    from simkit.commands.progress import TerminalEvents

    bar = Progress()
    watcher = TerminalEvents(bar, None)
    task = bar.tasks[0]
    watcher.started(1000, 0)
    assert not task.visible
    watcher.playing()
    assert task.visible
    watcher.advanced(600)
    assert task.fields["rate"] == "" and task.completed == 600
    watcher.t0 -= 2.0  # two seconds later
    watcher.advanced(400)
    assert task.fields["rate"].endswith("/s") and 400 <= float(task.fields["rate"][:-2].replace(",", "")) <= 500


def test_the_compile_line_moves_with_the_seconds_then_turns_into_the_time_it_took():
    """On a terminal the compile notice is a line of the progress display, a spinner and the seconds so far
    redrawn as they pass (not one fixed line); once compiled it goes, and one line says how long it took."""
    import io

    from rich.console import Console

    from simkit.commands.progress import TerminalEvents, progress_display
    from simkit.running.runner import compile_estimate

    out = io.StringIO()
    bar = progress_display(Console(file=out, width=100, force_terminal=True, color_system=None))
    clock = [100.0]
    bar.get_time = lambda: clock[0]
    watcher = TerminalEvents(bar, None)

    def shown() -> list[str]:
        text = io.StringIO()
        Console(file=text, width=100, color_system=None).print(bar.get_renderable())
        return [line.rstrip() for line in text.getvalue().splitlines() if line.strip()]

    watcher.compiling("random")
    line = f"compiling the kernels for random (first run only, about {compile_estimate('random')} s): "
    first = shown()
    assert len(first) == 1 and first[0].endswith(line + "0 s") and first[0][0] != "c"  # a spinner before it
    clock[0] += 12.4
    assert shown()[0].endswith(line + "12 s")
    assert not bar.tasks[0].visible  # no games bar while compiling
    watcher.compiled(12.9)
    assert shown() == [] and "compiled in 13 s; they are cached for later runs" in out.getvalue()
    assert "compiling" not in out.getvalue()  # the moving line was drawn by the display alone, never printed


@pytest.mark.parametrize("command", ["run", "study"])
def test_the_help_names_the_extra_to_install(command):
    """Rich markup swallowed '[distributed]': the help said "needs pip install 'simkit'"."""
    result = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    text = " ".join(result.output.replace("│", " ").split())  # the help's box, wrapped lines joined
    assert "pip install 'simkit[distributed]'" in text


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["run", "--no-reshufle"],
            "error: no such option --no-reshufle (did you mean --no-reshuffle?); see `simkit run --help`",
        ),
        (["run", "--late-card", "x"], "error: --late-card takes a whole number; see `simkit run --help`"),
        (["run", "--games"], "error: option '--games' requires an argument; see `simkit run --help`"),
        (["play", "--jokers"], "error: no such option --jokers; see `simkit play --help`"),
        (["study", "first-player", "--sizes"], "requires an argument; see `simkit study --help`"),
        (["report"], "error: missing argument 'directory'; see `simkit report --help`"),
        (["stdy"], "no such command 'stdy'"),
        (["study", "--gmes", "3"], "error: no such option --gmes (did you mean --games?); see `simkit study --help`"),
        (
            ["study", "first-player", "--games", "many"],
            "error: --games/-n takes a whole number; see `simkit study --help`",
        ),
        (["study"], "error: missing argument 'name'; see `simkit study --help`"),
        (
            ["report", "x", "--format", "xml"],
            "error: --format must be rich, markdown, csv or json, got 'xml'; see `simkit report --help`",
        ),
        (["report", "x", "-f", "JSON"], "error: --format must be rich, markdown, csv or json, got 'JSON'"),
        (["report", "x", "--format"], "error: option '--format' requires an argument; see `simkit report --help`"),
        (["replay"], "error: missing argument 'record'; see `simkit replay --help`"),
        (["replay", "x.jsonl", "-t", "3"], "error: no such option -t; see `simkit replay --help`"),
        (["replay", "x.jsonl", "--turn", "x"], "error: --turn takes a whole number; see `simkit replay --help`"),
        (["replay", "x.jsonl", "--turn", "-1"], "see `simkit replay --help`"),
        (["replay", "x.jsonl", "--gme", "1"], "error: no such option --gme (did you mean --game?)"),
    ],
)
def test_every_bad_command_line_is_one_error_line(args, message):
    """Unknown options, missing values and wrong types: one `error:` line pointing to --help, a close
    match where there is one, exit code 2 (Click's usage errors; README, "Exit codes")."""
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    err = result.stderr.strip()
    assert "\n" not in err and "Traceback" not in result.output and "╭" not in err, err
    assert message in err, err


@pytest.mark.parametrize("command", [[], ["run"], ["study"], ["report"], ["play"]])
def test_help_fits_an_80_column_terminal(command):
    """--help readable at 80 columns, no option's name cut short."""
    from typer.main import get_command

    result = runner.invoke(app, [*command, "--help"], terminal_width=80)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    assert "…" not in result.stdout
    click_command: Any = get_command(app)  # the app's group, then the command named
    for name in command:
        click_command = click_command.commands[name]
    for param in click_command.params:
        for flag in [*param.opts, *param.secondary_opts]:
            if flag.startswith("-"):
                assert flag in result.stdout, flag


def test_the_help_imports_no_command():
    """`simkit --help` lists the commands without importing any of their modules (simkit.commands.group), nor
    the kernels they load: its start-up does not grow with the commands."""
    import subprocess
    import sys

    from simkit.cli import COMMANDS

    code = (
        "import sys\n"
        "from simkit.cli import app\n"
        "try:\n"
        "    app(['--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(*sorted(sys.modules), sep='\\n', file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "Commands:" in done.stdout, done.stderr
    loaded = set(done.stderr.split())
    bodies = {where.partition(":")[0] for where in COMMANDS.values()}
    assert bodies and not bodies & loaded
    assert not {"simkit.commands.options", "simkit.game.options", "numba", "pandas"} & loaded


def test_the_help_lists_each_command_as_its_own_help_does():
    """The short help `simkit --help` reads from each command's source is the one the command gives once
    imported: the same listing as Click's own, made from the commands themselves."""
    from typer.core import TyperGroup
    from typer.main import get_group

    group = get_group(app)
    ctx = typer.Context(group, info_name="simkit", terminal_width=80)
    lazy, eager = ctx.make_formatter(), ctx.make_formatter()
    group.format_commands(ctx, lazy)
    TyperGroup.format_commands(group, ctx, eager)  # imports and builds every command
    assert lazy.getvalue() == eager.getvalue() and "replay" in eager.getvalue()


def test_prose_wraps_at_a_terminals_width_and_a_pipe_gets_each_message_on_one_line():
    """A long message of the command line's consoles (simkit.commands.output), on a terminal of 60 columns (a
    pseudo-terminal) and on a pipe."""
    import os
    import pty
    import subprocess
    import sys

    message = " ".join(f"word{i}" for i in range(40))
    code = f"from simkit.commands.output import err_console, out_console\nout_console.print({message!r})\n"
    env = {**os.environ, "COLUMNS": "60", "TERM": "xterm"}
    piped = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert piped.stdout.splitlines() == [message]
    leader, follower = pty.openpty()
    with subprocess.Popen([sys.executable, "-c", code], stdout=follower, stderr=follower, env=env) as proc:
        os.close(follower)
        shown = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the terminal closed: the process has ended
                break
            if not chunk:
                break
            shown += chunk
    os.close(leader)
    assert proc.returncode == 0, shown
    lines = [line for line in shown.decode().replace("\r", "").splitlines() if line.strip()]
    assert len(lines) > 1 and max(len(line.rstrip()) for line in lines) <= 60, lines
    assert " ".join(lines).split() == message.split()  # wrapped between words, none cut in two


def test_an_abort_ends_with_exit_code_130_and_no_traceback(monkeypatch):
    """Ctrl-C where no command catches it (typer turns it into its Abort): exit 130, nothing else."""
    import typer

    import simkit.analysis.report

    def interrupted(*args, **kwargs):
        raise typer.Abort()

    monkeypatch.setattr(simkit.analysis.report, "summarise_dataset", interrupted)
    result = runner.invoke(app, ["report", "tests"])
    assert result.exit_code == 130, result.output
    assert "Traceback" not in result.output


# --- an unwritable --out, said alike by run and study --------------------------------------------------


def _unwritable_folder(tmp_path):
    """A folder this process cannot write: a read-only one for a user, /sys for root (if it refuses too)."""
    import os
    import tempfile

    if os.geteuid() != 0:
        folder = tmp_path / "read-only"
        folder.mkdir()
        folder.chmod(0o555)
        return folder
    try:
        os.close(tempfile.mkstemp(dir="/sys")[0])
    except OSError:
        return Path("/sys")
    pytest.skip("no folder this root process cannot write")


def _error_line(result) -> str:
    assert "Traceback" not in result.output and result.exit_code == 1, result.output
    (line,) = result.stderr.strip().splitlines()
    return line


def test_study_says_an_unwritable_out_as_run_does(tmp_path):
    """`simkit study --out READ_ONLY` said "[Errno 30] Read-only file system: ..." where run says "cannot write
    to DIR: Read-only file system": the same words now, for the folder itself and for one to be made in it."""
    folder = _unwritable_folder(tmp_path)
    for out in (folder, folder / "new"):
        ran = _error_line(runner.invoke(app, ["run", "--games", "10", "--out", str(out), "--quiet"]))
        studied = _error_line(
            runner.invoke(
                app,
                [
                    "study",
                    "first-player",
                    "--policy",
                    "random",
                    "--players",
                    "2",
                    "--games",
                    "10",
                    "--out",
                    str(out),
                    "--quiet",
                ],
            )
        )
        assert ran.startswith(f"error: cannot write to {out}: ") and "Errno" not in ran
        assert studied == ran
    assert not (folder / "new").exists()


def test_a_read_only_file_system_is_said_in_words(tmp_path, monkeypatch):
    """EROFS, as a read-only mount gives it (simulated: root writes anywhere else)."""
    import errno
    import os
    import pathlib
    import tempfile

    folder = tmp_path / "mounted-read-only"
    folder.mkdir()

    def read_only(path):
        return str(path).startswith(str(folder))

    real_mkstemp: Callable[..., Any] = tempfile.mkstemp  # called with what the code under test passes
    real_mkdtemp: Callable[..., Any] = tempfile.mkdtemp
    real_write, real_mkdir = pathlib.Path.write_bytes, pathlib.Path.mkdir

    def refuse(path):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))

    monkeypatch.setattr(
        tempfile, "mkstemp", lambda *a, dir=None, **k: refuse(dir) if read_only(dir) else real_mkstemp(*a, dir=dir, **k)
    )
    monkeypatch.setattr(
        tempfile, "mkdtemp", lambda *a, dir=None, **k: refuse(dir) if read_only(dir) else real_mkdtemp(*a, dir=dir, **k)
    )
    monkeypatch.setattr(
        pathlib.Path, "write_bytes", lambda self, data: refuse(self) if read_only(self) else real_write(self, data)
    )
    monkeypatch.setattr(
        pathlib.Path,
        "mkdir",
        lambda self, *a, **k: refuse(self) if read_only(self) and not self.exists() else real_mkdir(self, *a, **k),
    )
    for out in (folder, folder / "new"):
        ran = _error_line(runner.invoke(app, ["run", "--games", "10", "--out", str(out), "--quiet"]))
        studied = _error_line(
            runner.invoke(
                app,
                [
                    "study",
                    "first-player",
                    "--policy",
                    "random",
                    "--players",
                    "2",
                    "--games",
                    "10",
                    "--out",
                    str(out),
                    "--quiet",
                ],
            )
        )
        assert ran == studied == f"error: cannot write to {out}: Read-only file system"


def test_no_short_flag_means_two_things():
    """-t was --teams in run, study and play but --turn in replay: a short flag names one option everywhere."""
    from typer.main import get_group

    meaning: dict[str, set[str]] = {}
    for command in get_group(app).commands.values():
        for param in command.params:
            for flag in [*param.opts, *param.secondary_opts]:
                if flag.startswith("-") and not flag.startswith("--"):
                    meaning.setdefault(flag, set()).add(param.name)
    assert meaning["-t"] == {"teams"}
    assert {flag: names for flag, names in meaning.items() if len(names) > 1} == {}


# --- a fuzz of bad command lines: one error line, never a traceback ---------------------------------------

RULE_VALUES = {
    "--players": ["2", "4", "5", "x"],
    "-p": ["3", "0"],
    "--teams": ["2", "3", "4"],
    "-t": ["3", "x"],
    "--hand-size": ["7", "6,7", "7,", "0", "7,6,5", ""],
    "--late-card": ["0", "5", "-1", "x"],
    "--handicap": ["9", "9,3", "0,", "x"],
    "--max-turns": ["30", "0", "100001"],
    "--sequences-to-win": ["1", "9"],
    "--no-reshuffle": None,
    "--chip-limit": None,
}
# command: (positional arguments, {option: its values, None for a flag})
FUZZ: dict[str, tuple[list[str], dict[str, list[str] | None]]] = {
    "run": (
        [],
        {
            "--games": ["10", "0", "-3", "x", "1e3"],
            "-n": ["5"],
            "--policy": [
                "random",
                "greedy,random,random",
                "clever",
                "random:depth=3",
                "greedy:block4=1:block4=2",
                ",",
                "",
            ],
            "--seed": ["1", "-1", str(2**63)],
            "--threads": ["1", "99", "0"],
            "--chunk-size": ["10", "0", "5000001"],
            "--scheduler": ["lan:3", "local:x"],
            "--out": ["{tmp}/new", "{tmp}/afile", "{tmp}/afile/x", "{tmp}/ds", "{tmp}/damaged"],
            "--swap-seats": None,
            "--overwrite": None,
            **RULE_VALUES,
        },
    ),
    "study": (
        ["first-player", "hand-size", "teams", "variants", "nosuch", ""],
        {
            "--games": ["10", "0", "x"],
            "--policy": ["random", "clever", "random,random,random"],
            "--sizes": ["3..5", "3..x", "9..3", ""],
            "--family": ["late_card", "nosuch"],
            "--check": ["x"],
            "--seed": ["1", "-1"],
            "--out": ["{tmp}/study", "{tmp}/afile", "{tmp}/afile/x", "/sys/x"],
            "--threads": ["0", "1"],
            **RULE_VALUES,
        },
    ),
    "report": (
        ["{tmp}/ds", "{tmp}/damaged", "{tmp}/missing", "{tmp}/afile", "{tmp}", ""],
        {
            "--format": ["xml", "json", "csv", "markdown", "rich", "JSON", ""],
            "-f": ["md", "csv"],
            "--explain": None,
            "--allow-incomplete": None,
        },
    ),
    "play": (
        [],
        {
            "--games": ["1", "0", "x"],
            "--first-game": ["-1", "3"],
            "--policy": ["random", "clever"],
            "--record": ["{tmp}/r.jsonl", "{tmp}/afile", "{tmp}", "/nonexistent-dir/x.jsonl"],
            "--force": None,
            "--no-board": None,
            "--seed": ["1", "x"],
            **RULE_VALUES,
        },
    ),
    "replay": (
        ["{tmp}/game.jsonl", "{tmp}/bad.jsonl", "{tmp}/missing.jsonl", "{tmp}/afile", "{tmp}", ""],
        {"--turn": ["0", "3", "-1", "99999", "x"], "--game": ["7", "99", "x"], "-g": ["7"], "-t": ["3"]},
    ),
}


def _fuzzed(rng, command: str) -> list[str]:
    """A command line of `command`: maybe a positional argument, then a few options with values of their own
    (good and bad), now and then a stray word."""
    positionals, options = FUZZ[command]
    words = [command]
    if positionals and rng.random() < 0.9:
        words.append(rng.choice(positionals))
    for _ in range(rng.randint(0, 4)):
        option = rng.choice(list(options))
        words.append(option)
        if options[option] is not None and rng.random() < 0.95:
            words.append(rng.choice(options[option]))
    if rng.random() < 0.1:
        words.insert(rng.randint(1, len(words)), rng.choice(["--nosuch", "-x", "extra", "--"]))
    return words


class WouldPlay(Exception):
    """A fuzzed command line that was good enough to play: stopped before the first game."""


def _stop_before_playing(monkeypatch):
    import simkit.game.records
    import simkit.running.runner
    import simkit.studies.loop

    def would_play(*args, **kwargs):
        raise WouldPlay

    monkeypatch.setattr(simkit.running.runner, "run", would_play)
    monkeypatch.setattr(simkit.studies.loop, "run_study", would_play)
    monkeypatch.setattr(simkit.game.records, "game_record", would_play)


@pytest.mark.parametrize("command", list(FUZZ))
def test_a_fuzz_of_bad_command_lines_gets_one_error_line_and_never_a_traceback(command, tmp_path, monkeypatch):
    """Seeded random command lines of each command (options, values, paths, some good, most bad): each is
    played (stopped before the first game), reported, or refused with one `error:` line (a dataset that lacks
    games: its lines, exit code 3); never a traceback, never exit code 0 with an error."""
    import random
    import shutil

    from simkit.game.players import Lineup
    from simkit.game.rules import Rules
    from simkit.running.runner import RunSpec
    from simkit.running.runner import run as run_games

    rules = Rules.make(2)
    for folder in ("ds", "damaged"):
        run_games(tmp_path / folder, RunSpec(rules, Lineup.parse("random", rules), 1, 20, 10))
    part = tmp_path / "damaged" / ds.part_name(10)
    part.write_bytes(part.read_bytes()[::-1])
    (tmp_path / "afile").write_text("x\n")
    shutil.copy(Path(__file__).parent / "golden" / "2p_seed7.jsonl", tmp_path / "game.jsonl")
    (tmp_path / "bad.jsonl").write_text('{"format": "simkit.game/1"}\n[1]\n')
    monkeypatch.chdir(tmp_path)
    _stop_before_playing(monkeypatch)
    rng = random.Random(f"fuzz {command}")
    seen = {0: 0, 1: 0, 2: 0, 3: 0, "played": 0}
    for _ in range(60):
        argv = [w.replace("{tmp}", str(tmp_path)) for w in _fuzzed(rng, command)]
        result = runner.invoke(app, argv)
        if isinstance(result.exception, WouldPlay):
            seen["played"] += 1
            continue
        assert "Traceback" not in result.output, argv
        assert result.exception is None or isinstance(result.exception, SystemExit), (argv, result.exception)
        assert result.exit_code in (0, 1, 2, 3), (argv, result.exit_code, result.output)
        seen[result.exit_code] += 1
        err = [line for line in result.stderr.splitlines() if line.strip()]
        if result.exit_code in (1, 2):
            assert len(err) == 1 and err[0].startswith("error: "), (argv, result.stderr)
        elif result.exit_code == 3:
            assert err[0].startswith("error: ") and all(line.startswith("  ") for line in err[1:]), argv
        else:
            assert not any(line.startswith("error") for line in err), (argv, result.stderr)
    assert seen[1] + seen[2] > 0, seen
