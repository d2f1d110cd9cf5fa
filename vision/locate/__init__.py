"""Find the board's 7 x 7 printed lattice in a photo (up to which corner is the board's top).

1. Candidates (``candidates``): contours of dark lines (adaptive threshold after dividing
   out the large-scale brightness) that simplify to a convex quadrilateral - the thick
   frame, the paper edge, panels. Until some guess is sure, more maps add candidates: a more
   sensitive threshold, then the map eroded (which parts a frame from what thin lines join
   it to).
   Still unsure, a hand may lie over the frame, its outline joined to the frame's: the map
   and its first erosions once more with the skin-coloured blobs left out (``skin``).
   When nothing is sure, something may lie across the frame (a hand, a pen): quadrilaterals
   of the frame's visible sides, straight stretches of outlines gathered into lines
   (``lines``), are searched apart.
2. Guesses (``combs``): each candidate itself, and 8-line combs fitted inside it
   (straightened) to the "line coverage" profiles in x and y. The best guesses are also
   tried one space off.
3. Score (``score``): complete inner lines, a frame on all four sides, Exit marks
   (vision.exit_marks) beside the 2nd/4th/6th spaces of every side, few lines half a space
   off; guesses that cannot be a board's lattice (too small, too oblique) are dropped.
4. Refinement (``refine``): intersections snapped with a cross filter, homography refitted by
   RANSAC (kept only if it scores better); then each side is moved from the middle of the
   thick frame onto its inner edge, which is the lattice boundary.
5. Extent (``extent``): lines running on past a side mean a part of a larger lattice (the
   fit is moved, ``search``) or a board cut by the photo's edge.
6. A small board is searched again on a crop around it, at a finer scale (``search``).
7. A doubtful lattice's outline is measured as a printed frame (``score.frame_seen``: seen
   all round, paper beyond it, no whole line across it), so that the acceptance policy can
   read a board whose lattice lines are too faint to see (vision.acceptance.framed_only).

Every tunable is in ``LocateParams`` (``params``). Corners come back in clockwise image
order; ``vision.orient`` decides which one is the board's top-left.
"""

from vision.locate.params import LocateParams
from vision.locate.search import LatticeFit, find_lattice

__all__ = ["LatticeFit", "LocateParams", "find_lattice"]
