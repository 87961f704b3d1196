"""A group-sequential equivalence test: is a rule fair within a margin, deciding as the games come in.

The question of ``simkit fair``: does team 0's advantage (its share of the
decided games minus 1/teams) lie within ±margin, and at three teams every
pairwise gap between two teams' shares within ±gap margin? The games come
in looks fixed by the design (``Design``), never by the caller: at look k
the test has n_k decided games, n_k = reference x 2^(k - 4) for k = 1..8
(an eighth of the reference up to 16 times it), where the reference is the
fixed-sample size of a two one-sided tests (TOST) design at level ALPHA with
90% power at a true edge of 0 for two teams.

At each look every quantity gets its *repeated confidence interval*
(Jennison and Turnbull, *Group Sequential Methods with Applications to
Clinical Trials*, 2000, chapters 7 and 9: equivalence tests by repeated
confidence intervals): value ± c_k se. The boundaries c_k are one-sided
group-sequential boundaries of a Lan-DeMets alpha-spending function of the
Pocock type, alpha(t) = ALPHA ln(1 + (e - 1) t) with t = n_k / n_8 (Lan and
DeMets, Biometrika 70, 1983; Jennison and Turnbull, section 7.2), computed
exactly for the looks' information fractions from the joint normal law of
the look statistics (corr(Z_i, Z_j) = sqrt(n_i / n_j)). So whatever look a
run stops at, each one-sided test has spent at most ALPHA:

- "fair" when every interval lies within its margin (two one-sided tests
  per quantity, an intersection-union test over the quantities): the chance
  of "fair" when the true edge or a gap sits at its margin is at most ALPHA
  over all looks;
- "not fair" when the advantage's interval lies wholly outside ±margin, or
  the largest gap's lower bound exceeds the gap margin: the chance of "not
  fair" for a rule that is fair (every quantity within its margin) is at most
  ALPHA at two teams, where it is largest with the edge at the margin; at
  three teams it has three ways in, the advantage and two or more gaps at
  once, and is largest where two gaps sit at the gap margin together (team
  2 behind teams 0 and 1 by the gap margin each): at most NOT_FAIR_ERROR[3],
  about 9% (``tests/test_fair.py`` simulates both at their least favourable
  points, and "fair" at its own);
- otherwise the next look; after the last, or at the caller's cap, "undecided".

The design counts decided games; the runs play whole games, so a look plays
games (``simkit.studies.fair.Plan.looks``: the first look's decided games
rounded up to whole thousands, doubling) and the test reads the decided
games among them: the information fractions hold up to the noise of the
decided share, a fraction of a percent at these sizes.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from scipy import optimize
from scipy.stats import norm

from simkit.analysis import stats

ALPHA = 0.05  # each one-sided test's error over all looks
LOOKS = 8  # looks at reference x 2^(k - 4), k = 1..LOOKS
FIRST = -3  # the first look at reference x 2^FIRST
POWER_AT_ZERO = 0.90  # the reference: a fixed-sample TOST's power at a true edge of 0
GAP_FACTOR = 2  # at three teams the gaps' margin is GAP_FACTOR x the advantage's
NOT_FAIR_ERROR = {2: ALPHA, 3: 0.09}  # the chance of "not fair" for a fair rule, at most, by the teams


def spent(t: np.ndarray | float) -> np.ndarray:
    """The alpha spent by information fraction t in [0, 1] (Lan-DeMets, Pocock type)."""
    return ALPHA * np.log1p((math.e - 1) * np.asarray(t, np.float64))


GRID = 1001  # points of the numerical integration of the look statistics' density


@functools.cache
def boundaries(fractions: tuple[float, ...]) -> tuple[float, ...]:
    """One-sided boundaries c_1..c_K for looks at information `fractions` (increasing, the last 1): under
    the null the chance that the look statistic first crosses c_k at look k is spent(t_k) - spent(t_k-1).

    Computed by the recursive numerical integration of Armitage, McPherson and Rowe (J. R. Stat. Soc. A
    132, 1969; Jennison and Turnbull, chapter 19): the score S_k = Z_k sqrt(t_k) is a Gaussian random walk
    with independent increments of variance t_k - t_(k-1); its density on the region not yet crossed is
    carried from look to look on a grid, and c_k solves the crossing chance at look k."""
    t = np.asarray(fractions, np.float64)
    alpha = np.diff(spent(t), prepend=0.0)
    out = [float(norm.isf(alpha[0]))]
    top = out[0] * math.sqrt(t[0])
    grid = np.linspace(-8 * math.sqrt(t[-1]), top, GRID)
    density = norm.pdf(grid, scale=math.sqrt(t[0]))
    for k in range(1, len(t)):
        sd = math.sqrt(t[k] - t[k - 1])
        weights = np.full(GRID, grid[1] - grid[0])
        weights[[0, -1]] /= 2  # the trapezoid rule
        mass = density * weights

        def excess(c: float, mass=mass, grid=grid, sd=sd, k=k) -> float:  # crossing at look k, less its alpha
            return float(mass @ norm.sf((c * math.sqrt(t[k]) - grid) / sd)) - alpha[k]

        c = float(optimize.brentq(excess, -2.0, 12.0, xtol=1e-9))
        out.append(c)
        new = np.linspace(-8 * math.sqrt(t[-1]), c * math.sqrt(t[k]), GRID)
        density = norm.pdf((new[:, None] - grid[None, :]) / sd) @ mass / sd
        grid = new
    return tuple(out)


@dataclass(frozen=True)
class Design:
    """The looks of a test at `margin` (team 0's advantage, a share) with `teams` teams."""

    margin: float
    teams: int

    @property
    def gap_margin(self) -> float | None:
        return GAP_FACTOR * self.margin if self.teams == 3 else None

    @functools.cached_property
    def reference(self) -> int:
        """Decided games of a fixed-sample TOST at ALPHA with POWER_AT_ZERO at a true edge of 0 (a share
        of 1/2, two teams): (z_alpha + z_(1 - power)/2)^2 / 4 margin^2, rounded up."""
        z = norm.isf(ALPHA) + norm.isf((1 - POWER_AT_ZERO) / 2)
        return math.ceil((z * 0.5 / self.margin) ** 2)

    @functools.cached_property
    def decided(self) -> tuple[int, ...]:
        """The decided games at each look: reference x 2^FIRST rounded up, doubling from look to look (so the
        information fractions are 2^(k - LOOKS) whatever the margin)."""
        first = math.ceil(self.reference * 2.0**FIRST)
        return tuple(first * 2**k for k in range(LOOKS))

    @functools.cached_property
    def fractions(self) -> tuple[float, ...]:
        last = self.decided[-1]
        return tuple(n / last for n in self.decided)

    @functools.cached_property
    def boundaries(self) -> tuple[float, ...]:
        return boundaries(self.fractions)


@dataclass(frozen=True)
class Look:
    """The test at one look: the estimates, their repeated confidence intervals and the decision."""

    look: int  # 1-based
    games: int
    decided: int
    boundary: float
    advantage: float
    low: float
    high: float
    max_gap: float | None = None
    max_gap_low: float | None = None
    max_gap_high: float | None = None
    verdict: str = "continue"  # "fair", "not fair" or "continue"

    @property
    def coverage(self) -> float:
        """The two-sided nominal coverage of this look's intervals alone: 1 - 2 sf(boundary)."""
        return float(1 - 2 * norm.sf(self.boundary))


def tests_at(design: Design, k: int, wins) -> dict:
    """The test's statistics and decisions at look k (1-based) on `wins`: (teams,) games won, or
    (..., teams) for many tests at once (each value then an array of their shape). Keys: advantage, low,
    high, and at three teams max_gap, max_gap_low, max_gap_high; fair (every interval within its margin)
    and not_fair (the advantage's interval wholly outside ±margin, or the largest gap's lower bound above
    the gap margin; never with fair)."""
    wins = np.asarray(wins, np.float64)
    c = design.boundaries[k - 1]
    value = wins[..., 0] / wins.sum(axis=-1) - 1 / design.teams
    se = stats.share_se(wins)
    low, high = value - c * se, value + c * se
    m = design.margin
    inside = (-m < low) & (high < m)
    outside = (low > m) | (high < -m)
    out = {"advantage": value, "low": low, "high": high}
    if design.teams == 3:
        gap, gap_low, gap_high = stats.largest_gap(wins, c)
        g = design.gap_margin
        assert g is not None
        inside = inside & (gap_high < g)
        outside = outside | (gap_low > g)
        out.update(max_gap=gap, max_gap_low=gap_low, max_gap_high=gap_high)
    out.update(fair=inside, not_fair=outside & ~inside)
    return out


def look(design: Design, k: int, wins, games: int) -> Look:
    """The test at look k (1-based) on `wins`, (teams,) the games each team won among the first `games`."""
    t = tests_at(design, k, wins)
    verdict = "fair" if t["fair"] else "not fair" if t["not_fair"] else "continue"
    gap, gap_low, gap_high = (float(t[key]) if key in t else None for key in ("max_gap", "max_gap_low", "max_gap_high"))
    decided = int(np.sum(wins))
    c = design.boundaries[k - 1]
    value, low, high = float(t["advantage"]), float(t["low"]), float(t["high"])
    return Look(k, games, decided, c, value, low, high, gap, gap_low, gap_high, verdict)
