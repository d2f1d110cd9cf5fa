"""The phone profile's steps inside ``render_photo``: one object per photo that holds what the
profile drew and does each step at its place (options, ink, sheet, objects, light, sensor,
truth). ``render_photo`` calls it only when a profile is given.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .board_art import FlatBoard
from .camera import View
from .habits import sample_habits
from .inks import apply_ink_kind, draw_grid_phone, ink_density
from .on_sheet import coverage, draw_on_sheet, objects_on_sheet
from .phone import (
    PART_INK,
    PART_LIGHT,
    PART_MARKS,
    PART_OBJECTS,
    PART_SENSOR,
    PART_SHEET,
    PROFILE_VERSION,
    PhoneConditions,
    draw_conditions,
)
from .phone_light import (
    add_glow,
    denoise,
    flash_falloff,
    flash_hotspot,
    reflection_band,
    sensor_noise,
)
from .sheet import Sheet, sample_sheet, shade_sheet
from .style import BoardStyle, InkStyle
from .unread import choose_marks, mark_drawer

LOW_RES_MP = 2.0  # a photo this small or smaller counts as low resolution
SMALL_FILL = 0.5  # a board filling at most this much of the frame counts as small


def _sub(seed: int, part: int) -> np.random.Generator:
    return np.random.default_rng([seed, part])


def _dense_rect(x0: float, y0: float, x1: float, y1: float, n: int = 16) -> np.ndarray:
    t = np.linspace(0, 1, n, endpoint=False)[:, None]
    c = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], float)
    return np.concatenate([c[i] + t * (c[(i + 1) % 4] - c[i]) for i in range(4)])


class PhonePhoto:
    """What the profile drew for one photo, and the steps that put it into the photo."""

    def __init__(self, seed: int, conditions: PhoneConditions):
        self.seed = seed
        self.draw = draw_conditions(seed, conditions)
        self.record: dict = {
            "probabilities": conditions.to_json(),
            "drawn": self.draw.__dict__.copy(),
        }
        self.sheet: Sheet | None = None
        self.marks: list[tuple[int, int, str]] = []
        self.covered: dict[tuple[int, int], float] = {}
        self.light_rng = _sub(seed, PART_LIGHT)

    # --- options and ink -------------------------------------------------------------
    def fill_options(self, opts):
        """``opts`` with the profile's picks where nothing was forced."""
        rng = _sub(self.seed, PART_LIGHT + 10)
        d = self.draw
        mp, quality = rng.uniform(1.0, LOW_RES_MP), int(rng.integers(50, 76))
        fill = rng.uniform(0.33, SMALL_FILL)
        changes: dict = {}
        if d.low_res and opts.megapixels is None:
            changes.update(megapixels=mp)
            if opts.jpeg_quality is None:
                changes.update(jpeg_quality=quality)
        if d.small_board and opts.fill is None:
            changes.update(fill=fill)
        if d.light != "room" and opts.light is None:
            changes.update(light="dim" if d.light == "dim" else "even")
            if d.light == "dim" and opts.noise is None:
                changes.update(noise=0.0)  # the sensor step adds a dim room's noise instead
            if d.light == "flash" and opts.glare is None:
                changes.update(glare=0.0)  # the flash brings its own reflection
        else:
            self.draw = self.draw.with_(light="room")
        return replace(opts, **changes)

    def prepare_ink(self, ink: InkStyle, board_style: BoardStyle) -> None:
        """Turn the marker into the drawn ink kind; the board follows (dry-erase on a shiny
        card, pencil and folds on paper)."""
        rng = _sub(self.seed, PART_INK)
        self.texture = apply_ink_kind(ink, self.draw.ink, rng)
        d = self.draw
        self.habits = sample_habits(rng, d.shaky, d.legs, d.sloppy, d.ink)
        self.ink_rng = rng
        if d.ink == "dry_erase":
            board_style.glossy = True
        elif d.ink == "pencil" or d.sheet == "folded":
            board_style.glossy = False
        self.record.update(ink_texture=self.texture.to_json(), habits=self.habits.to_json())

    def draw_ink(
        self,
        board: FlatBoard,
        grid: list[list[str]],
        board_style: BoardStyle,
        ink: InkStyle,
        rng: np.random.Generator,
        rounds: list[list[int]] | None,
        space_drawer=None,
    ) -> None:
        """The player's ink through the profile's habits and inks; ``space_drawer`` as in
        ``drawing.draw_grid`` (water drawn for a Deep Blue board)."""
        density = ink_density(board.image.shape[:2], board.cell, ink, self.texture, self.ink_rng)
        drawers = []
        if self.draw.unread_marks:
            mrng = _sub(self.seed, PART_MARKS)
            self.marks = choose_marks(mrng, grid)
            for r, c, kind in self.marks:
                color = ink.colors[int(mrng.integers(len(ink.colors)))]
                drawers.append(
                    mark_drawer(
                        board.cell_origin(r, c),
                        board.cell,
                        kind,
                        color,
                        max(ink.line_width, 0.025),
                        mrng,
                        token=grid[r][c],
                    )
                )
        draw_grid_phone(board, grid, board_style, ink, rng, rounds, self.habits, density, drawers,
                        space_drawer)

    # --- the sheet -------------------------------------------------------------------
    def fit_sheet(self, view: View, board_cells, keep_cells: np.ndarray) -> None:
        """The drawn sheet, eased (bends weaker, at last flat) until the grid and its Exits
        stay in the frame."""
        sheet = sample_sheet(_sub(self.seed, PART_SHEET), self.draw.sheet, board_cells)
        (x0, y0), (x1, y1) = keep_cells.min(axis=0), keep_cells.max(axis=0)
        keep = _dense_rect(x0, y0, x1, y1)
        w, h = view.size
        for strength in (1.0, 0.6, 0.35, 0.0):
            candidate = sheet if strength == 1.0 else sheet.scaled(strength)
            if strength == 0.0:
                candidate = sample_sheet(np.random.default_rng(0), "flat", board_cells)
            pts = candidate.to_photo(view, keep)
            in_frame = pts.min() >= 0 and np.all(pts.max(axis=0) <= [w - 1, h - 1])
            if in_frame and (candidate.flat or candidate.facing(view) > 0.3):
                break
        self.sheet = candidate
        self.record["sheet"] = candidate.to_json()

    def to_photo(self, view: View, pts: np.ndarray) -> np.ndarray:
        return self.sheet.to_photo(view, pts)

    def lattice(self, view: View, origin: np.ndarray, per_side: int) -> np.ndarray:
        """Undistorted photo points of the grid, ``per_side`` a space: (7n+1, 7n+1, 2)."""
        n = 7 * per_side + 1
        t = np.linspace(0, 7, n)
        gx, gy = np.meshgrid(t, t)
        pts = np.column_stack([gx.ravel(), gy.ravel()]) + origin
        return self.sheet.to_photo_undistorted(view, pts).reshape(n, n, 2)

    def space_corners(self, view: View, origin: np.ndarray) -> np.ndarray:
        """(7, 7, 4, 2) photo pixels of every space's corners (TL, TR, BR, BL), as drawn."""
        t = np.arange(8, dtype=float)
        gx, gy = np.meshgrid(t, t)
        pts = self.to_photo(view, np.column_stack([gx.ravel(), gy.ravel()]) + origin)
        p = pts.reshape(8, 8, 2)
        return np.stack([p[:-1, :-1], p[:-1, 1:], p[1:, 1:], p[1:, :-1]], axis=2)

    def shade(self, board: FlatBoard) -> None:
        if not self.sheet.flat:
            self.record["sheet_light"] = shade_sheet(
                board.image, self.sheet, board.cell, _sub(self.seed, PART_SHEET + 10)
            )

    # --- what lies on it -------------------------------------------------------------
    def place_objects(
        self,
        img: np.ndarray,
        view: View,
        origin: np.ndarray,
        cell_px: float,
        rng: np.random.Generator,
    ) -> None:
        if not self.draw.objects:
            return
        lattice = self.lattice(view, origin, 4)
        objects = objects_on_sheet(
            _sub(self.seed, PART_OBJECTS), self.draw.objects, lattice, view.size, cell_px
        )
        draw_on_sheet(img, objects, rng)
        self.covered = coverage(objects, lattice, view.size, cell_px)

    # --- light and sensor ------------------------------------------------------------
    def light_field(
        self,
        field: np.ndarray,
        xx: np.ndarray,
        yy: np.ndarray,
        gain: float,
        white: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray]:
        """The room's light field and white balance, with a flash or a dim room's exposure."""
        rng = self.light_rng
        if self.draw.light == "flash":
            falloff, info = flash_falloff(rng, xx, yy)
            field = field * falloff
            white = white * np.array([1.04, 1.0, 0.96], np.float32)
            self.record.update(info)
        elif self.draw.light == "dim":
            exposure = rng.uniform(0.55, 0.85) / gain  # the phone brightens the dim scene
            field = field * exposure
            if rng.random() < 0.7:  # tungsten
                white = white * np.array([0.75, 0.92, 1.12], np.float32)
            self.record.update(exposure=round(float(exposure), 3))
        return field, white

    def glow(
        self, img: np.ndarray, view: View, origin: np.ndarray, cell_px: float, glossy: bool
    ) -> np.ndarray:
        """A flash mirrored in a glossy board, and a band of reflected light."""
        rng = self.light_rng
        size = view.size
        centre = self.sheet.to_photo_undistorted(view, origin + 3.5)[0]
        sheet = self.sheet.to_photo_undistorted(view, self.sheet.outline())
        if self.draw.light == "flash" and glossy:
            at = centre + rng.normal(0, 1.5, 2) * cell_px
            glow, info = flash_hotspot(rng, size, at, cell_px)
            img = add_glow(img, glow, np.ones(3, np.float32), sheet)
            self.record.update(info)
        if self.draw.reflection and glossy:
            through = self.sheet.to_photo_undistorted(view, origin + rng.uniform(0.5, 6.5, 2))[0]
            direction = rng.normal(0, 1, 2)
            axis = self._bend_axis()
            if axis is not None:  # a curved sheet mirrors a band along its bend
                a, b = self.sheet.to_photo_undistorted(
                    view, np.array([origin + 3.5, origin + 3.5 + axis])
                )
                direction = b - a
            glow, info = reflection_band(rng, size, through, direction, cell_px)
            tint = np.clip(rng.normal(1, 0.04, 3), 0.85, 1).astype(np.float32)
            img = add_glow(img, glow, tint, sheet)
            self.record.update(info)
        else:
            self.draw = self.draw.with_(reflection=False)
        return img

    def _bend_axis(self) -> np.ndarray | None:
        if not self.sheet.bends:
            return None
        d = self.sheet.bends[0].direction
        return np.array([-d[1], d[0]])

    def sensor(self, img: np.ndarray) -> np.ndarray:
        """A dim room's noise, then the phone's denoising."""
        rng = _sub(self.seed, PART_SENSOR)
        if self.draw.light == "dim":
            luma, chroma = rng.uniform(3, 10), rng.uniform(2, 6)
            sensor_noise(img, rng, luma, chroma)
            self.record.update(
                noise_luma=round(float(luma), 2), noise_chroma=round(float(chroma), 2)
            )
        if self.draw.denoise:
            img, info = denoise(img, rng)
            self.record.update(info)
        return img

    # --- truth -----------------------------------------------------------------------
    def names(self, megapixels: float, fill: float) -> list[str]:
        """The conditions this photo really has."""
        d = self.draw.with_(
            sheet=self.sheet.kind if self.sheet is not None else "flat",
            low_res=megapixels <= LOW_RES_MP,
            small_board=fill <= SMALL_FILL,
            objects=self.draw.objects if self.covered else (),
            unread_marks=bool(self.marks),
        )
        return d.names()

    def conditions(self) -> dict:
        return {"profile": self.draw.profile, "profile_version": PROFILE_VERSION, **self.record}
