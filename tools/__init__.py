"""Developer tools, not installed with the bot: the fake Discord the end-to-end tests and the
live benchmark drive the bot through, and the writers of the pictures under ``docs/``."""
