"""Alembic migrations of the bot's database."""
