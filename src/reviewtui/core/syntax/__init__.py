"""Syntax trees for review: error diagnostics, outlines and enclosing symbols (tree-sitter).

``languages`` maps file suffixes to grammar wheels, loaded on first use; ``parsing`` parses
incrementally with a per-content cache; ``problems`` turns ERROR/MISSING nodes into
messages; ``symbols`` reads definitions (outline, enclosing symbol of a line).
"""
