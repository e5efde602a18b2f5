"""A tiny greeting library used in the reviewtui workshop.

The package re-exports the two public helpers so callers can write
``from greeter import greet`` without knowing the module layout, which
the workshop changes on purpose in its second turn.
"""

from greeter.greeting import greet, farewell

__all__ = ["greet", "farewell"]
__version__ = "0.1.0"
