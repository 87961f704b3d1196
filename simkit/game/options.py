"""The rule options: every option of a game declared once, in ``OPTIONS``.

Each entry gives an option's name, type, default, allowed values, one line of
help and the section of RULES.md it comes from (as OpenSpiel declares a
game's parameters). Everything else is derived from this table and from
nothing else:

- the fields of ``simkit.game.rules.Rules`` and their validation, and the
  kernel's configuration record (``Rules.cfg``);
- the command-line options of ``simkit run``, ``simkit study`` and
  ``simkit play`` (``simkit.cli``) and the keyword arguments of
  ``simkit.simulate``;
- the run identity and its ``run_id``, the dataset's columns and the run
  folder's name (an option at its default adds nothing to it);
- the report's title line and the ``rules`` object of game records (the
  ``required`` options always, the others when they differ from their
  default);
- the table of docs/guide/rule-options.md, 'Rule options' (``markdown_table``;
  a test keeps them equal).

Adding an option: its entry here (with ``kernel``, how it reaches the kernel's
configuration), its logic in ``kernels/`` (a field of
``kernels/core/config.py``), the same rule in ``tests/naive.py`` and
``tests/referee.py``, and tests: every file it touches is listed in
docs/dev/extending.md, 'Adding a rule option'.

One module, as the table and what is derived from it are read together.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from simkit.game import boards
from simkit.kernels.core import state as ks
from simkit.suggest import did_you_mean

# --- the facts of RULES.md that defaults and limits come from ----------------

# "Players and teams": legal team counts per player count, hand sizes, sequences to win.
LEGAL_TEAMS: dict[int, tuple[int, ...]] = {2: (2,), 3: (3,), 4: (2,), 6: (2, 3), 8: (2,), 9: (3,), 10: (2,), 12: (2, 3)}
HAND_SIZE = {2: 7, 3: 6, 4: 6, 6: 5, 8: 4, 9: 4, 10: 3, 12: 3}
SEQUENCES_TO_WIN = {2: 2, 3: 1}
CHIP_SUPPLY = (50, 50, 35)  # "Equipment": blue (team 0), green (team 1), red (team 2)
TEAM_COLOURS = ("blue", "green", "red")
DEFAULT_MAX_TURNS = 1000  # far above any game seen: random 2-player games end within ~200 turns
MAX_HAND_SIZE = ks.MAX_HAND - 1
MAX_SEQUENCES_TO_WIN = 8
MAX_MAX_TURNS = 100_000
MAX_LATE_CARD = MAX_MAX_TURNS


class RulesError(ValueError):
    """An illegal configuration; the message says what is allowed.

    option: the option at fault (its name in OPTIONS), or None for a
    combination of options; ``str()`` names it as Python does (``late_card``),
    ``for_command_line()`` as the command line does (``--late-card``).
    """

    def __init__(self, detail: str, option: str | None = None):
        self.detail, self.option = detail, option
        super().__init__(f"{option} {detail}" if option else detail)

    def for_command_line(self) -> str:
        """The message with the option named by its flag."""
        return f"{OPTIONS[self.option].flag} {self.detail}" if self.option else self.detail


def legal_configurations() -> str:
    """'2 players (2 teams), 3 players (3 teams), ...' for error messages."""
    return ", ".join(f"{p} players ({' or '.join(f'{t} teams' for t in ts)})" for p, ts in LEGAL_TEAMS.items())


# --- one option ---------------------------------------------------------------


@dataclass(frozen=True)
class RuleOption:
    """One rule option; see the module docstring for what is derived from it.

    kind: "int" (a whole number in low..high, or one of choices), "bool",
    "sizes" (a hand size: one whole number for every seat, or one per seat),
    "counts" (one whole number, or one per team in turn order, up to
    `high_items` of them) or "text" (the board: simkit.game.boards).
    default: the value, or a function of the options before it (a dict of
    name -> value) for a default that depends on the table; default_text
    says it in words. kernel(rules, cfg) writes the option into the kernel's
    configuration record (``kernels.core.config``). tag(value) is its part of a run
    folder's name when it differs from its default; words(value) how
    messages describe it. required: always listed in a game record's
    ``rules`` and in a report's title (RECORD.md), the others only when not
    at their default.
    """

    name: str
    kind: str
    default: Any
    help: str
    section: str
    kernel: Callable[[Any, np.record], None]
    tag: Callable[[Any], str]
    words: Callable[[Any], str]
    default_text: str = ""
    low: int | None = None
    high: int | None = None
    choices: tuple[int, ...] | None = None
    short: str | None = None
    metavar: str | None = None
    required: bool = False
    hint: Callable[[], str] | None = None  # said after a refused value: what else is allowed
    high_items: int = 1  # counts: how many numbers it takes at most

    @property
    def flag(self) -> str:
        """The command-line option: --late-card."""
        return "--" + self.name.replace("_", "-")

    @property
    def flags(self) -> str:
        """How the command line spells it: '--reshuffle/--no-reshuffle' for a yes/no option."""
        return f"{self.flag}/--no-{self.flag[2:]}" if self.kind == "bool" else self.flag

    def default_for(self, values: Mapping[str, Any]) -> Any:
        """The default at the table of `values` (the options before this one, resolved)."""
        return self.default(values) if callable(self.default) else self.default

    @property
    def allowed(self) -> str:
        """The values allowed, in words (for errors and the docs' table of rule options)."""
        if self.kind == "bool":
            return "true or false"
        if self.kind == "sizes":
            return (
                f"one size for every seat, or a comma list that cycles over the seats; each 1-{self.high}, "
                f"at most {ks.DECK_SIZE} cards dealt in all"
            )
        if self.kind == "counts":
            return f"one whole number from {self.low} to {self.high:,}, or two (H0,H1) with three teams"
        if self.kind == "text":
            return "official, mirror, random:SEED or a CSV file's path"
        if self.choices is not None:
            return ", ".join(str(c) for c in self.choices[:-1]) + f" or {self.choices[-1]}"
        return f"a whole number from {self.low:,} to {self.high:,}"

    def coerce(self, value: Any) -> Any:
        """`value` as this option's type, checked against its own limits (not yet against the table).

        Whole numbers: Python and numpy integers (a float, bool or string is
        refused); yes/no: a bool; sizes: a whole number, a text '6,7' or a
        sequence of whole numbers. Raises RulesError naming the option.
        """
        if self.kind == "bool":
            if not isinstance(value, (bool, np.bool_)):
                raise RulesError(f"must be true or false, got {value!r}", self.name)
            return bool(value)
        if self.kind == "sizes":
            return _sizes(self, value)
        if self.kind == "counts":
            return _counts(self, value)
        if self.kind == "text":
            try:
                return boards.check(value)
            except boards.BoardError as e:
                raise RulesError(str(e), self.name) from None
        number = whole_number(value, self.name)
        hint = f"; {self.hint()}" if self.hint else ""
        if self.choices is not None and number not in self.choices:
            raise RulesError(f"must be {self.allowed}, got {number}{hint}", self.name)
        if self.low is not None and self.high is not None and not self.low <= number <= self.high:
            raise RulesError(f"must be {self.allowed}, got {number:,}{hint}", self.name)
        return number

    @property
    def column_type(self):
        """The Arrow type of the option's dataset column."""
        import pyarrow as pa  # here: the command line imports this module to build its options, pyarrow in 0.4 s

        if self.kind == "bool":
            return pa.bool_()
        if self.kind in ("sizes", "counts", "text"):
            return pa.dictionary(pa.int8(), pa.string())  # "7", or one number per seat or team: "6,7"; a board
        top = max(self.choices) if self.choices is not None else self.high
        assert top is not None, f"{self.name}: an int option has choices or a high bound"
        return pa.int8() if top <= 127 else pa.int16() if top <= 32767 else pa.int32()

    def column_value(self, value: Any) -> Any:
        """The option's value as its dataset column holds it (sizes as text)."""
        return sizes_text(value) if self.kind in ("sizes", "counts") else value


def whole_number(value: Any, name: str) -> int:
    """`value` as an int: Python and numpy integers only (RulesError naming `name` otherwise)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise RulesError(f"must be a whole number, got {value!r} ({type(value).__name__})", name)
    return int(value)


def _sizes(option: RuleOption, value: Any) -> int | tuple[int, ...]:
    """A hand size as one int or a tuple of per-seat sizes (not yet fitted to the table)."""
    if isinstance(value, str):
        parts = [p.strip() for p in value.split(",")]
        if not value.strip() or any(not p for p in parts):
            raise RulesError(f"{value!r} is empty; give one size or a comma list per seat, e.g. 7,6", option.name)
        if not all(p.isdigit() for p in parts):
            raise RulesError(f"{value!r} must be whole numbers, e.g. 7 or 7,6", option.name)
        sizes = tuple(int(p) for p in parts)
    elif isinstance(value, (list, tuple, np.ndarray)):
        sizes = tuple(whole_number(v, option.name) for v in value)
        if not sizes:
            raise RulesError("list is empty; give one size or a list per seat", option.name)
    else:
        sizes = (whole_number(value, option.name),)
    assert option.low is not None and option.high is not None, f"{option.name}: a sizes option has low and high"
    for h in sizes:
        if not option.low <= h <= option.high:
            raise RulesError(f"{h} is not allowed: each size must be 1..{option.high}", option.name)
    return sizes[0] if len(sizes) == 1 else sizes


def _counts(option: RuleOption, value: Any) -> int | tuple[int, ...]:
    """One whole number, or one per team (a text '9,3' or a sequence); trailing zeros dropped."""
    if isinstance(value, str):
        parts = [p.strip() for p in value.split(",")]
        if not value.strip() or not all(p.isdigit() for p in parts):
            raise RulesError(f"{value!r} must be whole numbers, e.g. 9 or 9,3", option.name)
        numbers = tuple(int(p) for p in parts)
    elif isinstance(value, (list, tuple, np.ndarray)):
        numbers = tuple(whole_number(v, option.name) for v in value)
    else:
        numbers = (whole_number(value, option.name),)
    assert option.low is not None and option.high is not None, f"{option.name}: a counts option has low and high"
    if not 1 <= len(numbers) <= option.high_items:
        raise RulesError(f"takes one number, or up to {option.high_items}; got {len(numbers)}", option.name)
    for n in numbers:
        if not option.low <= n <= option.high:
            raise RulesError(f"{n} is not allowed: each must be {option.low}..{option.high:,}", option.name)
    while len(numbers) > 1 and numbers[-1] == 0:
        numbers = numbers[:-1]
    return numbers[0] if len(numbers) == 1 else numbers


def sizes_text(sizes: int | tuple[int, ...]) -> str:
    """A hand size as the dataset and folder names write it: '7', or '6,7' per seat."""
    return ",".join(str(h) for h in sizes) if isinstance(sizes, tuple) else str(sizes)


def per_seat(sizes: int | tuple[int, ...], players: int) -> tuple[int, ...]:
    """The size of every seat: a shorter list cycles over the seats."""
    listed = sizes if isinstance(sizes, tuple) else (sizes,)
    return tuple(listed[s % len(listed)] for s in range(players))


# --- how each option reaches the kernel ------------------------------------------


def _field(name: str) -> Callable[[Any, np.record], None]:
    """The writer of option `name` into the configuration field of the same name."""

    def write(rules, cfg: np.record) -> None:
        setattr(cfg, name, int(getattr(rules, name)))

    return write


def _chip_limit(rules, cfg: np.record) -> None:
    cfg.chip_limit = int(rules.chip_limit)
    cfg.supply[:] = CHIP_SUPPLY


def _hand_size(rules, cfg: np.record) -> None:
    cfg.hand[: rules.players] = rules.hand_sizes


def late_turns(rules) -> tuple[int, ...]:
    """Each seat's late card, seat 0 first: the seat's own turn at whose end it draws the card it was dealt
    short (0: dealt in full), from the late card and the handicap (docs/RULES.md, "Rule variants")."""
    late = [0] * rules.players
    if rules.late_card:  # every seat of team 0
        for seat in range(0, rules.players, rules.teams):
            late[seat] = rules.late_card
    per_team = rules.handicap if isinstance(rules.handicap, tuple) else (rules.handicap,)
    for team, total in enumerate(per_team):  # team 0's (and with three teams team 1's) seats, H turns in all
        seats = list(range(team, rules.players, rules.teams))
        for seat, k in zip(seats, handicap_turns(total, len(seats))):
            if k:
                late[seat] = k
    return tuple(late)


def handicap_turns(total: int, seats: int) -> list[int]:
    """How a team's handicap of `total` turns is shared by its `seats` seats, in seat order: the turn at
    whose end each draws its late card (0: dealt in full). The earlier seats wait at most one turn longer."""
    return [-(-(total - j) // seats) if j < total else 0 for j in range(seats)]


def _late_cards(rules, cfg: np.record) -> None:
    """The late card and the handicap, together (``late_turns``)."""
    cfg.late[: rules.players] = late_turns(rules)


# --- the table --------------------------------------------------------------------

OPTIONS: dict[str, RuleOption] = {
    o.name: o
    for o in (
        RuleOption(
            "players",
            "int",
            2,
            "Players at the table; seat s plays for team s % teams, seat 0 moves first.",
            "Players and teams",
            _field("players"),
            lambda v: f"p{v}",
            lambda v: f"{v} players",
            choices=tuple(LEGAL_TEAMS),
            short="-p",
            required=True,
            hint=lambda: f"legal: {legal_configurations()}",
        ),
        RuleOption(
            "teams",
            "int",
            lambda v: LEGAL_TEAMS[v["players"]][0],
            "Teams of equal size; 6 and 12 players may form 2 or 3.",
            "Players and teams",
            _field("teams"),
            lambda v: f"t{v}",
            lambda v: f"{v} teams",
            default_text="the only legal count; 2 for 6 and 12 players",
            choices=(2, 3),
            short="-t",
            required=True,
            hint=lambda: f"legal: {legal_configurations()}",
        ),
        RuleOption(
            "hand_size",
            "sizes",
            lambda v: HAND_SIZE[v["players"]],
            "Cards per hand: one size, or a comma list that cycles over the seats (6,7: seat 0 six, seat 1 seven).",
            "Players and teams",
            _hand_size,
            lambda v: f"h{sizes_text(v)}",
            lambda v: f"hand {sizes_text(v)}",
            default_text="RULES.md's table: 7 (2 players), 6 (3, 4), 5 (6), 4 (8, 9), 3 (10, 12)",
            low=1,
            high=MAX_HAND_SIZE,
            metavar="H[,H...]",
            required=True,
        ),
        RuleOption(
            "sequences_to_win",
            "int",
            lambda v: SEQUENCES_TO_WIN[v["teams"]],
            "Sequences a team needs to win.",
            "Players and teams",
            _field("sequences_to_win"),
            lambda v: f"q{v}",
            lambda v: f"{v} sequence{'s' if v != 1 else ''} to win",
            default_text="2 with two teams, 1 with three",
            low=1,
            high=MAX_SEQUENCES_TO_WIN,
            metavar="Q",
            required=True,
        ),
        RuleOption(
            "max_turns",
            "int",
            DEFAULT_MAX_TURNS,
            "The turn cap: a game reaching it ends without a winner.",
            "Simulation conventions",
            _field("max_turns"),
            lambda v: f"cap{v}",
            lambda v: f"turn cap {v:,}",
            low=1,
            high=MAX_MAX_TURNS,
            metavar="M",
            required=True,
        ),
        RuleOption(
            "chip_limit",
            "bool",
            False,
            "Enforce the 50/50/35 chip supply (off: unlimited chips).",
            "Simulation conventions",
            _chip_limit,
            lambda v: "chips",
            lambda v: "chip limit 50/50/35",
        ),
        RuleOption(
            "reshuffle",
            "bool",
            True,
            "Reshuffle the discards into a new draw pile when it runs out (off: no card is drawn; hands shrink).",
            "Rule variants",
            _field("reshuffle"),
            lambda v: "noreshuffle",
            lambda v: "reshuffle" if v else "no reshuffle",
        ),
        RuleOption(
            "dead_swap",
            "bool",
            True,
            "A dead card may be swapped for a new one (off: never).",
            "Rule variants",
            _field("dead_swap"),
            lambda v: "nodeadswap",
            lambda v: "dead cards swapped" if v else "no dead-card swaps",
        ),
        RuleOption(
            "late_card",
            "int",
            0,
            "Compensation: team 0's seats are dealt a card short and draw it at the end of their K-th turn (0: off).",
            "Rule variants",
            _late_cards,
            lambda v: f"late{v}",
            lambda v: f"late card after turn {v}",
            low=0,
            high=MAX_LATE_CARD,
            metavar="K",
        ),
        RuleOption(
            "handicap",
            "counts",
            0,
            "Compensation: team 0's seats play a card short for H turns in all, the earliest seats longest (with "
            "three teams H0,H1 also handicaps team 1).",
            "Compensation families",
            _late_cards,  # with the late card: late_turns
            lambda v: f"hc{sizes_text(v)}",
            lambda v: f"handicap {sizes_text(v)} turns",
            low=0,
            high=MAX_LATE_CARD,
            metavar="H[,H1]",
            high_items=2,
        ),
        RuleOption(
            "layout",
            "text",
            boards.OFFICIAL,
            "The board's layout: official, mirror (the official board mirrored left to right), random:SEED (the "
            "corners kept, each card but the Jacks twice on the other cells at random) or the path of a CSV file "
            "in simkit/data/board.csv's format.",
            "Equipment",
            lambda rules, cfg: None,  # the board is the kernel's tables (simkit.game.cards.tables), not a setting
            boards.tag,
            lambda v: f"board {v}",
            metavar="LAYOUT",
        ),
    )
}
"""Every rule option by name, in the order of Rules' fields, records and columns."""


def resolve(given: Mapping[str, Any]) -> dict[str, Any]:
    """Every option's value: `given` (name -> value; None or absent: the default) coerced and checked.

    The table's defaults fill what is not given, in OPTIONS order (a default
    may depend on the options before it). Raises RulesError for an unknown
    option, a value outside an option's limits, or an illegal combination.
    """
    unknown = [k for k in given if k not in OPTIONS]
    if unknown:
        close = did_you_mean(unknown[0], OPTIONS)
        raise RulesError(f"unknown rule option {unknown[0]!r}{close}; options: {', '.join(OPTIONS)}")
    values: dict[str, Any] = {}
    for name, option in OPTIONS.items():
        value = given.get(name)
        values[name] = option.coerce(option.default_for(values) if value is None else value)
        if name == "teams":
            check_table(values["players"], values["teams"])
        if name == "hand_size":
            values[name] = fit_sizes(values[name], values["players"], values["teams"])
    check_compensation(values)
    return values


def check_compensation(values: Mapping[str, Any]) -> None:
    """late_card and handicap both hold team 0's cards back: one at a time; handicap's H1 needs three teams."""
    if values.get("late_card") and values.get("handicap"):
        raise RulesError("late_card and handicap both deal team 0 a card short; give one of them")
    if isinstance(values.get("handicap"), tuple) and values["teams"] != 3:
        raise RulesError(
            f"takes H0,H1 only with three teams (H1 handicaps team 1, the middle team); "
            f"this table has {values['teams']}",
            "handicap",
        )


def check_table(players: int, teams: int) -> None:
    """Refuse players that cannot form `teams` equal teams (RULES.md, "Players and teams")."""
    if teams not in LEGAL_TEAMS.get(players, ()):
        raise RulesError(f"{players} players cannot form {teams} equal teams; legal: {legal_configurations()}")


def fit_sizes(sizes: int | tuple[int, ...], players: int, teams: int | None = None) -> int | tuple[int, ...]:
    """A hand size fitted to the table: one int when every seat holds the same, else one size per seat.
    With `teams`, a list must fit the seats as it cycles over them: its length a multiple of the teams
    that divides the players (one per team, one per seat, or a pattern that repeats around the table),
    so that each of its places always deals to the same team."""
    listed = sizes if isinstance(sizes, tuple) else (sizes,)
    if len(listed) > players:
        raise RulesError(
            f"list {sizes_text(sizes)} has {len(listed)} sizes for {players} seats; give at most one size per seat",
            "hand_size",
        )
    fits = [n for n in range(teams, players + 1, teams) if players % n == 0] if teams else []
    if teams and len(listed) > 1 and len(listed) not in fits:
        lengths = " or ".join([", ".join(map(str, fits[:-1])), str(fits[-1])] if len(fits) > 1 else [str(fits[0])])
        named = "one per seat" if teams == players else f"{teams}: one per team, {players}: one per seat"
        raise RulesError(
            f"list {sizes_text(sizes)} does not fit {players} players in {teams} teams: a list cycles over the "
            f"seats, and {len(listed)} sizes do not repeat in step with the teams; give one size, or {lengths} "
            f"({named})",
            "hand_size",
        )
    seats = per_seat(sizes, players)
    if sum(seats) > ks.DECK_SIZE:
        raise RulesError(
            f"{sizes_text(sizes)} deals {sum(seats)} cards to {players} players; the deck holds {ks.DECK_SIZE}",
            "hand_size",
        )
    return seats[0] if len(set(seats)) == 1 else seats


def is_default(name: str, value: Any, values: Mapping[str, Any]) -> bool:
    """Whether option `name` is at its default at the table of `values`."""
    return (
        value == OPTIONS[name].coerce(OPTIONS[name].default_for(values))
        if name != "hand_size"
        else value == fit_sizes(OPTIONS[name].default_for(values), values["players"])
    )


def shown(values: Mapping[str, Any]) -> dict[str, Any]:
    """The options a record or a title lists: the required ones, and the others not at their default."""
    return {k: v for k, v in values.items() if OPTIONS[k].required or not is_default(k, v, values)}


def markdown_table() -> str:
    """The table as docs/guide/rule-options.md, 'Rule options' shows it."""
    lines = [
        "| option | command line | default | allowed | meaning | RULES.md |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for o in OPTIONS.values():
        default = o.default_text or (
            ("on" if o.default else "off") if o.kind == "bool" else o.default if o.kind == "text" else f"{o.default:,}"
        )
        flags = f"`{o.flags}`" + (f", `{o.short}`" if o.short else "")
        lines.append(f"| `{o.name}` | {flags} | {default} | {o.allowed} | {o.help} | {o.section} |")
    return "\n".join(lines) + "\n"


def flags_text(values: Mapping[str, Any]) -> str:
    """Rule options as the command line says them: {'handicap': (26, 17)} -> '--handicap 26,17'."""
    return " ".join(f"{OPTIONS[k].flag} {OPTIONS[k].column_value(v)}" for k, v in values.items())


def from_flags(text: str) -> dict[str, Any]:
    """flags_text read back: '--handicap 26,17' -> {'handicap': (26, 17)} (options with whole-number values)."""
    by_flag = {o.flag: name for name, o in OPTIONS.items()}
    words = text.split()
    out: dict[str, Any] = {}
    for flag, value in zip(words[::2], words[1::2]):
        if flag not in by_flag:
            close = did_you_mean(flag.lstrip("-"), [f[2:] for f in by_flag], say=lambda f: f"--{f}")
            raise RulesError(f"{flag!r} is not a rule option{close}; known: {', '.join(by_flag)}")
        knobs = tuple(int(x) for x in value.split(","))
        out[by_flag[flag]] = knobs[0] if len(knobs) == 1 else knobs
    return out
