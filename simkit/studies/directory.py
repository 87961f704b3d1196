"""The study directory: claiming it for a study, its study.json (identity, commands, configurations), its folder.

    DIR/study.json          the study's identity, the commands that made it, every configuration and its run_id
    DIR/summary.csv         one row per configuration: every number with its interval and its games
    DIR/summary.md          the question, the commands that regenerate it, the key tables, the plots, the notes
    DIR/*.png, DIR/*.csv    the kind's figures and extra tables
    DIR/p2t2-random/        one dataset per configuration (simkit report reads any of them)

The study directory records the study's identity (kind, options, seed,
versions) and the games of each line-up: a study with other options is
refused in one line that names what differs, unless ``overwrite``; a new
line-up joins the study, more games extend it, fewer are refused.
"""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from simkit.files.atomic import replacing
from simkit.game import defaults
from simkit.game.options import OPTIONS, is_default
from simkit.game.players import Lineup
from simkit.game.rules import Rules
from simkit.running import dataset as ds
from simkit.running.runner import identity_differences
from simkit.studies.kind import Config, Study, StudyKind, config_run_id, manifest_in
from simkit.studies.options import StudyError

STUDY_FORMAT = "simkit.study/2"
STUDY_FILE = "study.json"


def claim(study: Study, out: Path, overwrite: bool) -> tuple[str | None, list[str], dict[str, int], list[Config]]:
    """Check `out` may hold `study`: (what was replaced, the line-ups added, every line-up's games, the
    configurations on record).

    Another study (other kind, options, seed or version) is refused naming
    what differs, unless overwrite, which clears it. A line-up on disk keeps
    its games unless more are asked; fewer are refused.
    """
    path = out / STUDY_FILE
    if not path.exists():
        foreign = [p.name for p in out.iterdir() if p.name not in (".simkit.lock", *study.kind.inputs)]
        if foreign and not overwrite:
            raise StudyError(
                f"{out} is not empty and holds no simkit study ({', '.join(sorted(foreign)[:3])}, ...); "
                "choose a new or empty directory, or --overwrite"
            )
        return None, [], dict(study.lineups), []
    try:
        on_disk = json.loads(path.read_text(encoding="utf-8"))
        theirs = on_disk["identity"]
    except (OSError, ValueError, KeyError, TypeError):
        if not overwrite:
            raise StudyError(
                f"{path} is not a readable simkit {STUDY_FORMAT} study file (written by an older "
                "simkit?); use --overwrite to replace the study or choose another --out"
            ) from None
        return _clear(out, "a study of an older format"), [], dict(study.lineups), []
    mine = study.identity()
    if theirs != mine:
        if not overwrite:
            raise StudyError(
                f"{out} holds another study: {differences(mine, theirs)}; use --overwrite to replace "
                f"it, or --out DIR (without --out these options write to "
                f"{defaults.WORKSPACE}/{default_folder(study)})"
            )
        return _clear(out, describe_identity(theirs)), [], dict(study.lineups), []
    games = dict(on_disk.get("lineups", {}))
    why = {spec: _why_unknown(spec, study) for spec in games}
    unknown = sorted(spec for spec, reason in why.items() if reason)
    if unknown:
        if not overwrite:
            raise StudyError(
                f"{out} holds line-ups this simkit cannot play ({', '.join(unknown)}: "
                f"{why[unknown[0]]}); use --overwrite to go on without them (their "
                "rows leave the study), or --out DIR"
            )
        games = {spec: n for spec, n in games.items() if spec not in unknown}
    added = []
    for lineup, n in study.lineups.items():
        if lineup in games and n < games[lineup]:
            raise StudyError(
                f"{out} already holds {games[lineup]:,} games per {study.kind.unit} of {lineup}; "
                f"ask for at least that many (--games {games[lineup]}) or use --overwrite"
            )
        if lineup not in games:
            added.append(lineup)
        games[lineup] = max(n, games.get(lineup, 0))
    previous = []
    for record in on_disk.get("configurations", []):
        try:
            previous.append(config_from_json(record))
        except ValueError as e:  # a line-up of a player this simkit no longer has
            if not overwrite:
                raise StudyError(
                    f"{out} holds line-ups this simkit cannot play ({record.get('lineup')}: {e}); use "
                    "--overwrite to go on without them (their rows leave the study), or --out DIR"
                ) from None
            unknown.append(record.get("lineup"))
    unknown = sorted(set(unknown))
    replaced = f"the rows of line-ups this simkit cannot play ({', '.join(unknown)})" if unknown else None
    return replaced, added, line_up_order(games, study.kind.default_policies), previous


def _why_unknown(spec: str, study: Study) -> str | None:
    """Why this simkit cannot play the line-up `spec` (a retired player's), or None when it can."""
    try:
        Lineup.parse(spec, Rules.make(**{k: v for k, v in study.base.items() if k in ("players", "teams")}))
    except ValueError as e:
        return str(e)
    return None


def line_up_order(games: dict[str, int], defaults: tuple[str, ...]) -> dict[str, int]:
    """The line-ups in one order whatever the commands that joined them (study.json stores them sorted by
    name): the kind's default line-ups in their order (random, greedy, ...), then the others by name."""
    rank = {spec: i for i, spec in enumerate(defaults)}
    return dict(sorted(games.items(), key=lambda kv: (rank.get(kv[0], len(rank)), kv[0])))


def config_to_json(c: Config, study_seed: int) -> dict:
    """A configuration as study.json records it (config_from_json reads it back)."""
    return {
        "folder": c.folder(study_seed),
        "group": c.group,
        "label": c.label,
        "rules": c.rules.as_dict(),
        "lineup": c.lineup.spec,
        "swap_seats": c.lineup.swap_seats,
        "games": c.games,
        "seed": c.seed,
        "facts": dict(c.facts),
        "run_id": config_run_id(c, study_seed),
    }


def config_from_json(record: dict) -> Config:
    rules = Rules.make(**record["rules"])
    return Config(
        rules,
        Lineup.parse(record["lineup"], rules, record.get("swap_seats", False)),
        int(record["games"]),
        record.get("group", ""),
        record.get("label", ""),
        record.get("seed"),
        tuple((k, v) for k, v in record.get("facts", {}).items()),
    )


def _clear(out: Path, what: str) -> str:
    """Remove a study's files and datasets from `out` (overwrite); what it held, in words."""
    for child in out.iterdir():
        if child.name == ".simkit.lock":
            continue
        if child.is_dir() and (child / ds.MANIFEST).exists():
            shutil.rmtree(child)
        elif child.is_file() and (child.suffix in (".csv", ".md", ".png") or child.name == STUDY_FILE):
            child.unlink()
    return what


def differences(mine: dict, theirs: dict) -> str:
    """'seed 7 asked, 2026 on disk; players 4 asked, 2 on disk' for a refused study directory."""
    out = []
    for key in ("study", "seed", "simkit", "kernel"):
        if mine.get(key) != theirs.get(key):
            out.append(f"{key} {mine.get(key)} asked, {theirs.get(key)} on disk")
    a, b = mine.get("options", {}), theirs.get("options", {})
    for key in sorted(set(a) | set(b)):
        if key == "rules":
            ra, rb = a.get("rules", {}), b.get("rules", {})
            for name in sorted(set(ra) | set(rb)):
                if ra.get(name) != rb.get(name):
                    out.append(f"{name} {_said(ra.get(name))} asked, {_said(rb.get(name))} on disk")
        elif a.get(key) != b.get(key):
            out.append(f"{key} {_said(a.get(key))} asked, {_said(b.get(key))} on disk")
    return "; ".join(out) or "its identity differs"


def _said(value: Any) -> str:
    return "(default)" if value is None else str(value)


def describe_identity(identity: dict) -> str:
    """'the hand-size study with players 4, seed 2026' for messages."""
    options = identity.get("options", {})
    given = [f"{k} {v}" for k, v in options.get("rules", {}).items()]
    given += [f"{k} {v}" for k, v in options.items() if k != "rules"]
    return (
        f"the {identity.get('study')} study"
        + (f" with {', '.join(given)}" if given else "")
        + f", seed {identity.get('seed')}"
    )


def default_folder(study: Study) -> str:
    """The study's folder in the workspace (runs/) without --out: its kind, then the options not at their default
    ('hand-size-late2', 'first-player-noreshuffle', 'compensation-greedy-s7')."""
    parts = [study.kind.name]
    rules = {k: v for k, v in study.base.items() if k not in study.kind.choosing}
    if rules:
        values = Rules.make(**study.base).values()  # at the table chosen: a per-seat option needs its seats
        parts += [OPTIONS[k].tag(values[k]) for k in OPTIONS if k in rules and not is_default(k, values[k], values)]
    for name, option in study.kind.options.items():
        if name in study.kind.choosing:
            continue
        value = study.options.get(name, option.default)
        if value != option.default and value is not None:
            parts.append(f"{name}-{_tag(value)}")
    if study.seed != defaults.SEED:
        parts.append(f"s{study.seed}")
    return "-".join(parts)


def _tag(value: Any) -> str:
    text = ",".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)
    return text.replace(":", "_").replace("/", "_").replace(" ", "")


def stale_runs(configs: list[Config], out: Path, seed: int) -> dict[str, list[str]]:
    """The folders (values) of the configurations whose folder in `out` holds another run than the one the
    code makes of them, by what differs (keys): played before a player's defaults or parameters changed,
    say. Their games are not the configurations', so a study neither counts nor resumes them."""
    stale: dict[str, set[str]] = {}
    for c in configs:
        manifest = manifest_in(out / c.folder(seed))
        mine = ds.identity_of(c.rules, c.lineup, c.seed_of(seed))
        if manifest is not None and manifest.get("run_id") != ds.run_id(mine):
            stale.setdefault(identity_differences(mine, manifest.get("identity", {})), set()).add(c.folder(seed))
    return {why: sorted(folders) for why, folders in stale.items()}


def recorded_commands(out: Path, command: Sequence[str] | None) -> list[str]:
    """The commands that made the study: those on record, then this one unless one on record plays the
    same (differs only in how it runs: --quiet, --threads, --scheduler)."""
    text = _command_text(command)
    try:
        known = json.loads((out / STUDY_FILE).read_text(encoding="utf-8")).get("commands", [])
    except (OSError, ValueError):
        known = []
    if _what_it_plays(text) in {_what_it_plays(k) for k in known}:
        return list(known)
    return [*known, text]


# Options of `simkit study` that change how a study runs, not what it plays, with how many values follow.
# --out too: the same study written elsewhere (`make results` writes the published ones with --out results/...)
HOW_IT_RUNS = {"-q": 0, "--quiet": 0, "--threads": 1, "--scheduler": 1, "--overwrite": 0, "--out": 1, "-o": 1}


def policies_named(text: str, kind: StudyKind) -> list[str]:
    """The line-ups a recorded command names with --policy (the kind's defaults when it names none)."""

    words = shlex.split(text)
    named = [words[i + 1] for i, w in enumerate(words[:-1]) if w == "--policy"]
    named += [w.split("=", 1)[1] for w in words if w.startswith("--policy=")]
    return named or list(kind.default_policies)


def _what_it_plays(text: str) -> tuple[str, ...]:
    """A recorded command's words without the options of HOW_IT_RUNS (and their values)."""

    words, kept = shlex.split(text), []
    i = 0
    while i < len(words):
        name = words[i].split("=", 1)[0]
        if name in HOW_IT_RUNS:
            i += 1 + (HOW_IT_RUNS[name] if "=" not in words[i] else 0)
            continue
        kept.append(words[i])
        i += 1
    return tuple(kept)


def study_json(study: Study, configs: list[Config], commands: list[str]) -> dict:
    """What study.json records: the identity, the commands, every line-up's games, every configuration."""
    return {
        "format": STUDY_FORMAT,
        "identity": study.identity(),
        "commands": commands,
        "lineups": study.lineups,
        "versions": ds.versions(),
        "configurations": [config_to_json(c, study.seed) for c in configs],
    }


def _command_text(command: Sequence[str] | None) -> str:
    """The command as a shell line: `command`, or this process's own (simkit and its arguments)."""
    args = list(command) if command is not None else ["simkit", *sys.argv[1:]]
    return " ".join(shlex.quote(a) for a in args)


def write_study_file(out: Path, study: Study, configs: list[Config], commands: list[str]) -> None:
    """Write `out`/study.json (study_json)."""
    write_text(out / STUDY_FILE, json.dumps(study_json(study, configs, commands), indent=2, sort_keys=True) + "\n")


def write_text(path: Path, text: str) -> None:
    """Write a study's text file whole or not at all (simkit.files.atomic)."""
    with ds.writing(path), replacing(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
