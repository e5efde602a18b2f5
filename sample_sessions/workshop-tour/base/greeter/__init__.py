"""A tiny greeting library used in the reviewtui workshop."""

from greeter.core import greet, farewell

__all__ = ["greet", "farewell"]
