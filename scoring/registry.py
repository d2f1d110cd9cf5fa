"""The expansions by name, what each draws and which key lines it owns, and the checks
that need the whole table: key lines, and drawings of expansions a board does not play.

``rink score --expansion NAME`` and a grid file's ``expansion: NAME`` line pick expansions
from ``REGISTRY`` (docs/NOTATION.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from scoring.board import Board, GridError
from scoring.expansion_api import Expansion
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
from scoring.quote import quoted
from scoring.results import Illegal, Place
from scoring.sides import HIGHWAY, RAILWAY

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
"""Expansion name -> its class, in rulebook order."""

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

EXPANSION_KEY = "expansion"
"""Grid-file key line naming the expansion(s) played: ``expansion: river`` (comma-separated)."""

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

REPEATABLE_KEYS = frozenset({EXPANSION_KEY, tentacle.KEY})


class UnknownExpansion(ValueError):
    """An expansion name that is not in the registry; the message lists the known names."""


def get_expansion(name: str) -> Expansion:
    """A new instance of the registered expansion called ``name`` (case-insensitive)."""
    entry = REGISTRY.get(name.strip().lower())
    if entry is None:
        raise UnknownExpansion(
            f"unknown expansion {quoted(name)} (known: {', '.join(sorted(REGISTRY))})"
        )
    return entry()


def declared_expansions(board: Board) -> list[str]:
    """Names from the board's ``expansion:`` key lines, in order, without repeats."""
    names: list[str] = []
    for key, value in board.extras:
        if key == EXPANSION_KEY:
            for name in value.replace(",", " ").split():
                if name.lower() not in names:
                    names.append(name.lower())
    return names


def resolve(board: Board, extra: Iterable[str | Expansion] = ()) -> list[Expansion]:
    """The board's declared expansions plus ``extra`` (names or instances), each once.

    An instance given in ``extra`` stands in for a declared expansion of the same name.
    Raises UnknownExpansion for a name that is not registered.
    """
    chosen: dict[str, Expansion | None] = dict.fromkeys(declared_expansions(board))
    for item in extra:
        if isinstance(item, Expansion):
            chosen[item.name or type(item).__name__.lower()] = item
        else:
            chosen.setdefault(item.strip().lower(), None)
    return [item or get_expansion(name) for name, item in chosen.items()]


def check_key_lines(board: Board, source: str = "<board>") -> None:
    """Raise GridError (naming ``source`` and quoting the line) for any bad key line."""
    if not board.extras:
        return
    seen: set[str] = set()
    for key, value in board.extras:
        line = quoted(f"{key}: {value}")
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
                        source, f"bad key line {line}: unknown expansion {quoted(name)} ({names})"
                    )
    key_lines.edge_places(board, ritual.EDGE_PORTALS_KEY, source)
    tentacle.tentacles(board, source)
    investigation.investigator_stop(board, source)
    key_lines.positions(board, investigation.COLLECTED_KEY, source)
    key_lines.positions(board, street_lamps.KEY, source)
    key_lines.positions(board, power_grid.ELECTRIFIED_KEY, source)
    key_lines.count(board, power_grid.CHARGES_KEY, power_grid.MAX_CHARGES, source)


_BASE_KINDS = frozenset({HIGHWAY, RAILWAY, None})


def _base_pieces_only(board: Board) -> bool:
    """Whether every space holds base-game pieces alone (no marker, no water side)."""
    return all(not space.markers and all(_BASE_KINDS.issuperset(piece.kinds)
                                         for piece in space.pieces)
               for row in board.spaces for space in row)


def undeclared_drawings(board: Board, played: Iterable[str]) -> list[Illegal]:
    """Expansion drawings or key lines on a board that does not play that expansion."""
    if not board.extras and _base_pieces_only(board):
        return []
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
