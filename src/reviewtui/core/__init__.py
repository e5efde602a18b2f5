"""The pure core: protocol, matching, virtual tree and engine. No I/O, no Textual."""
