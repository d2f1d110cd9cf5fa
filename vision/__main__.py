"""``python -m vision`` runs the ``rink`` command line."""

from vision.cli import main

main()
