"""Everything that words a Discord message: text, embeds, mentions, timestamps, views, buttons.

Services return plain data and typed errors; the modules here turn them into what a channel
or a user reads. Nothing outside this package (and the cogs that call it) builds Discord markup.
"""
