"""``python -m gamelib.pangu.solver``: the solver's command line (see ``cli``)."""

import sys

from gamelib.pangu.solver.cli import main

sys.exit(main())
