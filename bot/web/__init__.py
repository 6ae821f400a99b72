"""The war table: a web view of each battle, served by the bot's own process (aiohttp).

``server`` builds the application and its routes, ``pages`` draws what a reader may see (from
the services, in the reader's own view), ``live`` carries the news of a resolved step to open
pages. Every request is answered for a ``Reader`` the link service found *now*.
"""
