"""Build greeting and farewell lines."""

DEFAULT_NAME = "world"


def greet(name: str = DEFAULT_NAME) -> str:
    """Return a friendly greeting."""
    return f"Hello, {name}!"


def farewell(name: str = DEFAULT_NAME) -> str:
    """Return a short goodbye."""
    return f"Goodbye, {name}."
