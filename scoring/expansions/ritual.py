"""Ritual expansion (Eldritch, 6 rounds): Madness Networks of Ritual Sites and Portals.

A Ritual Site is a space marked ``!``: every piece in it touches the Ritual. A Portal is drawn
outside the grid next to a "Country Route" (a route end on the outer edge where there is no
Exit) and is listed on the ``edge portals:`` line (``N2 W4``: board side + row/column). Each
Madness Network (a set of Rituals and Portals connected through routes) scores on the Network
Values track, counting its Rituals and Portals as Exits. Exits connected to any Ritual or Portal
are left out of the regular networks.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.board import Board
from scoring.exits import Exit, exit_at
from scoring.expansion_api import Expansion, ExpansionScore
from scoring.expansions.key_lines import edge_place_space, edge_places
from scoring.expansions.marked import marked, marked_places
from scoring.expansions.wording import counted
from scoring.graph import Link, NodeId, RouteGraph
from scoring.results import Illegal, Place, ScoreSheet, network_points
from scoring.sides import ROUTE_KINDS

RITUAL = "!"
EDGE_PORTALS_KEY = "edge portals"
ROUNDS = 6
RITUAL_LABEL = "ritual"
PORTAL_LABEL = "edge portal"
"""Labels of the virtual graph nodes for Ritual Sites and edge Portals."""


@dataclass(frozen=True)
class MadnessNetwork:
    """Rituals and Portals connected to each other, and the Exits they take from regular play."""

    rituals: int
    portals: int
    exits: tuple[Exit, ...]

    @property
    def size(self) -> int:
        return self.rituals + self.portals

    @property
    def points(self) -> int:
        return network_points(self.size)


def madness_links(board: Board, graph: RouteGraph, source: str = "<board>") -> list[Link]:
    """Add one virtual node per Ritual Site and per edge Portal to ``graph``; return the links
    that join each to the pieces it touches (the caller adds them)."""
    links = []
    for row, col in marked(board, RITUAL):
        node = graph.add_virtual(f"{RITUAL_LABEL} {row},{col}")
        links += [Link(node, piece) for piece in graph.nodes_in(row, col)]
    for place in edge_places(board, EDGE_PORTALS_KEY, source):
        (row, col), side = edge_place_space(place)
        node = graph.add_virtual(f"{PORTAL_LABEL} {side.name}{place[1]}")
        piece = graph.node_at(row, col, side)
        if piece is not None and graph.kind_at(row, col, side) in ROUTE_KINDS:
            links.append(Link(node, piece))
    return links


def madness_nodes(graph: RouteGraph) -> list[NodeId]:
    """The Ritual and Portal nodes ``madness_links`` added."""
    return [
        i for i, node in enumerate(graph.nodes)
        if node.is_virtual and node.label.startswith((RITUAL_LABEL, PORTAL_LABEL))
    ]


def madness_networks(graph: RouteGraph) -> list[MadnessNetwork]:
    """Every Madness Network, in order of its first Ritual or Portal."""
    nodes = madness_nodes(graph)
    found, done = [], set()
    for node in nodes:
        if node in done:
            continue
        group = graph.component_of(node)
        members = [n for n in nodes if n in group]
        done.update(members)
        rituals = sum(graph.nodes[n].label.startswith(RITUAL_LABEL) for n in members)
        found.append(MadnessNetwork(rituals, len(members) - rituals, tuple(graph.exits_of(group))))
    return found


def excluded_exits(graph: RouteGraph) -> set[int]:
    """Exits connected to a Ritual or Portal: left out of the regular networks."""
    return {e.index for network in madness_networks(graph) for e in network.exits}


def score_networks(networks: list[MadnessNetwork]) -> tuple[int, str]:
    """(points, score-sheet line) for the Madness Networks."""
    scoring = [n for n in networks if n.points]
    if not scoring:
        return 0, "no Madness Network of 2 or more"
    parts = ", ".join(
        f"{counted(n.rituals, 'Ritual')} + {counted(n.portals, 'Portal')} = {n.points}" for n in scoring
    )
    return sum(n.points for n in scoring), f"Madness Networks {parts}"


def find_illegal(board: Board, source: str = "<board>") -> list[Illegal]:
    """Edge Portals not beside a Country Route, doubled, or more than one per round."""
    found: list[Illegal] = []
    places = edge_places(board, EDGE_PORTALS_KEY, source)
    seen = set()
    for place in places:
        (row, col), side = edge_place_space(place)
        where = (Place(row, col, side),)
        name = f"{side.name}{place[1]}"
        if place in seen:
            found.append(Illegal("portal-twice", f"Portal {name} is listed twice", where))
        seen.add(place)
        exit_ = exit_at(row, col, side)
        if exit_ is not None:
            found.append(Illegal(
                "portal-at-exit", f"Portal {name} is drawn at the {exit_.words}", where
            ))
        elif board[row, col].kind_at(side) not in ROUTE_KINDS:
            found.append(Illegal(
                "portal-no-route", f"Portal {name} is not next to a route reaching the edge",
                where,
            ))
    if len(places) > ROUNDS:
        found.append(Illegal(
            "too-many-portals", f"{len(places)} edge Portals, at most 1 per round ({ROUNDS})", ()
        ))
    rituals = marked_places(board, RITUAL)
    if len(rituals) > ROUNDS:
        found.append(Illegal(
            "too-many-rituals", f"{len(rituals)} Ritual Sites, 1 per round ({ROUNDS})",
            tuple(rituals),
        ))
    return found


def drawings(board: Board) -> list[Place]:
    """Ritual Sites (edge Portals are on a key line, not in a space)."""
    return marked_places(board, RITUAL)


class RitualExpansion(Expansion):
    """The Ritual expansion for ``scoring.engine.score``."""

    name = "ritual"
    title = "Ritual"
    box = "Eldritch"
    rounds = ROUNDS

    def links(self, board: Board, graph: RouteGraph) -> list[Link]:
        return madness_links(board, graph)

    def excluded_exits(self, board: Board, graph: RouteGraph) -> set[int]:
        return excluded_exits(graph)

    def illegal(self, board: Board, graph: RouteGraph) -> list[Illegal]:
        return find_illegal(board)

    def score(self, board: Board, graph: RouteGraph, sheet: ScoreSheet) -> ExpansionScore:
        return ExpansionScore(*score_networks(madness_networks(graph)))
