"""The eight expansions from the rulebooks, one module each, found by name in ``REGISTRY``.

``score_board(board, expansions=[...])`` runs their hooks (scoring/expansion_api.py);
``rink score --expansion NAME`` or a grid file's ``expansion: NAME`` line picks them.
``check_key_lines`` validates a grid file's expansion lines, ``undeclared_drawings`` reports
expansion drawings on a board that does not play that expansion, and ``score_with_expansions``
does all of it in one call.
The notation is documented in docs/NOTATION.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from scoring.board import Board, GridError
from scoring.engine import score_board
from scoring.expansion_api import EXPANSION_KEY, Expansion, UnknownExpansion, resolve_expansions
from scoring.expansions import (
    investigation,
    key_lines,
    lake,
    portal,
    power_grid,
    ritual,
    river,
    street_lamps,
    tentacle,
)
from scoring.results import Illegal, Place, ScoreSheet

REGISTRY: dict[str, type[Expansion]] = {
    "river": river.RiverExpansion,
    "lake": lake.LakeExpansion,
    "ritual": ritual.RitualExpansion,
    "portal": portal.PortalExpansion,
    "tentacle": tentacle.TentacleExpansion,
    "investigation": investigation.InvestigationExpansion,
    "street-lamps": street_lamps.StreetLampsExpansion,
    "power-grid": power_grid.PowerGridExpansion,
}

DRAWINGS: dict[str, Callable[[Board], list[Place]]] = {
    "river": river.drawings,
    "lake": lake.drawings,
    "ritual": ritual.drawings,
    "portal": portal.drawings,
    "tentacle": tentacle.drawings,
    "investigation": investigation.drawings,
    "street-lamps": street_lamps.drawings,
    "power-grid": power_grid.drawings,
}
"""Expansion name -> the spaces holding its drawings."""

KEYS: dict[str, str] = {
    ritual.EDGE_PORTALS_KEY: "ritual",
    tentacle.KEY: "tentacle",
    investigation.INVESTIGATOR_KEY: "investigation",
    investigation.COLLECTED_KEY: "investigation",
    street_lamps.KEY: "street-lamps",
    power_grid.ELECTRIFIED_KEY: "power-grid",
    power_grid.CHARGES_KEY: "power-grid",
}
"""Key line -> the expansion it belongs to (``expansion:`` itself names the expansions)."""

REPEATABLE_KEYS = {EXPANSION_KEY, tentacle.KEY}


def check_key_lines(board: Board, source: str = "<board>") -> None:
    """Raise GridError (naming ``source`` and quoting the line) for any bad key line."""
    seen: set[str] = set()
    for key, value in board.extras:
        line = f"'{key}: {value}'"
        if key != EXPANSION_KEY and key not in KEYS:
            known = ", ".join(sorted(KEYS.keys() | {EXPANSION_KEY}))
            raise GridError(source, f"unknown key line {line} (known keys: {known})")
        if key in seen and key not in REPEATABLE_KEYS:
            raise GridError(source, f"key line {line}: '{key}' is given twice")
        seen.add(key)
        if key == EXPANSION_KEY:
            for name in value.replace(",", " ").split():
                if name.lower() not in REGISTRY:
                    names = ", ".join(REGISTRY)
                    raise GridError(
                        source, f"bad key line {line}: unknown expansion {name!r} ({names})"
                    )
    key_lines.edge_places(board, ritual.EDGE_PORTALS_KEY, source)
    tentacle.tentacles(board, source)
    investigation.find_illegal(board, source)
    key_lines.positions(board, street_lamps.KEY, source)
    key_lines.positions(board, power_grid.ELECTRIFIED_KEY, source)
    key_lines.count(board, power_grid.CHARGES_KEY, power_grid.MAX_CHARGES, source)


def undeclared_drawings(board: Board, played: Iterable[str]) -> list[Illegal]:
    """Expansion drawings or key lines on a board that does not play that expansion."""
    active = {name.lower() for name in played}
    found = []
    for name, drawings in DRAWINGS.items():
        if name in active:
            continue
        places = drawings(board)
        keys = sorted(key for key, _ in board.extras if KEYS.get(key) == name)
        if not places and not keys:
            continue
        what = "drawings" if places else f"key lines ({', '.join(keys)})"
        found.append(Illegal(
            "undeclared-expansion",
            f"{REGISTRY[name].title} {what}, but the {name} expansion is not played "
            f"(add 'expansion: {name}' or --expansion {name})",
            tuple(places),
        ))
    return found


def score_with_expansions(
    board: Board,
    names: Iterable[str] = (),
    *,
    source: str = "<board>",
    reentrant_longest: bool = False,
) -> ScoreSheet:
    """Score ``board`` with its declared expansions plus ``names``: key lines are checked
    (GridError naming ``source``) and undeclared expansion drawings join the illegal list."""
    check_key_lines(board, source)
    try:
        expansions = resolve_expansions(board, names)
    except UnknownExpansion as error:
        raise GridError(source, str(error)) from None
    sheet = score_board(board, expansions=expansions, reentrant_longest=reentrant_longest)
    sheet.illegal += undeclared_drawings(board, [expansion.name for expansion in expansions])
    return sheet
