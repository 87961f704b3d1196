"""The study kinds' own options, each declared once: ``STUDY_OPTIONS``.

A kind's own option (hand-size's ``--sizes``, compensation's ``--family``
and ``--check``) is one ``StudyOption`` here: its name (the keyword of
``simkit.studies.registry.make_study`` and its key in a study's options and
study.json), the kind that takes it, its flag, how the command line's text
becomes its value, its help and its default. Everything else reads it:

- ``StudyKind.options`` (a kind's own options are the entries naming it),
  ``make_study``'s refusal of an option the kind does not take, and the
  study's default folder (an option not at its default names it);
- the kind's part of ``simkit study --help`` (``StudyKind.accepts``);
- ``simkit study``'s command-line options, their help ("The hand-size study
  only: ..."), how their values are read, and the refusal of one given to
  another kind ("--family applies to the compensation study, not to
  teams").

The kind's code reads the value from ``study.options`` (None: not given).
This module is light on purpose (no pandas, no scipy, no study kind): the
command line builds ``simkit study``'s options from it without the start-up
cost of the study registry, which every other command would pay.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


class StudyError(ValueError):
    """A study that cannot be made or run; the message says what is allowed."""


# The constants the options' help states (the kinds' code reads them from here too).
DEFAULT_SIZES = tuple(range(3, 10))  # hand-size: the common hand sizes swept without --sizes
HAND_SIZE_PARTS = ("penalties", "compensation")  # hand-size: what it plays besides the sweep (--with)
FAMILIES = ("late_card", "handicap")  # compensation: the families searched (rule options of simkit.game.options)
CHECK_GAMES = 10_000  # compensation: a check of a confirmed setting by another line-up: a 95% half-width of about 1 pp


@dataclass(frozen=True)
class StudyOption:
    """One option of a study kind's own (see the module docstring).

    name: its keyword and its key in the study's options. study: the kind
    that takes it (its name on the command line). help: one line, without
    the final stop. flag: its command-line option (default ``--NAME``; a
    repeated flag names one value, ``--family late_card``). parse: the
    command line's text -> the value (None: the text as given), raising
    ValueError for a text it cannot read, which is refused as ``FLAG 'TEXT'
    must be TAKES``; repeat: the flag is given once per value, the value is
    their list. default: the value when it is not given (None: the kind's
    own choice, which the help says). chooses: it chooses among the kind's
    parts (compensation's families, the line-ups that check its answers):
    like the tables a command chooses, it is neither the study's identity
    nor its folder, so a command that gives another value joins the study
    (``StudyKind.choosing``).
    """

    name: str
    study: str
    help: str
    flag: str = ""
    parse: Callable[[str], Any] | None = None
    takes: str = ""
    repeat: bool = False
    default: Any = None
    chooses: bool = False

    def __post_init__(self):
        if not self.flag:
            object.__setattr__(self, "flag", "--" + self.name.replace("_", "-"))

    @property
    def command_help(self) -> str:
        """Its help in `simkit study --help`'s options: 'The hand-size study only: ...'."""
        return f"The {self.study} study only: {self.help}."

    def read(self, given: str | list[str] | None) -> Any:
        """The value of what the command line gave (a text; a list of texts for a repeated flag), or None
        when nothing was given (absent, an empty text, no value)."""
        if not given:
            return None
        if self.repeat:
            return [self._parsed(v) for v in given]
        assert isinstance(given, str), f"{self.flag} takes one value"  # only a repeated flag gives a list
        return self._parsed(given)

    def _parsed(self, text: str) -> Any:
        if self.parse is None:
            return text
        try:
            return self.parse(text)
        except ValueError:
            raise StudyError(f"{self.flag} {text!r} must be {self.takes}") from None


def hand_sizes(text: str) -> list[int]:
    """'3..9' or '3,5,7' -> hand sizes (checked against the table by the hand-size study); ValueError
    for another text."""
    if ".." in text:
        lo, hi = (int(v) for v in text.split(".."))
        return list(range(lo, hi + 1))
    return [int(v) for v in text.split(",") if v.strip()]


def hand_size_part(text: str) -> str:
    """A part of the hand-size study besides its sweep, one of HAND_SIZE_PARTS; ValueError for another."""
    if text not in HAND_SIZE_PARTS:
        raise ValueError(text)
    return text


STUDY_OPTIONS: dict[str, StudyOption] = {
    o.name: o
    for o in (
        StudyOption(
            "sizes",
            "hand-size",
            f"the common hand sizes to sweep, a range such as {DEFAULT_SIZES[0]}.."
            f"{DEFAULT_SIZES[-1]} (the default) or a list such as 3,5,7",
            parse=hand_sizes,
            takes="a range such as 3..9 or a list such as 3,5,7",
        ),
        StudyOption(
            "parts",
            "hand-size",
            f"play also {' or '.join(HAND_SIZE_PARTS)} (a seat or a team one card short; every later team one "
            "card more), repeat for both; default both without --sizes, neither with it",
            flag="--with",
            parse=hand_size_part,
            takes=" or ".join(HAND_SIZE_PARTS),
            repeat=True,
            chooses=True,
        ),
        StudyOption(
            "families",
            "compensation",
            f"a family to search, {' or '.join(FAMILIES)}; repeat for several; default all",
            flag="--family",
            repeat=True,
            chooses=True,
        ),
        StudyOption(
            "checks",
            "compensation",
            f"a line-up that plays each confirmed answer again on a fresh seed, "
            f"{CHECK_GAMES:,} games; repeat for several",
            flag="--check",
            repeat=True,
            chooses=True,
        ),
    )
}
"""Every study kind's own options by name, in the order `simkit study --help` lists them."""


def options_of(study: str) -> dict[str, StudyOption]:
    """The own options of the study kind named `study`, by name."""
    return {name: o for name, o in STUDY_OPTIONS.items() if o.study == study}


def option_flag(name: str) -> str:
    """The command-line flag of a kind's own option ('families' -> '--family'; a name no kind takes: --NAME)."""
    return STUDY_OPTIONS[name].flag if name in STUDY_OPTIONS else f"--{name}"
