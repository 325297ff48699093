"""One module per schema version, oldest first (``alembic revision`` writes a new one from script.py.mako)."""
