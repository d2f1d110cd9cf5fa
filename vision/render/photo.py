"""Render a phone photo of a drawn board (board-spec section 3).

One flat board image is drawn at about the resolution it will have in the photo, then placed
with a single cv2.warpPerspective onto a table background; clutter, light, glare, blur, lens
distortion, noise and JPEG compression follow as whole-image operations.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .board_art import draw_board, finish_print
from .camera import add_tiled, distortion_maps, make_view
from .drawing import draw_grid, numbers_written
from .phone import PhoneConditions, profile
from .phone_photo import PhonePhoto
from .scene import (
    BACKGROUND_P,
    BACKGROUNDS,
    background,
    die,
    draw_under,
    hand,
    marker_pen,
    other_board,
    place_clutter,
)
from .sheet import warp_sheet
from .style import sample_board_style, sample_ink_style
from .tokens import check_grid
from .truth import RenderedPhoto
from .water import WaterPainter, water_painter

RENDERER_VERSION = 2  # bump when the look of renders changes (recorded in every truth file)
_ASPECTS = (4 / 3, 3 / 4, 16 / 9, 9 / 16, 1.0, 3 / 2, 2 / 3)
_ASPECT_P = (0.3, 0.3, 0.12, 0.12, 0.06, 0.05, 0.05)


@dataclass
class PhotoOptions:
    """Conditions to force; None = drawn at random from the seed."""

    megapixels: float | None = None
    aspect: float | None = None
    rotation: float | None = None  # degrees, in-plane (180 = upside down)
    tilt: float | None = None  # degrees from straight above
    fill: float | None = None  # board extent / frame extent
    light: str | None = None  # "even" | "uneven" | "dim"
    glare: float | None = None  # 0 none .. 1 strong
    blur: float | None = None  # Gaussian sigma in pixels at 2 MP
    noise: float | None = None  # sigma in grey levels
    background: str | None = None
    clutter: bool | None = None
    lens_k1: float | None = None
    jpeg_quality: int | None = None  # None random, 0 = no compression
    marker: str | None = None  # main marker colour name (style.MARKERS)
    clean: bool = False  # no clutter, ghosts, smudges, glare, blur, noise; mild light and tilt
    # a condition profile (phone.PROFILES name or PhoneConditions): bent paper, faint ink,
    # dim rooms, things on the sheet... None: the renderer's own conditions, as before
    conditions: str | PhoneConditions | None = None
    # the pens' sizes: the renderer's own ranges, or "wide" ones past them (style.WIDE_PENS)
    pens: str = "standard"


def _sub(seed: int, part: int) -> np.random.Generator:
    return np.random.default_rng([seed, part])


def _pick(value, default):
    return default if value is None else value


def _photo_size(mp: float, aspect: float) -> tuple[int, int]:
    w = int(round(np.sqrt(mp * 1e6 * aspect)))
    return w, int(round(mp * 1e6 / w))


def _keep_points(style, cells_origin: np.ndarray) -> np.ndarray:
    """Board points (cell units) that must be in frame: the lattice plus its Exit marks."""
    reach = style.frame_width + style.exit_length + 0.1
    x0, y0 = cells_origin - reach
    x1, y1 = cells_origin + 7 + reach
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])


def round_number_box(seed: int) -> tuple[str, float] | None:
    """Where the photo of ``seed`` has its round numbers: the corner of every space that holds
    the round box ("tl", "tr", "br" or "bl", in the board's upright frame) and the box's side
    in spaces; None when that board has no numbers written (one board in ten).

    The training labels of the round-number reader (scripts/train_round_numbers.py). Follows
    render_photo: the board style comes from sub-seed 1, and ``draw_grid``'s first draw from its
    generator (sub-seed 4) decides whether numbers are written.
    """
    style = sample_board_style(_sub(seed, 1))
    if not numbers_written(_sub(seed, 4)):
        return None
    return style.box_corner, style.box_size


def render_photo(
    grid: list[list[str]],
    seed: int,
    megapixels: float | None = None,
    *,
    rounds: list[list[int]] | None = None,
    board_only: bool = False,
    options: PhotoOptions | None = None,
    expansions: tuple[str, ...] = (),
    **overrides,
) -> RenderedPhoto:
    """Render ``grid`` (7x7 tokens) as a phone photo; everything follows from ``seed``.

    ``megapixels`` fixes the photo size (None: random 1..12). ``board_only`` returns the flat,
    straight-on board with its ink and no photo effects. Other conditions can be forced with
    ``options`` or keyword overrides of PhotoOptions fields (e.g. ``tilt=38, rotation=180``).
    ``expansions`` ("river", "lake"): a Deep Blue board, its water drawn in a player's water
    style (water_style) and its truth given the ``expansion:`` key line; () as before.
    """
    check_grid(grid)
    opts = options or PhotoOptions()
    if overrides:
        opts = PhotoOptions(**{**opts.__dict__, **overrides})
    if megapixels is not None:
        opts.megapixels = megapixels
    phone = None
    if opts.conditions is not None:
        phone = PhonePhoto(seed, profile(opts.conditions))
        opts = phone.fill_options(opts)
    rng = _sub(seed, 0)
    board_style = sample_board_style(_sub(seed, 1))
    ink = sample_ink_style(_sub(seed, 2), marker=opts.marker, pens=opts.pens)
    if opts.clean:
        ink.ghosts = ink.smudges = ink.strays = 0
        ink.end_error = min(ink.end_error, 0.04)
    if phone is not None:
        phone.prepare_ink(ink, board_style)
    cond: dict = {
        "renderer_version": RENDERER_VERSION,
        "board_style": board_style.to_json(),
        "ink_style": ink.to_json(),
    }
    water = water_painter(grid, expansions, seed, ink, board_style)
    extras = [f"expansion: {', '.join(expansions)}"] if expansions else []
    if water is not None:
        cond["water_style"] = water.style.to_json()

    mp = float(_pick(opts.megapixels, rng.uniform(1.0, 12.0)))
    aspect = float(_pick(opts.aspect, _ASPECTS[int(rng.choice(len(_ASPECTS), p=_ASPECT_P))]))
    size = _photo_size(mp, aspect)
    w, h = size
    board_cells = (
        7 + 2 * board_style.margin_side,
        7 + board_style.margin_top + board_style.margin_bottom,
    )
    lattice_cells = np.array([board_style.margin_side, board_style.margin_top])

    if board_only:
        cell = min(w, h) / max(board_cells) * 1.0
        board = draw_board(board_style, cell, _sub(seed, 3))
        _draw_ink(board, grid, board_style, ink, _sub(seed, 4), rounds, phone, water)
        finish_print(board, board_style, _sub(seed, 5))
        cond.update(board_only=True, cell_px=cell)
        photo = RenderedPhoto(
            board.image, board.lattice_corners(), [list(r) for r in grid], cond, seed,
            extras=extras,
        )
        if phone is not None:
            cond.update(phone=phone.conditions())
            photo.unread = list(phone.marks)
        return photo

    snap = rng.random() < 0.35
    rotation = float(
        _pick(
            opts.rotation,
            (90 * rng.integers(4) + rng.normal(0, 4)) if snap else rng.uniform(0, 360),
        )
    )
    tilt_default = rng.uniform(0, 40) if rng.random() < 0.5 else rng.uniform(0, 15)
    tilt = float(_pick(opts.tilt, min(tilt_default, 8.0) if opts.clean else tilt_default))
    tilt_axis = float(rng.uniform(0, 360))
    focal = float(rng.uniform(0.55, 1.1))
    fill = float(_pick(opts.fill, rng.uniform(0.55, 1.1)))
    k1 = float(
        _pick(opts.lens_k1, 0.0 if opts.clean or rng.random() < 0.4 else rng.uniform(-0.08, 0.05))
    )
    view, fill = make_view(
        board_cells,
        _keep_points(board_style, lattice_cells),
        size,
        rotation,
        tilt,
        tilt_axis,
        focal,
        fill,
        k1,
        _sub(seed, 6),
    )
    if phone is None:
        corners = view.project(lattice_cells + np.array([[0, 0], [7, 0], [7, 7], [0, 7]]))
    else:
        phone.fit_sheet(view, board_cells, _keep_points(board_style, lattice_cells))
        corners = phone.to_photo(view, lattice_cells + np.array([[0, 0], [7, 0], [7, 7], [0, 7]]))

    # flat board at about its size in the photo
    lattice_px = max(np.linalg.norm(corners[i] - corners[(i + 1) % 4]) for i in range(4))
    cell = float(np.clip(lattice_px / 7 * rng.uniform(1.0, 1.15), 12, 600))
    board = draw_board(board_style, cell, _sub(seed, 3))
    _draw_ink(board, grid, board_style, ink, _sub(seed, 4), rounds, phone, water)
    finish_print(board, board_style, _sub(seed, 5))
    if phone is not None:
        phone.shade(board)
    scale_cells = np.diag([1 / cell, 1 / cell, 1.0])
    homography = view.homography @ scale_cells

    # background and what lies under the board
    bg_kind = str(
        _pick(opts.background, BACKGROUNDS[int(rng.choice(len(BACKGROUNDS), p=BACKGROUND_P))])
    )
    crng = _sub(seed, 7)
    img = background(crng, size, bg_kind)
    clutter = bool(_pick(opts.clutter, False if opts.clean else rng.random() < 0.6))
    board_scale = lattice_px / 7  # a cell in photo pixels
    if clutter and crng.random() < 0.4:
        if crng.random() < 0.5:
            draw_under(img, [other_board(crng, size, board_scale * 5)])
        else:
            _second_board(img, crng, board_scale)
    outline_cells = np.array(
        [[0, 0], [board_cells[0], 0], [board_cells[0], board_cells[1]], [0, board_cells[1]]]
    )
    outline = cv2.perspectiveTransform(outline_cells.reshape(-1, 1, 2), view.homography).reshape(
        -1, 2
    )
    corners_outline = outline  # the sheet's four corners (where a glossy board may shine)
    if phone is None or phone.sheet.flat:
        cv2.warpPerspective(
            board.image,
            homography,
            size,
            dst=img,
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_TRANSPARENT,
        )
    else:
        outline = phone.sheet.to_photo_undistorted(view, phone.sheet.outline())
        residual = warp_sheet(board.image, phone.sheet, view, cell, img)
        cond["sheet_warp_residual_px"] = round(residual, 4)
    edge = tuple(int(v) for v in crng.uniform(60, 200, 3))
    cv2.polylines(
        img,
        [np.round(outline * 16).astype(np.int32)],
        True,
        edge,
        max(1, int(board_scale * 0.02)),
        cv2.LINE_AA,
        shift=4,
    )

    # clutter on top, never over the grid and its Exits
    n_objects = 0
    if clutter:
        objects = []
        skin = int(crng.integers(1 << 16))  # one player's hands per photo
        for _ in range(int(crng.integers(1, 6))):
            where = np.array([crng.uniform(0, w), crng.uniform(0, h)])
            u = crng.random()
            if u < 0.4:
                objects.append(die(crng, where, board_scale * crng.uniform(0.6, 1.0)))
            elif u < 0.75:
                objects.append(marker_pen(crng, where, board_scale * crng.uniform(3, 5)))
            else:
                objects.append(hand(crng, size, board_scale * crng.uniform(2.5, 4.0), skin))
        mask_scale = 0.125
        keep = np.zeros((int(h * mask_scale) + 1, int(w * mask_scale) + 1), np.uint8)
        keep_px = cv2.perspectiveTransform(
            _keep_points(board_style, lattice_cells).reshape(-1, 1, 2), view.homography
        )
        cv2.fillPoly(keep, [np.round(keep_px.reshape(-1, 2) * mask_scale).astype(np.int32)], 255)
        keep = cv2.dilate(keep, np.ones((3, 3), np.uint8))
        n_objects = place_clutter(img, objects, keep, mask_scale, crng)
    if phone is not None:
        phone.place_objects(img, view, lattice_cells, board_scale, crng)

    # light: smooth gain field (gradient, vignette, cast shadow, board drop shadow) + glare
    lrng = _sub(seed, 8)
    light = str(
        _pick(
            opts.light,
            "even" if opts.clean else lrng.choice(["even", "uneven", "dim"], p=[0.4, 0.45, 0.15]),
        )
    )
    gw, gh = max(8, w // 16), max(8, h // 16)
    yy, xx = np.mgrid[0:gh, 0:gw].astype(np.float32)
    xx, yy = xx / gw - 0.5, yy / gh - 0.5
    gain = {
        "even": lrng.uniform(0.85, 1.1),
        "uneven": lrng.uniform(0.7, 1.1),
        "dim": lrng.uniform(0.3, 0.5),
    }[light]
    slope = {"even": 0.1, "uneven": 0.6, "dim": 0.5}[light]
    field = gain * (1 + lrng.uniform(-slope, slope) * xx + lrng.uniform(-slope, slope) * yy)
    field *= 1 - lrng.uniform(0, 0.5 if light != "even" else 0.15) * (xx**2 + yy**2) * 2
    small_outline = outline * np.array([gw / w, gh / h])
    shadow = np.zeros((gh, gw), np.float32)
    offset = lrng.normal(0, 0.01, 2) * np.array([gw, gh])
    cv2.fillPoly(
        shadow,
        [np.round((small_outline + offset) * 16).astype(np.int32)],
        1.0,
        cv2.LINE_AA,
        shift=4,
    )
    cv2.fillPoly(shadow, [np.round(small_outline * 16).astype(np.int32)], 0.0, cv2.LINE_AA, shift=4)
    shadow = cv2.GaussianBlur(shadow, (0, 0), 1.0)
    field *= 1 - 0.35 * shadow
    cast = 0.0
    if light == "uneven" and lrng.random() < 0.6:
        cast = float(lrng.uniform(0.15, 0.45))
        blob = np.zeros((gh, gw), np.float32)
        centre = lrng.uniform(0, 1, 2) * [gw, gh]
        axes = (int(lrng.uniform(0.2, 0.6) * gw), int(lrng.uniform(0.2, 0.6) * gh))
        cv2.ellipse(
            blob, tuple(int(v) for v in centre), axes, lrng.uniform(0, 180), 0, 360, 1.0, -1
        )
        blob = cv2.GaussianBlur(blob, (0, 0), lrng.uniform(1.5, 4))
        field *= 1 - cast * blob
    glare_default = (
        lrng.uniform(0.2, 0.9) if lrng.random() < (0.5 if board_style.glossy else 0.15) else 0.0
    )
    glare = float(_pick(opts.glare, 0.0 if opts.clean else glare_default))
    glow = np.zeros((gh, gw), np.float32)  # additive glare, 0..1
    if glare > 0:
        weights = lrng.dirichlet(np.ones(4))  # a reflection somewhere on the glossy board
        centre = weights @ (corners_outline * np.array([gw / w, gh / h]))
        sig = lrng.uniform(0.02, 0.09) * max(gw, gh)
        ratio = lrng.uniform(1, 4)
        d2 = ((xx + 0.5) * gw - centre[0]) ** 2 / ratio + ((yy + 0.5) * gh - centre[1]) ** 2 * ratio
        glow = (glare * 0.75 * np.exp(-d2 / (2 * sig**2))).astype(np.float32)  # ink stays visible
    white = lrng.normal(1, 0.07, 3).astype(np.float32)
    if lrng.random() < 0.2:  # warm indoor light
        white *= np.array([0.8, 0.95, 1.1], np.float32)
    if phone is not None:
        field, white = phone.light_field(field, xx, yy, gain, white)

    # optics first (on 8-bit, cheap), then light and sensor noise
    orng = _sub(seed, 9)
    res = np.sqrt(w * h / 2e6)
    blur = float(_pick(opts.blur, 0.0 if opts.clean else orng.uniform(0, 1.3)))
    if blur * res > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), blur * res)
    if orng.random() < (0 if opts.clean else 0.1):
        img = _motion_blur(img, orng, res)
    if k1 != 0:
        map_xy, map_frac = distortion_maps(k1, size)
        img = cv2.remap(img, map_xy, map_frac, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    field3 = np.clip(field[..., None] * white * 4096, 0, 65535).astype(np.uint16)
    img = cv2.multiply(
        img,
        cv2.resize(field3, size, interpolation=cv2.INTER_LINEAR),
        scale=1 / 4096,
        dtype=cv2.CV_8U,
    )
    if glare > 0:
        glow3 = np.repeat(np.clip(glow * 255, 0, 255).astype(np.uint8)[..., None], 3, axis=2)
        img = cv2.add(img, cv2.resize(glow3, size, interpolation=cv2.INTER_LINEAR))
    if phone is not None:
        img = phone.glow(img, view, lattice_cells, board_scale, board_style.glossy)
    noise_default = orng.uniform(3, 9) if light == "dim" else orng.uniform(0, 7)
    noise = float(_pick(opts.noise, 0.0 if opts.clean else noise_default))
    if noise > 0.3:
        _add_noise(img, noise, orng)
    if phone is not None:
        img = phone.sensor(img)
    if not opts.clean:
        img = _tone(img, orng)
    image = img
    quality = int(_pick(opts.jpeg_quality, 0 if opts.clean else int(orng.integers(55, 96))))
    if quality > 0:
        _, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        image = cv2.imdecode(buf, cv2.IMREAD_COLOR)

    cond.update(
        megapixels=round(mp, 3),
        size=[w, h],
        rotation=round(rotation % 360, 2),
        tilt=round(tilt, 2),
        tilt_axis=round(tilt_axis, 1),
        focal=round(focal, 3),
        fill=round(fill, 3),
        lens_k1=round(k1, 4),
        background=bg_kind,
        clutter=clutter,
        clutter_objects=n_objects,
        light=light,
        light_gain=round(float(gain), 3),
        cast_shadow=round(cast, 3),
        glare=round(glare, 3),
        blur=round(blur, 3),
        noise=round(noise, 2),
        jpeg_quality=quality,
        board_cell_px=round(cell, 1),
        marker=ink.color_names[0],
        clean=opts.clean,
    )
    photo = RenderedPhoto(
        image, corners.astype(np.float32), [list(r) for r in grid], cond, seed, extras=extras
    )
    if phone is not None:
        cond.update(phone=phone.conditions())
        photo.space_corners = phone.space_corners(view, lattice_cells).astype(np.float32)
        photo.covered = dict(phone.covered)
        photo.unread = list(phone.marks)
        photo.drawn = phone.names(mp, fill)
    return photo


def _draw_ink(board, grid, board_style, ink, rng, rounds, phone, water: WaterPainter | None
              ) -> None:
    """The player's ink: on a Deep Blue board the lakes first, then every space (through
    the phone profile's stroke habits and inks when it is on)."""
    drawer = None
    if water is not None:
        water.draw_lakes(board)
        drawer = water.draw_space
    if phone is None:
        draw_grid(board, grid, board_style, ink, rng, rounds, drawer)
    else:
        phone.draw_ink(board, grid, board_style, ink, rng, rounds, space_drawer=drawer)


def _motion_blur(img: np.ndarray, rng: np.random.Generator, res: float) -> np.ndarray:
    length = max(3, int(rng.uniform(3, 8) * res))
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0
    centre = ((length - 1) / 2, (length - 1) / 2)
    kernel = cv2.warpAffine(
        kernel, cv2.getRotationMatrix2D(centre, rng.uniform(0, 180), 1.0), (length, length)
    )
    return cv2.filter2D(img, -1, kernel / max(float(kernel.sum()), 1e-6))


def _add_noise(img: np.ndarray, sigma: float, rng: np.random.Generator, tile: int = 256) -> None:
    """Add Gaussian sensor noise in place: random windows of one 384 px noise patch."""
    source = np.round(rng.standard_normal((384, 384, 3), dtype=np.float32) * sigma).astype(np.int16)
    add_tiled(img, source, rng, tile)


def _tone(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Phone processing: a random tone curve (gamma, contrast) and sometimes sharpening."""
    gamma = rng.uniform(0.75, 1.3)
    contrast = rng.uniform(0.8, 1.2)
    x = np.arange(256, dtype=np.float32) / 255
    curve = np.clip(((x**gamma) - 0.5) * contrast + 0.5, 0, 1)
    img = cv2.LUT(img, (curve * 255).astype(np.uint8))
    if rng.random() < 0.3:
        soft = cv2.GaussianBlur(img, (0, 0), rng.uniform(1.0, 2.5))
        amount = rng.uniform(0.3, 1.0)
        img = cv2.addWeighted(img, 1 + amount, soft, -amount, 0)
    return img


def _second_board(img: np.ndarray, rng: np.random.Generator, cell: float) -> None:
    """Another player's drawn board, partly in view at the frame's edge (under the main one)."""
    from .games import random_board

    h, w = img.shape[:2]
    style = sample_board_style(rng)
    cell_px = max(8.0, cell * rng.uniform(0.8, 1.1))
    other = draw_board(style, cell_px, rng)
    draw_grid(other, random_board(rng).grid, style, sample_ink_style(rng), rng)
    bh, bw = other.image.shape[:2]
    angle = rng.uniform(0, 2 * np.pi)
    edge_point = [
        np.array([rng.uniform(0, w), 0.0]),
        np.array([rng.uniform(0, w), h]),
        np.array([0.0, rng.uniform(0, h)]),
        np.array([w, rng.uniform(0, h)]),
    ][int(rng.integers(4))]
    c, s = np.cos(angle), np.sin(angle)
    src = np.array([[0, 0], [bw, 0], [bw, bh], [0, bh]], np.float32)
    dst = (src - [bw / 2, bh / 2]) @ np.array([[c, -s], [s, c]]).T + edge_point
    dst = (dst + rng.normal(0, 0.03 * bw, dst.shape)).astype(np.float32)  # a little perspective
    x0, y0 = np.maximum(np.floor(dst.min(axis=0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(dst.max(axis=0)).astype(int), [w, h])
    if x1 - x0 < 2 or y1 - y0 < 2:
        return
    matrix = cv2.getPerspectiveTransform(src, (dst - [x0, y0]).astype(np.float32))
    roi = img[y0:y1, x0:x1]
    cv2.warpPerspective(
        other.image,
        matrix,
        (x1 - x0, y1 - y0),
        dst=roi,
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_TRANSPARENT,
    )
