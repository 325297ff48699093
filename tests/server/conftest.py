"""Let the server tests import ``serverkit`` (a real server in a thread, and its clients); PostgreSQL and
Redis for the cluster tests (``scripts/services.py``), started once per test session (per xdist worker)
when a test asks for them, and stopped at its end."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[2] / "scripts"))

from services import Postgres, Redis, Unavailable  # noqa: E402


@pytest.fixture(scope="session")
def postgres():
    """A PostgreSQL cluster of this session's own on loopback (skips, saying why, when it cannot start)."""
    try:
        server = Postgres(durable=False)
    except Unavailable as e:
        pytest.skip(f"PostgreSQL could not be started: {e}")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def redis_server():
    """A redis-server of this session's own on loopback (skips, saying why, when it cannot start)."""
    try:
        server = Redis()
    except Unavailable as e:
        pytest.skip(f"Redis could not be started: {e}")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def database_url(postgres):
    """A fresh database of its own for the test: its URL."""
    return postgres.database()
