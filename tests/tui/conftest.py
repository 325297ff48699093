"""Let the table tests import ``tablekit`` (the harness that drives the Textual table)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
