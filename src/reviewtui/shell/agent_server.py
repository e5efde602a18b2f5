"""``reviewtui mcp``: the file-tree API over the Model Context Protocol (stdio).

Built on the official ``mcp`` SDK's ``MCPServer``; the protocol is not written here.
Each tool is a thin async wrapper that runs :class:`~reviewtui.shell.agent_tools.AgentTools`
in a worker thread, so a call waiting for the reviewer never stalls the connection.
Descriptions are written for a model: one question per tool, short, with an example.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer
from pydantic import StrictInt, StrictStr

from reviewtui.core.errors import ReviewtuiError
from reviewtui.shell.agent_tools import AgentTools
from reviewtui.shell.live import Gate

INSTRUCTIONS = (
    "Edit the project through these tools. Discover with ls, locate with search, inspect "
    "with read (long files come back as a head plus an outline: read a range next), change "
    "with edit (whole lines, like SEARCH/REPLACE) or replace_lines (with expectedRevision "
    "from read/ls), verify with status and diff. A human reviews every change: an answer "
    "may be 'rejected' with the reviewer's reason, 'edited' with what was written instead "
    "and where, 'accepted' but not written yet (the reviewer keeps the disk at an earlier "
    "checkpoint), or 'pending review'. Never resend a pending or accepted change; call "
    "status later. Pass intent (one line: what the user asked) so related changes are "
    "reviewed together.")

_INTENT = "intent: one line on what this change is for; calls with the same intent form one turn."


def build_server(tools: AgentTools) -> MCPServer[Any]:
    server: MCPServer[Any] = MCPServer("reviewtui", instructions=INSTRUCTIONS)

    async def run(fn: Any, *args: Any) -> str:
        try:
            result: str = await anyio.to_thread.run_sync(fn, *args)
        except ReviewtuiError as err:  # (a project's malformed reviewtui.toml, say)
            result = f"error: {err}"
        if result.startswith("error: "):  # root-relative: the agent needs no local layout
            result = result.replace(f"{tools.root}{os.sep}", "")
        return result

    @server.tool(description=(
        "List files: path, bytes, lines, revision, marks (reserved files cannot be written). "
        "glob filters, e.g. 'src/**/*.py'. No contents."))
    async def ls(glob: str = "**") -> str:
        return await run(tools.ls, glob)

    @server.tool(description=(
        "Find a literal text (or a Python regex with regex=true) in every text file; "
        "capped hits with one numbered line of context each. e.g. pattern='def load('"))
    async def search(pattern: str, regex: bool = False, glob: str = "**") -> str:
        return await run(tools.search, pattern, regex, glob)

    @server.tool(description=(
        "Read numbered lines first..last (1-based, inclusive) with the file's revision. "
        "A long file without a range returns its head and an outline. ids=true numbers "
        "lines as ids like 12:a3 that replace_lines and batch_edit accept. "
        "e.g. path='src/app.py', first=40, last=80"))
    async def read(path: str, first: int | None = None, last: int | None = None,
                   ids: bool = False) -> str:
        return await run(tools.read, path, first, last, ids)

    @server.tool(description=(
        "Replace whole lines: search is the exact current lines (enough of them to be "
        "unique), replace their new text. Tolerates whitespace and indentation drift; an "
        "ambiguous or missing search answers with the places and closest candidates. "
        "e.g. search='    return a + b', replace='    return a - b'. " + _INTENT))
    async def edit(path: str, search: str, replace: str, intent: str = "") -> str:
        return await run(tools.mutate,
                         {"tool": "edit", "path": path, "search": search, "replace": replace},
                         intent)

    @server.tool(description=(
        "Replace lines first..last (numbers or ids like 12:a3) with content. "
        "expectedRevision (from read or ls) guards against a file that changed since. "
        "e.g. path='app.py', first='12', last='13', content='    x = 1\n    y = 2', "
        "expectedRevision='3fa2c1d0'. " + _INTENT))
    async def replace_lines(path: str, first: StrictStr | StrictInt, last: StrictStr | StrictInt,
                            content: str,
                            expectedRevision: str | None = None, intent: str = "") -> str:  # noqa: N803
        call: dict[str, Any] = {"tool": "line_replace", "path": path, "from": first,
                                "to": last, "content": content}
        if expectedRevision:
            call["expectedRevision"] = expectedRevision
        return await run(tools.mutate, call, intent)

    @server.tool(description=(
        "Several line edits to one file, validated together and applied bottom-up. "
        "operations: [{operation: replace|insert_before|insert_after|delete, line_range: "
        "[a, b] or line: a, content}]; numbers are the file as read, before the batch. "
        "e.g. [{operation: 'delete', line_range: [20, 22]}, {operation: 'insert_after', "
        "line: 3, content: 'import os'}]. " + _INTENT))
    async def batch_edit(path: str, operations: list[dict[str, Any]],
                         expectedRevision: str | None = None, intent: str = "") -> str:  # noqa: N803
        call: dict[str, Any] = {"tool": "batch_edit", "path": path, "operations": operations}
        if expectedRevision:
            call["expectedRevision"] = expectedRevision
        return await run(tools.mutate, call, intent)

    @server.tool(description=("Create a file, or replace a whole file, with content. "
                              "e.g. path='docs/notes.md', content='# Notes\n'. " + _INTENT))
    async def write(path: str, content: str, intent: str = "") -> str:
        return await run(tools.mutate, {"tool": "write", "path": path, "content": content},
                         intent)

    @server.tool(description=("Move or rename one file. e.g. source='util.py', "
                              "destination='lib/util.py'. " + _INTENT))
    async def move(source: str, destination: str, intent: str = "") -> str:
        return await run(tools.mutate, {"tool": "move", "from": source, "to": destination},
                         intent)

    @server.tool(description="Delete one file. e.g. path='old_test.py'. " + _INTENT)
    async def remove(path: str, intent: str = "") -> str:
        return await run(tools.mutate, {"tool": "delete", "path": path}, intent)

    @server.tool(description=(
        "Every change of this session so far: accepted, edited, rejected (with the "
        "reviewer's reason), pending review, not written yet, or why it failed. e.g. "
        "'op 2.1 edit app.py: rejected (reason: keep the API)'"))
    async def status() -> str:
        return await run(tools.status)

    @server.tool(description=(
        "The unified diff of what the reviewer accepted so far (one path, or all). "
        "e.g. path='src/app.py'"))
    async def diff(path: str | None = None) -> str:
        return await run(tools.diff, path)

    return server


def serve_stdio(root: Path, session: Path | None, gate: Gate, wait: float) -> None:
    tools = AgentTools.open(root, session, gate=gate, wait=wait)
    try:
        build_server(tools).run("stdio")
    finally:
        tools.live.close()
