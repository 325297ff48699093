"""Alembic's environment: the migrations run on the connection :func:`cinch.server.postgres.migrate` hands
over (inside its transaction, under its advisory lock), or on ``sqlalchemy.url`` when the ``alembic`` command
is run by hand with an ini file.  Imported by anything else (a doctest run, say), it does nothing: Alembic
gives ``context`` its ``config`` only while it runs the migrations."""

from __future__ import annotations

from typing import Any

from alembic import context
from sqlalchemy import create_engine
from sqlalchemy.pool import NullPool


def run(config: Any) -> None:
    if context.is_offline_mode():
        context.configure(url=config.get_main_option("sqlalchemy.url"), literal_binds=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=None)
        with context.begin_transaction():
            context.run_migrations()
        return
    url = config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("set sqlalchemy.url (postgresql+psycopg://...) to run the migrations by hand")
    with create_engine(url, poolclass=NullPool).begin() as conn:
        context.configure(connection=conn, target_metadata=None)
        with context.begin_transaction():
            context.run_migrations()


_config = getattr(context, "config", None)
if _config is not None:
    run(_config)
