"""``python -m tools.bench``: run every benchmark and print one table."""

from __future__ import annotations

from tools.bench.run import main

raise SystemExit(main())
