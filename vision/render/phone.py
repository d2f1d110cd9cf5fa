"""Condition profiles for photos as phones really take them (issue 14), and what one photo draws.

A profile is opt-in (``PhotoOptions(conditions="phone")``): without one, ``render_photo`` draws
nothing from here and every seed renders as before. Each condition has a stated probability,
drawn independently per photo from its own sub-seed of the photo seed, except the one-of
groups (sheet shape, ink, room light). Forced ``PhotoOptions`` fields still win over what a
profile draws (``megapixels=3`` leaves no room for ``low_res``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace

import numpy as np

PROFILE_VERSION = 2  # bump when a profile's renders change (recorded in every truth file)
# 2: the unread marks vary more (anywhere in the space, more sizes) and include the
# investigator and tentacles (vision.render.unread); renders without marks are unchanged

Choices = tuple[tuple[str, float], ...]


@dataclass(frozen=True)
class PhoneConditions:
    """Probabilities of each condition per photo (one-of groups as (name, probability))."""

    name: str = "phone"
    sheet: Choices = (("flat", 0.4), ("curled", 0.25), ("folded", 0.2), ("bumpy", 0.15))
    ink: Choices = (("marker", 0.5), ("pencil", 0.15), ("pale_marker", 0.15), ("dry_erase", 0.2))
    light: Choices = (("room", 0.65), ("dim", 0.25), ("flash", 0.1))
    shaky: float = 0.5  # strokes wobble, change width, start/end with blobs or ticks
    legs: float = 0.3  # the player draws curves (some or all) as two straight legs
    sloppy: float = 0.4  # pieces turned a little or off-centre
    low_res: float = 0.2  # a 1-2 MP photo (more JPEG compression)
    small_board: float = 0.2  # the board fills only a third to a half of the frame
    denoise_dim: float = 0.7  # heavy phone denoising that smears fine lines, in a dim room
    denoise_other: float = 0.1  # ... and in other light
    reflection: float = 0.25  # a band of reflected light, on shiny (dry-erase) boards only
    hand: float = 0.15  # a hand on the sheet, over spaces
    pen: float = 0.15  # a pen lying on the sheet
    die: float = 0.15  # a die on the sheet
    unread_marks: float = 0.0  # marks rink does not read (expansions, scribbles, corrections)

    def to_json(self) -> dict:
        return asdict(self)


PROFILES: dict[str, PhoneConditions] = {
    "phone": PhoneConditions(),
    "phone_marks": PhoneConditions(name="phone_marks", unread_marks=0.5),
    # training data for the mark head (scripts/train_mark_head.py): marks on every board
    "phone_marked": PhoneConditions(name="phone_marked", unread_marks=1.0),
    # boards with marks on a flat sheet in room light, drawn with a marker, nothing else hard:
    # what a player of the Eldritch or Electricity expansions photographs on a good day
    "plain_marks": PhoneConditions(
        name="plain_marks", sheet=(("flat", 1.0),), ink=(("marker", 1.0),),
        light=(("room", 1.0),), shaky=0.0, legs=0.0, sloppy=0.0, low_res=0.0, small_board=0.0,
        denoise_dim=0.0, denoise_other=0.0, reflection=0.0, hand=0.0, pen=0.0, die=0.0,
        unread_marks=1.0),
}
# sub-seeds of the photo seed used by the profile (render_photo's own parts are 0-9)
PART_DRAW, PART_INK, PART_SHEET, PART_MARKS, PART_OBJECTS, PART_LIGHT, PART_SENSOR = range(20, 27)


def profile(conditions: str | PhoneConditions) -> PhoneConditions:
    """A profile by name (PROFILES) or as given."""
    if isinstance(conditions, PhoneConditions):
        return conditions
    try:
        return PROFILES[conditions]
    except KeyError:
        names = ", ".join(sorted(PROFILES))
        raise ValueError(f"unknown conditions profile {conditions!r} (known: {names})") from None


@dataclass(frozen=True)
class PhoneDraw:
    """The conditions one photo gets under a profile (before forced options are applied)."""

    profile: str
    sheet: str
    ink: str
    light: str
    shaky: bool
    legs: bool
    sloppy: bool
    low_res: bool
    small_board: bool
    denoise: bool
    reflection: bool  # wanted; happens only on a shiny board
    objects: tuple[str, ...]  # on the sheet: "hand", "pen", "die"
    unread_marks: bool

    def names(self) -> list[str]:
        """Condition names for reports (render_photo records the ones that really happened)."""
        out = [self.sheet, self.ink]
        out += [
            n for n in ("shaky", "legs", "sloppy", "low_res", "small_board") if getattr(self, n)
        ]
        if self.light != "room":
            out.append(self.light)
        out += ["denoise"] * self.denoise + ["reflection"] * self.reflection
        out += list(self.objects) + ["unread_marks"] * self.unread_marks
        return out

    def with_(self, **changes) -> PhoneDraw:
        return replace(self, **changes)


def _one_of(rng: np.random.Generator, choices: Choices) -> str:
    names = [n for n, _ in choices]
    p = np.array([p for _, p in choices], float)
    return names[int(rng.choice(len(names), p=p / p.sum()))]


def draw_conditions(seed: int, conditions: PhoneConditions) -> PhoneDraw:
    """What photo ``seed`` gets under ``conditions`` (its own sub-seed; same seed, same draw)."""
    rng = np.random.default_rng([seed, PART_DRAW])
    sheet = _one_of(rng, conditions.sheet)
    ink = _one_of(rng, conditions.ink)
    light = _one_of(rng, conditions.light)
    flags = {
        name: bool(rng.random() < getattr(conditions, name))
        for name in ("shaky", "legs", "sloppy", "low_res", "small_board")
    }
    denoise = bool(
        rng.random() < (conditions.denoise_dim if light == "dim" else conditions.denoise_other)
    )
    reflection = bool(rng.random() < conditions.reflection)
    objects = tuple(n for n in ("hand", "pen", "die") if rng.random() < getattr(conditions, n))
    unread = bool(rng.random() < conditions.unread_marks)
    return PhoneDraw(
        conditions.name,
        sheet,
        ink,
        light,
        denoise=denoise,
        reflection=reflection,
        objects=objects,
        unread_marks=unread,
        **flags,
    )
