"""The pieces a player can pick for a space, grouped as the picker shows them.

Every base-game drawing and rotation (highway and railway pieces, stations, overpasses,
Special Routes), empty, the readings the photo reader can give for drawing mistakes (dead
ends, three-way stations), and, when an expansion is played, its pieces and markers
(docs/NOTATION.md). Tokens are board-spec 4.1 notation.
"""

from __future__ import annotations

from scoring.space import format_space, parse_token


def _turns(code: str) -> list[str]:
    """``code`` (4 side letters) and its distinct clockwise quarter turns, in order."""
    found: list[str] = []
    for q in range(4):
        turned = code[-q:] + code[:-q] if q else code
        if turned not in found:
            found.append(turned)
    return found


def _all(*codes: str) -> list[str]:
    out: list[str] = []
    for code in codes:
        for token in _turns(code):
            if token not in out:
                out.append(token)
    return out


BASE_GROUPS: list[tuple[str, list[str]]] = [
    ("Empty", ["."]),
    ("Highway", _all("H_H_", "HH__", "HHH_")),
    ("Railway", _all("R_R_", "RR__", "RRR_")),
    ("Stations", _all("H_R_", "R_H_", "HR__", "RH__")),
    ("Overpass", ["HRHRo", "RHRHo"]),
    ("Special Routes", _all("HHHH", "RRRR", "HHHR", "RRRH", "HHRR", "HRHR")),
]

MISTAKES_TITLE = "Drawing mistakes (dead ends, three-way stations)"

EXPANSION_GROUPS: dict[str, list[tuple[str, list[str]]]] = {
    "river": [("River", _all("W_W_", "WW__") + ["H_H_+_W_W", "_H_H+W_W_", "R_R_+_W_W",
                                                  "_R_R+W_W_"])],
    "lake": [("Lake", _all("L___", "LL__", "LLL_") + ["LLLL"]),
             ("Piers", _all("L_R_", "L_H_", "LLHR", "LLRH"))],
    "portal": [("Portals", [f"{code}@{letter}" for letter in "ABC"
                            for code in ("H___", "R___")])],
    "ritual": [("Ritual", [".!"])],
    "street-lamps": [("Street Lamps", ["H_H_+_H_H", "HH__+__HH", "H__H+_HH_"])],
    "power-grid": [("Power Grid", [".#"])],
}
"""Expansion name -> its groups of pieces (portal pieces in one rotation: turn with the
others' rotations via the marker buttons)."""

MARKERS: dict[str, list[tuple[str, str]]] = {
    "portal": [("@A", "Portal A"), ("@B", "Portal B"), ("@C", "Portal C")],
    "ritual": [("!", "Ritual Site")],
    "investigation": [("?", "Clue")],
    "street-lamps": [("*", "Street Lamp")],
    "power-grid": [("#", "Accumulator")],
}
"""Expansion name -> markers a player can add to (or take off) a space's token."""

KEY_FIELDS: dict[str, list[dict]] = {
    "ritual": [{"key": "edge portals", "label": "Portals drawn outside the grid",
                "hint": "N2 W2 E4"}],
    "tentacle": [{"key": "tentacle", "label": "Tentacles, one per line, start to tip",
                  "hint": "0,2 0,1 0,0", "multi": True}],
    "investigation": [
        {"key": "investigator", "label": "Where the Investigator stands", "hint": "3,5 or W3"},
        {"key": "clues collected", "label": "Clues collected (circled)", "hint": "3,1 3,4"}],
    "street-lamps": [{"key": "lamps activated", "label": "Street Lamps activated",
                      "hint": "0,1 0,2"}],
    "power-grid": [
        {"key": "electrified", "label": "Spaces with a lightning mark", "hint": "2,3 1,3"},
        {"key": "charges", "label": "Accumulator charges (0-3)", "hint": "2"}],
}
"""Expansion name -> the key lines (docs/NOTATION.md section 2) a photo cannot show."""


def piece_shape(token: str) -> dict:
    """How the page draws ``token``: its pieces (4 side letters each), markers, overpass."""
    space = parse_token(token)
    canonical = format_space(space)
    body = canonical[: len(canonical) - len(space.markers)]
    overpass = bool(space.pieces) and body.endswith("o")
    return {"token": canonical, "pieces": [piece.code for piece in space.pieces],
            "markers": space.markers, "overpass": overpass}


def catalogue(classes: list[str], expansions: list[str]) -> list[dict]:
    """The picker's groups: ``[{"title", "glyphs": [shape...]}]``.

    ``classes``: every token the photo reader can give; those not in a base group are the
    drawing mistakes group.
    """
    groups = [(title, list(tokens)) for title, tokens in BASE_GROUPS]
    known = {token for _, tokens in groups for token in tokens}
    mistakes = [c for c in classes if c not in known]
    if mistakes:
        groups.append((MISTAKES_TITLE, mistakes))
    for name in expansions:
        groups += EXPANSION_GROUPS.get(name, [])
    return [{"title": title, "glyphs": [piece_shape(t) for t in tokens]}
            for title, tokens in groups]


def expansion_info(names: list[str]) -> list[dict]:
    """Per expansion: its name, title, marker buttons and key-line fields."""
    from scoring.registry import get_expansion

    info = []
    for name in names:
        info.append({"name": name, "title": get_expansion(name).title or name,
                     "markers": [{"marker": m, "label": label}
                                 for m, label in MARKERS.get(name, [])],
                     "keys": KEY_FIELDS.get(name, [])})
    return info
