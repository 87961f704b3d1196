"""pooled: the published confirmations read together, from their files (no game played).

The same 20 rules were confirmed twice (results/confirmation, then
results/confirmation-2). Each confirmation holds its own family-wise error;
the docs count both and declare, before it was computed, an analysis of both
confirmations together (docs/guide/fair-sequence.md, 'Two attempts at one question'):

- each verdict's games won per team in every confirmation, added
  (``confirmation_protocol.published_wins``: a confirmation's summary.csv
  shares of the decided games times its decided games, rounded to whole
  games);
- the newest protocol's tests on the sums, unchanged
  (``simkit.studies.confirmation_protocol.decide``): per rule the
  intersection-union test within the margins, Holm's step-down over the rules.

It is evidence beside the verdicts, not a verdict: it was chosen once both
verdicts were known, and the second's games were sized from the first's
estimates, so its p-values carry no error level of their own. ``simkit card``
writes it beside the card (POOLED_FILE) and says it in one sentence.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from simkit.studies.confirmation_protocol import FORMAT_1, PROTOCOL_FILE, decide, published_wins, read_protocol

POOLED_FILE = "fair-sequence-pooled.csv"


def pooled(results: Path, folders: tuple[str, ...]) -> pd.DataFrame | None:
    """The analysis of the confirmations `folders` of `results` together, under the newest one's protocol:
    a row per rule (players, teams, strength, lineup, rule, the decided games of each confirmation and in
    all, team 0's advantage and at three teams the largest gap with their intervals at the protocol's level,
    p_rule, p_holm, fair). None unless there are two confirmations or more, the newest of them decided by
    Holm (a format-2 protocol)."""
    done = [name for name in folders if (results / name / "summary.csv").exists()]
    if len(done) < 2:
        return None
    protocol = read_protocol(results / done[-1] / PROTOCOL_FILE)
    if protocol["format"] == FORMAT_1:
        return None
    each = {name: published_wins(results / name) for name in done}
    keys = [(int(v["players"]), int(v["teams"]), str(v["lineup"])) for v in protocol["verdict"]]
    missing = [(name, k) for name in done for k in keys if k not in each[name]]
    if missing:
        name, (players, teams, lineup) = missing[0]
        raise ValueError(f"results/{name} has no {lineup} verdict at {players}p/{teams}t to pool")
    wins = [sum(each[name][k] for name in done) for k in keys]
    rows = []
    for v, key, w, tested in zip(protocol["verdict"], keys, wins, decide(wins, protocol)):
        row = {
            "players": key[0],
            "teams": key[1],
            "strength": v["strength"],
            "lineup": key[2],
            "rule": v["rule"],
            **{f"decided_{name}": int(each[name][key].sum()) for name in done},
            "decided": int(np.sum(w)),
            "margin": v["margin"],
            "level": float(protocol["level"]),
            **{k: float(tested[k]) for k in ("advantage", "advantage_low", "advantage_high")},
        }
        if key[1] == 3:
            row.update(
                {"gap_margin": v["gap_margin"], **{k: float(tested[k]) for k in ("max_gap", "gap_low", "gap_reach")}}
            )
        row.update({"p_rule": float(tested["p_rule"]), "p_holm": float(tested["p_holm"]), "fair": bool(tested["fair"])})
        rows.append(row)
    return pd.DataFrame(rows)
