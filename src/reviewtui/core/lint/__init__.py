"""The protocol's rules as findings."""
