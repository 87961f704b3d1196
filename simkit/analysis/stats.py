"""What every number simkit publishes is: each statistic defined once, with its interval and its test.

Inputs are counts and sums (``simkit.analysis.aggregate``), never rows, so the same
function serves a 400-game test and a billion-game run. Every estimate is an
``Estimate``: the value, its 95% interval [low, high], the number of games
behind it and the name of the interval's method. Renderers
(``simkit.presentation.render``) only format what is computed here.

The quantities (the first mover is seat 0, of team 0; "decided" games have a
winner; the fair share of a team is 1/teams):

- ``proportion``: a share of games, Wilson's interval (scipy).
- ``team_shares``: each team's share of the decided games, Wilson's interval
  each; ``advantage``: team 0's share minus its fair share, in proportion
  points; ``relative_advantage``: team 0's share divided by its fair share,
  minus 1 (+0.09: team 0 wins 9% more than its fair share), which compares
  across team counts; both carry Wilson's interval of the share, and
  ``first_mover_test`` the exact binomial test of share = fair share.
- ``decided_shares``: every team's share of the decided games with Goodman's
  simultaneous 95% intervals (the reports' every-team table).
- ``share_gap``: team i's share minus team j's (the three-team search
  balances team 1 against team 2 with it).
- ``max_gap``: the largest gap between two teams' shares, with an interval
  that allows for the maximum's upward bias: for two teams twice the
  absolute advantage, bounded by the advantage's interval; for three, the
  range of gaps allowed by Goodman's simultaneous 95% intervals of the
  shares (statsmodels), conservative by construction. ``balance`` is 1 minus
  a max gap (over all games, or over the decided games).
- ``equal_strength``: the chi-square test that every team wins equally often
  (decided games).
- ``mean_length``, ``sd_length``, ``quantile``: of a histogram of whole
  numbers (the game lengths): the t-interval of the mean; the delta-method
  interval of the standard deviation (from the fourth central moment); the
  quantiles as numpy's linear method gives them on the rows.
- how a game unfolds: ``comebacks``, the share of the decided games with a
  first sequence that the team which completed it lost (Wilson); the
  closing turns, from the first sequence to the game's end, and the lead
  changes per game are histograms of whole numbers (``mean_length``,
  ``quantile``); ``at_least_one``, the share of a histogram's games with a
  count above 0 (Wilson).
- ``score``: a line-up's share of the points, a draw worth 1/teams of a win,
  with Wilson's interval on the fractional count (statsmodels; slightly wide
  when draws occur, since a draw varies less than a win or a loss).
- ``shift``: the difference between two configurations of a team's share
  of the decided games, estimated from per-game pairs when both played the
  same game indices of one seed (the same deals), with the unpaired
  interval beside it and the pairs' correlation. The pairs' interval is
  used wherever the correlation is larger than PAIRING_GAIN either way: a
  positive one narrows it, a negative one widens it (the unpaired interval
  would then claim too much); within +-PAIRING_GAIN the two are the same to
  a few per cent and the unpaired one is used.
- ``paired_difference``: the same for a difference of means (game lengths,
  the stalemate rate) over per-game pairs.
- ``holm``: Holm's adjustment of a family of p-values (statsmodels).
- ``bradley_terry``: ratings from pairwise scores (a binomial GLM,
  statsmodels), on the Elo scale.

One module, so that each number is defined once and found in one place.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats as sp

FAIR_BAND = {"casual": 0.005, "strong": 0.01}
"""The equivalence margin of "fair" (the compensation study): a setting is fair when the 95% interval of
team 0's advantage lies within ±FAIR_BAND (casual play, random and greedy: "casual"; strong play, swift and
slower players: "strong"),
not when its edge is zero."""
CONFIDENCE = 0.95
Z = float(sp.norm.ppf(0.5 + CONFIDENCE / 2))  # 1.96
_NAN = float("nan")


@dataclass(frozen=True)
class Estimate:
    """A number with its 95% interval [low, high], the games behind it (n) and how the interval was made."""

    value: float
    low: float
    high: float
    n: int
    method: str = ""

    @classmethod
    def undefined(cls, n: int = 0, method: str = "") -> Estimate:
        return cls(_NAN, _NAN, _NAN, n, method)

    def shifted(self, by: float, scale: float = 1.0) -> Estimate:
        """(value * scale + by) with its interval moved alike (scale > 0)."""
        return Estimate(self.value * scale + by, self.low * scale + by, self.high * scale + by, self.n, self.method)


# --- shares -------------------------------------------------------------------------


def proportion(k: int, n: int) -> Estimate:
    """k of n, with Wilson's score interval (scipy's binomtest); undefined for n = 0."""
    if n <= 0:
        return Estimate.undefined(0, "Wilson")
    ci = sp.binomtest(int(k), int(n)).proportion_ci(confidence_level=CONFIDENCE, method="wilson")
    return Estimate(k / n, float(ci.low), float(ci.high), int(n), "Wilson")


def team_shares(wins: np.ndarray) -> list[Estimate]:
    """Each team's share of the decided games (wins: (teams,) games won), Wilson's interval each."""
    decided = int(np.sum(wins))
    return [proportion(int(w), decided) for w in wins]


def advantage(wins: np.ndarray) -> Estimate:
    """Team 0's share of the decided games minus its fair share 1/teams (a proportion: 0.02 = 2 pp)."""
    fair = 1 / len(wins)
    return team_shares(wins)[0].shifted(-fair)


def relative_advantage(wins: np.ndarray) -> Estimate:
    """Team 0's share of the decided games over its fair share, minus 1: comparable across team counts."""
    teams = len(wins)
    return team_shares(wins)[0].shifted(-1.0, scale=teams)


def share_gap(wins: np.ndarray, i: int, j: int) -> Estimate:
    """Team i's share of the decided games minus team j's, with the normal 95% interval of a difference
    of two shares of one multinomial: variance (s_i + s_j - (s_i - s_j)^2) / decided."""
    decided = int(np.sum(wins))
    if decided == 0:
        return Estimate.undefined(0, "normal (multinomial)")
    d = float(wins[i] / decided - wins[j] / decided)
    se = gap_se(wins, i, j)
    return Estimate(d, d - Z * se, d + Z * se, decided, "normal (multinomial)")


def first_mover_test(wins: np.ndarray) -> float:
    """Two-sided exact binomial p-value of team 0's share of the decided games = 1/teams (NaN: none decided)."""
    decided = int(np.sum(wins))
    if decided == 0 or len(wins) < 2:
        return _NAN
    return float(sp.binomtest(int(wins[0]), decided, p=1 / len(wins), alternative="two-sided").pvalue)


def simultaneous(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Goodman's simultaneous 95% intervals of multinomial shares (statsmodels): (low, high) per category."""
    # statsmodels takes about a second to import, and few reports need it
    from statsmodels.stats.proportion import multinomial_proportions_confint

    bounds = multinomial_proportions_confint(np.asarray(counts), alpha=1 - CONFIDENCE, method="goodman")
    return bounds[:, 0], bounds[:, 1]


def decided_shares(wins: np.ndarray) -> list[Estimate]:
    """Every team's share of the decided games with Goodman's simultaneous 95% intervals (`simultaneous`):
    together they hold every team's share at once with at least 95% coverage, as `max_gap` uses them."""
    wins = np.asarray(wins, np.int64)
    decided = int(wins.sum())
    if decided == 0:
        return [Estimate.undefined(0, "Goodman simultaneous") for _ in wins]
    low, high = simultaneous(wins)
    return [
        Estimate(float(w / decided), float(lo), float(hi), decided, "Goodman simultaneous")
        for w, lo, hi in zip(wins, low, high)
    ]


def max_gap(wins: np.ndarray, draws: int | None = None) -> Estimate:
    """The largest gap between two teams' shares: of the decided games (draws None), else of all games
    (draws: the games without a winner, a category of their own).

    Two teams, decided games: 2 |advantage|, its interval the image of the
    advantage's. Otherwise the range of gaps Goodman's simultaneous intervals
    allow: at least 95% coverage, and a lower bound of 0 when the teams could
    be equal (the sample's maximum is biased upwards; this interval is not).
    """
    wins = np.asarray(wins, np.int64)
    if draws == 0:  # no draws: all games are the decided games
        draws = None
    counts = wins if draws is None else np.append(wins, int(draws))
    n = int(counts.sum())
    if n == 0 or len(wins) < 2:
        return Estimate.undefined(n)
    rates = wins / n
    gap = float(rates.max() - rates.min())
    if len(wins) == 2 and draws is None:
        a = advantage(wins)
        inside = a.low <= 0 <= a.high
        return Estimate(
            gap,
            0.0 if inside else 2 * min(abs(a.low), abs(a.high)),
            2 * max(abs(a.low), abs(a.high)),
            n,
            "Wilson (two teams)",
        )
    present = counts > 0
    if not present[-1] and draws is not None:
        counts = counts[:-1]  # no draws: the intervals need no empty category
    low, high = simultaneous(counts)
    low, high = low[: len(wins)], high[: len(wins)]
    pairs = [(i, j) for i in range(len(wins)) for j in range(len(wins)) if i != j]
    widest = max(high[i] - low[j] for i, j in pairs)
    narrowest = max(0.0, float(low.max() - high.min()))
    return Estimate(gap, narrowest, float(widest), n, "Goodman simultaneous")


def balance(wins: np.ndarray, draws: int | None = None) -> Estimate:
    """1 - max_gap: 1 when every team wins equally often (over all games with `draws`, else the decided)."""
    g = max_gap(wins, draws)
    return Estimate(1 - g.value, 1 - g.high, 1 - g.low, g.n, g.method)


def equal_strength(wins: np.ndarray) -> tuple[float, float, float]:
    """(statistic, degrees of freedom, p-value) of the chi-square test of equal wins among the decided games
    (every one NaN when it is undefined)."""
    wins = np.asarray(wins, np.float64)
    if len(wins) < 2 or wins.sum() == 0:
        return _NAN, _NAN, _NAN
    res = sp.chisquare(wins)
    return float(res.statistic), len(wins) - 1, float(res.pvalue)


# --- game lengths (histograms of whole numbers) ------------------------------------


def _moments(counts: np.ndarray) -> tuple[int, float, np.ndarray, np.ndarray]:
    counts = np.asarray(counts, np.int64)
    values = np.nonzero(counts)[0]
    weights = counts[values]
    n = int(weights.sum())
    mean = float((values * weights).sum() / n) if n else _NAN
    return n, mean, values.astype(np.float64), weights.astype(np.float64)


def mean_length(counts: np.ndarray) -> Estimate:
    """The mean of a histogram (counts[v] values equal to v) with the t-interval of the mean."""
    n, mean, values, weights = _moments(counts)
    if n < 2:
        return Estimate(mean, _NAN, _NAN, n, "t")
    sd = math.sqrt(float((weights * (values - mean) ** 2).sum()) / (n - 1))
    if sd == 0:
        return Estimate(mean, mean, mean, n, "t")
    low, high = sp.t.interval(CONFIDENCE, n - 1, loc=mean, scale=sd / math.sqrt(n))
    return Estimate(mean, float(low), float(high), n, "t")


def sd_length(counts: np.ndarray) -> Estimate:
    """The standard deviation (n - 1) of a histogram, with the delta-method interval:
    se(s) = sqrt((m4 - m2^2 (n - 3) / (n - 1)) / n) / (2 s), m2 and m4 the central moments."""
    n, mean, values, weights = _moments(counts)
    if n < 2:
        return Estimate.undefined(n, "delta method")
    dev = values - mean
    s2 = float((weights * dev**2).sum()) / (n - 1)
    s = math.sqrt(s2)
    if s == 0:
        return Estimate(0.0, 0.0, 0.0, n, "delta method")
    m2 = float((weights * dev**2).sum()) / n
    m4 = float((weights * dev**4).sum()) / n
    var_s2 = max(m4 - m2 * m2 * (n - 3) / (n - 1), 0.0) / n
    se = math.sqrt(var_s2) / (2 * s)
    return Estimate(s, max(0.0, s - Z * se), s + Z * se, n, "delta method")


def quantile(counts: np.ndarray, q: float) -> float:
    """The q-th percentile (0..100) of a histogram, as numpy.percentile's linear method gives it on the values."""
    counts = np.asarray(counts, np.int64)
    n = int(counts.sum())
    if n == 0:
        return _NAN
    h = (n - 1) * q / 100
    lower = math.floor(h)
    cum = np.cumsum(counts)
    a = int(np.searchsorted(cum, lower, side="right"))
    b = int(np.searchsorted(cum, min(lower + 1, n - 1), side="right"))
    t = h - lower
    return float(a + t * (b - a)) if t < 0.5 else float(b - (b - a) * (1 - t))


def at_least_one(counts: np.ndarray) -> Estimate:
    """The share of a histogram's games whose count is at least 1 (counts[0]: those with none), Wilson's interval."""
    counts = np.asarray(counts, np.int64)
    n = int(counts.sum())
    return proportion(n - int(counts[0]) if len(counts) else 0, n)


def extremes(counts: np.ndarray) -> tuple[int, int]:
    """The smallest and the largest value of a non-empty histogram."""
    present = np.nonzero(counts)[0]
    return int(present[0]), int(present[-1])


# --- how a game unfolds -------------------------------------------------------------


def comebacks(decided: int, converted: int) -> Estimate:
    """The share of the decided games with a first sequence (`decided`) that the team which completed the first
    sequence lost: those it did not convert into a win (`converted` of them), Wilson's interval."""
    return proportion(decided - converted, decided)


# --- scores and ratings -------------------------------------------------------------


def score(wins: int, draws: int, games: int, teams: int) -> Estimate:
    """A line-up's score (wins + draws / teams) / games, Wilson's interval on the fractional count."""
    if games <= 0:
        return Estimate.undefined(0, "Wilson")
    # statsmodels takes about a second to import, and few reports need it
    from statsmodels.stats.proportion import proportion_confint

    points = wins + draws / teams
    low, high = proportion_confint(points, games, alpha=1 - CONFIDENCE, method="wilson")
    return Estimate(points / games, float(low), float(high), games, "Wilson")


def bradley_terry(pairs: list[tuple[str, str, float, int]], anchor: str) -> list[tuple[str, Estimate]]:
    """Ratings (Elo scale: 400 log10 odds, `anchor` = 0) from pairwise results, best last.

    pairs: (a, b, a's points, games) per pair, a's points = wins + draws / 2.
    A Bradley-Terry model fitted as a binomial GLM without intercept
    (statsmodels), Wald 95% intervals of each rating against the anchor. A
    rating difference d means an expected score 1 / (1 + 10^(-d / 400)).
    """
    # statsmodels takes about a second to import, and few reports need it
    import statsmodels.api as sm

    names: list[str] = []
    for a, b, _, _ in pairs:
        names += [x for x in (a, b) if x not in names]
    if anchor not in names:
        anchor = names[0]
    others = [x for x in names if x != anchor]
    design = np.zeros((len(pairs), len(others)))
    points = np.array([p for _, _, p, _ in pairs], np.float64)
    games = np.array([g for *_, g in pairs], np.float64)
    for i, (a, b, _, _) in enumerate(pairs):
        if a != anchor:
            design[i, others.index(a)] = 1
        if b != anchor:
            design[i, others.index(b)] = -1
    with np.errstate(divide="ignore", invalid="ignore"):  # one pair: no residual degrees of freedom, no matter
        fit = sm.GLM(np.column_stack([points, games - points]), design, family=sm.families.Binomial()).fit()
    elo = 400 / math.log(10)
    ci = np.asarray(fit.conf_int(alpha=1 - CONFIDENCE))
    n = int(games.sum())
    out = [(anchor, Estimate(0.0, 0.0, 0.0, n, "anchor"))]
    for j, name in enumerate(others):
        out.append(
            (
                name,
                Estimate(
                    elo * float(fit.params[j]), elo * float(ci[j, 0]), elo * float(ci[j, 1]), n, "Wald (binomial GLM)"
                ),
            )
        )
    return sorted(out, key=lambda r: r[1].value)


# --- comparisons ------------------------------------------------------------------------

PAIRING_GAIN = 0.05
"""The size of the pairs' correlation, either way, above which their interval is used (within it the two
intervals differ by a few per cent: sqrt(1 -+ 0.05))."""


@dataclass(frozen=True)
class Shift:
    """The shift of team 0's share of the decided games from configuration B to configuration A.

    estimate: the shift with the interval used: the paired one when the pairs'
    correlation is beyond +-PAIRING_GAIN (narrower when positive, wider when
    negative), else the unpaired one; unpaired: the interval as if the two
    sets of games were independent; correlation: of the pairs' contributions
    (0 without pairs); paired: whether the pairs' interval is used; p_value:
    of shift = 0, from the interval used.
    """

    estimate: Estimate
    unpaired: Estimate
    correlation: float
    paired: bool
    p_value: float

    @property
    def narrower(self) -> float:
        """How much narrower the interval used is than the unpaired one (0.3: 30% narrower)."""
        w = self.unpaired.high - self.unpaired.low
        return 1 - (self.estimate.high - self.estimate.low) / w if w > 0 else 0.0


def _ratio_terms(n: int, w: float, d: float):
    """Mean of (team won, decided) per game and the linearisation weights of the share W / D."""
    mw, md = w / n, d / n
    r = mw / md
    return r, np.array([1 / md, -r / md])


def _share_variance(n: int, w: int, d: int) -> tuple[float, float]:
    """(share W/D, per-game variance of its linearised term) from the counts of one set of games.

    Per game x = (won, decided) is a pair of indicators with won <= decided,
    so its covariance follows from W, D and n alone.
    """
    r, g = _ratio_terms(n, w, d)
    mw, md = w / n, d / n
    cov = np.array([[mw - mw * mw, mw - mw * md], [mw - mw * md, md - md * md]]) * n / (n - 1)
    return r, float(g @ cov @ g)


def shift(
    wins_a: np.ndarray, games_a: int, wins_b: np.ndarray, games_b: int, team: int = 0, joint: np.ndarray | None = None
) -> Shift:
    """The shift of team `team`'s share of the decided games from configuration B to configuration A.

    wins_*: (teams,) games won by each team; games_*: the games. joint: when
    both played the same deals (the same seed and game indices), the
    (teams + 1, teams + 1) counts of the pairs of games by (winner in A + 1,
    winner in B + 1), a draw being winner -1; None: independent samples.

    The shift W_A/D_A - W_B/D_B is linearised (delta method): per game,
    u = (won - r decided) / d-bar for A, minus the same for B, so with pairs
    the covariance of the two terms (positive when the same deals favour the
    same team) narrows the interval. Normal 95% interval; p-value of shift = 0.
    """
    wins_a, wins_b = np.asarray(wins_a, np.int64), np.asarray(wins_b, np.int64)
    method = "paired (delta method)" if joint is not None else "unpaired (delta method)"
    if min(games_a, games_b) < 2 or wins_a.sum() == 0 or wins_b.sum() == 0:
        nan = Estimate.undefined(min(games_a, games_b), method)
        return Shift(nan, nan, _NAN, joint is not None, _NAN)
    r_a, var_a = _share_variance(games_a, int(wins_a[team]), int(wins_a.sum()))
    r_b, var_b = _share_variance(games_b, int(wins_b[team]), int(wins_b.sum()))
    value = r_a - r_b
    se_unpaired = math.sqrt(var_a / games_a + var_b / games_b)
    unpaired = Estimate(
        value, value - Z * se_unpaired, value + Z * se_unpaired, games_a + games_b, "unpaired (delta method)"
    )
    if joint is None:
        p = float(2 * sp.norm.sf(abs(value) / se_unpaired)) if se_unpaired > 0 else _NAN
        return Shift(unpaired, unpaired, 0.0, False, p)
    joint = np.asarray(joint, np.int64)
    n = int(joint.sum())
    if n != games_a or n != games_b:
        raise ValueError(f"the pairs ({n:,}) must be every game of both runs ({games_a:,} and {games_b:,})")
    won = np.zeros(joint.shape[0])  # indicators by winner + 1: team `team` won; the game was decided
    won[team + 1] = 1
    decided = np.ones(joint.shape[0])
    decided[0] = 0
    ea = np.array([wins_a[team], wins_a.sum()]) / n
    eb = np.array([wins_b[team], wins_b.sum()]) / n
    cross = (
        np.array([[won @ joint @ won, won @ joint @ decided], [decided @ joint @ won, decided @ joint @ decided]]) / n
    )  # E[x_A y_B]
    cov_ab = (cross - np.outer(ea, eb)) * n / (n - 1)
    _, g_a = _ratio_terms(n, float(wins_a[team]), float(wins_a.sum()))
    _, g_b = _ratio_terms(n, float(wins_b[team]), float(wins_b.sum()))
    covariance = float(g_a @ cov_ab @ g_b)
    se = math.sqrt(max(var_a + var_b - 2 * covariance, 0.0) / n)
    correlation = covariance / math.sqrt(var_a * var_b) if var_a > 0 and var_b > 0 else 0.0
    if abs(correlation) <= PAIRING_GAIN:  # the two intervals agree to a few per cent: the unpaired one, said
        p = float(2 * sp.norm.sf(abs(value) / se_unpaired)) if se_unpaired > 0 else _NAN
        return Shift(unpaired, unpaired, float(correlation), False, p)
    used = Estimate(value, value - Z * se, value + Z * se, n, method)
    p = float(2 * sp.norm.sf(abs(value) / se)) if se > 0 else _NAN
    return Shift(used, unpaired, float(correlation), True, p)


def paired_difference(n: int, sums: np.ndarray) -> Shift:
    """The difference of two means over n pairs (a_i, b_i): mean(a) - mean(b), with the paired interval
    (from the variance of a_i - b_i) and the unpaired one beside it.

    sums: (5,) the sums of a, b, a*a, b*b and a*b over the pairs (a mean game
    length, or a rate when a and b are 0/1 indicators). Normal 95% intervals.
    """
    if n < 2:
        nan = Estimate.undefined(n, "paired")
        return Shift(nan, nan, _NAN, True, _NAN)
    sa, sb, saa, sbb, sab = (float(v) for v in sums)
    ma, mb = sa / n, sb / n
    va, vb = (saa - n * ma * ma) / (n - 1), (sbb - n * mb * mb) / (n - 1)
    cov = (sab - n * ma * mb) / (n - 1)
    value = ma - mb
    se = math.sqrt(max(va + vb - 2 * cov, 0.0) / n)
    se_unpaired = math.sqrt(max(va + vb, 0.0) / n)
    correlation = cov / math.sqrt(va * vb) if va > 0 and vb > 0 else 0.0
    unpaired = Estimate(value, value - Z * se_unpaired, value + Z * se_unpaired, 2 * n, "unpaired")
    paired = abs(correlation) > PAIRING_GAIN
    if not paired:
        se = se_unpaired
    used = Estimate(value, value - Z * se, value + Z * se, n, "paired") if paired else unpaired
    p = float(2 * sp.norm.sf(abs(value) / se)) if se > 0 else (_NAN if value == 0 else 0.0)
    return Shift(used, unpaired, float(correlation), paired, p)


def independent_difference(a, a_low, a_high, b, b_low, b_high) -> tuple[float, float, float, float]:
    """a - b of two independent estimates given with symmetric normal 95% intervals (a shift of one line-up
    minus another's, say): (value, low, high, p of a - b = 0), the standard errors read from the intervals'
    half-widths and added in quadrature."""
    value = float(a - b)
    se = math.hypot((a_high - a_low) / (2 * Z), (b_high - b_low) / (2 * Z))
    if not (se > 0):
        return value, _NAN, _NAN, _NAN
    return value, value - Z * se, value + Z * se, float(2 * sp.norm.sf(abs(value) / se))


def holm_families(p_values) -> np.ndarray:
    """Holm's adjusted p-values of many families at once: p_values (..., m), each row one family, no NaN.

    What ``holm`` (statsmodels) gives each row, computed for all rows together: sorted ascending, the
    i-th smallest (from 0) times m - i, the running maximum, capped at 1, back in the rows' order. The
    confirmation's simulations decide thousands of families; statsmodels takes one at a time, each call
    running a full garbage collection (0.05-0.25 s)."""
    p = np.asarray(p_values, np.float64)
    m = p.shape[-1]
    order = np.argsort(p, axis=-1, kind="stable")
    ranked = np.take_along_axis(p, order, axis=-1) * (m - np.arange(m))
    adjusted = np.minimum(np.maximum.accumulate(ranked, axis=-1), 1.0)
    out = np.empty_like(adjusted)
    np.put_along_axis(out, order, adjusted, axis=-1)
    return out


def holm(p_values) -> np.ndarray:
    """Holm's step-down adjustment of a family of p-values (``holm_families`` of one family: statsmodels'
    ``multipletests(method="holm")``'s values, tests/test_stats.py); NaN stays NaN and is not counted."""
    p = np.asarray(p_values, np.float64)
    adjusted = np.full(len(p), _NAN)
    ok = np.isfinite(p)
    if ok.any():
        adjusted[ok] = holm_families(p[ok])
    return adjusted


def equivalence(value, se, margin: float, alpha: float):
    """Two one-sided tests that a true value lies within ±margin, each at level alpha (normal).

    Returns (p, low, high): the larger of the two one-sided p-values, and the 1 - 2 alpha interval
    (value ∓ z se); equivalence is shown at level alpha exactly when low > -margin and high < margin.
    value and se: numbers, or arrays of one shape (then so are p, low and high)."""
    value, se = np.asarray(value, np.float64), np.asarray(se, np.float64)
    z = float(sp.norm.isf(alpha))
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.maximum(sp.norm.sf((value + margin) / se), sp.norm.sf((margin - value) / se))
    p = np.where(se > 0, p, np.nan)
    low, high = np.where(se > 0, value - z * se, np.nan), np.where(se > 0, value + z * se, np.nan)
    if p.ndim == 0:
        return float(p), float(low), float(high)
    return p, low, high


PAIRS = ((0, 1), (0, 2), (1, 2))  # the pairs of three teams


def largest_gap(wins, z):
    """The largest gap between two of three teams' shares of the decided games, and its interval
    [floor, reach] from each pair's gap ± z standard errors (``gap_se``): floor is the largest
    distance of a pair's interval from 0, reach the largest |bound| of the pairs' intervals.
    wins: (3,) or (..., 3); z: a number, or an array of the batch's shape. Returns (largest, floor, reach)."""
    wins = np.asarray(wins, np.float64)
    decided = wins.sum(axis=-1)
    s = wins / decided[..., None]
    largest = floor = reach = np.zeros(decided.shape)
    for i, j in PAIRS:
        d = np.abs(s[..., i] - s[..., j])
        half = z * gap_se(wins, i, j)
        largest = np.maximum(largest, d)
        floor = np.maximum(floor, d - half)
        reach = np.maximum(reach, d + half)
    if np.ndim(largest) == 0:
        return float(largest), float(floor), float(reach)
    return largest, floor, reach


def share_se(wins, team: int = 0):
    """The standard error of a team's share of the decided games (binomial): sqrt(s (1 - s) / decided).
    wins: (teams,) games won, or (..., teams) for many sets of games at once (NaN where none is decided)."""
    wins = np.asarray(wins, np.float64)
    decided = wins.sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = wins[..., team] / decided
        se = np.sqrt(s * (1 - s) / decided)
    return float(se) if se.ndim == 0 else se


def gap_se(wins, i: int, j: int):
    """The standard error of team i's share of the decided games minus team j's, a difference of two shares
    of one multinomial: sqrt((s_i + s_j - (s_i - s_j)^2) / decided). wins: (teams,) or (..., teams)."""
    wins = np.asarray(wins, np.float64)
    decided = wins.sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        si, sj = wins[..., i] / decided, wins[..., j] / decided
        se = np.sqrt(np.maximum(si + sj - (si - sj) ** 2, 0.0) / decided)
    return float(se) if se.ndim == 0 else se


def games_for_half_width(half_width: float, share: float = 0.5) -> int:
    """Decided games that give a share near `share` (1/2: the worst case) a 95% half-width of half_width."""
    return math.ceil(Z * Z * share * (1 - share) / half_width**2)
