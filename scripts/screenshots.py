"""Phone-size screenshots of ``rink serve`` for docs/ (the real server, Debian's chromium).

    .venv/bin/python scripts/screenshots.py [--out docs] [--ratio 1.5]

Starts ``rink serve`` on a temporary night, uploads three sample photos with player names
through the page (390 x 844, like a phone), and saves: the board just read with the spaces to
check (serve-board.png), the piece picker open on one of them (serve-picker.png) and the
night's leaderboard (serve-night.png). PNGs are reduced to a 256-colour palette to stay small.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.serve_support import SAMPLES, make_driver, running_server  # noqa: E402 (the repo root is put on sys.path just above)


def save(driver, path: Path) -> None:
    from io import BytesIO

    from PIL import Image

    time.sleep(0.6)
    image = Image.open(BytesIO(driver.get_screenshot_as_png())).convert("RGB")
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
        path, optimize=True)
    print(f"{path} ({path.stat().st_size / 1024:.0f} KB)")


def upload(driver, url: str, photo: Path, player: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(url)
    WebDriverWait(driver, 60).until(lambda d: d.find_elements(By.ID, "photo-input"))
    driver.find_element(By.ID, "player").send_keys(player)
    driver.find_element(By.ID, "photo-input").send_keys(str(photo))
    WebDriverWait(driver, 60).until(lambda d: d.find_elements(By.ID, "board-svg"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "docs")
    parser.add_argument("--ratio", type=float, default=1.5, help="device pixel ratio")
    args = parser.parse_args()
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    args.out.mkdir(parents=True, exist_ok=True)
    driver = make_driver(ratio=args.ratio)
    try:
        with tempfile.TemporaryDirectory() as tmp, running_server(Path(tmp) / "night") as (url, _):
            upload(driver, url, SAMPLES / "board_02.jpg", "Ben")
            upload(driver, url, SAMPLES / "board_06.jpg", "Cleo")
            upload(driver, url, SAMPLES / "board_08.jpg", "Anna")  # with spaces to review
            driver.execute_script("window.scrollTo(0, 0)")
            save(driver, args.out / "serve-board.png")
            first = driver.find_element(By.CSS_SELECTOR, "#review .review-item")
            driver.execute_script("arguments[0].querySelector('button').click()", first)
            WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.ID, "picker"))
            save(driver, args.out / "serve-picker.png")
            driver.get(url + "#/night")
            WebDriverWait(driver, 10).until(
                lambda d: len(d.find_elements(By.CSS_SELECTOR, "#leaderboard tbody tr")) == 3)
            save(driver, args.out / "serve-night.png")
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
