"""An independent ink check: ink the reading does not explain, and spaces something covers.

The cell classifier can read a drawn space as empty when the ink is faint (pencil, pale
markers, worn dry-erase, dim rooms), and it has no notion of a hand, pen or die lying on the
sheet. This check needs no training: on the straightened upright board it measures, per
space,

- ``ink``: local contrast of the space's own ink against its own paper, away from the printed
  lattice and the corner round-number boxes (a band along each printed line and the corner
  patches of ``vision.round_numbers`` are masked out). It is the mean of the darkest
  ``top_fraction`` of the remaining pixels of ``vision.crops.ink_contrast`` (each channel
  against a local estimate of its paper, a closing about half a space wide, as the crops
  are made), unscaled, so a faint pencil stroke counts on a board whose printed frame is
  black;
- ``covered``: the fraction of the space under a large non-paper blob, against the paper
  estimated over several spaces (a hand, a pen body, a die are much wider than any stroke,
  so they survive a morphological opening that removes strokes);
- ``lines``: how clearly each of the space's four printed lines shows, against the board's
  own lines (``line_visibility``). The printed lattice is a reference that every space
  has: where its lines vanish, so does any ink - a reflection's blown-out band, or a pale
  hand or pen body that is no darker than the paper and so escapes ``covered``;
- ``skin``: whether what covers a space is the colour of skin (``covering_skin``): a
  filled lake measures as covered too, but it is drawn with the board's marker or a blue
  pen, while a hand shades the paper warm, its red least darkened and its blue most, green
  in between (on a board drawn with a brown marker, whose ink is that colour too, nothing
  is called skin).

``check_ink`` turns the measures into review entries; it never changes a token.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from scoring.sides import ROUTE_KINDS, Side
from vision.crops import darkest_channel, paper_ratio
from vision.rectify import GRID, CanonicalBoard
from vision.review import ReviewEntry
from vision.round_numbers import PATCH_FRACTION
from vision.space_parts import side_letters

INK_SEEN = "ink seen, read as empty"
COVERED = "covered (hand, pen or die?)"
LAKE_FILL = "or the lake drawn there"  # said of a covered space read as lake, no hand on it
HIDDEN = "printed lines hidden (glare, or something on the sheet?)"
GHOST = "faint strokes whose ends join nothing (an erased earlier game?)"


@dataclass(frozen=True)
class InkCheckParams:
    """The ink check's tunables. Calibrated on renders of seeds 8700000-8700079 (phone
    profile) and 7200000-7200059 (the renderer's own conditions), none used for the figures
    in docs/VISION.md."""

    enabled: bool = True
    line_band: float = 0.14  # spaces masked along each printed line, inside the space
    box: float = PATCH_FRACTION  # corner patches masked (round-number boxes), in spaces
    top_fraction: float = 0.125  # the darkest share of the unmasked pixels that is averaged
    ink_contrast: float = 0.19  # mean contrast of that share above which a space holds ink
    # ... or, on a noisy board (dim room, grainy paper), above the board's own floor: this
    # quantile of the contrast of all its 49 spaces (the emptiest ones), plus a margin
    # (calibrated on seeds 7300000-7300099 and 8700000-8700079)
    floor_quantile: float = 0.15
    floor_margin: float = 0.03
    min_paper: float = 60.0  # paper darker than this (0-255, darkest channel): no check, since
    # in so dark a photo noise passes for ink and shadow for a hand
    cover_paper_spaces: int = 3  # width of the paper estimate for covering blobs, in spaces
    cover_contrast: float = 0.4  # darker than that paper by this much: not paper
    cover_blob: float = 0.31  # opening width (spaces): strokes vanish, blobs stay
    covered: float = 0.2  # share of the space under a blob above which it is covered
    # Printed lines (``line_visibility``; calibrated on seeds 8710000-8710299 and
    # 8720000-8720599, phone profile, and 7300000-7300299):
    # a line's contrast is its centre band's (this half-width, in spaces) against each
    # flank this far either side, along the line (its ends trimmed: _line_contrasts)
    line_half: float = 0.05
    line_flanks: tuple[float, float] = (0.1, 0.17)
    line_trim: float = 0.17
    hidden_below: float = 0.15  # a space with no clear ink (under the ink threshold) whose
    # second-faintest line shows less than this share of the board's usual contrast is hidden
    # (on renders without phone conditions, glare hides lines that the reader sees through:
    # the ink gate halves those flags, seeds 7300000-7300299) ...
    lines_floor: float = 0.08  # ... on a board whose inner lines show at least this contrast
    # (faint or gutter-printed lattices give no reference)
    # Ghosts of an erased game (``ghost_spaces``; calibrated on seeds 8850000-8850299 and
    # 9350000-9350299, phone profile, checked on 8870000-8870299 and 7200000-7200299): a
    # space read as a route, with nothing on it, whose ink is under ``ghost_ratio`` of the
    # board's usual drawn ink (the ``ghost_quantile`` of its spaces read as drawn, at least
    # ``ghost_min_spaces`` of them) and at least ``ghost_loose`` of whose route ends find no
    # route of their kind in the neighbour they face. None: no such entries.
    ghost_ratio: float | None = 0.4
    ghost_quantile: float = 0.75
    ghost_min_spaces: int = 5
    ghost_loose: int = 2
    # Skin (``covering_skin``; calibrated on seeds 8850000-8850299, phone profile, and
    # 9150000-9150299 and 9350000-9350199, River and Lake). A covering blob's median colour
    # against the paper around it (each channel's share of the paper's, B, G, R) is skin
    # when red is darkened at least ``skin_spread`` less than blue and green lies between
    # them, at least ``skin_between`` of that gap from either ...
    skin_test: bool = True  # False: no space is found covered by a hand
    skin_spread: float = 0.1
    skin_between: float = 0.2
    # ... the paper around it being the median of the pixels of the space and its eight
    # neighbours that are neither blob nor ink (contrast under ``skin_paper``), sampled one
    # in four, at least ``skin_paper_px`` of them ...
    skin_paper: float = 0.1
    skin_paper_px: int = 50
    # ... on a board whose own ink is not skin-coloured by the same test (a brown marker, and
    # a lake filled with it, is): the median colour of its clear ink (contrast at least
    # ``skin_ink``) outside the blobs, from at least ``skin_ink_px`` pixels
    skin_ink: float = 0.3
    skin_ink_px: int = 200


@dataclass
class InkMeasures:
    """Per space (7, 7): ink contrast of what is not printed, and the covered share."""

    ink: np.ndarray
    covered: np.ndarray
    paper: float = 255.0
    """The paper's median level inside the lattice (darkest channel, 0-255)."""
    lines: np.ndarray | None = None
    """(7, 7, 4): how clearly each space's N, E, S, W printed line shows, as a share of the
    board's usual contrast for such a line (inner or frame); None where the board's inner
    lines show too faintly to be a reference (``InkCheckParams.lines_floor``)."""
    skin: np.ndarray | None = None
    """(7, 7) bool: the space is covered by something skin-coloured (``covering_skin``): a
    hand, not a filled lake. None: not measured (``skin_test`` off, a dark or grey photo)."""

    def skin_spaces(self) -> frozenset[tuple[int, int]]:
        """The (row, col) of the spaces a hand covers (``skin``)."""
        if self.skin is None:
            return frozenset()
        return frozenset((int(r), int(c)) for r, c in np.argwhere(self.skin))


def _interior_mask(cell_px: int, params: InkCheckParams) -> np.ndarray:
    """A space's pixels away from its printed lines and its corner boxes."""
    mask = np.ones((cell_px, cell_px), bool)
    band = max(1, round(params.line_band * cell_px))
    box = round(params.box * cell_px)
    mask[:band, :] = mask[-band:, :] = mask[:, :band] = mask[:, -band:] = False
    for ys in (slice(0, box), slice(cell_px - box, cell_px)):
        for xs in (slice(0, box), slice(cell_px - box, cell_px)):
            mask[ys, xs] = False
    return mask


def _spaces(image: np.ndarray, board: CanonicalBoard) -> np.ndarray:
    """(7, 7, cell, cell) view of the lattice's spaces."""
    cell, pad = board.cell_px, board.pad_px
    span = image[pad:pad + GRID * cell, pad:pad + GRID * cell]
    return span.reshape(GRID, cell, GRID, cell).swapaxes(1, 2)


def _paper(darkest: np.ndarray, width: int) -> np.ndarray:
    """Local paper level: a grey closing ``width`` px wide (removes narrower ink), blurred."""
    width = max(3, width | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (width, width))
    closed = cv2.morphologyEx(darkest, cv2.MORPH_CLOSE, kernel)
    return cv2.blur(closed, (width, width)).astype(np.float32) + 1.0


def measure_ink(flat: np.ndarray, board: CanonicalBoard,
                params: InkCheckParams = InkCheckParams()) -> InkMeasures:
    """The ink and covered measures of the 49 spaces of an upright straightened board."""
    cell = board.cell_px
    darkest = darkest_channel(flat)
    grey = darkest.astype(np.float32)
    paper = _paper(darkest, cell // 2)
    ratio = paper_ratio(flat, cell // 2)  # each channel against its own paper
    contrast = 1.0 - darkest_channel(ratio)  # vision.crops.ink_contrast
    inside = _spaces(contrast, board)[:, :, _interior_mask(cell, params)]  # (7, 7, n)
    k = max(1, round(params.top_fraction * inside.shape[-1]))
    top = np.partition(inside, inside.shape[-1] - k, axis=-1)[..., -k:]
    ink = top.mean(axis=-1)

    far_paper = _paper(darkest, params.cover_paper_spaces * cell)
    not_paper = ((1.0 - grey / far_paper) > params.cover_contrast).astype(np.uint8)
    blob = max(3, round(params.cover_blob * cell) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (blob, blob))
    blobs = cv2.morphologyEx(not_paper, cv2.MORPH_OPEN, kernel)
    covered = _spaces(blobs, board).mean(axis=(2, 3))
    paper_level = float(np.median(_spaces(paper, board)))
    skin = None
    if params.skin_test and flat.ndim == 3 and paper_level >= params.min_paper:
        skin = covering_skin(flat, board, blobs, covered >= params.covered, ratio, contrast,
                             params)
    return InkMeasures(ink=ink.astype(np.float32), covered=covered.astype(np.float32),
                       paper=paper_level, lines=line_visibility(flat, board, params),
                       skin=skin)


def is_skin(colour: np.ndarray, params: InkCheckParams = InkCheckParams()) -> bool:
    """Whether a colour against the paper (B, G, R shares of the paper's) is skin's: red
    darkened least, blue most, green in between (a red, brown-red or black marker darkens
    green and blue alike, a blue or green one does not darken blue most)."""
    b, g, r = (float(v) for v in colour)
    spread = r - b
    return (spread >= params.skin_spread and g - b >= params.skin_between * spread
            and r - g >= params.skin_between * spread)


def covering_skin(flat: np.ndarray, board: CanonicalBoard, blobs: np.ndarray,
                  covered: np.ndarray, ratio: np.ndarray, contrast: np.ndarray,
                  params: InkCheckParams = InkCheckParams()) -> np.ndarray:
    """(7, 7) bool: which ``covered`` spaces a skin-coloured blob covers, on a board whose
    ink is not skin-coloured itself (a brown marker can look like a hand: then none).

    A blob's colour is its pixels' median against the paper around it: the median of the
    pixels neither blob nor ink (``contrast`` under ``skin_paper``) in the space and its
    eight neighbours, so that a grey lake fill over a tinted space is no warm shade. The
    board's ink's colour is the median of its clearly inked pixels (``contrast`` at least
    ``skin_ink``) outside blobs, in ``ratio`` (each channel against its local paper).
    """
    skin = np.zeros((GRID, GRID), bool)
    if not covered.any():
        return skin
    cell, pad = board.cell_px, board.pad_px
    span = (slice(pad, pad + GRID * cell),) * 2
    inked = (contrast[span] >= params.skin_ink) & (blobs[span] == 0)
    if int(inked.sum()) < params.skin_ink_px or is_skin(np.median(ratio[span][inked], axis=0),
                                                          params):
        return skin
    image, blob = flat[span], blobs[span] > 0
    paper = ~blob & (contrast[span] < params.skin_paper)
    for r, c in np.argwhere(covered):
        window = (slice(max(0, r - 1) * cell, min(GRID, r + 2) * cell),
                  slice(max(0, c - 1) * cell, min(GRID, c + 2) * cell))
        around = image[window][::2, ::2][paper[window][::2, ::2]]  # every fourth pixel
        if len(around) < params.skin_paper_px:
            continue
        space = (slice(r * cell, (r + 1) * cell), slice(c * cell, (c + 1) * cell))
        shade = np.median(image[space][blob[space]], axis=0).astype(np.float32)
        skin[r, c] = is_skin(shade / (np.median(around, axis=0).astype(np.float32) + 1.0),
                             params)
    return skin


def _line_contrasts(image: np.ndarray, board: CanonicalBoard, params: InkCheckParams
                    ) -> np.ndarray:
    """(8, 7): the contrast of each horizontal printed line's 7 segments (line i is the top
    of row i) in ``image``, a straightened board (float32, H x W x channels).

    Across the line, its centre band is compared with the mean of each flank, in each colour
    channel: a dark line is darker than both flanks (by its darkest pixel, as a share of the
    flank), a light one (a lattice printed as gutters between tinted spaces) lighter than
    both. The smaller of the two flanks' contrasts counts, so that the edge of a glare or a
    shadow, lighter on one side only, is no line; the best channel counts, and along the
    segment (its ends trimmed) the median.
    """
    cell, pad = board.cell_px, board.pad_px
    half = max(1, round(params.line_half * cell))
    near, far = (max(half + 1, round(f * cell)) for f in params.line_flanks)
    trim = round(params.line_trim * cell)
    span = image[:, pad:pad + GRID * cell] + 1.0
    ys = pad + cell * np.arange(GRID + 1)[:, None]  # (8, 1)
    band = span[ys + np.arange(-half, half + 1)]  # (8, rows, n, channels)
    above = span[ys - np.arange(near, far + 1)].mean(axis=1)  # (8, n, channels)
    below = span[ys + np.arange(near, far + 1)].mean(axis=1)
    above[0], below[GRID] = below[0], above[GRID]  # the frame's outer side is off the board
    sides = np.stack([above, below])
    dark = (1.0 - band.min(axis=1) / sides).min(axis=0)
    light = (1.0 - sides / band.max(axis=1)).min(axis=0)
    departure = np.maximum(dark, light).max(axis=-1)  # (8, n)
    segments = departure.reshape(GRID + 1, GRID, cell)[:, :, trim:cell - trim]
    return np.median(segments, axis=2).astype(np.float32)


def line_visibility(flat: np.ndarray, board: CanonicalBoard,
                    params: InkCheckParams = InkCheckParams()) -> np.ndarray | None:
    """(7, 7, 4): how clearly each space's N, E, S, W printed line shows, as a share of the
    board's median contrast for lines of its kind (the 6 inner lines, or the frame); None
    when the inner lines' median contrast is under ``lines_floor``."""
    image = flat.astype(np.float32).reshape(*flat.shape[:2], -1)
    rows = _line_contrasts(image, board, params)  # (8, 7): row i's top line
    cols = _line_contrasts(image.transpose(1, 0, 2), board, params).T  # column j's left line
    inner = float(np.median(np.concatenate([rows[1:GRID].ravel(), cols[:, 1:GRID].ravel()])))
    if inner < params.lines_floor:
        return None
    frame = float(np.median(np.concatenate([rows[[0, GRID]].ravel(), cols[:, [0, GRID]].ravel()])))
    scale_rows = np.full((GRID + 1, 1), inner, np.float32)
    scale_cols = np.full((1, GRID + 1), inner, np.float32)
    scale_rows[[0, GRID]] = scale_cols[0, [0, GRID]] = max(frame, params.lines_floor)
    rows, cols = rows / scale_rows, cols / scale_cols
    return np.stack([rows[:-1], cols[:, 1:], rows[1:], cols[:, :-1]], axis=-1)


def ink_threshold(measures: InkMeasures, params: InkCheckParams = InkCheckParams()) -> float:
    """The contrast above which a space read as empty holds ink on this board: the fixed
    ``ink_contrast``, raised on a noisy board to just above its emptiest spaces (noise and
    grain lift every space's darkest pixels, ink lifts only the drawn ones)."""
    floor = float(np.quantile(measures.ink, params.floor_quantile)) + params.floor_margin
    return max(params.ink_contrast, floor)


def _lake_fill(token: str, measures: InkMeasures, r: int, c: int) -> bool:
    """Whether what covers a space may be its own lake: it is read with a lake side and the
    cover is not skin-coloured (a filled or hatched lake measures as covered, as a pen or a
    die does; docs/VISION.md, "A lake is named beside its cover")."""
    hand = measures.skin is not None and bool(measures.skin[r, c])
    return "L" in side_letters(token) and not hand


def lines_seen(measures: InkMeasures, r: int, c: int) -> float:
    """How clearly the space's printed lines show: the second faintest of its four, as a
    share of the board's usual (1.0 where the board gives no reference). One faint line
    may be a stroke or a fold along it; two mean the space itself is hard to see."""
    if measures.lines is None:
        return 1.0
    return float(np.sort(measures.lines[r, c])[1])


def loose_ends(grid: list[list[str]], r: int, c: int) -> int:
    """How many of the space's route ends (H, R) face a neighbour inside the board that does
    not carry the same kind of route back (an empty space, a blank side, the other kind)."""
    letters = side_letters(grid[r][c])
    loose = 0
    for side in Side:
        rr, cc = r + side.delta[0], c + side.delta[1]
        if letters[side] in ROUTE_KINDS and 0 <= rr < GRID and 0 <= cc < GRID:
            loose += side_letters(grid[rr][cc])[side.opposite] != letters[side]
    return loose


def ghost_spaces(grid: list[list[str]], measures: InkMeasures,
                 params: InkCheckParams = InkCheckParams()) -> dict[tuple[int, int], float]:
    """The spaces read as routes that may be ghosts of an erased earlier game (board-spec 2:
    faint strokes that are no route), with the board's usual drawn ink they fall short of:
    far fainter than the board's other drawn spaces, and joining little around them (a
    ghost belongs to another game's network). Covered spaces are left to the cover."""
    if params.ghost_ratio is None:
        return {}
    drawn = [(r, c) for r in range(GRID) for c in range(GRID)
             if grid[r][c] != "." and measures.covered[r, c] < params.covered]
    if len(drawn) < params.ghost_min_spaces:
        return {}
    usual = float(np.quantile([measures.ink[r, c] for r, c in drawn], params.ghost_quantile))
    return {(r, c): usual for r, c in drawn
            if measures.ink[r, c] < params.ghost_ratio * usual
            and loose_ends(grid, r, c) >= params.ghost_loose}


def check_ink(grid: list[list[str]], review: list[ReviewEntry], measures: InkMeasures,
              params: InkCheckParams = InkCheckParams()) -> list[ReviewEntry]:
    """The review list with the ink check's findings added; tokens are never changed. A
    board too dark to tell ink from noise (``min_paper``) gets no findings.

    A covered space is listed as covered whatever it was read as (an entry already there
    gets the reason in front of its own; one read with a lake side, no hand on it, is said
    to be perhaps its lake, ``LAKE_FILL``); a space read as empty that holds ink is listed
    as "ink seen, read as empty", a space with no clear ink whose printed lines are hidden
    as such (glare may wash its ink out as well), and a route far fainter than the board's
    others whose ends join nothing as a possible ghost of an erased game (``ghost_spaces``;
    an existing entry for any of them is kept as it is).
    """
    if measures.paper < params.min_paper:
        return list(review)
    entries = {(item.row, item.col): item for item in review}
    threshold = ink_threshold(measures, params)
    ghosts = ghost_spaces(grid, measures, params)
    added: list[ReviewEntry] = []
    for r in range(GRID):
        for c in range(GRID):
            old = entries.get((r, c))
            covered = float(measures.covered[r, c])
            if covered >= params.covered:
                reason = f"{COVERED} ({covered:.0%} of it)"
                if _lake_fill(grid[r][c], measures, r, c):
                    reason += f", {LAKE_FILL}"
                if old is not None:
                    entries[(r, c)] = ReviewEntry(old.row, old.col, old.token, old.alternatives,
                                                  f"{reason}; {old.reason}", kind="covered")
                else:
                    added.append(ReviewEntry(r, c, grid[r][c], (), reason, kind="covered"))
                continue
            if old is not None:
                continue
            if grid[r][c] == "." and float(measures.ink[r, c]) >= threshold:
                added.append(ReviewEntry(
                    r, c, ".", (), f"{INK_SEEN} (contrast {measures.ink[r, c]:.2f})",
                    kind="ink"))
            elif (float(measures.ink[r, c]) < threshold
                  and (seen := lines_seen(measures, r, c)) < params.hidden_below):
                added.append(ReviewEntry(
                    r, c, grid[r][c], (), f"{HIDDEN} (lines {seen:.0%} as clear as elsewhere)",
                    kind="hidden"))
            elif (r, c) in ghosts:
                added.append(ReviewEntry(
                    r, c, grid[r][c], (), f"{GHOST} (contrast {measures.ink[r, c]:.2f}, the "
                    f"board's drawn spaces {ghosts[(r, c)]:.2f})", kind="ghost"))
    merged = [entries[(item.row, item.col)] for item in review] + added
    return sorted(merged, key=lambda item: (item.row, item.col))
