"""The night's folder: every board uploaded, its readings, corrections and player, the CSV.

Layout of FOLDER (all names made by rink, never taken from a request)::

    night.json              the night's settings (expansions played by everyone, if chosen;
                            until they are, each photo plays the expansions its water shows)
    scores.csv              the leaderboard CSV (rink.leaderboard), rewritten on every change
    boards/b0001/photo.jpg  the photo exactly as uploaded (never changed or replaced)
    boards/b0001/board.json the board's state: player, expansions, key lines, corrections
                            (current stack and the full history, undos included)
    boards/b0001/reading-1.json, reading-1.txt
                            each reading of the photo (JSON and as a grid file); a re-read
                            with hand-tapped corners adds reading-2...
    boards/b0001/grid.txt   the board as scored now (corrections applied), a grid file
    boards/b0001/board.jpg, preview.jpg   pictures for the page (made again from the photo)

Every file is written whole or not at all (``rink.safe_write.write_atomic``); a new board's
folder is made with an exclusive ``mkdir`` and its photo with an exclusive create, so two
uploads at the same moment never share a name and nothing is overwritten. Opening the same
folder again brings the night back; a photo whose reading was cut short is read again.
"""

from __future__ import annotations

import json
import os
import re
import time
import unicodedata
from dataclasses import asdict, dataclass, field
from pathlib import Path

from rink.results import BoardResult, CorrectedSpace, SeenExpansion
from rink.safe_write import write_atomic
from scoring.board import SIZE, Board, GridError, format_grid, parse_grid
from scoring.space import TokenError, format_space, parse_token

BOARD_ID = re.compile(r"^b(\d{4,6})$")
NAME_MAX = 40
KEY_LINE = re.compile(r"^[a-z][a-z-]*( [a-z][a-z-]*)*: ?\S.*$")


class NightError(ValueError):
    """A request the night cannot carry out; ``str()`` says why in words."""


def clean_name(text: str) -> str:
    """A player name: printable characters only, spaces collapsed, at most NAME_MAX."""
    kept = "".join(ch for ch in str(text) if unicodedata.category(ch)[0] != "C")
    return " ".join(kept.split())[:NAME_MAX]


@dataclass
class BoardRecord:
    """One uploaded board and everything done to it."""

    id: str
    number: int
    created: str
    photo: str
    player: str = ""
    status: str = "reading"
    """'reading', 'read' or 'failed'."""
    readings: int = 0
    """How many readings were made (reading-N.json)."""
    failure: dict | None = None
    expansions: list[str] | None = None
    """This board's expansions; None: the night's (or, until the night chooses, those the
    photo shows)."""
    key_lines: list[str] = field(default_factory=list)
    corrections: list[dict] = field(default_factory=list)
    """Current corrections, oldest first: {row, col, token, was}."""
    history: list[dict] = field(default_factory=list)
    """Everything done, in order: set, undo, player, expansions, corners."""
    version: int = 0

    def label(self) -> str:
        return self.player or f"Board {self.number}"

    def state_json(self) -> dict:
        return asdict(self)


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S")


class Night:
    """The boards of one night, kept in ``folder``."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.boards_dir = self.folder / "boards"
        self.boards_dir.mkdir(parents=True, exist_ok=True)
        self.records: dict[str, BoardRecord] = {}
        self.readings: dict[str, dict] = {}
        self.expansions: list[str] = []
        self.expansions_chosen = False
        """Whether the night chose its expansions (every board plays them unless it says
        otherwise); until it does, each photo plays the expansions the photo shows."""
        self.created = now()
        self.version = 0
        self._cache: dict[str, tuple[tuple, object]] = {}
        self.problems: list[str] = []
        """Files of an earlier run that could not be read (said when the server starts)."""
        self._load()

    # -- files ----------------------------------------------------------------------
    def _load(self) -> None:
        settings = self.folder / "night.json"
        if settings.exists():
            data = json.loads(settings.read_text(encoding="utf-8"))
            self.expansions = [str(n) for n in data.get("expansions", [])]
            self.expansions_chosen = bool(data.get("expansions_chosen", self.expansions))
            self.created = data.get("created", self.created)
        for path in sorted(self.boards_dir.iterdir()):
            match = BOARD_ID.match(path.name)
            if not match or not path.is_dir():
                continue
            state = path / "board.json"
            photos = sorted(p.name for p in path.glob("photo.*"))
            if state.exists():
                try:
                    data = json.loads(state.read_text(encoding="utf-8"))
                    known = BoardRecord.__dataclass_fields__
                    record = BoardRecord(**{k: v for k, v in data.items() if k in known})
                except (OSError, ValueError, TypeError) as error:  # edited by hand: leave it be
                    self.problems.append(f"{state}: cannot be read ({error}); board left out")
                    continue
            elif photos:  # stopped between storing the photo and its first state file
                record = BoardRecord(path.name, int(match.group(1)), now(), photos[0])
            else:
                continue
            if record.readings:
                reading = path / f"reading-{record.readings}.json"
                try:
                    self.readings[record.id] = json.loads(reading.read_text(encoding="utf-8"))
                except (OSError, ValueError) as error:
                    self.problems.append(f"{reading}: cannot be read ({error}); read again")
                    record.status = "reading"
            self.records[record.id] = record

    def save_settings(self) -> None:
        write_atomic(self.folder / "night.json",
                     json.dumps({"created": self.created, "expansions": self.expansions,
                                 "expansions_chosen": self.expansions_chosen}, indent=1),
                     force=True)

    def folder_of(self, record: BoardRecord) -> Path:
        return self.boards_dir / record.id

    def photo_path(self, record: BoardRecord) -> Path:
        return self.folder_of(record) / record.photo

    def _save(self, record: BoardRecord, *, scores: bool = True) -> None:
        record.version += 1
        self.version += 1
        self._cache.pop(record.id, None)
        folder = self.folder_of(record)
        write_atomic(folder / "board.json", json.dumps(record.state_json(), indent=1),
                     force=True)
        board = self.board_of(record)
        if board is not None:
            header = f"# {record.label()} ({record.id}) as scored by rink\n"
            header += "".join(f"# corrected: row {c['row']}, column {c['col']} = {c['token']} "
                              f"(was {c['was']})\n" for c in record.corrections)
            write_atomic(folder / "grid.txt", header + format_grid(board), force=True)
        if scores:
            self.save_scores()

    def save_scores(self) -> None:
        from rink.leaderboard import leaderboard_csv

        write_atomic(self.folder / "scores.csv", leaderboard_csv(self.outcomes()), force=True)

    # -- boards ---------------------------------------------------------------------
    def get(self, board_id: str) -> BoardRecord:
        record = self.records.get(board_id) if BOARD_ID.match(board_id or "") else None
        if record is None:
            raise KeyError(board_id)
        return record

    def add_photo(self, data: bytes, suffix: str, player: str = "") -> BoardRecord:
        """Store an uploaded photo under a new board; the folder and photo are made with
        exclusive creates, so concurrent uploads can never collide."""
        number = max((r.number for r in self.records.values()), default=0) + 1
        while True:
            board_id = f"b{number:04d}"
            folder = self.boards_dir / board_id
            try:
                folder.mkdir()
                break
            except FileExistsError:
                number += 1
        photo = f"photo{suffix}"
        handle = os.open(folder / photo, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        record = BoardRecord(board_id, number, now(), photo, player=clean_name(player))
        record.history.append({"at": record.created, "action": "upload", "bytes": len(data)})
        self.records[board_id] = record
        self._save(record, scores=False)
        return record

    def store_reading(self, record: BoardRecord, reading: dict, corners: list | None) -> None:
        """Keep a reading (a new reading-N file) and what it means for the board."""
        record.readings += 1
        folder = self.folder_of(record)
        write_atomic(folder / f"reading-{record.readings}.json", json.dumps(reading), force=True)
        self.readings[record.id] = reading
        if reading.get("ok"):
            grid = "\n".join(" ".join(row) for row in reading["grid"]) + "\n"
            write_atomic(folder / f"reading-{record.readings}.txt",
                         f"# {record.photo} as read by rink\n{grid}", force=True)
            record.status, record.failure = "read", None
            if record.corrections:
                record.history.append({"at": now(), "action": "corrections-cleared",
                                       "corrections": record.corrections})
            record.corrections = []
        else:
            record.status = "failed"
            record.failure = {k: reading.get(k) for k in ("kind", "message", "edges", "hints")}
        record.history.append({"at": now(), "action": "read", "reading": record.readings,
                               "ok": bool(reading.get("ok")), "corners": corners})
        self._save(record)

    def set_space(self, record: BoardRecord, row: int, col: int, token: str) -> None:
        if not (0 <= row < SIZE and 0 <= col < SIZE):
            raise NightError("rows and columns are 0-6")
        try:
            token = format_space(parse_token(token.strip()))
        except TokenError as error:
            raise NightError(str(error)) from None
        grid = self.current_grid(record)
        if grid is None:
            raise NightError("this board has no reading to correct")
        was = grid[row][col]
        entry = {"row": row, "col": col, "token": token, "was": was}
        record.corrections.append(entry)
        record.history.append(dict(entry, at=now(), action="set"))
        self._save(record)

    def undo(self, record: BoardRecord) -> None:
        if not record.corrections:
            raise NightError("nothing to undo")
        entry = record.corrections.pop()
        record.history.append(dict(entry, at=now(), action="undo"))
        self._save(record)

    def set_player(self, record: BoardRecord, player: str) -> None:
        record.player = clean_name(player)
        record.history.append({"at": now(), "action": "player", "player": record.player})
        self._save(record)

    def set_rules(self, record: BoardRecord, expansions: list[str] | None,
                  key_lines: list[str]) -> None:
        """This board's expansions (None: the night's) and key lines; checked by scoring
        before anything is kept (NightError says what is wrong)."""
        lines = check_key_lines(key_lines)
        names = None if expansions is None else check_expansions(expansions)
        old = (record.expansions, record.key_lines)
        record.expansions, record.key_lines = names, lines
        self._cache.pop(record.id, None)
        evaluated = self.evaluate(record)
        if evaluated.error:
            record.expansions, record.key_lines = old
            self._cache.pop(record.id, None)
            raise NightError(evaluated.error)
        record.history.append({"at": now(), "action": "rules", "expansions": names,
                               "key_lines": lines})
        self._save(record)

    def set_night_expansions(self, expansions: list[str] | None) -> None:
        """The expansions every board plays (unless it says otherwise); None: none chosen,
        each photo plays the expansions it shows."""
        self.expansions = check_expansions(expansions or [])
        self.expansions_chosen = expansions is not None
        self.version += 1
        self._cache.clear()
        self.save_settings()
        self.save_scores()

    # -- boards as scored -------------------------------------------------------------
    def current_grid(self, record: BoardRecord) -> list[list[str]] | None:
        reading = self.readings.get(record.id)
        if not reading or not reading.get("ok") or record.status != "read":
            return None
        grid = [list(row) for row in reading["grid"]]
        for fix in record.corrections:
            grid[fix["row"]][fix["col"]] = fix["token"]
        return grid

    def board_of(self, record: BoardRecord) -> Board | None:
        grid = self.current_grid(record)
        if grid is None:
            return None
        try:
            return parse_grid("\n".join([" ".join(r) for r in grid] + record.key_lines),
                              record.label())
        except GridError:
            return None

    def expansions_of(self, record: BoardRecord) -> list[str]:
        """What the board plays: its own expansions, else the night's if the night chose,
        else those its photo shows."""
        source = self.expansions_source(record)
        if source == "photo":
            return list(dict.fromkeys(seen["name"] for seen in self.seen_in_photo(record)))
        return list(self.expansions if source == "night" else record.expansions or [])

    def expansions_source(self, record: BoardRecord) -> str:
        """Where the board's expansions come from: 'board', 'night' or 'photo'."""
        if record.expansions is not None:
            return "board"
        return "night" if self.expansions_chosen else "photo"

    def seen_in_photo(self, record: BoardRecord) -> list[dict]:
        """The expansions the board's photo shows ({name, spaces, reason}), as read."""
        reading = self.readings.get(record.id) or {}
        return list(reading.get("expansions_seen", [])) if reading.get("ok") else []

    def evaluate(self, record: BoardRecord) -> Evaluated:
        """The board scored now (cached until it or the night's expansions change)."""
        key = (record.version, tuple(self.expansions_of(record)), tuple(record.key_lines),
               record.player)
        cached = self._cache.get(record.id)
        if cached and cached[0] == key:
            return cached[1]  # type: ignore[return-value]
        result = _evaluate(self, record)
        self._cache[record.id] = (key, result)
        return result

    def outcomes(self) -> list[BoardResult]:
        """One ``rink.results.BoardResult`` per board, in upload order (for ranking and the
        CSV)."""
        outcomes = []
        for record in sorted(self.records.values(), key=lambda r: r.number):
            if record.status == "reading":
                continue
            evaluated = self.evaluate(record)
            result = BoardResult(record.label(), "photo")
            if evaluated.sheet is None:
                result.error = (f"{record.label()}: "
                                f"{evaluated.error or (record.failure or {}).get('message', '')}")
            else:
                result.board, result.sheet = evaluated.board, evaluated.sheet
                result.review = evaluated.review
                result.expansions_seen = [
                    SeenExpansion(seen["name"], tuple(tuple(rc) for rc in seen["spaces"]),
                                  seen["reason"], seen["name"] in evaluated.expansions)
                    for seen in self.seen_in_photo(record)]
                result.corrected = [CorrectedSpace(c["row"], c["col"], c["token"], c["was"])
                                    for c in net_corrections(record.corrections)]
            outcomes.append(result)
        return outcomes


@dataclass
class Evaluated:
    board: Board | None = None
    sheet: object | None = None
    review: list = field(default_factory=list)
    expansions: list[str] = field(default_factory=list)
    error: str = ""


def net_corrections(stack: list[dict]) -> list[dict]:
    """One entry per corrected space: what it was first, what it is now (``--set`` form)."""
    by_place: dict[tuple[int, int], dict] = {}
    for fix in stack:
        place = (fix["row"], fix["col"])
        first = by_place.get(place, fix)
        by_place[place] = {"row": fix["row"], "col": fix["col"], "token": fix["token"],
                           "was": first["was"]}
    return [fix for fix in by_place.values() if fix["token"] != fix["was"]]


def _evaluate(night: Night, record: BoardRecord) -> Evaluated:
    from rink.serve.explain import score_sheet
    from vision.review import ReviewEntry

    names = night.expansions_of(record)
    grid = night.current_grid(record)
    if grid is None:
        return Evaluated(expansions=names)
    try:
        board = parse_grid("\n".join([" ".join(r) for r in grid] + record.key_lines),
                           record.label())
        sheet = score_sheet(board, names, record.label())
    except GridError as error:
        return Evaluated(expansions=names, error=error.reason)
    fixed = {(c["row"], c["col"]) for c in record.corrections}
    review = [ReviewEntry(r["row"], r["col"], r["token"],
                          tuple((t, p) for t, p in r.get("alternatives", [])), r.get("reason", ""))
              for r in night.readings[record.id].get("review", [])
              if (r["row"], r["col"]) not in fixed]
    return Evaluated(board, sheet, review, names)


def check_expansions(names: list[str]) -> list[str]:
    from scoring.registry import UnknownExpansion, get_expansion

    found: list[str] = []
    for name in names:
        try:
            expansion = get_expansion(str(name))
        except UnknownExpansion as error:
            raise NightError(str(error)) from None
        if expansion.name not in found:
            found.append(expansion.name)
    return found


def check_key_lines(lines: list[str]) -> list[str]:
    """Key lines as typed ('key: value'); the scorer checks their values."""
    kept = []
    for raw in lines:
        line = " ".join(str(raw).split())
        if not line:
            continue
        key, sep, value = line.partition(":")
        line = f"{key.strip().lower()}: {value.strip()}"
        if not sep or not value.strip() or not KEY_LINE.match(line) or len(line) > 300:
            raise NightError(f"expected 'key: value', got {str(raw)[:60]!r}")
        if key.strip().lower() == "expansion":
            raise NightError("choose the expansions with the switches, not an 'expansion:' line")
        kept.append(line)
    return kept


def new_folder(base: Path | None = None) -> Path:
    """A new dated folder for tonight: rink-night-2026-11-30, -2, -3... (never an old one)."""
    base = Path.cwd() if base is None else base
    stem = f"rink-night-{time.strftime('%Y-%m-%d')}"
    for n in range(1, 1000):
        path = base / (stem if n == 1 else f"{stem}-{n}")
        try:
            path.mkdir(parents=True)
            return path
        except FileExistsError:
            continue
    raise NightError(f"too many night folders named {stem} in {base}")
