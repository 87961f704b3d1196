"""The experiment behind swift's `removals` (seventeenth session): another search on the decisions where a
Jack is among greedy's best four.

    python benchmarks/patches/swift_hybrid.py --seeds 7373 8484 9595 1111 2222 3333 --trigger 1 0
    python benchmarks/patches/swift_hybrid.py --seeds 7373 8484 9595 1111 2222 3333 --trigger 1 --look-rollouts 16
    python benchmarks/patches/swift_hybrid.py --seeds 7373 8484 9595 1111 2222 3333 --trigger 1 \
        --jack-as swift:shortlist=4:gap=0
    python benchmarks/patches/swift_hybrid.py --speed 400 --trigger 0 1 2      # one thread, self-play

The ninth session found that about 3 points of the lookahead's strength are
removals its rollouts find (a one-eyed Jack among greedy's best four: 5% of
decisions, 31% of its gain per decision), and swift searches 2 plies where
the lookahead searches 4. Here a decision whose greedy shortlist of
``--look-shortlist`` (by the lookahead's own greedy weights, which are
swift's own too) holds a one-eyed Jack (``--trigger 1``) or any Jack
(``--trigger 2``) is searched by the lookahead's kernel
(``kernels.lookahead.raced_action`` with ``FittedLeaf()``: the default
lookahead's row with ``--look-rollouts`` deals); every other decision, and
every decision with ``--trigger 0``, by swift's (``RichLeaf()``, the row of
``swift:removals=0``: swift's defaults before the seventeenth session, which
it played these experiments with). With ``--jack-as SPEC``
the Jack decisions are searched by swift's kernel on SPEC's row instead of
the lookahead's. The player meets the default lookahead, seats swapped
by game (team g % 2 is the player's in game g), every trigger on the same
deals; benchmarks/matches.md (seventeenth session) has the figures.
"""
import argparse
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
import numpy as np
from numba import njit
from scipy.stats import binomtest
from simkit.cards import tables
from simkit.kernels.engine import reset
from simkit.kernels.greedy import N_GREEDY_PARAMS, score_actions
from simkit.kernels.jit import COMPILE_OPTIONS
from simkit.kernels.lookahead import FittedLeaf, P_GREEDY, P_ROLLOUTS, RichLeaf, raced_action, shortlist
from simkit.kernels.moves import swap_dead
from simkit.kernels.policies import choose_dead, workspace
from simkit.kernels.state import CFG_MAX_TURNS, CFG_PLAYERS, may_swap_dead, new_state
from simkit.kernels.tables import ONE_EYED, ORDINARY
from simkit.kernels.turn import ASK_POLICY, PASSED, WON, next_seat, play_turn
from simkit.policies import Lineup
from simkit.rules import Rules


@njit(nogil=True, **COMPILE_OPTIONS)  # no cache: numba would not see edits to the kernels it calls
def hybrid_action(tb, cfg, st, sim, seat, team, swift_row, look_row, trigger, look_short, jack_row):
    """swift's choice, or the lookahead kernel's (look_row; jack_row[0] > 0: swift's kernel with the row
    jack_row[1:]) when greedy's best look_short actions by the lookahead's own weights hold a one-eyed
    Jack (trigger 1) or any Jack (trigger 2); as (card, cell)."""
    if trigger > 0:
        gparams = look_row[P_GREEDY:P_GREEDY + N_GREEDY_PARAMS]
        actions, scores = st.scratch, st.fscores
        n = score_actions(tb, cfg, st, seat, team, gparams, actions, scores)
        k = shortlist(actions, scores, n, look_short)
        for i in range(k):
            kind = tb.card_kind[actions[i] // 128]
            if (trigger == 1 and kind == ONE_EYED) or (trigger == 2 and kind != ORDINARY):
                if jack_row[0] > 0.0:
                    return raced_action(RichLeaf(), tb, cfg, st, sim, seat, team, jack_row[1:])
                return raced_action(FittedLeaf(), tb, cfg, st, sim, seat, team, look_row)
    return raced_action(RichLeaf(), tb, cfg, st, sim, seat, team, swift_row)


@njit(nogil=True, **COMPILE_OPTIONS)
def match_game(policies, tb, cfg, ids, params, st, sim, sim2, seed, game, mine, both, swift_row, look_row,
               trigger, look_short, jack_row):
    """One game: team `mine` (both: every team) plays hybrid_action, the other the line-up's policy.
    The winning team or -1."""
    reset(cfg, st, seed, game)
    players = cfg[CFG_PLAYERS]
    seat, team, passes = 0, 0, 0
    for _ in range(cfg[CFG_MAX_TURNS]):
        action = ASK_POLICY
        if team == mine or both:
            if may_swap_dead(cfg, st):
                dead = choose_dead(ids[seat], params[seat], tb, cfg, st, seat, team)
                if dead >= 0:
                    swap_dead(cfg, st, seat, dead)
            code, cell = hybrid_action(tb, cfg, st, sim2, seat, team, swift_row, look_row, trigger, look_short,
                                       jack_row)
            action = code * 128 + cell if code >= 0 else -129
        result = play_turn(policies, ids[seat], params[seat], tb, cfg, st, sim, seat, team, action)
        if result == WON:
            return team
        passes = passes + 1 if result == PASSED else 0
        if passes == players:
            return -1
        seat, team = next_seat(seat, team, players, 2)
    return -1


def run(trigger, look_rollouts, look_short, games, seed, threads, both=False, jack_as="", players=2):
    """The hybrid against the default lookahead, seats swapped by game: (points, Wilson 95% CI, seconds)."""
    rules = Rules.make(players, 2)
    tb, cfg = tables(), rules.cfg()
    lineup = Lineup.parse("lookahead", rules)
    policies, ids, params = lineup.policy_set(), lineup.ids()[0], lineup.params()[0]
    swift_row = Lineup.parse("swift:removals=0", rules).params()[0][0].copy()
    look_row = params[0].copy()
    look_row[P_ROLLOUTS] = look_rollouts
    jack_row = np.zeros(len(swift_row) + 1)
    if jack_as:
        jack_row[0] = 1.0
        jack_row[1:] = Lineup.parse(jack_as, rules).params()[0][0]
    winners = np.zeros(games, np.int64)
    mine = np.arange(games) % 2

    def block(b):
        st, sim, sim2 = new_state(0), workspace(policies, ids, params), new_state(0)
        for g in range(b, games, threads):
            winners[g] = match_game(policies, tb, cfg, ids, params, st, sim, sim2, seed, g, mine[g], both,
                                    swift_row, look_row, trigger, look_short, jack_row)
    t = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(block, range(threads)))
    dt = time.perf_counter() - t
    score = float((winners == mine).sum() + 0.5 * (winners < 0).sum())
    ci = binomtest(round(score), games).proportion_ci(0.95, method="wilson")
    return score, ci, dt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trigger", type=int, nargs="+", default=[0, 1])
    ap.add_argument("--look-rollouts", type=int, default=64, help="deals of the lookahead's search (64: its own)")
    ap.add_argument("--look-shortlist", type=int, default=4, help="greedy's best actions looked at for a Jack")
    ap.add_argument("--jack-as", default="", help="a swift spec searching the Jack decisions instead of the "
                    "lookahead's kernel, e.g. swift:shortlist=4:gap=0")
    ap.add_argument("--players", type=int, default=2, help="2 or 4 (two teams)")
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--seeds", type=int, nargs="+", default=[7373])
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--speed", type=int, default=0, help="self-play games on one thread, no match")
    a = ap.parse_args()
    kw = dict(jack_as=a.jack_as, players=a.players)
    if a.speed:
        for t in a.trigger:
            run(t, a.look_rollouts, a.look_shortlist, 4, 1, 1, both=True, **kw)  # compile
        for t in a.trigger:
            _, _, dt = run(t, a.look_rollouts, a.look_shortlist, a.speed, 5, 1, both=True, **kw)
            print(f"trigger={t}: {a.speed / dt:.1f} games/s self-play, 1 thread", flush=True)
        return
    for t in a.trigger:
        tot = 0.0
        for s in a.seeds:
            score, ci, dt = run(t, a.look_rollouts, a.look_shortlist, a.games, s, a.threads, **kw)
            tot += score
            print(f"trigger={t} seed {s}: {score / a.games:.4f} [{ci.low:.3f}, {ci.high:.3f}] ({dt:.0f} s)",
                  flush=True)
        n = a.games * len(a.seeds)
        ci = binomtest(round(tot), n).proportion_ci(0.95, method="wilson")
        print(f"trigger={t} all {n}: {tot / n:.4f} [{ci.low:.4f}, {ci.high:.4f}]", flush=True)


if __name__ == "__main__":
    main()
