"""Let the server tests import ``serverkit`` (a real server in a thread, and its clients)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
