"""Git as a destination, pure: which commits the accepted turns make, and their messages.

The shell (:mod:`reviewtui.shell.git`) turns these plans into commit objects with git's
plumbing; :mod:`.series` writes the same plan as a ``git format-patch`` series.
"""
