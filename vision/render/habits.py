"""How a real hand and pen draw a line (phone profile): wobble, width that changes along the
stroke, blobs and ticks at its ends, skips of a drying marker and the streaks of a worn tip.

``Pen.line`` hands every route line to ``StrokeHabits.stroke`` when the pen has habits; the
line is then stamped as a chain of anti-aliased discs, each as wide as the stroke is there.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

if TYPE_CHECKING:
    from .pieces import Pen

_SHIFT = 4
_ONE = 1 << _SHIFT


@dataclass(frozen=True)
class StrokeHabits:
    """One player's hand and pen; lengths in cells unless noted."""

    width_var: float = 0.0  # relative change of width along a stroke
    tremor: float = 0.0  # extra, quicker wobble than the InkStyle's
    blob: float = 0.0  # probability that an end of a stroke gets a blob (the pen rested)
    tick: float = 0.0  # probability that a stroke ends in a tick (a small hook)
    legs: float = 0.0  # share of curves drawn as two straight legs
    turn_sd: float = 0.035  # a piece turned about its centre, radians
    shift_sd: float = 0.012  # a piece off-centre
    breaks: float = 0.0  # skips per cell of stroke (a drying marker)
    streaks: int = 0  # a worn felt tip draws this many parallel sub-lines (0: solid)
    min_width: float = 0.6  # px: the faintest line still leaves some graphite

    def to_json(self) -> dict:
        return asdict(self)

    def stroke(self, pen: Pen, px: np.ndarray, width: float) -> None:
        """Ink the line ``px`` (pixels) about ``width`` px wide into ``pen.img``."""
        rng = pen.rng
        cell = pen.cell
        length = _arc_length(px)
        if len(px) < 2 or length[-1] < 1e-6:
            return
        total = float(length[-1])
        spacing = float(np.clip(0.25 * width, 0.4, 3.0))
        s = np.linspace(0, total, max(2, int(total / spacing) + 1))
        pts = np.column_stack([np.interp(s, length, px[:, 0]), np.interp(s, length, px[:, 1])])
        normals = _normals(pts)
        u = s / cell  # position along the stroke in cells
        if self.tremor > 0:
            wave = np.sin(u * rng.uniform(5, 14) + rng.uniform(0, 6.3))
            wave += 0.3 * np.sin(u * rng.uniform(14, 30) + rng.uniform(0, 6.3))
            pts = pts + normals * (wave * self.tremor * cell * rng.uniform(0.4, 1.0))[:, None]
        widths = np.full(len(s), float(width))
        if self.width_var > 0:
            change = 0.6 * np.sin(u * rng.uniform(3, 9) + rng.uniform(0, 6.3))
            change += 0.4 * np.sin(u * rng.uniform(9, 20) + rng.uniform(0, 6.3))
            widths *= 1 + self.width_var * change
        widths = np.maximum(widths, self.min_width)
        keep = np.ones(len(s), bool)
        if self.breaks > 0:
            for _ in range(int(rng.poisson(self.breaks * total / cell))):
                centre, half = rng.uniform(0, total), rng.uniform(0.008, 0.025) * cell
                keep &= np.abs(s - centre) > half
        if self.streaks >= 2 and width >= 3:  # a worn tip: side-by-side lines of uneven ink
            k = self.streaks
            ink, paper = np.array(pen.color, float), np.array(pen.paper, float)
            for i in range(k):
                offset = (i - (k - 1) / 2) / k * widths
                sub = keep.copy()
                for _ in range(int(rng.poisson(0.3 * total / cell))):
                    centre, half = rng.uniform(0, total), rng.uniform(0.01, 0.03) * cell
                    sub &= np.abs(s - centre) > half
                color = tuple(int(v) for v in ink + (paper - ink) * rng.uniform(0, 0.4))
                line = pts + normals * offset[:, None]
                _stamp(pen, line, widths / k * rng.uniform(0.9, 1.2), sub, color)
        else:
            _stamp(pen, pts, widths, keep, pen.color)
        for end in (0, -1):
            if keep[end] and rng.random() < self.blob:
                tip = pen.style.line_width * cell  # the blob is the tip's, however wide the line
                radius = max(widths[end] / 2 * rng.uniform(1.0, 1.3), tip * rng.uniform(0.8, 1.5))
                _disc(pen, pts[end] + rng.normal(0, 0.2 * radius, 2), radius)
        if keep[-1] and rng.random() < self.tick:
            back = pts[-1] - pts[max(0, len(pts) - 4)]
            back /= np.linalg.norm(back) + 1e-9
            angle = rng.choice([-1, 1]) * rng.uniform(1.9, 2.7)
            c, sn = np.cos(angle), np.sin(angle)
            direction = np.array([c * back[0] - sn * back[1], sn * back[0] + c * back[1]])
            tick = (
                pts[-1] + np.linspace(0, 1, 8)[:, None] * direction * rng.uniform(0.03, 0.08) * cell
            )
            _stamp(pen, tick, np.full(8, widths[-1] * 0.8), np.ones(8, bool), pen.color)


def _disc(pen: Pen, centre: np.ndarray, radius: float) -> None:
    cv2.circle(
        pen.img,
        (int(round(centre[0] * _ONE)), int(round(centre[1] * _ONE))),
        max(1, int(round(radius * _ONE))),
        pen.color,
        -1,
        cv2.LINE_AA,
        shift=_SHIFT,
    )


def _stamp(pen: Pen, pts: np.ndarray, widths: np.ndarray, keep: np.ndarray, color) -> None:
    """A chain of discs along ``pts``; where ``keep`` is False the pen skipped."""
    centres = np.round(pts * _ONE).astype(np.int64)
    radii = np.maximum(1, np.round(widths / 2 * _ONE)).astype(np.int64)
    for (x, y), r, k in zip(centres, radii, keep):
        if k:
            cv2.circle(pen.img, (int(x), int(y)), int(r), color, -1, cv2.LINE_AA, shift=_SHIFT)


def _arc_length(path: np.ndarray) -> np.ndarray:
    step = np.diff(path, axis=0)
    length = np.zeros(len(path))
    np.cumsum(np.hypot(step[:, 0], step[:, 1]), out=length[1:])
    return length


def _normals(path: np.ndarray) -> np.ndarray:
    tangent = np.gradient(path, axis=0)
    norm = np.hypot(tangent[:, 0], tangent[:, 1]) + 1e-9
    return np.column_stack([-tangent[:, 1] / norm, tangent[:, 0] / norm])


def sample_habits(
    rng: np.random.Generator, shaky: bool, legs: bool, sloppy: bool, ink_kind: str
) -> StrokeHabits:
    """A player's habits for the phone profile's draws (see phone.PhoneConditions)."""
    return StrokeHabits(
        width_var=float(rng.uniform(0.15, 0.45)) if shaky else float(rng.uniform(0.0, 0.12)),
        tremor=float(rng.uniform(0.005, 0.014)) if shaky else 0.0,
        blob=float(rng.uniform(0.2, 0.7)) if shaky else 0.0,
        tick=float(rng.uniform(0.1, 0.4)) if shaky else 0.0,
        legs=float(rng.uniform(0.5, 1.0)) if legs else 0.0,
        turn_sd=float(rng.uniform(0.05, 0.1)) if sloppy else 0.035,
        shift_sd=float(rng.uniform(0.025, 0.05)) if sloppy else 0.012,
        breaks=float(rng.uniform(0.2, 1.0)) if ink_kind == "dry_erase" else 0.0,
        streaks=int(rng.integers(2, 5)) if ink_kind == "dry_erase" else 0,
        min_width=0.5 if ink_kind == "pencil" else 0.8,
    )
