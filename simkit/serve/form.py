"""The live page's form: what it offers (the tables, the players and the rule options, read from their
registries) and a press of play read into a run, refused in the command line's words.

A request is JSON: ``{"policy": "random", "games": "2000", "seed": "2026", "chunk_size": "", "options":
{"players": "2", "teams": "2", "reshuffle": "off", ...}}``; each value a text as a form gives it (or a
number, a true or false), an empty one for the default. Its refusals are the command line's ``error:``
lines: a rule option's (RulesError, named by its flag), a line-up's (LineupError), a game count's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from simkit.game import boards, defaults
from simkit.game.options import LEGAL_TEAMS, OPTIONS, RulesError
from simkit.game.players import PLAYERS, Lineup
from simkit.game.rules import Rules
from simkit.running.runner import RunSpec

FIELDS = ("policy", "games", "seed", "chunk_size", "options")
"""The keys of a request."""
LAYOUTS = (boards.OFFICIAL, boards.MIRROR, boards.RANDOM)
"""The boards the page takes: a board's CSV file is read by the command line only (the page reads no file)."""


@dataclass(frozen=True)
class Request:
    """A press of play, read: the run to play and the line-up as typed."""

    spec: RunSpec
    policy: str


def offer() -> dict:
    """The form's choices: tables [{players, teams}], players [{name, help}], the rule options but the table's
    [{name, flag, kind, help, default, allowed}] and the defaults of the line-up, the games and the seed."""
    options = []
    for name, option in OPTIONS.items():
        if name in ("players", "teams"):
            continue
        default = option.default_text or (
            ("on" if option.default else "off") if option.kind == "bool" else str(option.default)
        )
        allowed = "official, mirror or random:SEED" if name == "layout" else option.allowed
        options.append(
            {"name": name, "flag": option.flag, "kind": option.kind, "help": option.help, "default": default}
            | {"allowed": allowed}
        )
    return {
        "tables": [{"players": p, "teams": t} for p, ts in LEGAL_TEAMS.items() for t in ts],
        "players": [{"name": name, "help": player.description} for name, player in PLAYERS.items()],
        "options": options,
        "defaults": {"policy": defaults.POLICY, "games": defaults.GAMES, "seed": defaults.SEED},
    }


def read(body: Any) -> Request:
    """The run a request asks for; RulesError, simkit.game.players.LineupError or ValueError, in the command
    line's words."""
    if not isinstance(body, dict):
        raise ValueError("a request is a JSON object of the form's fields")
    unknown = [k for k in body if k not in FIELDS]
    if unknown:
        raise ValueError(f"unknown field {unknown[0]!r}; a request has {', '.join(FIELDS)}")
    given = body.get("options") or {}
    if not isinstance(given, dict):
        raise ValueError("options must be an object: rule option -> value")
    options = {name: _option(name, value) for name, value in given.items()}
    rules = Rules.make(**{k: v for k, v in options.items() if v is not None})
    policy = _text(body.get("policy"), "--policy") or defaults.POLICY
    lineup = Lineup.parse(policy, rules)
    games = _whole(body.get("games"), "--games")
    games = defaults.GAMES if games is None else games
    if games < 1:
        raise ValueError(f"--games must be at least 1, got {games}")
    seed = _whole(body.get("seed"), "--seed")
    chunk = _whole(body.get("chunk_size"), "--chunk-size")
    return Request(RunSpec(rules, lineup, defaults.SEED if seed is None else seed, games, chunk), policy)


def message(e: Exception) -> str:
    """A refusal in one line, as the command line's ``error:`` line says it (a rule option by its flag)."""
    if isinstance(e, RulesError):
        return e.for_command_line()
    return " ".join(str(e).split())


def _option(name: str, value: Any) -> Any:
    """A rule option's value from the form (None: its default), as the command line would pass it."""
    if name not in OPTIONS:
        return value  # Rules.make names it and says which options there are
    option = OPTIONS[name]
    if option.kind == "int":
        return _whole(value, option.flag)
    if option.kind == "bool":
        if value is None or value == "" or isinstance(value, bool):
            return None if value == "" else value
        word = str(value).strip().lower()
        if word not in ("on", "off", "true", "false"):
            raise RulesError(f"must be on or off, got {value!r}", name)
        return word in ("on", "true")
    text = _text(value, option.flag)
    if name == "layout" and text and not text.lower().startswith(LAYOUTS[2]) and text.lower() not in LAYOUTS:
        raise RulesError(
            f"takes official, mirror or random:SEED on the live page, got {text!r}; a board's CSV file is read "
            "by the command line only",
            name,
        )
    return text or None


def _whole(value: Any, flag: str) -> int | None:
    """A whole number from the form: an int, or its digits (commas and underscores allowed); None if empty."""
    if value is None or isinstance(value, int) and not isinstance(value, bool):
        return value
    text = _text(value, flag).replace(",", "").replace("_", "")
    if not text:
        return None
    if not text.isdigit():
        raise ValueError(f"{flag} takes a whole number, got {value!r}")
    return int(text)


def _text(value: Any, flag: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, (str, int)) or isinstance(value, bool):
        raise ValueError(f"{flag} takes a text, got {value!r}")
    return str(value).strip()
