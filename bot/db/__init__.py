"""The bot's database: models, sessions and migrations."""
