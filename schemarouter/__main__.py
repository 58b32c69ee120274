"""``python -m schemarouter`` runs the command line."""

from schemarouter.cli import main

main()
