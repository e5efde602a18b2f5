"""The key bar shows the review screen's live keys after every change.

The bar (``KeyFooter``) skips rebuilding when nothing it shows changed; this checks that
it never skips one that did: after each key press and after a remap its keys, with their
availability, are those the screen's bindings give at that moment.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets._footer import FooterKey
from uikit import open_app, screen_of

from reviewtui.ui.widgets.footer import KeyFooter

SIZE = (120, 40)

pytestmark = pytest.mark.anyio


def shown(footer: KeyFooter) -> list[tuple[str, str, bool]]:
    return [(key.action, key.key, key.disabled) for key in footer.query(FooterKey)]


def wanted(footer: KeyFooter) -> list[tuple[str, str, bool]]:
    """What Footer.compose would show now (one key per action, the first binding's)."""
    seen: dict[str, tuple[str, str, bool]] = {}
    for _node, binding, enabled, _tooltip in footer.screen.active_bindings.values():
        if binding.show and binding.action not in seen:
            seen[binding.action] = (binding.action, binding.key, not enabled)
    keys = list(seen.values())
    palette = footer.screen.active_bindings.get(footer.app.COMMAND_PALETTE_BINDING)
    if footer.show_command_palette and footer.app.ENABLE_COMMAND_PALETTE and palette:
        keys.append((palette.binding.action, palette.binding.key, not palette.enabled))
    return keys


async def test_the_bar_follows_key_presses_and_a_new_keymap(tour: tuple[Path, Path]) -> None:
    app = open_app(*tour)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        footer = screen_of(app).query_one(KeyFooter)
        assert shown(footer) == wanted(footer)
        for key in ("y", "u", "U", "u", "j", "k", "n", "u"):
            await pilot.press(key)
            await pilot.pause()
            assert shown(footer) == wanted(footer), key
        # Keys remapped while it runs (the bindings refresh, the bar must show the new key).
        assert ("accept", "y", False) in shown(footer)
        app.update_keymap({"accept": "a"})
        await pilot.pause()
        assert ("accept", "a", False) in shown(footer)
        assert shown(footer) == wanted(footer)
