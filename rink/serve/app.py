"""The Starlette app behind ``rink serve``: the page, its files, and a small JSON API.

Routes (all under the ``guard.Guard`` middleware):

    GET  /                          the page (static/index.html)
    GET  /static/app.js|app.css|icon.svg
    GET  /api/config                upload cap, known expansions
    GET  /api/night                 boards, leaderboard, the night's expansions, version
    GET  /api/night.csv             the night's CSV (rink.leaderboard)
    POST /api/night/rules           {"expansions": [...]} for every board of the night; null:
                                    each photo plays the expansions it shows (the default)
    GET  /api/glyphs?expansions=..  the picker's pieces
    POST /api/boards                multipart: photo, player -> the board read and scored
    GET  /api/boards/ID             the board (scored, explained)
    GET  /api/boards/ID/board.jpg   the straightened board; preview.jpg: the photo, small
    POST /api/boards/ID/set         {"row", "col", "token"}; /undo; /player {"player"}
    POST /api/boards/ID/rules       {"expansions": [...] or null, "key_lines": [...]}
    POST /api/boards/ID/corners     {"corners": [[x, y] x 4]} in photo pixels: read again

Photos are read in the worker pool (``reader.ReaderPool``); the event loop only stores files,
scores (milliseconds) and answers, so the page stays responsive while photos are read.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from rink.serve.guard import BodyTooLarge, Guard, too_large_message
from rink.serve.night import BoardRecord, Night, NightError
from rink.stdin_input import AVIF_BRANDS

STATIC_FILES = {
    "index.html": "text/html; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "app.css": "text/css; charset=utf-8",
    "icon.svg": "image/svg+xml",
}
"""The only files the page is made of; nothing else is served from the package."""

PHOTO_TYPES = [
    (b"\xff\xd8\xff", 0, ".jpg"),
    (b"\x89PNG\r\n\x1a\n", 0, ".png"),
    (b"GIF8", 0, None),
    (b"BM", 0, ".bmp"),
    (b"II*\x00", 0, ".tif"),
    (b"MM\x00*", 0, ".tif"),
]
HEIF_BRANDS = {b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1"}


def photo_suffix(head: bytes) -> str | None:
    """The stored file's suffix from the first bytes of an upload; None when it is no photo
    rink reads (the name and type the phone sent are never trusted)."""
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return ".webp"
    if head[4:8] == b"ftyp" and head[8:12] in AVIF_BRANDS:
        return ".avif"
    if head[4:8] == b"ftyp" and head[8:12] in HEIF_BRANDS:
        return ".heic"
    for magic, offset, suffix in PHOTO_TYPES:
        if head[offset:offset + len(magic)] == magic:
            return suffix
    return None


NOT_A_PHOTO = ("This file is not a photo rink can read. Send a JPEG, PNG, WebP, HEIC, AVIF "
               "or TIFF picture of the board (the phone's camera gives one).")


@dataclass
class Settings:
    jobs: int = 1
    max_upload: int = 40 * 1024 * 1024
    token: str | None = None
    hosts: set[str] | None = None


def _static(name: str) -> bytes:
    return resources.files("rink.serve").joinpath("static", name).read_bytes()


class Server:
    """The night, the reader pool and the readings in progress."""

    def __init__(self, night: Night, settings: Settings, pool=None) -> None:
        self.night = night
        self.settings = settings
        self.pool = pool
        self.tasks: dict[str, asyncio.Task] = {}
        self.files = {name: _static(name) for name in STATIC_FILES}

    # -- readings --------------------------------------------------------------------
    def start_reading(self, record: BoardRecord, corners: list | None = None) -> asyncio.Task:
        running = self.tasks.get(record.id)
        if running is not None and not running.done():
            return running
        task = asyncio.get_running_loop().create_task(self._read(record, corners))
        self.tasks[record.id] = task
        return task

    async def _read(self, record: BoardRecord, corners: list | None) -> None:
        night = self.night
        record.status = "reading"
        try:
            reading = await self.pool.read(night.photo_path(record), night.folder_of(record),
                                           corners)
        except Exception as error:  # noqa: BLE001 - a worker that died: say so, keep the photo
            reading = {"ok": False, "kind": "unreadable", "edges": [], "hints": [],
                       "message": f"the photo reader stopped ({type(error).__name__}); "
                                  "try again"}
        night.store_reading(record, reading, corners)

    # -- views -----------------------------------------------------------------------
    def board_view(self, record: BoardRecord) -> dict:
        from rink.serve.explain import explain
        from rink.serve.words import failure_words

        night = self.night
        reading = night.readings.get(record.id) or {}
        view: dict = {
            "id": record.id, "number": record.number, "player": record.player,
            "label": record.label(), "status": record.status, "created": record.created,
            "version": record.version,
            "expansions": self.expansions_view(record),
            "key_lines": record.key_lines,
            "corrections": record.corrections,
            "can_undo": bool(record.corrections),
        }
        preview = reading.get("preview")
        if preview:
            view["preview"] = dict(preview, url=f"/api/boards/{record.id}/preview.jpg?v="
                                                 f"{record.readings}")
            view["photo_size"] = reading.get("photo_size")
        if record.status == "failed":
            view["failure"] = failure_words(record.failure or {}, reading)
        if record.status != "read":
            return view
        evaluated = night.evaluate(record)
        view.update(
            image=dict(reading["board_image"],
                       url=f"/api/boards/{record.id}/board.jpg?v={record.readings}"),
            alternatives=reading["alternatives"],
            review=[e.to_json() for e in evaluated.review],
            warnings=reading.get("warnings", []),
            hand_corners=reading.get("hand_corners", False),
            corners=reading.get("corners"),
            read_seconds=reading.get("seconds"),
        )
        if evaluated.sheet is None:
            view["score_error"] = evaluated.error
            view["grid"] = night.current_grid(record)
        else:
            view["explain"] = explain(evaluated.board, evaluated.sheet, evaluated.expansions)
        return view

    def expansions_view(self, record: BoardRecord) -> dict:
        """The board's expansions: its own (None: the night's), the night's and whether the
        night chose them, what the photo shows and why, what it plays and where that came
        from ('board', 'night' or 'photo')."""
        night = self.night
        effective = night.expansions_of(record)
        return {"own": record.expansions, "night": night.expansions,
                "night_chosen": night.expansions_chosen, "effective": effective,
                "from": night.expansions_source(record),
                "seen": [dict(seen, scored=seen["name"] in effective)
                         for seen in night.seen_in_photo(record)]}

    def night_view(self) -> dict:
        from rink.leaderboard import rank

        night = self.night
        outcomes = night.outcomes()
        by_label: dict[int, BoardRecord] = {}
        done = [r for r in sorted(night.records.values(), key=lambda r: r.number)
                if r.status != "reading"]
        for outcome, record in zip(outcomes, done):
            by_label[id(outcome)] = record
        standings = [{"rank": s.rank, "id": by_label[id(s.result)].id,
                      "label": s.result.source, "total": s.result.total,
                      "errors": s.result.error_count,
                      "review": len(s.result.review),
                      "corrected": len(s.result.corrected)}
                     for s in rank(outcomes)]
        boards = [{"id": r.id, "number": r.number, "label": r.label(), "status": r.status,
                   "created": r.created} for r in sorted(night.records.values(),
                                                          key=lambda r: r.number)]
        return {"version": night.version, "expansions": night.expansions,
                "expansions_chosen": night.expansions_chosen,
                "folder": night.folder.name, "standings": standings, "boards": boards}


def _error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _json_body(request: Request) -> dict:
    try:
        data = json.loads(await request.body() or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise NightError("the request is not JSON") from None
    if not isinstance(data, dict):
        raise NightError("the request is not a JSON object")
    return data


def create_app(night: Night, settings: Settings, pool=None) -> Guard:
    """The ASGI app: Starlette routes wrapped in the guard. ``pool``: a ReaderPool (made and
    started with the app when None)."""
    server = Server(night, settings, pool)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        own_pool = server.pool is None
        if own_pool:
            from rink.serve.reader import ReaderPool

            server.pool = ReaderPool(settings.jobs)
            asyncio.get_running_loop().run_in_executor(None, server.pool.warm)
        for record in list(night.records.values()):
            if record.status == "reading":
                server.start_reading(record)
        try:
            yield
        finally:
            for task in server.tasks.values():
                task.cancel()
            if own_pool:
                server.pool.close()

    def record_of(request: Request) -> BoardRecord:
        return night.get(request.path_params["board"])

    async def page(request: Request) -> Response:
        return Response(server.files["index.html"], media_type=STATIC_FILES["index.html"],
                        headers={"cache-control": "no-cache"})

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC_FILES or name == "index.html":
            return Response("Not found", status_code=404, media_type="text/plain")
        return Response(server.files[name], media_type=STATIC_FILES[name],
                        headers={"cache-control": "no-cache"})

    async def config(request: Request) -> Response:
        from scoring.registry import REGISTRY

        return JSONResponse({
            "max_upload": settings.max_upload,
            "too_large": too_large_message(settings.max_upload),
            "expansions": [{"name": name, "title": cls.title or name}
                           for name, cls in REGISTRY.items()],
        })

    async def night_get(request: Request) -> Response:
        return JSONResponse(server.night_view())

    async def night_csv(request: Request) -> Response:
        from rink.leaderboard import leaderboard_csv

        name = re.sub(r"[^A-Za-z0-9._-]", "_", night.folder.name) or "rink-night"
        return Response(leaderboard_csv(night.outcomes()), media_type="text/csv; charset=utf-8",
                        headers={"content-disposition": f'attachment; filename="{name}.csv"'})

    async def night_rules(request: Request) -> Response:
        data = await _json_body(request)
        names = data.get("expansions", "")
        if names is not None and not isinstance(names, list):
            raise NightError("'expansions' must be a list of names, or null for what each "
                             "photo shows")
        night.set_night_expansions(None if names is None else [str(n) for n in names])
        return JSONResponse(server.night_view())

    async def glyphs(request: Request) -> Response:
        from rink.serve.glyphs import catalogue, expansion_info
        from rink.serve.night import check_expansions

        names = check_expansions([n for n in request.query_params.get("expansions", "")
                                  .split(",") if n])
        return JSONResponse({"groups": catalogue(_classes(), names),
                             "expansions": expansion_info(names)})

    async def upload(request: Request) -> Response:
        try:
            form = await request.form(max_files=1, max_fields=8)
        except BodyTooLarge:
            return _error(too_large_message(settings.max_upload), 413)
        except Exception:  # noqa: BLE001 - a body that is not a form
            return _error("Send the photo as a form upload (field 'photo').", 400)
        photo = form.get("photo")
        if photo is None or isinstance(photo, str):
            return _error("No photo in the upload (field 'photo').", 400)
        data = await photo.read()
        await form.close()
        if not data:
            return _error("The photo is empty (0 bytes). Take it again.", 400)
        suffix = photo_suffix(data[:32])
        if suffix is None:
            return _error(NOT_A_PHOTO, 415)
        player = form.get("player")
        record = night.add_photo(data, suffix, player if isinstance(player, str) else "")
        task = server.start_reading(record)
        await asyncio.shield(task)
        return JSONResponse(server.board_view(record))

    async def board_get(request: Request) -> Response:
        return JSONResponse(server.board_view(record_of(request)))

    async def board_file(request: Request) -> Response:
        record = record_of(request)
        name = request.path_params["file"]
        if name not in ("board.jpg", "preview.jpg"):
            return Response("Not found", status_code=404, media_type="text/plain")
        path = night.folder_of(record) / name
        if not path.is_file():
            return Response("Not found", status_code=404, media_type="text/plain")
        return FileResponse(path, media_type="image/jpeg",
                            headers={"cache-control": "private, max-age=3600"})

    async def board_set(request: Request) -> Response:
        record = record_of(request)
        data = await _json_body(request)
        row, col, token = data.get("row"), data.get("col"), data.get("token")
        if not isinstance(row, int) or not isinstance(col, int) or not isinstance(token, str):
            raise NightError("expected {'row': 0-6, 'col': 0-6, 'token': '...'}")
        night.set_space(record, row, col, token)
        return JSONResponse(server.board_view(record))

    async def board_undo(request: Request) -> Response:
        record = record_of(request)
        night.undo(record)
        return JSONResponse(server.board_view(record))

    async def board_player(request: Request) -> Response:
        record = record_of(request)
        data = await _json_body(request)
        night.set_player(record, str(data.get("player", "")))
        return JSONResponse(server.board_view(record))

    async def board_rules(request: Request) -> Response:
        record = record_of(request)
        data = await _json_body(request)
        names, lines = data.get("expansions"), data.get("key_lines", [])
        if names is not None and not isinstance(names, list):
            raise NightError("'expansions' must be a list of names, or null for the night's")
        if not isinstance(lines, list):
            raise NightError("'key_lines' must be a list of 'key: value' lines")
        night.set_rules(record, None if names is None else [str(n) for n in names],
                        [str(line) for line in lines])
        return JSONResponse(server.board_view(record))

    async def board_corners(request: Request) -> Response:
        record = record_of(request)
        data = await _json_body(request)
        corners = data.get("corners")
        try:
            points = [[float(x), float(y)] for x, y in corners]  # type: ignore[union-attr]
        except (TypeError, ValueError):
            points = []
        if len(points) != 4:
            raise NightError("expected 'corners': four [x, y] points (top-left, top-right, "
                             "bottom-right, bottom-left)")
        task = server.start_reading(record, points)
        await asyncio.shield(task)
        return JSONResponse(server.board_view(record))

    async def not_found(request: Request, exc) -> Response:
        return _error("Not found.", 404) if request.url.path.startswith("/api/") else Response(
            "Not found", status_code=404, media_type="text/plain")

    async def bad_request(request: Request, exc: NightError) -> Response:
        return _error(str(exc), 400)

    async def missing_board(request: Request, exc: KeyError) -> Response:
        return _error("No such board on this night.", 404)

    routes = [
        Route("/", page),
        Route("/static/{name}", static),
        Route("/api/config", config),
        Route("/api/night", night_get),
        Route("/api/night.csv", night_csv),
        Route("/api/night/rules", night_rules, methods=["POST"]),
        Route("/api/glyphs", glyphs),
        Route("/api/boards", upload, methods=["POST"]),
        Route("/api/boards/{board}", board_get),
        Route("/api/boards/{board}/{file:str}", board_file, methods=["GET"]),
        Route("/api/boards/{board}/set", board_set, methods=["POST"]),
        Route("/api/boards/{board}/undo", board_undo, methods=["POST"]),
        Route("/api/boards/{board}/player", board_player, methods=["POST"]),
        Route("/api/boards/{board}/rules", board_rules, methods=["POST"]),
        Route("/api/boards/{board}/corners", board_corners, methods=["POST"]),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={
        404: not_found, NightError: bad_request, KeyError: missing_board})
    app.state.server = server
    return Guard(app, token=settings.token, max_body=settings.max_upload, hosts=settings.hosts)


def _classes() -> list[str]:
    """The tokens the photo reader can give (from the shipped model's metadata)."""
    from vision.model_files import models_dir

    meta = json.loads((Path(models_dir()) / "cell_classifier.json").read_text(encoding="utf-8"))
    return list(meta["classes"])
