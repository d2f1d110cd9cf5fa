"""Which expansions a box plays together, and the score-sheet notes on boards that mix them.

The expansions come in three boxes (``Expansion.box``): Deep Blue (River, Lake), Eldritch
(Ritual, Portal, Tentacle, Investigation) and Electricity (Street Lamps, Power Grid). No
rulebook plays expansions of two boxes together, and the Deep Blue rulebook plays "1 of the
2 optional Expansions included in this box"; the Eldritch and Electricity rulebooks say
nothing about playing their dice together, so rink lets them add up without a note.
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.expansion_api import Expansion

ONE_AT_A_TIME = frozenset({"Deep Blue"})
"""Boxes whose rulebook plays one of its expansions at a time."""


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def box_notes(expansions: Sequence[Expansion]) -> list[str]:
    """Notes for a mix of expansions that no box plays together (empty when there is none)."""
    by_box: dict[str, list[str]] = {}
    for expansion in expansions:
        if expansion.box:
            by_box.setdefault(expansion.box, []).append(expansion.name)
    notes = []
    if len(by_box) > 1:
        names = [name for group in by_box.values() for name in group]
        notes.append(
            f"{_listed(names)} are from different boxes ({' / '.join(by_box)}); "
            "no box plays them together"
        )
    for box, names in by_box.items():
        if box in ONE_AT_A_TIME and len(names) > 1:
            notes.append(
                f"{_listed(names)} are both from the {box} box, whose rulebook plays one of "
                "them at a time"
            )
    return notes
