"""``typing.overload`` and ``typing.dataclass_transform`` for the type checker, without
importing ``typing`` at run time.

At run time both only hand back what they decorate (``overload``'s stubs are replaced by
the implementation that follows them), yet importing ``typing`` for them cost ~2.5 ms of
a one-turn ``reviewtui check`` (issue 13, "Headless start-up"), as much as the rest of
the standard library it needs. The modules that load on that path take them from here
and write ``TYPE_CHECKING = False`` (the type checker reads it as ``typing``'s constant)
for their annotation-only imports. ``typing.get_overloads`` does not list these
overloads, which nothing here asks for.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import dataclass_transform as dataclass_transform
    from typing import overload as overload
else:

    def overload(stub):
        return stub

    def dataclass_transform(**_):
        return overload  # a decorator that hands back what it decorates, as overload does
