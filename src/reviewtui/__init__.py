"""reviewtui: review what an AI model did to a codebase."""

__version__ = "0.1.0"
