"""The repository's own test sessions: help the kit's tests need and a user's never do.

pytest loads this file for every test below the repository root, and for
nothing in a project that installs the kit; so that help lives in the
repository's test support, loaded here, not in the shipped plugins.
"""

pytest_plugins = ["tests.support.inner_session"]
