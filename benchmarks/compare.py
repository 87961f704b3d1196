"""Games/s per core, whole commands and cold compile times of this tree, optionally against another revision.

    python benchmarks/compare.py                            # games/s: each player at 2p/2t and 12p/2t, 1 and 2 threads
    python benchmarks/compare.py --before 37a04eb           # and the same of git revision 37a04eb, interleaved
    python benchmarks/compare.py --player random --player greedy --player lookahead --table 2/2 --threads 1
    python benchmarks/compare.py --player swift --player lookahead:horizon=8 --table 4/2 --threads 1
    python benchmarks/compare.py --player random --table all --before HEAD~1   # the kernel at every table
    python benchmarks/compare.py --compile --before HEAD~3  # cold `simkit run --games 1000` per player instead
    python benchmarks/compare.py --run 10000000 --before HEAD~1 --rounds 5   # a whole warm `simkit run` per tree
    python benchmarks/compare.py --asm --player greedy --before HEAD~1   # the same machine code?

A player is any line-up `simkit run --policy` takes (`swift:removals=0`,
`swift,lookahead`), played on every seat; a table is PLAYERS/TEAMS, or `all`
(the ten legal tables). `--before REV` checks REV out into a git worktree of
its own (its kernels, its numba cache) under ~/.cache/simkit/compare/, kept
there so that the next comparison with REV starts warm (`git worktree remove`
removes one). Games/s: one child process per tree loads every line-up first
(compiling outside the timings), then each timing is taken in turn by the
trees, key by key and round by round, so a slow spell of the machine hits
both alike; every tree plays the same games (seed 1, games 0..n-1, n chosen
by a first timing to last about `--seconds`). Each figure is the best of the
rounds (load can only slow a timing down). `--compile` times a whole
`simkit run --games 1000 --policy P` with an empty numba cache, then warm
(the trees in turn, best of the rounds);
`--run N` a whole warm `simkit run --games N` (start-up, Parquet and the
manifest included; `--run 1` is the start-up) with its peak memory, the
trees in turn round by round. `--asm` compiles each line-up in each tree
with an empty numba cache and compares the instructions of every function
(labels, symbols and addresses left out): where they are the same, so is the
speed, whatever the timings' noise; it may run on a loaded machine. Prints a
markdown table, and the machine's load before and after. Never time while
anything else loads the machine.

Targets, on one thread: greedy >= 15% of random's games/s; the default
lookahead >= 25 games/s; two threads >= 1.9 x one. A line-up of random,
greedy or the lookahead compiles within 10% of b49a13f (`--compile --before
b49a13f`: compile times move by 20% from day to day on a VM).
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import SIMKIT, compile_times, load, timed_subprocess
from bench import TABLES as ALL_TABLES

SCRIPT = Path(__file__).resolve()
ROOT = SCRIPT.parents[1]
PLAYERS = ("random", "greedy", "fast", "swift", "lookahead", "ismcts")
TABLES = ("2/2", "12/2")
EVERY_TABLE = [f"{p}/{t}" for p, t in ALL_TABLES]
THREADS = (1, 2)
TREES = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "simkit" / "compare"


def modules() -> list:
    """The tree's modules of play, line-ups and rules: simkit.game's, or an older revision's names for them
    (line-ups in a module of policies; before that, the three at simkit's top). Chosen by the tree's own
    folders: the installed package's finder would serve a module missing there from this checkout."""
    import simkit

    here = Path(simkit.__file__).parent
    for package, lineups in (("game.", "players"), ("game.", "policies"), ("", "policies")):
        if (here / package.rstrip(".") / f"{lineups}.py").exists():
            return [importlib.import_module(f"simkit.{package}{name}") for name in ("play", lineups, "rules")]
    sys.exit("error: this tree's simkit has no module of play, line-ups and rules that compare.py knows")


def serve() -> None:
    """The child: load a line-up per key named on stdin ("load KEY"), time one ("time KEY GAMES"); one
    JSON line answers each (games/s, or the games that last about a second)."""
    play, players, rules_module = modules()
    set_threads, simulate, Lineup, Rules = play.set_threads, play.simulate, players.Lineup, rules_module.Rules
    configs = {}
    for line in sys.stdin:
        verb, key, *rest = line.rstrip("\n").split("|")
        player, table, threads = key.split(" ")
        if verb == "load":
            rules = Rules.make(*map(int, table.split("/")))
            configs[key] = (rules, Lineup.parse(player, rules), int(threads))
            set_threads(int(threads))
            simulate(*configs[key][:2], 1, 0, 2 * int(threads))  # compile or load from the cache
            games = 2 * int(threads)
            while True:
                t = time.perf_counter()
                simulate(*configs[key][:2], 1, 0, games)
                elapsed = time.perf_counter() - t
                if elapsed > 0.25:
                    break
                games *= 4
            answer = games / elapsed
        else:
            rules, lineup, threads = configs[key]
            set_threads(threads)
            games = int(rest[0])
            t = time.perf_counter()
            simulate(rules, lineup, 1, 0, games)
            answer = games / (time.perf_counter() - t)
        print(json.dumps(answer), flush=True)


def child(tree: Path, *args: str, **env: str) -> tuple[list[str], dict[str, str]]:
    """The command and environment of this script run as a child on `tree`'s simkit (its folder on the path too,
    for `bench`), with `env` added."""
    path = f"{tree}{os.pathsep}{SCRIPT.parent}"
    return [sys.executable, str(SCRIPT), *args], {**os.environ, "PYTHONPATH": path, **env}


class Child:
    """A serving child process that runs `tree`'s code."""

    def __init__(self, tree: Path):
        command, env = child(tree, "--serve")
        self.proc = subprocess.Popen(command, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, *words: object) -> float:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write("|".join(map(str, words)) + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        if not answer:
            sys.exit(f"a child process ended (exit code {self.proc.wait()}); its error is above")
        return float(json.loads(answer))

    def close(self) -> None:
        assert self.proc.stdin
        self.proc.stdin.close()
        self.proc.wait()


def worktree(rev: str) -> Path:
    """A git worktree of `rev` (kept for the next comparison) whose simkit/kernels links to its kernels/, as the
    installed package maps them."""
    sha = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", f"{rev}^{{commit}}"], capture_output=True, text=True
    ).stdout.strip()
    if not sha:
        sys.exit(f"error: {rev!r} is not a commit of this repository")
    path = TREES / sha[:12]
    if not path.is_dir():
        TREES.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(path), sha], check=True)
    link = path / "simkit" / "kernels"
    if not link.exists():
        link.symlink_to("../kernels")
    return path


def compare_speed(trees: dict[str, Path], args: argparse.Namespace) -> None:
    keys = [f"{p} {t} {k}" for p in args.player for t in args.table for k in args.threads]
    children = {name: Child(tree) for name, tree in trees.items()}
    games: dict[str, int] = {}
    for key in keys:
        rates = [child.ask("load", key) for child in children.values()]
        games[key] = max(2, round(min(rates) * args.seconds))
    print(f"loaded; load {load()}", file=sys.stderr, flush=True)
    best: dict[str, dict[str, float]] = {name: {} for name in trees}
    for key in keys:
        for _ in range(args.rounds):
            for name, child in children.items():
                best[name][key] = max(best[name].get(key, 0.0), child.ask("time", key, games[key]))
        print(f"{key}: " + ", ".join(f"{best[n][key]:,.1f}" for n in trees), file=sys.stderr, flush=True)
    for child in children.values():
        child.close()
    names = list(trees)
    pair = len(names) == 2
    print(
        "| player | table | threads | games | "
        + " | ".join(f"{n}, games/s" for n in names)
        + (" | after / before |" if pair else " |")
    )
    print("| --- | --- | --- | --- |" + " --- |" * (len(names) + pair))
    for key in keys:
        player, table, threads = key.split(" ")
        cells = [f"{best[n][key]:,.1f}" for n in names]
        if pair:
            cells.append(f"{best[names[1]][key] / best[names[0]][key]:.3f}")
        print(f"| {player} | {table.replace('/', 'p/')}t | {threads} | {games[key]:,} | " + " | ".join(cells) + " |")
    if {"random", "greedy"} <= set(args.player):
        for table, k in ((t, k) for t in args.table for k in args.threads):
            shares = [best[n][f"greedy {table} {k}"] / best[n][f"random {table} {k}"] for n in names]
            print(f"greedy at {table} on {k} thread(s): " + ", ".join(f"{s:.1%}" for s in shares) + " of random")


def compare_commands(trees: dict[str, Path], args: argparse.Namespace) -> None:
    """Whole warm `simkit run --games N` per tree, best of the rounds, the trees in turn."""
    best: dict[str, tuple[float, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for i, tree in enumerate(trees.values()):  # each tree's kernels compiled or loaded, its cache warm
            timed_subprocess(
                [*SIMKIT, "run", "--games", "1000", "--out", f"{tmp}/w{i}", "--quiet"], {"PYTHONPATH": str(tree)}
            )
        for r in range(args.rounds):
            for i, (name, tree) in enumerate(trees.items()):
                out = f"{tmp}/r{r}t{i}"
                wall, peak = timed_subprocess(
                    [*SIMKIT, "run", "--games", str(args.run), "--out", out, "--quiet"], {"PYTHONPATH": str(tree)}
                )
                best[name] = min(best.get(name, (wall, peak)), (wall, peak))
                print(f"round {r + 1}: {name} {wall:.2f} s, peak RSS {peak:.0f} MiB", file=sys.stderr, flush=True)
    print(f"| tree | `simkit run --games {args.run:,}`, best of {args.rounds} | games/s | peak RSS |")
    print("| --- | --- | --- | --- |")
    for name, (wall, peak) in best.items():
        print(f"| {name} | {wall:.2f} s | {args.run / wall:,.0f} | {peak:.0f} MiB |")


def instructions() -> None:
    """The child of --asm: compile the line-up named on the command line (two-player table) and print, per compiled
    function and signature, a hash of its instructions, with their count."""
    import hashlib
    import re

    from numba.core.registry import CPUDispatcher

    play, lineups, rules_module = modules()
    rules = rules_module.Rules.make(2)
    play.simulate(rules, lineups.Lineup.parse(sys.argv[-1], rules), 1, 0, 4)
    found = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith("simkit.kernels"):
            continue
        for value in vars(module).values():
            if isinstance(value, CPUDispatcher):
                for signature, asm in value.inspect_asm().items():
                    lines = [line for line in asm.splitlines() if line.startswith("\t") and not line.startswith("\t.")]
                    text = "\n".join(re.sub(r"_Z\w+|\.L\w+|0x[0-9a-f]+", "_", line) for line in lines)
                    key = f"{value.py_func.__name__}{signature}".replace("PolicySet", "PlayerSet")
                    found[key] = (len(lines), hashlib.sha256(text.encode()).hexdigest()[:12])
    print(json.dumps(found))


def compare_asm(trees: dict[str, Path], args: argparse.Namespace) -> None:
    names = list(trees)
    print("| line-up | functions | " + " | ".join(f"{n}: instructions" for n in names) + " | the same |")
    print("| --- | --- |" + " --- |" * len(names) + " --- |")
    for player in args.player:
        found = []
        for tree in trees.values():
            with tempfile.TemporaryDirectory() as cache:
                command, env = child(tree, "--asm-child", player, NUMBA_CACHE_DIR=cache)
                done = subprocess.run(command, env=env, capture_output=True, text=True, check=True, cwd=cache)
            found.append(json.loads(done.stdout))
        cells = [f"{sum(n for n, _ in f.values()):,}" for f in found]
        same = "yes" if all(f == found[0] for f in found) else "no"
        print(f"| {player} | {len(found[-1])} | " + " | ".join(cells) + f" | {same} |", flush=True)


def compare_compile(trees: dict[str, Path], args: argparse.Namespace) -> None:
    names = list(trees)
    print("| player | " + " | ".join(f"{n}: empty cache / warm, s" for n in names) + " |")
    print("| --- |" + " --- |" * len(names))
    for player in args.player:
        best = {name: (math.inf, math.inf) for name in names}
        for _ in range(args.rounds):  # the trees in turn, best of the rounds
            for name, tree in trees.items():
                cold, warm = compile_times(player, {"PYTHONPATH": str(tree)})
                best[name] = (min(best[name][0], cold), min(best[name][1], warm))
        cells = [f"{cold:.1f} / {warm:.1f}" for cold, warm in best.values()]
        print(f"| {player} | " + " | ".join(cells) + " |", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", metavar="REV", help="a git revision timed in turn with this tree")
    parser.add_argument("--player", action="append", help=f"line-ups to time (default: {', '.join(PLAYERS)})")
    parser.add_argument("--table", action="append", help=f"PLAYERS/TEAMS, or all (default: {', '.join(TABLES)})")
    parser.add_argument("--threads", action="append", type=int, help="kernel threads (default: 1 and 2)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2.0, help="about how long one timing lasts")
    parser.add_argument("--compile", action="store_true", help="cold and warm compile times instead of games/s")
    parser.add_argument("--run", type=int, metavar="GAMES", help="a whole warm `simkit run --games GAMES` instead")
    parser.add_argument("--asm", action="store_true", help="whether the trees compile the same machine code")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--asm-child", metavar="LINEUP", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve()
        return 0
    if args.asm_child:
        instructions()
        return 0
    args.player = args.player or list(PLAYERS)
    args.table = [t for table in args.table or TABLES for t in (EVERY_TABLE if table == "all" else [table])]
    args.threads = args.threads or list(THREADS)
    print(f"load before: {load()}", file=sys.stderr)
    trees = {"this tree": ROOT}
    if args.before:
        trees = {f"before ({args.before})": worktree(args.before), **trees}
    if args.run:
        compare_commands(trees, args)
    elif args.asm:
        compare_asm(trees, args)
    else:
        (compare_compile if args.compile else compare_speed)(trees, args)
    print(f"load after: {load()}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
