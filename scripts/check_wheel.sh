#!/usr/bin/env bash
# Build rink's wheel, install it (with its dependencies) into a fresh venv, and read a sample
# photo with it from a folder outside the checkout. Run by .ci/run; usage: scripts/check_wheel.sh
# (uses python3 from PATH; set PYTHON to use another interpreter).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
python="${PYTHON:-python3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "check_wheel: building the wheel"
# from a copy of the files git knows (committed or not, ignored ones left out), so the build
# neither depends on nor leaves behind build outputs in the checkout
source="$repo"
if git -C "$repo" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    source="$work/src"
    mkdir "$source"
    git -C "$repo" ls-files -z --cached --others --exclude-standard \
        | tar -C "$repo" --null --files-from=- --ignore-failed-read -cf - 2>/dev/null \
        | tar -xf - -C "$source"
fi
"$python" -m pip wheel -q --no-deps --wheel-dir "$work/dist" "$source"
wheels=("$work"/dist/*.whl)
if [ "${#wheels[@]}" -ne 1 ]; then
    echo "check_wheel: expected one wheel, got ${wheels[*]}" >&2
    exit 1
fi
wheel="${wheels[0]}"

echo "check_wheel: checking what $(basename "$wheel") holds"
"$python" - "$wheel" <<'PY'
import sys
import zipfile

names = set(zipfile.ZipFile(sys.argv[1]).namelist())
models = ["rink/models/" + n for n in ("cell_classifier.onnx", "cell_classifier.json",
                                       "base_classifier.onnx", "base_classifier.json",
                                       "faint_cell_classifier.onnx",
                                       "faint_cell_classifier.json",
                                       "faint_base_classifier.onnx",
                                       "faint_base_classifier.json",
                                       "board_orienter.onnx", "board_orienter.json",
                                       "round_numbers.onnx", "round_numbers.json")]
page = ["rink/serve/static/" + n for n in ("index.html", "app.js", "app.css", "icon.svg")]
missing = [n for n in models + page if n not in names]
unwanted = sorted(n for n in names if n.endswith(".pt"))
if missing or unwanted:
    sys.exit(f"check_wheel: models or page files missing from the wheel: {missing}; "
             f"training checkpoints in it: {unwanted}")
PY

echo "check_wheel: installing it into a fresh venv"
"$python" -m venv "$work/venv"
"$work/venv/bin/pip" install -q "$wheel"

echo "check_wheel: scoring sample_photos/board_01.jpg from outside the checkout"
mkdir "$work/elsewhere"
cd "$work/elsewhere"
"$work/venv/bin/rink" --version
"$work/venv/bin/python" - "$repo" "$work/venv/bin/rink" <<'PY'
import json
import subprocess
import sys
from pathlib import Path

repo, rink = Path(sys.argv[1]), sys.argv[2]
installed = subprocess.run([sys.executable, "-c", "import rink; print(rink.__file__)"],
                           capture_output=True, text=True, check=True).stdout.strip()
if Path(installed).resolve().is_relative_to(repo.resolve()):
    sys.exit(f"check_wheel: rink was imported from the checkout ({installed})")
photo = repo / "sample_photos" / "board_01.jpg"
done = subprocess.run([rink, "score", "--json", str(photo)], capture_output=True, text=True,
                      check=False)
if done.returncode != 0:
    sys.exit(f"check_wheel: rink score failed ({done.returncode}): {done.stderr.strip()}")
total = json.loads(done.stdout)["score"]["total"]
expected = json.loads(photo.with_suffix(".json").read_text())["expected_score"]["total"]
if total != expected:
    sys.exit(f"check_wheel: {photo.name} scored {total}, expected {expected}")
print(f"check_wheel: ok ({photo.name}: {total} points, rink from {installed})")

# the phone page, served by the installed rink (its page files come from the wheel)
import re
import threading
import time
import urllib.request

server = subprocess.Popen([rink, "serve", "night", "--port", "0"], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
found: list[str] = []
threading.Thread(target=lambda: [found.append(line) for line in server.stdout],
                 daemon=True).start()
try:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and server.poll() is None:
        address = [m.group(1) for line in found if (m := re.match(r"Serving at (\S+)", line))]
        if address:
            break
        time.sleep(0.1)
    else:
        sys.exit("check_wheel: rink serve did not start: " + "".join(found))
    with urllib.request.urlopen(address[0], timeout=10) as page:
        html = page.read().decode()
    with urllib.request.urlopen(address[0].rstrip("/") + "/static/app.js", timeout=10) as script:
        script.read()
    if "/static/app.js" not in html:
        sys.exit("check_wheel: rink serve's page does not load its script")
    print(f"check_wheel: ok (rink serve answered its page at {address[0]})")
finally:
    server.terminate()
    server.wait(timeout=15)
PY
