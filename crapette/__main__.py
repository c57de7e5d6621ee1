"""``python -m crapette``: the ``crapette`` command (see :mod:`crapette.cli`)."""

from .cli import main

raise SystemExit(main())
