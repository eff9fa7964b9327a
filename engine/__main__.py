"""``python -m engine`` is the ``arbiter`` command."""

from engine.cli import main

raise SystemExit(main())
