"""The live page's run: one run at a time, played by the runner in a thread of its own, watched as it plays.

A press of play is a real run (``simkit.running.runner.run``) into the folder ``simkit run`` would use for
the same configuration (``run_folder`` in the workspace): resumable, locked, written part by part; play
again after a stop and it resumes. Stop is the runner's own stop: the run's watcher (``Watch``, its
events) raises KeyboardInterrupt in the run's thread, as Ctrl-C does in a command's, so the chunk in play
is dropped and the part being written completes.

What the page shows, each time it asks (``Session.status``):

- the games played and the compile notice, from the runner's events;
- team 0's edge with its anytime-valid interval (``simkit.analysis.confseq``), from the part files on
  disk, each read once (``Tally``);
- the looks of the sequential test of ``simkit fair`` whose games are all on disk, until one decides
  (``simkit.studies.fair.replay``: the verdict ``simkit fair`` gives on the same games);
- once the run stops or ends, the fixed-sample estimate and 95% interval as ``simkit report`` computes them
  (``simkit.analysis.report.summarise_dataset`` on the run's folder).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simkit.analysis import confseq
from simkit.analysis.report import summarise_dataset
from simkit.game import defaults
from simkit.game.players import LineupError
from simkit.game.rules import RulesError
from simkit.presentation.render import pp
from simkit.running import dataset as ds
from simkit.running.executors import RunEvents
from simkit.running.parts import open_part, read_columns, read_part_metadata
from simkit.running.reading import run_command
from simkit.running.runner import compile_notice, compiled_notice, run, run_folder
from simkit.serve import form
from simkit.studies import fair

RUNNING = ("starting", "compiling", "playing", "stopping")
"""The states of a run that is playing (the others: idle, stopped, finished, failed)."""
SEQUENCE = (
    "The interval is a 95% confidence sequence, {method}: it holds at every moment at once, so you may "
    "watch it and stop whenever you like and it is still a 95% interval; it is wider than a one-off 95% "
    "interval, which holds only at a number of games fixed in advance. It counts the {decided:,} decided games "
    "of the parts on disk."
)
"""What the live interval is, in a plain sentence for the page."""
STEPS = 64  # points of a part's games at which the interval is drawn, spread on a log scale
HISTORY = 240  # points of the interval's history the page draws, at most
FIRST_DRAWN = 100  # decided games from which the history starts (before them the interval spans most shares)


class Refused(ValueError):
    """A press of play or stop the page cannot do now; the message says why."""


@dataclass(frozen=True)
class Part:
    """What a part file on disk adds: its games, each team's wins, and both among the games below each look."""

    first: int
    games: int
    wins: np.ndarray  # (teams,) games won
    below: np.ndarray  # (looks,) games with an index below each look's games
    wins_below: np.ndarray  # (looks, teams) games won among them
    steps: np.ndarray  # (k, 2) decided games and team 0's wins so far within the part, at k points in game order


class Tally:
    """Team 0's games from the part files of a run's folder, each part read once (its game and winner columns,
    its bytes checked against its page checksums); a part of another run, or one being replaced, is left out."""

    def __init__(self, folder: Path, run_id: str, teams: int, looks: tuple[int, ...]):
        self.folder, self.run_id, self.teams, self.looks = folder, run_id, teams, np.asarray(looks, np.int64)
        self.parts: dict[str, tuple[tuple[int, int], Part]] = {}  # name -> ((size, mtime), what it adds)
        self.lock = threading.Lock()

    def refresh(self) -> None:
        """Read the parts that are new or rewritten since the last call; forget those gone."""
        with self.lock:
            seen = set()
            for path in sorted(self.folder.glob(ds.PART_GLOB)):
                try:
                    stat = path.stat()
                except OSError:  # renamed away meanwhile (set aside)
                    continue
                key = (stat.st_size, stat.st_mtime_ns)
                seen.add(path.name)
                if path.name in self.parts and self.parts[path.name][0] == key:
                    continue
                part = self._read(path)
                if part is None:
                    self.parts.pop(path.name, None)
                else:
                    self.parts[path.name] = (key, part)
            for gone in set(self.parts) - seen:
                del self.parts[gone]

    def _read(self, path: Path) -> Part | None:
        try:
            meta = read_part_metadata(path)
            if meta.get("run_id") != self.run_id:
                return None
            table = read_columns(open_part(path, None), path, ["game", "winner_team"])
        except ds.DatasetError:  # unreadable or damaged: the runner sets it aside and plays its games again
            return None
        game = table.column("game").to_numpy()
        order = np.argsort(game, kind="stable")
        game, winner = game[order], table.column("winner_team").to_numpy().astype(np.int64)[order]
        decided = winner >= 0
        under = game[None, :] < self.looks[:, None]  # (looks, games)
        wins_below = np.stack([np.bincount(winner[u & decided], minlength=self.teams) for u in under])
        wins = np.bincount(winner[decided], minlength=self.teams)[: self.teams]
        at = np.unique(np.geomspace(1, len(game), STEPS).astype(np.int64)) - 1  # the games after which to look
        steps = np.stack([np.cumsum(decided)[at], np.cumsum(winner == 0)[at]], axis=1)
        return Part(int(meta["first_game"]), len(game), wins, under.sum(axis=1), wins_below[:, : self.teams], steps)

    def ordered(self) -> list[Part]:
        with self.lock:
            return sorted((p for _, p in self.parts.values()), key=lambda p: p.first)

    def wins_of(self, n: int) -> np.ndarray | None:
        """(teams,) games won among games 0..n-1 (n one of the looks' games), None when not all are on disk."""
        k = int(np.flatnonzero(self.looks == n)[0])
        parts = self.ordered()
        if sum(int(p.below[k]) for p in parts) != n:
            return None
        return np.sum([p.wins_below[k] for p in parts], axis=0)


class Watch(RunEvents):
    """The runner's events, kept for the page; raises KeyboardInterrupt in the run's thread once stop is asked
    (the runner's stop: the chunk in play is dropped, the part being written completes)."""

    def __init__(self, job: Job):
        self.job = job
        self.raised = False

    def started(self, total: int, already: int) -> None:
        self.job.total, self.job.already = total, already

    def compiling(self, lineup: str) -> None:  # from a timer thread: never raises
        self.job.compile = {"text": compile_notice(lineup), "since": time.monotonic(), "seconds": None}
        self.job.state = "stopping" if self.job.stop_asked else "compiling"

    def compiled(self, seconds: float) -> None:
        if self.job.compile is not None:
            self.job.compile["seconds"] = seconds

    def playing(self) -> None:
        self.job.t0 = time.monotonic()
        self.job.state = "stopping" if self.job.stop_asked else "playing"
        self._stop_if_asked()

    def advanced(self, games: int) -> None:
        self.job.played += games
        self._stop_if_asked()

    def notice(self, message: str) -> None:
        self.job.notices.append(message)
        self.job.say(message)

    def _stop_if_asked(self) -> None:
        if self.job.stop_asked and not self.raised:
            self.raised = True
            raise KeyboardInterrupt


class Job:
    """One press of play: its run, played in a thread of its own, and what the page is shown of it."""

    def __init__(self, request: form.Request, folder: Path, say: Callable[[str], None]):
        spec = request.spec
        self.request, self.folder, self.say = request, folder, say
        self.state = "starting"  # the kernels load (or compile: Watch.compiling), then the games start
        self.stop_asked = False
        self.total, self.already, self.played = spec.games, 0, 0
        self.t0: float | None = None
        self.compile: dict | None = None
        self.notices: list[str] = []
        self.error: str | None = None
        self.report: dict | None = None
        try:
            self.plan: fair.Plan | None = fair.plan(spec.rules, spec.lineup, spec.seed, None)
        except fair.FairError:
            self.plan = None
        looks = self.plan.looks if self.plan is not None else ()
        self.tally = Tally(folder, ds.run_id(spec.identity()), spec.rules.teams, looks)
        self.thread = threading.Thread(target=self._run, name="simkit-serve-run", daemon=True)

    def _run(self) -> None:
        spec = self.request.spec
        try:
            try:
                stopped = run(self.folder, spec, events=Watch(self)).interrupted
            except KeyboardInterrupt:  # asked while the kernels compiled: nothing was played
                stopped = True
            self.tally.refresh()
            self.report = fixed_sample(self.folder)
        except (RulesError, LineupError, ValueError) as e:  # the runner's refusals (DatasetError too)
            self._failed(form.message(e))
            return
        except OSError as e:
            self._failed(f"{e.filename or self.folder}: {e.strerror or e}")
            return
        except Exception as e:  # noqa: BLE001 - said on the page and in one line of the terminal, never a traceback
            self._failed(f"the run failed ({type(e).__name__}: {e})")
            return
        self.state = "stopped" if stopped else "finished"
        on_disk = sum(p.games for p in self.tally.ordered())
        self.say(f"{self.state}: {on_disk:,} of {spec.games:,} games on disk in {self.folder}")

    def _failed(self, message: str) -> None:
        self.error = message
        self.state = "failed"
        self.say(f"error: {message}")

    def status(self) -> dict:
        """What the page shows of this run now (a JSON object)."""
        spec = self.request.spec
        self.tally.refresh()
        parts = self.tally.ordered()
        on_disk = sum(p.games for p in parts)
        now = time.monotonic()
        played = on_disk if self.state not in RUNNING else max(on_disk, self.already + self.played)
        rate = self.played / (now - self.t0) if self.t0 is not None and now - self.t0 >= 0.5 else None
        compiling = None
        if self.compile is not None:
            seconds = self.compile["seconds"]
            done = seconds is not None
            compiling = {
                "text": compiled_notice(seconds) if done else self.compile["text"],
                "seconds": seconds if done else now - self.compile["since"],
                "done": done,
            }
        try:
            manifest = ds.read_manifest(self.folder) if (self.folder / ds.MANIFEST).exists() else None
        except ds.DatasetError:
            manifest = None
        command = run_command(manifest, self.folder)[0] if manifest is not None else None
        return {
            "state": self.state,
            "error": self.error,
            "run": {"folder": str(self.folder), "describe": spec.describe(), "command": command},
            "compile": compiling,
            "games": {"played": played, "on_disk": on_disk, "total": self.total, "rate": rate},
            **edge(parts, spec.rules.teams),
            "fair": self._fair(),
            "report": self.report,
            "notices": self.notices[-5:],
        }

    def _fair(self) -> dict:
        """The sequential test of simkit fair on the games on disk: its looks so far and the verdict."""
        spec = self.request.spec
        if self.plan is None:
            return {"looks": [], "verdict": None, "note": "the sequential test does not take this run"}
        p = self.plan
        taken, outcome = fair.replay(p, self.tally.wins_of)
        if outcome is None:
            later = [n for n in p.looks if n > (taken[-1].games if taken else 0)]
            outcome = fair.Outcome("undecided", taken[-1] if taken else None, taken, later[0] if later else None)
        looks_in_run = [n for n in p.looks if n <= spec.games]
        command = fair.command(p, self.request.policy, defaults.SEED, looks_in_run[-1] if looks_in_run else None)
        note = f"looks at {', '.join(f'{n:,}' for n in p.looks)} games; margin ±{100 * p.design.margin:g} pp" + (
            "" if looks_in_run else f"; this run's {spec.games:,} games hold no look"
        )
        return {
            "looks": [{"line": fair.look_line(p, k), "verdict": k.verdict} for k in taken],
            "verdict": fair.verdict(p, outcome) if outcome.last is not None else None,
            "decided": outcome.verdict != "undecided",
            "errors": fair.why_wide(p, outcome.last) if outcome.last is not None else None,
            "command": command,
            "note": note,
            "margin": p.design.margin,
        }


def edge(parts: list[Part], teams: int) -> dict:
    """Team 0's edge over the decided games of `parts` with its confidence sequence, now and as it was along the
    way (in game order from FIRST_DRAWN decided games, at most HISTORY points spread on a log scale of them):
    {"edge": {...} or None, "history": [[decided, advantage, low, high], ...]}."""
    if not parts or not sum(int(p.wins.sum()) for p in parts):
        return {"edge": None, "history": []}
    before = np.cumsum([[0, 0]] + [[int(p.wins.sum()), int(p.wins[0])] for p in parts[:-1]], axis=0)
    path = np.concatenate([b + p.steps for b, p in zip(before, parts)])  # (points, 2): decided, team 0's wins
    first = min(FIRST_DRAWN, int(path[-1, 0]))
    path = path[path[:, 0] >= first]
    keep = np.unique(np.searchsorted(path[:, 0], np.geomspace(first, path[-1, 0], HISTORY), side="left"))
    path = path[np.append(keep[keep < len(path) - 1], len(path) - 1)]
    share, low, high = confseq.share_sequence(path[:, 1], path[:, 0])
    f = 1 / teams
    history = [[int(d), s - f, lo - f, hi - f] for d, s, lo, hi in zip(path[:, 0], share, low, high)]
    d, value, lo, hi = history[-1]
    shown = pp(value, lo, hi, digits=2)
    return {
        "edge": {"decided": d, "wins": int(path[-1, 1]), "advantage": value, "low": lo, "high": hi, "shown": shown}
        | {"method": SEQUENCE.format(method=confseq.METHOD, decided=d)},
        "history": history,
    }


def fixed_sample(folder: Path) -> dict | None:
    """Team 0's edge and its 95% interval as `simkit report` computes them for the run in `folder` (its
    first-mover advantage: Wilson's interval of team 0's share of the decided games); None without a part."""
    try:
        (summary,) = summarise_dataset(folder)
    except ds.DatasetError:
        return None
    m = summary.first_mover
    whole = summary.whole
    shown = pp(m["advantage"], m["advantage_ci_low"], m["advantage_ci_high"], digits=2) if m["decided"] else None
    return {
        "games": summary.games,
        "asked": summary.expected_games,
        "whole": whole,
        "decided": m["decided"],
        "advantage": m["advantage"],
        "low": m["advantage_ci_low"],
        "high": m["advantage_ci_high"],
        "shown": shown or "no decided game",
        "command": f"simkit report {'' if whole else '--allow-incomplete '}{folder}",
    }


class Session:
    """The page's runs in one workspace: one plays at a time; stop, then play again, resumes it."""

    def __init__(self, workspace: Path, say: Callable[[str], None] = lambda line: None):
        self.workspace, self.say = Path(workspace), say
        self.job: Job | None = None
        self.lock = threading.Lock()

    def play(self, body) -> dict:
        """Start the run a request asks for; Refused (or the form's errors) when it cannot."""
        request = form.read(body)
        folder = self.folder_of(request)
        with self.lock:
            if self.job is not None and self.job.state in RUNNING:
                raise Refused(f"a run is playing into {self.job.folder}; stop it before playing another")
            self.job = Job(request, folder, self.say)
            self.say(f"play: {request.spec.games:,} games of {request.spec.describe()} into {folder}")
            self.job.thread.start()
        return self.status()

    def folder_of(self, request: form.Request) -> Path:
        """The run's folder, as simkit run names it in the workspace; refused unless it lies right inside it."""
        folder = run_folder(request.spec, self.workspace, defaults.SEED)
        if folder.parent != self.workspace or folder.resolve().parent != self.workspace.resolve():
            raise Refused(f"the run's folder {folder} would lie outside {self.workspace}; the page writes there only")
        return folder

    def stop(self) -> dict:
        """Ask the run playing to stop (it stops within about a game); nothing to do when none plays."""
        job = self.job
        if job is not None and job.state in RUNNING:
            job.stop_asked = True
            job.state = "stopping"
        return self.status()

    def status(self) -> dict:
        job = self.job
        if job is None:
            return {"state": "idle", "workspace": str(self.workspace)}
        return {**job.status(), "workspace": str(self.workspace)}

    def close(self, timeout: float = 60.0) -> None:
        """Stop the run playing, if any, and wait for its parts to be whole."""
        job = self.job
        if job is not None and job.state in RUNNING:
            job.stop_asked = True
            job.thread.join(timeout)
