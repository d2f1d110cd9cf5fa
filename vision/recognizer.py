"""Photo to board: the whole pipeline behind one object.

    from vision.recognizer import Recognizer
    rec = Recognizer.load()            # loads the models once
    reading = rec.read("board.jpg")    # or a BGR array; corners=[(x, y)] * 4 to skip locating
    reading.grid, reading.review, reading.confidence

Stages (each timed in ``reading.timings``): load (decode the photo, reduced), locate (find the
lattice, or check the corners given by hand), rectify (one warp to the canonical board as
found), unbend (vision.unbend: follow the printed lines; on bent paper, warp again so that
each space is cut along its own lines), orient (the straightened board's ink flat-fielded,
then which side is the top: Exit marks, artwork, round numbers; the board is then turned,
not warped again, and cut into 49 crops), classify (one batched ONNX call), decode (tokens,
neighbour prior, review list), ink_check (vision.ink_check: ink read as empty and covered
spaces added to the review list, tokens unchanged), covered (vision.covered: on a board that
looks played, the spaces the ink check finds covered read again from what their neighbours
show). When to refuse a photo and when to warn is vision.acceptance's policy. A photo whose
lattice is refused as no board is searched again with that lattice painted over
(vision.rivals: a blank grid sheet beside the board), and a photo still refused is located
once more on a finer working image and on the usual one, smaller lattices considered
(``retry_locates``: a small board in a large photo) before its refusal stands.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

import numpy as np
from threadpoolctl import ThreadpoolController

from vision.acceptance import (
    AcceptanceParams,
    FoundBoard,
    accept_lattice,
    accept_reading,
    blank_grid,
    blank_reading,
    blank_warnings,
    hand_corners,
    orientation_warnings,
    second_search_kept,
    unbend_warnings,
)
from vision.board_context import BoardContext, ContextScorer
from vision.channels import ChannelParams, SetAside, photo_set_aside, set_aside
from vision.classify import (
    BaseGameClassifier,
    CellClassifier,
    ClassifyParams,
    FaintBaseGameClassifier,
    FaintCellClassifier,
    Readers,
    WaterCheck,
    WideCellClassifier,
    bare,
    doubtful,
    faint_throughout,
    has_faint_ink,
    in_classes,
    same_input,
    second_doubt_ratio,
    second_reading_kept,
    second_reading_spaces,
    shows_water,
)
from vision.covered import CoveredParams, read_covered
from vision.crops import Darkness, space_crops
from vision.decode import Decoded, DecodeParams
from vision.errors import PhotoError
from vision.faint_empty import FaintEmptyParams, faint_empty_review
from vision.grain import GrainParams, quietened
from vision.image_io import LoadedPhoto, load_source
from vision.ink_check import InkCheckParams, InkMeasures, check_ink, measure_ink
from vision.locate import LocateParams, find_lattice
from vision.marks import MarkParams, check_marks, mark_threshold, marks_warning
from vision.model_files import models_dir as shipped_models_dir
from vision.onnx_model import SessionOpener
from vision.orient import WIDE_BOARD, BoardOrienter, OrientParams
from vision.other_reading import OtherReadingParams, other_reading_review
from vision.rectify import (
    GRID,
    BoardRegion,
    CanonicalBoard,
    board_region,
    canonical_to_image,
    space_side,
    turn_canonical,
    warp_board,
    warp_board_mesh,
)
from vision.review import ReviewEntry, least_sure_first
from vision.rivals import RivalParams, blank_lattice
from vision.route_balance import (
    Balance,
    RouteBalanceParams,
    balance_routes,
    balance_warning,
    balanced_review,
)
from vision.sessions import cpu_session
from vision.unbend import Unbend, UnbendParams, unbend
from vision.water_colour import (
    SpaceInk,
    WaterColourParams,
    check_water_colour,
    space_ink,
    water_in_own_colour,
)
from vision.water_sighting import (
    ExpansionSighting,
    WaterParams,
    reads_water,
    sight_water,
    unseen_water,
)

__all__ = ["PhotoError", "PhotoReading", "ReadParams", "Recognizer"]

# Margin kept round the lattice when the photo is cut to the board: the orienter's wide view
# needs the most (and warp_board keeps half a space more than a view's padding).
REGION_MARGIN_SPACES = WIDE_BOARD.pad_px / WIDE_BOARD.cell_px + 0.5


@dataclass(frozen=True)
class ReadParams:
    """Every tunable of ``Recognizer.read``, stage by stage."""

    locate: LocateParams = field(default_factory=LocateParams)
    orient: OrientParams = field(default_factory=OrientParams)
    classify: ClassifyParams = field(default_factory=ClassifyParams)
    decode: DecodeParams = field(default_factory=DecodeParams)
    route_balance: RouteBalanceParams = field(default_factory=RouteBalanceParams)
    acceptance: AcceptanceParams = field(default_factory=AcceptanceParams)
    ink: InkCheckParams = field(default_factory=InkCheckParams)
    water: WaterParams = field(default_factory=WaterParams)
    water_colour: WaterColourParams = field(default_factory=WaterColourParams)
    unbend: UnbendParams = field(default_factory=UnbendParams)
    marks: MarkParams = field(default_factory=MarkParams)
    covered: CoveredParams = field(default_factory=CoveredParams)
    faint_empty: FaintEmptyParams = field(default_factory=FaintEmptyParams)
    other_reading: OtherReadingParams = field(default_factory=OtherReadingParams)
    rivals: RivalParams = field(default_factory=RivalParams)
    grain: GrainParams = field(default_factory=GrainParams)
    channels: ChannelParams = field(default_factory=ChannelParams)


# Which readers' reading a board's is (Classified.readers, PhotoReading.readers)
STANDARD_READERS = "standard"
FAINT_READERS = "faint-ink"  # its ink is faint (vision.classify.has_faint_ink)
# read doubtfully by the standard readers, then again by the faint-ink readers, whose
# reading is kept whole, or dropped, or (ClassifyParams.merge_sure set) merged space by space
# with the first:
SECOND_READING_KEPT = "faint-ink, second reading"
SECOND_READING_MERGED = "standard where sure, faint-ink elsewhere"
SECOND_READING_DROPPED = "standard, second reading dropped"
# read as (nearly) bare by the standard readers, then by the faint-ink readers counting
# fainter strokes (ClassifyParams.blank_spaces), whose reading is kept:
BARE_READING = "faint-ink, board read bare"
FAINT_READINGS = (FAINT_READERS, SECOND_READING_KEPT, BARE_READING)  # the faint-ink readers' readings


@dataclass
class Classified:
    """The classify stage's output: (7, 7, n_classes) probabilities, which readers gave them
    (one of the names above), and what their parts network's mark head says (vision.marks)."""

    probs: np.ndarray
    readers: str
    marks: np.ndarray | None = None  # (7, 7) probability of ink the reading does not explain
    # the reading network's threshold on ``marks``; (7, 7) for a reading merged space by
    # space (each space's network's)
    mark_threshold: float | np.ndarray | None = None
    # (7, 7, n_classes) the parts network's first reading, before a base-game reader or the
    # water rules read the board (vision.water_sighting.unseen_water); None: not known
    parts_probs: np.ndarray | None = None
    # (7, 7, n_classes) the reading not kept of a board read by both sets of readers and
    # kept whole (vision.other_reading); None: read once, or merged
    other_probs: np.ndarray | None = None


@dataclass
class Reading:
    """One set of readers' reading of a board's 49 crops."""

    probs: np.ndarray  # (49, n_classes)
    marks: np.ndarray | None  # (49,) the parts network's mark head; None: it has none
    mark_threshold: float | np.ndarray | None  # (49,) when merged
    parts_probs: np.ndarray | None = None  # (49, n_classes) the parts network's first reading

    def merged(self, second: Reading, take_second: np.ndarray) -> Reading:
        """This reading with the spaces where ``take_second`` (49,) is set taken from
        ``second``, each with its own network's mark probability and threshold (the first's
        marks alone when either network has no mark head)."""
        take = np.asarray(take_second, bool)
        probs = np.where(take[:, None], second.probs, self.probs)
        parts = (self.parts_probs if self.parts_probs is None or second.parts_probs is None
                 else np.where(take[:, None], second.parts_probs, self.parts_probs))
        if self.marks is None or second.marks is None:
            return Reading(probs, self.marks, self.mark_threshold, parts)
        thresholds = np.where(take, second.mark_threshold, self.mark_threshold)
        return Reading(probs, np.where(take, second.marks, self.marks), thresholds, parts)


@dataclass
class PhotoReading:
    """What was read from one photo."""

    source: str
    grid: list[list[str]]  # 7 x 7 tokens, row 0 = the board's printed top
    probs: np.ndarray  # (7, 7, n_classes) probabilities, classes as in ``classes``
    classes: list[str]
    review: list[ReviewEntry]  # spaces to check
    corners: np.ndarray  # (4, 2) lattice corners in photo pixels: TL, TR, BR, BL
    confidence: float  # 0..1: how surely the board was located
    orientation_confidence: float  # 0..1: how surely its top was found
    board_image: np.ndarray  # straightened board, BGR (for annotation)
    board: CanonicalBoard  # layout of ``board_image``
    timings: dict[str, float] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    # Deep Blue expansions the drawn water shows (River, Lake), with the spaces and why
    expansions_seen: list[ExpansionSighting] = field(default_factory=list)
    # (7, 7, 4, 2) every space's corners in photo pixels (TL, TR, BR, BL), row 0 = the top:
    # where its printed lines cross (vision.unbend), or the lattice corners' homography
    space_corners: np.ndarray | None = None
    bend: Unbend | None = None  # the printed lines followed (None: not looked for)
    readers: str = ""  # which readers' reading this is (Classified.readers)
    # (7, 7) probability that a space holds ink the reading does not explain (vision.marks);
    # None when the reading network has no mark head
    marks: np.ndarray | None = None
    ink: InkMeasures | None = None  # the ink check's measures (None: the check is off)
    # the size of the board's spaces in the photo as decoded (px; what the readers saw,
    # ClassifyParams.small_space_px); 0 when not measured
    space_px: float = 0.0
    # the colour channel set aside as too dark to show ink (vision.channels), e.g. "B"
    channel_set_aside: str = ""

    def grid_lines(self) -> list[str]:
        """The grid as 7 strings of space-separated tokens (board-spec 4.2)."""
        return [" ".join(row) for row in self.grid]


@dataclass
class Lattice:
    """The board's lattice in the loaded image, its top not yet known."""

    corners: np.ndarray  # (4, 2) image pixels, clockwise from the top-left-most
    confidence: float  # 0..1; 1 for corners given by hand
    given: bool  # by hand, not found
    warnings: list[str] = field(default_factory=list)


@dataclass
class StraightBoard:
    """The board straightened as found: the photo cut to it, and the canonical views."""

    region: BoardRegion  # the photo cut to the lattice and shrunk, serving every view
    flat: np.ndarray  # canonical BGR board
    cell_px: int  # its spaces' side, in pixels
    bend: Unbend | None = None  # the printed lines followed; applied: flat is warped along them
    grain: GrainParams = field(default_factory=GrainParams)  # when its ink is measured quietened
    set_aside: SetAside = field(default_factory=SetAside)  # its channel too dark to show ink

    @cached_property
    def darkness(self) -> Darkness:
        """Its ink darkness, both ways networks learnt it (of the board quietened, when it is
        grainy: ``vision.grain``); worked out when first asked for (a board the unbend stage
        warps again never needs the first one's)."""
        return Darkness.of(self.flat, self.cell_px, quietened(self.flat, self.grain))


@dataclass
class UprightBoard:
    """The board turned with its printed top up, cut into the classifier's 49 crops."""

    corners: np.ndarray  # (4, 2) image pixels in board order TL, TR, BR, BL
    confidence: float  # 0..1: how surely its top was found
    flat: np.ndarray  # canonical BGR board, upright
    crops: Darkness  # (49, S, S) uint8 ink darkness, row-major, both ways
    lattice: np.ndarray  # (8, 8, 2) image pixels of the printed lines' crossings, upright


def space_quads(lattice: np.ndarray) -> np.ndarray:
    """(7, 7, 4, 2) every space's corners (TL, TR, BR, BL) from the (8, 8, 2) crossings."""
    return np.stack([lattice[:-1, :-1], lattice[:-1, 1:], lattice[1:, 1:], lattice[1:, :-1]],
                    axis=2).astype(np.float32)


def water_loss_ratio(first: np.ndarray, classes: list[str], ink: SpaceInk | None,
                     params: ClassifyParams, colour: WaterColourParams) -> float | None:
    """How much surer than the first reading a second one that loses its water must be to
    replace it (``ClassifyParams.water_loss_ratio``), or None (never) when the first's
    water is drawn in its own colour (``water_in_own_colour``; ``ink`` None: not known)."""
    if params.water_loss_ratio is None or ink is None:
        return params.water_loss_ratio
    if water_in_own_colour(first, classes, ink, colour):
        return None
    return params.water_loss_ratio


def retry_locates(photo: LoadedPhoto, params: LocateParams) -> list[LocateParams]:
    """The locator's parameters for the second search of a refused photo, in turn: a finer
    working image (``finer_locate``, where the photo has the pixels), then the usual working
    image (``RetryParams.usual_side``); both consider smaller lattices than the first search
    (``RetryParams.min_side``)."""
    retry = params.retry
    tries = [finer] if (finer := finer_locate(photo, params)) is not None else []
    if retry.usual_side and retry.work_side:
        tries.append(replace(params, fit=replace(params.fit, min_side=retry.min_side)))
    return tries


def finer_locate(photo: LoadedPhoto, params: LocateParams) -> LocateParams | None:
    """The locator's parameters for a second search of a refused photo: a finer working
    image, smaller lattices considered (``LocateParams.retry``); None when the photo is not
    enough larger than the usual working image for that to show more."""
    retry = params.retry
    finer = min(retry.work_side, max(photo.image.shape[:2]))
    if not retry.work_side or finer < retry.finer * params.candidates.work_side:
        return None
    return replace(params, candidates=replace(params.candidates, work_side=finer),
                   fit=replace(params.fit, min_side=retry.min_side))


class StageClock:
    """Seconds spent in each named stage (added up where it is timed twice):
    ``with clock("locate"): ...``."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    @contextmanager
    def __call__(self, stage: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[stage] = self.seconds.get(stage, 0.0) + time.perf_counter() - start

    def timings(self) -> dict[str, float]:
        """The stages' seconds, and their ``total``."""
        return {**self.seconds, "total": sum(self.seconds.values())}


class Recognizer:
    """Loaded models plus the pipeline; create with ``Recognizer.load()``."""

    def __init__(self, classifier: CellClassifier, orienter: BoardOrienter,
                 params: ReadParams = ReadParams(), load_seconds: float = 0.0,
                 base_classifier: BaseGameClassifier | None = None,
                 faint: Readers | None = None, context: BoardContext | None = None,
                 wide: CellClassifier | None = None) -> None:
        self.classifier = classifier
        self.base_classifier = base_classifier
        if faint is not None and faint.parts.meta.classes != classifier.meta.classes:
            raise ValueError("the faint-ink parts network reads other classes than the "
                             "cell classifier")
        self.faint = faint
        # ... and counting fainter strokes, for a board the standard readers read bare
        self.blank_readers = None if faint is None else faint.with_stroke_floor(
            params.classify.blank_min_contrast)
        # the wide-pen parts network's say on the water of a board the standard readers read
        weight = params.classify.water_check_weight
        self.water_check = None if wide is None or weight is None else WaterCheck(
            same_input(wide, classifier), weight, params.classify.water_check_sure)
        # what played boards look like round a covered space, laid out for the classes read
        self.context = None if context is None else ContextScorer(context,
                                                                  list(classifier.meta.classes))
        self.orienter = orienter
        self.params = params
        self.load_seconds = load_seconds
        meta = classifier.meta
        self.board = CanonicalBoard(cell_px=meta.cell_px, pad_px=meta.pad_px)
        # numpy's BLAS, held to one thread while reading (``read``)
        self.blas = ThreadpoolController()

    @classmethod
    def load(cls, models_dir: Path | str | None = None, threads: int = 1,
             params: ReadParams = ReadParams(), int8: bool = True,
             open_session: SessionOpener = cpu_session) -> Recognizer:
        """Load the classifiers and the orienter's networks from ``models_dir`` (the shipped
        models by default), ``threads`` threads inside an operator. Without a base-game
        reader in ``models_dir`` the parts network reads every board; without the faint-ink
        readers the standard ones read boards with faint ink too; without the wide-pen parts
        network the standard readers' water goes unchecked. ``int8``: read a classifier
        through its 8-bit twin where its metadata names one (False: the float networks);
        ``open_session``: how a classifier's file becomes a session."""
        start = time.perf_counter()
        models_dir = Path(models_dir) if models_dir is not None else shipped_models_dir()
        opened = {"threads": threads, "int8": int8, "open_session": open_session}
        # (without board_context.json in it, covered spaces keep the classifier's reading)
        classifier = CellClassifier.load(models_dir, **opened)
        base = BaseGameClassifier.load_if_present(models_dir, **opened)
        faint_parts = FaintCellClassifier.load_if_present(models_dir, **opened)
        faint = None if faint_parts is None else Readers(
            faint_parts, FaintBaseGameClassifier.load_if_present(models_dir, **opened))
        wide = WideCellClassifier.load_if_present(models_dir, **opened)
        orienter = BoardOrienter.load(models_dir, params.orient)
        context = BoardContext.load_if_present(models_dir)
        return cls(classifier, orienter, params, time.perf_counter() - start, base, faint,
                   context, wide)

    def read(self, source: str | Path | np.ndarray,
             corners: np.ndarray | list | None = None) -> PhotoReading:
        """Read a board from a photo file or BGR array.

        ``corners``: optional 4 (x, y) photo pixels of the lattice's outer corners, in any
        order; they replace locating, and the board's top is decided as for a found board.
        A photo whose lattice is refused as no board is searched again with that lattice
        painted over (``rival_search``: a blank grid sheet or a noisy patch found instead of
        the board). A photo still refused is located once more, on a finer working image
        and on the usual one, smaller lattices considered (``retry_locates``: a small board
        in a large photo), and read if that finds a board the policy accepts and was found
        and oriented beyond doubt (``second_search_kept``). A board read blank is searched
        for a rival the same way (``beside_blank``: a spare grid sheet beside the board).
        Raises PhotoError (one line, naming the photo, the first search's reason) when no
        board can be read.

        numpy's BLAS runs on one thread meanwhile: the read's linear algebra is small (the
        printed lines' fit, vision.unbend), and BLAS threads only wait on each other, and
        on other reads running beside it (docs/VISION.md, "One BLAS thread a read").
        """
        with self.blas.limit(limits=1, user_api="blas"):
            clock = StageClock()
            with clock("load"):
                photo = load_source(source)
            try:
                reading = self.read_photo(photo, source, corners, self.params.locate, clock)
                return reading if corners is not None else self.beside_blank(
                    photo, source, reading, clock)
            except PhotoError as refusal:
                if corners is not None:
                    raise
                found = (self.rival_search(photo, source, refusal, clock)
                         or self.second_search(photo, source, clock))
                if found is None:
                    raise  # the first search's refusal
                return found

    def rival_search(self, photo: LoadedPhoto, source: str | Path | np.ndarray,
                     refusal: PhotoError, clock: StageClock) -> PhotoReading | None:
        """A photo whose lattice was refused as no board, read with that lattice painted
        over (vision.rivals), up to ``RivalParams.tries`` times; None when no rival is read
        (or the refusal was of no lattice)."""
        params = self.params.rivals
        for _ in range(params.tries if params.enabled else 0):
            if refusal.lattice is None:
                return None
            with clock("locate"):
                photo = replace(photo, image=blank_lattice(photo.image, refusal.lattice,
                                                           params))
            try:
                return self.read_photo(photo, source, None, self.params.locate, clock)
            except PhotoError as again:
                refusal = again
        return None

    def beside_blank(self, photo: LoadedPhoto, source: str | Path | np.ndarray,
                     reading: PhotoReading, clock: StageClock) -> PhotoReading:
        """``reading``, or, when it is of a blank board (``vision.acceptance.blank_reading``:
        perhaps a spare sheet beside the played one), the photo read with that lattice
        painted over, if that reads a board with something drawn on it
        (``RivalParams.blank_boards``)."""
        params = self.params.rivals
        if not (params.enabled and params.blank_boards
                and blank_reading(reading.grid, reading.review)):
            return reading
        with clock("locate"):
            painted = replace(photo, image=blank_lattice(
                photo.image, np.asarray(reading.corners) * photo.scale, params))
        try:
            rival = self.read_photo(painted, source, None, self.params.locate, clock)
        except PhotoError:
            return reading
        return reading if blank_grid(rival.grid) else rival

    def second_search(self, photo: LoadedPhoto, source: str | Path | np.ndarray,
                      clock: StageClock) -> PhotoReading | None:
        """A refused photo read from a second search (``retry_locates``: a finer working
        image, then the usual one, smaller lattices considered), the first that finds a
        board the policy accepts and ``second_search_kept`` keeps; else None."""
        for retry in retry_locates(photo, self.params.locate):
            try:
                second = self.read_photo(photo, source, None, retry, clock)
            except PhotoError:
                continue
            if second_search_kept(second.confidence, second.orientation_confidence,
                                  self.params.acceptance):
                return second
        return None

    def read_photo(self, photo: LoadedPhoto, source: str | Path | np.ndarray,
                   corners: np.ndarray | list | None, locate_params: LocateParams,
                   clock: StageClock) -> PhotoReading:
        """``read`` of a loaded photo, locating with ``locate_params``; raises PhotoError."""
        with clock("locate"):
            lattice = self.locate(photo, corners, locate_params)
        with clock("rectify"):
            straight = self.rectify(photo.image, lattice.corners)
        if self.params.unbend.enabled:
            with clock("unbend"):
                straight = self.unbend(straight)
        with clock("orient"):
            upright = self.orient(straight)
        space_px = space_side(lattice.corners)
        with clock("classify"):
            ink = self.space_ink(upright.crops)
            classified = self.classify(upright.crops, space_px, ink)
        with clock("decode"):
            decoded, balance = self.decode(classified.probs)
        probs = balance.probs
        try:
            doubts = [] if lattice.given else accept_reading(photo, decoded, FoundBoard(
                lattice.confidence, lattice.corners, upright.confidence,
                None if straight.bend is None else straight.bend.lines_followed),
                self.params.acceptance)
        except PhotoError as refusal:
            refusal.lattice = lattice.corners  # a rival may be the board (vision.rivals)
            raise
        measures = None
        if self.params.ink.enabled:  # its findings never refuse a photo
            with clock("ink_check"):
                measures = measure_ink(upright.flat, self.board, self.params.ink)
        with clock("water"):
            grid, review, seen = self.read_water(
                decoded, probs, ink, frozenset() if measures is None else measures.skin_spaces())
        if measures is not None:
            with clock("covered"):
                grid, review = self.read_covered(grid, probs, review, measures, seen)
        review = unseen_water(grid, classified.parts_probs, list(self.classifier.meta.classes),
                              review, self.params.water)
        review = check_marks(grid, review, classified.marks,
                             mark_threshold(classified.mark_threshold, self.params.marks))
        if measures is not None:
            with clock("ink_check"):
                review = check_ink(grid, review, measures, self.params.ink)
        review = other_reading_review(grid, classified.other_probs,
                                      list(self.classifier.meta.classes), review,
                                      self.params.other_reading)
        review = faint_empty_review(grid, probs, list(self.classifier.meta.classes), review,
                                    classified.readers in FAINT_READINGS,
                                    self.params.faint_empty)
        review = least_sure_first(review, probs)
        return PhotoReading(
            source=photo.name if isinstance(source, np.ndarray) else str(source),
            grid=grid, probs=probs, classes=list(self.classifier.meta.classes),
            review=review, corners=(upright.corners / photo.scale).astype(np.float32),
            confidence=lattice.confidence, orientation_confidence=upright.confidence,
            board_image=upright.flat, board=self.board, timings=clock.timings(),
            warnings=lattice.warnings + orientation_warnings(upright.confidence,
                                                             self.params.acceptance)
            + unbend_warnings(straight.bend) + balance_warning(balance) + doubts
            + marks_warning(review, self.params.marks) + blank_warnings(grid, review),
            expansions_seen=seen, space_corners=space_quads(upright.lattice / photo.scale),
            bend=straight.bend, readers=classified.readers, marks=classified.marks,
            ink=measures, space_px=space_px, channel_set_aside=straight.set_aside.name)

    def decode(self, probs: np.ndarray) -> tuple[Decoded, Balance]:
        """Tokens and review list from the classified probabilities, railways and highways
        weighed again on a board that reads far too few of one kind
        (``vision.route_balance``); the balance holds the probabilities decoded."""
        classes = list(self.classifier.meta.classes)
        balance = balance_routes(probs, classes, self.params.decode, self.params.route_balance)
        return Decoded(balance.decoded.grid, balanced_review(balance, classes)), balance

    def space_ink(self, crops: Darkness) -> SpaceInk:
        """The colour of each space's ink (``vision.water_colour.space_ink``), from the
        classifier's crops."""
        meta = self.classifier.meta
        return space_ink(crops.each, crops.blue, meta.cell_px, meta.margin_px,
                         self.params.water_colour)

    def read_water(self, decoded: Decoded, probs: np.ndarray, ink: SpaceInk,
                   hands: frozenset[tuple[int, int]] = frozenset()
                   ) -> tuple[list[list[str]], list[ReviewEntry], list[ExpansionSighting]]:
        """The decoded grid with its water checked against the colour of each space's
        ``ink`` (``vision.water_colour``), then the expansions it shows (``sight_water``;
        the ``hands`` spaces, a hand on them, are no evidence of water)."""
        params = self.params
        classes = list(self.classifier.meta.classes)
        grid, review, coloured = check_water_colour(decoded.grid, probs, classes,
                                                    decoded.review, ink, params.water_colour)
        return sight_water(grid, probs, classes, review, params.water, coloured, hands)

    def read_covered(self, grid: list[list[str]], probs: np.ndarray,
                     review: list[ReviewEntry], measures: InkMeasures,
                     seen: list[ExpansionSighting]) -> tuple[list[list[str]], list[ReviewEntry]]:
        """The grid with the spaces the ink check finds covered read from their neighbours
        (``vision.covered``), on a board of the base game (the context tables know no water)
        whose photo is light enough for the ink check to tell a hand from a shadow."""
        if (self.context is None or seen or measures.paper < self.params.ink.min_paper):
            return grid, review
        return read_covered(grid, probs, review, measures.covered, self.context,
                            self.params.covered)

    def locate(self, photo: LoadedPhoto, corners: np.ndarray | list | None = None,
               params: LocateParams | None = None) -> Lattice:
        """The lattice found in the photo (with ``params``, by default the recogniser's), or
        given by hand (checked); raises PhotoError when the photo is refused."""
        policy = self.params.acceptance
        if corners is not None:
            return Lattice(hand_corners(corners, photo, policy), confidence=1.0, given=True)
        # a colour channel too dark to show ink over most of the photo is set aside: its
        # noise can hide the printed lattice, or move it a space (vision.channels)
        image = photo_set_aside(photo.image, self.params.channels).apply(photo.image)
        fit = find_lattice(image, params or self.params.locate)
        warnings = accept_lattice(photo, fit, policy)
        return Lattice(fit.corners, fit.confidence, given=False, warnings=warnings)

    def rectify(self, image: np.ndarray, corners: np.ndarray) -> StraightBoard:
        """One cut-and-shrink of the photo serving every view of the board (the straightened
        board here, the orienter's views next), and the board straightened as found; a colour
        channel too dark over its paper to show ink set aside in both (vision.channels)."""
        cell_px = self.board.cell_px
        region = board_region(image, corners, cell_px, REGION_MARGIN_SPACES)
        flat = warp_board(region.image, region.corners, self.board)
        dark = set_aside(flat, self.params.channels)  # vision.channels
        if dark.channel is not None:
            region, flat = replace(region, image=dark.apply(region.image)), dark.apply(flat)
        return StraightBoard(region, flat, cell_px, grain=self.params.grain, set_aside=dark)

    def unbend(self, straight: StraightBoard) -> StraightBoard:
        """Follow the printed lines of the board straightened as found; where they are
        trusted and not straight, warp the board again so that every space is cut along its
        own lines (one remap of the region through the homography)."""
        bend = unbend(straight.flat, self.board, self.params.unbend)
        if not bend.applied:
            return replace(straight, bend=bend)
        region = straight.region
        flat = warp_board_mesh(region.image, region.corners, self.board,
                               lambda points: bend.source_points(self.board, points),
                               self.params.unbend.map_step_px)
        return replace(straight, flat=flat, bend=bend)

    def orient(self, straight: StraightBoard) -> UprightBoard:
        """Decide the board's top, turn the straightened board upright, cut its crops."""
        region = straight.region
        # the round-number reader learnt the darkest channel
        orientation = self.orienter.orient(region.image, region.corners,
                                           straight.darkness.darkest, self.board)
        turns = orientation.quarter_turns
        margin = self.classifier.meta.margin_px
        crops = straight.darkness.map(
            lambda darkness: space_crops(turn_canonical(darkness, turns), self.board, margin))
        return UprightBoard(corners=region.to_photo(orientation.corners),
                            confidence=orientation.confidence,
                            flat=turn_canonical(straight.flat, turns), crops=crops,
                            lattice=self.lattice_points(straight, turns))

    def lattice_points(self, straight: StraightBoard, quarter_turns: int) -> np.ndarray:
        """(8, 8, 2) image pixels of the lattice's crossings, in upright board order: the
        printed lines' own where they were followed and applied, else the homography's."""
        bend = straight.bend
        if bend is not None and bend.applied:
            canonical = bend.intersections(self.board)
        else:
            ideal = self.board.pad_px + self.board.cell_px * np.arange(GRID + 1, dtype=np.float64)
            canonical = np.stack(np.meshgrid(ideal, ideal), axis=-1)
        region = straight.region
        points = region.to_photo(canonical_to_image(canonical, region.corners, self.board))
        return np.rot90(points, quarter_turns, axes=(0, 1))

    def classify(self, crops: Darkness, space_px: float | None = None,
                 ink: SpaceInk | None = None) -> Classified:
        """(7, 7, n_classes) probabilities of the 49 crops, and which readers gave them.

        A board with faint ink is read by the faint-ink readers (``readers_for``; their
        parts network reads it on less sure water, ``WaterParams.faint_route_spaces``); a
        board the standard readers read doubtfully (``vision.classify.doubtful``) is read
        by the faint-ink readers too (``second_reading``; ``space_px``: the size of its
        spaces in the photo as decoded, None when not known; ``ink``: its spaces' ink
        colour, ``space_ink``, measured here when not given); a board they read (nearly)
        bare is read by the faint-ink readers counting fainter strokes instead
        (``reads_bare``), whose reading is kept. Of a board read twice and kept whole, the
        reading not kept travels beside it (``Classified.other_probs``, for the review:
        vision.other_reading).
        """
        readers = self.readers_for(crops.each)
        faint = readers is self.faint
        reading = self.read_with(readers, crops, faint_water=faint)
        name = FAINT_READERS if faint else STANDARD_READERS
        other = None  # the reading not kept, of a board read twice and kept whole
        if not faint and self.reads_bare(reading.probs, crops.each):
            reading, name = self.read_with(self.blank_readers, crops, faint_water=True), BARE_READING
        elif (self.faint is not None and not faint
                and doubtful(reading.probs, self.params.classify)):
            first, second = reading, self.read_with(self.faint, crops)
            reading, name = self.second_reading(first, second, space_px,
                                                self.space_ink(crops) if ink is None else ink)
            other = {SECOND_READING_KEPT: first, SECOND_READING_DROPPED: second}.get(name)
        marks = None if reading.marks is None else reading.marks.reshape(GRID, GRID)
        threshold = reading.mark_threshold
        if isinstance(threshold, np.ndarray):
            threshold = threshold.reshape(GRID, GRID)
        parts = (None if reading.parts_probs is None
                 else reading.parts_probs.reshape(GRID, GRID, -1))
        return Classified(reading.probs.reshape(GRID, GRID, -1), name, marks, threshold, parts,
                          None if other is None else other.probs.reshape(GRID, GRID, -1))

    def reads_bare(self, probs: np.ndarray, crops: np.ndarray) -> bool:
        """Whether the standard readers' reading of a board, ``probs``, is (nearly) bare on a
        board of faint ink, so that the faint-ink readers read it again counting fainter
        strokes (``blank_readers``): at most ``ClassifyParams.blank_spaces`` spaces read
        drawn, and none of its ``crops`` (each colour channel) with ink standing
        ``blank_dark`` above the paper (when the faint-ink readers are shipped)."""
        params = self.params.classify
        return (self.faint is not None and params.blank_spaces is not None
                and bare(probs, list(self.classifier.meta.classes), params.blank_spaces)
                and faint_throughout(crops, self.faint.parts, params.blank_dark))

    def second_reading(self, first: Reading, second: Reading, space_px: float | None = None,
                       ink: SpaceInk | None = None) -> tuple[Reading, str]:
        """What a doubtful board's two readings (the standard readers', the faint-ink
        readers') give, and its name: the second whole when it is less in doubt (on a board
        without water, less than ``dry_second_doubt_ratio`` times as much; on a board of
        small spaces, ``space_px`` px, whatever its doubt: ``second_doubt_ratio``) and keeps
        the first's water, or, losing it, is less than ``water_loss_ratio`` times as much in
        doubt, unless the first's water is drawn in its own colour (``ink``, the board's
        spaces' ink: ``water_in_own_colour``; None: not known) (``second_reading_kept``);
        else, with ``merge_sure`` set and
        neither showing water, the two merged space by space (``second_reading_spaces``: the
        spaces the first is sure of keep it); else (by default, and on a board with water,
        on which the merge read worse) the first whole."""
        params, classes = self.params.classify, list(self.classifier.meta.classes)
        water = shows_water(first.probs, classes)
        ratio = second_doubt_ratio(space_px, params, water)
        if second_reading_kept(first.probs, second.probs, classes, ratio,
                               water_loss_ratio(first.probs, classes, ink, params,
                                                self.params.water_colour)):
            return second, SECOND_READING_KEPT
        if params.merge_sure is None or water or shows_water(second.probs, classes):
            return first, SECOND_READING_DROPPED
        take = second_reading_spaces(first.probs, params.merge_sure)
        return first.merged(second, take), SECOND_READING_MERGED

    def read_with(self, readers: Readers, crops: Darkness, faint_water: bool = False
                  ) -> Reading:
        """The 49 crops read by ``readers``: (49, n_classes) probabilities, and the parts
        network's mark head (vision.marks) from its first reading.

        The parts network reads every board once; a board on which it reads no water
        (``vision.water_sighting.reads_water``: a space read as water at least
        ``WaterParams.route_sure`` surely, or, with ``faint_water``, the faint-ink readers
        reading a board of faint ink, one kind of water on
        ``WaterParams.faint_route_spaces`` spaces, one of them surely, rivers joined), or on
        which the readers' water check (``vision.classify.WaterCheck``, the wide-pen parts
        network) takes the water off (its mean reading is the first then), is
        read by the base-game reader (when there is one), whose probabilities are given over
        the same classes (water classes zero), except the spaces the parts network is at
        least ``ClassifyParams.parts_sure`` sure of, which keep its reading (water at most 1
        - parts_sure); a board with water is read by the parts network, turned copies for
        the spaces it is unsure of. Each network gets its crops cut as its training data was
        (``ModelMeta.ink_channels``). The reading keeps the parts network's own first
        reading beside it (``Reading.parts_probs``, for ``unseen_water``).
        """
        tta = self.params.classify
        parts = crops.by(readers.parts.meta.ink_channels)
        first, marks = readers.parts.first_reading(parts)
        own = first  # the parts network's own reading, whatever reads the board after it
        threshold = readers.parts.mark_threshold
        classes = list(readers.parts.meta.classes)
        water = self.params.water
        spaces = water.faint_route_spaces if faint_water else None
        dry = not reads_water(first, classes, water, spaces=spaces,
                              letters=water.faint_route_letters)
        if readers.base is not None and not dry and readers.water_check is not None:
            mean = readers.water_check.without_water(first, parts, classes, water)
            if mean is not None:  # the second network takes the water off
                first, dry = mean, True
        if readers.base is not None and dry:
            unsure = None if tta.parts_sure is None else np.flatnonzero(
                first.max(axis=1) < tta.parts_sure)
            base = in_classes(readers.base.read(crops.by(readers.base.meta.ink_channels),
                                                turns=tta.turns, sure=tta.sure, only=unsure,
                                                mirror=tta.mirror),
                              list(readers.base.meta.classes), classes)
            if unsure is None:
                return Reading(base, marks, threshold, own)
            probs = first.copy()  # the spaces the parts network is sure of keep its reading
            probs[unsure] = base
            return Reading(probs, marks, threshold, own)
        return Reading(readers.parts.read(parts, turns=tta.turns, sure=tta.sure, first=first,
                                          mirror=tta.mirror and tta.mirror_parts),
                       marks, threshold, own)

    def readers_for(self, crops: np.ndarray) -> Readers:
        """The faint-ink readers for a board with faint ink (``vision.classify.has_faint_ink``
        on its crops of each colour channel, which keep a pale marker on tinted paper; when
        the readers are shipped), else the standard ones."""
        if self.faint is not None and has_faint_ink(crops, self.faint.parts,
                                                    self.params.classify):
            return self.faint
        return Readers(self.classifier, self.base_classifier, self.water_check)
