"""Speed and memory of simkit, measured; run by hand or with `make bench`.

    python benchmarks/bench.py              # every table: kernel 1 and 2 threads, the whole run; compile times
    python benchmarks/bench.py --quick      # the two-player table only, no compile times
    python benchmarks/bench.py --big        # also a 10,000,000-game run's wall time and peak memory
    python benchmarks/bench.py --out runs/bench.md   # the table printed and written to a file

Per legal table, random play: the kernel's games/s on one thread and on two
(and their ratio), a whole run's games/s on two threads (``simkit.running.runner.run``:
the kernel, Arrow, Parquet, fsync, the manifest) and its share of the
kernel's, and the CPU microseconds per game of each (user + system time of
this process over the games). Each figure is the best of `--rounds` rounds,
the rounds taken in turn over the tables so a slow spell hits them alike
(load can only slow a round down). Then the whole `simkit run` command,
start-up (`--games 1`) and 1,000,000 games. Prints a markdown table, with the
machine's load before and after (docs/guide/performance.md holds the latest).

Targets: a whole run at >= 90% of the kernel's games/s on two
threads; two threads >= 1.9 x one; the kernel at >= 0.95 x an independent C
implementation per thread at every table (benchmarks/c_reference/). Before and
after a change, benchmarks/compare.py times two revisions in turn. Never
run this while anything else loads the machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

from simkit.game.play import cores, set_threads

HERE = Path(__file__).resolve().parent
SIMKIT = [sys.executable, "-m", "simkit"]
TABLES = [(2, 2), (3, 3), (4, 2), (6, 2), (6, 3), (8, 2), (9, 3), (10, 2), (12, 2), (12, 3)]


def cpu_model() -> str:
    """The processor's name, family and model as Linux gives them (/proc/cpuinfo: two VMs both
    called "AMD EPYC" differ there), else the platform's machine type."""
    fields: dict[str, str] = {}
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    break  # the first processor's block
                key, _, value = line.partition(":")
                fields[key.strip()] = value.strip()
    except OSError:
        pass
    if "model name" not in fields:
        return platform.processor() or platform.machine()
    return (
        f"{fields['model name']}, family {fields.get('cpu family', '?')} model {fields.get('model', '?')}, "
        f"{platform.machine()}"
    )


def _cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


def kernel(rules, lineup, games: int, threads: int, first: int) -> tuple[float, float]:
    """(games/s, CPU µs per game) of the kernel alone on `threads` threads."""
    from simkit.game.play import simulate

    set_threads(threads)
    c, t = _cpu(), time.perf_counter()
    simulate(rules, lineup, 1, first, games)
    return games / (time.perf_counter() - t), (_cpu() - c) / games * 1e6


def whole_run(rules, lineup, games: int, threads: int, tmp: Path) -> tuple[float, float]:
    """(games/s, CPU µs per game) of a whole run: kernel, Arrow, Parquet, fsync, manifest (warm kernels)."""
    from simkit.running.runner import RunSpec, run

    set_threads(threads)
    out = Path(tempfile.mkdtemp(dir=tmp))
    c = _cpu()
    outcome = run(out, RunSpec(rules, lineup, 1, games))
    return outcome.games_per_second, (_cpu() - c) / games * 1e6


def per_table(rounds: int, tables, games: int) -> list[dict]:
    """Every measurement of every table: the best round of each; the kernel on one thread plays
    games // 2, on two `games`, a whole run 2 * games."""
    from simkit.game.play import simulate
    from simkit.game.players import Lineup
    from simkit.game.rules import Rules

    configs = {}
    for players, teams in tables:
        rules = Rules.make(players, teams)
        configs[players, teams] = (rules, Lineup.parse("random", rules))
        simulate(*configs[players, teams], 1, 0, 1000)  # compile or load, warm
    best: dict = {key: {"k1": (0, 0), "k2": (0, 0), "run": (0, 0)} for key in configs}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(rounds):
            for key, (rules, lineup) in configs.items():
                b = best[key]
                measures = {
                    "k1": partial(kernel, rules, lineup, games // 2, 1, r * games),
                    "k2": partial(kernel, rules, lineup, games, 2, r * games),
                    "run": partial(whole_run, rules, lineup, games * 2, 2, Path(tmp)),
                }
                for name, measure in measures.items():
                    measured = measure()
                    if measured[0] > b[name][0]:
                        b[name] = measured
            print(f"round {r + 1} of {rounds} done", file=sys.stderr, flush=True)
    return [{"table": f"{p}p/{t}t", **v} for (p, t), v in best.items()]


def timed_subprocess(args: list[str], env: dict | None = None) -> tuple[float, float]:
    """(wall seconds, peak RSS in MiB) of a child process `python -m MODULE ...`, the child's own peak:
    the child reports it (benchmarks/peak_rss.py), since the ru_maxrss os.wait4 gives is at least
    this process's size (a vforked child keeps its parent's high-water mark through exec). The child
    runs in a temporary folder: `python -m` puts the working directory first on the path, and the
    simkit found there would shadow the one PYTHONPATH names."""
    python, flag, module, *rest = args
    if flag != "-m":
        raise ValueError(f"timed_subprocess runs `python -m MODULE ...`, got {args[:3]}")
    with tempfile.TemporaryDirectory() as tmp:
        peak_file = f"{tmp}/peak"
        t = time.perf_counter()
        child = subprocess.Popen(
            [python, str(HERE / "peak_rss.py"), peak_file, module, *rest],
            env={**os.environ, **(env or {})},
            cwd=tmp,
            stdout=subprocess.DEVNULL,
        )
        status = child.wait()
        wall = time.perf_counter() - t
        if status != 0:
            raise subprocess.CalledProcessError(status, args)
        return wall, int(Path(peak_file).read_text()) / 1024


def compile_times(policy: str, env: dict | None = None) -> tuple[float, float]:
    """Seconds of a whole `simkit run --games 1000 --policy POLICY`: empty numba cache, then warm
    (env: more of the child's environment, such as another tree's PYTHONPATH)."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {**(env or {}), "NUMBA_CACHE_DIR": f"{tmp}/cache"}
        args = [*SIMKIT, "run", "--games", "1000", "--policy", policy, "--quiet"]
        cold, _ = timed_subprocess([*args, "--out", f"{tmp}/cold"], env)
        warm, _ = timed_subprocess([*args, "--out", f"{tmp}/warm"], env)
    return cold, warm


def load() -> str:
    """The load averages and the three busiest processes (other than this one)."""
    uptime = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    ps = subprocess.run(["ps", "-eo", "pid,pcpu,comm", "--sort=-pcpu"], capture_output=True, text=True).stdout
    busy = [line.split(None, 2) for line in ps.splitlines()[1:]]
    others = [f"{comm} {cpu}%" for pid, cpu, comm in busy if int(pid) != os.getpid()][:3]
    return f"{uptime}; busiest: {', '.join(others)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400_000, help="games per two-thread kernel timing")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="the two-player table only, no compile times")
    parser.add_argument("--big", action="store_true", help="also a 10,000,000-game run's wall time and memory")
    parser.add_argument("--out", type=Path, help="also write the table to this file")
    args = parser.parse_args()
    before = load()
    tables = TABLES[:1] if args.quick else TABLES
    rows = per_table(args.rounds, tables, args.games)
    extra = []
    if not args.quick:
        for policy in ("random", "greedy", "lookahead"):
            cold, warm = compile_times(policy)
            extra.append(
                (
                    f"`simkit run --games 1000 --policy {policy}`, empty / warm numba cache",
                    f"{cold:.1f} s / {warm:.1f} s",
                )
            )
    kernel_2p = rows[0]["k2"][0]  # the two-player kernel on two threads, games/s

    def whole_command(games: int, where: str) -> tuple[str, str]:
        wall, peak = timed_subprocess([*SIMKIT, "run", "--games", str(games), "--out", where, "--quiet"])
        return (
            f"`simkit run` {games:,} games, warm cache, whole command (start-up included)",
            f"{wall:.1f} s = {games / wall:,.0f} games/s, {games / wall / kernel_2p:.1%} of the 2p kernel on "
            f"2 threads; peak RSS {peak:.0f} MiB",
        )

    with tempfile.TemporaryDirectory() as tmp:
        wall, _ = timed_subprocess([*SIMKIT, "run", "--games", "1", "--out", f"{tmp}/one", "--quiet"])
        extra.append(("`simkit run --games 1`, warm cache (start-up)", f"{wall:.2f} s"))
        extra.append(whole_command(1_000_000, f"{tmp}/m"))
        if args.big:
            extra.append(whole_command(10_000_000, f"{tmp}/b"))
    import numba

    lines = [
        "# Benchmark results",
        "",
        f"Machine: {os.cpu_count()} cores ({cpu_model()}), Python "
        f"{platform.python_version()}, numba {numba.__version__}. Produced by `benchmarks/bench.py` on "
        f"{time.strftime('%Y-%m-%d')}; load before: {before}; after: {load()}.",
        "",
        "Random play, per table: the kernel on 1 and 2 threads, a whole run (Parquet) on 2 threads; best of "
        f"{args.rounds} rounds; CPU µs per game is user + system time over the games.",
        "",
        "| table | kernel, 1 thread | kernel, 2 threads | 2 / 1 | whole run, 2 threads | run / kernel | "
        "CPU µs per game, kernel / run |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        (k1, _), (k2, c2), (run, cr) = r["k1"], r["k2"], r["run"]
        lines.append(
            f"| {r['table']} | {k1:,.0f} | {k2:,.0f} | {k2 / k1:.2f} | {run:,.0f} | {run / k2:.1%} "
            f"| {c2:.2f} / {cr:.2f} |"
        )
    lines += ["", "| measurement | result |", "| --- | --- |", *[f"| {a} | {b} |" for a, b in extra], ""]
    text = "\n".join(lines)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")
    print(text)
    if cores() < 2:
        print("(one core: the two-thread figures are one thread's)")


if __name__ == "__main__":
    main()
