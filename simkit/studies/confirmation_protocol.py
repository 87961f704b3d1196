"""confirmation_protocol: the confirmatory protocol itself, its tests, its power calculation and its file.

What ``simkit confirm DIR --plan`` writes and ``simkit confirm DIR`` checks
before it plays (``simkit.studies.confirmation`` is the study that plays it
and writes its verdicts; its docstring says how a protocol is made and
decided, in both formats):

- the constants every protocol shares: margins, line-ups, error level, the
  games of the estimates;
- the tests: team 0's advantage and the three-team gaps by two one-sided
  tests, a rule as an intersection-union test, Holm over the rules
  (``decide``, which the verdicts and the family-wise simulations use
  alike), the intervals' joint coverage;
- the power calculation and the plan (``plan``), its shares pooled from the
  published data (``planning_estimate``), and the chance that all pass once
  those estimates' own error is allowed for (``assurance``);
- the file: written once, read, refused when uncommitted, outside git, or
  on a seed any published study, table or run report used.

It stays one module of about 500 lines: a protocol is read top to bottom,
from its tests to the file that declares them.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import tomli_w
from scipy import stats as sp

from simkit.analysis import stats
from simkit.files.atomic import replacing
from simkit.game.options import flags_text, from_flags
from simkit.game.rules import Rules
from simkit.studies.kind import round_games
from simkit.studies.options import StudyError

PROTOCOL_FILE = "protocol.toml"
FORMAT_1 = "simkit.protocol/1"  # Bonferroni over the hypotheses (results/confirmation)
FORMAT = "simkit.protocol/2"  # Holm over the rules, planned for ALL_PASS (what --plan writes)
FORMATS = (FORMAT_1, FORMAT)
FAMILY_ERROR = 0.05  # the family-wise error level of the verdicts
ALL_PASS = 0.90  # the chance that every rule passes when the planning estimates are the truth, at least
POWER_1 = 0.80  # format 1: each hypothesis's power at the compensation study's point estimate
DECIDED_1 = 0.98  # format 1: the share of games decided that its plan assumed
MARGIN = {"casual": 0.005, "strong": 0.01}  # team 0's advantage must lie within ±MARGIN
GAP_MARGIN = {"casual": 0.01, "strong": 0.02}  # three teams: every pairwise gap within ±GAP_MARGIN
LINEUP = {"casual": "greedy", "strong": "swift"}  # the players each strength is measured with
MAX_GAMES = {"casual": 4_000_000, "strong": 400_000}  # a verdict's games at most (greedy, swift)
ESTIMATE_GAMES = {"random": 200_000, "greedy": 200_000, "swift": 10_000, "lookahead": 3_000}
BASELINE = ("swift", 50_000)  # each table without a rule: the strong baseline's line-up and games
POWER_DRAWS = 20_000  # multinomial draws of a rule's power (a Monte Carlo error of 0.0005 at 0.995)
NO_RULE = "none"  # rule_of of an estimate without a rule


class ProtocolError(StudyError):
    """A protocol that cannot be planned, read or played; the message says what is wrong."""


# --- the tests ----------------------------------------------------------------------------


def hypotheses_of(teams: int) -> tuple[str, ...]:
    """The hypotheses a verdict at a table of `teams` tests: the advantage, and with three teams the gaps."""
    return ("advantage", "gap") if teams == 3 else ("advantage",)


def test_advantage(wins, margin: float, level: float):
    """(advantage, p, low, high): team 0's share of the decided games minus 1/teams, tested within ±margin
    at `level`. wins: (teams,) games won, or (..., teams) for many sets of games at once."""
    wins = np.asarray(wins, np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = wins[..., 0] / wins.sum(axis=-1) - 1 / wins.shape[-1]
    p, low, high = stats.equivalence(value, stats.share_se(wins), margin, level)
    return (float(value), p, low, high) if np.ndim(value) == 0 else (value, p, low, high)


def test_gaps(wins, margin: float, level: float):
    """(largest gap, p, floor, reach): every pairwise gap between two teams' shares tested within ±margin
    at `level`, an intersection-union test. p is the largest of the pairs' p-values; [floor, reach] the
    largest gap's 1 - 6 level interval (Bonferroni over the three pairs' 1 - 2 level intervals): floor
    the largest distance of a pair's interval from 0, reach the largest |bound| of the pairs' intervals.
    The test passes when reach < margin. wins: (3,) or (..., 3)."""
    wins = np.asarray(wins, np.float64)
    decided = wins.sum(axis=-1)
    s = wins / decided[..., None]
    worst_p = np.zeros(decided.shape)
    for i, j in stats.PAIRS:
        p, _, _ = stats.equivalence(s[..., i] - s[..., j], stats.gap_se(wins, i, j), margin, level)
        worst_p = np.maximum(worst_p, p)
    largest, floor, reach = stats.largest_gap(wins, float(sp.norm.isf(level)))
    if np.ndim(decided) == 0:
        return largest, float(worst_p), floor, reach
    return largest, worst_p, floor, reach


def rule_tests(wins, margin: float, gap_margin: float | None, level: float) -> dict:
    """The intersection-union test of one rule at `level` (one-sided): its advantage (advantage, p_advantage,
    advantage_low, advantage_high, advantage_passes) and, with gap_margin (three teams), its gaps (max_gap,
    p_gap, gap_low, gap_reach, gap_passes); its p-value as a rule (p_rule) and whether it passes (fair).
    wins: (teams,) or (..., teams); each value has the shape of wins without its last axis."""
    adv, p_adv, low, high = test_advantage(wins, margin, level)
    d = {
        "advantage": adv,
        "advantage_low": low,
        "advantage_high": high,
        "p_advantage": p_adv,
        "advantage_passes": (low > -margin) & (high < margin),
    }
    if gap_margin is not None:
        gap, p_gap, floor, reach = test_gaps(wins, gap_margin, level)
        d.update(max_gap=gap, gap_low=floor, gap_reach=reach, p_gap=p_gap, gap_passes=reach < gap_margin)
    d["p_rule"] = np.maximum(p_adv, d.get("p_gap", 0.0))
    d["fair"] = d["advantage_passes"] & d.get("gap_passes", True)
    return d


def power_rule(shares, margin: float, gap_margin: float | None, level: float, decided: int, seed: int) -> float:
    """The chance that a rule passes at `level` when the teams' true shares of the decided games are
    `shares` and `decided` games are decided (POWER_DRAWS multinomial draws)."""
    rng = np.random.default_rng(seed)
    p = np.asarray(shares, np.float64) / np.sum(shares)
    draws = rng.multinomial(decided, p, size=POWER_DRAWS)
    return float(np.mean(rule_tests(draws, margin, gap_margin, level)["fair"]))


def games_for_power(power_at, target: float, most: int) -> tuple[int, float]:
    """The fewest games (two significant figures) whose power reaches `target`, at most `most`:
    (games, power). power_at: games -> power."""
    low, high = 1_000, most
    if power_at(high) < target:
        return high, power_at(high)
    while high / low > 1.01:
        mid = int(math.sqrt(low * high))
        low, high = (mid, high) if power_at(mid) < target else (low, mid)
    n = min(round_games(high), most)
    return n, power_at(n)


def decide(wins: list, protocol: dict) -> list[dict]:
    """The protocol's tests on every verdict's games, and its decisions: per verdict, a dict of its
    advantage (value, p, low, high, passes) and at three teams its gaps (max_gap, p_gap, gap_low,
    gap_reach, gap_passes), its p-value as a rule (p_rule), and whether it is fair: every hypothesis inside
    its interval (format 1, Bonferroni over the hypotheses), or passed by Holm's step-down over the rules'
    p-values (format 2). wins: per verdict in protocol order, (teams,) games won, or (F, teams) for F
    families of games at once (then every value is an array of F)."""
    level = float(protocol["level"])
    out = []
    for w, record in zip(wins, protocol["verdict"]):
        w = np.asarray(w, np.float64)
        gap_margin = float(record["gap_margin"]) if w.shape[-1] == 3 else None
        out.append(rule_tests(w, float(record["margin"]), gap_margin, level))
    if protocol["format"] != FORMAT_1 and out:
        p = np.stack([np.asarray(d["p_rule"], np.float64) for d in out], axis=-1)  # (..., rules)
        adjusted = stats.holm_families(p)
        for i, d in enumerate(out):
            d["p_holm"] = adjusted[..., i]
            d["fair"] = adjusted[..., i] <= float(protocol["family_error"])
    return out


def holm_levels(p_values, family_error: float) -> np.ndarray:
    """The level at which Holm's step-down tests each p-value: family_error / (m - j) for the (j + 1)-th
    smallest of m (from j = 0: the smallest at family_error / m, the largest at family_error). A rule Holm
    passes has its interval at that level (1 - 2 level) within its margins, whatever its first-step one."""
    p = np.asarray(p_values, np.float64)
    levels = np.empty(len(p))
    levels[np.argsort(p, kind="stable")] = family_error / (len(p) - np.arange(len(p)))
    return levels


ASSURANCE_DRAWS = 20_000  # draws of the assurance's families (a Monte Carlo error of about 0.0025 at 0.88)


def assurance(protocol: dict, draws: int = ASSURANCE_DRAWS, seed: int = 0, spread: bool = True) -> float:
    """The chance that every rule passes (Holm's step-down and all, ``decide``), simulated: each family draws
    every rule's games (the verdict's games, decided at the planned share) from its true shares. spread: the
    true shares drawn from the law of the planning estimate (a Dirichlet of the shares times the decided
    games they were pooled from, planned_at.games x decided_share), so allowing for the estimates' own
    sampling error; False: the planning estimates taken as the truth. The protocol's all_pass takes them as
    the truth and each rule at Holm's first step (a lower bound); neither allows for the searches' choice of
    their nearest-fair setting, which tilts the estimates toward fair."""
    rng = np.random.default_rng(seed)
    wins = []
    for v in protocol["verdict"]:
        at = v["planned_at"]
        shares = np.asarray(at["shares"], np.float64)
        seen = float(at["games"]) * float(at["decided_share"])
        truth = rng.dirichlet(shares * seen, size=draws) if spread else np.broadcast_to(shares, (draws, len(shares)))
        wins.append(rng.multinomial(int(v["games"] * at["decided_share"]), truth))
    fair = np.stack([d["fair"] for d in decide(wins, protocol)], axis=-1)
    return float(fair.all(axis=-1).mean())


def joint_coverage(verdicts: pd.DataFrame, level: float) -> float:
    """The least chance that every interval of the key table covers its true value together (Bonferroni):
    1 - the sum of their error rates, 2 level for an advantage's, 6 level for a largest gap's."""
    return 1 - float(sum(2 * level + (6 * level if t == 3 else 0) for t in verdicts.teams))


# --- the protocol ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One configuration the protocol plays: a verdict (strength set) or an estimate."""

    players: int
    teams: int
    rule_of: str  # "casual" or "strong": whose rule at this table
    options: dict  # the rule's options (late_card or handicap)
    lineup: str
    games: int
    seed: int
    verdict: bool

    def rules(self) -> Rules:
        return Rules.make(self.players, self.teams, **self.options)

    def label(self) -> str:
        return f"{self.players}p/{self.teams}t, {self.rule_of} rule, {self.lineup}"


def short_all_game(rules: Rules) -> tuple[int, ...]:
    """The simpler rule beside a late card: every seat dealt short keeps one card fewer all game (no late
    card), as a hand size per team (--hand-size cycles over the seats as the teams do)."""

    late = rules.late_turns
    return tuple(rules.hand_sizes[t] - (1 if late[t] > 0 else 0) for t in range(rules.teams))


RUN_REPORT_SEED = re.compile(r"^## players=.*\bseed=(\d+)\b", re.MULTILINE)  # a run report's heading


def used_seeds(results: Path, besides: Path | None = None) -> set[int]:
    """Every seed played by what `results` publishes, the archive included, but in the folder `besides`:
    the studies' (study.json: the study's and its configurations'), the seed column of every CSV table
    (the searches' verdicts) and every run report's heading (``## players=2, ..., seed=2026 (n=...)``)."""

    def mine(path: Path) -> bool:
        return besides is not None and besides.resolve() in path.resolve().parents

    seeds: set[int] = set()
    for path in sorted(results.rglob("study.json")):
        if mine(path):
            continue
        record = json.loads(path.read_text(encoding="utf-8"))
        seeds.add(int(record["identity"]["seed"]))
        seeds.update(int(c["seed"]) for c in record.get("configurations", []) if c.get("seed") is not None)
    for path in sorted(results.rglob("*.csv")):
        if mine(path):
            continue
        frame = pd.read_csv(path)
        if "seed" in frame.columns:
            seeds.update(int(x) for x in frame["seed"].dropna())
    for path in sorted(results.rglob("*.md")):
        if not mine(path):
            seeds.update(int(x) for x in RUN_REPORT_SEED.findall(path.read_text(encoding="utf-8")))
    return seeds


def one_name(rules: Rules) -> dict:
    """The options that name `rules` on the card and in a protocol: a handicap that deals exactly as a late
    card does (10p/2t: --handicap 10 is --late-card 2) is named as the late card, so one rule has one name."""
    options = rules.changed()
    if isinstance(options.get("handicap"), int) and set(options) == {"handicap"}:
        for k in range(1, options["handicap"] + 1):
            late = Rules.make(rules.players, rules.teams, late_card=k)
            if late.late_turns == rules.late_turns and late.hand_sizes == rules.hand_sizes:
                return {"late_card": k}
    return options


@dataclass(frozen=True)
class Planning:
    """What a verdict is planned at: the teams' shares of the decided games pooled from the published data,
    and the share of games decided."""

    sources: tuple[str, ...]
    games: int  # the games pooled
    shares: tuple[float, ...]
    decided_share: float


def planning_estimate(rules: Rules, lineup: str, search: Path, prior: Path) -> Planning:
    """The shares of the decided games of `rules` under `lineup`, pooled over its compensation search's
    verdict (`search`, a verdicts.csv) and the previous confirmation's verdict (`prior`, its summary.csv),
    and the decided share that confirmation measured (a search's verdicts give no decided count: its games
    count as decided at that share)."""
    teams = rules.teams

    def same(frame: pd.DataFrame, flags) -> pd.DataFrame:
        keep = [Rules.make(rules.players, teams, **from_flags(f)).plays_as(rules) for f in flags]
        return frame[keep]

    summary = pd.read_csv(prior, dtype={"rule": str})
    mine = summary[
        (summary.study_group == "verdict")
        & (summary.players == rules.players)
        & (summary.teams == teams)
        & (summary.policies == lineup)
    ]
    mine = same(mine, mine.rule)
    found = pd.read_csv(search, dtype={"setting": str})
    found = found[(found.players == rules.players) & (found.teams == teams) & (found.policies == lineup)]
    found = same(found, [f"--{f.replace('_', '-')} {s}" for f, s in zip(found.family, found.setting)])
    if len(mine) != 1 or len(found) == 0:
        raise ProtocolError(
            f"{prior} or {search} has no verdict on the {lineup} rule {flags_text(rules.changed())} at "
            f"{rules.players}p/{teams}t"
        )
    r, f = mine.iloc[0], found.iloc[0]
    decided_share = float(r.decided) / float(r.games)
    wins = np.array([float(r[f"share_{t}"]) for t in range(teams)]) * float(r.decided)
    wins = wins + np.array([float(f[f"share_{t}"]) for t in range(teams)]) * float(f.games) * decided_share
    return Planning(
        (f"{search.parent.name}/{search.name}", f"{prior.parent.name}/{prior.name}"),
        int(r.games) + int(f.games),
        tuple(float(x) for x in wins / wins.sum()),
        decided_share,
    )


def published_wins(folder: Path) -> dict[tuple[int, int, str], np.ndarray]:
    """Each verdict's games won per team, by (players, teams, line-up), from the confirmation in `folder`:
    its summary.csv shares of the decided games times its decided games, rounded to whole games."""
    summary = pd.read_csv(folder / "summary.csv")
    out = {}
    for r in summary[summary.study_group == "verdict"].itertuples():
        shares = np.array([getattr(r, f"share_{t}") for t in range(int(r.teams))], np.float64)
        out[(int(r.players), int(r.teams), str(r.policies))] = np.round(shares * float(r.decided))
    return out


def plan(card, results: Path, seed: int, prior: str = "confirmation", search: str = "compensation") -> dict:
    """The protocol of `card`, the rules card made from the studies in `results`
    (simkit.studies.rules_card.make_card), planned at the data of the previous confirmation `prior`: every
    verdict's games from the power calculation at the shares pooled from results/`search` and
    results/`prior` (planning_estimate), and the informative estimates. Seeds: `seed` for the verdicts,
    seed + 1 for the estimates."""
    taken = used_seeds(results)
    for s in (seed, seed + 1):
        if s in taken:
            raise ProtocolError(f"seed {s} was played by a published study or run in {results}; choose another --seed")
    chosen = [(row, strength, rule) for row in card.rows for strength, rule in row.rules.items() if rule is not None]
    rules_n = len(chosen)
    level = FAMILY_ERROR / rules_n
    each = ALL_PASS ** (1 / rules_n)
    verdicts, estimates = [], []
    for row, strength, rule in chosen:
        options = one_name(rule.rules)
        at = planning_estimate(
            rule.rules, rule.lineup, results / search / "verdicts.csv", results / prior / "summary.csv"
        )
        gap_margin = GAP_MARGIN[strength] if row.teams == 3 else None

        def power_at(games, at=at, strength=strength, gap_margin=gap_margin):
            return power_rule(at.shares, MARGIN[strength], gap_margin, level, int(games * at.decided_share), seed)

        games, power = games_for_power(power_at, each, MAX_GAMES[strength])
        verdicts.append(
            {
                "players": row.players,
                "teams": row.teams,
                "strength": strength,
                "lineup": LINEUP[strength],
                "rule": flags_text(options),
                "games": games,
                "seed": seed,
                "margin": MARGIN[strength],
                **({"gap_margin": gap_margin} if gap_margin is not None else {}),
                "planned_at": {
                    "sources": list(at.sources),
                    "games": at.games,
                    "advantage": round(at.shares[0] - 1 / row.teams, 6),
                    "shares": [round(x, 6) for x in at.shares],
                    "decided_share": round(at.decided_share, 6),
                },
                "power": round(power, 4),
            }
        )
        estimates += _estimates(row, strength, rule.rules, options, seed + 1)
    for row in card.rows:
        lineup, games = BASELINE
        estimates.append(_estimate(row.players, row.teams, NO_RULE, lineup, {}, games, seed + 1))
    estimates = _once(estimates)
    all_pass = float(np.prod([v["power"] for v in verdicts]))
    return {
        "format": FORMAT,
        "about": "The second confirmatory protocol of the rules card: declared and committed before its games "
        "(simkit.studies.confirmation says how it is made and decided).",
        "family_error": FAMILY_ERROR,
        "correction": "holm",
        "rules": rules_n,
        "level": level,
        "power_each": round(each, 5),
        "all_pass": round(all_pass, 4),
        "decision": (
            f"A rule's test is the intersection-union test of team 0's advantage within ±margin and, at three "
            f"teams, every pairwise gap within ±gap_margin (two one-sided normal tests each); its p-value is the "
            f"largest of its parts'. Holm's step-down over the {rules_n} rules' p-values at a family-wise error of "
            f"{FAMILY_ERROR}: a rule is fair when Holm passes it. Intervals: 1 - 2 x {FAMILY_ERROR}/{rules_n} "
            "(Holm's first step). One look: the games are fixed, a verdict is never re-run, extended or swapped."
        ),
        "verdict": verdicts,
        "estimate": estimates,
    }


def _estimate(players: int, teams: int, rule_of: str, lineup: str, options: dict, games: int, seed: int) -> dict:
    return {
        "players": players,
        "teams": teams,
        "rule_of": rule_of,
        "lineup": lineup,
        "rule": flags_text(options),
        "games": games,
        "seed": seed,
    }


def _once(estimates: list[dict]) -> list[dict]:
    """The estimates without repeats: where the casual and the strong rule of a table are one rule, the
    games of a line-up on it are played once (under the first rule that names them)."""
    seen, out = set(), []
    for e in estimates:
        key = (e["players"], e["teams"], e["lineup"], e["rule"], e["games"], e["seed"])
        if key not in seen:
            seen.add(key)
            out.append(e)
    return out


def _estimates(row, strength: str, rules: Rules, options: dict, seed: int) -> list[dict]:
    """The informative estimates beside a verdict: its rule under the other line-ups (the lookahead on the
    strong rules), and the simpler rule of a hand one card short all game under the verdict's line-up."""
    lineups = ["random", "greedy", "swift"] + (["lookahead"] if strength == "strong" else [])
    out = [
        _estimate(row.players, row.teams, strength, lineup, options, ESTIMATE_GAMES[lineup], seed)
        for lineup in lineups
        if lineup != LINEUP[strength]
    ]
    short = {"hand_size": short_all_game(rules)}
    lineup = LINEUP[strength]
    out.append(_estimate(row.players, row.teams, strength, lineup, short, ESTIMATE_GAMES[lineup], seed))
    return out


def write_protocol(path: Path, protocol: dict) -> None:
    if path.exists():
        raise ProtocolError(f"{path} exists: a protocol is never rewritten; plan a new one in another folder")
    path.parent.mkdir(parents=True, exist_ok=True)
    with replacing(path) as tmp:
        tmp.write_text(tomli_w.dumps(protocol), encoding="utf-8")


def read_protocol(path: Path) -> dict:
    if not path.is_file():
        raise ProtocolError(f"no protocol at {path}; write one with `simkit confirm {path.parent} --plan`")
    try:
        protocol = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise ProtocolError(f"{path} is not a readable protocol: {e}") from None
    if protocol.get("format") not in FORMATS:
        raise ProtocolError(
            f"{path} is not a simkit protocol (format {protocol.get('format')!r}; known: {', '.join(FORMATS)})"
        )
    return protocol


def entries(protocol: dict) -> list[Entry]:
    """Every configuration of the protocol: the verdicts, then the estimates."""
    out = []
    for record, verdict in [(v, True) for v in protocol["verdict"]] + [(e, False) for e in protocol["estimate"]]:
        players, teams = int(record["players"]), int(record["teams"])
        options = from_flags(record["rule"])
        out.append(
            Entry(
                players,
                teams,
                record.get("strength", record.get("rule_of")),
                options,
                record["lineup"],
                int(record["games"]),
                int(record["seed"]),
                verdict,
            )
        )
    return out


def check_committed(path: Path) -> None:
    """Refuse a protocol that git does not hold as committed, or that lies outside a git work tree (where
    nothing shows that it came before its games)."""
    outside = ProtocolError(
        f"{path} lies outside a git repository: a protocol is played only once committed, so that the history "
        "shows it before its games"
    )
    try:
        tracked = subprocess.run(
            ["git", "ls-files", "--error-unmatch", path.name], cwd=path.parent, capture_output=True, text=True
        )
        if tracked.returncode == 128 and "not a git repository" in tracked.stderr:
            raise outside
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", path.name], cwd=path.parent, capture_output=True, text=True
        ).stdout.strip()
    except OSError:  # no git at all
        raise outside from None
    if tracked.returncode != 0 or dirty:
        raise ProtocolError(
            f"commit {path} before its games are played (git add {path} && git commit): "
            "the history must show the protocol first"
        )


def check_seeds(protocol: dict, results: Path, folder: Path) -> None:
    used = used_seeds(results, besides=folder)
    clash = sorted({int(e["seed"]) for e in protocol["verdict"] + protocol["estimate"]} & used)
    if clash:
        raise ProtocolError(
            f"the protocol's seed {clash[0]} was played by a published study or run in {results}: "
            "a confirmation plays only games no study has seen"
        )
