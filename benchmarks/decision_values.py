"""What a cheap strong player could gain: choice rules scored offline on the lookahead's own action values.

    python benchmarks/decision_values.py                       # 20,000 positions, 32 deals per action
    python benchmarks/decision_values.py --positions 40000 --deals 64

Issue 22 item 4 asks for a player at 50% against the default lookahead at ten
times its speed. A match settles one setting in minutes with +-2 points; this
scores many choice rules at once on the same positions, in points of the
chance to win per decision, as benchmarks/decisions.py does for lookahead
variants.

Positions: greedy self-play with the lookahead's own weights, each game stopped
at a random turn (2-44), the seat to move having swapped its dead card (as in
decisions.py, on other games). For each position with two or more actions on
greedy's 4-action shortlist, and each action:

- the features of the position after it as the seat sees them
  (``kernels.fast.fair_features``, what the fast policy scores);
- its value on each of `--deals` deals by the lookahead's rollouts
  (``kernels.lookahead.rollout_value``: re-deal the unseen cards, play the
  action, greedy plies, the fitted value) at horizons 1, 2 and 4, the
  deals shared by the actions (common random numbers);
- the *truth*: its mean value over `--deals` other deals at horizon 4 (the
  default lookahead's own estimate, independent of the above);
- and which action the default lookahead chooses there (its own generator).

A rule's gain is the truth of its choice minus the truth of greedy's first
action, averaged over the second half of the positions; the first half fits
the *prior*, a least-squares line from the after-action features (own team's
minus the opponent's) to an action's rollout gain over greedy's first. Rules:
the prior alone; k candidates each judged on n deals (the lookahead's rule:
leave greedy's first only for a challenger whose mean gain exceeds margin
standard errors); those rollouts plus 2 times the prior; and greedy's first
with the m best challengers by the prior, each on n deals, plus the prior;
and a shorter horizon's rollouts as a control variate for a longer one's on
the same deals (more deals at the cheap horizon correct the few at the
dear one).
k * n is the rollout calls per decision, the cost that sets a player's speed (the
default lookahead spends up to 4 * 64, raced; `quick`, 2 * 6 at horizon 2,
plays 17.6 times its speed, `quick:shortlist=4` 9.5 times).

Two-player games only. Prints the table of benchmarks/matches.md ("What a
cheap player could gain", 2026-12-02).
"""

from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import njit

from decisions import SHORTLIST, listed, position, position_players
from simkit.cards import tables
from simkit.kernels.evaluation import N_FEATURES
from simkit.kernels.fast import copy_view, fair_features
from simkit.kernels.lookahead import P_GREEDY, P_OPPONENT, FittedLeaf, lookahead_action, rollout_value
from simkit.kernels.moves import play_card
from simkit.kernels.rich import N_BASE, N_RICH, rich_features
from simkit.kernels.state import new_state
from simkit.kernels.tables import N_CODES
from simkit.policies import VALUE_NAMES, Lineup
from simkit.rules import Rules

HORIZONS = (1, 2, 4)  # rollout plies after the action; 4 is the default lookahead's


@njit(nogil=True)  # no cache: numba would not see edits to the kernels it calls
def values_of(tb, cfg, ids, seat_params, params4, by_horizon, game, turns, deals, base, st, sim, actions, copies,
              feats, values, truth, chosen, rich):
    """One position: per shortlisted action its features (feats: fair_features, or with `rich`
    kernels.rich.rich_features), values per deal at each horizon
    (values[action, h, deal] with the lookahead parameters by_horizon[h]), its truth, and the
    default lookahead's choice (chosen[0]); how many actions."""
    seat = position(tb, cfg, ids, seat_params, st, sim, game, turns)
    if seat < 0:
        return 0
    team = seat % 2  # two-player games
    k = listed(tb, cfg, st, seat, params4[P_GREEDY:P_OPPONENT], actions)
    if k < 2:
        return k
    for i in range(k):
        copy_view(st, sim, seat)
        play_card(tb, sim, seat, team, actions[i] // 128, actions[i] % 128, True)
        if rich:
            rich_features(tb, cfg, sim, seat, feats[i])
        else:
            fair_features(tb, cfg, sim, seat, feats[i], copies)
        total = 0.0
        for r in range(deals):
            for h in range(by_horizon.shape[0]):
                values[i, h, r] = rollout_value(FittedLeaf(), tb, cfg, st, sim, seat, team, actions[i], by_horizon[h], base,
                                                np.int64(r))
            total += rollout_value(FittedLeaf(), tb, cfg, st, sim, seat, team, actions[i], params4, base + np.uint64(1),
                                   np.int64(r))
        truth[i] = total / deals
    st.rng[0] = base * np.uint64(3) + np.uint64(7)
    code, cell = lookahead_action(tb, cfg, st, sim, seat, team, params4)
    for i in range(k):
        if actions[i] == code * 128 + cell:
            chosen[0] = i
    return k


def measure(n_positions: int, deals: int, seed: int, rich: bool = False) -> dict:
    """The per-position arrays of values_of for n_positions positions, on all cores; the
    features' 'margin' (own team's minus the other's, then with `rich` the EXTRAS of
    kernels/rich.py, which are the seat's own)."""
    rules = Rules.make(2)
    tb, cfg = tables(), rules.cfg()
    params4 = Lineup.parse("lookahead", rules).params()[0, 0]
    by_horizon = np.array([Lineup.parse(f"lookahead:horizon={h}", rules).params()[0, 0] for h in HORIZONS])
    ids, seat_params = position_players(2, params4)
    games = np.arange(n_positions, dtype=np.int64) + 100_000 * seed
    turns = np.random.default_rng(seed).integers(2, 45, n_positions).astype(np.int64)
    k = np.zeros(n_positions, np.int64)
    feats = np.zeros((n_positions, SHORTLIST, N_RICH if rich else 2 * N_FEATURES))
    values = np.zeros((n_positions, SHORTLIST, len(HORIZONS), deals))
    truth = np.zeros((n_positions, SHORTLIST))
    chosen = np.zeros((n_positions, 1), np.int64)
    threads = os.cpu_count() or 1

    def block(b: int) -> None:
        st, sim, actions, copies = new_state(0), new_state(0), np.zeros(SHORTLIST, np.int64), np.zeros(N_CODES)
        for p in range(b, n_positions, threads):
            k[p] = values_of(tb, cfg, ids, seat_params, params4, by_horizon, games[p], turns[p], deals,
                             np.uint64(10_007 * seed + 2 * p), st, sim, actions, copies, feats[p], values[p],
                             truth[p], chosen[p], rich)

    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(block, range(threads)))
    keep = k >= 2
    if rich:  # already the seat's team's, then the other's
        margin = np.concatenate([feats[:, :, :N_FEATURES] - feats[:, :, N_FEATURES:N_BASE], feats[:, :, N_BASE:]], 2)
    else:
        seat = (turns % 2)[:, None, None]
        margin = np.where(seat == 0, 1.0, -1.0) * (feats[:, :, :N_FEATURES] - feats[:, :, N_FEATURES:])
    return {"k": k[keep], "margin": margin[keep], "truth": truth[keep],
            **{f"v{h}": values[keep, :, j] for j, h in enumerate(HORIZONS)},
            "lookahead": chosen[keep, 0]}


def paired(v: np.ndarray, deals: int) -> tuple[np.ndarray, np.ndarray]:
    """Each action's mean gain over greedy's first on the first `deals` deals of v (positions, actions,
    deals), and its standard error."""
    d = v[:, :, :deals] - v[:, :1, :deals]
    return d.mean(2), d.std(2, ddof=1) / np.sqrt(deals)


def lookahead_rule(mean: np.ndarray, se: np.ndarray) -> np.ndarray:
    """Scores under which the argmax leaves greedy's first only for a gain above 0.5 standard errors."""
    scores = np.where(mean > 0.5 * se, mean, -1.0)
    scores[:, 0] = 0.0
    return scores


def best_of(scores: np.ndarray, k: np.ndarray, width: int) -> np.ndarray:
    """Per position, the index of the best score (positions, actions) among its first min(k, width) actions."""
    column = np.arange(scores.shape[1])[None, :]
    return np.argmax(np.where((column < k[:, None]) & (column < width), scores, -np.inf), axis=1)


def table(data: dict) -> list[str]:
    """The rows of the table: each rule's gain per decision over greedy's first action."""
    n = len(data["k"])
    fit, test = np.arange(n) < n // 2, np.arange(n) >= n // 2
    listed_ = np.arange(SHORTLIST)[None, :] < data["k"][:, None]
    truth = data["truth"]
    # The prior: rollout gain over greedy's first (horizon 4, all deals) from the feature differences.
    x = data["margin"][:, 1:] - data["margin"][:, :1]
    y = data["v4"].mean(2)[:, 1:] - data["v4"].mean(2)[:, :1]
    rows = fit[:, None] & listed_[:, 1:]
    coef, *_ = np.linalg.lstsq(np.c_[x[rows], np.ones(rows.sum())], y[rows], rcond=None)
    prior = np.zeros((n, SHORTLIST))
    prior[:, 1:] = x @ coef[:-1] + coef[-1]

    def gain(scores: np.ndarray, width: int = SHORTLIST) -> str:
        """Mean truth gain (and its standard error) of the argmax of scores over the first `width` actions."""
        g = (truth[np.arange(n), best_of(scores, data["k"], width)] - truth[:, 0])[test]
        return f"{g.mean():.4f} +- {g.std() / np.sqrt(len(g)):.4f}"

    out = [
        f"{n:,} positions ({test.sum():,} scored); deals per action {data['v4'].shape[2]}",
        "",
        "| rule | rollout calls per decision | gain per decision |",
        "| --- | --- | --- |",
        "| greedy's first action | 0 | 0 |",
        f"| the default lookahead (raced, up to 4 x 64 at horizon 4) | up to 256 "
        f"| {gain(np.eye(SHORTLIST)[np.maximum(data['lookahead'], 0)])} |",
        f"| the prior alone, 2 actions | 0 | {gain(prior, 2)} |",
        f"| the prior alone, 4 actions | 0 | {gain(prior)} |",
    ]
    for horizon in (2, 4):
        v = data[f"v{horizon}"]
        for k, deals in ((2, 6), (2, 12), (3, 8), (4, 4), (4, 6), (4, 8), (4, 12)):
            if deals > v.shape[2]:
                continue
            mean, se = paired(v, deals)
            with_prior = mean + 2.0 * prior
            with_prior[:, 0] = 0.0
            calls = k * deals
            out.append(f"| {k} actions x {deals} deals, horizon {horizon}, margin 0.5 | {calls} "
                       f"| {gain(lookahead_rule(mean, se), k)} |")
            out.append(f"| the same + 2 x the prior | {calls} | {gain(with_prior, k)} |")
    # Every deal on every action: how far more deals at each horizon could go (the noise mostly gone).
    for horizon in HORIZONS:
        v = data[f"v{horizon}"]
        deals = v.shape[2]
        out.append(f"| 4 actions x {deals} deals, horizon {horizon}, margin 0.5 | {4 * deals} "
                   f"| {gain(lookahead_rule(*paired(v, deals)))} |")
    # The prior picks which challengers get the deals: greedy's first and the m best by the prior.
    rows_ = np.arange(n)[:, None]
    for horizon in (2, 4):
        v = data[f"v{horizon}"]
        for m, deals in ((2, 8), (2, 12)):
            by_prior = np.where(listed_, prior, -np.inf)
            by_prior[:, 0] = np.inf
            picked = np.argsort(-by_prior, axis=1)[:, :m + 1]
            mean, _ = paired(v, deals)
            scores = np.full((n, SHORTLIST), -np.inf)
            scores[rows_, picked] = (mean + prior)[rows_, picked]
            scores[:, 0] = 0.0
            out.append(f"| greedy's first and the prior's best {m} x {deals} deals, horizon {horizon}, + the prior "
                       f"| {(m + 1) * deals} | {gain(scores)} |")
    # A shorter horizon as a control variate for a longer one, on the same deals: an action's mean
    # gain on nh deals at horizon H, corrected by beta times (its mean gain at horizon L on those
    # deals minus that on m deals), beta = cov / var of the paired differences in the fit half.
    def pooled(a: np.ndarray) -> np.ndarray:
        return a[:, 1:, :][(fit[:, None] & listed_[:, 1:])]

    for high, low in ((2, 1), (4, 1), (4, 2)):
        dh, dl = (data[f"v{h}"] - data[f"v{h}"][:, :1, :] for h in (high, low))
        c = np.cov(pooled(dh).ravel(), pooled(dl).ravel())
        beta, rho = c[0, 1] / c[1, 1], c[0, 1] / np.sqrt(c[0, 0] * c[1, 1])
        for nh, m in ((2, 6), (3, 8), (6, 12)):
            if m > dh.shape[2]:
                continue
            est = dh[:, :, :nh].mean(2) - beta * (dl[:, :, :nh].mean(2) - dl[:, :, :m].mean(2))
            est = est + 2.0 * prior
            est[:, 0] = 0.0
            out.append(f"| 4 actions x ({nh} deals at horizon {high} + {m - nh} more at horizon {low}), the first "
                       f"{nh} corrected by horizon {low} (beta {beta:.2f}, correlation {rho:.2f}), + 2 x the prior "
                       f"| {4 * m} | {gain(est)} |")
    # The fast policy compares candidates by its value's weighted features (own minus opponent's):
    # with the prior's coefficients as its value weights it chooses as the prior does.
    if len(coef) - 1 != N_FEATURES:
        return out  # the rich prior has no fast policy to play it
    weights = coef[:-1] / np.abs(coef[:-1]).max()
    out.append("\nthe prior as the fast policy's value: fast:width=4:"
               + ":".join(f"{name}={w:.4f}" for name, w in zip(VALUE_NAMES[1:], weights)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20_000)
    parser.add_argument("--deals", type=int, default=32, help="deals per action (at least 12)")
    parser.add_argument("--seed", type=int, default=10)
    parser.add_argument("--rich", action="store_true",
                        help="the prior on kernels/rich.py's features (the fair ones and its EXTRAS)")
    args = parser.parse_args()
    if args.positions < 100 or args.deals < 12:
        parser.error("--positions must be at least 100 and --deals at least 12")
    t = time.perf_counter()
    data = measure(args.positions, args.deals, args.seed, args.rich)
    print("\n".join(table(data)))
    print(f"\n{time.perf_counter() - t:.0f} s (seed {args.seed})")


if __name__ == "__main__":
    main()
