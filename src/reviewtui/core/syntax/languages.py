"""Which tree-sitter grammar reads which file, loaded only when a file of it is seen.

Each grammar is its own wheel (compiled parser inside, no download at run time). Nothing
here imports a grammar module until :func:`language_for` is asked about a file of that
language, so a command that never sees a Kotlin file never loads the Kotlin grammar.
"""

from __future__ import annotations

import importlib
import warnings
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from reviewtui.core.record import record

if TYPE_CHECKING:  # the binding itself is imported with the first grammar
    from tree_sitter import Language


@record(frozen=True, slots=True)
class Grammar:
    name: str  # what the reviewer reads: "ruby", "tsx"
    module: str  # the wheel's module
    function: str  # the module function returning the language pointer


_G = Grammar
_GRAMMARS: dict[str, Grammar] = {
    g.name: g for g in (
        _G("javascript", "tree_sitter_javascript", "language"),
        _G("typescript", "tree_sitter_typescript", "language_typescript"),
        _G("tsx", "tree_sitter_typescript", "language_tsx"),
        _G("go", "tree_sitter_go", "language"),
        _G("rust", "tree_sitter_rust", "language"),
        _G("java", "tree_sitter_java", "language"),
        _G("c", "tree_sitter_c", "language"),
        _G("cpp", "tree_sitter_cpp", "language"),
        _G("c-sharp", "tree_sitter_c_sharp", "language"),
        _G("ruby", "tree_sitter_ruby", "language"),
        _G("php", "tree_sitter_php", "language_php"),
        _G("bash", "tree_sitter_bash", "language"),
        _G("css", "tree_sitter_css", "language"),
        _G("scss", "tree_sitter_scss", "language"),
        _G("html", "tree_sitter_html", "language"),
        _G("yaml", "tree_sitter_yaml", "language"),
        _G("lua", "tree_sitter_lua", "language"),
        _G("scala", "tree_sitter_scala", "language"),
        _G("kotlin", "tree_sitter_kotlin", "language"),
        _G("swift", "tree_sitter_swift", "language"),
        _G("haskell", "tree_sitter_haskell", "language"),
        _G("elixir", "tree_sitter_elixir", "language"),
        _G("sql", "tree_sitter_sql", "language"),
    )
}

_SUFFIXES: dict[str, str] = {
    **dict.fromkeys((".js", ".mjs", ".cjs", ".jsx"), "javascript"),
    **dict.fromkeys((".ts", ".mts", ".cts"), "typescript"),
    ".tsx": "tsx",
    ".go": "go",
    ".rs": "rust",
    ".java": "java",
    # .h is read as C++: C++ is close to a superset, and headers of both are common.
    ".c": "c",
    **dict.fromkeys((".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx"), "cpp"),
    ".cs": "c-sharp",
    **dict.fromkeys((".rb", ".rake", ".gemspec", ".ru"), "ruby"),
    ".php": "php",
    **dict.fromkeys((".sh", ".bash"), "bash"),
    ".css": "css",
    ".scss": "scss",
    **dict.fromkeys((".html", ".htm"), "html"),
    **dict.fromkeys((".yaml", ".yml"), "yaml"),
    ".lua": "lua",
    **dict.fromkeys((".scala", ".sc"), "scala"),
    **dict.fromkeys((".kt", ".kts"), "kotlin"),
    ".swift": "swift",
    ".hs": "haskell",
    **dict.fromkeys((".ex", ".exs"), "elixir"),
    ".sql": "sql",
}
_NAMES = {"Rakefile": "ruby", "Gemfile": "ruby"}

_loaded: dict[str, Language | None] = {}


def grammar_name(path: str) -> str | None:
    """The grammar that reads ``path`` (by suffix), or None. Loads nothing."""
    pure = PurePosixPath(path)
    return _SUFFIXES.get(pure.suffix.lower()) or _NAMES.get(pure.name)


def language(name: str) -> Language | None:
    """The loaded grammar ``name``, importing its wheel on first use; None if absent."""
    if name in _loaded:
        return _loaded[name]
    grammar = _GRAMMARS.get(name)
    found: Language | None = None
    if grammar is not None:
        try:
            from tree_sitter import Language

            module = importlib.import_module(grammar.module)
            with warnings.catch_warnings():
                # An older wheel hands the pointer as an int, which the binding still
                # takes but warns about; the grammar itself is fine.
                warnings.simplefilter("ignore", DeprecationWarning)
                found = Language(getattr(module, grammar.function)())
        except (ImportError, AttributeError, ValueError):
            found = None
    _loaded[name] = found
    return found


def language_for(path: str) -> tuple[str, Language] | None:
    """(grammar name, loaded grammar) for ``path``, or None when no grammar reads it."""
    name = grammar_name(path)
    if name is None:
        return None
    lang = language(name)
    return None if lang is None else (name, lang)


def supported() -> dict[str, tuple[str, ...]]:
    """Grammar name -> the suffixes it reads (for the docs and the bench)."""
    out: dict[str, list[str]] = {}
    for suffix, name in _SUFFIXES.items():
        out.setdefault(name, []).append(suffix)
    return {name: tuple(suffixes) for name, suffixes in out.items()}
