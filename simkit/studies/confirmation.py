"""confirmation: the rules card's verdicts, decided by a protocol declared before its games.

The compensation study *proposes* a rule per table and strength: its searches
look at the data many times (refinements, further looks, a family switched
after a failure). This study *decides*. Its protocol, ``protocol.toml`` in the
study directory, is written by ``simkit confirm DIR --plan`` from the
published rules card and committed before any of its games are played; the
git history shows the order. It fixes:

- the rules to confirm, one per (table, strength), and the line-up of each
  strength (casual: greedy, strong: swift);
- a seed no published study used (``simkit confirm`` refuses a used one);
- the games of each verdict, from a power calculation: at least POWER at the
  compensation study's own point estimate (capped at MAX_GAMES; the power
  at the cap is then written down);
- the margins (MARGIN, GAP_MARGIN), the family-wise error level and the
  decision rule (below).

The family is every hypothesis the card states: for each (table, strength)
that team 0's advantage lies within ±MARGIN, and at a three-team table also
that every pairwise gap between two teams' shares lies within ±GAP_MARGIN
(an intersection-union test: the largest of the three pairs' p-values).
Each hypothesis is tested by two one-sided normal tests at FAMILY_ERROR / m
(Bonferroni over the m hypotheses of the family): it passes when its
(1 - 2 FAMILY_ERROR / m) interval lies within the margin. A rule is fair at
its table when all of its hypotheses pass. One look, no extension: the
games are the protocol's, and a verdict is final. A rule that fails stays
failed here; a later protocol with new seeds may try another, and both stay.

Beside the verdicts the protocol declares informative estimates, not part of
the family: every table's casual and strong rule under random, greedy and
swift, and under the lookahead at LOOKAHEAD_TABLES, and how often each late
card arrives before the game ends (``bite``).

It stays one module above 500 lines: the confirmatory protocol, from its
tests and power calculation through its plan and committed file to the
study that plays it and writes its verdicts, is one thing read top to
bottom.
"""

from __future__ import annotations

import hashlib
import json
import math
import subprocess
import tomllib
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd
import tomli_w
from scipy.stats import norm

from simkit.analysis import stats
from simkit.files.atomic import replacing
from simkit.game.options import flags_text, from_flags
from simkit.game.players import Lineup
from simkit.game.rules import Rules
from simkit.kernels.core.state import CFG_LATE
from simkit.presentation import plots
from simkit.presentation.render import count, markdown_table, pct, pp
from simkit.studies.kind import Config, Results, Study, StudyKind, Tables, round_games
from simkit.studies.options import StudyError
from simkit.studies.summary import summary_frame

PROTOCOL_FILE = "protocol.toml"
FORMAT = "simkit.protocol/1"
FAMILY_ERROR = 0.05  # the family-wise error level of the verdicts
POWER = 0.80  # each hypothesis's power at the compensation study's point estimate
MARGIN = {"casual": 0.005, "strong": 0.01}  # team 0's advantage must lie within ±MARGIN
GAP_MARGIN = {"casual": 0.01, "strong": 0.02}  # three teams: every pairwise gap within ±GAP_MARGIN
LINEUP = {"casual": "greedy", "strong": "swift"}  # the players each strength is measured with
MAX_GAMES = {"casual": 4_000_000, "strong": 400_000}  # a verdict's games at most (greedy, swift)
ESTIMATE_GAMES = {"random": 200_000, "greedy": 200_000, "swift": 10_000, "lookahead": 3_000}
LOOKAHEAD_TABLES = ((2, 2), (4, 2), (6, 2), (6, 3))  # the lookahead's estimates (its cost: 30 games/s per core)
POWER_DRAWS = 4_000  # multinomial draws of a three-team gap test's power
DECIDED = 0.98  # the share of games decided that the plan assumes (stalemates are rarer)


class ProtocolError(StudyError):
    """A protocol that cannot be planned, read or played; the message says what is wrong."""


# --- the tests ----------------------------------------------------------------------------


def hypotheses_of(teams: int) -> tuple[str, ...]:
    """The hypotheses a verdict at a table of `teams` tests: the advantage, and with three teams the gaps."""
    return ("advantage", "gap") if teams == 3 else ("advantage",)


def alpha(hypotheses: int, family_error: float = FAMILY_ERROR) -> float:
    """Each one-sided test's level: Bonferroni over the family."""
    return family_error / hypotheses


def test_advantage(wins, margin: float, level: float):
    """(advantage, p, low, high): team 0's share of the decided games minus 1/teams, tested within ±margin
    at `level`. wins: (teams,) games won, or (..., teams) for many sets of games at once."""
    wins = np.asarray(wins, np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = wins[..., 0] / wins.sum(axis=-1) - 1 / wins.shape[-1]
    p, low, high = stats.equivalence(value, stats.share_se(wins), margin, level)
    return (float(value), p, low, high) if np.ndim(value) == 0 else (value, p, low, high)


def test_gaps(wins, margin: float, level: float):
    """(largest gap, p, reach): every pairwise gap between two teams' shares tested within ±margin at
    `level`, an intersection-union test: p is the largest of the pairs' p-values, reach the largest
    |bound| of their intervals (the test passes when reach < margin). wins: (3,) or (..., 3)."""
    wins = np.asarray(wins, np.float64)
    decided = wins.sum(axis=-1)
    s = wins / decided[..., None]
    worst_p = reach = largest = np.zeros(decided.shape)
    for i, j in ((0, 1), (0, 2), (1, 2)):
        d = s[..., i] - s[..., j]
        p, low, high = stats.equivalence(d, stats.gap_se(wins, i, j), margin, level)
        worst_p = np.maximum(worst_p, p)
        reach = np.maximum(reach, np.maximum(np.abs(low), np.abs(high)))
        largest = np.maximum(largest, np.abs(d))
    if np.ndim(decided) == 0:
        return float(largest), float(worst_p), float(reach)
    return largest, worst_p, reach


def power_advantage(share: float, fair: float, margin: float, level: float, decided: int) -> float:
    """The chance that the advantage test passes when team 0's true share is `share` (normal)."""
    se = math.sqrt(share * (1 - share) / decided)
    z = norm.isf(level)
    d = share - fair
    return float(max(0.0, norm.cdf((margin - d) / se - z) - norm.cdf((-margin - d) / se + z)))


def power_gaps(shares: tuple[float, ...], margin: float, level: float, seed: int, decided: int) -> float:
    """The chance that the gap test passes when the teams' true shares are `shares` (multinomial draws)."""
    rng = np.random.default_rng(seed)
    p = np.asarray(shares, np.float64) / np.sum(shares)
    draws = rng.multinomial(decided, p, size=POWER_DRAWS)
    return float(np.mean(test_gaps(draws, margin, level)[2] < margin))


def games_for_power(power_at, most: int) -> tuple[int, float]:
    """The fewest decided games (two significant figures) whose power reaches POWER, at most `most`:
    (games, power)."""
    low, high = 1_000, most
    if power_at(high) < POWER:
        return high, power_at(high)
    while high / low > 1.01:
        mid = int(math.sqrt(low * high))
        low, high = (mid, high) if power_at(mid) < POWER else (low, mid)
    n = round_games(high)
    return n, power_at(n)


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

    late = rules.cfg()[CFG_LATE : CFG_LATE + rules.players]
    return tuple(rules.hand_sizes[t] - (1 if late[t] > 0 else 0) for t in range(rules.teams))


def used_seeds(results: Path, besides: Path | None = None) -> set[int]:
    """Every seed a published study in `results` played (study.json: the study's and its configurations')."""

    seeds: set[int] = set()
    for path in results.glob("*/study.json"):
        if besides is not None and path.parent.resolve() == besides.resolve():
            continue
        record = json.loads(path.read_text(encoding="utf-8"))
        seeds.add(int(record["identity"]["seed"]))
        seeds.update(int(c["seed"]) for c in record.get("configurations", []) if c.get("seed") is not None)
    return seeds


def plan(card, results: Path, seed: int) -> dict:
    """The protocol of `card`, the rules card made from the studies in `results` (simkit.studies.rules_card.make_card):
    every verdict's games from the power calculation, and the informative estimates. Seeds: `seed` for the
    verdicts, seed + 1 for the estimates."""
    taken = used_seeds(results)
    for s in (seed, seed + 1):
        if s in taken:
            raise ProtocolError(f"seed {s} was played by a published study in {results}; choose another --seed")
    chosen = [(row, strength, rule) for row in card.rows for strength, rule in row.rules.items() if rule is not None]
    m = sum(len(hypotheses_of(row.teams)) for row, _, _ in chosen)
    level = alpha(m)
    verdicts, estimates = [], []
    for row, strength, rule in chosen:
        options = rule.rules.changed()
        fair = 1 / row.teams
        shares = _shares(results / rule.source / "verdicts.csv", rule)
        most = MAX_GAMES[strength]
        need = {"advantage": partial(power_advantage, shares[0], fair, MARGIN[strength], level)}
        if row.teams == 3:
            need["gap"] = partial(power_gaps, shares, GAP_MARGIN[strength], level, seed)
        sized = {h: games_for_power(f, int(most * DECIDED)) for h, f in need.items()}
        decided = max(n for n, _ in sized.values())
        games = min(round_games(math.ceil(decided / DECIDED)), most)
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
                **({"gap_margin": GAP_MARGIN[strength]} if row.teams == 3 else {}),
                "planned_at": {
                    "source": f"{rule.source}/verdicts.csv",
                    "games": rule.edge.games,
                    "advantage": round(shares[0] - fair, 6),
                    "shares": [round(s, 6) for s in shares],
                },
                "power": {h: round(f(int(games * DECIDED)), 3) for h, f in need.items()},
            }
        )
        lineups = ["random", "greedy", "swift"]
        if (row.players, row.teams) in LOOKAHEAD_TABLES:
            lineups.append("lookahead")
        for lineup in lineups:
            if lineup == LINEUP[strength]:
                continue  # the verdict itself
            estimates.append(
                {
                    "players": row.players,
                    "teams": row.teams,
                    "rule_of": strength,
                    "lineup": lineup,
                    "rule": flags_text(options),
                    "games": ESTIMATE_GAMES[lineup],
                    "seed": seed + 1,
                }
            )
        estimates.append(
            {
                "players": row.players,
                "teams": row.teams,
                "rule_of": strength,
                "lineup": LINEUP[strength],
                "rule": flags_text({"hand_size": short_all_game(rule.rules)}),
                "games": ESTIMATE_GAMES[LINEUP[strength]],
                "seed": seed + 1,
            }
        )
    return {
        "format": FORMAT,
        "about": "The confirmatory protocol of the rules card: declared and committed before its games "
        "(simkit.studies.confirmation says how it is made and decided).",
        "family_error": FAMILY_ERROR,
        "correction": "bonferroni",
        "hypotheses": m,
        "level": level,
        "power": POWER,
        "decided_share": DECIDED,
        "decision": (
            f"Each hypothesis passes when its (1 - 2 x {FAMILY_ERROR}/{m}) interval lies within its "
            "margin: team 0's advantage within ±margin; at three teams every pairwise gap within "
            "±gap_margin. A rule is fair when all its hypotheses pass. One look: the games are fixed, "
            "a verdict is never re-run, extended or swapped."
        ),
        "verdict": verdicts,
        "estimate": estimates,
    }


def _shares(path: Path, rule) -> tuple[float, ...]:
    """The teams' shares of the decided games that a published confirmation measured for `rule`."""
    frame = pd.read_csv(path, dtype={"setting": str})
    hit = frame[
        (frame.players == rule.rules.players)
        & (frame.teams == rule.rules.teams)
        & (frame.policies == rule.lineup)
        & (frame.family == rule.family)
        & (frame.setting == rule.setting)
    ]
    r = hit.iloc[0]
    return tuple(float(r[f"share_{t}"]) for t in range(rule.rules.teams))


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
    if protocol.get("format") != FORMAT:
        raise ProtocolError(f"{path} is not a {FORMAT} protocol (format {protocol.get('format')!r})")
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
    """Refuse a protocol that git does not hold as committed (when it lies in a git work tree)."""
    try:
        tracked = subprocess.run(
            ["git", "ls-files", "--error-unmatch", path.name], cwd=path.parent, capture_output=True, text=True
        )
        if tracked.returncode == 128 and "not a git repository" in tracked.stderr:
            return
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", path.name], cwd=path.parent, capture_output=True, text=True
        ).stdout.strip()
    except OSError:  # no git: nothing to check against
        return
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
            f"the protocol's seed {clash[0]} was played by a published study in {results}: "
            "a confirmation plays only games no study has seen"
        )


# --- the study ------------------------------------------------------------------------------


def study_of(protocol: dict) -> Study:
    """The study that plays `protocol`: its identity is the protocol's digest, so a protocol edited after
    its games were played is refused."""
    digest = hashlib.sha256(repr(sorted(protocol.items())).encode()).hexdigest()[:16]
    lineups: dict[str, int] = {}
    for e in entries(protocol):
        lineups[e.lineup] = max(lineups.get(e.lineup, 0), e.games)
    seed = int(protocol["verdict"][0]["seed"]) if protocol["verdict"] else 0
    return Study(KIND, {"protocol": digest, "_protocol": protocol}, lineups, seed)


def _config(e: Entry) -> Config:
    rules = e.rules()
    group = "verdict" if e.verdict else "estimate"
    facts = (("rule_of", e.rule_of), ("rule", flags_text(e.options)))
    return Config(rules, Lineup.parse(e.lineup, rules), e.games, group, e.label(), e.seed, facts)


def plan_configs(study: Study, results: Results) -> list[Config]:
    return [_config(e) for e in entries(study.options["_protocol"])]


def bite(rules: Rules, length: np.ndarray) -> tuple[float, float, float] | None:
    """How often a late card arrives: (share of games in which the first short seat's card arrives, the
    same for the last card to arrive, the median game length in the first player's own turns).
    None when no seat is dealt short. length: the histogram of game lengths in turns (Aggregate.length)."""

    late = [(seat, int(k)) for seat, k in enumerate(rules.cfg()[CFG_LATE : CFG_LATE + rules.players]) if k > 0]
    if not late:
        return None
    games = length.sum()
    turns = np.arange(len(length))

    def arrives(seat: int, k: int) -> float:  # drawn at the end of game turn (k-1) * players + seat + 1, if it goes on
        return float(length[turns > (k - 1) * rules.players + seat + 1].sum() / games)

    shares = sorted(arrives(s, k) for s, k in late)
    own = np.ceil(turns / rules.players)  # the first player's own turns in a game of t turns
    cum = np.cumsum(length)
    median_own = float(own[np.searchsorted(cum, games / 2)])
    return shares[-1], shares[0], median_own


def verdict_rows(configs: list[Config], results: Results, protocol: dict) -> pd.DataFrame:
    level = float(protocol["level"])
    rows = []
    for c, record in zip([c for c in configs if c.group == "verdict"], protocol["verdict"]):
        agg = results.complete(c)
        wins = agg.wins()[: c.rules.teams]
        strength = dict(c.facts)["rule_of"]
        adv, p_adv, low, high = test_advantage(wins, float(record["margin"]), level)
        row = {
            "players": c.rules.players,
            "teams": c.rules.teams,
            "strength": strength,
            "lineup": c.lineup.spec,
            "rule": dict(c.facts)["rule"],
            "games": agg.games,
            "seed": c.seed,
            "margin": record["margin"],
            "advantage": adv,
            "advantage_low": low,
            "advantage_high": high,
            "p_advantage": p_adv,
            "advantage_passes": bool(low > -record["margin"] and high < record["margin"]),
            "power_planned": record["power"]["advantage"],
        }
        ci = stats.advantage(wins)
        row.update({"advantage_95_low": ci.low, "advantage_95_high": ci.high})
        if c.rules.teams == 3:
            gap, p_gap, reach = test_gaps(wins, float(record["gap_margin"]), level)
            row.update(
                {
                    "gap_margin": record["gap_margin"],
                    "max_gap": gap,
                    "gap_reach": reach,
                    "p_gap": p_gap,
                    "gap_passes": bool(reach < record["gap_margin"]),
                    "gap_power_planned": record["power"]["gap"],
                }
            )
        row["fair"] = row["advantage_passes"] and row.get("gap_passes", True)
        row["level"] = level
        rows.append(row)
    return pd.DataFrame(rows)


def estimate_rows(configs: list[Config], results: Results) -> pd.DataFrame:
    rows = []
    for c in configs:
        agg = results.complete(c)
        wins = agg.wins()[: c.rules.teams]
        adv = stats.advantage(wins)
        gap = stats.max_gap(wins)
        facts = dict(c.facts)
        strong = MARGIN["strong"]
        rows.append(
            {
                "players": c.rules.players,
                "teams": c.rules.teams,
                "rule_of": facts["rule_of"],
                "rule": facts["rule"],
                "lineup": c.lineup.spec,
                "games": agg.games,
                "seed": c.seed,
                "verdict": c.group == "verdict",
                "advantage": adv.value,
                "advantage_low": adv.low,
                "advantage_high": adv.high,
                "max_gap": gap.value if c.rules.teams == 3 else math.nan,
                "max_gap_low": gap.low if c.rules.teams == 3 else math.nan,
                "max_gap_high": gap.high if c.rules.teams == 3 else math.nan,
                "inside_strong_band": bool(-strong < adv.low and adv.high < strong),
            }
        )
    return pd.DataFrame(rows)


def bite_rows(configs: list[Config], results: Results) -> pd.DataFrame:
    rows = []
    for c in configs:
        b = bite(c.rules, results.complete(c).length)
        if b is None:
            continue
        facts = dict(c.facts)
        rows.append(
            {
                "players": c.rules.players,
                "teams": c.rules.teams,
                "rule_of": facts["rule_of"],
                "rule": facts["rule"],
                "lineup": c.lineup.spec,
                "games": results.complete(c).games,
                "first_card_arrives": b[0],
                "last_card_arrives": b[1],
                "median_own_turns": b[2],
            }
        )
    return pd.DataFrame(rows)


def tables(study: Study, configs: list[Config], results: Results) -> Tables:

    protocol = study.options["_protocol"]
    verdicts = verdict_rows(configs, results, protocol)
    estimates = estimate_rows(configs, results)
    bites = bite_rows(configs, results)
    summary = summary_frame(configs, results)
    m, level = protocol["hypotheses"], float(protocol["level"])
    width = f"{100 * (1 - 2 * level):.2f}%"
    key = pd.DataFrame(
        [
            {
                "table": f"{r.players}p/{r.teams}t",
                "strength": f"{r.strength} ({r.lineup})",
                "rule": r.rule,
                "games": count(r.games),
                f"advantage [{width} CI]": pp(r.advantage, r.advantage_low, r.advantage_high, digits=2),
                "largest gap, widest bound": (
                    f"{100 * r.max_gap:.2f} pp, up to {100 * r.gap_reach:.2f}" if r.teams == 3 else "—"
                ),
                "margin": f"±{100 * r.margin:g} pp" + (f"; gaps ±{100 * r.gap_margin:g} pp" if r.teams == 3 else ""),
                "fair": "yes" if r.fair else "no",
            }
            for r in verdicts.itertuples()
        ]
    )
    matrix = pd.DataFrame(
        [
            {
                "table": f"{r.players}p/{r.teams}t",
                "rule of": f"{r.rule_of} ({r.rule})",
                "played by": r.lineup,
                "games": count(r.games),
                "advantage [95% CI]": pp(r.advantage, r.advantage_low, r.advantage_high, digits=2),
                "largest gap [95% CI]": pp(r.max_gap, r.max_gap_low, r.max_gap_high, digits=2) if r.teams == 3 else "—",
            }
            for r in estimates.itertuples()
        ]
    )
    bite_table = pd.DataFrame(
        [
            {
                "table": f"{r.players}p/{r.teams}t",
                "rule": f"{r.rule_of}: {r.rule}",
                "played by": r.lineup,
                "first card arrives": pct(r.first_card_arrives),
                "last card arrives": pct(r.last_card_arrives),
                "median game, first player's own turns": f"{r.median_own_turns:.0f}",
            }
            for r in bites.itertuples()
        ]
    )

    fair_n = int(verdicts.fair.sum()) if len(verdicts) else 0
    sections = [
        f"{fair_n} of {len(verdicts)} rules pass. The family: {m} hypotheses (each table's advantage for casual "
        f"and strong play, and at three-team tables the pairwise gaps), family-wise error {FAMILY_ERROR:.0%} "
        f"by Bonferroni: each interval above is the {width} interval (two one-sided tests at "
        f"{level:.5f} each).\n",
        "## Every strength on every rule (estimates, not part of the family)\n",
        markdown_table(list(matrix.columns), matrix.astype(str).itertuples(index=False)) if len(matrix) else "",
        "## The late card's bite\n",
        "How often the compensating card arrives before the game ends, per rule and line-up: for the first "
        "short seat to get it and for the last; and the median game's length in the first player's own "
        "turns.\n",
        markdown_table(list(bite_table.columns), bite_table.astype(str).itertuples(index=False))
        if len(bite_table)
        else "",
    ]
    notes = [
        f"The protocol (`{PROTOCOL_FILE}`) was committed before these games; its verdicts are final.",
        "`advantage` is team 0's share of the decided games minus its fair share; the gaps are the "
        "differences of two teams' shares; their tests are normal (multinomial variances).",
    ]
    return Tables(
        summary,
        extra={"verdicts": verdicts, "estimates": estimates, "bite": bites},
        key=key,
        sections=sections,
        notes=notes,
    )


def figures(t: Tables) -> dict:

    return {"confirmation.png": plots.confirmation(t.extra["verdicts"])}


KIND = StudyKind(
    "confirmation",
    "Are the rules card's rules fair, decided by a protocol declared before its games?",
    "the card's rules confirmed under a protocol committed before its games",
    plan_configs,
    tables,
    figures,
    default_policies=("greedy", "swift"),
    tables_text=lambda: "the tables of its protocol",
    inputs=(PROTOCOL_FILE,),
)
