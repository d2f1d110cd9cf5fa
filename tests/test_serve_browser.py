"""``rink serve`` in a real browser (Debian's chromium via Selenium) at phone size, 390 x 844,
against the real server started as ``rink serve`` (a subprocess on a free port).

Under CI=true these always run (a missing browser fails); elsewhere they are skipped only when
chromium is not installed.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest

from tests.serve_support import (
    SAMPLES,
    browser_or_skip,
    local,
    make_driver,
    rink_score_json,
    running_server,
)

pytestmark = pytest.mark.slow
REVIEW_PHOTO = SAMPLES / "board_08.jpg"  # a sample photo with spaces to review
CROSSED_PHOTO = SAMPLES / "board_11.jpg"  # 1500 px wide; crossed by strokes, no board found


@pytest.fixture(scope="module")
def expected() -> dict[str, dict]:
    """``rink score --json`` of every sample photo, by file name."""
    return {Path(d["source"]).name: d for d in rink_score_json(str(SAMPLES))}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_server(tmp_path_factory.mktemp("night"), "--jobs", "2") as (url, _process):
        yield url


@pytest.fixture(scope="module")
def driver():
    browser_or_skip()
    chrome = make_driver()
    yield chrome
    chrome.quit()


def wait(driver, condition, timeout: float = 60):
    """Wait for ``condition``; an element replaced while it was read (the page re-renders
    after each answer) just means: look again."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.1,
                         ignored_exceptions=(StaleElementReferenceException,)).until(condition)


def _text(driver, css: str) -> str:
    from selenium.webdriver.common.by import By

    found = driver.find_elements(By.CSS_SELECTOR, css)
    return found[0].text if found else ""


def upload(driver, url: str, photo: Path, player: str = "") -> str:
    """Open the page, type the player, pick ``photo``; returns the total shown."""
    from selenium.webdriver.common.by import By

    driver.get(url)
    wait(driver, lambda d: d.find_elements(By.ID, "photo-input"))
    if player:
        driver.find_element(By.ID, "player").send_keys(player)
    driver.find_element(By.ID, "photo-input").send_keys(str(photo))
    wait(driver, lambda d: "#/board/" in d.current_url and _text(d, "#total") not in ("", "\N{EN DASH}"))
    return _text(driver, "#total")


def tap(driver, css: str) -> None:
    from selenium.webdriver.common.by import By

    element = driver.find_element(By.CSS_SELECTOR, css)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def test_phone_size(driver, server):
    driver.get(server)
    assert driver.execute_script("return [innerWidth, innerHeight]") == [390, 844]


def test_upload_shows_the_total_of_rink_score(driver, server, expected):
    total = upload(driver, server, REVIEW_PHOTO, "Anna")
    want = expected[REVIEW_PHOTO.name]["score"]["total"]
    assert total == str(want)
    assert _text(driver, "#sheet-total") == str(want)
    errors = expected[REVIEW_PHOTO.name]["score"]["errors"]
    from selenium.webdriver.common.by import By

    assert len(driver.find_elements(By.CSS_SELECTOR, "#errors li")) == errors
    assert len(driver.find_elements(By.CSS_SELECTOR, "#board-svg .error-ring")) == errors
    # review spaces come first, highlighted on the board too
    assert driver.find_elements(By.CSS_SELECTOR, "#review .review-item")
    review = expected[REVIEW_PHOTO.name]["review"]
    assert len(driver.find_elements(By.CSS_SELECTOR, "#board-svg .review-ring")) == len(review)
    # numbered in the list's order (the least sure first), on the board as in the card
    ranks = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#board-svg .review-rank")]
    assert ranks == [str(i + 1) for i in range(len(review))]
    first = driver.find_elements(By.CSS_SELECTOR, "#review .review-item .where")[0].text
    assert first.startswith("1. ")


def test_tap_a_review_space_pick_a_glyph_gives_rink_score_set_total(driver, server, expected):
    from selenium.webdriver.common.by import By

    before = upload(driver, server, REVIEW_PHOTO, "Ben")
    entry = expected[REVIEW_PHOTO.name]["review"][0]
    row, col = entry["row"], entry["col"]
    tap(driver, f'#board-svg rect.hit[data-row="{row}"][data-col="{col}"]')
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#picker #suggestions button"))
    # the reader's alternatives come first in the picker
    first = driver.find_elements(By.CSS_SELECTOR, "#picker .glyph-grid")[0]
    shown = [b.get_attribute("data-token") for b in first.find_elements(By.TAG_NAME, "button")]
    assert shown[:len(entry["alternatives"])] == [a[0] for a in entry["alternatives"]]
    token = entry["alternatives"][1][0]
    tap(driver, f'#picker #suggestions button[data-token="{token}"]')
    want = rink_score_json(str(REVIEW_PHOTO), "--set", f"{row},{col}={token}")[0]
    wait(driver, lambda d: _text(d, "#total") == str(want["score"]["total"]), 20)
    assert _text(driver, "#corrections")
    # undo brings the reading back
    tap(driver, "#undo")
    wait(driver, lambda d: _text(d, "#total") == before and not d.find_elements(
        By.CSS_SELECTOR, "#corrections"), 20)


def test_pick_from_the_full_picker_on_any_space(driver, server, expected):
    from selenium.webdriver.common.by import By

    upload(driver, server, SAMPLES / "board_02.jpg", "Cleo")
    tap(driver, '#board-svg rect.hit[data-row="3"][data-col="3"]')
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#picker"))
    tap(driver, '#picker .glyph-grid:not(#suggestions) button[data-token="HHHH"]')
    want = rink_score_json(str(SAMPLES / "board_02.jpg"), "--set", "3,3=HHHH")[0]
    wait(driver, lambda d: _text(d, "#total") == str(want["score"]["total"]), 20)


def test_three_uploads_give_the_right_leaderboard(tmp_path, driver, expected):
    from selenium.webdriver.common.by import By

    players = {"Dora": "board_04.jpg", "Eli": "board_06.jpg", "Finn": "board_10.jpg"}
    with running_server(tmp_path / "night", "--jobs", "1") as (url, _):
        for player, photo in players.items():
            upload(driver, url, SAMPLES / photo, player)
        driver.get(url + "#/night")
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#leaderboard tbody tr")) == 3)
        rows = [[td.text for td in tr.find_elements(By.TAG_NAME, "td")]
                for tr in driver.find_elements(By.CSS_SELECTOR, "#leaderboard tbody tr")]
        csv_text = urllib.request.urlopen(url + "api/night.csv", timeout=10).read().decode()
    ordered = sorted(players, key=lambda p: (-expected[players[p]]["score"]["total"],
                                             expected[players[p]]["score"]["errors"]))
    assert [r[1].splitlines()[0] for r in rows] == ordered
    assert [r[0] for r in rows] == ["1.", "2.", "3."]
    assert [int(r[2]) for r in rows] == [expected[players[p]]["score"]["total"] for p in ordered]
    assert [int(r[3]) for r in rows] == [expected[players[p]]["score"]["errors"] for p in ordered]
    assert all(p in csv_text for p in players)


def test_lan_mode_needs_the_token(tmp_path, driver):
    with running_server(tmp_path / "night", "--lan", "--jobs", "1") as (url, _):
        address = local(url)
        bare = address.split("?")[0]
        assert "?t=" in address
        for path in ("", "api/night", "static/app.js", "api/config"):
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(bare + path, timeout=10)
            assert refused.value.code == 403
        with pytest.raises(urllib.error.HTTPError) as wrong:
            urllib.request.urlopen(bare + "?t=not-the-token", timeout=10)
        assert wrong.value.code == 403
        driver.get(bare)
        assert "Forbidden" in driver.find_element("tag name", "body").text
        driver.get(address)  # with the token: the page works, its requests carry the cookie
        wait(driver, lambda d: d.find_elements("id", "photo-input"))
        driver.get(address + "#/night")
        wait(driver, lambda d: "Leaderboard" in d.find_element("tag name", "body").text)


def test_oversized_upload_is_refused_with_a_message(tmp_path, driver):
    big = tmp_path / "big.jpg"
    data = (SAMPLES / "board_01.jpg").read_bytes()
    big.write_bytes(data + b"\0" * (1024 * 1024 + 10 - len(data)) if len(data) < 1024 * 1024
                    else data)
    assert big.stat().st_size > 1024 * 1024
    with running_server(tmp_path / "night", "--max-upload-mb", "1") as (url, _):
        driver.get(url)
        wait(driver, lambda d: d.find_elements("id", "photo-input"))
        driver.find_element("id", "photo-input").send_keys(str(big))
        wait(driver, lambda d: "too big" in _text(d, "#upload-error"), 20)
        # the server refuses it too (a client that skips the page's own check)
        boundary = uuid.uuid4().hex
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; "
                f"filename=\"x.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n").encode() + \
            big.read_bytes() + f"\r\n--{boundary}--\r\n".encode()
        request = urllib.request.Request(url + "api/boards", data=body, headers={
            "content-type": f"multipart/form-data; boundary={boundary}"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=30)
        assert refused.value.code == 413
        assert "too big" in json.loads(refused.value.read())["error"]
        assert not list((tmp_path / "night" / "boards").iterdir())


def _post_photo(url: str, photo: Path, player: str) -> dict:
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"player\"\r\n\r\n{player}"
            f"\r\n--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; "
            f"filename=\"p.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n").encode() + \
        photo.read_bytes() + f"\r\n--{boundary}--\r\n".encode()
    request = urllib.request.Request(url + "api/boards", data=body, headers={
        "content-type": f"multipart/form-data; boundary={boundary}"})
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.loads(response.read())


def test_eight_concurrent_uploads_are_all_stored(tmp_path, expected):
    photos = sorted(SAMPLES.glob("*.jpg"))[:8]
    results: dict[str, dict] = {}
    errors: list[BaseException] = []
    latencies: list[float] = []
    folder = tmp_path / "night"
    with running_server(folder, "--jobs", "2") as (url, _):
        def one(index: int, photo: Path) -> None:
            try:
                results[f"P{index}"] = _post_photo(url, photo, f"P{index}")
            except BaseException as error:  # noqa: BLE001 - reported below
                errors.append(error)

        threads = [threading.Thread(target=one, args=(i, p)) for i, p in enumerate(photos)]
        for thread in threads:
            thread.start()
        while any(t.is_alive() for t in threads):  # the server keeps answering meanwhile
            start = time.perf_counter()
            urllib.request.urlopen(url + "api/night", timeout=10).read()
            latencies.append(time.perf_counter() - start)
            time.sleep(0.1)
        for thread in threads:
            thread.join()
        night = json.loads(urllib.request.urlopen(url + "api/night", timeout=10).read())
    assert not errors
    assert len(results) == 8 and len({r["id"] for r in results.values()}) == 8
    assert len(night["standings"]) == 8
    for index, photo in enumerate(photos):
        view = results[f"P{index}"]
        assert view["player"] == f"P{index}" and view["status"] == "read"
        assert view["explain"]["score"] == expected[photo.name]["score"]  # not mixed up
        stored = folder / "boards" / view["id"] / "photo.jpg"
        assert hashlib.sha256(stored.read_bytes()).digest() == \
            hashlib.sha256(photo.read_bytes()).digest()
    assert max(latencies) < 2.0, latencies


def test_a_board_not_read_then_tapping_the_four_corners_reads_it(tmp_path, driver):
    """A photo whose board is not read (crossed by many strokes: found, but too many of its
    spaces unsure): the page says so in words, and tapping the grid's corners on the photo
    reads it like ``rink score --corners``."""
    import cv2
    import numpy as np
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    image = cv2.imread(str(CROSSED_PHOTO))
    rng = np.random.default_rng(3)
    for _ in range(60):
        p, q = rng.integers(0, (1500, 2000)), rng.integers(0, (1500, 2000))
        cv2.line(image, (int(p[0]), int(p[1])), (int(q[0]), int(q[1])), (40, 40, 40), 12)
    photo = tmp_path / "crossed.jpg"
    cv2.imwrite(str(photo), image)
    corners = json.loads(CROSSED_PHOTO.with_suffix(".json").read_text())["corners"]
    folder = tmp_path / "night"
    with running_server(folder) as (url, _):
        driver.get(url)
        wait(driver, lambda d: d.find_elements(By.ID, "photo-input"))
        driver.find_element(By.ID, "photo-input").send_keys(str(photo))
        wait(driver, lambda d: d.find_elements(By.ID, "failure"))
        assert "The board is too hard to read" in _text(driver, "#failure h2")
        img = driver.find_element(By.CSS_SELECTOR, ".corner-wrap img")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", img)
        wait(driver, lambda d: d.execute_script("return arguments[0].complete", img))
        scale = img.size["width"] / 1500  # CSS pixels per photo pixel (the photo is 1500 wide)
        for x, y in corners:
            ActionChains(driver).move_to_element_with_offset(
                img, x * scale - img.size["width"] / 2, y * scale - img.size["height"] / 2
            ).click().perform()
        assert "All four corners" in _text(driver, "#corner-step")
        tap(driver, "#read-corners")
        wait(driver, lambda d: _text(d, "#total") not in ("", "\N{EN DASH}"), 60)
        total = _text(driver, "#total")
    state = json.loads((folder / "boards" / "b0001" / "board.json").read_text())
    tapped = [h for h in state["history"] if h["action"] == "read"][-1]["corners"]
    assert max(abs(a - b) for p, q in zip(tapped, corners) for a, b in zip(p, q)) < 6
    flat = ",".join(f"{v:.3f}" for point in tapped for v in point)
    want = rink_score_json(str(photo), "--corners", flat)[0]
    assert total == str(want["score"]["total"])


def test_a_photo_showing_a_river_plays_river_and_the_page_draws_the_water(tmp_path, driver):
    """A reading that shows a river (the stored reading of a photo, its grid put in as the
    retrained reader reads board_12: the real water policy decides what it shows): the board
    plays River, the sheet says why, the board view draws rivers (wavy, broken under a bridge)
    and lakes, and the night can choose instead."""
    from selenium.webdriver.common.by import By

    from tests.test_water_photos import RIVER_PHOTO, read_as_retrained, truth_grid

    folder = tmp_path / "night"
    with running_server(folder, "--jobs", "1") as (url, _):
        board = _post_photo(url, SAMPLES / "board_01.jpg", "Gus")["id"]
    stored = folder / "boards" / board / "reading-1.json"
    reading = json.loads(stored.read_text())

    class Read:  # what read_as_retrained fills in
        pass

    water = read_as_retrained(Read(), truth_grid(RIVER_PHOTO))
    reading["grid"] = water.grid
    reading["expansions_seen"] = [seen.to_json() for seen in water.expansions_seen]
    reading["review"] = []
    stored.write_text(json.dumps(reading))
    with running_server(folder, "--jobs", "1") as (url, _):
        driver.get(url + f"#/board/{board}")
        wait(driver, lambda d: _text(d, "#total") == "34")
        seen = _text(driver, "#expansions-seen")
        assert seen.startswith("River: seen in the photo (11 spaces drawn with a river")
        assert "what the photo shows: River" in _text(driver, "#rules")
        rivers = driver.find_elements(By.CSS_SELECTOR, "#board-svg path.river")
        assert len(rivers) == 17  # 11 river spaces: a leg per river side, a curve in one path
        # the bridge at row 2, column 6 (a highway over a river): the river stops short of
        # the centre, the highway is drawn after it
        cell = driver.execute_script(
            "const s = document.querySelector("
            "'#board-svg rect.hit[data-row=\"2\"][data-col=\"6\"]');"
            "return [s.x.baseVal.value, s.y.baseVal.value, s.width.baseVal.value];")
        x, y, c = cell
        starts = driver.execute_script(
            "return [...document.querySelectorAll('#board-svg path.river')]"
            ".map((p) => p.getAttribute('d').slice(1).split(' ')[0].split(',').map(Number));")
        centre = (x + c / 2, y + c / 2)
        near = [s for s in starts
                if abs(s[0] - centre[0]) < c / 2 and abs(s[1] - centre[1]) < c / 2]
        assert len(near) == 2 and all(abs(s[0] - centre[0]) > 0.2 * c for s in near)
        # a lake drawn by hand: four wedges fill the space
        urllib.request.urlopen(urllib.request.Request(
            url + f"api/boards/{board}/set", data=json.dumps(
                {"row": 2, "col": 0, "token": "LLLL"}).encode(),
            headers={"content-type": "application/json"}), timeout=20).read()
        driver.refresh()
        wait(driver, lambda d: len(
            d.find_elements(By.CSS_SELECTOR, "#board-svg polygon.lake")) == 4)
        # the night chooses the base game: the river is seen, not played
        driver.get(url + "#/night")
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, 'input[name="night-mode"]'))
        assert driver.find_element(By.CSS_SELECTOR, 'input[value="photo"]').is_selected()
        tap(driver, 'input[name="night-mode"][value="chosen"]')
        tap(driver, "#night-save")
        wait(driver, lambda d: json.loads(urllib.request.urlopen(
            url + "api/night", timeout=10).read())["expansions_chosen"])
        driver.get(url + f"#/board/{board}")
        wait(driver, lambda d: "not played" in _text(d, "#expansions-seen"))
        assert "Expansion: River" not in _text(driver, ".sheet")
