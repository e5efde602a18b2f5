"""Screens whose keys wait for their widgets.

``push_screen`` makes a screen the one keys go to at once, while its widgets are still
composed and mounted on its own queue. A key read together with the one that opened it
(``t t``, ``t .``, ``s enter``: a fast typist, a paste, keys a terminal sends at once) ran
the new screen's binding against widgets that were not there yet, or dismissed it under
its own ``on_mount`` (Textual removes the children first), and the ``NoMatches`` ended
the app with a traceback (QA). The review screen hands such a key on to the new screen
once it is mounted (``ReviewCursor.on_key``); a key the app still looks up for a screen
not mounted yet (its priority bindings are looked up as the key is read) is ignored here.

A :class:`ReadyScreen` (:class:`ReadyModal`) keeps its own keys off until it is mounted:
``check_action`` says no (the footer shows them dimmed for that moment), then the footer
is refreshed. Its ``on_mount`` returns at once when it was :attr:`~ReadyScreen.dismissed`
before it; handlers and callbacks that may run once it is dismissed (a child's message,
a worker's result) check :attr:`~ReadyScreen.showing` first.
"""

from __future__ import annotations

import asyncio
from typing import TypeVar

from textual.message_pump import MessagePump
from textual.screen import ModalScreen, Screen

R = TypeVar("R")


class ReadyScreen(Screen[R]):
    """A screen whose bindings are live only once its widgets are mounted."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if not self.is_mounted:  # set once on_mount has returned
            return False
        return super().check_action(action, parameters)

    def on_mount(self) -> None:
        # Runs after the subclass's on_mount; the refresh after is_mounted is set.
        self.call_later(self.refresh_bindings)

    @property
    def dismissed(self) -> bool:
        """Off the screen stack: its widgets are being (or were) removed."""
        return self not in self.app.screen_stack

    @property
    def showing(self) -> bool:
        """Mounted and not dismissed: its widgets are there to be queried."""
        return self.is_mounted and not self.dismissed


class ReadyModal(ReadyScreen[R], ModalScreen[R]):
    """A modal screen whose bindings are live only once its widgets are mounted."""



async def settled(*pumps: MessagePump) -> None:
    """Until each of ``pumps``, in turn, has handled what was posted to it before.

    An Enter bound on a dialog with a text field (a priority binding: taken as the key is
    read, so the keys read after it reach the screen below once the dialog is gone) waits
    so for the keys typed before it, which the field handles on its own queue, and for
    what that field then told its screen (a filter's Changed): the answer is what was
    typed. Pass the field and each widget between it and the screen: a message bubbles
    through each one's queue in turn (the filter's Changed was still in its container's
    when ``T 4 Enter`` read at once chose the checkpoint, s55). (Through the field's
    Submitted message instead, the keys read with Enter were typed into the closing dialog
    first: ``T down enter n`` chose checkpoint 1 and typed ``n`` into the filter, s53.)"""
    for pump in pumps:
        done = asyncio.Event()
        pump.call_later(done.set)
        await done.wait()
