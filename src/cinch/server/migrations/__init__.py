"""Alembic's migrations of the PostgreSQL game library (``cinch serve --database-url``); run by
:func:`cinch.server.postgres.migrate` when a server opens the database."""
