"""Syntax errors in a tree: each ``ERROR`` or ``MISSING`` node, as a line, column and message.

Only the branches that contain an error are walked (tree-sitter marks every ancestor of
one with ``has_error``), so a clean 10,000-line file costs one attribute read.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from reviewtui.core.syntax.parsing import Parsed

if TYPE_CHECKING:
    from tree_sitter import Node

MAX_PROBLEMS = 8  # per file: the first ones in reading order
_SHOWN = 24  # characters of an unexpected token shown in a message
# Grammars where a "for each" macro reads as a call missing its ";" before a block
# (C++'s reads such a loop without an error).
_MACRO_LOOPS = frozenset({"c"})
# ... and where one with a body of one statement and no braces reads as a stray token.
_MACRO_BODIES = frozenset({"c", "cpp"})
MISSING_SEMICOLON = "missing `;`"
# The start of a line that calls a macro (or function) by a plain name.
_CALL_HEAD = re.compile(r"[ \t]*([A-Za-z_]\w*)[ \t]*\(")
_KEYWORDS = frozenset({"if", "while", "for", "switch", "return", "sizeof", "case", "do",
                       "else", "goto", "_Generic", "_Alignof", "alignof", "decltype"})


def _column(data: bytes, row_start: int, offset: int) -> int:
    """1-based column in characters (the tree counts bytes)."""
    return len(data[row_start:offset].decode("utf-8", "replace")) + 1


def _first_leaf(node: Node) -> Node:
    while node.child_count:
        node = node.children[0]
    return node


def _token(data: bytes, node: Node) -> str:
    text = data[node.start_byte : node.end_byte].decode("utf-8", "replace")
    text = text.split("\n", 1)[0].strip()
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def _message(data: bytes, node: Node) -> tuple[Node, str]:
    """The node to point at and what to say about it."""
    if node.is_missing:
        what = node.type
        return node, (f"missing `{what}`" if not node.is_named else f"missing {what}")
    leaf = _first_leaf(node)
    token = _token(data, leaf) or _token(data, node)
    return leaf, (f"unexpected `{token}`" if token else "syntax error")


def _macro_loop(node: Node) -> bool:
    """Whether a missing ``;`` is a C "for each" macro's: ``list_for_each(l, item) {``
    (the Linux kernel's, jq's ``jv_array_foreach``, glib's...) reads to the grammar as a
    call statement missing its ``;``, followed by a block on the same or the next line.
    No valid C has that shape without a macro, and a slip that makes it (a misspelt ``if``)
    is rarer than the macros: without this, every such loop an edit added was reported as
    a syntax error it introduced (and ``apply --strict`` held it)."""
    statement = node.parent
    if statement is None or statement.type != "expression_statement":
        return False
    call = statement.named_children[0] if statement.named_child_count == 1 else None
    if call is None or call.type != "call_expression":
        return False
    function = call.child_by_field_name("function")
    block = statement.next_sibling
    return (function is not None and function.type == "identifier" and block is not None
            and block.type == "compound_statement"
            and block.start_point[0] - call.end_point[0] <= 1)


def _macro_loop_line(data: bytes, node: Node) -> bool:
    """Whether an error is the first token of a "for each" macro's brace-less body:
    ``jv_array_foreach(args, i, v)`` alone on its line, then ``r = f(r, v);`` indented
    deeper on the next, which the grammar reads as the call followed by a stray ``r``
    (jq 3985b80c). A call that lacks its ``;`` before a statement at its own indentation
    (a real slip) is still an error."""
    call = node.prev_sibling
    if call is None or call.type != "call_expression":
        return False
    function = call.child_by_field_name("function")
    if function is None or function.type != "identifier":
        return False
    if data[function.start_byte:function.end_byte].decode("utf-8", "replace") in _KEYWORDS:
        return False
    row, column = call.start_point
    line_start = call.start_byte - column
    return (node.start_point[0] == call.end_point[0] + 1 == row + 1
            and not data[line_start:call.start_byte].strip()
            and node.start_point[1] > column)


def macro_entry(line: str) -> str | None:
    """The name called when ``line`` is one call and nothing else, a trailing comment
    aside: an entry of a C "X-macro" list (``LIBM_DD(acos)``, ``OP(LOADK, 1)``), which the
    grammar reads as a statement missing its ``;``. None for any other line. (String
    operations and one anchored match: linear in the line.)"""
    found = _CALL_HEAD.match(line)
    if found is None or found.group(1) in _KEYWORDS:
        return None
    body = line.rstrip()
    cut = body.find("//", found.end())
    if cut < 0 and body.endswith("*/"):
        cut = body.find("/*", found.end())
    if cut >= 0:
        body = body[:cut].rstrip()
    return found.group(1) if body.endswith(")") else None


def problems(parsed: Parsed, limit: int = MAX_PROBLEMS) -> list[tuple[int, int, str]]:
    """(line, column, message), 1-based, for the first ``limit`` errors of the tree."""
    root = parsed.tree.root_node
    if not root.has_error:
        return []
    data = parsed.data
    found: list[tuple[int, int, str]] = []
    stack = [root]
    while stack and len(found) < limit:
        node = stack.pop()
        broken = [c for c in node.children if c.has_error]
        if node.is_missing and node.type == ";" and parsed.grammar in _MACRO_LOOPS and (
                _macro_loop(node)):
            continue
        if node.is_error and parsed.grammar in _MACRO_BODIES and _macro_loop_line(data, node):
            continue
        if node.is_error or node.is_missing:
            at, message = _message(data, node)
            offset, (row, byte_col) = at.start_byte, at.start_point
        elif not broken:
            # The error is a hidden token (a grammar's "_string_end" and the like), which
            # the tree does not list as a child: point at where the node stops.
            what = node.type.replace("_", " ")
            message = "unterminated string" if "string" in node.type else f"incomplete {what}"
            offset, (row, byte_col) = node.end_byte, node.end_point
        else:
            stack.extend(reversed(broken))
            continue
        # The tree knows the row (no count of the newlines above, per error).
        found.append((row + 1, _column(data, offset - byte_col, offset), message))
    return found


def error_spans(parsed: Parsed, limit: int = MAX_PROBLEMS) -> list[tuple[int, int]]:
    """(first line, last line), 1-based, of the first ``limit`` error and missing nodes:
    where the grammar gave up, as stretches (:mod:`reviewtui.core.syntax.preproc`)."""
    spans: list[tuple[int, int]] = []
    stack = [parsed.tree.root_node]
    while stack and len(spans) < limit:
        node = stack.pop()
        if not node.has_error and not node.is_missing:
            continue
        broken = [c for c in node.children if c.has_error or c.is_missing]
        if node.is_error or node.is_missing or not broken:
            # (not broken: the error is a hidden token, as :func:`problems` has it)
            spans.append((node.start_point[0] + 1, node.end_point[0] + 1))
            continue
        stack.extend(reversed(broken))
    return spans
