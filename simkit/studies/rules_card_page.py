"""The fair-Sequence rules card on one printable A4 page (PNG and PDF), and the card's files written
together: write(results, out) gives fair-sequence-card.md, .png and .pdf (and the pooled tests' table).

    write(Path("results"), Path("results"))
"""

from __future__ import annotations

from pathlib import Path

from simkit.files.atomic import replacing
from simkit.presentation.page import A4, Page
from simkit.studies.pooled import POOLED_FILE
from simkit.studies.rules_card import CARD, LINEUPS, Card, CardError, make_card
from simkit.studies.rules_card_text import cells, coverage, footer, intro, markdown

PAGE = A4  # portrait, inches
MARGIN = 0.4
PAD = 0.05  # inches between a cell's edge and its text
COLUMNS = (
    ("table", 0.85),
    (f"casual play ({LINEUPS['casual']} players)", 2.8),
    (f"strong play ({LINEUPS['strong']} players)", 2.8),
    ("edge without a rule (95%)", 1.02),
)  # heading, width in inches
FONT = 7.5  # points: the table's text, and the intro's a little larger
SMALLEST = 6.5  # points: the smallest the table's text may be made to fit the page
LEAD = 1.3  # line height, in font sizes
FIT = 0.94  # the share of a width that measured text may fill (the saved page renders it a little wider)
INK = {"rule": "black", "edge": "#1f4e79", "note": "0.35"}


def figure(card: Card):
    """The card on one A4 page (a matplotlib Figure): its title, what fair means, one row per table with
    each rule in words and the edge it leaves, and the edge without a rule. The table's type is FONT
    points, smaller (down to SMALLEST) while the card would run past the page; CardError below that."""
    size = FONT
    while True:
        page, end = _laid_out(card, size)
        if end <= PAGE[1] - MARGIN:
            return page.fig
        if size - 0.25 < SMALLEST:
            raise CardError(
                f"the card is {end - PAGE[1] + MARGIN:.2f} in longer than one A4 page at {size:g} "
                "points: shorten its text"
            )
        size -= 0.25


def _laid_out(card: Card, size: float) -> tuple[Page, float]:
    """The card laid out with the table's text at `size` points; the page and where the text ends (inches)."""
    page = Page(PAGE, lead=LEAD, fit=FIT, font=FONT)
    line = size * LEAD / 72
    full = PAGE[0] - 2 * MARGIN
    y = MARGIN
    y += page.put(MARGIN, y, ["A fair Sequence: the rules card"], size=18, weight="bold") + 0.08
    for paragraph in intro(card):
        y += page.put(MARGIN, y, page.wrap(paragraph, full, size + 0.3), size=size + 0.3) + 0.05
    y += 0.08
    xs = [MARGIN]
    for _, w in COLUMNS:
        xs.append(xs[-1] + w)
    head = size + 0.7
    y += (
        max(
            page.put(x + PAD, y, page.wrap(name, w - 2 * PAD, head, "bold"), size=head, weight="bold")
            for (name, w), x in zip(COLUMNS, xs)
        )
        + 0.03
    )
    page.rule(xs[0], xs[-1], y, width=0.9)
    for row in card.rows:
        y += PAD
        heights = [
            page.put(xs[0] + PAD, y, [f"{row.players} players", f"{row.teams} teams"], size, weight="bold")
            + page.put(xs[0] + PAD, y + 2 * line, [row.usual], size, color=INK["note"])
        ]
        for i, column in enumerate(LINEUPS, start=1):
            words, edge, _ = cells(row, column)
            inner = COLUMNS[i][1] - 2 * PAD
            h = page.put(xs[i] + PAD, y, page.wrap(words, inner, size), size, color=INK["rule"])
            if edge:
                said = f"edge left ({coverage(card)}): {edge}"
                h += page.put(xs[i] + PAD, y + h, page.wrap(said, inner, size), size, color=INK["edge"])
            heights.append(h)
        inner = COLUMNS[3][1] - 2 * PAD
        without = [f"{column}: {row.edge_without(column)}" for column in LINEUPS]
        heights.append(
            page.put(xs[3] + PAD, y, [w for t in without for w in page.wrap(t, inner, size)], size, color=INK["note"])
        )
        y += max(heights) + PAD
        page.rule(xs[0], xs[-1], y, colour="0.7")
    y += 0.1
    said = footer(card).replace("`", "") + f" The simkit options of each rule are in {CARD}.md."
    y += page.put(MARGIN, y, page.wrap(said, full, 6.5), size=6.5, color=INK["note"])
    return page, y


def write(results: Path, out: Path) -> list[Path]:
    """Make the card from the studies in `results`; write its markdown, PNG and PDF into `out`."""

    card = make_card(Path(results))
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / f"{CARD}.md", out / f"{CARD}.png", out / f"{CARD}.pdf"]
    with replacing(paths[0]) as tmp:
        tmp.write_text(markdown(card), encoding="utf-8")
    if card.family is not None and card.family.pooled is not None:
        paths.append(out / POOLED_FILE)
        with replacing(paths[-1]) as tmp:
            card.family.pooled.to_csv(tmp, index=False, float_format="%.6g")
    fig = figure(card)
    with replacing(paths[1]) as tmp:
        fig.savefig(tmp, format="png", dpi=150, metadata={"Software": None})
    with replacing(paths[2]) as tmp:
        fig.savefig(tmp, format="pdf", metadata={"Creator": None, "Producer": None, "CreationDate": None})
    return paths


__all__ = ["figure", "write"]
