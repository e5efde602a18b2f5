"""Paths: what a model may name (safety), wildcards and .gitignore patterns."""
