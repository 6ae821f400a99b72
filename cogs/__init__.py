"""Slash-command cogs; every module here is loaded by the bot at start-up."""
