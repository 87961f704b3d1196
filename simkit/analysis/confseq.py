"""An anytime-valid confidence sequence for a share: look at the games as often as you like, stop when you like.

A fixed-sample 95% interval covers the truth 95% of the time at the one
sample size chosen in advance; looked at again and again as games come in,
and stopped when it looks good, it misses far more often (tests/test_confseq.py
measures it). A *confidence sequence* is a sequence of intervals, one per
number of decided games n, that covers the true share at every n at once
with probability at least 1 - alpha, so whatever rule stops the games, the
interval at the stop is valid (Ville's inequality).

The method is Robbins' normal mixture (H. Robbins, "Statistical methods
related to the law of the iterated logarithm", Annals of Mathematical
Statistics 41, 1970), in the form and tuning of S. R. Howard, A. Ramdas,
J. McAuliffe and J. Sekhon, "Time-uniform, nonparametric, nonasymptotic
confidence sequences", Annals of Statistics 49, 2021 (the two-sided normal
mixture boundary). Each decided game is x_i = 1 when team 0 won it, else 0:
x_i - p is sub-Gaussian with variance proxy 1/4 (Hoeffding's lemma, any p),
so with S_n = sum(x_i - p) and V_n = n / 4, the mixture over the tilt of a
Gaussian of precision rho,

    M_n = sqrt(rho / (V_n + rho)) exp(S_n^2 / (2 (V_n + rho))),

is a nonnegative supermartingale with M_0 = 1, and P(M_n >= 1 / alpha for
some n) <= alpha. Inverted, the share lies within

    x-bar_n +- sqrt((V_n + rho) log((V_n + rho) / (rho alpha^2))) / n

at every n at once. It holds for every n (not asymptotically) and for any
share, so it is conservative: more than 95% coverage in practice. rho is
fixed in advance (never from the data): the value that makes the boundary
tightest at TUNED_AT decided games, rho = m / (2 log(1/alpha) + log(1 + 2
log(1/alpha))) with m = TUNED_AT / 4 (Howard et al.'s choice). Its
half-width is 1.5 to 2.0 times a fixed-sample 95% interval's from 1,000 to
10,000,000 decided games: the price of looking at every game.
"""

from __future__ import annotations

import math

import numpy as np

ALPHA = 0.05  # the chance that the sequence ever misses the true share, at most
TUNED_AT = 10_000  # decided games where the sequence is tightest (rho's choice); fixed before any game
VARIANCE = 0.25  # a game's variance proxy: x in [0, 1] is sub-Gaussian with 1/4, whatever the share
METHOD = "Robbins' normal mixture, as Howard et al. 2021 give it"  # the method's name, said on the live page


def mixture_rho(tuned_at: int = TUNED_AT, alpha: float = ALPHA) -> float:
    """The mixture's precision rho that makes the boundary tightest at `tuned_at` decided games."""
    two_log = 2 * math.log(1 / alpha)
    return VARIANCE * tuned_at / (two_log + math.log(1 + two_log))


def half_width(n, alpha: float = ALPHA, rho: float | None = None):
    """Half the width of the sequence's interval of a share after n decided games (a number or an array;
    NaN where n < 1): sqrt((V + rho) log((V + rho) / (rho alpha^2))) / n with V = n / 4."""
    rho = mixture_rho(alpha=alpha) if rho is None else rho
    n = np.asarray(n, np.float64)
    v = VARIANCE * n + rho
    with np.errstate(divide="ignore", invalid="ignore"):
        h = np.where(n >= 1, np.sqrt(v * np.log(v / (rho * alpha * alpha))) / n, np.nan)
    return float(h) if h.ndim == 0 else h


def share_sequence(successes, n, alpha: float = ALPHA):
    """(share, low, high): the share successes / n and its interval of the confidence sequence, clipped to
    [0, 1]. successes, n: numbers or arrays of one shape (decided games won by team 0, decided games); NaN
    where n < 1."""
    successes, n = np.asarray(successes, np.float64), np.asarray(n, np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(n >= 1, successes / n, np.nan)
    h = half_width(n, alpha)
    low, high = np.clip(share - h, 0.0, 1.0), np.clip(share + h, 0.0, 1.0)
    if share.ndim == 0:
        return float(share), float(low), float(high)
    return share, low, high
