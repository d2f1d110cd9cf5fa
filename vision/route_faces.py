"""Which route drawings the base game's dice and Special Routes give, as the reader asks it.

The Route dice give straight, curved and T routes of one kind, the Station/overpass die the
overpass and the two-sided stations, and the Special Routes the four-sided crossings and
stations (rules/RULINGS.md). No die gives a dead end (a route on one side alone) or a
three-sided station (three route sides of both kinds): players draw them by mistake, and the
scorer counts them as drawn, but on an unclear space such a shape is far more often a misread
(a straight highway one of whose ends faces an empty space read as a dead end). The decoder
gives such a drawing a little less weight where the classifier is unsure (``vision.decode``),
as it does water no die gives (``vision.water_faces``).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from scoring.sides import ROUTE_KINDS
from vision.space_parts import side_letters


@lru_cache(maxsize=4096)
def is_odd_route(token: str) -> bool:
    """Whether ``token`` is a route drawing of one piece that no die gives: a dead end
    (``H___``) or a three-sided station (``HHR_``). Water, overpasses and bridges are not
    asked here."""
    if "+" in token or token.endswith("o"):
        return False
    letters = side_letters(token)
    routes = [kind for kind in letters if kind != "_"]
    if not set(routes) <= set(ROUTE_KINDS):
        return False  # water (vision.water_faces), or empty
    return len(routes) == 1 or (len(routes) == 3 and len(set(routes)) == 2)


def odd_route_mask(classes: list[str]) -> np.ndarray:
    """(n_classes,) bool, read-only: which classes are odd routes (``is_odd_route``)."""
    return _odd_route_mask(tuple(classes))


@lru_cache(maxsize=8)
def _odd_route_mask(classes: tuple[str, ...]) -> np.ndarray:
    mask = np.array([is_odd_route(token) for token in classes])
    mask.flags.writeable = False
    return mask
