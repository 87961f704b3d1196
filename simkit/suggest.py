"""Close matches for a mistyped word: the "did you mean" of every error that refuses a name.

One helper for the names a user types as words: players (``--policy swfit``),
a player's parameters (``swift:rolouts=5``), studies (``simkit study
firstplayer``) and rule options named as words (``simkit.simulate(late_crad=5)``,
``--late-crad 5`` in a protocol's flags). The command line's own flags get theirs
from Click, in the same words: ``(did you mean --no-reshuffle?)``.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable

CUTOFF = 0.6  # difflib's default similarity: 'swfit' finds 'swift', 'clever' finds nothing


def close_matches(word: str, choices: Iterable[str], n: int = 3) -> list[str]:
    """The choices closest to `word`, best first (at most `n`; none when nothing is close)."""
    return difflib.get_close_matches(word.strip().lower(), list(choices), n=n, cutoff=CUTOFF)


def did_you_mean(word: str, choices: Iterable[str], say: Callable[[str], str] = str) -> str:
    """' (did you mean swift?)', or ' (did you mean a or b?)' for two close matches; '' when nothing is close.

    say: how a match is written (a research parameter's group, a flag's dashes), the matching itself being on
    the bare names."""
    matches = close_matches(word, choices, n=2)
    return f" (did you mean {' or '.join(map(say, matches))}?)" if matches else ""
