"""The I/O shell: disk, atomic writes, loading sessions, persistence."""
