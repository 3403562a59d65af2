"""The repository's own test sessions: help the kit's tests need and a user's never do.

pytest loads this file for every test below the repository root, and for
nothing in a project that installs the kit; so that help lives in the
repository's test support, loaded here, not in the shipped plugins.

The support modules' asserts are comparisons a test makes through them
(``tests.support.cli``'s whole-result checks), so they are rewritten like a
test module's: registered here, before any test module imports them.
"""

import pytest

pytest.register_assert_rewrite("tests.support")

pytest_plugins = ["tests.support.inner_session"]
