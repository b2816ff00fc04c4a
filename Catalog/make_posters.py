#!/usr/bin/env python3
"""Generates one poster per movie of the catalog as a 2:3 SVG.

Usage: python3 Catalog/make_posters.py [CATALOG] [OUTPUT_DIR]
Defaults: Catalog/movies.json and Public/posters/, relative to the repository root.

The output depends only on the catalog (no randomness, no clock), so running it twice gives
identical files and the committed posters can be checked against a fresh run.
"""

import colorsys
import json
import sys
from pathlib import Path
from xml.sax.saxutils import escape

WIDTH, HEIGHT = 400, 600
GOLDEN_ANGLE = 137.508


def colour(hue, saturation, lightness):
    red, green, blue = colorsys.hls_to_rgb((hue % 360) / 360, lightness, saturation)
    return "#{:02x}{:02x}{:02x}".format(round(red * 255), round(green * 255), round(blue * 255))


def wrap(title, width=14):
    """Breaks a title into lines of about `width` characters, at spaces."""
    lines, line = [], ""
    for word in title.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    if line:
        lines.append(line)
    return lines


def motif(movie_id, accent, light):
    """One of six geometric motifs, varied by the id so neighbouring posters differ."""
    kind = movie_id % 6
    step = movie_id * 7 % 40
    if kind == 0:
        return "\n".join(
            f'  <circle cx="200" cy="250" r="{150 - index * 28}" fill="none" stroke="{accent if index % 2 else light}" stroke-width="10"/>'
            for index in range(5)
        )
    if kind == 1:
        return "\n".join(
            f'  <rect x="{-40 + index * 70}" y="0" width="30" height="{HEIGHT}" fill="{accent}" opacity="0.55" transform="rotate({12 + step % 10} 200 300)"/>'
            for index in range(8)
        )
    if kind == 2:
        return (
            f'  <polygon points="200,{60 + step} 370,400 30,400" fill="{accent}"/>\n'
            f'  <polygon points="200,{140 + step} 320,400 80,400" fill="{light}" opacity="0.6"/>'
        )
    if kind == 3:
        return "\n".join(
            f'  <circle cx="{60 + (index % 4) * 95}" cy="{80 + (index // 4) * 95}" r="{18 + (index * movie_id) % 22}" fill="{accent if index % 3 else light}"/>'
            for index in range(16)
        )
    if kind == 4:
        return (
            f'  <circle cx="{130 + step}" cy="220" r="120" fill="{accent}"/>\n'
            f'  <rect x="0" y="300" width="{WIDTH}" height="100" fill="{light}" opacity="0.7"/>'
        )
    return "\n".join(
        f'  <path d="M0 {120 + index * 55} Q 100 {80 + index * 55 - step} 200 {120 + index * 55} T 400 {120 + index * 55}" fill="none" stroke="{accent if index % 2 else light}" stroke-width="14"/>'
        for index in range(6)
    )


def poster(movie):
    movie_id = movie["id"]
    hue = movie_id * GOLDEN_ANGLE
    background = colour(hue, 0.45, 0.22)
    accent = colour(hue + 40, 0.65, 0.55)
    light = colour(hue + 180, 0.50, 0.78)
    lines = wrap(movie["title"])
    title_top = 470 - (len(lines) - 1) * 20
    title = "\n".join(
        f'    <tspan x="200" y="{title_top + index * 40}">{escape(line)}</tspan>' for index, line in enumerate(lines)
    )
    label = escape(movie["title"], {'"': "&quot;"})
    return f"""<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{label}">
  <rect width="{WIDTH}" height="{HEIGHT}" fill="{background}"/>
{motif(movie_id, accent, light)}
  <rect x="0" y="{title_top - 50}" width="{WIDTH}" height="{HEIGHT - title_top + 50}" fill="{background}" opacity="0.85"/>
  <text font-family="Georgia, serif" font-size="34" font-weight="bold" fill="#ffffff" text-anchor="middle">
{title}
  </text>
  <text x="200" y="575" font-family="Helvetica, Arial, sans-serif" font-size="18" letter-spacing="4" fill="{light}" text-anchor="middle">{movie["year"]}</text>
</svg>
"""


def main(arguments):
    root = Path(__file__).resolve().parent.parent
    catalog = Path(arguments[1]) if len(arguments) > 1 else root / "Catalog" / "movies.json"
    output = Path(arguments[2]) if len(arguments) > 2 else root / "Public" / "posters"
    output.mkdir(parents=True, exist_ok=True)
    movies = json.loads(catalog.read_text(encoding="utf-8"))["movies"]
    for movie in movies:
        (output / f"{movie['id']}.svg").write_text(poster(movie), encoding="utf-8")
    print(f"wrote {len(movies)} posters to {output}")


if __name__ == "__main__":
    main(sys.argv)
