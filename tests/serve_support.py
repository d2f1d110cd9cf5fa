"""Helpers for the ``rink serve`` tests and scripts: the real server as a subprocess, a
headless Debian chromium at phone size driven by Selenium, and ``rink score`` for reference.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "sample_photos"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
PHONE = (390, 844)


def rink_command() -> list[str]:
    return [sys.executable, "-c", "from rink.cli import main; main()"]


def rink_score_json(*args: str) -> list[dict]:
    """``rink score --json ARGS`` (the real command), one dict per input."""
    done = subprocess.run(rink_command() + ["score", "--json", *args], capture_output=True,
                          text=True, cwd=REPO, timeout=300, check=False)
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


@contextlib.contextmanager
def running_server(folder: Path, *args: str, timeout: float = 60) -> Iterator[tuple[str, subprocess.Popen]]:
    """``rink serve FOLDER --port 0 ARGS`` as a subprocess; yields (address printed, process).

    The address is read from the 'Serving at URL' line. The process is stopped at the end.
    """
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    process = subprocess.Popen(rink_command() + ["serve", str(folder), "--port", "0", *args],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               cwd=REPO, env=env)
    lines: list[str] = []
    found: list[str] = []

    def pump() -> None:
        for line in process.stdout:  # type: ignore[union-attr]
            lines.append(line)
            if line.startswith("Serving at ") and not found:
                found.append(line.split("Serving at ", 1)[1].strip())

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    deadline = time.monotonic() + timeout
    while not found and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)
    try:
        if not found:
            raise RuntimeError("rink serve did not start:\n" + "".join(lines))
        yield found[0], process
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def local(url: str) -> str:
    """The same address on 127.0.0.1 (the --lan address names the machine's own LAN IP;
    the tests only ever talk to the loopback)."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    return urlunsplit(parts._replace(netloc=f"127.0.0.1:{parts.port}"))


def browser_or_skip() -> None:
    """Skip when chromium is missing, unless CI=true (then a missing browser is a failure)."""
    have = Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()
    if not have:
        if os.environ.get("CI"):
            pytest.fail("CI=true but chromium/chromedriver are missing (.ci/run installs them)")
        pytest.skip("chromium and chromium-driver are not installed "
                    "(apt-get install -y chromium chromium-driver)")


def make_driver(width: int = PHONE[0], height: int = PHONE[1], ratio: float = 1.0):
    """Headless Debian chromium emulating a phone of width x height CSS pixels."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-extensions", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--lang=en-GB"):
        options.add_argument(flag)
    options.add_experimental_option("mobileEmulation", {
        "deviceMetrics": {"width": width, "height": height, "pixelRatio": ratio, "touch": True}})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
