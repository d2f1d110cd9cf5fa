"""``python -m rink`` runs the ``rink`` command line."""

from rink.cli import main

main()
