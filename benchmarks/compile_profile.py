"""Where a cold compile spends its time: seconds per compiled function, and how much of it is LLVM.

    python benchmarks/compile_profile.py greedy          # a cold `simkit run --games 1000 --policy greedy`
    python benchmarks/compile_profile.py swift --top 40  # the 40 costliest functions

Runs the whole command in this process with an empty numba cache of its own and listens to numba's
compile events (``numba.core.event``): each function's own time (its callees' compiles, which numba runs
while typing it, taken out), and of it the time under LLVM's lock (linking its callees' machine code in,
optimising, making machine code). numba compiles each function with the code of every kernel it calls,
so a kernel called through a chain of kernels is optimised and compiled again at each level of the
chain: a deep chain shows as functions whose LLVM time is close to that of everything below them.
Compile times move by 10% between runs on a VM; compare revisions with ``compare.py --compile``.
"""

from __future__ import annotations

import argparse
import os
import runpy
import sys
import tempfile
import time
from collections import Counter


class CompileTimes:
    """Each compiled function's own seconds and LLVM seconds, from numba's compile and llvm_lock events (a
    ``numba.core.event.Listener`` with it: numba is imported only once its cache folder is set)."""

    def __init__(self) -> None:
        self.own: Counter[str] = Counter()
        self.llvm: Counter[str] = Counter()
        self.stack: list[list] = []  # [name, when its own time last resumed]
        self.llvm_start = 0.0

    def on_start(self, event) -> None:
        now = time.perf_counter()
        if event.kind == "numba:compile":
            if self.stack:  # the caller pauses while its callee compiles
                self.own[self.stack[-1][0]] += now - self.stack[-1][1]
            function = event.data["dispatcher"].py_func
            self.stack.append([f"{function.__module__.rsplit('.', 1)[-1]}.{function.__name__}", now])
        elif event.kind == "numba:llvm_lock":
            self.llvm_start = now

    def on_end(self, event) -> None:
        now = time.perf_counter()
        if event.kind == "numba:compile":
            name, resumed = self.stack.pop()
            self.own[name] += now - resumed
            if self.stack:
                self.stack[-1][1] = now
        elif event.kind == "numba:llvm_lock" and self.stack:
            self.llvm[self.stack[-1][0]] += now - self.llvm_start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("policy", help="the line-up, as `simkit run --policy` takes it")
    parser.add_argument("--top", type=int, default=25, help="how many functions to list")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["NUMBA_CACHE_DIR"] = f"{tmp}/cache"  # before numba reads its configuration
        from numba.core import event

        listener = type("CompileListener", (CompileTimes, event.Listener), {})()
        for kind in ("numba:compile", "numba:llvm_lock"):
            event.register(kind, listener)
        sys.argv = ["simkit", "run", "--games", "1000", "--policy", args.policy, "--quiet", "--out", f"{tmp}/run"]
        start = time.perf_counter()
        try:
            runpy.run_module("simkit", run_name="__main__")
        except SystemExit as exit_:
            if exit_.code:
                return int(exit_.code) if isinstance(exit_.code, int) else 1
        wall = time.perf_counter() - start
    own, llvm = listener.own, listener.llvm
    print(
        f"`simkit run --games 1000 --policy {args.policy}`, cold: {wall:.1f} s, of it compiling {len(own)} "
        f"functions {sum(own.values()):.1f} s, LLVM {sum(llvm.values()):.1f} s"
    )
    print("| function | own s | LLVM s |\n| --- | --- | --- |")
    for name, seconds in own.most_common(args.top):
        print(f"| {name} | {seconds:.2f} | {llvm[name]:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
