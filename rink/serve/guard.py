"""What every request passes first: the access token, the body size cap, safe headers.

An ASGI middleware (no framework magic, so it also covers 404s and static files):

- ``token`` (``--lan``): a request must carry it, as ``?t=TOKEN`` in the address (the QR code
  has it) or in the cookie the page then gets; otherwise 403. Compared in constant time.
- ``hosts`` (local mode): the Host header must name this machine (127.0.0.1, localhost), so
  a web page elsewhere cannot reach the server through DNS rebinding.
- ``max_body``: a body over the cap gets 413 with a message in words. It is read and thrown
  away first (up to ``DRAIN_LIMIT``) so that the phone's browser sees the answer rather than
  a broken connection.
- Every answer gets a Content-Security-Policy (own scripts, styles and pictures only), no
  referrer (the token is in the address), ``nosniff`` and no framing.
"""

from __future__ import annotations

import contextlib
import json
import secrets
from http.cookies import SimpleCookie
from urllib.parse import parse_qs

COOKIE = "rink_token"
DRAIN_LIMIT = 512 * 1024 * 1024
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; "
       "connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-resource-policy", b"same-origin"),
]


class BodyTooLarge(Exception):
    """The request body went over the cap while it was being read."""


def too_large_message(limit: int) -> str:
    return (f"This photo is too big to upload (the limit is {limit // (1024 * 1024)} MB). "
            "Take it at the phone's normal size rather than a 50-200 MP mode.")


def _header(scope, name: bytes) -> str:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin-1")
    return ""


async def _answer(send, status: int, text: str, json_body: bool = False,
                  extra: list | None = None) -> None:
    if json_body:
        body, kind = json.dumps({"error": text}).encode(), b"application/json"
    else:
        body, kind = text.encode(), b"text/plain; charset=utf-8"
    headers = [(b"content-type", kind), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status,
                "headers": headers + SECURITY_HEADERS + (extra or [])})
    await send({"type": "http.response.body", "body": body})


class Guard:
    def __init__(self, app, *, token: str | None, max_body: int,
                 hosts: set[str] | None = None) -> None:
        self.app = app
        self.token = token
        self.max_body = max_body
        self.hosts = hosts

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.hosts is not None:
            host = _header(scope, b"host").rsplit(":", 1)[0].strip("[]").lower()
            if host not in self.hosts:
                await _answer(send, 403, "Forbidden: open rink at the address it printed.")
                return
        set_cookie = False
        if self.token:
            given = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("t", [""])[0]
            cookie = SimpleCookie()
            with contextlib.suppress(Exception):  # a bad cookie is no token
                cookie.load(_header(scope, b"cookie"))
            held = cookie[COOKIE].value if COOKIE in cookie else ""
            by_address = bool(given) and secrets.compare_digest(given, self.token)
            if not (by_address or (held and secrets.compare_digest(held, self.token))):
                await _answer(send, 403, "Forbidden: this rink needs its access code. Scan "
                                         "the QR code rink printed, or open the full address "
                                         "it printed (with ?t=...).")
                return
            set_cookie = by_address and held != self.token

        declared = _header(scope, b"content-length")
        if declared.isdigit() and int(declared) > self.max_body:
            await self._drain(receive, int(declared))
            await _answer(send, 413, too_large_message(self.max_body), json_body=True)
            return
        seen = 0

        async def counted_receive():
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise BodyTooLarge()
            return message

        async def guarded_send(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", [])) + SECURITY_HEADERS
                if set_cookie:
                    headers.append((b"set-cookie", f"{COOKIE}={self.token}; Path=/; HttpOnly; "
                                                   "SameSite=Strict".encode()))
                message = dict(message, headers=headers)
            await send(message)

        await self.app(scope, counted_receive, guarded_send)

    @staticmethod
    async def _drain(receive, declared: int) -> None:
        if declared > DRAIN_LIMIT:
            return
        while True:
            message = await receive()
            if message["type"] != "http.request" or not message.get("more_body"):
                return
