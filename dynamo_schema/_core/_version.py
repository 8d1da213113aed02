"""The package version (one place; ``dynamo_schema.__version__`` re-exports it)."""

__version__ = "0.1.0"
