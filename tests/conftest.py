"""Let the test modules import the table-building helpers in ``helpers.py``."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
