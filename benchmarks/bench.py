"""Speed and memory of simkit, measured; run by hand or with `make bench`.

    python benchmarks/bench.py            # kernel vs end-to-end, 1 and 2 threads, compile times
    python benchmarks/bench.py --big      # also a 10,000,000-game run's peak memory

Writes benchmarks/results.md (and prints it). Targets: kernel >= 100,000
random 2-player games/s per core; end-to-end within 10% of the kernel (and
within 2% of the previous version's end-to-end rate); 2 threads >= 1.8 x 1
thread; 1,000,000 games end to end < 10 s with a warm cache; a whole
`simkit run --games 1000` from an empty numba cache within 20 s for random
play and 30 s for greedy, within about 1 s with the cache. Never run this
while anything else loads the machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from simkit.play import cores, set_threads

HERE = Path(__file__).resolve().parent
SIMKIT = [sys.executable, "-m", "simkit"]


def kernel_rate(policy: str, games: int, threads: int, reps: int = 3, players: int = 2) -> float:
    """Games/s of the kernel alone (after warm-up), on `threads` threads: the best of `reps`."""
    from simkit.play import simulate
    from simkit.policies import Lineup
    from simkit.rules import Rules

    set_threads(threads)
    rules = Rules.make(players)
    lineup = Lineup.parse(policy, rules)
    simulate(rules, lineup, 1, 0, min(games, 1000))  # compile / load, warm caches
    best = 0.0
    for rep in range(reps):
        t = time.perf_counter()
        simulate(rules, lineup, 1, rep * games, games)
        best = max(best, games / (time.perf_counter() - t))
    return best


def end_to_end_rate(games: int, threads: int) -> float:
    """Games/s of one whole random 2-player run (kernel + Arrow + Parquet + manifest), warm."""
    from simkit.policies import Lineup
    from simkit.rules import Rules
    from simkit.runner import DEFAULT_CHUNK_SIZE, RunSpec, run

    set_threads(threads)
    rules = Rules.make(2)
    lineup = Lineup.parse("random", rules)
    with tempfile.TemporaryDirectory() as tmp:
        run(Path(tmp) / "warm", RunSpec(rules, lineup, 1, 1000, 1000))
        return run(Path(tmp) / "timed", RunSpec(rules, lineup, 1, games, DEFAULT_CHUNK_SIZE)).games_per_second


def kernel_and_end_to_end(games: int, threads: int, rounds: int = 5) -> tuple[float, float]:
    """Best kernel and end-to-end rates, measured alternately so drift hits both alike."""
    kernel, e2e = 0.0, 0.0
    for _ in range(rounds):
        kernel = max(kernel, kernel_rate("random", games, threads, reps=1))
        e2e = max(e2e, end_to_end_rate(games, threads))
    return kernel, e2e


def timed_subprocess(args: list[str], env: dict | None = None) -> tuple[float, float]:
    """(wall seconds, peak RSS in MiB) of a child process, that child's alone.

    os.wait4 gives the child's own rusage; RUSAGE_CHILDREN would report the
    largest of every child so far (the cold compile's, for one).
    """
    t = time.perf_counter()
    child = subprocess.Popen(args, env={**os.environ, **(env or {})}, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - t
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise subprocess.CalledProcessError(child.returncode, args)
    return wall, usage.ru_maxrss / 1024


def compile_times(policy: str) -> tuple[float, float]:
    """Seconds of a whole `simkit run --games 1000 --policy POLICY`: empty numba cache, then warm."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {"NUMBA_CACHE_DIR": f"{tmp}/cache"}
        args = [*SIMKIT, "run", "--games", "1000", "--policy", policy, "--quiet"]
        cold, _ = timed_subprocess([*args, "--out", f"{tmp}/cold"], env)
        warm, _ = timed_subprocess([*args, "--out", f"{tmp}/warm"], env)
    return cold, warm


class _Rows(list):
    """Measurements, each printed as it is taken."""

    def append(self, row: tuple[str, str]) -> None:
        print(f"{row[0]}: {row[1]}", flush=True)
        super().append(row)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500_000, help="games per timed kernel call")
    parser.add_argument("--big", action="store_true", help="also measure a 10,000,000-game run's peak RSS")
    args = parser.parse_args()
    most = cores()
    rows = _Rows()

    for policy in ("random", "greedy", "lookahead"):
        cold, warm = compile_times(policy)
        rows.append((f"`simkit run --games 1000 --policy {policy}`, empty / warm numba cache",
                     f"{cold:.1f} s / {warm:.1f} s"))

    k1, e1 = kernel_and_end_to_end(args.games, 1)
    rows.append(("kernel, random 2p, 1 thread", f"{k1:,.0f} games/s"))
    rows.append(("end to end (Parquet), 1 thread", f"{e1:,.0f} games/s ({e1 / k1:.0%} of kernel)"))
    if most >= 2:
        k2, e2 = kernel_and_end_to_end(args.games, 2)
        rows.append(("kernel, random 2p, 2 threads", f"{k2:,.0f} games/s ({k2 / k1:.2f} x 1 thread)"))
        rows.append(("end to end (Parquet), 2 threads", f"{e2:,.0f} games/s ({e2 / k2:.0%} of kernel)"))

    with tempfile.TemporaryDirectory() as tmp:
        wall, peak = timed_subprocess(
            [*SIMKIT, "run", "--games", "1000000", "--out", f"{tmp}/m", "--quiet"])
        rows.append(("`simkit run` 1,000,000 games, warm cache, all cores", f"{wall:.1f} s wall, peak RSS {peak:.0f} MiB"))
        if args.big:
            wall, peak = timed_subprocess(
                [*SIMKIT, "run", "--games", "10000000", "--out", f"{tmp}/big", "--quiet"])
            rows.append(("`simkit run` 10,000,000 games, all cores", f"{wall:.1f} s wall, peak RSS {peak:.0f} MiB"))

    for policy, games in (("greedy", 50_000), ("lookahead", 100)):
        rate = kernel_rate(policy, games, 1)
        share = f"{rate / k1:.2%}" if rate >= k1 / 10_000 else f"1/{k1 / rate:,.0f}"
        rows.append((f"kernel, {policy} 2p, 1 thread", f"{rate:,.1f} games/s ({share} of random)"))

    import numba

    cpu = platform.processor() or platform.machine()
    lines = [
        "# Benchmark results",
        "",
        f"Machine: {os.cpu_count()} cores ({cpu}), Python {platform.python_version()}, numba {numba.__version__}. "
        f"Produced by `benchmarks/bench.py` on {time.strftime('%Y-%m-%d')}.",
        "",
        "| measurement | result |",
        "| --- | --- |",
        *[f"| {name} | {value} |" for name, value in rows],
        "",
    ]
    text = "\n".join(lines)
    (HERE / "results.md").write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
