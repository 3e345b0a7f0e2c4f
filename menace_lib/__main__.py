"""``python -m menace_lib``: see :mod:`menace_lib.cli`."""

import sys

from .cli import main

sys.exit(main())
