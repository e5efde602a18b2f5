"""Rules about how paths are written: relative, POSIX, inside the project, with an extension.

They look at every path the reply names: file headers, console command arguments
and footer entries. Each (rule, path) pair is reported once, at its first mention,
so a bad path repeated in the footer does not double the noise.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from reviewtui.core.lint.base import Hit, LintContext, is_glob, path_key, rule
from reviewtui.core.lint.findings import Severity
from reviewtui.core.model.records import Span
from reviewtui.core.paths.safety import generated_file
from reviewtui.core.record import record


@record(frozen=True, slots=True)
class PathMention:
    path: str
    span: Span
    where: str  # "header", "command" or "footer"
    is_file: bool  # False when it may name a directory, a glob or a substring


def mentions(ctx: LintContext) -> list[PathMention]:
    """Every path in the reply, in line order."""
    return ctx.memo(_mentions)


def _mentions(ctx: LintContext) -> list[PathMention]:
    out: list[PathMention] = []
    for block in ctx.file_blocks:
        if block.path:
            out.append(PathMention(block.path, block.header_span, "header", True))
    console_paths: set[str] = set()
    for cmd in ctx.commands:
        for arg in cmd.args:
            console_paths.add(path_key(arg))
            out.append(PathMention(arg, cmd.span, "command", False))
    if ctx.reply.footer is not None:
        for entry in ctx.reply.footer.entries:
            # An entry that repeats a console argument may name a directory (":mv src lib").
            maybe_dir = path_key(entry.path) in console_paths or entry.path.endswith("/")
            out.append(PathMention(entry.path, entry.span, "footer",
                                   not maybe_dir and not is_glob(entry.path)))
    return sorted(out, key=lambda m: m.span.start)


def _once(
    ctx: LintContext, test: Callable[[PathMention], bool], message: Callable[[PathMention], str]
) -> Iterator[Hit]:
    seen: set[str] = set()
    for m in mentions(ctx):
        if m.path not in seen and test(m):
            seen.add(m.path)
            yield Hit(m.span, message(m), m.path)


_ABSOLUTE = re.compile(r"^(?:/|~|[A-Za-z]:[\\/]|\\\\)")


def is_absolute(path: str) -> bool:
    return _ABSOLUTE.match(path.strip()) is not None


@rule("absolute-path", Severity.ERROR, "a path that starts at the filesystem root or home")
def absolute_path(ctx: LintContext) -> Iterator[Hit]:
    yield from _once(ctx, lambda m: is_absolute(m.path), lambda m: (
        f"absolute path {m.path!r} in the {m.where}: it names a place on one machine, not in "
        "the project; write it relative to the project root"))


@rule("backslash-path", Severity.ERROR, "a path written with Windows backslashes")
def backslash_path(ctx: LintContext) -> Iterator[Hit]:
    yield from _once(ctx, lambda m: "\\" in m.path, lambda m: (
        f"{m.path!r} in the {m.where} uses backslashes; on POSIX they are part of the file "
        "name, so write '/' between directories"))


@rule("parent-path", Severity.ERROR, "a path with a '..' segment that can leave the project")
def parent_path(ctx: LintContext) -> Iterator[Hit]:
    yield from _once(ctx, lambda m: ".." in re.split(r"[\\/]", m.path), lambda m: (
        f"{m.path!r} in the {m.where} climbs with '..'; it can point outside the project, so "
        "name the file from the project root"))


# Files that conventionally have no extension. Compared case-insensitively.
EXTENSIONLESS = frozenset(name.lower() for name in (
    "Makefile", "GNUmakefile", "Dockerfile", "Containerfile", "Vagrantfile", "Jenkinsfile",
    "Procfile", "Gemfile", "Rakefile", "Podfile", "Brewfile", "Pipfile", "Justfile", "Caddyfile",
    "Guardfile", "Capfile", "Berksfile", "Fastfile", "Snakefile", "Tiltfile", "Earthfile",
    "LICENSE", "LICENCE", "COPYING", "UNLICENSE", "NOTICE", "README", "CHANGELOG", "CHANGES",
    "AUTHORS", "CONTRIBUTORS", "CODEOWNERS", "OWNERS", "VERSION", "BUILD", "WORKSPACE",
    "MANIFEST", "INSTALL", "TODO", "HACKING",
))


def lacks_extension(path: str) -> bool:
    """True when the last component has no '.' and is no well-known extension-less name.

    Dotfiles (``.gitignore``, ``.env``) start with a dot, so they never count.
    """
    name = path.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]
    return bool(name) and "." not in name and name.lower() not in EXTENSIONLESS


@rule("no-extension", Severity.WARNING, "a file path whose name has no extension")
def no_extension(ctx: LintContext) -> Iterator[Hit]:
    yield from _once(ctx, lambda m: m.is_file and lacks_extension(m.path), lambda m: (
        f"{m.path!r} in the {m.where} has no extension; the file type is ambiguous to "
        "reviewers and tools, so give the full name (src/app.js, not src/app)"))


def _generated(path: str) -> str | None:
    return generated_file(path.strip().lstrip("./")) if path.strip() else None


@rule("generated-file", Severity.WARNING, "a change to a generated file (a lock file, build "
      "output) that its tool rewrites")
def generated_file_rule(ctx: LintContext) -> Iterator[Hit]:
    yield from _once(ctx, lambda m: m.where != "footer" and not is_glob(m.path)
                     and _generated(m.path) is not None,
                     lambda m: (
        f"{m.path!r} is a generated file ({_generated(m.path)}): the tool that owns it "
        "rewrites it, so check the change is what that tool would write (apply --strict "
        "leaves it pending; listed under [reserved] paths in reviewtui.toml, it is "
        "refused)"))


RULES = (absolute_path, backslash_path, parent_path, no_extension, generated_file_rule)
