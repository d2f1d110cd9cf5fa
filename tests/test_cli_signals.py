"""F8: stopping ``rink score --jobs N`` (SIGTERM, or Ctrl-C) stops its worker processes too."""

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

SAMPLES = Path(__file__).parent.parent / "sample_photos"


def _rink() -> list[str]:
    rink = Path(sys.executable).parent / "rink"
    return [str(rink)] if rink.exists() else [sys.executable, "-m", "rink"]


def _stat(pid: int | str) -> list[str]:
    """The fields of /proc/<pid>/stat after the command name: state, parent id, ..."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return []


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (read from /proc, no extra packages)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(entry.name)
            if len(fields) > 1 and fields[1] == str(pid):
                found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    """Running (a zombie waiting to be reaped has ended)."""
    fields = _stat(pid)
    return bool(fields) and fields[0] != "Z"


def _as_from_a_terminal() -> None:
    """In the child before rink starts: SIGINT at its default, as a shell's foreground job has
    it. A job started in the background (``nohup ... &``) inherits SIGINT ignored, and a
    program rightly keeps ignoring a signal its parent ignored, so without this the test
    would depend on how the test run was launched."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture
def night(tmp_path: Path) -> Path:
    for i in range(60):  # far more photos than two workers score before the signal comes
        shutil.copy(SAMPLES / f"board_{i % 11 + 1:02d}.jpg", tmp_path / f"photo_{i:02d}.jpg")
    return tmp_path


@pytest.mark.parametrize(("how", "code"), [("SIGTERM", 143), ("SIGINT", 130),
                                           ("Ctrl-C", 130)])
def test_a_stopped_batch_takes_its_workers_with_it(night, how, code):
    process = subprocess.Popen([*_rink(), "score", str(night), "--jobs", "2"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, preexec_fn=_as_from_a_terminal)
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 60
        while len(_children(process.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)  # the workers are reading photos now
        workers = _children(process.pid)
        assert len(workers) >= 2 and all(_alive(pid) for pid in workers)
        if how == "Ctrl-C":  # a terminal sends SIGINT to the whole process group
            os.killpg(process.pid, signal.SIGINT)
        else:
            process.send_signal(getattr(signal, how))
        assert process.wait(timeout=30) == code
        deadline = time.monotonic() + 10
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [pid for pid in workers if _alive(pid)]
        stderr = process.stderr.read()
        assert "Traceback" not in stderr
        name = "SIGTERM" if how == "SIGTERM" else "SIGINT"
        assert stderr.splitlines()[-1].startswith(f"rink: stopped by {name}")
    finally:  # whatever happened, leave no process of this test behind
        for pid in {process.pid, *workers, *_children(process.pid)}:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        process.wait(timeout=10)
