"""A thread worker's result, handed back to the widget that asked for it.

Workers that read or check something beside the screen (a diff, highlighting, a syntax
check, the statistics) end by showing what they found. ``App.call_from_thread`` would
run that on the app's loop and make the thread wait for it; quitting, Textual takes the
screens' widgets down before it stops the workers, so a result arriving then ran against
widgets that were gone and its ``NoMatches`` failed the app's exit with a traceback (or
the thread waited on a loop that had stopped). :func:`show_later` instead queues the
result on the widget's own queue without waiting: Textual drops it once that widget is
closing, and it runs only while the app is still running.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.message_pump import MessagePump


def show_later(node: MessagePump, callback: Callable[..., object], *args: Any,
               **kwargs: Any) -> None:
    """From a worker's thread: ``callback(*args, **kwargs)`` on ``node``'s queue, unless
    ``node`` closes or the app begins to quit first (then the result is dropped: nothing
    is left to show it)."""
    app = node.app

    def run() -> None:
        if app.is_running:
            callback(*args, **kwargs)

    node.call_later(run)
