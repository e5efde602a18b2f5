"""Definitions read from the syntax tree: outlines, and the symbols around a line.

A definition is a node of one of the kinds below (functions, methods, classes, modules,
types, CSS rule sets, HTML elements with an id...) with its line range. Its *name* is the
text of its first line up to the end of its name field ("def import_csv", "class Store",
"func (s *Store) Import"), its *signature* the whole first line.
Python files are read with :mod:`ast` (exact, no grammar wheel needed).
"""

from __future__ import annotations

import ast
import hashlib
import re
import warnings
from collections.abc import Iterator
from typing import TYPE_CHECKING

from reviewtui.core.record import record
from reviewtui.core.syntax.languages import grammar_name
from reviewtui.core.syntax.parsing import Parsed, TooSlow, cached, parse

if TYPE_CHECKING:
    from tree_sitter import Node

# Node kinds that define something, across the grammars in ``languages``.
DEFINITIONS = frozenset({
    # functions and methods
    "function_declaration", "function_definition", "function_item", "method_definition",
    "method_declaration", "constructor_declaration", "method", "singleton_method",
    "generator_function_declaration", "function_signature_item", "local_function",
    "function", "operator_declaration", "init_declaration", "protocol_function_declaration",
    "destructor_declaration",
    # classes, modules, types
    "class_declaration", "class_definition", "class_specifier", "struct_specifier",
    "class", "module", "interface_declaration", "enum_declaration", "struct_declaration",
    "record_declaration", "trait_declaration", "protocol_declaration", "object_declaration",
    "object_definition", "trait_definition", "enum_definition", "struct_item", "enum_item",
    "trait_item", "impl_item", "mod_item", "namespace_definition", "namespace_declaration",
    "type_spec", "type_alias_declaration", "abstract_class_declaration", "data_type",
    "newtype", "instance", "type_class", "extension_definition",
    # stylesheets
    "rule_set", "media_statement", "keyframes_statement", "mixin_statement",
    "function_statement",
    # SQL
    "create_table", "create_function", "create_view", "create_index",
})
_NAME_FIELDS = ("name", "declarator", "selectors", "type")
_SPECIFIERS = frozenset({"struct_specifier", "class_specifier"})
_VARIABLE_FUNCTIONS = frozenset({"arrow_function", "function_expression", "function"})
_ELIXIR_DEFS = frozenset({"def", "defp", "defmodule", "defmacro", "defmacrop", "defprotocol",
                          "defimpl", "defstruct", "describe", "test"})
_SHOWN = 80  # characters of a name or signature
_EXPORT = re.compile(r"^export\s+(default\s+)?")
_DO = re.compile(r"(?<!\s)\s++do\b.*$")  # from a run's first blank only: linear


@record(frozen=True, slots=True)
class Symbol:
    """A definition: 1-based inclusive lines, its name as written and its first line."""

    line: int
    end: int
    name: str
    signature: str


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def _first_line(parsed: Parsed, node: Node) -> str:
    data = parsed.data
    start = data.rfind(b"\n", 0, node.start_byte) + 1
    end = data.find(b"\n", node.start_byte)
    return data[start : len(data) if end < 0 else end].decode("utf-8", "replace")


def _text(parsed: Parsed, node: Node) -> str:
    return parsed.data[node.start_byte : node.end_byte].decode("utf-8", "replace")


def _name(parsed: Parsed, node: Node) -> str:
    """The definition's line from its first word to the end of its name."""
    data = parsed.data
    line_start = data.rfind(b"\n", 0, node.start_byte) + 1
    line_end = data.find(b"\n", node.start_byte)
    line_end = len(data) if line_end < 0 else line_end
    cut = line_end
    for field in _NAME_FIELDS:
        name_node = node.child_by_field_name(field)
        if name_node is None:
            continue
        declarator = name_node.child_by_field_name("declarator")
        if declarator is not None and declarator.type == "identifier":
            name_node = declarator  # C: "int main(void)" -> up to "main"
        if line_start <= name_node.end_byte <= line_end:
            cut = name_node.end_byte
        break
    head = data[line_start:cut].decode("utf-8", "replace").strip()
    head = _EXPORT.sub("", head)  # "export class Cart" is the class Cart
    head = _DO.sub("", head)  # Elixir/Ruby blocks: "defmodule A do" names A
    return _clip(head.rstrip(" {:(=")) or node.type


def _is_definition(parsed: Parsed, node: Node) -> bool:
    kind = node.type
    if not node.is_named:
        return False
    if kind in _SPECIFIERS:  # C/C++: "struct stat st;" uses a type, "struct s {...}" defines it
        return node.child_by_field_name("body") is not None
    if kind in DEFINITIONS:
        return True
    if kind == "variable_declarator":  # const load = async (path) => {...}
        value = node.child_by_field_name("value")
        return value is not None and value.type in _VARIABLE_FUNCTIONS
    if kind == "element" and parsed.grammar == "html":
        start = node.children[0] if node.children else None
        return start is not None and b" id=" in parsed.data[start.start_byte:start.end_byte]
    if kind == "block_mapping_pair" and parsed.grammar == "yaml":  # a key holding a block
        value = node.child_by_field_name("value")
        return value is not None and value.type == "block_node"
    if kind == "call" and parsed.grammar == "elixir":
        target = node.child_by_field_name("target")
        return target is not None and _text(parsed, target) in _ELIXIR_DEFS
    return False


def _symbol(parsed: Parsed, node: Node) -> Symbol:
    name = _name(parsed, node)
    if node.type == "element":
        name = _clip(_text(parsed, node.children[0]))
    if node.type == "variable_declarator" and node.parent is not None:
        name = _clip(_first_line(parsed, node.parent).strip().split("=", 1)[0])
    return Symbol(node.start_point[0] + 1, node.end_point[0] + 1 - (node.end_point[1] == 0),
                  name, _clip(_first_line(parsed, node).strip()))


def _walk(parsed: Parsed) -> Iterator[Node]:
    """Definition nodes in reading order (comments and strings are not entered)."""
    stack = [parsed.tree.root_node]
    while stack:
        node = stack.pop()
        if _is_definition(parsed, node):
            yield node
        if "comment" in node.type or "string" in node.type:
            continue
        stack.extend(reversed(node.children))


# -- Python, by ast -------------------------------------------------------------------------

_PY_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _python_tree(text: str) -> ast.Module | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _python_symbol(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef,
                   lines: list[str]) -> Symbol:
    keyword = {"ClassDef": "class", "AsyncFunctionDef": "async def"}.get(
        type(node).__name__, "def")
    line = node.lineno
    signature = lines[line - 1].strip() if line <= len(lines) else ""
    return Symbol(line, node.end_lineno or line, f"{keyword} {node.name}", _clip(signature))


_python_cache: dict[str, list[Symbol] | None] = {}
_PYTHON_CACHE = 64


def _python_key(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def _python_symbols(text: str) -> list[Symbol] | None:
    key = _python_key(text)
    if key in _python_cache:
        return _python_cache[key]
    tree = _python_tree(text)
    found: list[Symbol] | None = None
    if tree is not None:
        lines = text.split("\n")
        found = sorted((_python_symbol(node, lines) for node in ast.walk(tree)
                        if isinstance(node, _PY_DEFS)), key=lambda s: (s.line, -s.end))
    if len(_python_cache) >= _PYTHON_CACHE:
        _python_cache.clear()
    _python_cache[key] = found
    return found


# -- public --------------------------------------------------------------------------------


def ready(path: str, text: str) -> bool:
    """Whether the definitions of ``text`` can be read without parsing it now."""
    if path.endswith((".py", ".pyi")):
        return _python_key(text) in _python_cache
    return cached(path, text) is not None


def has_symbols(path: str) -> bool:
    """Whether definitions can be read from ``path`` (a grammar or Python). Loads nothing."""
    return path.endswith((".py", ".pyi")) or grammar_name(path) is not None


def _parsed(path: str, text: str) -> Parsed | None:
    """:func:`parse`, None where the grammar gives up (no definitions read)."""
    try:
        return parse(path, text)
    except TooSlow:
        return None


def definitions(path: str, text: str, limit: int = 10_000) -> list[Symbol] | None:
    """Every definition in reading order (outer before inner), or None when ``path`` has
    no grammar or the file cannot be read as its language at all."""
    if path.endswith((".py", ".pyi")):
        found = _python_symbols(text)
        return None if found is None else found[:limit]
    parsed = _parsed(path, text)
    if parsed is None:
        return None
    out = []
    for node in _walk(parsed):
        out.append(_symbol(parsed, node))
        if len(out) >= limit:
            break
    return out


def enclosing(path: str, text: str, first: int, last: int | None = None) -> list[Symbol]:
    """The definitions around lines ``first..last`` (1-based), outermost first."""
    last = first if last is None else max(first, last)
    if path.endswith((".py", ".pyi")):
        found = _python_symbols(text) or []
        return [s for s in found if s.line <= first and last <= s.end]
    parsed = _parsed(path, text)
    if parsed is None:
        return []
    start, end = _line_bytes(parsed.data, first, last)
    node: Node | None = parsed.tree.root_node.descendant_for_byte_range(start, end)
    chain: list[Symbol] = []
    while node is not None:
        if _is_definition(parsed, node):
            chain.append(_symbol(parsed, node))
        node = node.parent
    return chain[::-1]


def _line_bytes(data: bytes, first: int, last: int) -> tuple[int, int]:
    """Byte range from the first non-blank character of line ``first`` to the end of the
    last non-blank character of line ``last`` (lines past the end are clamped)."""
    start = 0
    for _ in range(first - 1):
        found = data.find(b"\n", start)
        if found < 0:
            break
        start = found + 1
    end = start
    for _ in range(last - first + 1):
        found = data.find(b"\n", end)
        if found < 0:
            end = len(data)
            break
        end = found + 1
    while start < end and data[start : start + 1] in (b" ", b"\t"):
        start += 1
    while end > start and data[end - 1 : end] in (b" ", b"\t", b"\n", b"\r"):
        end -= 1
    return start, max(start, end)


def where(path: str, text: str, first: int, last: int) -> str:
    """The symbols an edit of lines ``first..last`` sits in, outermost first, as the
    operation header shows them ("class Store › def import_csv"); "" when none or when
    ``path`` has no grammar. ``last = first - 1`` is an insertion before line ``first``."""
    if not has_symbols(path):
        return ""
    if last < first:  # an insertion: the definitions that hold both neighbours
        if first <= 1:
            return ""  # above the first line: inside nothing
        above = first - 1
        return " › ".join(s.name for s in enclosing(path, text, above, above)
                          if s.end >= first and s.line <= above)
    return " › ".join(s.name for s in enclosing(path, text, first, last))


def around(path: str, text: str, first: int, last: int) -> tuple[Symbol, ...]:
    """The definitions that overlap lines ``first..last``: those enclosing the range and
    those inside it, in reading order. Costs the range, not the file (a diff window's
    collapsed rows are labelled from it)."""
    if not has_symbols(path) or last < first:
        return ()
    if path.endswith((".py", ".pyi")):
        return tuple(s for s in _python_symbols(text) or () if s.line <= last and s.end >= first)
    parsed = _parsed(path, text)
    if parsed is None:
        return ()
    start, end = _line_bytes(parsed.data, first, last)
    top: Node | None = parsed.tree.root_node.descendant_for_byte_range(start, end)
    outer: list[Symbol] = []
    node = top.parent if top is not None else None
    while node is not None:
        if _is_definition(parsed, node):
            outer.append(_symbol(parsed, node))
        node = node.parent
    inner: list[Symbol] = []
    stack = [top] if top is not None else []
    while stack:
        node = stack.pop()
        if node.end_byte < start or node.start_byte > end:
            continue
        if _is_definition(parsed, node):
            inner.append(_symbol(parsed, node))
        if "comment" not in node.type and "string" not in node.type:
            stack.extend(reversed(node.children))
    return (*outer[::-1], *inner)


def signature_for(symbols: tuple[Symbol, ...], line: int) -> Symbol | None:
    """The innermost of ``symbols`` that holds ``line`` below its own first line."""
    best: Symbol | None = None
    for symbol in symbols:
        if symbol.line < line <= symbol.end and (best is None or symbol.line >= best.line):
            best = symbol
    return best
