"""Random looks: how the board is printed and how the player draws on it.

Every field is drawn from a numpy Generator so a seed fixes the look. Colours are BGR tuples
of ints 0-255. Lengths are in units of one space's side (a "cell"), so a style is independent
of the resolution it is drawn at.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

Color = tuple[int, int, int]

# Pale space tints of different editions (BGR): blue, green, yellow, pink, grey, lilac, white.
_TINTS: tuple[Color, ...] = (
    (245, 228, 200),
    (232, 244, 222),
    (205, 240, 250),
    (228, 222, 250),
    (232, 232, 232),
    (246, 226, 234),
    (250, 250, 250),
    (240, 236, 214),
    (214, 238, 236),
)
_PRINT_INKS: tuple[Color, ...] = (
    (110, 60, 20),
    (70, 70, 70),
    (30, 30, 30),
    (40, 70, 110),
    (120, 90, 40),
    (90, 40, 90),
    (60, 100, 40),
    (150, 150, 150),
)
_PAPERS: tuple[Color, ...] = (
    (250, 250, 250),
    (236, 244, 248),
    (225, 236, 242),
    (240, 240, 236),
    (250, 240, 228),
    (200, 220, 235),
    (215, 225, 215),
)
# Marker colours (BGR): black, dark blue, blue, green, red, brown, purple.
MARKERS: dict[str, Color] = {
    "black": (25, 25, 25),
    "dark_blue": (110, 40, 20),
    "blue": (170, 80, 30),
    "green": (50, 110, 30),
    "red": (40, 40, 190),
    "brown": (30, 60, 100),
    "purple": (110, 40, 90),
}
CORNERS = ("tl", "tr", "br", "bl")


def _jitter(rng: np.random.Generator, color: Color, amount: int) -> Color:
    return tuple(int(np.clip(c + rng.integers(-amount, amount + 1), 0, 255)) for c in color)


def _pick(rng: np.random.Generator, items: tuple) -> object:
    return items[int(rng.integers(len(items)))]


@dataclass
class BoardStyle:
    """How one edition / print of the board looks."""

    paper: Color
    tint: Color
    central_tint: Color
    central_outline: float  # width of a bold outline round the central 3x3 block (0 = none)
    line_color: Color
    line_width: float
    frame_color: Color
    frame_width: float
    box_corner: str  # which corner of each space holds the white round box
    box_size: float
    box_outline: bool
    box_fill: bool  # white box, or only its outline
    margin_side: float
    margin_top: float
    margin_bottom: float
    exit_color: Color
    exit_length: float
    highway_exit_width: float
    exit_shape: str  # "bar" | "lines" | "arrow"
    highway_exit_dashes: bool
    railway_exit_ties: int
    exit_backing: bool  # a tinted tab behind each Exit mark
    art_color: Color
    title_font: int
    print_blur: float  # sigma in cells of a slight print blur
    grain: float  # paper grain strength 0..1
    misregister: tuple[float, float]  # offset of the tint layer against the lines, cells
    glossy: bool  # dry-erase card (glare, ghosts) rather than paper

    def to_json(self) -> dict:
        return asdict(self)


def sample_board_style(rng: np.random.Generator) -> BoardStyle:
    tint = _jitter(rng, _pick(rng, _TINTS), 10)
    if rng.random() < 0.75:
        central = _jitter(rng, _pick(rng, _TINTS), 10)
        if central == tint:
            central = tuple(max(0, c - 25) for c in tint)
    else:
        central = tint
    outline = float(rng.uniform(0.03, 0.09)) if central == tint or rng.random() < 0.4 else 0.0
    line_color = _jitter(rng, _pick(rng, _PRINT_INKS), 20)
    frame_color = line_color if rng.random() < 0.7 else _jitter(rng, _pick(rng, _PRINT_INKS), 20)
    if rng.random() < 0.2:  # some editions separate tinted spaces by white lines
        line_color = _jitter(rng, (250, 250, 250), 6)
    return BoardStyle(
        paper=_jitter(rng, _pick(rng, _PAPERS), 8),
        tint=tint,
        central_tint=central,
        central_outline=outline,
        line_color=line_color,
        line_width=float(rng.uniform(0.01, 0.035)) * (1.8 if line_color[0] > 240 else 1.0),
        frame_color=frame_color,
        frame_width=float(rng.uniform(0.06, 0.16)),
        box_corner=str(_pick(rng, CORNERS)) if rng.random() < 0.5 else "tl",
        box_size=float(rng.uniform(0.18, 0.28)),
        box_outline=bool(rng.random() < 0.5),
        box_fill=bool(rng.random() < 0.85),
        margin_side=float(rng.uniform(0.75, 1.6)),
        margin_top=float(rng.uniform(1.4, 3.2)),
        margin_bottom=float(rng.uniform(1.0, 2.8)),
        exit_color=_jitter(rng, _pick(rng, _PRINT_INKS), 25),
        exit_length=float(rng.uniform(0.28, 0.55)),
        highway_exit_width=float(rng.uniform(0.22, 0.42)),
        exit_shape=str(rng.choice(["bar", "lines", "arrow"], p=[0.6, 0.2, 0.2])),
        highway_exit_dashes=bool(rng.random() < 0.7),
        railway_exit_ties=int(rng.integers(2, 5)),
        exit_backing=bool(rng.random() < 0.4),
        art_color=_jitter(rng, _pick(rng, _PRINT_INKS), 40),
        title_font=int(_pick(rng, (0, 1, 2, 3, 4, 6, 7))),
        print_blur=float(rng.uniform(0.0, 0.012)),
        grain=float(rng.uniform(0.0, 1.0)),
        misregister=(float(rng.normal(0, 0.012)), float(rng.normal(0, 0.012))),
        glossy=bool(rng.random() < 0.6),
    )


@dataclass
class InkStyle:
    """How one player draws: markers, stroke habits and piece drawing conventions."""

    colors: list[Color]  # marker colours used on this board (first = main)
    color_names: list[str]
    color_mix: float  # probability a space uses a colour other than the main one
    highway_style: str  # "thick" | "double" | "double_dashed" | "thick_dashed"
    railway_style: str  # "ties" | "ladder" | "ties_sparse"
    curve_style: str  # "arc" | "rounded_l" | "mixed"
    station_fill: str  # "filled" | "outlined" | "mixed"
    station_size: float
    highway_width: float  # thick stroke width, or gap between two highway lines
    line_width: float  # thin pen width
    tie_spacing: float
    tie_length: float
    rail_gap: float
    wobble: float  # amplitude of freehand wobble
    end_error: float  # max overshoot / undershoot at a side
    double_stroke: float  # probability a stroke is drawn twice
    number_font: int
    number_scale: float
    ghosts: int  # faint erased pieces from an earlier game
    ghost_alpha: float
    smudges: int
    strays: int
    opacity: float  # ink opacity (dry-erase markers are a little translucent)
    # expansion drawings
    river_color: Color | None = None  # None: the marker colour; rivers are often blue
    river_style: str = "wavy"  # "wavy" | "banks" (two wavy lines)
    lake_style: str = "filled"  # "filled" | "hatched"
    pens: str = "standard"  # the pen sizes' ranges: "standard" or "wide" (WIDE_PENS)

    def to_json(self) -> dict:
        """The style's fields; ``pens`` only when wide, so that the renderer's own photos
        keep the truth files they always had."""
        fields = asdict(self)
        if self.pens == "standard":
            del fields["pens"]
        return fields


# Pen sizes past the renderer's own ranges both ways (board-spec 2: "stroke widths differ
# between markers and players"): a fine liner on a large sheet, a chisel-tip dry-erase marker
# on a small card, wide or narrow double-line highways, ties close together or far apart, in
# cells. The hand's wobble stays in the renderer's own range: a highway drawn much shakier
# reads as a river's waves. Drawn only when asked (PhotoOptions.pens = "wide"), so that every
# seed's default render stays as it was. Measured in docs/VISION.md, "Pens finer and broader
# than the renderer's own".
WIDE_PENS: dict[str, tuple[float, float]] = {
    "line_width": (0.012, 0.09),
    "highway_width": (0.07, 0.28),
    "station_size": (0.12, 0.32),
    "tie_spacing": (0.06, 0.22),
    "tie_length": (0.08, 0.27),
    "rail_gap": (0.06, 0.2),
}
PEN_RANGES = ("standard", "wide")


def _widen_pens(style: InkStyle, rng: np.random.Generator) -> None:
    """Draw ``style``'s pen sizes again from WIDE_PENS, kept drawable: ties and ladder rails
    at least a stroke apart, a station wider than the highway it sits on."""
    for name, (low, high) in WIDE_PENS.items():
        setattr(style, name, float(rng.uniform(low, high)))
    style.tie_spacing = max(style.tie_spacing, 2.5 * style.line_width)
    style.rail_gap = max(style.rail_gap, 2.0 * style.line_width)
    style.station_size = max(style.station_size, 1.15 * style.highway_width)
    style.pens = "wide"


def sample_ink_style(rng: np.random.Generator, marker: str | None = None,
                     pens: str = "standard") -> InkStyle:
    """One player's look; ``pens`` "wide" draws the pen sizes from WIDE_PENS."""
    if pens not in PEN_RANGES:
        raise ValueError(f"pens must be one of {', '.join(PEN_RANGES)}, not {pens!r}")
    names = list(MARKERS)
    weights = np.array([0.45, 0.2, 0.1, 0.1, 0.1, 0.03, 0.02])
    main = marker or names[int(rng.choice(len(names), p=weights))]
    chosen = [main]
    if rng.random() < 0.3:
        extra = [n for n in names if n != main]
        chosen += [extra[i] for i in rng.choice(len(extra), int(rng.integers(1, 3)), replace=False)]
    colors = [_jitter(rng, MARKERS[n], 18) for n in chosen]
    thin = float(rng.uniform(0.018, 0.05))
    style = InkStyle(
        colors=colors,
        color_names=chosen,
        color_mix=float(rng.uniform(0.1, 0.5)) if len(chosen) > 1 else 0.0,
        highway_style=str(
            rng.choice(
                ["thick", "double", "double_dashed", "thick_dashed"], p=[0.45, 0.25, 0.2, 0.1]
            )
        ),
        railway_style=str(rng.choice(["ties", "ladder", "ties_sparse"], p=[0.55, 0.25, 0.2])),
        curve_style=str(rng.choice(["arc", "rounded_l", "mixed"], p=[0.45, 0.25, 0.3])),
        station_fill=str(rng.choice(["filled", "outlined", "mixed"], p=[0.5, 0.3, 0.2])),
        station_size=float(rng.uniform(0.14, 0.26)),
        highway_width=float(rng.uniform(0.09, 0.2)),
        line_width=thin,
        tie_spacing=float(rng.uniform(0.1, 0.18)),
        tie_length=float(rng.uniform(0.1, 0.2)),
        rail_gap=float(rng.uniform(0.08, 0.15)),
        wobble=float(rng.uniform(0.0, 0.035)),
        end_error=float(rng.uniform(0.0, 0.09)),
        double_stroke=float(rng.uniform(0.0, 0.3)),
        number_font=int(rng.choice([0, 1, 2, 4, 6])),
        number_scale=float(rng.uniform(0.7, 1.1)),
        ghosts=int(rng.choice([0, 0, 1, 2, 4, 8])),
        ghost_alpha=float(rng.uniform(0.05, 0.18)),
        smudges=int(rng.integers(0, 4)),
        strays=int(rng.integers(0, 8)),
        opacity=float(rng.uniform(0.7, 1.0)),
        river_color=_jitter(rng, MARKERS["blue"], 25) if rng.random() < 0.7 else None,
        river_style=str(rng.choice(["wavy", "banks"], p=[0.7, 0.3])),
        lake_style=str(rng.choice(["filled", "hatched"], p=[0.6, 0.4])),
    )
    if pens == "wide":
        _widen_pens(style, rng)
    return style
