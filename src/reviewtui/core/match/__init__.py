"""The matching cascade: where a SEARCH lands in a file, or why it does not."""

from reviewtui.core.match.cascade import match_edit

__all__ = ["match_edit"]
