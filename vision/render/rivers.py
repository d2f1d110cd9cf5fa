"""Rivers (River expansion) as players draw them: one wavy line or two wavy banks, perhaps
with ripple marks, broken where a bridge carries a route over.

Paths are in cell units like pieces.py; a river's waves die out at its ends, so that it meets
the side midpoint where the next space's river starts.
"""

from __future__ import annotations

import numpy as np

from .pieces import Pen, polylines
from .style import Color
from .water_style import WaterStyle

_EASE = 0.12  # cells over which the waves grow from a river's ends


def _even(path: np.ndarray, step: float) -> tuple[np.ndarray, np.ndarray]:
    """``path`` resampled every ``step`` (same units), and the arc length of each point."""
    seg = np.hypot(*np.diff(path, axis=0).T)
    s = np.concatenate([[0.0], np.cumsum(seg)])
    even = np.linspace(0, s[-1], max(8, int(s[-1] / step) + 1))
    pts = np.stack([np.interp(even, s, path[:, 0]), np.interp(even, s, path[:, 1])], axis=1)
    return pts, even


def _normals(path: np.ndarray) -> np.ndarray:
    tangent = np.gradient(path, axis=0)
    tangent /= np.hypot(tangent[:, 0], tangent[:, 1])[:, None] + 1e-9
    return np.stack([-tangent[:, 1], tangent[:, 0]], axis=1)


def _wave(s: np.ndarray, style: WaterStyle, rng: np.random.Generator) -> np.ndarray:
    """Sideways offset (cells) of a wavy line along arc length ``s`` (cells)."""
    length = style.wave_length * rng.uniform(0.85, 1.15)
    amp = style.wave_amplitude * rng.uniform(0.8, 1.2)
    ease = np.clip(np.minimum(s, s[-1] - s) / _EASE, 0, 1)
    return amp * np.sin(2 * np.pi * s / length + rng.uniform(0, 2 * np.pi)) * ease


def _kept_runs(keep: np.ndarray) -> list[slice]:
    """Slices of the runs of True in ``keep``."""
    edges = np.flatnonzero(np.diff(np.concatenate([[0], keep.astype(int), [0]])))
    return [slice(a, b) for a, b in zip(edges[::2], edges[1::2], strict=True) if b - a > 1]


def _ink(pen: Pen, line: np.ndarray, keep: np.ndarray, color: Color, width: int) -> None:
    polylines(pen.img, [pen.to_px(line[run]) for run in _kept_runs(keep)], color, width)


def draw_river(
    pen: Pen,
    path: np.ndarray,
    style: WaterStyle,
    color: Color,
    gap: tuple[float, float] | None = None,
) -> None:
    """A river along ``path`` (cells); ``gap``: the stretch of arc length (cells) it leaves
    out, where a bridge passes over."""
    rng = pen.rng
    pts, s = _even(path, 0.02)
    normals = _normals(pts)
    keep = np.ones(len(s), bool) if gap is None else (s < gap[0]) | (s > gap[1])
    width = pen.width(style.river_width * rng.uniform(0.9, 1.1))
    wave = _wave(s, style, rng)
    if style.river == "line":
        _ink(pen, pts + normals * wave[:, None], keep, color, width)
        lanes = (wave - 0.07, wave + 0.07)  # ripples sit beside the line
    else:
        half = style.bank_gap * 0.5 * rng.uniform(0.9, 1.1)
        other = wave if style.banks_in_phase else _wave(s, style, rng)
        left, right = wave + half, other - half
        _ink(pen, pts + normals * left[:, None], keep, color, width)
        _ink(pen, pts + normals * right[:, None], keep, color, width)
        mid, off = (left + right) / 2, (left - right) * 0.2
        lanes = (mid,) if style.ripples == "tildes" else (mid - off, mid + off)
    if style.ripples != "none":
        _ripples(pen, pts, s, normals, lanes, keep, style, color, max(1, width - 1))


def _ripples(pen, pts, s, normals, lanes, keep, style: WaterStyle, color, width: int) -> None:
    """Ripple marks along the flow: short dashes or small '~', between the banks or beside
    the line, alternating between ``lanes`` (sideways offsets per point, cells)."""
    rng = pen.rng
    step = 0.22 if style.ripples == "ticks" else 0.32
    marks = []
    for k, at in enumerate(np.arange(rng.uniform(0.1, 0.1 + step), s[-1] - 0.1, step)):
        i = int(np.searchsorted(s, at))
        if i >= len(s) or not keep[max(0, i - 4) : i + 5].all():
            continue
        lane = lanes[k % len(lanes)][i]
        centre = pts[i] + normals[i] * lane
        along = np.array([normals[i][1], -normals[i][0]])
        half = 0.04 if style.ripples == "ticks" else 0.06
        t = np.linspace(-1, 1, 2 if style.ripples == "ticks" else 9)[:, None]
        bump = 0 if style.ripples == "ticks" else np.sin(np.pi * t) * 0.018
        mark = centre + along * (t * half) + normals[i] * bump
        marks.append(pen.to_px(mark + rng.normal(0, 0.006, 2)))
    polylines(pen.img, marks, color, width)
