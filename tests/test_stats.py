"""Tests that can fail for simkit.analysis.stats: coverage of every 95% interval against a known truth,
and exactness checks where a closed form exists.

Coverage tests draw many seeded synthetic samples from a known distribution (numpy ``default_rng`` with a fixed
seed: the figures are exact and reproducible), compute the interval of each sample with simkit.analysis.stats and count
how often it covers the truth. With 10,000 samples the standard error of a 95% coverage is 0.22 pp, so the band
94%-96% is +-4.5 standard errors: a correct interval stays inside it, while an interval with a standard error off
by a factor of 2 covers about 68% or 99.99% of the time. Each coverage test also checks that the same intervals
halved or doubled in width (about the estimate) fall outside the band, so that the band is shown to have the
power to reject a wrong formula. Where a method is expensive, fewer samples are drawn and the docstring says how
many and why the band is what it is.

Where several samples give the same inputs, the interval is computed once per distinct input (a deterministic
function of its arguments); the measured figures are those of every sample.

Each coverage test prints the figure it measured (``pytest -s`` or ``-rP`` shows them) and puts it in its
assertion messages.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as sp

from simkit.analysis import stats as S

SAMPLES = 10_000
BAND = (0.94, 0.96)
Z = 1.959963984540054  # the standard normal's 97.5% point, from a table


# --- helpers ---------------------------------------------------------------------------


def _by_distinct(keys: np.ndarray, compute) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(value, low, high) per row of keys, computing compute(row) -> Estimate once per distinct row."""
    keys = np.asarray(keys)
    if keys.ndim == 1:
        keys = keys[:, None]
    _, first, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    est = [compute(keys[i]) for i in first]
    inverse = np.asarray(inverse).ravel()
    value = np.array([e.value for e in est])[inverse]
    low = np.array([e.low for e in est])[inverse]
    high = np.array([e.high for e in est])[inverse]
    return value, low, high


def _coverage(low: np.ndarray, high: np.ndarray, truth) -> float:
    return float(np.mean((low <= truth) & (truth <= high)))


def _check_coverage(name: str, value, low, high, truth, band=BAND, power: bool = True) -> float:
    """Assert the share of [low, high] covering `truth` lies in `band`; print the figure.

    power: also assert that the intervals scaled to half and to twice their width about `value` fall outside
    the band (a standard error off by a factor of 2 would fail the test).
    """
    value, low, high = (np.asarray(x, np.float64) for x in (value, low, high))
    assert np.all(np.isfinite(low)) and np.all(np.isfinite(high)), f"{name}: undefined intervals"
    cov = _coverage(low, high, truth)
    print(f"coverage {name}: {cov:.4f} of {len(low):,} samples (truth {truth!r})")
    assert band[0] <= cov <= band[1], f"{name}: coverage {cov:.4f} outside {band} ({len(low):,} samples)"
    if power:
        for scale in (0.5, 2.0):
            c = _coverage(value - scale * (value - low), value + scale * (high - value), truth)
            assert not band[0] <= c <= band[1], f"{name}: the band cannot tell a width x{scale} ({c:.4f})"
    return cov


def _draw_wins(rng, games: int, probs, samples: int = SAMPLES) -> tuple[np.ndarray, np.ndarray]:
    """(wins (samples, teams), draws (samples,)) of `games` games; probs: (draw, team 0, team 1, ...)."""
    counts = rng.multinomial(games, probs, size=samples)
    return counts[:, 1:], counts[:, 0]


# --- proportion (Wilson) ---------------------------------------------------------------


@pytest.mark.parametrize("n, p", [(1000, 0.52), (1000, 0.03)])
def test_proportion_wilson_coverage(n: int, p: float) -> None:
    """Wilson's interval of k of n covers a known p in 94-96% of 10,000 binomial samples: n=1000 at p=0.52 (the
    middle) and p=0.03 (near the boundary, 30 expected successes, where Wald's interval under-covers). The
    exact coverage (the binomial probability of the k whose interval covers p) is checked in the band too."""
    rng = np.random.default_rng(1901)
    k = rng.binomial(n, p, size=SAMPLES)
    value, low, high = _by_distinct(k, lambda row: S.proportion(int(row[0]), n))
    assert np.allclose(value, k / n)
    cov = _check_coverage(f"proportion n={n} p={p}", value, low, high, p)
    sd = math.sqrt(n * p * (1 - p))
    ks = np.arange(max(0, math.floor(n * p - 8 * sd)), min(n, math.ceil(n * p + 8 * sd)) + 1)
    exact = sum(sp.binom.pmf(x, n, p) for x in ks if (e := S.proportion(int(x), n)).low <= p <= e.high)
    print(f"exact coverage proportion n={n} p={p}: {exact:.4f} (simulated {cov:.4f})")
    assert BAND[0] <= exact <= BAND[1], f"exact coverage {exact:.4f}"


def test_proportion_wilson_closed_form() -> None:
    """proportion's interval is Wilson's score interval (closed form by hand, not scipy): centre
    (k + z^2/2) / (n + z^2), half-width z sqrt(k(n-k)/n + z^2/4) / (n + z^2); k=0 gives [0, z^2/(n+z^2)] (Wald
    would give [0, 0], Clopper-Pearson an upper bound of 0.3085 for n=10); n=0 is undefined."""
    for k, n in [(0, 10), (3, 10), (10, 10), (520, 1000), (7, 400)]:
        e = S.proportion(k, n)
        centre = (k + Z * Z / 2) / (n + Z * Z)
        half = Z * math.sqrt(k * (n - k) / n + Z * Z / 4) / (n + Z * Z)
        assert e.value == pytest.approx(k / n)
        assert e.low == pytest.approx(max(0.0, centre - half), abs=1e-9)
        assert e.high == pytest.approx(min(1.0, centre + half), abs=1e-9)
        assert e.n == n
    assert S.proportion(0, 10).high == pytest.approx(Z * Z / (10 + Z * Z), abs=1e-9)  # 0.27754
    e = S.proportion(0, 0)
    assert math.isnan(e.value) and math.isnan(e.low) and math.isnan(e.high) and e.n == 0


def test_team_shares_are_wilson_of_decided_games() -> None:
    """team_shares: each team's share of the decided games (the shares add up to 1), each with the interval of
    proportion(wins, decided)."""
    wins = np.array([45, 30, 25])
    shares = S.team_shares(wins)
    assert sum(e.value for e in shares) == pytest.approx(1.0)
    for w, e in zip(wins, shares):
        ref = S.proportion(int(w), 100)
        assert (e.value, e.low, e.high, e.n) == (ref.value, ref.low, ref.high, 100)


# --- advantage, relative advantage ------------------------------------------------------


@pytest.mark.parametrize("probs", [(0.10, 0.48, 0.42), (0.16, 0.32, 0.26, 0.26)], ids=["two teams", "three teams"])
def test_advantage_and_relative_advantage_coverage(probs) -> None:
    """advantage (team 0's share of the decided games minus 1/teams) and relative_advantage (the share over
    1/teams, minus 1) cover their known truths in 94-96% of 10,000 samples of 120 games with draws present
    (10% with two teams, 16% with three): the truth is p0 / (1 - p_draw) - 1/teams, and teams * that. A share
    taken over all games instead of the decided ones, or a wrong fair share, fails. 120 games per sample keep the
    distinct (team 0's wins, decided) pairs to about 400 (scipy's Wilson call costs about 1-2 ms); the draws make
    the decided games vary, which averages Wilson's coverage over about 20 values of n."""
    rng = np.random.default_rng(1902)
    teams = len(probs) - 1
    wins, _ = _draw_wins(rng, 120, probs)
    share = probs[1] / (1 - probs[0])
    keys = np.column_stack([wins[:, 0], wins.sum(axis=1)])
    # the interval is a function of (team 0's wins, decided games); test_advantage_depends_on_team_0_and_decided
    # checks that, so one representative sample per pair serves
    rep = {tuple(k): w for k, w in zip(keys[::-1], wins[::-1])}
    a = _by_distinct(keys, lambda k: S.advantage(rep[tuple(k)]))
    r = _by_distinct(keys, lambda k: S.relative_advantage(rep[tuple(k)]))
    assert np.allclose(a[0], wins[:, 0] / keys[:, 1] - 1 / teams)
    _check_coverage(f"advantage {teams} teams", *a, share - 1 / teams)
    _check_coverage(f"relative_advantage {teams} teams", *r, share * teams - 1)
    for x, y in zip(a, r):  # relative = teams * advantage, value and bounds
        assert np.allclose(y, teams * x)


def test_advantage_depends_on_team_0_and_decided() -> None:
    """advantage and relative_advantage depend on team 0's wins and the decided games only (how the other teams
    share their wins does not matter), so the coverage test may compute them once per such pair."""
    for group in ([[40, 35, 25], [40, 25, 35], [40, 60, 0]], [[60, 40], [60, 40]]):
        for fn in (S.advantage, S.relative_advantage):
            ests = {fn(np.array(w)) for w in group}
            assert len(ests) == 1


def test_first_mover_test_p_values() -> None:
    """first_mover_test, the exact two-sided binomial test of team 0's share = 1/teams: symmetric two-team cases
    give equal p-values; hand-computed cases ([4, 0]: 2/16; [0, 5]: 2/32; [3, 0, 0] at p=1/3: only k=3 is as
    unlikely, 1/27; a share equal to the fair one: 1); NaN when nothing is decided or for one team."""
    for k, n in [(30, 100), (7, 20), (512, 1000), (1, 9)]:
        assert S.first_mover_test(np.array([k, n - k])) == pytest.approx(S.first_mover_test(np.array([n - k, k])))
    assert S.first_mover_test(np.array([4, 0])) == pytest.approx(2 / 16)
    assert S.first_mover_test(np.array([0, 5])) == pytest.approx(2 / 32)
    assert S.first_mover_test(np.array([3, 0, 0])) == pytest.approx(1 / 27)
    assert S.first_mover_test(np.array([50, 50])) == pytest.approx(1.0)
    assert S.first_mover_test(np.array([20, 25, 15])) == pytest.approx(1.0)
    assert math.isnan(S.first_mover_test(np.array([0, 0])))
    assert math.isnan(S.first_mover_test(np.array([5])))
    # more lopsided is smaller
    ps = [S.first_mover_test(np.array([k, 200 - k])) for k in (100, 110, 120, 130)]
    assert ps == sorted(ps, reverse=True) and ps[-1] < 1e-4


def test_equal_strength_chi_square() -> None:
    """equal_strength is Pearson's chi-square of equal wins: by hand, [30, 20, 10] has expected 20 each, statistic
    (100 + 0 + 100) / 20 = 10 on 2 degrees of freedom, p = exp(-10/2); [60, 40] has 4 on 1, p = 2(1 - Phi(2));
    equal wins give 0 and p = 1; other counts agree with scipy.stats.chisquare (a value check only); NaN for one
    team or no decided game."""
    stat, df, p = S.equal_strength(np.array([30, 20, 10]))
    assert (stat, df) == (pytest.approx(10.0), 2) and p == pytest.approx(math.exp(-5))
    stat, df, p = S.equal_strength(np.array([60, 40]))
    assert (stat, df) == (pytest.approx(4.0), 1) and p == pytest.approx(math.erfc(2 / math.sqrt(2)))
    stat, df, p = S.equal_strength(np.array([25, 25, 25, 25]))
    assert (stat, df, p) == (pytest.approx(0.0), 3, pytest.approx(1.0))
    for wins in ([512, 488], [361, 330, 309], [7, 0, 3, 1]):
        ref = sp.chisquare(wins)
        stat, df, p = S.equal_strength(np.array(wins))
        assert (stat, df, p) == (pytest.approx(ref.statistic), len(wins) - 1, pytest.approx(ref.pvalue))
    assert all(math.isnan(x) for x in S.equal_strength(np.array([9])))
    assert all(math.isnan(x) for x in S.equal_strength(np.array([0, 0, 0])))


# --- max gap, balance -------------------------------------------------------------------


@pytest.mark.parametrize(
    "share, in_band", [(0.60, True), (0.50, True), (0.52, False)], ids=["far from equal", "equal", "near equal"]
)
def test_max_gap_two_teams_coverage(share: float, in_band: bool) -> None:
    """Two teams, decided games (10,000 samples of 1,000 decided games): max_gap's interval, the image of the
    advantage's under a -> 2|a|, covers the true gap |2 share - 1| whenever the advantage's interval covers the
    true advantage (sample by sample), so its coverage is at least the advantage's. Far from equal (share 0.60,
    gap 0.2, 6 standard errors from 0) and for equal teams (gap 0: covered exactly when the advantage's interval
    holds 0) the two coincide: 94-96%. Near equal (share 0.52, gap 0.04, 1.3 standard errors) folding the interval
    at 0 makes it conservative by design: at least 95%, the figure printed. balance = 1 - max_gap covers 1 - gap
    in the same samples."""
    rng = np.random.default_rng(1903)
    decided = 1000
    w0 = rng.binomial(decided, share, size=SAMPLES)
    wins = np.column_stack([w0, decided - w0])
    gap = abs(2 * share - 1)
    g = _by_distinct(wins, lambda w: S.max_gap(w))
    a = _by_distinct(wins, lambda w: S.advantage(w))
    b = _by_distinct(wins, lambda w: S.balance(w))
    assert np.allclose(g[0], np.abs(wins[:, 0] - wins[:, 1]) / decided)
    adv_covers = (a[1] <= share - 0.5) & (share - 0.5 <= a[2])
    gap_covers = (g[1] <= gap) & (gap <= g[2])
    assert np.all(gap_covers[adv_covers]), "the gap's interval misses where the advantage's covers"
    print(f"coverage advantage (two teams, share {share}): {adv_covers.mean():.4f} of {SAMPLES:,} samples")
    if in_band:  # no power check at gap 0: the lower bound is pinned at 0 whenever the advantage's holds 0
        _check_coverage(f"max_gap two teams gap={gap:.2f}", *g, gap, power=gap > 0)
        _check_coverage(f"balance two teams 1-gap={1 - gap:.2f}", *b, 1 - gap, power=gap > 0)
    else:
        cov = _coverage(g[1], g[2], gap)
        print(f"coverage max_gap two teams gap={gap:.2f}: {cov:.4f} of {SAMPLES:,} samples (conservative)")
        assert cov >= 0.95
        assert _coverage(b[1], b[2], 1 - gap) == cov
    assert np.allclose(b[0], 1 - g[0]) and np.allclose(b[1], 1 - g[2]) and np.allclose(b[2], 1 - g[1])


@pytest.mark.parametrize(
    "probs, over_all",
    [
        ((0.0, 0.40, 0.33, 0.27), False),
        ((0.16, 0.32, 0.27, 0.25), False),
        ((0.16, 0.32, 0.27, 0.25), True),
        ((0.0, 1 / 3, 1 / 3, 1 / 3), False),
        ((0.12, 0.48, 0.40), True),
    ],
    ids=[
        "3 teams",
        "3 teams with draws, decided",
        "3 teams with draws, all games",
        "3 equal teams",
        "2 teams, all games",
    ],
)
def test_max_gap_goodman_coverage_is_at_least_nominal(probs, over_all: bool) -> None:
    """Three teams (and two teams over all games): max_gap's interval, the range of gaps Goodman's simultaneous
    95% intervals allow, is conservative by construction: it covers the true gap (max - min of the true shares,
    of the decided games or of all games) in at least 95% of 3,000 samples of 300 games (3,000 because each call
    fits Goodman's intervals, ~0.25 ms; the standard error of a coverage near 99% is then 0.2 pp, far from the
    95% floor). balance covers 1 - gap in the same samples."""
    rng = np.random.default_rng(1904)
    samples = 3000
    wins, draws = _draw_wins(rng, 300, probs, samples)
    shares = np.array(probs[1:]) / (1 if over_all else 1 - probs[0])
    gap = float(shares.max() - shares.min())
    if over_all:
        keys = np.column_stack([wins, draws])
        g = _by_distinct(keys, lambda k: S.max_gap(k[:-1], int(k[-1])))
        b = _by_distinct(keys[:500], lambda k: S.balance(k[:-1], int(k[-1])))
        rates = wins / 300
    else:
        g = _by_distinct(wins, lambda w: S.max_gap(w))
        b = _by_distinct(wins[:500], lambda w: S.balance(w))
        rates = wins / wins.sum(axis=1, keepdims=True)
    assert np.allclose(g[0], rates.max(axis=1) - rates.min(axis=1))
    assert np.all(g[1] <= g[0] + 1e-12) and np.all(g[0] <= g[2] + 1e-12)
    assert np.all(g[1] >= 0)
    cov = _coverage(g[1], g[2], gap)
    print(
        f"coverage max_gap ({len(probs) - 1} teams, {'all' if over_all else 'decided'} games, "
        f"gap {gap:.3f}): {cov:.4f} of {samples:,} samples"
    )
    assert cov >= 0.95, f"Goodman-based max_gap covers {cov:.4f} < 0.95"
    assert np.allclose(b[0], 1 - g[0][:500]) and np.allclose(b[1], 1 - g[2][:500])
    assert np.allclose(b[2], 1 - g[1][:500])


def test_simultaneous_goodman_coverage() -> None:
    """simultaneous (Goodman's intervals, behind max_gap) covers all four true shares at once (three teams and the
    draws) in 94-96% of 10,000 samples of 300 games: Goodman's intervals are Bonferroni-adjusted score intervals,
    close to nominal for a few categories; intervals halved or doubled about the observed shares leave the band;
    each share alone is covered more often (at least 95%). Goodman's closed form checked by hand on one case:
    with c = z(1 - 0.05 / (2k))^2, the bounds (c + 2 n_i -+ sqrt(c (c + 4 n_i (n - n_i) / n))) / (2 (n + c))."""
    rng = np.random.default_rng(1912)
    probs = np.array([0.16, 0.32, 0.27, 0.25])
    counts = rng.multinomial(300, probs, size=SAMPLES)
    bounds = [S.simultaneous(c) for c in counts]
    low, high = np.array([b[0] for b in bounds]), np.array([b[1] for b in bounds])
    rates = counts / 300
    every = lambda lo, hi: float(np.all((lo <= probs) & (probs <= hi), axis=1).mean())  # noqa: E731  (a one-line formula beside its use)
    cov = every(low, high)
    each = ((low <= probs) & (probs <= high)).mean(axis=0)
    print(
        f"coverage simultaneous (Goodman), all four shares at once: {cov:.4f} of {SAMPLES:,} samples; "
        f"each alone: {np.round(each, 4).tolist()}"
    )
    assert BAND[0] <= cov <= BAND[1]
    assert np.all(each >= 0.95)
    for scale in (0.5, 2.0):
        c = every(rates - scale * (rates - low), rates + scale * (high - rates))
        assert not BAND[0] <= c <= BAND[1], f"the band cannot tell a width x{scale} ({c:.4f})"
    n_i, n, k = np.array([40.0, 35.0, 25.0]), 100.0, 3
    c = sp.norm.ppf(1 - 0.05 / (2 * k)) ** 2
    root = np.sqrt(c * (c + 4 * n_i * (n - n_i) / n))
    low, high = S.simultaneous(n_i.astype(int))
    assert low == pytest.approx((c + 2 * n_i - root) / (2 * (n + c)))
    assert high == pytest.approx((c + 2 * n_i + root) / (2 * (n + c)))


@pytest.mark.parametrize(
    "counts, draws",
    [
        ([60, 25, 15], None),
        ([15, 25, 60], None),
        ([34, 33, 33], None),
        ([40, 30, 20], 10),
        ([20, 45, 35], 10),
        ([5, 0, 3], None),
        ([48, 40], 12),
    ],
)
def test_max_gap_goodman_is_the_range_over_the_box(counts, draws) -> None:
    """max_gap's Goodman interval is the range of the largest gap max_i p_i - min_j p_j over every share vector
    inside Goodman's simultaneous intervals (the box): found here by brute force over a 61-point grid in each
    share's interval (the bounds are reached at corners or at a common value clipped to the box; the grid's step
    is the tolerance)."""
    counts = np.array(counts)
    g = S.max_gap(counts, draws)
    cats = counts if draws is None else np.append(counts, draws)
    low, high = S.simultaneous(cats)
    axes = [np.linspace(lo, hi, 61) for lo, hi in zip(low[: len(counts)], high[: len(counts)])]
    grid = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, len(counts))
    gaps = grid.max(axis=1) - grid.min(axis=1)
    step = max((hi - lo) / 60 for lo, hi in zip(low, high))
    assert g.high == pytest.approx(gaps.max(), abs=1e-12)
    assert g.low <= gaps.min() + 1e-12 and gaps.min() - g.low <= step
    assert g.low <= g.value <= g.high


def test_max_gap_known_cases() -> None:
    """max_gap by hand: two teams [60, 40] give 0.2 with the advantage's interval doubled (and folded at 0 when it
    holds 0); three equal teams have a lower bound 0; undefined for no games or one team; the Goodman interval
    contains the gap; no draws (draws=0) is the decided games' interval."""
    g = S.max_gap(np.array([60, 40]))
    a = S.advantage(np.array([60, 40]))
    assert g.value == pytest.approx(0.2)
    assert (g.low, g.high) == (pytest.approx(2 * a.low), pytest.approx(2 * a.high))
    g = S.max_gap(np.array([52, 48]))
    a = S.advantage(np.array([52, 48]))
    assert a.low < 0 < a.high
    assert (g.low, g.high) == (0.0, pytest.approx(2 * max(-a.low, a.high)))
    assert S.max_gap(np.array([100, 100, 100])).low == 0.0
    assert math.isnan(S.max_gap(np.array([0, 0])).value)
    assert math.isnan(S.max_gap(np.array([10])).value)
    # no draws: all games are the decided games, so the same interval as without draws
    assert S.max_gap(np.array([60, 40]), draws=0) == S.max_gap(np.array([60, 40]))
    goodman = S.max_gap(np.array([60, 40]), draws=5)
    assert goodman.low <= goodman.value <= goodman.high


# --- game lengths -----------------------------------------------------------------------


def _length_pmf() -> np.ndarray:
    """Game lengths like the published ones (default rules, 2 players, random play: mean 79.4, sd 11.6, median 80,
    5% and 95% points 59 and 97, a longer left tail): a skew-normal (shape -2.5, location 93, scale 18)
    discretised on 0..160 and renormalised: mean 79.67, sd 12.09, skewness -0.58, kurtosis 3.42, points
    58, 81, 97."""
    v = np.arange(161)
    pmf = sp.skewnorm.pdf(v, -2.5, loc=93, scale=18)
    return pmf / pmf.sum()


def _pmf_moments(pmf: np.ndarray) -> tuple[float, float]:
    v = np.arange(len(pmf))
    mean = float(pmf @ v)
    return mean, math.sqrt(float(pmf @ (v - mean) ** 2))


def test_mean_length_coverage() -> None:
    """mean_length's t-interval covers the known mean (79.67) of a game-length distribution like the published
    ones in 94-96% of 10,000 histograms of 250 games each."""
    rng = np.random.default_rng(1905)
    pmf = _length_pmf()
    mean, _ = _pmf_moments(pmf)
    hists = rng.multinomial(250, pmf, size=SAMPLES)
    est = [S.mean_length(h) for h in hists]
    value, low, high = (np.array([getattr(e, f) for e in est]) for f in ("value", "low", "high"))
    assert np.allclose(value, hists @ np.arange(len(pmf)) / 250)
    _check_coverage("mean_length n=250", value, low, high, mean)


def test_mean_length_t_not_z_at_small_n() -> None:
    """At 10 games per histogram the t-interval (t_9 = 2.262) and the normal one (1.960) differ by 15%: mean_length
    covers the known mean of 40 + Binomial(40, 1/2) (nearly normal) in 94-96% of 10,000 histograms, and the same
    intervals narrowed to the normal quantile cover less than 94%."""
    rng = np.random.default_rng(1906)
    pmf = np.zeros(81)
    pmf[40:] = sp.binom.pmf(np.arange(41), 40, 0.5)
    hists = rng.multinomial(10, pmf, size=SAMPLES)
    est = [S.mean_length(h) for h in hists]
    value, low, high = (np.array([getattr(e, f) for e in est]) for f in ("value", "low", "high"))
    _check_coverage("mean_length n=10", value, low, high, 60.0)
    t9 = 2.2621571627409915  # t table, 9 degrees of freedom, 97.5%
    narrowed = _coverage(value - (value - low) * Z / t9, value + (high - value) * Z / t9, 60.0)
    print(f"coverage of the normal (z) interval at n=10: {narrowed:.4f}")
    assert narrowed < BAND[0]


def test_sd_length_coverage() -> None:
    """sd_length's delta-method interval (from the fourth central moment) covers the known standard deviation
    (12.09) of the game-length distribution in 94-96% of 10,000 histograms of 1,000 games each. The delta method
    is a large-sample interval: at 100 and 250 games it under-covers (92.8% and 94.2%); those figures are
    printed, not checked (the published lengths come from at least thousands of games)."""
    rng = np.random.default_rng(1907)
    pmf = _length_pmf()
    _, sd = _pmf_moments(pmf)
    for games in (100, 250, 1000):
        hists = rng.multinomial(games, pmf, size=SAMPLES)
        est = [S.sd_length(h) for h in hists]
        value, low, high = (np.array([getattr(e, f) for e in est]) for f in ("value", "low", "high"))
        assert np.allclose(value[:50], [np.sqrt(np.cov(np.arange(len(pmf)), fweights=h)) for h in hists[:50]])
        if games == 1000:
            _check_coverage(f"sd_length n={games}", value, low, high, sd)
        else:
            print(f"coverage sd_length n={games}: {_coverage(low, high, sd):.4f} of {SAMPLES:,} samples (not checked)")


HISTOGRAMS = [
    [0, 0, 3],  # one value, three times
    [1, 1],  # 0 and 1
    [0, 2, 0, 0, 2],  # even count, ties, a gap
    [0, 0, 0, 1, 4, 0, 2, 7, 1],  # odd count (15), ties
    [5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5],  # two far values, even
    list(np.bincount(np.random.default_rng(7).binomial(150, 0.4, size=1001))),  # 1,001 games
    list(np.bincount(np.random.default_rng(8).integers(20, 200, size=1000))),  # 1,000 games, many ties
]


@pytest.mark.parametrize("counts", HISTOGRAMS, ids=[f"h{i}" for i in range(len(HISTOGRAMS))])
def test_length_values_match_numpy_on_rows(counts) -> None:
    """mean_length, sd_length and quantile of a histogram equal numpy's mean, std(ddof=1) and percentile (its
    default, linear method) of the rows the histogram counts, at many percentiles, for even and odd counts and
    ties."""
    counts = np.array(counts, np.int64)
    rows = np.repeat(np.arange(len(counts)), counts)
    assert S.mean_length(counts).value == pytest.approx(rows.mean(), rel=1e-12)
    assert S.mean_length(counts).n == len(rows)
    assert S.sd_length(counts).value == pytest.approx(rows.std(ddof=1), rel=1e-12, abs=1e-12)
    for q in (0, 1, 5, 10, 12.5, 25, 29, 33.3, 50, 57, 66.7, 75, 90, 95, 99, 99.9, 100):
        assert S.quantile(counts, q) == pytest.approx(np.percentile(rows, q), rel=1e-12, abs=1e-12), q


def test_length_small_known_cases() -> None:
    """By hand: rows [1, 2, 3] have mean 2 and sd 1, the t-interval 2 +- 4.3027 / sqrt(3) (t table, 2 degrees of
    freedom); rows [0, 0, 2, 2]: s = sqrt(4/3), m2 = m4 = 1, var(s^2) = (1 - 1/3) / 4, se(s) = sqrt(1/6) / (2 s);
    one game: a mean without interval, no sd; a constant: zero width; no game: NaN quantile."""
    e = S.mean_length(np.array([0, 1, 1, 1]))
    assert e.value == 2.0
    assert (e.low, e.high) == (
        pytest.approx(2 - 4.302652729749464 / math.sqrt(3)),
        pytest.approx(2 + 4.302652729749464 / math.sqrt(3)),
    )
    e = S.sd_length(np.array([2, 0, 2]))
    s = math.sqrt(4 / 3)
    se = math.sqrt(1 / 6) / (2 * s)
    assert e.value == pytest.approx(s)
    assert (e.low, e.high) == (pytest.approx(s - Z * se), pytest.approx(s + Z * se))
    e = S.mean_length(np.array([0, 0, 1]))
    assert e.value == 2.0 and math.isnan(e.low) and math.isnan(e.high)
    assert math.isnan(S.sd_length(np.array([0, 1])).value)
    e = S.mean_length(np.array([0, 0, 0, 9]))
    assert (e.value, e.low, e.high) == (3.0, 3.0, 3.0)
    e = S.sd_length(np.array([0, 0, 0, 9]))
    assert (e.value, e.low, e.high) == (0.0, 0.0, 0.0)
    assert math.isnan(S.quantile(np.array([0, 0]), 50))
    assert S.extremes(np.array([0, 0, 3, 0, 1, 0])) == (2, 4)


# --- score ------------------------------------------------------------------------------


@pytest.mark.parametrize("teams, p_win, p_draw", [(2, 0.45, 0.0), (2, 0.45, 0.04), (3, 0.30, 0.18)])
def test_score_coverage(teams: int, p_win: float, p_draw: float) -> None:
    """score (wins + draws/teams over games, Wilson's interval on the fractional count) covers the known score
    p_win + p_draw/teams in 10,000 samples of 400 games. Without draws it is Wilson's interval: 94-96%. With draws
    Wilson's interval assumes the variance mu(1 - mu) of a win-or-loss, more than the true mu - mu^2 -
    p_draw (teams - 1) / teams^2, so it over-covers by design (the docstring says so): the coverage must be at
    least 95% and within 0.8 pp (about 4 standard errors) of the normal prediction 2 Phi(z sqrt(mu(1-mu) / var)) - 1
    (95.5% for 4% draws in two teams, in the band; 96.9% for 18% draws in three teams)."""
    rng = np.random.default_rng(1908)
    games = 400
    counts = rng.multinomial(games, [p_win, p_draw, 1 - p_win - p_draw], size=SAMPLES)
    mu = p_win + p_draw / teams
    est = _by_distinct(counts[:, :2], lambda k: S.score(int(k[0]), int(k[1]), games, teams))
    assert np.allclose(est[0], (counts[:, 0] + counts[:, 1] / teams) / games)
    var = p_win + p_draw / teams**2 - mu * mu
    predicted = 2 * sp.norm.cdf(Z * math.sqrt(mu * (1 - mu) / var)) - 1
    if predicted <= BAND[1]:
        cov = _check_coverage(f"score {teams} teams draws {p_draw}", *est, mu)
    else:
        cov = _coverage(est[1], est[2], mu)
        print(f"coverage score {teams} teams draws {p_draw}: {cov:.4f} of {SAMPLES:,} samples (truth {mu:.4f})")
        assert cov >= 0.95
    print(f"  predicted {predicted:.4f}")
    assert abs(cov - predicted) <= 0.008, f"coverage {cov:.4f}, predicted {predicted:.4f}"


def test_score_known_values() -> None:
    """score by hand: 120 wins and 30 draws of 300 games in two teams score (120 + 15) / 300 = 0.45; in three teams
    (120 + 10) / 300; no games: undefined; with no draws its interval is proportion's."""
    assert S.score(120, 30, 300, 2).value == pytest.approx(0.45)
    assert S.score(120, 30, 300, 3).value == pytest.approx(130 / 300)
    assert math.isnan(S.score(0, 0, 0, 2).value)
    a, b = S.score(37, 0, 80, 2), S.proportion(37, 80)
    assert (a.low, a.high) == (pytest.approx(b.low), pytest.approx(b.high))


# --- shift ------------------------------------------------------------------------------

# rows: the outcome in A (draw, team 0 won, team 1 won, ...); columns: the outcome in B. The same deals favour
# the same team: the diagonal is heavy.
# Two teams: B has many more draws than A (20% against 4%), so the cross terms E[won_A decided_B] and
# E[decided_A won_B] differ (0.57 and 0.49) and a transposed joint would change the variance (by 2.5%).
JOINT_TWO = np.array([[0.02, 0.01, 0.01], [0.12, 0.45, 0.08], [0.06, 0.04, 0.21]])
JOINT_THREE = np.array(
    [[0.08, 0.02, 0.02, 0.02], [0.02, 0.20, 0.04, 0.04], [0.02, 0.05, 0.20, 0.05], [0.02, 0.04, 0.04, 0.14]]
)


def _true_shift(joint: np.ndarray, team: int) -> tuple[float, float, float, float]:
    """(true shift of `team`'s share of the decided games from B to A, true correlation of the linearised terms,
    per-pair variance of the paired difference Var(u_A - u_B), per-game variances summed Var(u_A) + Var(u_B)),
    by enumerating the cells of the joint distribution."""
    pa, pb = joint.sum(axis=1), joint.sum(axis=0)
    ra, rb = pa[team + 1] / (1 - pa[0]), pb[team + 1] / (1 - pb[0])
    k = np.arange(joint.shape[0])
    ua = ((k == team + 1) - ra * (k != 0)) / (1 - pa[0])  # by A's outcome
    ub = ((k == team + 1) - rb * (k != 0)) / (1 - pb[0])  # by B's outcome
    cov, var_a, var_b = ua @ joint @ ub, ua**2 @ pa, ub**2 @ pb
    return float(ra - rb), float(cov / math.sqrt(var_a * var_b)), float(var_a + var_b - 2 * cov), float(var_a + var_b)


@pytest.mark.parametrize(
    "joint, team, samples",
    [(JOINT_TWO, 0, SAMPLES), (JOINT_THREE, 1, 5000)],
    ids=["two teams, team 0", "three teams, team 1"],
)
def test_shift_paired_coverage(joint: np.ndarray, team: int, samples: int) -> None:
    """Paired shift: pairs of games (1,000 per sample) drawn from a known joint distribution of the outcomes in A
    and B with a positive correlation. The paired interval covers the true shift in 94-96% of the samples
    (10,000 for two teams; 5,000 for three teams, team 1, to keep the file's runtime: standard error 0.31 pp, the
    band is +-3.2 of them); the unpaired interval of the same data over-covers (> 97%: using the unpaired variance
    for paired data fails the band) and is wider in every sample; the estimated correlation averages the true
    one (by enumeration of the cells) within 0.02; the mean variance estimates match the true ones (within 1%);
    the p-value is below 0.05 exactly when 0 is outside the interval."""
    rng = np.random.default_rng(1909)
    size = joint.shape[0]
    cells = rng.multinomial(1000, joint.ravel(), size=samples).reshape(samples, size, size)
    truth, rho, var_paired, var_sum = _true_shift(joint, team)
    wins_a, wins_b = cells.sum(axis=2)[:, 1:], cells.sum(axis=1)[:, 1:]
    res = [S.shift(wa, 1000, wb, 1000, team=team, joint=c) for wa, wb, c in zip(wins_a, wins_b, cells)]
    value = np.array([r.estimate.value for r in res])
    low, high = np.array([r.estimate.low for r in res]), np.array([r.estimate.high for r in res])
    ulow, uhigh = np.array([r.unpaired.low for r in res]), np.array([r.unpaired.high for r in res])
    shares = lambda w: w[:, team] / w.sum(axis=1)  # noqa: E731  (a one-line formula beside its use)
    assert np.allclose(value, shares(wins_a) - shares(wins_b))
    assert all(r.paired for r in res)
    _check_coverage(f"shift paired {size - 1} teams", value, low, high, truth)
    unpaired = _coverage(ulow, uhigh, truth)
    correlation = float(np.mean([r.correlation for r in res]))
    narrower = float(np.mean([r.narrower for r in res]))
    print(
        f"  unpaired interval on the paired data: coverage {unpaired:.4f}; mean correlation {correlation:.3f} "
        f"(true {rho:.3f}); paired interval narrower by {narrower:.1%}"
    )
    assert unpaired > 0.97
    assert np.all(high - low < uhigh - ulow)
    assert abs(correlation - rho) < 0.02
    # the variances behind the intervals: n se^2 averages the true Var(u_A - u_B) (paired) and
    # Var(u_A) + Var(u_B) (unpaired) within 1% (their sampling error is ~0.1%, their O(1/n) bias ~0.1%); the
    # estimates' spread over the samples agrees with the paired variance within 5% (sampling error 1.4% / 2%)
    se2, use2 = ((high - low) / (2 * Z)) ** 2 * 1000, ((uhigh - ulow) / (2 * Z)) ** 2 * 1000
    spread = float(np.var(value, ddof=1) * 1000)
    print(
        f"  n se^2: paired {se2.mean():.5f} (true {var_paired:.5f}), unpaired {use2.mean():.5f} (true "
        f"{var_sum:.5f}); n var(estimates) {spread:.5f}"
    )
    assert se2.mean() == pytest.approx(var_paired, rel=0.01)
    assert use2.mean() == pytest.approx(var_sum, rel=0.01)
    assert spread == pytest.approx(var_paired, rel=0.05)
    p = np.array([r.p_value for r in res])
    outside = (low > 0) | (high < 0)
    assert np.all((p < 0.05) == outside)


def test_shift_unpaired_coverage() -> None:
    """Unpaired shift: independent samples of 800 games of A and 1,200 of B (two teams, 10% and 6% draws); the
    delta-method interval covers the true shift in 94-96% of 10,000 samples, and its variance averages the true
    one, r (1 - r) / (n p_decided) summed over A and B, within 1%; no pairs: correlation 0, the interval used is
    the unpaired one."""
    rng = np.random.default_rng(1910)
    pa, pb = (0.10, 0.50, 0.40), (0.06, 0.46, 0.48)
    wa, _ = _draw_wins(rng, 800, pa)
    wb, _ = _draw_wins(rng, 1200, pb)
    truth = pa[1] / (1 - pa[0]) - pb[1] / (1 - pb[0])
    res = [S.shift(a, 800, b, 1200) for a, b in zip(wa, wb)]
    value = np.array([r.estimate.value for r in res])
    low, high = np.array([r.estimate.low for r in res]), np.array([r.estimate.high for r in res])
    assert all(not r.paired and r.correlation == 0.0 and r.estimate == r.unpaired for r in res[:100])
    _check_coverage("shift unpaired", value, low, high, truth)
    # the variance behind the interval averages the true Var(u_A) / 800 + Var(u_B) / 1200 within 1%
    true_var = sum(
        r * (1 - r) / (1 - p[0]) / games for p, games in ((pa, 800), (pb, 1200)) for r in [p[1] / (1 - p[0])]
    )
    se2 = ((high - low) / (2 * Z)) ** 2
    print(f"  se^2 {se2.mean():.4e} (true {true_var:.4e}), var(estimates) {np.var(value, ddof=1):.4e}")
    assert se2.mean() == pytest.approx(true_var, rel=0.01)
    assert np.var(value, ddof=1) == pytest.approx(true_var, rel=0.05)


def test_shift_edge_cases() -> None:
    """shift: pairs that are not every game of both runs are refused; no decided game or fewer than two games:
    undefined; identical runs paired game by game: shift 0, correlation 1, an interval of zero width."""
    joint = np.array([[5, 0, 0], [0, 50, 0], [0, 0, 45]])
    with pytest.raises(ValueError):
        S.shift(np.array([50, 45]), 100, np.array([50, 45]), 101, joint=joint)
    assert math.isnan(S.shift(np.array([0, 0]), 10, np.array([3, 4]), 10).estimate.value)
    assert math.isnan(S.shift(np.array([1, 0]), 1, np.array([3, 4]), 10).estimate.value)
    same = S.shift(np.array([50, 45]), 100, np.array([50, 45]), 100, joint=joint)
    assert same.estimate.value == 0.0 and same.correlation == pytest.approx(1.0)
    assert same.estimate.high - same.estimate.low == pytest.approx(0.0, abs=1e-12)
    assert same.unpaired.high > same.unpaired.low and same.narrower == pytest.approx(1.0)


# --- Holm ---------------------------------------------------------------------------------


def test_holm_by_hand() -> None:
    """holm: Holm's step-down adjustment by hand on [0.01, 0.04, 0.03, 0.005]: sorted 0.005 x 4 = 0.02,
    0.01 x 3 = 0.03, 0.03 x 2 = 0.06, 0.04 x 1 = 0.04 raised to the running maximum 0.06; so [0.03, 0.06, 0.06,
    0.02], not Bonferroni's [0.04, 0.16, 0.12, 0.02]. NaN stays NaN and is not counted in the family; adjusted
    p-values are capped at 1."""
    p = [0.01, 0.04, 0.03, 0.005]
    assert S.holm(p) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    out = S.holm([0.01, float("nan"), 0.04, 0.03, 0.005])
    assert math.isnan(out[1])
    assert np.delete(out, 1) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert S.holm([0.5, 0.6, 0.01]) == pytest.approx([1.0, 1.0, 0.03])
    assert S.holm([0.2]) == pytest.approx([0.2])
    assert np.all(np.isnan(S.holm([float("nan"), float("nan")])))


# --- Bradley-Terry --------------------------------------------------------------------------

ELO = {"A": 0.0, "B": 80.0, "C": -50.0, "D": 30.0}


def test_bradley_terry_coverage() -> None:
    """bradley_terry with four line-ups of known Elo strengths (A 0, B +80, C -50, D +30), every pair playing 300
    games, anchor B (not the first name): each rating's Wald interval covers the true rating difference from the
    anchor. 2,000 samples (each is a GLM fit, ~3 ms: 10,000 would take 30 s), so each rating's coverage has a
    standard error of 0.49 pp and must lie in 93.5-96.5% (+-3 standard errors); the three ratings pooled
    (6,000 intervals) must lie in 94-96%."""
    rng = np.random.default_rng(1911)
    samples, games = 2000, 300
    names = list(ELO)
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    p = np.array([1 / (1 + 10 ** (-(ELO[a] - ELO[b]) / 400)) for a, b in pairs])
    points = rng.binomial(games, p, size=(samples, len(pairs)))
    fits = [dict(S.bradley_terry([(a, b, float(k), games) for (a, b), k in zip(pairs, row)], "B")) for row in points]
    assert all(f["B"].value == 0.0 for f in fits)
    pooled = []
    for name in ("A", "C", "D"):
        truth = ELO[name] - ELO["B"]
        est = [f[name] for f in fits]
        value, low, high = (np.array([getattr(e, f) for e in est]) for f in ("value", "low", "high"))
        _check_coverage(f"bradley_terry {name} - B", value, low, high, truth, band=(0.935, 0.965))
        pooled.append((low <= truth) & (truth <= high))
    cov = float(np.mean(pooled))
    print(f"coverage bradley_terry pooled: {cov:.4f} of {3 * samples:,} intervals")
    assert BAND[0] <= cov <= BAND[1]


@pytest.mark.filterwarnings("ignore:Perfect separation")  # the points are the fit's own predictions, on purpose
def test_bradley_terry_known_values() -> None:
    """bradley_terry by hand: two line-ups reduce to the logit, 400 log10(p / (1 - p)) of the observed score;
    with the expected scores of known strengths as the points (draws make points fractional), the fit recovers the
    strengths exactly; the anchor is 0 with a zero-width interval; rows come best last; an unknown anchor falls
    back to the first name."""
    (lo_name, lo), (hi_name, hi) = S.bradley_terry([("x", "y", 64.0, 100)], "y")
    assert (lo_name, hi_name) == ("y", "x")
    assert hi.value == pytest.approx(400 * math.log10(0.64 / 0.36))
    assert lo.value == 0.0 and lo.low == lo.high == 0.0
    names = list(ELO)
    pairs = [
        (a, b, 500 / (1 + 10 ** (-(ELO[a] - ELO[b]) / 400)), 500) for i, a in enumerate(names) for b in names[i + 1 :]
    ]
    out = S.bradley_terry(pairs, "A")
    assert [n for n, _ in out] == sorted(names, key=ELO.__getitem__)
    for name, e in out:
        assert e.value == pytest.approx(ELO[name], abs=1e-6)
        assert e.low <= e.value <= e.high
    by_name = dict(S.bradley_terry(pairs, "Z"))
    assert by_name["A"].value == 0.0 and by_name["B"].value == pytest.approx(80.0, abs=1e-6)


# --- planning ----------------------------------------------------------------------------------


@pytest.mark.parametrize("half_width, share", [(0.01, 0.5), (0.005, 0.5), (0.02, 0.35)])
def test_games_for_half_width(half_width: float, share: float) -> None:
    """games_for_half_width: at that many decided games a share near `share` has a 95% interval of half-width
    within 1% of the one asked for, and one game in ten fewer is visibly wider."""
    n = S.games_for_half_width(half_width, share)
    e = S.proportion(round(share * n), n)
    assert (e.high - e.low) / 2 == pytest.approx(half_width, rel=0.01)
    e = S.proportion(round(share * 0.9 * n), round(0.9 * n))
    assert (e.high - e.low) / 2 > half_width * 1.04


def test_negatively_correlated_pairs_get_the_wider_paired_interval():
    """Pairs whose correlation is below -PAIRING_GAIN: the unpaired interval would claim too much, so the
    paired one (from the variance of a_i - b_i, larger than var a + var b) is used, and it is wider."""
    rng = np.random.default_rng(3)
    a = rng.normal(size=20_000)
    b = -0.5 * a + rng.normal(size=a.size)  # correlation about -0.45
    sums = np.array([a.sum(), b.sum(), (a * a).sum(), (b * b).sum(), (a * b).sum()])
    s = S.paired_difference(a.size, sums)
    assert s.correlation < -S.PAIRING_GAIN and s.paired
    se = np.std(a - b, ddof=1) / np.sqrt(a.size)
    assert s.estimate.high - s.estimate.value == pytest.approx(S.Z * se, rel=1e-9)
    assert s.narrower < -0.15  # wider than the unpaired interval by more than 15%


def test_holm_families_is_statsmodels_holm_on_every_row() -> None:
    """The many-family Holm gives each row what statsmodels' Holm gives it, ties and ones included (a few
    families: statsmodels runs a full garbage collection each call)."""
    from statsmodels.stats.multitest import multipletests

    rng = np.random.default_rng(7)
    p = rng.uniform(0, 0.2, (3, 20)) ** 2
    p[0, :3] = 0.01  # ties
    p[1] = 0.9  # every adjusted value capped at 1
    rows = S.holm_families(p)
    for row, family in zip(rows, p):
        assert row == pytest.approx(multipletests(family, method="holm")[1])
        assert S.holm(family) == pytest.approx(row)
    assert np.isnan(S.holm([0.01, np.nan, 0.02])[1]) and S.holm([0.01, np.nan, 0.02])[2] == pytest.approx(0.02)
    assert S.holm_families([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
