"""Every table size: the score by side as JSON, as the SQLite library keeps it (schema 3).

``{"NS": 8, "EW": 3}`` at four, or by player at a cut-throat table ``{"1": 4, "2": -7, "3": 5}``.
``score_ns`` and ``score_ew`` stay for the partnership game (0 at a cut-throat table); a row written
before this revision has NULL here, and its NS and EW columns say its score.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02
"""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("ALTER TABLE matches ADD COLUMN scores TEXT")


def downgrade() -> None:
    op.execute("ALTER TABLE matches DROP COLUMN scores")
