"""``python -m turbometrics``: the same program as the ``turbometrics`` command."""

import sys

from turbometrics.cli import main

if __name__ == "__main__":
    sys.exit(main())
