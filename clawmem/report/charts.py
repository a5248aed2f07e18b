"""Small inline SVG line charts for the report: no script, no external asset, readable as text.

Labels come from clawmem (dates, numbers, captions it wrote), and are escaped all the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

WIDTH, HEIGHT = 560, 170
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 22, 28


def _number(value: float, percent: bool) -> str:
    if percent:
        return f"{value * 100:.0f}%"
    if value >= 10_000:
        return f"{value / 1000:.0f}k"
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.2f}"


def _x_labels(first: str, last: str) -> str:
    """The first and last point's labels under the axis; one, centred, when they are the same."""
    if first == last:
        return f'<text x="{LEFT + (WIDTH - LEFT - RIGHT) / 2}" y="{HEIGHT - 8}" text-anchor="middle">{escape(first)}</text>'
    return (f'<text x="{LEFT}" y="{HEIGHT - 8}">{escape(first)}</text>'
            f'<text x="{WIDTH - RIGHT}" y="{HEIGHT - 8}" text-anchor="end">{escape(last)}</text>')


def line_chart(points: Sequence[tuple[str, float]], *, title: str, percent: bool = False) -> str:
    """An SVG line chart of ``(label, value)`` points in order; a short note when there are none."""
    if not points:
        return f'<p class="empty">{escape(title)}: no data yet.</p>'
    values = [float(v) for _, v in points]
    top = 1.0 if percent else max(max(values), 1.0)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def xy(i: int, v: float) -> tuple[float, float]:
        x = LEFT + (plot_w * i / (len(points) - 1) if len(points) > 1 else plot_w / 2)
        return round(x, 1), round(TOP + plot_h * (1 - v / top), 1)

    coords = [xy(i, v) for i, v in enumerate(values)]
    path = " ".join(f"{x},{y}" for x, y in coords)
    dots = "".join(
        f'<circle cx="{x}" cy="{y}" r="2.5"><title>{escape(label)}: {escape(_number(v, percent))}</title></circle>'
        for (x, y), (label, v) in zip(coords, zip((p[0] for p in points), values, strict=True), strict=True)
    )
    base = TOP + plot_h
    return (
        f'<figure class="chart"><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(title)}"><title>{escape(title)}</title>'
        f'<line class="axis" x1="{LEFT}" y1="{base}" x2="{WIDTH - RIGHT}" y2="{base}"/>'
        f'<line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{base}"/>'
        f'<text x="{LEFT - 6}" y="{TOP + 4}" text-anchor="end">{escape(_number(top, percent))}</text>'
        f'<text x="{LEFT - 6}" y="{base}" text-anchor="end">{escape(_number(0, percent))}</text>'
        + _x_labels(points[0][0], points[-1][0]) +
        f'<polyline points="{path}"/>{dots}</svg>'
        f"<figcaption>{escape(title)} (last: {escape(_number(values[-1], percent))})</figcaption></figure>"
    )
