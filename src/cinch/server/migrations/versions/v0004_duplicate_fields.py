"""The duplicate fields (docs/duplicate.md): the daily deals and private events, their entrants and board results;
the same tables as the SQLite library's schema 6 (``cinch.library.FIELD_TABLES``).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-05
"""

from __future__ import annotations

from alembic import op

from cinch.library import FIELD_TABLES

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for statement in FIELD_TABLES:
        op.execute(statement)


def downgrade() -> None:
    # (the server's secret goes too: a database upgraded again makes a new one, so its old days' salts are lost)
    for table in ("duplicate_secrets", "duplicate_results", "duplicate_members", "duplicate_entries",
                  "duplicate_fields"):
        op.execute(f"DROP TABLE IF EXISTS {table}")
