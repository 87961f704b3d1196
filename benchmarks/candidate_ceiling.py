"""How far a search that judges more of the actions could go, by the lookahead's own judgement.

    python benchmarks/candidate_ceiling.py                       # 4,000 positions, 32 + 32 deals per action
    python benchmarks/candidate_ceiling.py --positions 8000 --deals 64
    python benchmarks/candidate_ceiling.py --positions 3000 --played-out quick --played-deals 64

Issue 22 item 2 asks for a player at 60% against the default lookahead. The
lookahead and the tree search judge greedy's best 4 actions only, by short
greedy rollouts on re-dealt hidden cards scored by the fitted value (the
*model*); more deals and iterations bought at most a few points
(benchmarks/matches.md). This measures the rest of what the model can give:
on positions of decision_values.py's kind (two players, greedy self-play
with the lookahead's own weights stopped at a random turn), every legal action
up to `--actions` in greedy's order is valued on `--deals` deals by the
lookahead's rollouts at horizon 4 (``kernels.lookahead.rollout_value``, the
deals shared by the actions) and, independently, on `--deals` other deals
(the *truth*). A rule chooses by the first set (leaving greedy's first action
only for a gain above 0.5 standard errors, as the lookahead does) and is
scored by the truth of its choice minus that of greedy's first, in points of
the chance to win per decision. Choosing by the truth itself is the model's
ceiling for any player whose judgement is this model (biased upwards: the
best of many noisy truths).

decision_values.py puts the default lookahead at 0.0054-0.0055 per decision on
such positions and `quick` (0.0022) at 46.3% against it in matches: about one
point of match score per 0.001, so 60% needs about 0.015.

The model is only the lookahead's belief. With ``--played-out SPEC`` the
choices are also checked against games: on every position where the rule over
4 actions or the one over all of them leaves greedy's first action, greedy's
first and the two rules' choices are each played to the end by SPEC on every
seat (e.g. ``quick``, the lookahead's kernel with cheap defaults), on
``--played-deals`` deals of the unseen cards shared by the three; each rule's
gain by the model is set beside its gain played out.

Two-player games only.
"""

from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import njit

from decision_values import best_of, lookahead_rule
from decisions import position, position_players
from simkit.cards import tables
from simkit.kernels.greedy import score_actions
from simkit.kernels.jit import COMPILE_OPTIONS
from simkit.kernels.lookahead import P_GREEDY, P_OPPONENT, FittedLeaf, determinise, rollout_value, shortlist
from simkit.kernels.policies import workspace
from simkit.kernels.rng import seed_stream
from simkit.kernels.state import CFG_MAX_TURNS, CFG_PLAYERS, CFG_TEAMS, TURNS, new_state
from simkit.kernels.tables import JACK_RANK, TWO_EYED_JACKS
from simkit.kernels.turn import PASSED, WON, next_seat, play_turn
from simkit.policies import Lineup
from simkit.rules import Rules


@njit(nogil=True)  # no cache: numba would not see edits to the kernels it calls
def values_of(tb, cfg, ids, seat_params, params, game, turns, deals, base, st, sim, actions, values, truth):
    """One position: its legal actions in greedy's order (at most len(actions)) into actions, each
    one's value per deal (values[action, deal]) and its mean over other deals (truth); how many."""
    seat = position(tb, cfg, ids, seat_params, st, sim, game, turns)
    if seat < 0:
        return 0
    team = seat % 2  # two-player games
    n = score_actions(tb, cfg, st, seat, team, params[P_GREEDY:P_OPPONENT], st.scratch, st.fscores)
    k = shortlist(st.scratch, st.fscores, n, min(n, actions.shape[0]))
    actions[:k] = st.scratch[:k]
    for i in range(k):
        total = 0.0
        for r in range(deals):
            values[i, r] = rollout_value(FittedLeaf(), tb, cfg, st, sim, seat, team, actions[i], params, base, np.int64(r))
            total += rollout_value(FittedLeaf(), tb, cfg, st, sim, seat, team, actions[i], params, base + np.uint64(1),
                                   np.int64(r))
        truth[i] = total / deals
    return k


@njit(nogil=True, **COMPILE_OPTIONS)  # numba's options for the kernels it inlines (as fit_value.py)
def reality_of(policies, tb, cfg, ids, seat_params, pid, pparams, game, turns, chosen, deals, base, st, sim, work,
               out):
    """out[j]: the chance to win of action chosen[j] of one position when the game is played to its end
    by the line-up pid/pparams on every seat, on `deals` deals of the unseen cards (shared by the actions)."""
    seat = position(tb, cfg, ids, seat_params, st, sim, game, turns)
    players, teams = cfg[CFG_PLAYERS], cfg[CFG_TEAMS]
    team = seat % teams
    for j in range(chosen.shape[0]):
        total = 0.0
        for r in range(deals):
            seed_stream(sim.rng, base, np.int64(r))
            determinise(st, sim, seat, np.int64(-1))
            action, s, t, passes, value = chosen[j], seat, team, 0, 0.5
            while True:  # one call of the (inlined) turn: numba inlines each call site anew
                result = play_turn(policies, pid, pparams, tb, cfg, sim, work, s, t, action)
                action = np.int64(-1)  # the policy chooses from the next turn on
                if result == WON:
                    value = 1.0 if t == team else 0.0
                    break
                passes = passes + 1 if result == PASSED else 0
                if passes == players or sim.ctr[TURNS] >= cfg[CFG_MAX_TURNS]:
                    break  # a draw: stalemate or the turn cap
                s, t = next_seat(s, t, players, teams)
            total += value
        out[j] = total / deals


def positions_setup() -> tuple:
    """(rules, tb, cfg, params, ids, seat_params): the two-player table, the default lookahead's
    parameter row, and the self-play line-up that makes the positions (decisions.position_players)."""
    rules = Rules.make(2)
    params = Lineup.parse("lookahead", rules).params()[0, 0]
    return (rules, tables(), rules.cfg(), params, *position_players(2, params))


def measure(n_positions: int, deals: int, max_actions: int, seed: int) -> dict:
    """k (positions,), values (positions, max_actions, deals) and truth (positions, max_actions), on all cores."""
    _, tb, cfg, params, ids, seat_params = positions_setup()
    games = np.arange(n_positions, dtype=np.int64) + 100_000 * seed
    turns = np.random.default_rng(seed).integers(2, 45, n_positions).astype(np.int64)
    k = np.zeros(n_positions, np.int64)
    acts = np.full((n_positions, max_actions), -1, np.int64)
    values = np.zeros((n_positions, max_actions, deals))
    truth = np.zeros((n_positions, max_actions))
    threads = os.cpu_count() or 1

    def block(b: int) -> None:
        st, sim = new_state(0), new_state(0)
        for p in range(b, n_positions, threads):
            k[p] = values_of(tb, cfg, ids, seat_params, params, games[p], turns[p], deals,
                             np.uint64(10_009 * seed + 2 * p), st, sim, acts[p], values[p], truth[p])

    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(block, range(threads)))
    keep = k >= 2
    return {"k": k[keep], "actions": acts[keep], "values": values[keep], "truth": truth[keep],
            "position": np.flatnonzero(keep), "game": games[keep], "turns": turns[keep]}


def rule_scores(values: np.ndarray, deals: int) -> np.ndarray:
    """The lookahead rule's scores (positions, actions) from the first `deals` deals of values (see lookahead_rule)."""
    diff = values[:, :, :deals] - values[:, :1, :deals]
    return lookahead_rule(diff.mean(2), diff.std(2, ddof=1) / np.sqrt(deals))


def choices(data: dict, width: int, deals: int) -> np.ndarray:
    """The lookahead rule's choice (an index into data["actions"]) among greedy's best `width` on `deals` deals."""
    return best_of(rule_scores(data["values"], deals), data["k"], width)


def reality(data: dict, spec: str, deals: int, seed: int) -> list[str]:
    """The model's gains against games played out: on every position where the rule over 4 or over all
    actions leaves greedy's first, the three actions (greedy's first, each rule's choice) played to the
    end by `spec` on every seat, `deals` deals each; the model's and the played-out gain of each rule."""
    rules, tb, cfg, _, ids, seat_params = positions_setup()
    lineup = Lineup.parse(spec, rules)
    policies, pid, pparams = lineup.policy_set(), int(lineup.ids()[0][0]), lineup.params()[0][0]
    _, width, model_deals = data["values"].shape
    narrow, wide = choices(data, 4, model_deals), choices(data, width, model_deals)
    rows = np.flatnonzero((narrow > 0) | (wide > 0))
    picked = np.stack([np.zeros_like(narrow), narrow, wide], axis=1)[rows]
    chosen = np.take_along_axis(data["actions"][rows], picked, axis=1)
    played = np.zeros(chosen.shape)
    threads = os.cpu_count() or 1

    def block(b: int) -> None:
        st, sim = new_state(0), new_state(0)
        work = workspace(policies, lineup.ids()[0], lineup.params()[0])
        for i in range(b, len(rows), threads):
            p = data["position"][rows[i]]
            reality_of(policies, tb, cfg, ids, seat_params, pid, pparams, data["game"][rows[i]], data["turns"][rows[i]],
                       chosen[i], deals, np.uint64(20_011 * seed + p), st, sim, work, played[i])

    t = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(block, range(threads)))
    n = len(data["k"])
    truth = np.take_along_axis(data["truth"][rows], picked, axis=1)
    out = [f"\nPlayed out by {spec!r} on every seat, {deals} deals per action: the {len(rows):,} positions "
           f"(of {n:,}) where a rule leaves greedy's first action ({time.perf_counter() - t:.0f} s); gains per "
           f"decision over all {n:,} positions",
           "", "| rule | gain by the model (the truth) | gain played out |", "| --- | --- | --- |"]
    for j, name in ((1, "4 actions"), (2, f"{width} actions")):
        g_model, g_played = (truth[:, j] - truth[:, 0]), (played[:, j] - played[:, 0])
        out.append(f"| {name}, {model_deals} deals, margin 0.5 | {g_model.sum() / n:.4f} "
                   f"| {g_played.sum() / n:.4f} +- {g_played.std() * np.sqrt(len(rows)) / n:.4f} |")
    return out


def table(data: dict) -> list[str]:
    """Each rule's gain per decision over greedy's first action, with its standard error."""
    k, values, truth = data["k"], data["values"], data["truth"]
    n, max_actions, deals = values.shape

    def gain(scores: np.ndarray, width: int) -> str:
        g = truth[np.arange(n), best_of(scores, k, width)] - truth[:, 0]
        return f"{g.mean():.4f} +- {g.std() / np.sqrt(n):.4f}"

    out = [f"{n:,} positions with two or more actions; legal actions per position: median {np.median(k):.0f}, "
           f"{(k > 4).mean():.0%} with more than 4, {(k >= max_actions).mean():.0%} with {max_actions} or more "
           f"(cut at {max_actions}); {deals} deals per action and {deals} more for the truth",
           "",
           "| actions judged (greedy's best) | deals per action | rollout calls per decision (most) "
           "| gain per decision (rule) | gain per decision (choosing by the truth) |",
           "| --- | --- | --- | --- | --- |"]
    widths = [w for w in (1, 2, 4, 8, 16, 32, 64) if w < max_actions] + [max_actions]
    for width in widths:
        for d in sorted({16, deals}):
            if d > deals:
                continue
            out.append(f"| {width} | {d} | {width * d} | {gain(rule_scores(values, d), width)} "
                       f"| {gain(truth, width)} |")
    # Where the widest rule's choices lie in greedy's order, and what cards they play.
    chosen = choices(data, max_actions, deals)
    code = data["actions"][np.arange(n), chosen] // 128
    kind = np.where(code % 13 != JACK_RANK, 0, np.where(np.isin(code, TWO_EYED_JACKS), 2, 1))
    out += ["", f"The choices of the rule over {max_actions} actions ({deals} deals), by their place in greedy's "
            "order:",
            "", "| greedy's rank | choices | plain cards | one-eyed Jacks | two-eyed Jacks | gain by the truth, each |",
            "| --- | --- | --- | --- | --- | --- |"]
    for lo, hi in ((0, 1), (1, 4), (4, 8), (8, max_actions)):
        sel = (chosen >= lo) & (chosen < hi)
        g = (truth[np.arange(n), chosen] - truth[:, 0])[sel]
        out.append(f"| {lo + 1}{'' if hi == lo + 1 else f'-{hi}'} | {sel.sum():,} | "
                   + " | ".join(f"{(kind[sel] == j).sum():,}" for j in range(3))
                   + f" | {g.mean() if sel.any() else 0.0:.4f} |")
    # Where the 4-action rule's gain comes from: the decisions with a Jack among greedy's best 4.
    narrow = choices(data, 4, deals)
    g = truth[np.arange(n), narrow] - truth[:, 0]
    codes = data["actions"] // 128
    top4 = (np.arange(max_actions)[None, :] < np.minimum(k, 4)[:, None]) & (codes % 13 == JACK_RANK)
    two = np.isin(codes, TWO_EYED_JACKS)
    out += ["", f"Where the gain of the rule over 4 actions ({deals} deals) comes from:", "",
            "| decisions | share of decisions | share of the gain |", "| --- | --- | --- |"]
    for name, sel in (("a one-eyed Jack among greedy's best 4", (top4 & ~two).any(1)),
                      ("a two-eyed Jack among greedy's best 4", (top4 & two).any(1)),
                      ("no Jack among greedy's best 4", ~top4.any(1))):
        out.append(f"| {name} | {sel.mean():.1%} | {g[sel].sum() / g.sum():.1%} |")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=4_000)
    parser.add_argument("--deals", type=int, default=32, help="deals per action, and as many for the truth")
    parser.add_argument("--actions", type=int, default=32, help="legal actions judged at most, greedy's best first")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--played-out", metavar="SPEC", help="also play the rules' choices to the end with this "
                        "policy on every seat (e.g. quick) and compare the gains with the model's")
    parser.add_argument("--played-deals", type=int, default=32, help="deals per action played out")
    args = parser.parse_args()
    if args.positions < 100 or args.deals < 16 or not 4 <= args.actions <= 512:
        parser.error("--positions must be at least 100, --deals at least 16 and --actions within 4..512")
    if args.played_out:
        if args.played_deals < 1:
            parser.error("--played-deals must be at least 1")
        try:
            Lineup.parse(args.played_out, Rules.make(2))
        except ValueError as e:
            parser.error(f"--played-out: {e}")
    t = time.perf_counter()
    data = measure(args.positions, args.deals, args.actions, args.seed)
    print("\n".join(table(data)))
    if args.played_out:
        print("\n".join(reality(data, args.played_out, args.played_deals, args.seed)))
    print(f"\n{time.perf_counter() - t:.0f} s (seed {args.seed})")


if __name__ == "__main__":
    main()
