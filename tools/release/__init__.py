"""The release check: what must hold before any agentkit distribution is published.

Run it with ``uv run --frozen python -m tools.release.check``. It builds every
wheel and sdist, runs ``twine check --strict`` on them, checks LICENSE is in
each, checks the inter-package version constraints, and installs each wheel
alone into a fresh venv and imports it. :mod:`tools.release.rules` holds the
checks that read artefacts (pure functions over files, tested directly);
:mod:`tools.release.check` runs the tools and prints the summary.
"""
