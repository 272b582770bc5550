"""arena: tournaments, storage, ratings, the CLI and the bot SDK."""

__version__ = "0.1.0"
