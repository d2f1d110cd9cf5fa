"""Read the 49 space crops with the ONNX cell classifier: one batched call, probabilities kept.

Test-time augmentation (optional): the crops are also classified turned by 90, 180 and 270
degrees (and, with ``mirror``, mirrored left-right and turned again: the eight views the
networks were trained on), and each view's reading is mapped back to the unturned token
before averaging. It can be kept to the crops the first reading is unsure of (``sure``),
which is most of its gain for a fraction of the time.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from scoring.space import EMPTY_TOKEN
from vision.crops import InkGain, board_ink, gain_of, with_ink_gain
from vision.model_meta import (
    BASE_META_FILE,
    BASE_MODEL_FILE,
    FAINT_BASE_META_FILE,
    FAINT_BASE_MODEL_FILE,
    FAINT_META_FILE,
    FAINT_MODEL_FILE,
    META_FILE,
    MODEL_FILE,
    WIDE_META_FILE,
    WIDE_MODEL_FILE,
    ModelMeta,
    mirror_index_map,
    rotation_index_map,
)
from vision.onnx_model import NetworkIO, OnnxModel, softmax
from vision.water_sighting import WaterParams, reads_water, water_mask

ANY_WATER = WaterParams(route_sure=0.0)  # reads_water: a best class with water, however sure


@dataclass(frozen=True)
class ClassifyParams:
    """Test-time augmentation: spaces read in ``turns`` quarter turns (1: no augmentation),
    only those whose first reading is less sure than ``sure`` (None: all of them)."""

    turns: int = 4
    sure: float | None = 0.995
    # the turned views of the base-game reader's unsure spaces mirrored left-right too (East
    # and West swap, as in training: eight views); mirror_parts: the parts network's too,
    # which on the Deep Blue tuning set read 1 space better for 50 % more classify time
    # (docs/VISION.md, "Mirror images and faint routes read as empty")
    mirror: bool = True
    mirror_parts: bool = False
    # A board whose ink gain (vision.crops.InkGain, as the faint-ink readers measure it) is
    # above faint_above, with strokes in at least faint_min_spaces spaces, has faint ink: the
    # faint-ink readers read it (when shipped). A board with fewer strokes (no finished game
    # has so few) is left to the standard readers: its gain is measured on too little ink.
    faint_above: float = 1.0
    faint_min_spaces: int = 10
    # ... counting, besides the spaces whose ink stands min_contrast above the paper
    # (vision.crops.InkGain: dark strokes), those whose ink stands at least this share of
    # its darkest space's height above it (``BoardInk.spaces_above``), whichever are more:
    # on a board of faint pencil few strokes reach min_contrast, the very boards the
    # faint-ink readers are for (docs/VISION.md, "Faint pencil counted by its own
    # strokes"). None: only the former.
    faint_stroke_share: float | None = 0.5
    # A board the standard readers read with at least doubtful_spaces spaces less sure than
    # doubtful_below is read by the faint-ink readers too (worn, streaky or blurred ink that
    # is not faint overall). Their reading is kept whole when it keeps the water the first
    # shows and is less than second_doubt_ratio times as much in doubt
    # (``second_reading_kept``; 1.0: less in doubt; dry_second_doubt_ratio below on boards
    # without water); otherwise the standard reading is kept.
    # With merge_sure set, a board whose second reading is not kept and on which neither
    # reading shows water is merged space by space instead (``second_reading_spaces``): a
    # space the standard reading is at least merge_sure sure of keeps it, the others take
    # the faint-ink reading. 0.995 reads phone photos better and both held-out base sets a
    # little worse, so the default stays None (docs/VISION.md, "Which reading a doubtful
    # board keeps" and "A doubtful board read space by space").
    doubtful_below: float = 0.9
    doubtful_spaces: int = 3
    merge_sure: float | None = None
    second_doubt_ratio: float = 1.0
    # On a board whose first reading shows no water the second reading is the faint-ink
    # base-game reader's: there it is kept unless it is at least dry_second_doubt_ratio times
    # as much in doubt. 1.5 reads held-out phone photos better (1,220 to 1,196 wrong spaces)
    # and held-out base boards a little worse (128 to 131), so the default stays 1.0, the
    # rule as before (docs/VISION.md, "A doubtful board without water: the faint-ink reading
    # kept more often (measured, not the default)"); on boards with water a looser ratio lost
    # water on clean Deep Blue boards.
    dry_second_doubt_ratio: float = 1.0
    # A second reading that loses the water the first shows (``loses_water``) is kept only
    # when it is less than water_loss_ratio times as much in doubt as the first (None:
    # never). The faint-ink base-game reader cannot see water, and is often surer of a board
    # whose water it misses; but where the standard readers see water on a base-game phone
    # photo (a curled marker board read as River), the faint-ink reading is the far surer
    # one, and the right one (docs/VISION.md, "False water on a doubtful board: the surer
    # reading without it"). Never when the first's water is drawn bluer than its routes
    # (``vision.water_colour.water_in_own_colour``): a blue river is a river.
    water_loss_ratio: float | None = 0.75
    # A doubtful board whose spaces are smaller than small_space_px in the photo as decoded
    # (vision.rectify.space_side of the lattice found) keeps the faint-ink readers' second
    # reading whatever its doubt (when it keeps the first's water): so small, a railway's
    # ties are a pixel or two, the standard readers (trained on clean renders) lose them and
    # the two readers' doubts are no longer on one scale; the faint-ink readers learnt
    # low-resolution phone photos. None: the doubt alone decides. Chosen on the tuning sets
    # (docs/VISION.md, "Small spaces keep the faint-ink reading").
    small_space_px: float | None = 40.0
    # On a board without water, the spaces the parts network's first reading is at least
    # parts_sure sure of keep that reading, and the base-game reader reads only the others
    # (None: it reads all 49). On the tuning sets 0.995 read 2 fewer spaces wrong of base
    # boards with 10 % fewer flags, and phone boards as before; 0.98 lost 9 phone spaces
    # (docs/VISION.md, "The base-game reader for the spaces the parts network doubts").
    parts_sure: float | None = 0.995
    # A board the standard parts network reads with water is read once more by the wide-pen
    # parts network (when shipped, ``WaterCheck``): when that network reads no space as water
    # at least water_check_sure surely and the mean of the two readings, water_check_weight
    # on the second, shows no water either, the board is read as one without water (the
    # mean is its first reading). On base boards drawn with pens past the renderer's own it
    # took the water off 7 of 200 (144 to 102 wrong spaces) and changed no reading of the
    # held-out Deep Blue sets; the mean alone also took real rivers off three Deep Blue phone
    # photos, which the wide-pen network reads as water at 0.94-0.995 (docs/VISION.md, "The
    # wide-pen network's say on water"). None: no check.
    water_check_weight: float | None = 0.5
    water_check_sure: float = 0.9
    # A board the standard readers read with at most blank_spaces drawn spaces (no finished
    # game is so bare; a pale marker in a dim room is), none of whose spaces shows ink
    # standing blank_dark or more above the paper (no dark stroke: faint ink throughout, as
    # the faint-ink readers' gain measures it), is read again by the faint-ink readers, with
    # strokes counted from blank_min_contrast above the paper instead of
    # InkGain.min_contrast, and their reading is kept (``Recognizer.reads_bare``;
    # docs/VISION.md, "A board read bare"). On such a board the ink may stand just under
    # min_contrast: no gain, the standard readers, routes read as paper, nothing flagged.
    # Sparse boards of dark strokes (the renderer's own, 150-240 above the paper) are left
    # as they were: the faint-ink readers read them worse. None: never.
    blank_spaces: int | None = 3
    blank_dark: float = 75.0
    blank_min_contrast: float = 15.0


def in_classes(probs: np.ndarray, source: list[str], target: list[str]) -> np.ndarray:
    """Probabilities over ``source`` classes as probabilities over ``target`` (a superset):
    the classes ``source`` lacks get zero."""
    index = {token: i for i, token in enumerate(target)}
    out = np.zeros(probs.shape[:-1] + (len(target),), probs.dtype)
    out[..., [index[token] for token in source]] = probs
    return out


class CellClassifier(OnnxModel):
    """The cell classifier; ``meta`` is its ``ModelMeta`` (classes, crop geometry)."""

    ONNX_FILE = MODEL_FILE
    META_FILE = META_FILE

    def __init__(self, session, meta: ModelMeta) -> None:
        super().__init__(session, meta)
        # turned[k][i]: the class index of class i turned clockwise k quarter turns (in the
        # model's own class list, which its metadata carries)
        self._turned = [np.array(rotation_index_map(k, meta.classes)) for k in range(4)]
        # mirrored[k][i]: the class index of class i mirrored left-right, then turned k times
        mirror = np.array(mirror_index_map(meta.classes))
        self._mirrored = [turned[mirror] for turned in self._turned]
        self.gain = InkGain.from_json(meta.ink_gain)

    def board_input(self, crops: np.ndarray) -> np.ndarray:
        """A board's 49 crops as this network was trained on them: with the board's ink gain
        (vision.crops.InkGain) when its metadata names one, else as they are. Crops with
        channels (N, C, S, S: darkness, blueness) get the gain on their darkness."""
        if self.gain is None:
            return crops
        return with_ink_gain(crops, self.meta.cell_px, self.meta.margin_px, self.gain)

    @classmethod
    def read_meta(cls, path: Path) -> ModelMeta:
        return ModelMeta.load(path)

    @classmethod
    def network_io(cls, meta: ModelMeta) -> NetworkIO:
        return NetworkIO(meta.input_name, meta.mean, meta.std, meta.temperature,
                         meta.output_name)

    @property
    def mark_threshold(self) -> float | None:
        """The probability above which its mark head says a space holds ink the reading
        does not explain (vision.marks), from its metadata; None: it has no mark head."""
        head = self.meta.mark_head
        return float(head["threshold"]) if head and "threshold" in head else None

    def first_reading(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """One board's crops read once: (N, n_classes) calibrated probabilities, and (N,)
        probabilities of the mark head (vision.marks) from the same call, None when the
        network has none."""
        x = self.network_input(self.board_input(crops))
        if self.mark_threshold is None:
            return self.calibrated(self.run(x)), None
        logits, marks = self.session.run([self.io.output_name or "logits",
                                          self.meta.mark_head.get("output", "marks")],
                                         {self.io.input_name: x})
        return self.calibrated(logits), 1.0 / (1.0 + np.exp(-marks.reshape(-1)))

    def read(self, crops: np.ndarray, turns: int = 1, sure: float | None = None,
             first: np.ndarray | None = None, only: np.ndarray | None = None,
             mirror: bool = False) -> np.ndarray:
        """(N, n_classes) calibrated probabilities of space crops; ``turns`` > 1 averages
        turned copies (``mirror``: and their mirror images).

        With ``sure``, the crops are read once (or ``first`` is that reading), and only those
        whose best class is below ``sure`` are read again in all ``turns`` turns (most spaces
        are clear at once). ``crops`` are one board's 49 (the ink gain is the board's);
        ``only``: the indices of the crops to read (``first`` then is theirs), the others are
        left out of the result.
        """
        if turns == 1 and not mirror and first is not None:
            return first
        crops = self.board_input(crops)
        if only is not None:
            crops = crops[only]
            if not len(crops):
                return np.zeros((0, len(self.meta.classes)), np.float32)
        if sure is None or (turns == 1 and not mirror):
            return self._turned_mean(crops, turns, mirror)
        probs = first.copy() if first is not None else self._turned_mean(crops, 1)
        unsure = np.flatnonzero(probs.max(axis=1) < sure)
        if len(unsure):
            probs[unsure] = self._turned_mean(crops[unsure], turns, mirror)
        return probs

    def parts(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """What the network reads of each crop's parts (vision.space_parts): (N, 4, kinds)
        probabilities of each side's kind (N, E, S, W; ``meta.side_kinds``) and (N, pairs)
        probabilities that a pair of sides is joined (``meta.join_pairs``), uncalibrated."""
        x = self.network_input(self.board_input(crops))
        sides, joins = self.session.run(["sides", "joins"], {self.io.input_name: x})
        return softmax(sides, axis=2), 1.0 / (1.0 + np.exp(-joins))

    def _turned_mean(self, crops: np.ndarray, turns: int, mirror: bool = False) -> np.ndarray:
        """Mean of the readings of ``crops`` turned 0..turns-1 quarter turns (``mirror``: and
        of their mirror images turned likewise), mapped back."""
        views = [(crops, self._turned)]
        if mirror:
            views.append((crops[..., ::-1], self._mirrored))
        batch = [np.rot90(view, k=-k, axes=(-2, -1)) for view, _ in views for k in range(turns)]
        probs = self.probabilities(np.ascontiguousarray(np.concatenate(batch)))
        probs = probs.reshape(len(views) * turns, len(crops), -1)
        # A crop turned k times (after a mirror) reads as the token turned (mirrored); map
        # each reading back.
        maps = [index[k] for _, index in views for k in range(turns)]
        return np.mean([probs[v][:, maps[v]] for v in range(len(maps))], axis=0)


class BaseGameClassifier(CellClassifier):
    """The base-game reader (83 classes: every highway/railway side combination), the flat
    classifier shipped before the parts network; it reads the boards that show no water."""

    ONNX_FILE = BASE_MODEL_FILE
    META_FILE = BASE_META_FILE


class FaintCellClassifier(CellClassifier):
    """The parts network trained with the board's ink gain on phone-condition boards too:
    it reads boards with faint ink (pencil, pale markers, worn dry-erase)."""

    ONNX_FILE = FAINT_MODEL_FILE
    META_FILE = FAINT_META_FILE


class FaintBaseGameClassifier(BaseGameClassifier):
    """The base-game reader trained with the board's ink gain on phone-condition boards too."""

    ONNX_FILE = FAINT_BASE_MODEL_FILE
    META_FILE = FAINT_BASE_META_FILE


class WideCellClassifier(CellClassifier):
    """The standard parts network tuned on boards drawn with pens finer and broader than the
    renderer's own (``--pens wide``): it reads no board alone, since it reads the renderer's
    own Deep Blue boards worse, but has a say on whether a board shows water
    (``WaterCheck``)."""

    ONNX_FILE = WIDE_MODEL_FILE
    META_FILE = WIDE_META_FILE


def same_input(network: CellClassifier, reference: CellClassifier) -> CellClassifier:
    """``network``, checked to read the classes of ``reference`` from the crops it takes
    (size, context, ink channels, normalisation, ink gain); ValueError naming what differs."""
    mine, theirs = network.meta, reference.meta
    for name in ("classes", "input_size", "cell_px", "margin_px", "channels", "ink_channels",
                 "mean", "std", "ink_gain"):
        if getattr(mine, name) != getattr(theirs, name):
            raise ValueError(f"the {network.ONNX_FILE} network's {name} differs from the "
                             f"{reference.ONNX_FILE} network's")
    return network


@dataclass(frozen=True)
class WaterCheck:
    """A second network's say on a board's water: it takes the water off a board when it
    reads no space as water at least ``sure`` surely and the mean of its reading and the
    first network's, ``weight`` on its own, shows none either."""

    network: CellClassifier
    weight: float
    sure: float

    def without_water(self, first: np.ndarray, crops: np.ndarray, classes: list[str],
                      water: WaterParams) -> np.ndarray | None:
        """The mean reading of a board whose ``first`` reading (N, n_classes) shows water
        (``reads_water``) when the water is taken off, else None. ``crops``: the board's
        crops as both networks take them.

        The spaces the first network reads as water are read first: water read there at
        least ``sure`` surely keeps the board's water, and the other spaces are not read
        (the same answer as reading all of them, for about a quarter of the time on a board
        with a river or a lake)."""
        pixels = self.network.board_input(crops)  # the ink gain is the whole board's
        second = np.empty_like(first)
        watery = water_mask(classes)[first.argmax(axis=1)]
        for spaces in (np.flatnonzero(watery), np.flatnonzero(~watery)):
            if spaces.size:
                second[spaces] = self.network.probabilities(pixels[spaces])
                if reads_water(second[spaces], classes, WaterParams(route_sure=self.sure)):
                    return None  # the second network sees water too
        mean = (1.0 - self.weight) * first + self.weight * second
        return None if reads_water(mean, classes, water) else mean


@dataclass(frozen=True)
class Readers:
    """The networks that read one kind of board: the parts network, and the base-game reader
    for the boards on which it reads no water (None: the parts network reads them too), and
    a second network's say on a board the parts network reads with water (None: none)."""

    parts: CellClassifier
    base: BaseGameClassifier | None = None
    water_check: WaterCheck | None = None

    def with_stroke_floor(self, min_contrast: float) -> Readers:
        """These readers counting a board's strokes from ``min_contrast`` above its paper
        (``InkGain.min_contrast``; the same networks, their gain's other terms as they are);
        readers without an ink gain are returned as they are."""
        if self.parts.gain is None:
            return self
        return Readers(_with_floor(self.parts, min_contrast),
                       None if self.base is None else _with_floor(self.base, min_contrast),
                       self.water_check)


def _with_floor(network: CellClassifier, min_contrast: float) -> CellClassifier:
    """A copy of ``network`` (the same session) whose ink gain counts strokes from
    ``min_contrast``."""
    floored = copy.copy(network)
    if network.gain is not None:
        floored.gain = replace(network.gain, min_contrast=min_contrast)
    return floored


def bare(probs: np.ndarray, classes: list[str], spaces: int) -> bool:
    """Whether a reading, (..., n_classes) probabilities, has at most ``spaces`` spaces
    whose best class is a drawn one (not empty)."""
    best = probs.reshape(-1, probs.shape[-1]).argmax(axis=1)
    return int(np.sum(best != classes.index(EMPTY_TOKEN))) <= spaces


def faint_throughout(crops: np.ndarray, reader: CellClassifier, dark: float) -> bool:
    """Whether no space of a board's 49 crops shows ink standing ``dark`` or more above the
    board's paper, as ``reader``'s ink gain measures it (``BoardInk.levels``; spaces under
    something left out); False for a reader without an ink gain."""
    if reader.gain is None:
        return False
    levels = board_ink(crops, reader.meta.cell_px, reader.meta.margin_px, reader.gain).levels
    return levels is None or not len(levels) or float(levels.max()) < dark


def doubtful(probs: np.ndarray, params: ClassifyParams) -> bool:
    """Whether a board's reading, (..., n_classes) probabilities, has at least
    ``params.doubtful_spaces`` spaces whose best class is less sure than
    ``params.doubtful_below``."""
    best = probs.reshape(-1, probs.shape[-1]).max(axis=1)
    return int((best < params.doubtful_below).sum()) >= params.doubtful_spaces


def doubt(probs: np.ndarray) -> float:
    """A reading's doubt: the sum over its spaces of 1 - the best class's probability."""
    return float((1.0 - probs.reshape(-1, probs.shape[-1]).max(axis=1)).sum())


def second_reading_kept(first: np.ndarray, second: np.ndarray, classes: list[str],
                        doubt_ratio: float = 1.0, water_loss_ratio: float | None = None
                        ) -> bool:
    """Whether a second reading of a board (the faint-ink readers') replaces the first (the
    standard readers') whole: it is less than ``doubt_ratio`` times as much in doubt
    (``math.inf``: whatever its doubt), and it keeps the water the first one shows
    (``loses_water``) or, losing it, is less than ``water_loss_ratio`` times as much in
    doubt (None: a reading that loses the water is never kept)."""
    if loses_water(first, second, classes):
        return (water_loss_ratio is not None
                and doubt(second) < min(doubt_ratio, water_loss_ratio) * doubt(first))
    return doubt(second) < doubt_ratio * doubt(first)


def second_doubt_ratio(space_px: float | None, params: ClassifyParams,
                       water: bool = True) -> float:
    """How many times as much in doubt as the first reading a doubtful board's second reading
    may be and still be kept (``second_reading_kept``): any (``math.inf``) on a board whose
    spaces are smaller than ``params.small_space_px`` in the photo (``space_px``: None when
    not known), else ``params.second_doubt_ratio`` on a board whose first reading shows
    water (``water``) and ``params.dry_second_doubt_ratio`` on one whose first shows none."""
    if (space_px is not None and params.small_space_px is not None
            and space_px < params.small_space_px):
        return math.inf
    return params.second_doubt_ratio if water else params.dry_second_doubt_ratio


def shows_water(probs: np.ndarray, classes: list[str]) -> bool:
    """Whether some space's best class has a river or lake side, however sure
    (``reads_water``)."""
    return reads_water(probs, classes, ANY_WATER)


def loses_water(first: np.ndarray, second: np.ndarray, classes: list[str]) -> bool:
    """Whether a second reading of a board (the faint-ink readers') loses the water the first
    shows (``shows_water``): the faint-ink base-game reader reads no water, and it is often
    surer of a board whose water it cannot see."""
    return shows_water(first, classes) and not shows_water(second, classes)


def second_reading_spaces(first: np.ndarray, sure: float) -> np.ndarray:
    """(N,) bool: the spaces of a doubtful board that take the second reading (the faint-ink
    readers') when the two are merged, those whose first reading (the standard readers',
    (N, n_classes) probabilities) is less sure than ``sure``. On phone photos the faint-ink
    readers read a doubtful board's unsure spaces better, while the standard readers' sure
    readings of clean photos are the better ones (docs/VISION.md, "A doubtful board read
    space by space")."""
    return first.reshape(-1, first.shape[-1]).max(axis=1) < sure


def has_faint_ink(crops: np.ndarray, reader: CellClassifier, params: ClassifyParams) -> bool:
    """Whether a board's 49 crops show faint ink: the gain ``reader`` gives them (its
    metadata's ``ink_gain``) is above ``params.faint_above``, measured on strokes in at least
    ``params.faint_min_spaces`` spaces (counted at ``InkGain.min_contrast``, or against the
    darkest space, ``params.faint_stroke_share``: whichever count is larger)."""
    if reader.gain is None:
        return False
    board = board_ink(crops, reader.meta.cell_px, reader.meta.margin_px, reader.gain)
    if gain_of(board, reader.gain) <= params.faint_above:
        return False
    inked = board.inked
    if params.faint_stroke_share is not None:
        inked = max(inked, board.spaces_above(params.faint_stroke_share))
    return inked >= params.faint_min_spaces
