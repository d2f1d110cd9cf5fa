"""Which water drawings the River and Lake dice give, as the reader asks it.

The River dice give a straight or curved river and a straight river under a highway or
railway bridge; the Lake dice give water on 1, 2 or 3 sides and piers (rules/RULINGS.md), and
the filling rule a full lake. Players do draw other water by mistake (a river end, a
branching river, a river joined to a route), and the scorer reports those as illegal, but
far more often such a shape on a photo is a misread: a highway junction read as a branching
river, a highway read as a river beside a river. The decoder therefore gives a drawing no die
gives a little less weight where the classifier is unsure (``vision.decode``), and a lone
water space counts as the expansion's only when its drawing is a die face
(``vision.water_sighting``). The rules themselves are the scorer's (``scoring.expansions``).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from scoring.expansions.lake import is_lake_face
from scoring.expansions.river import face_problem
from scoring.space import parse_token
from vision.space_parts import side_letters


@lru_cache(maxsize=4096)
def is_odd_water(token: str) -> bool:
    """Whether ``token`` has a river or lake side in a drawing no River or Lake die (nor the
    filling rule) gives: ``W___``, ``WWW_``, ``H_W_``, ``W_W_+_W_W``, ``L_L_``..."""
    letters = side_letters(token)
    if "W" not in letters and "L" not in letters:
        return False
    space = parse_token(token)
    if "W" in letters and face_problem(space) is not None:
        return True
    return "L" in letters and not is_lake_face(space)


def odd_water_mask(classes: list[str]) -> np.ndarray:
    """(n_classes,) bool, read-only: which classes are odd water (``is_odd_water``)."""
    return _odd_water_mask(tuple(classes))


@lru_cache(maxsize=8)
def _odd_water_mask(classes: tuple[str, ...]) -> np.ndarray:
    mask = np.array([is_odd_water(token) for token in classes])
    mask.flags.writeable = False
    return mask
