"""The matching cascade: where a SEARCH lands in a file, or why it does not."""
