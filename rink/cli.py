"""The ``rink`` command line: a click group whose subcommands live in their own modules.

Subcommands are imported lazily so that ``rink score board.txt`` never pays for OpenCV or
onnxruntime, and so that importing this module has no side effects.
"""

from __future__ import annotations

import importlib

import click

# name -> "module:attribute" of a click.Command
_SUBCOMMANDS = {
    "score": "rink.score_command:score",
    "render": "vision.render.command:render",
    "serve": "rink.serve.command:serve",
}


class _LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(_SUBCOMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        target = _SUBCOMMANDS.get(name)
        if target is None:
            return None
        module_name, attribute = target.split(":")
        return getattr(importlib.import_module(module_name), attribute)


@click.group(cls=_LazyGroup)
@click.version_option(package_name="railroad-ink-scorer", prog_name="rink")
def main() -> None:
    """rink: score Railroad Ink boards from phone photos or typed-in grid files."""
