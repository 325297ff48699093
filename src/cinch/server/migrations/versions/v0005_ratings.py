"""The players' ratings (docs/players.md): each rated game and each rating after it; the same tables as the SQLite
library's schema 6 (``cinch.library.RATING_TABLES``).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-05
"""

from __future__ import annotations

from alembic import op

from cinch.library import RATING_TABLES

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for statement in RATING_TABLES:
        op.execute(statement)


def downgrade() -> None:
    # The ratings are worked out from the games rated: taking them out loses the history, never a game.
    op.execute("DROP TABLE IF EXISTS rating_history")
    op.execute("DROP TABLE IF EXISTS ratings")
    op.execute("DROP TABLE IF EXISTS rated_games")
