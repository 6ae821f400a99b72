"""``python -m bench``: how fast the engine and the map are on big battles, beside targets."""
