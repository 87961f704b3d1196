"""The one decorator for kernel functions, and a cache that cannot go stale.

``kernel`` is ``numba.njit`` with:
- ``cache=True``: compiled code is kept on disk between runs;
- ``_nrt=False``: no reference counting. Kernel functions take arrays and
  never allocate; without this, numba increfs and decrefs every array of
  every tuple argument on every call (numba issue #2350: refcounts split
  across branches are not pruned), which made a game 20x slower;
- ``error_model="numpy"``: no zero-division checks on ``%`` and ``//``;
- ``forceinline=False``: a kernel is a function of its own in the machine code.
``inline_kernel`` is the same with ``forceinline=True``, for the small functions
of the hot path: numba types and compiles each once per argument types and marks
it alwaysinline, so LLVM inlines it into every caller. Kernels alone call it, so
it has no wrapper for calls from Python; a call from Python compiles a twin that
has one (``InlineKernel``). Nothing is inlined at numba's IR level
(``inline="always"``), which typed a function again at every call site and the
whole turn again for every player set. ``twin`` makes a second dispatcher of a
function's code (a player's decision, a race for one value, the twin called from
Python).
Functions that allocate (``new_state``, the batch driver) use plain njit.

Numba keys a cached function on its own source file only, so a change to a
callee in another file would leave callers running stale machine code. Every
function defined in kernels/ is therefore stamped with the hash of its module's
closure (``closure_hash``): the module and every kernel module it imports, one
import after another. Editing a player's module recompiles that player's
functions and those of the modules that import it; editing kernels/core
recompiles what depends on it; nothing else. A decision called through a
pointer is not in its caller's machine code, so the game loop does not depend on
any player. The compile options that change the machine code (numba's bounds
checks, its optimisation level) are part of every cache entry's key, so checked
and unchecked code never mix, whatever the cache folder.
"""

import functools
import hashlib
import pickle
import re
import types
import warnings
from functools import partial
from pathlib import Path

from numba import config, njit
from numba.core import caching
from numba.core.registry import CPUDispatcher

KERNELS_DIR = Path(__file__).resolve().parents[1]
SOURCES_HASH = hashlib.sha256(
    b"".join(p.read_bytes() for p in sorted(KERNELS_DIR.rglob("*.py"), key=lambda p: p.relative_to(KERNELS_DIR).parts))
).hexdigest()  # every kernel source: a dataset's provenance (its manifest's versions), not the cache's stamp

# A relative import of a kernel module: its dots, its module path and what it imports.
RELATIVE_IMPORT = re.compile(r"^from (\.+)([\w.]*) import (\([^)]*\)|[^\n]*)", re.MULTILINE)


def imported(path: Path) -> set[Path]:
    """The kernel modules the module at `path` imports (its relative imports: kernels import nothing else
    of simkit), as resolved paths."""
    found = set()
    for dots, module, names in RELATIVE_IMPORT.findall(path.read_text(encoding="utf-8")):
        base = path.parent
        for _ in range(len(dots) - 1):
            base = base.parent
        if module:
            target = base.joinpath(*module.split("."))
            found.add(target / "__init__.py" if target.is_dir() else target.with_suffix(".py"))
        else:  # from . import name: modules of the package
            listed = (name.strip(" ()\n") for name in names.split(","))
            found.update(base / f"{name}.py" for name in listed if (base / f"{name}.py").exists())
    return found


@functools.cache
def closure(path: Path) -> tuple[Path, ...]:
    """The module at `path` and every kernel module it imports, one import after another, sorted."""
    seen, todo = set(), [path.resolve()]
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(imported(module) - seen)
    return tuple(sorted(seen))


@functools.cache
def closure_hash(path: Path) -> str:
    """sha256 of the sources of the module at `path` and of every kernel module it imports (``closure``)."""
    h = hashlib.sha256()
    for module in closure(path):
        h.update(module.relative_to(KERNELS_DIR).as_posix().encode() + b"\0" + module.read_bytes() + b"\0")
    return h.hexdigest()


def compile_flags() -> tuple:
    """The compile options outside a function's own that change its machine code: numba's bounds checks
    and optimisation level (part of every cache entry's key)."""
    return ("boundscheck", bool(config.BOUNDSCHECK), "opt", str(config.OPT))


def _stamped(locator):
    """A cache locator like `locator`, for kernel files, stamped with the hash of the module's closure."""

    class KernelLocator(locator):
        @classmethod
        def from_function(cls, py_func, py_file):
            if KERNELS_DIR not in Path(py_file).resolve().parents:
                return None
            return super().from_function(py_func, py_file)

        def get_source_stamp(self):
            return (super().get_source_stamp(), closure_hash(Path(self._py_file).resolve()))

    return KernelLocator


TESTED_NUMBA = ">=0.59,<0.69"  # the range pyproject.toml allows; the hook below is checked on it


def _install_stamp() -> None:
    """Stamp numba's cache locators; refuse to run if numba's internals moved.

    Without the stamp an edited kernel could silently run stale machine code,
    so a numba whose caching internals differ is an error, not a warning.
    """
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)  # renamed in 0.61
    locators = getattr(impl, "_locator_classes", None)
    if not locators or not all(hasattr(c, "get_source_stamp") for c in locators):
        import numba

        raise ImportError(
            f"simkit cannot stamp numba {numba.__version__}'s compile cache (numba.core.caching changed); "
            f"simkit is tested with numba {TESTED_NUMBA}"
        )
    if not getattr(impl, "_simkit_stamped", False):
        impl._locator_classes = [_stamped(c) for c in locators] + list(locators)
        impl._simkit_stamped = True
    cache = caching.Cache
    if not getattr(cache, "_simkit_flagged", False):
        cache._index_key = _with_flags(cache._index_key)
        cache._simkit_flagged = True
    index = caching.IndexDataCacheFile
    if not getattr(index, "_simkit_tolerant", False):
        index._load_index = _obsolete_if_unreadable(index._load_index)
        index._simkit_tolerant = True


def _with_flags(index_key):
    """numba's cache index key of a compiled function, with the compile flags (``compile_flags``) added."""

    def key(self, sig, codegen):
        return (*index_key(self, sig, codegen), compile_flags())

    return key


def _obsolete_if_unreadable(load_index):
    """numba's index loader, reading an index that names a type no longer importable as obsolete.

    An index written by other kernel sources (before an upgrade that moved a module) pickles the
    types of its signatures; unpickling one that moved raises before numba compares the index's
    stamp. Such an index is stale whatever its stamp: treated as empty, its function recompiles
    and the index is written again.
    """

    def load(self):
        try:
            return load_index(self)
        except (ImportError, AttributeError, pickle.UnpicklingError):
            return {}

    return load


def is_stamped(dispatcher) -> bool:
    """Whether a compiled kernel's cache entry carries its module's closure hash (for the tests)."""
    locator = dispatcher._cache._impl.locator
    return type(locator).__name__ == "KernelLocator" and locator.get_source_stamp()[1] == closure_hash(
        Path(locator._py_file).resolve()
    )


_install_stamp()

# The kernels' uint64 arithmetic wraps around on purpose (splitmix64, multiplicative popcount, masks made by
# subtraction): compiled, it wraps silently; run as Python (NUMBA_DISABLE_JIT), numpy's scalars wrap the same
# way but warn. The same numbers either way, so the warning says nothing.
OVERFLOW_WARNING = "overflow encountered in scalar"
if config.DISABLE_JIT:
    warnings.filterwarnings("ignore", OVERFLOW_WARNING, RuntimeWarning, r"simkit\.kernels\.")


def _load_numba_without_blas_probe() -> None:
    """Import numba's array implementations without their probe for scipy's BLAS.

    numba.np.arraymath asks at import whether scipy's BLAS is there
    (``_HAVE_BLAS``, which only chooses how np.convolve and np.correlate are
    compiled: no kernel calls them) by importing scipy.linalg, and numba
    imports that module before the first call of any kernel, cached or not:
    0.2-0.3 s of every command's start-up (simkit run --games 1: 1.46-1.54 ->
    0.86-1.29 s). Imported here with the probe answering "no BLAS", it costs
    0.05 s. Everything that needs BLAS (np.dot, np.linalg) still asks for it
    itself when it is compiled (numba.np.linalg.ensure_blas, untouched), so
    only those two functions' implementation is chosen differently. Skipped
    when numba already imported the module, or moved the probe.
    """
    import sys

    from numba.np import linalg

    probe = getattr(linalg, "ensure_blas", None)
    if "numba.np.arraymath" in sys.modules or probe is None:
        return

    def no_blas() -> None:
        raise ImportError("the BLAS probe is skipped at start-up (simkit.kernels.core.jit)")

    linalg.ensure_blas = no_blas
    try:
        import numba.np.arraymath  # noqa: F401  (imported for its side effect: numba loads it, probe skipped)
    finally:
        linalg.ensure_blas = probe


_load_numba_without_blas_probe()


# How every kernel function is compiled (see the module docstring); the overload of state.pdep takes these too.
COMPILE_OPTIONS = {"_nrt": False, "error_model": "numpy"}
KERNEL_OPTIONS = {"cache": True, **COMPILE_OPTIONS}
# forceinline is said everywhere: numba lets a function compiled without it inherit its caller's.
kernel = partial(njit, **KERNEL_OPTIONS, forceinline=False)
# The jit_options of an overload that is a hot-path helper (inlined by LLVM as inline_kernel is).
INLINE_OPTIONS = {**COMPILE_OPTIONS, "forceinline": True}


class InlineKernel(CPUDispatcher):
    """A hot-path kernel compiled without the wrapper numba makes for calls from Python.

    numba compiles, beside every function, a wrapper that unboxes each argument (records, arrays,
    tuples) from Python objects, optimised and turned into machine code with it. Kernels call a
    hot-path function directly, never through it: without the wrappers, a cold run's compile is
    0.5 s shorter for random, 1.9 s for swift and 2.2 s for greedy (of 6.6, 24.5 and 11.8 s). A call
    from Python (the tests) plays a twin compiled with the wrapper (``from_python``), once per argument
    types, its machine code registered here so that the next call goes straight to it.
    """

    def add_overload(self, cres):
        """Keep the compiled function for kernels that call it, out of the table Python calls look up
        (its entry point would call a wrapper that does not exist)."""
        self.overloads[tuple(cres.signature.args)] = cres

    def _compile_for_args(self, *args, **kws):
        """A call from Python: compile (or load) the twin with a wrapper, and call that from now on."""
        entry = self.from_python._compile_for_args(*args, **kws)
        for sig, cres in self.from_python.overloads.items():
            if cres.entry_point is entry:
                self._insert([a._code for a in sig], entry, False)
        return entry

    @functools.cached_property
    def from_python(self) -> CPUDispatcher:
        """The same code with the wrapper, cached under the name <name>_from_python."""
        return kernel(twin(self, f"{self.py_func.__name__}_from_python"))


def inline_kernel(function):
    """For small functions on the hot path: typed and compiled once per argument types, marked
    alwaysinline for LLVM, which inlines them into every caller; no wrapper for Python (``InlineKernel``)."""
    compiled = njit(function, **KERNEL_OPTIONS, forceinline=True, no_cpython_wrapper=True)
    if isinstance(compiled, CPUDispatcher):  # with NUMBA_DISABLE_JIT, the function itself
        compiled.__class__ = InlineKernel
    return compiled


def twin(dispatcher, name: str, **bound):
    """A copy of `dispatcher`'s Python function named `name`, for a second dispatcher of the same code;
    `bound`: globals it reads otherwise (a callee of its own, chosen while compiling).

    Each twin is compiled and cached under its own name: a player's decision
    (``kernel(twin(player.action, "decide_greedy"))``), a race calling one value
    (``twin(rollout_value, "rollout_value_fitted", leaf_chance=fitted_leaf)``), a hot-path kernel called
    from Python.
    """
    f = getattr(dispatcher, "py_func", dispatcher)  # with NUMBA_DISABLE_JIT, njit gives the function itself
    scope = {**f.__globals__, **bound} if bound else f.__globals__
    g = types.FunctionType(f.__code__, scope, name, f.__defaults__, f.__closure__)
    g.__qualname__ = name
    g.__doc__ = f.__doc__
    g.__kwdefaults__ = f.__kwdefaults__
    return g


def is_cached(dispatcher, *args) -> bool:
    """Whether `dispatcher` is compiled for the types of `args`: in this process, or in numba's disk
    cache under the kernel sources of today (so that calling it loads rather than compiles). With
    NUMBA_DISABLE_JIT nothing compiles: always."""
    from numba import typeof
    from numba.core.typing.typeof import Purpose

    if config.DISABLE_JIT:
        return True
    return is_compiled(dispatcher, tuple(typeof(a, Purpose.argument) for a in args))


def is_compiled(dispatcher, sig: tuple) -> bool:
    """Whether `dispatcher` is compiled for the argument types `sig`, in this process or in numba's disk
    cache under the kernel sources of today (with NUMBA_DISABLE_JIT, always: a plain function)."""
    if config.DISABLE_JIT or sig in dispatcher.overloads:
        return True
    cache = getattr(dispatcher, "_cache", None)
    try:  # numba's private cache index: where it moved, say "not cached" (the notice's estimate is the whole set's)
        key = cache._index_key(sig, dispatcher.targetctx.codegen())
        return key in cache._cache_file._load_index()
    except AttributeError:
        return False
