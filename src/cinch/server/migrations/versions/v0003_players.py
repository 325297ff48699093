"""The players (docs/players.md): guests and accounts, their sessions, the limits on repeated attempts, and which
seat of which match each played; the same tables as the SQLite library's schema 4 (``cinch.library.PLAYER_TABLES``).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-05
"""

from __future__ import annotations

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A player's id is random and never reused: results attach to it, and a guest keeps it as an account.  Times
    # are seconds since 1970, as the server's clock gives them (the SQL that reads them is SQLite's too).
    op.execute("""
        CREATE TABLE players (
            id TEXT PRIMARY KEY,
            created DOUBLE PRECISION NOT NULL,
            updated DOUBLE PRECISION NOT NULL,
            kind TEXT NOT NULL,
            name TEXT,
            name_key TEXT UNIQUE,
            password TEXT,
            device TEXT UNIQUE
        )""")
    # A session is kept by its token's SHA-256, never the cookie itself.
    op.execute("""
        CREATE TABLE player_sessions (
            token TEXT PRIMARY KEY,
            player_id TEXT NOT NULL,
            created DOUBLE PRECISION NOT NULL,
            seen DOUBLE PRECISION NOT NULL,
            expires DOUBLE PRECISION NOT NULL
        )""")
    op.execute("CREATE INDEX player_sessions_by_player ON player_sessions (player_id)")
    # Attempts counted per name and per address, by digest: shared by every process of the cluster.
    op.execute("""
        CREATE TABLE player_limits (
            key TEXT PRIMARY KEY,
            since DOUBLE PRECISION NOT NULL,
            count INTEGER NOT NULL
        )""")
    op.execute("""
        CREATE TABLE player_games (
            player_id TEXT NOT NULL,
            match_id BIGINT NOT NULL,
            seat TEXT NOT NULL,
            PRIMARY KEY (player_id, match_id, seat)
        )""")
    op.execute("CREATE INDEX player_games_by_match ON player_games (match_id)")


def downgrade() -> None:
    op.execute("DROP TABLE player_games")
    op.execute("DROP TABLE player_limits")
    op.execute("DROP TABLE player_sessions")
    op.execute("DROP TABLE players")
