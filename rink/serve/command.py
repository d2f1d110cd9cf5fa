"""``rink serve``: the phone page for a night at the table.

    rink serve [FOLDER] [--lan] [--port N] [--jobs N] [--expansion NAME]...

FOLDER keeps the night (default: a new dated folder here); the same FOLDER again brings the
night back. Prints the address and a QR code to scan; with ``--lan`` the page is reachable
from phones on the same network and the address carries a random access code.
"""

from __future__ import annotations

import secrets
import socket
import sys
from pathlib import Path

import click

DEFAULT_PORT = 8000


def lan_address() -> str | None:
    """This machine's address on the local network, or None. From its own name, else from
    the route a UDP socket would take (``connect`` on UDP sends no packet)."""
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            address = info[4][0]
            if not address.startswith("127."):
                return address
    except OSError:
        pass
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # a documentation address: nothing is sent
            address = probe.getsockname()[0]
            return None if address.startswith(("127.", "0.")) else address
    except OSError:
        return None


def qr_text(url: str) -> str:
    """The QR code of ``url`` for a terminal (the segno library)."""
    import io

    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()


def open_socket(host: str, port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        raise click.ClickException(
            f"cannot listen on port {port} ({error.strerror}); try another with --port "
            "(or --port 0 for any free one)") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


@click.command()
@click.argument("folder", required=False, type=click.Path(file_okay=False, path_type=Path))
@click.option("--lan", is_flag=True,
              help="Listen on the local network (phones on the same Wi-Fi), with an access "
                   "code in the address; without it only this computer can open the page.")
@click.option("--port", type=click.IntRange(0, 65535), default=DEFAULT_PORT, show_default=True,
              help="Port to listen on (0: any free port).")
@click.option("--jobs", type=click.IntRange(1, 32), default=1, show_default=True,
              help="Photos read at the same time (worker processes, each with the models).")
@click.option("--expansion", "expansions", multiple=True, metavar="NAME",
              help="An expansion every board of the night plays (repeatable); the page can "
                   "change it, for the night or per board. Without it, each photo plays the "
                   "rivers and lakes it shows.")
@click.option("--max-upload-mb", type=click.IntRange(1, 500), default=40, show_default=True,
              help="Largest photo accepted, in MB.")
@click.option("--address", metavar="HOST",
              help="With --lan: the address to print and put in the QR code, when the one "
                   "rink finds is not the one phones reach.")
def serve(folder: Path | None, lan: bool, port: int, jobs: int, expansions: tuple[str, ...],
          max_upload_mb: int, address: str | None) -> None:
    """Serve the phone page: photograph a board, see it scored and explained, fix a space
    with a tap, follow the night's leaderboard."""
    import uvicorn

    from rink.serve.app import Settings, create_app
    from rink.serve.night import Night, NightError, check_expansions, new_folder

    try:
        names = check_expansions(list(expansions))
        folder = new_folder() if folder is None else folder
        night = Night(folder)
    except NightError as error:
        raise click.BadParameter(str(error), param_hint="--expansion") from None
    except OSError as error:
        raise click.ClickException(f"{folder}: cannot use this folder ({error})") from None
    if names:
        night.set_night_expansions(list(dict.fromkeys(night.expansions + names)))
    token = secrets.token_urlsafe(12) if lan else None
    host = "0.0.0.0" if lan else "127.0.0.1"
    sock = open_socket(host, port)
    port = sock.getsockname()[1]
    shown = (address or lan_address() or "127.0.0.1") if lan else "127.0.0.1"
    url = f"http://{shown}:{port}/" + (f"?t={token}" if token else "")
    settings = Settings(jobs=jobs, max_upload=max_upload_mb * 1024 * 1024, token=token,
                        hosts=None if lan else {"127.0.0.1", "localhost"})
    app = create_app(night, settings)
    count = len(night.records)
    for problem in night.problems:
        click.echo(f"Note: {problem}", err=True)
    click.echo(f"rink serve: the night is kept in {night.folder}"
               + (f" ({count} board{'s' if count != 1 else ''} already there)" if count else ""))
    if lan and shown == "127.0.0.1":
        click.echo("No network address found for this computer: give the one phones reach "
                   "with --address (Wi-Fi settings show it).")
    if lan:
        click.echo(qr_text(url))
        click.echo("Phones on the same Wi-Fi: scan the code, or open")
    else:
        click.echo("Open on this computer (use --lan for phones on the same Wi-Fi):")
    click.echo(f"Serving at {url}")
    click.echo("Stop with Ctrl+C.")
    sys.stdout.flush()
    config = uvicorn.Config(app, log_level="warning", access_log=False, server_header=False,
                            timeout_graceful_shutdown=3)
    uvicorn.Server(config).run(sockets=[sock])
