"""A photo that could not be read, in plain words for the page, with tips to retake it."""

from __future__ import annotations

RETAKE_TIPS = [
    "Get the whole board in the picture, with a strip of table all round it.",
    "Hold the phone above the board rather than at a steep angle.",
    "Light it evenly; tilt the board a little if a glossy card shows a glare band.",
]
LIGHT_TIP = "Take it in brighter, even light: daylight or a lamp, no flash glare on the sheet."
HINTS = {
    "dark": "The photo is very dark: turn on a light or move the board to a brighter spot.",
    "small": "The photo is small: take it with the phone's camera at its normal size, and "
             "fill most of the picture with the board.",
    "blurry": "The photo looks blurred: hold the phone still and let it focus first.",
}


def _edges_words(edges: list[str]) -> str:
    if not edges:
        return "an edge"
    if len(edges) == 1:
        return f"the photo's {edges[0]} edge"
    return f"the photo's {' and '.join(edges)} edges"


def failure_words(failure: dict, reading: dict) -> dict:
    """{title, message, tips, corners (whether tapping the corners can help), detail}."""
    kind = failure.get("kind", "")
    detail = failure.get("message", "")
    hints = [HINTS[h] for h in failure.get("hints", []) if h in HINTS]
    corners = "preview" in reading
    if kind == "cut":
        edges = failure.get("edges") or []
        title = "Only part of the board is in the photo"
        message = (f"The board runs past {_edges_words(edges)}: that part is missing. "
                   "Step back or zoom out so all four sides and the Exit marks are in view.")
        tips = hints + RETAKE_TIPS[1:]
        corners = False
    elif kind == "small":
        title = "The photo is too small to read"
        message = detail.split(": ", 1)[-1].capitalize() + "."
        tips = [HINTS["small"]]
    elif kind == "not-image":
        title = "This file is not a photo"
        message = "rink reads JPEG, PNG, WebP, HEIC, AVIF and TIFF pictures."
        tips = ["Use the phone's camera, or pick the photo from the gallery."]
    elif kind == "bad-corners":
        title = "Those four points are not the board's corners"
        message = ("Tap the grid's outer corners in order: top-left, top-right, "
                   "bottom-right, bottom-left (the top is the side with the Special Routes).")
        tips = []
    elif kind == "hard-to-read":
        title = "The board is too hard to read"
        message = ("rink found the board, but too many of its spaces could not be read "
                   "surely: faint pencil, dim light, or something lying on the sheet.")
        tips = hints + [LIGHT_TIP, "Move hands, pens and dice off the sheet.",
                        "Hold the phone closer, so that the board fills most of the picture."]
        # tapping the corners still reads it, every doubtful space listed to check
    elif kind == "no-board":
        title = "No board found in this photo"
        message = "rink could not find the 7 x 7 grid of a Railroad Ink board."
        tips = hints + RETAKE_TIPS
    else:
        title = "The photo could not be read"
        message = detail.split(": ", 1)[-1] if detail else "Take it again."
        tips = hints + RETAKE_TIPS
    if corners:
        tips = tips + ["Or tap the board's four grid corners on the photo below."]
    return {"kind": kind, "title": title, "message": message, "tips": tips,
            "corners": corners, "edges": failure.get("edges") or [], "detail": detail}
