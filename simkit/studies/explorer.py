"""The explorer: every published study's rows in one page that opens from a file.

``explorer_data`` reads each study of results/ (its study.json and the tables its kind writes) into
rows: a table, a line-up, a change, the games, each measure with its interval and Holm-adjusted p-value,
a verdict where the study has one, the study's commands that play it and, for a row that is one
configuration, the ``simkit run`` command that plays exactly its games. ``explorer_html`` is the page's
body: the data as JSON, the chart's Vega-Lite spec (made with Altair), the vega-embed bundle and the
page's own script, all inline, so nothing is fetched. The documentation site builds it into
explorer.html (docs/gen_pages.py); its state is in the address's hash (#study=hand-size&table=8p2t&...).
"""

from __future__ import annotations

import json
import math
import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from simkit.game import defaults
from simkit.running import dataset as ds
from simkit.running.reading import run_command
from simkit.studies.directory import STUDY_FILE, config_from_json, policies_named
from simkit.studies.registry import KINDS
from simkit.studies.summary import HEADLINE_LEVEL, table_id

MARKER = "<!-- the explorer -->"
"""Where docs/explorer.md has the explorer put when the site is built."""

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "explorer.js"
STYLE = HERE / "explorer.css"


@dataclass(frozen=True)
class Measure:
    """One estimate of a row: its value column, the interval's columns (VALUE_low, VALUE_high unless named),
    its unit ('pp' and '%' shown times 100), the column of its Holm-adjusted p-value, if any, and whether it is
    shown with its sign (a difference, an edge) or without (a rate, a length)."""

    name: str
    column: str
    unit: str = "pp"
    holm: str = ""
    low: str = ""
    high: str = ""
    signed: bool = True

    def values(self, row: pd.Series) -> list:
        """[value, low, high, p (Holm) or None], in the unit shown."""
        scale = 100 if self.unit in ("pp", "%") else 1
        cells = [
            row.get(c) for c in (self.column, self.low or f"{self.column}_low", self.high or f"{self.column}_high")
        ]
        return [_number(v, scale) for v in cells] + [_number(row.get(self.holm)) if self.holm else None]


ADVANTAGE = Measure("team 0's advantage, decided games", "advantage", holm="p_holm")
SUMMARY = (
    ADVANTAGE,
    Measure("relative advantage", "relative_advantage", "%"),
    Measure("stalemates and games at the turn cap", "drawishness", signed=False),
    Measure("mean game length", "duration", "turns", signed=False),
    Measure("comebacks: decided games with a first sequence its team lost", "comebacks", "%", signed=False),
    Measure("turns after the first sequence", "closing_turns", "turns", signed=False),
    Measure("lead changes per game", "lead_changes", "per game", signed=False),
)


@dataclass(frozen=True)
class Source:
    """A table of a study's directory as the explorer's rows. `change` and `lineup`: format strings over the
    file's columns, an empty cell '' (`change` may be a function of the cells instead); `verdict`: a yes-or-no
    column; `level`: the column of the one-sided error that sets the intervals (confidence 1 - 2 x level), else
    95%; `one_run`: whether a row is one configuration's games (a shift compares two); `rows`: the rows with
    that value in that column (a file whose rows differ in unit, one source each)."""

    file: str
    title: str
    change: str | Callable[[dict[str, str]], str]
    measures: tuple[Measure, ...]
    lineup: str = "{policies}"
    verdict: str = ""
    level: str = ""
    one_run: bool = True
    rows: tuple[str, str] | None = None  # (column, value): the file's rows this source shows, else all


CONFIGURATIONS = "configurations"
"""The title of summary.csv's rows, one a configuration: those a ``simkit run`` command plays alone."""

SOURCES: dict[str, tuple[Source, ...]] = {
    "first-player": (Source("summary.csv", CONFIGURATIONS, "{label}", SUMMARY),),
    "hand-size": (
        Source("summary.csv", CONFIGURATIONS, "{label}", SUMMARY),
        Source(
            "shifts.csv",
            "shifts from the even game",
            "{label}",
            (Measure("shift of team 0's advantage", "shift", holm="p_holm"),),
            one_run=False,
        ),
    ),
    "teams": (
        Source("summary.csv", CONFIGURATIONS, "{label}", SUMMARY),
        Source(
            "shifts.csv", "shifts", "{change} ({measure})", (Measure("shift", "shift", holm="p_holm"),), one_run=False
        ),
    ),
    "variants": (
        Source("summary.csv", CONFIGURATIONS, "{label}", SUMMARY),
        Source(
            "shifts.csv",
            "shifts from the standard game",
            "{variant}",
            (
                Measure("shift of team 0's advantage", "advantage_shift", holm="advantage_shift_p_holm"),
                Measure("shift of the mean game length", "turns_shift", "turns", holm="turns_shift_p_holm"),
                Measure("shift of the stalemates", "stalemate_shift", holm="stalemate_shift_p_holm"),
            ),
            one_run=False,
        ),
    ),
    "skill": (
        Source("summary.csv", CONFIGURATIONS, "{label}", SUMMARY),
        Source(
            "pairs.csv",
            "pairs",
            "{a} against {b}",
            (Measure("the first named's score", "a_score", "%", signed=False),),
            "{a},{b}",
        ),
        Source(
            "ratings.csv",
            "ratings",
            "rating",
            (Measure("rating (Elo points)", "rating", "Elo"),),
            "{policy}",
            one_run=False,
        ),
    ),
    "restricted": (
        Source(
            "summary.csv",
            CONFIGURATIONS,
            lambda c: c["label"] + (f" (team {c['restricted_team']})" if c["restricted_team"] != "-1" else ""),
            SUMMARY,
            "{player}",
        ),
        Source(
            "worths.csv",
            "worths",
            "{change}",
            (Measure("shift of the restricted team's share of the decided games", "shift", holm="p_holm"),),
            one_run=False,
        ),
        Source(
            "seats.csv",
            "each team restricted",
            "{change}, team {restricted_team} restricted",
            (Measure("shift of the restricted team's share of the decided games", "shift"),),
            one_run=False,
        ),
    ),
    "layouts": (
        Source("summary.csv", CONFIGURATIONS, "{label}", SUMMARY),
        *(
            Source(
                "spreads.csv",
                f"between layouts: {what}",
                "the official board among the random layouts",
                (
                    Measure("the official board", "official", unit, signed=unit == "pp"),
                    Measure("sd between the random layouts", "tau", unit, holm="p_holm", signed=False),
                    Measure("official minus the random layouts' mean", "official_minus_random", unit),
                ),
                one_run=False,
                rows=("measure", measure),
            )
            for measure, what, unit in (
                ("edge", "team 0's advantage", "pp"),
                ("turns", "game length", "turns"),
                ("stalemates", "stalemates", "pp"),
            )
        ),
    ),
    "compensation": (
        Source("summary.csv", CONFIGURATIONS, "{label} ({role}, seed {seed})", SUMMARY),
        Source(
            "verdicts.csv",
            "answers",
            "{family}: the answer {setting}",
            (ADVANTAGE, Measure("largest gap between two teams", "max_gap", signed=False)),
            verdict="fair",
        ),
        Source(
            "checks.csv",
            "checks by another player",
            "{family} {setting}, found by {found_by}",
            (ADVANTAGE, Measure("largest gap between two teams", "max_gap", signed=False)),
            "{checked_by}",
            verdict="holds",
        ),
    ),
    "confirmation": (
        Source(
            "summary.csv",
            CONFIGURATIONS,
            lambda c: (f"{c['rule_of']} rule {c['rule']}" if c["rule"] else "no rule") + f" ({c['study_group']})",
            SUMMARY,
        ),
        Source(
            "verdicts.csv",
            "verdicts",
            "{strength} rule {rule}",
            (ADVANTAGE,),
            "{lineup}",
            verdict="fair",
            level="level",
        ),
    ),
}
"""The tables each kind of study writes, as the explorer shows them (summary.csv first)."""

# summary.csv's column of a configuration's field, where they differ; facts are columns of their own name
CONFIG_COLUMNS = {"group": "study_group", "lineup": "policies"}


def _number(value: Any, scale: float = 1) -> float | None:
    """A CSV cell as a JSON number (None when empty), to 6 significant figures."""
    try:
        x = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(x) else float(f"{x * scale:.6g}")


def _text(value: Any) -> str:
    """A cell as text to match on and show: whole numbers without '.0', an empty cell ''."""
    if isinstance(value, float):
        return "" if math.isnan(value) else str(int(value)) if value.is_integer() else str(value)
    return str(value)


@dataclass
class StudyPage:
    """One study's part of the explorer."""

    name: str
    title: str
    commands: list[str]
    sources: list[dict] = field(default_factory=list)
    rows: list[dict] = field(default_factory=list)

    def as_json(self) -> dict:
        return {"name": self.name, "title": self.title, "commands": self.commands, "sources": self.sources,
                "rows": self.rows}  # fmt: skip


def study_folders(results: Path) -> list[Path]:
    """The published studies (folders of `results` with a study.json), in the order of the study kinds."""
    order = {name: i for i, name in enumerate(KINDS)}
    found = [p.parent for p in results.glob(f"*/{STUDY_FILE}")]
    return sorted(found, key=lambda d: (order.get(_kind(d), len(order)), d.name))


def _kind(folder: Path) -> str:
    return json.loads((folder / STUDY_FILE).read_text(encoding="utf-8"))["identity"]["study"]


def _title(folder: Path) -> str:
    """The study's question: summary.md's title."""
    first = (folder / "summary.md").read_text(encoding="utf-8").splitlines()[0]
    return first.lstrip("# ").strip()


def run_commands(study: dict) -> dict[str, list[tuple[dict[str, str], str]]]:
    """The configurations of a study.json by line-up: (their fields as summary.csv names and writes them, the
    `simkit run` command that plays their games alone). simkit.running.reading.run_command checks that the
    command makes the run id the study recorded; a configuration it cannot remake has no command."""
    seed = study["identity"]["seed"]
    out: dict[str, list[tuple[dict[str, str], str]]] = {}
    for record in study["configurations"]:
        config = config_from_json(record)
        identity = ds.identity_of(config.rules, config.lineup, config.seed_of(seed))
        manifest = {"identity": identity, "games": config.games, "run_id": record["run_id"]}
        command, _ = run_command(manifest, Path(defaults.WORKSPACE) / record["folder"])
        if command is not None:
            fields = {
                "group": record["group"],
                "label": record["label"],
                "players": record["rules"]["players"],
                "teams": record["rules"]["teams"],
                "games": record["games"],
                "seed": config.seed_of(seed),
                **record["facts"],
            }
            named = {CONFIG_COLUMNS.get(k, k): _text(v) for k, v in fields.items()}
            out.setdefault(record["lineup"], []).append((named, command))
    return out


def _command_for(cells: dict[str, Any], runs: dict[str, list[tuple[dict[str, str], str]]]) -> str | None:
    """The run command of the one configuration of the row's line-up whose fields match the row's cells."""
    found = [
        command
        for fields, command in runs.get(cells["policies"], [])
        if all(_text(cells[k]) == v for k, v in fields.items() if k in cells)
    ]
    return found[0] if len(found) == 1 else None


@dataclass(frozen=True)
class Plays:
    """What a recorded command plays: the players of its line-ups (None: every row, as `simkit confirm`) and
    the options it narrows the study with (--players, --teams, --family)."""

    players: frozenset[str] | None
    given: dict[str, str]

    @classmethod
    def of(cls, command: str, kind: str) -> Plays:
        """A `simkit study` command plays the line-ups it names with --policy (else its kind's) and --check."""
        words = shlex.split(command)
        if words[:2] != ["simkit", "study"]:
            return cls(None, {})
        given = {words[j]: words[j + 1] for j in range(len(words) - 1) if words[j].startswith("--")}
        named = {w for spec in policies_named(command, KINDS[kind]) for w in spec.split(",")}
        named |= {given["--check"]} if "--check" in given else set()  # the player that replays the answers
        return cls(frozenset(named), given)

    def play(self, row: dict[str, Any]) -> bool:
        """Whether the command plays a row (its lineup, players, teams and family, where it has them)."""
        if self.players is None:
            return True
        return set(row["lineup"].split(",")) <= self.players and all(
            self.given.get(f"--{k}") in (None, _text(row[k])) for k in ("players", "teams", "family") if k in row
        )


def study_page(folder: Path) -> StudyPage:
    """A published study (its folder of results/) as the explorer shows it."""
    study = json.loads((folder / STUDY_FILE).read_text(encoding="utf-8"))
    kind = study["identity"]["study"]
    page = StudyPage(folder.name, _title(folder), list(study["commands"]))
    runs = run_commands(study)
    plays = [Plays.of(c, kind) for c in page.commands]
    summary = pd.read_csv(folder / "summary.csv")
    tables = sorted({(int(p), int(t)) for p, t in zip(summary["players"], summary["teams"])})
    for s, source in enumerate(src for src in SOURCES[kind] if (folder / src.file).exists()):
        frame = summary if source.file == "summary.csv" else pd.read_csv(folder / source.file)
        if source.rows is not None:
            frame = frame[frame[source.rows[0]].astype(str) == source.rows[1]]
        shown = [m for m in source.measures if m.column in frame.columns]  # a table older than a measure lacks it
        measures = [[m.name, m.unit, m.signed] for m in shown]
        page.sources.append(
            {"file": source.file, "title": source.title, "measures": measures, "verdict": source.verdict}
        )
        for _, row in frame.iterrows():
            texts = {k: _text(v) for k, v in row.items()}
            cells = {**row.to_dict(), "policies": source.lineup.format(**texts)}
            players, teams = (int(row["players"]), int(row["teams"])) if "players" in row else tables[0]
            level = float(row[source.level]) if source.level else 0.025
            entry = {
                "table": table_id(players, teams),
                "lineup": cells["policies"],
                "source": s,
                "change": source.change(texts) if callable(source.change) else source.change.format(**texts),
                "games": int(row["games"]) if "games" in row and pd.notna(row["games"]) else None,
                "measures": [m.values(row) for m in shown],
                "confidence": float(f"{100 * (1 - 2 * level):.4g}"),
            }
            if source.verdict:
                entry["verdict"] = bool(row[source.verdict])
            where = {**cells, "lineup": entry["lineup"], "players": players, "teams": teams}
            entry["commands"] = [i for i, p in enumerate(plays) if p.play(where)]
            played = {**cells, "policies": texts.get("policies", cells["policies"])}  # the line-up that played it
            run = _command_for(played, runs) if source.one_run else None
            if run is not None:
                entry["run"] = run
            page.rows.append(entry)
    return page


def explorer_data(results: Path) -> dict:
    """Every published study of `results` for the explorer, with the Holm level its statuses are read at."""
    return {
        "holm_level": HEADLINE_LEVEL,
        "studies": [study_page(folder).as_json() for folder in study_folders(results)],
    }


def chart_spec() -> dict:
    """The Vega-Lite spec of the chart: each change at the chosen table and line-up, its estimate and interval
    (data set 'rows': change, value, low, high, chosen), the chosen change marked."""
    import altair as alt

    base = alt.Chart(alt.NamedData("rows")).encode(
        y=alt.Y("change:N", sort=None, title=None, axis=alt.Axis(labelLimit=360))
    )
    colour = alt.condition("datum.chosen", alt.value("#c2185b"), alt.value("#3f51b5"))
    interval = base.mark_rule(strokeWidth=2).encode(
        x=alt.X("low:Q", title="estimate and its interval", scale=alt.Scale(zero=False)), x2="high:Q", color=colour
    )
    tooltip = [alt.Tooltip("change:N"), alt.Tooltip("value:Q"), alt.Tooltip("low:Q"), alt.Tooltip("high:Q")]
    point = base.mark_point(filled=True, size=60).encode(x="value:Q", color=colour, tooltip=tooltip)
    zero = alt.Chart(alt.NamedData("zero")).mark_rule(strokeDash=[4, 3], color="#777").encode(x="x:Q")
    chart = (zero + interval + point).properties(width="container", height=alt.Step(18))
    return chart.properties(autosize=alt.AutoSizeParams(type="fit-x", contains="padding")).to_dict()


def javascript_bundle() -> str:
    """vega, vega-lite and vega-embed in one script (vl-convert's bundle, the one Altair inlines)."""
    import vl_convert
    from altair.utils._importers import vl_version_for_vl_convert

    bundle: Callable[..., str] = vl_convert.javascript_bundle  # its stub omits the default snippet (the globals)
    return bundle(vl_version=vl_version_for_vl_convert())


def _json(value: Any) -> str:
    """JSON that may sit inside a <script> element: every '<' escaped, so none closes it early."""
    return json.dumps(value).replace("<", "\\u003c")


def _script(text: str) -> str:
    """A script to inline, checked: a '</script' or '<!--' in it would end or change its <script> element."""
    if re.search(r"(?i)</script|<!--", text):
        raise ValueError("a script to inline holds '</script' or '<!--'")
    return f"<script>{text}</script>"


def explorer_html(results: Path, summaries: str = "results") -> str:
    """The explorer's HTML: its controls, the data, the chart's spec, the vega-embed bundle and its script,
    all inline. summaries: where the study folders' summary pages are, from the page."""
    data = explorer_data(results)
    data["summaries"] = summaries
    return "\n".join(
        [
            f"<style>{STYLE.read_text(encoding='utf-8')}</style>",
            '<div id="explorer-app" class="simkit-explorer"><noscript>The explorer needs JavaScript.</noscript></div>',
            f'<script id="explorer-data" type="application/json">{_json(data)}</script>',
            f'<script id="explorer-chart" type="application/json">{_json(chart_spec())}</script>',
            _script(javascript_bundle()),
            _script(SCRIPT.read_text(encoding="utf-8")),
        ]
    )
