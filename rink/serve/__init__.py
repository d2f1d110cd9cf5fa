"""``rink serve``: a phone page that reads, explains and fixes boards at the table (issue 15).

Modules: ``command`` (the click command: address, QR code, uvicorn), ``app`` (the Starlette
routes), ``night`` (the night's folder: boards, readings, corrections, CSV), ``reader`` (the
pool of photo-reading worker processes), ``explain`` (a board scored and laid out for the
page), ``glyphs`` (the picker's pieces), ``guard`` (access token, body size cap, headers);
``static/`` is the page itself (plain HTML, CSS and JavaScript, no build step).
"""
