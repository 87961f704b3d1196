"""A printable page: text and rules placed in inches from the top left of a matplotlib Figure, wrapped by measuring.

No typesetting library: one layout is saved as both PNG and PDF, which matplotlib (simkit's plotting library)
renders alike; reportlab writes PDF but no PNG, and WeasyPrint needs HTML, Pango and a rasteriser for the PNG.

    page = Page()
    y = page.put(0.5, 0.5, page.wrap(text, 7.27), size=7.5)  # inches down the page the text took
    page.fig.savefig("card.pdf")
"""

from __future__ import annotations

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.lines import Line2D

A4 = (8.27, 11.69)  # portrait, inches


class Page:
    """Text on a page-sized figure, placed in inches from the top left and wrapped to a width by measuring it.

    size: (width, height) in inches. lead: line height, in font sizes. fit: the share of a width that
    measured text may fill (the saved page renders it a little wider). font: the text's size in points.
    """

    def __init__(self, size: tuple[float, float] = A4, lead: float = 1.3, fit: float = 0.94, font: float = 7.5):
        self.size, self.lead, self.fit, self.font = size, lead, fit, font
        self.fig = Figure(figsize=size)
        self.renderer = FigureCanvasAgg(self.fig).get_renderer()

    def width(self, text: str, size: float, weight: str = "normal") -> float:
        """The width of `text` set at `size` points, in inches."""
        w, _, _ = self.renderer.get_text_width_height_descent(text, FontProperties(size=size, weight=weight), False)
        return w / self.fig.dpi

    def wrap(self, text: str, width: float, size: float | None = None, weight: str = "normal") -> list[str]:
        """`text` broken into lines that fit `width` inches at `size` points (default: the page's font)."""
        size = self.font if size is None else size
        lines: list[str] = []
        for word in text.split():
            if lines and self.width(lines[-1] + " " + word, size, weight) <= self.fit * width:
                lines[-1] += " " + word
            else:
                lines.append(word)
        return lines

    def put(self, x: float, y: float, lines: list[str], size: float | None = None, **style) -> float:
        """Write lines at (x, y) inches from the top left; the height they take, in inches."""
        size = self.font if size is None else size
        if lines:
            self.fig.text(
                x / self.size[0],
                1 - y / self.size[1],
                "\n".join(lines),
                va="top",
                ha="left",
                fontsize=size,
                linespacing=self.lead,
                **style,
            )
        return len(lines) * size * self.lead / 72

    def rule(self, x0: float, x1: float, y: float, colour: str = "0.2", width: float = 0.6) -> None:
        """A horizontal line from x0 to x1 inches, y inches from the top; `width` in points."""
        self.fig.add_artist(
            Line2D(
                [x0 / self.size[0], x1 / self.size[0]],
                [1 - y / self.size[1]] * 2,
                transform=self.fig.transFigure,
                color=colour,
                linewidth=width,
            )
        )
