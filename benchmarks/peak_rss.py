"""Run ``python -m MODULE ARGS...`` and, at exit, write this process's peak memory to a file.

    python benchmarks/peak_rss.py PEAK_FILE MODULE [ARGS...]

PEAK_FILE gets the peak resident set size in KiB: VmHWM of /proc/self/status
(Linux), else ru_maxrss. (The benchmarks time their commands through this:
the ru_maxrss that os.wait4 reports for a child is at least the size of the
parent that started it, since a child started by vfork and exec keeps the
parent's high-water mark.)
"""

import atexit
import os
import resource
import runpy
import sys
from pathlib import Path


def peak_kib() -> int:
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak // 1024 if sys.platform == "darwin" else peak  # bytes on macOS, KiB elsewhere


def main() -> None:
    peak_file, module = sys.argv[1], sys.argv[2]
    atexit.register(lambda: Path(peak_file).write_text(f"{peak_kib()}\n"))
    sys.argv = [module, *sys.argv[3:]]
    sys.path[0] = os.getcwd()  # as `python -m` has it: not this script's folder
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
