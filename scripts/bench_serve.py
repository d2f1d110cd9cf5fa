"""Speed of ``rink serve``: a 12 MP photo from upload to result, a correction's round trip,
and the page's weight before the photo.

    .venv/bin/python scripts/bench_serve.py [--photo sample_photos/board_02.jpg] [--n 5]

Makes a 12 MP JPEG from a sample photo (enlarged to 3000 x 4000, with sensor-like noise), starts the real server
(``rink serve TMP --port 0 --jobs 1``) pinned to one CPU core (its reader worker too), then
times over HTTP on 127.0.0.1: uploads of the photo (the full request: sending 12 MP, storing,
reading, straightening, scoring, the answer), corrections (``/set`` and ``/undo`` in turn) and
the bytes of the page with its script, style sheet and icon.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.serve_support import rink_command  # noqa: E402 (the repo root is put on sys.path just above)


def twelve_mp_photo(source: Path, target: Path) -> tuple[int, int]:
    import cv2

    image = cv2.imread(str(source))
    h, w = image.shape[:2]
    size = (3000, 4000) if h >= w else (4000, 3000)
    big = cv2.resize(image, size, interpolation=cv2.INTER_CUBIC)
    # sensor noise, so the JPEG weighs what a phone's 12 MP photo does (3-5 MB), not 1 MB
    import numpy as np

    noise = np.random.default_rng(12).normal(0, 7, big.shape)
    big = np.clip(big.astype(np.float32) + noise, 0, 255).astype(np.uint8)
    cv2.imwrite(str(target), big, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return size


def post_photo(url: str, data: bytes) -> dict:
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"player\"\r\n\r\nbench\r\n"
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"p\"\r\n"
            "Content-Type: image/jpeg\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
    request = urllib.request.Request(url + "api/boards", data=body, headers={
        "content-type": f"multipart/form-data; boundary={boundary}"})
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.loads(response.read())


def post_json(url: str, path: str, payload: dict) -> dict:
    request = urllib.request.Request(url + path, data=json.dumps(payload).encode(),
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def start(folder: Path, core: int) -> tuple[subprocess.Popen, str]:
    def pin() -> None:
        os.sched_setaffinity(0, {core})

    process = subprocess.Popen(rink_command() + ["serve", str(folder), "--port", "0",
                                                 "--jobs", "1"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               cwd=REPO, preexec_fn=pin,
                               env=dict(os.environ, PYTHONUNBUFFERED="1"))
    for line in process.stdout:  # type: ignore[union-attr]
        if line.startswith("Serving at "):
            return process, line.split("Serving at ", 1)[1].strip()
    raise RuntimeError("rink serve did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photo", type=Path, default=REPO / "sample_photos" / "board_02.jpg")
    parser.add_argument("--n", type=int, default=5, help="timed uploads")
    parser.add_argument("--corrections", type=int, default=40)
    parser.add_argument("--core", type=int, default=0, help="the CPU core the server runs on")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        photo = Path(tmp) / "twelve.jpg"
        size = twelve_mp_photo(args.photo, photo)
        data = photo.read_bytes()
        started = time.perf_counter()
        process, url = start(Path(tmp) / "night", args.core)
        try:
            page = urllib.request.urlopen(url, timeout=30).read()
            first_page = time.perf_counter() - started
            assets = set(re.findall(rb'(?:src|href)="(/static/[^"]+)"', page))
            weight = len(page) + sum(len(urllib.request.urlopen(url + a.decode()[1:],
                                                                timeout=30).read())
                                     for a in assets)
            view = post_photo(url, data)  # warm-up: the worker's first photo
            assert view["status"] == "read", view.get("failure")
            uploads = []
            for _ in range(args.n):
                t = time.perf_counter()
                view = post_photo(url, data)
                uploads.append(time.perf_counter() - t)
            board, review = view["id"], view["explain"]["spaces"]
            token = "H_H_" if review[3][3]["token"] != "H_H_" else "_H_H"
            trips = []
            for i in range(args.corrections):
                t = time.perf_counter()
                if i % 2 == 0:
                    post_json(url, f"api/boards/{board}/set", {"row": 3, "col": 3,
                                                               "token": token})
                else:
                    post_json(url, f"api/boards/{board}/undo", {})
                trips.append(time.perf_counter() - t)
        finally:
            process.terminate()
            process.wait(timeout=15)
    trips.sort()
    print(f"photo: {args.photo.name} enlarged to {size[0]} x {size[1]} "
          f"({len(data) / 1e6:.1f} MB JPEG); server pinned to core {args.core}, --jobs 1")
    print(f"page weight before the photo: {weight / 1024:.1f} KB ({len(assets) + 1} files)")
    print(f"server start to first page: {first_page:.2f} s")
    print(f"upload to result, 12 MP: median {statistics.median(uploads) * 1000:.0f} ms, "
          f"max {max(uploads) * 1000:.0f} ms (n={len(uploads)}; reader alone "
          f"{view.get('read_seconds', 0) * 1000:.0f} ms)")
    print(f"correction round trip: median {statistics.median(trips) * 1000:.1f} ms, "
          f"90th percentile {trips[int(len(trips) * 0.9) - 1] * 1000:.1f} ms "
          f"(n={len(trips)}, set and undo)")


if __name__ == "__main__":
    main()
