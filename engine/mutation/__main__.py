"""``python -m engine.mutation``: the mutation run (:func:`engine.mutation.driver.main`)."""

from engine.mutation.driver import main

raise SystemExit(main())
