"""The locator's tunables, one frozen object per concern, gathered in ``LocateParams``.

Lengths in "spaces" are fractions of one space of the lattice; "px" are pixels of the view
named. The defaults are the values every figure in docs/VISION.md was measured with.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from vision.exit_marks import ExitBoxes

ROBUST_FITS = ("ransac", "usac")  # FitParams.robust_fit: vision.locate.refine fits with them


@dataclass(frozen=True)
class CandidateParams:
    """Threshold maps, contours and the quadrilaterals taken from them (``candidates``)."""

    work_side: int = 1000  # the locator works on an image with this long side (or smaller)
    block_divisor: int = 45  # adaptive-threshold block = long side / this ...
    min_block: int = 15  # ... but at least this (px)
    brightness_blocks: int = 3  # large-scale brightness: a box blur this many blocks wide
    paper_level: float = 160.0  # the photo divided by its brightness, scaled to this level
    contrast: int = 6  # a line is this much darker than its surroundings
    sensitive_contrast: int = 3  # the second map, for faint or glare-washed frames
    erosions: tuple[int, ...] = (2, 3, 4)  # then the usual map eroded by these (px)
    min_area: float = 0.015  # candidate area, fraction of the working image
    per_map: int = 8  # outlines (and extended outlines) kept per map
    contours_tried: int = 40  # largest contours looked at per map
    hull_detail: float = 0.01  # fine simplification of a hull, fraction of its perimeter
    # coarser and coarser simplifications until the hull has 4 corners
    simplify_steps: tuple[float, ...] = (0.01, 0.02, 0.035, 0.05, 0.08, 0.11, 0.14)
    max_extended_growth: float = 1.2  # an extended outline's area over its hull's, at most
    edge_px: int = 2  # a side this close to the photo's edge runs along it
    min_side_ratio: float = 0.25  # shortest side over longest, at least
    duplicate_within: float = 0.01  # of the long side: closer candidates are repeats


@dataclass(frozen=True)
class LineParams:
    """Candidates from the frame's visible sides, when something lies across it (``lines``);
    tried only when no other candidate gave a sure guess."""

    enabled: bool = True
    erosion: int = 3  # the usual map eroded by this (px): the thick frame stays
    # outlines of the large components (CandidateParams.min_area); when their lines make no
    # quadrilateral, of those at least this long one way (of the smallest board's side; None:
    # not those) ...
    min_piece: float | None = 0.5
    straight_px: float = 1.5  # ... simplified to straight stretches within this (px)
    min_stretch: float = 1.0  # stretches shorter than this (spaces of the smallest board) drop
    angle_tolerance: float = 2.5  # a stretch on a line runs within this (degrees) ...
    line_px: float = 3.0  # ... and its ends lie this close to it (px)
    seeds: int = 40  # longest stretches tried as the seed of each line
    lines_kept: int = 24  # best-supported lines combined into quadrilaterals
    max_spread: float = 30.0  # opposite sides within this (degrees; perspective) ...
    min_turn: float = 45.0  # ... neighbouring sides at least this
    min_side_ratio: float = 0.5  # shortest side over longest, at least
    min_seen: float = 0.2  # every side seen along at least this fraction
    run_on: float = 0.25  # no side seen past a corner, over this fraction of its length, ...
    run_on_seen: float = 0.5  # ... along more than this fraction of that
    quads_kept: int = 8
    edge_spaces: float = 0.5  # no corner nearer the photo's edge than this (of its space)
    comb_steps: tuple[float, float] = (0.6, 1.12)  # comb spacing range in them (FitParams)
    doubtful_below: float = 0.65  # a usual lattice scoring less (confidence 0.5) is replaced
    margin: float = 0.05  # by a better one from these; a better one is replaced by this much


@dataclass(frozen=True)
class SkinParams:
    """Skin-coloured blobs (``skin``): a hand's outline is left out of the last candidate
    maps, tried only when no other gave a sure guess."""

    enabled: bool = True
    white_percentile: float = 97.0  # the photo's white: each channel's value at this ...
    white_level: float = 235.0  # ... percentile is brought to this level
    white_sample: int = 7  # (the percentile taken on every this-many-th pixel)
    cr: tuple[int, int] = (138, 180)  # skin's chroma box (YCrCb, 8 bit) ...
    cb: tuple[int, int] = (77, 127)
    min_y: int = 25  # ... not in the darkest shadows
    open_blocks: float = 0.6  # thinner than this (of the threshold block): no hand's part
    min_area: float = 0.004  # of the working image: smaller blobs are not a hand
    grow_blocks: float = 0.3  # the blobs grown by this, to take in the hand's outline


@dataclass(frozen=True)
class FitParams:
    """Combs, refinement, frame snapping, scoring and plausibility of lattice guesses."""

    view_cell: int = 16  # px per space of the straightened views that guesses are fitted on
    comb_scale: float = 1.5  # the comb view is this much finer
    comb_pad: float = 0.08  # margin round a candidate in its comb view, of the lattice
    comb_steps: tuple[float, float] = (0.3, 1.12)  # comb spacing range, of the view's space
    comb_step_px: float = 0.4  # spacing increment tried (px)
    combs_kept: int = 3  # distinct combs kept each way
    offsets_per_step: int = 3  # best offsets kept per spacing
    comb_off_weight: float = 0.25  # weight of coverage half a space off (drawn routes)
    comb_step_bonus: float = 0.1  # slight preference for the widest spacing
    max_step_ratio: float = 1.35  # x and y comb spacings at most this far apart
    frame_shrink: float = 0.08  # the candidate is also tried shrunk by this (spaces)
    outer_band: tuple[float, float] = (0.3, 0.25)  # frame lines searched from a third of a
    # space to a quarter of the lattice inside the candidate
    ranked: int = 4  # best guesses refined
    shifted_from: int = 2  # best guesses also tried a whole space off ...
    shifted_kept: int = 2  # ... keeping this many of those shifts
    refine_cell: int = 32  # px per space of the view intersections are snapped on
    refine_rounds: int = 2
    cross_length: float = 0.7  # cross filter arm length (spaces)
    snap_radius: float = 0.3  # intersections searched this far round the guess (spaces)
    min_cross: float = 0.05  # weakest cross response taken as an intersection
    min_intersections: int = 12  # fewer found (or RANSAC inliers): no refit
    ransac_px: float = 0.12  # RANSAC reprojection threshold (spaces)
    # OpenCV's robust fit (ROBUST_FITS): "ransac" (classic RANSAC: up to 15 ms when few
    # points agree) or "usac" (USAC_DEFAULT, the consensus optimised locally: about 1 ms,
    # but it refits guesses that are only part of the lattice well enough to win them the
    # search; docs/VISION.md, "Speed")
    robust_fit: str = "ransac"
    frame_reach: float = 0.3  # frame profile half-width when snapping to its inner edge
    frame_contrast: float = 25.0  # a frame this much darker than inside is snapped to
    score_frame_px: int = 2  # a frame side is looked for this far either side of its line
    # A lattice found less surely than this (confidence) has its outline measured as a
    # printed frame (``frame_seen``; about a millisecond), so that the acceptance policy may
    # read it for its frame (vision.acceptance.framed_only, which asks it of lattices under
    # its min_locate_confidence, 0.3) ...
    frame_measured_below: float = 0.5
    # ... its margin (``paper_beyond``) taken from this far to that far beyond each side
    # (spaces), against the strip as far inside it.
    margin_strip: tuple[float, float] = (1 / 3, 2 / 3)
    line_weight: float = 0.5  # score: lattice lines and frame ...
    off_weight: float = 0.25  # ... minus lines half a space off ...
    exit_weight: float = 1.0  # ... plus Exit marks
    confidence_from: float = 0.5  # score mapped to confidence 0 ...
    confidence_span: float = 0.3  # ... and to 1 this much higher
    sure_score: float = 0.9  # a guess scoring this (confidence 1) needs no more candidates
    # A lattice is a square seen at up to about 45 degrees, and large in the photo
    # (board-spec 3: the board fills at least about a third of the frame; held-out renders:
    # lattice sides from 0.17 of the photo's long side, side ratios up to 1.26; smaller
    # boards are looked for by the second search, ``RetryParams``). A guess outside these is
    # some other pattern: one space of the lattice, a few columns of a board cut by the
    # photo's edge.
    min_side: float = 0.12  # of the photo's long side
    max_aspect: float = 1.6  # longer pair of opposite sides over the shorter pair
    zoom_gain: float = 1.5  # a small board is searched again if its crop is this much finer
    zoom_margin: float = 0.6  # the crop round it, of the lattice's extent
    zoom_from_first: bool = True  # ... starting from the first pass's lattice: sure, no search

    def __post_init__(self) -> None:
        if self.robust_fit not in ROBUST_FITS:
            raise ValueError(f"robust_fit {self.robust_fit!r}: one of {', '.join(ROBUST_FITS)}")


@dataclass(frozen=True)
class ExtentParams:
    """Whether the lattice's lines run on past its sides (``extent``)."""

    band_inset: float = 0.2  # a band past a side, this far in from its space's ends (spaces)
    line_dark: float = 0.7  # a line goes on where it is this much dark in the band
    lines_going_on: int = 5  # of the 6 inner lines
    gap_dark: float = 0.5  # gaps between lines: median darkness below this stays clear
    reach: int = 4  # spaces followed outward towards the photo's edge
    in_photo: float = 0.5  # a band less inside the photo than this: the photo ended
    resettle_reach: int = 2  # a fit running on is tried moved by up to this many spaces


@dataclass(frozen=True)
class RetryParams:
    """The second search of a photo the recogniser refused (no board found, or too little of
    it readable; vision.recognizer.finer_locate), for a small board in a large photo.

    A sheet filling a third of a 16:9 photo's short side (board-spec 3), turned 45 degrees,
    has a lattice side of about 0.08 of the photo's long side; the small boards of phone
    renders 8850000- have from 0.09. The first search does not take guesses that small
    (``FitParams.min_side``: they are more often two spaces of a cut board's lattice), and
    at its working size such a board's lines are 2-3 pixels apart from its frame's.
    """

    work_side: int = 2000  # the locator's working image's long side (or the photo's) ...
    finer: float = 1.3  # ... searched only if at least this many times the usual
    min_side: float = 0.07  # lattices this small are considered (of the photo's long side)
    # ... and then, still refused, the usual working image once more with lattices that small
    # (the finer image's thresholds, fitted to the usual size, can miss a board the usual
    # image shows well: phone renders 8870190, 8850273)
    usual_side: bool = True


@dataclass(frozen=True)
class LocateParams:
    """Every tunable of ``find_lattice`` (and of the recogniser's second search, ``retry``)."""

    candidates: CandidateParams = field(default_factory=CandidateParams)
    lines: LineParams = field(default_factory=LineParams)
    skin: SkinParams = field(default_factory=SkinParams)
    fit: FitParams = field(default_factory=FitParams)
    extent: ExtentParams = field(default_factory=ExtentParams)
    exit_boxes: ExitBoxes = field(default_factory=ExitBoxes)
    retry: RetryParams = field(default_factory=RetryParams)
