"""The Discord bot: commands, services and storage around ``rules_core``."""
