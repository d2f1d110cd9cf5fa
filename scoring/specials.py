"""The 6 Special Routes (RULINGS.md): which one a drawn space is, if any.

Highway crossing ``HHHH``, railway crossing ``RRRR`` and four stations: 3 highways + 1 railway
(``HHRH``), 1 highway + 3 railways (``HRRR``), highways on two adjacent sides (``HHRR``) and
highways on two opposite sides, connected (``HRHR``) - each in any rotation or reflection.
"""

from __future__ import annotations

from scoring.sides import HIGHWAY, ROUTE_KINDS
from scoring.space import Space

SPECIAL_NAMES = {
    "HHHH": "highway crossing HHHH",
    "RRRR": "railway crossing RRRR",
    "HHRH": "3-highway station HHRH",
    "HRRR": "3-railway station HRRR",
    "HHRR": "adjacent-highways station HHRR",
    "HRHR": "opposite-highways station HRHR",
}


DICE_MARKERS = frozenset("*")
"""Markers of pieces that come from expansion dice, not the Special Routes panel (a Street
Lamp crossing ``HHHH*``): such a space is never a Special Route."""


def special_route(space: Space) -> str | None:
    """The canonical name (a key of ``SPECIAL_NAMES``) of the Special Route drawn, or None.

    A Special Route is one piece with four route ends (an overpass is two pieces and is not).
    """
    if len(space.pieces) != 1 or DICE_MARKERS.intersection(space.markers):
        return None
    kinds = space.pieces[0].kinds
    if not all(kind in ROUTE_KINDS for kind in kinds):
        return None
    highways = kinds.count(HIGHWAY)
    if highways == 4:
        return "HHHH"
    if highways == 0:
        return "RRRR"
    if highways == 3:
        return "HHRH"
    if highways == 1:
        return "HRRR"
    opposite = kinds[0] == kinds[2]
    return "HRHR" if opposite else "HHRR"

