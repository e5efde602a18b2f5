"""The key bar, rebuilt only when what it shows changes."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey


class KeyFooter(Footer):
    """Textual's ``Footer``, without rebuilding an unchanged bar.

    ``Footer`` removes and mounts all its keys again each time the screen's bindings are
    refreshed, which reactive attributes with ``bindings=True`` do on nearly every key
    press: some seven rebuilds a workbench test, a third of the UI tests' CPU. Here the
    rebuild is skipped when everything ``Footer.compose`` reads (each shown binding's key,
    display, description, action, group, availability and tooltip, the palette key and
    the footer's own flags) is what the last rebuild was asked for.
    """

    _shown: Hashable | None = None
    # Under this many columns an ``adaptive`` bar is compact and leaves out the palette's
    # key (^p stays bound): at 80 columns that key cut "? Help  q Quit" off (QA pass 84c).
    NARROW = 100

    def __init__(self, *args: Any, adaptive: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.adaptive = adaptive

    def on_resize(self) -> None:
        # (bindings_changed adapts the bar to the width; it is rebuilt only when what it
        # shows changes: compact or not, and, compact, the keys it leaves out)
        if self.adaptive and self.is_attached:
            self.bindings_changed(self.screen)

    def _adapt(self) -> None:
        """Compact (and no palette key) below ``NARROW`` columns, or where the full bar
        would not fit (an extra key such as ``e Edit``: at 100 columns it cut ``q Quit``
        to ``q Qui``, QA pass s28)."""
        if not self.adaptive:
            return
        width = self.size.width
        narrow = 0 < width < self.NARROW or (width > 0 and self.is_attached
                                              and width < self._full_width(self.screen))
        self.compact = narrow
        self.show_command_palette = not narrow

    @staticmethod
    def _full_width(screen: Screen[Any]) -> int:
        """The columns the full bar takes: each shown key as `` key label `` and a gap,
        then the palette's key (``▏^p palette`` and its padding)."""
        return sum(text + 3 for text in _labels(screen).values()) + 12

    def compose(self) -> ComposeResult:
        """``Footer.compose``, each key bound to the bar's ``compact`` given that value,
        and the class it sets, before it is mounted.

        A ``FooterKey`` starts compact and is bound to the bar's ``compact``: mounted, its
        watcher sets ``-compact`` from its default, then again from the bar's value (for
        the workbench's bar, on, then off), each a style update of the key, every time
        the bar is built. Given the value and the class first, both find nothing to
        change. The command palette's key, not bound, keeps its own default, as before.
        """
        dropped = self._dropped()
        for widget in super().compose():  # (lazily: it nests keys in groups as it goes)
            if isinstance(widget, FooterKey) and widget.action in dropped:
                continue
            bound = getattr(widget, "_reactive_connect", None) or {}
            if isinstance(widget, FooterKey) and "compact" in bound:
                widget.set_reactive(FooterKey.compact, self.compact)
                widget.set_class(self.compact, "-compact", update=False)
            yield widget

    # What a compact bar too wide for the terminal leaves out, first to last, so that
    # Help and Quit stay (they were cut first: "? H" at 70 columns, QA pass s28): every
    # one is still bound, in the palette and in the help.
    SPARE = ("accept_turn", "toggle_findings", "checkpoint(1)", "undo")

    def _dropped(self) -> set[str]:
        width = self.size.width
        if not (self.adaptive and self.compact and width > 0 and self.is_attached):
            return set()
        items = {action: text + 2 for action, text in _labels(self.screen).items()}
        total = sum(items.values())
        dropped: set[str] = set()
        for action in self.SPARE:
            if total <= width:
                break
            if action in items:
                dropped.add(action)
                total -= items[action]
        return dropped

    def _what_it_shows(self, screen: Screen[Any]) -> Hashable:
        app = screen.app
        keys = tuple(
            (binding.key, app.get_key_display(binding), binding.description, binding.action,
             binding.show, binding.tooltip, enabled, tooltip,
             None if binding.group is None else (id(binding.group), binding.group.description,
                                                 binding.group.compact))
            for (_node, binding, enabled, tooltip) in screen.active_bindings.values())
        room = self.size.width if self.adaptive and self.compact else None
        return (keys, self.compact, self.show_command_palette, app.ENABLE_COMMAND_PALETTE,
                app.COMMAND_PALETTE_BINDING, room)

    def bindings_changed(self, screen: Screen[Any]) -> None:
        if self.is_attached and screen is self.screen:
            self._adapt()  # a key shown or hidden may make the full bar fit or not
        if screen.app.app_focus and self.is_attached and screen is self.screen:
            shown = self._what_it_shows(screen)
            # ``_bindings_ready`` is the stock Footer's own "composed once" flag; should a
            # Textual release drop it, every refresh rebuilds again, as the stock one does.
            if shown == self._shown and getattr(self, "_bindings_ready", False):
                return
            self._shown = shown
        super().bindings_changed(screen)


def _labels(screen: Screen[Any]) -> dict[str, int]:
    """Each shown action's key and label, their length together (a key an action, as the
    bar shows them): the full bar puts three columns around each, the compact one two."""
    app = screen.app
    out: dict[str, int] = {}
    for (_node, binding, _enabled, _tip) in screen.active_bindings.values():
        if binding.show and binding.action not in out:
            out[binding.action] = len(app.get_key_display(binding)) + len(binding.description)
    return out
