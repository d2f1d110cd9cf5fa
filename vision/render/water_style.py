"""How one player draws water (River and Lake expansions): a random look per board.

Lengths are in cells, colours BGR, like style.py. Every choice and its probability is in
``CHOICES`` (docs/VISION.md, "River and Lake drawings", lists them).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from .style import MARKERS, Color, InkStyle

# name -> (options, probabilities): the discrete choices of a water style
CHOICES: dict[str, tuple[tuple[str, ...], tuple[float, ...]]] = {
    # the water's pen: a blue marker, or the marker the routes are drawn with
    "pen": (("blue", "same"), (0.6, 0.4)),
    "river": (("line", "banks"), (0.55, 0.45)),
    "ripples": (("none", "ticks", "tildes"), (0.6, 0.2, 0.2)),
    "lake_fill": (
        ("scribble", "wash", "hatched", "crosshatched", "dotted", "waves", "outline"),
        (0.2, 0.15, 0.25, 0.08, 0.12, 0.12, 0.08),
    ),
    # shoreline: the wobbly line between water and land; "closed" also traces the space sides
    # the water reaches (not where it joins the next lake space), "none" leaves the fill alone
    # (dotted and wave-marked lakes always get a shore, outlined ones a closed one)
    "shore": (("shore", "closed", "none"), (0.55, 0.3, 0.15)),
    "pier_end": (("none", "bar", "square"), (0.4, 0.35, 0.25)),
}
BLUES: tuple[Color, ...] = (MARKERS["blue"], MARKERS["dark_blue"], (210, 140, 40), (190, 110, 60))
# a blue pen: a blue marker, a dark blue one, a light (turquoise) felt tip, a pale dry-erase
BLUE_P = (0.4, 0.25, 0.2, 0.15)
BANKS_IN_PHASE = 0.7  # two banks drawn with the same waves (else each its own)
BRIDGE_GAP = 0.8  # the river stops on both sides of a bridge (else it runs under the route)
BRIDGE_RAILS = 0.5  # short parapet lines on both sides of a bridge
AVOID_BOX = 0.4  # the fill leaves the round-number box clear
# a river's pen width (cells) for each range of pens (style.WIDE_PENS)
RIVER_WIDTHS = {"standard": (0.02, 0.07), "wide": (0.012, 0.11)}


@dataclass(frozen=True)
class WaterStyle:
    """One player's way of drawing rivers and lakes."""

    color: Color | None  # None: each space's marker colour
    river: str  # "line" (one wavy line) | "banks" (two wavy lines)
    river_width: float  # pen width of the river lines
    bank_gap: float  # distance between two banks
    banks_in_phase: bool
    wave_amplitude: float
    wave_length: float  # along the river, per wave
    ripples: str  # "none" | "ticks" (short dashes along the flow) | "tildes" (small ~)
    bridge_gap: bool
    bridge_rails: bool
    lake_fill: str  # see CHOICES
    fill_alpha: float  # opacity of a scribbled or washed fill
    hatch_spacing: float  # between hatch lines, dots or wave marks (x3 for waves)
    hatch_angle: float  # degrees
    shore: str  # "shore" | "closed" | "none"
    shore_wobble: float  # how far the shoreline wanders, as a share of the lake's depth
    depth: float  # how far water reaches into a space from a lake side (1 side)
    taper: float  # how far from a space corner the water starts (0.2 boxy .. 0.5 round)
    avoid_box: bool
    pier_end: str  # "none" | "bar" | "square"

    def to_json(self) -> dict:
        return asdict(self)


def _choose(rng: np.random.Generator, name: str) -> str:
    options, p = CHOICES[name]
    return str(options[int(rng.choice(len(options), p=p))])


def sample_water_style(rng: np.random.Generator, ink: InkStyle) -> WaterStyle:
    """A random water look for a player who draws routes in ``ink``."""
    pen = _choose(rng, "pen")
    blue = BLUES[int(rng.choice(len(BLUES), p=BLUE_P))]
    jitter = rng.integers(-18, 19, 3)
    color = tuple(int(np.clip(c + j, 0, 255)) for c, j in zip(blue, jitter, strict=True))
    gap = float(rng.uniform(0.14, 0.26))
    in_phase = bool(rng.random() < BANKS_IN_PHASE)
    lake_fill = _choose(rng, "lake_fill")
    shore = _choose(rng, "shore")
    if lake_fill in ("dotted", "waves") and shore == "none":
        shore = "shore"  # marks alone do not say where the water ends
    if lake_fill == "outline":
        shore = "closed"  # a bare shore arc does not say which side is water
    return WaterStyle(
        color=color if pen == "blue" else None,
        river=_choose(rng, "river"),
        river_width=float(np.clip(ink.line_width * rng.uniform(0.9, 1.6), *RIVER_WIDTHS[ink.pens])),
        bank_gap=gap,
        banks_in_phase=in_phase,
        wave_amplitude=float(
            rng.uniform(0.02, 0.06) if in_phase else rng.uniform(0.015, 0.25 * gap)
        ),
        wave_length=float(rng.uniform(0.35, 0.9)),
        ripples=_choose(rng, "ripples"),
        bridge_gap=bool(rng.random() < BRIDGE_GAP),
        bridge_rails=bool(rng.random() < BRIDGE_RAILS),
        lake_fill=lake_fill,
        fill_alpha=float(rng.uniform(0.3, 0.75)),
        hatch_spacing=float(rng.uniform(0.06, 0.12)),
        hatch_angle=float(
            rng.choice([45.0, -45.0, 0.0, 90.0], p=[0.4, 0.3, 0.2, 0.1]) + rng.normal(0, 8)
        ),
        shore=shore,
        shore_wobble=float(rng.uniform(0.03, 0.2)),
        depth=float(rng.uniform(0.32, 0.5)),
        taper=float(rng.uniform(0.2, 0.5)),
        avoid_box=bool(rng.random() < AVOID_BOX),
        pier_end=_choose(rng, "pier_end"),
    )
