"""``python -m agentkit.fakes.cli record|show``: see :mod:`agentkit.fakes.cli._recording._command`."""

import sys

from agentkit.fakes.cli._recording._command import main

if __name__ == "__main__":
    sys.exit(main())
