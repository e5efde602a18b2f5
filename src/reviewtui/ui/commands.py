"""The review screen's actions in Textual's command palette (ctrl+p, or ``:``).

Every binding of the screen the palette was opened from that its ``check_action`` lets
run there becomes a command named by its description, with its tooltip and its current
keys (the user's keymap included) as help; choosing one runs the binding's action on that screen.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import Any

from textual.actions import parse
from textual.app import App
from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.screen import Screen

KEY_NAMES = {"full_stop": ".", "comma": ",", "question_mark": "?", "minus": "-", "plus": "+",
             "left_square_bracket": "[", "right_square_bracket": "]",
             "left_curly_bracket": "{", "right_curly_bracket": "}", "slash": "/",
             "colon": ":", "exclamation_mark": "!"}


def pretty_keys(keys: str) -> str:
    return " ".join(KEY_NAMES.get(key.strip(), key.strip()) for key in keys.split(","))


def extra_commands(screen: Screen[Any]) -> Iterator[tuple[str, str, str]]:
    """(name, help, action) for palette-only commands a screen lists in EXTRA_COMMANDS."""
    yield from getattr(screen, "EXTRA_COMMANDS", ())


def keys_for(app: App[Any], binding: Binding) -> str:
    """The keys that run ``binding`` now: the user's keymap entry for its id, if any.

    The one place that reads the keymap (the palette's help and the help screen show it).
    Textual keeps the keymap the app was given in ``App._keymap``; there is no public reader.
    """
    keymap: dict[str, str] = getattr(app, "_keymap", {}) or {}
    return keymap.get(binding.id, binding.key) if binding.id else binding.key


def screen_commands(screen: Screen[Any]) -> Iterator[tuple[str, str, Binding]]:
    """(name, help, binding) for each of ``screen``'s own bindings, in their order."""
    seen: set[str] = set()
    for binding in screen.BINDINGS:
        if not isinstance(binding, Binding) or binding.action in seen:
            continue
        if binding.action.startswith("app.command_palette"):
            continue  # the palette is already open
        seen.add(binding.action)
        keys = keys_for(screen.app, binding)
        what = binding.tooltip or binding.description
        yield binding.description or binding.action, f"{what}  ({pretty_keys(keys)})", binding


def is_live(screen: Screen[Any], action: str) -> bool:
    """Whether ``action`` may run on ``screen`` now, asked as a key press asks it: its
    target's ``check_action`` with the name and parameters parsed (``checkpoint`` and
    ``(1,)``, not ``"checkpoint(1)"``; ``app.focus_next`` asks the app)."""
    namespace, name, parameters = parse(action)
    target = screen.app if namespace == "app" else screen
    return target.check_action(name, parameters) is True


class ReviewCommands(Provider):
    """The bindings of the screen under the palette, as commands."""

    def _commands(self) -> Iterator[tuple[str, str, partial[Any]]]:
        screen = self.screen
        for name, help_text, binding in screen_commands(screen):
            # Not an action the screen has turned off here (Edit on a console command):
            # chosen from the palette, it would do nothing and say nothing.
            if not is_live(screen, binding.action):
                continue
            yield name, help_text, partial(screen.run_action, binding.action)
        for name, help_text, action in extra_commands(screen):
            yield name, help_text, partial(screen.run_action, action)

    async def discover(self) -> Hits:
        for name, help_text, run in self._commands():
            yield DiscoveryHit(name, run, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, help_text, run in self._commands():
            # Match the tooltip too: "whitespace" finds the toggle named "Whitespace".
            score = max(matcher.match(name), matcher.match(help_text) * 0.5)
            if score > 0:
                yield Hit(score, matcher.highlight(name), run, text=name, help=help_text)
