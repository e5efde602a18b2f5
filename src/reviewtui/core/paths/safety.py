"""Path safety and globbing: what a model may name, and what a pattern matches.

Every path a model writes goes through :func:`normalize_path` before anything touches the
tree, so the rest of the core can assume relative POSIX paths inside the project root.
Pure: the disk shell supplies whatever it learned from the disk (e.g. the symlink map).
"""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Iterable, Mapping

from reviewtui.core.errors import PathRefused
from reviewtui.core.record import record

_DRIVE_RE = re.compile(r"^[A-Za-z]:")
# Bidi overrides and isolates make a path read differently from what it is ("Trojan
# Source"); a reviewer must see the real name, so they count as control characters.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_GIT_DIR = ".git"
# Symlink hops followed before calling it a loop (Linux stops at 40 with ELOOP).
_MAX_SYMLINK_HOPS = 40
# Folders the disk shell never reads into the tree (version control, virtual
# environments, tool caches). What is inside them is unknown to the engine, so no
# operation writes there: it could not show what it would replace.
UNREAD_DIRS = frozenset({".git", ".hg", ".svn", ".venv", "node_modules", "__pycache__",
                         ".mypy_cache", ".pytest_cache", ".ruff_cache"})
# What a file system can hold: a name of at most NAME_MAX bytes (255 on Linux, macOS and
# Windows), a path that fits PATH_MAX (4096 with its NUL). Refused up front, a name no
# disk can hold never reaches the disk (ENAMETOOLONG) nor a saved decision.
MAX_NAME_BYTES = 255
MAX_PATH_BYTES = 4095
# Far deeper than any project; the tree's walks recurse once per level, and Python's
# stack stops near 1,000.
MAX_PATH_DEPTH = 256


def _refuse(raw: str, rule: str, why: str, fix: str) -> PathRefused:
    return PathRefused(raw, rule, f"path {raw!r} is refused: {why}; {fix}")


def _has_control(path: str) -> bool:
    """A control character (category Cc, Zl or Zp) or a bidi control in ``path``."""
    if path.isascii():  # ASCII's controls (Cc) are its unprintable characters: no
        return not path.isprintable()  # unicodedata (a shared library) at start-up
    import unicodedata

    return any(unicodedata.category(ch) in ("Cc", "Zl", "Zp") or ch in _BIDI_CONTROLS
               for ch in path)


def other_spellings(paths: Iterable[str], folders: Iterable[str] = ()) -> dict[str, str]:
    """NFC form -> name, for the names in ``paths`` (the files on disk) that are not in
    NFC and whose NFC form is not a name there too. Operation paths are NFC
    (:func:`normalize_path`): a file written decomposed (as macOS does) is out of their
    reach, and one named in NFC would be a second file that looks the same. Their folders,
    and ``folders`` (the folders on disk, an empty one too), likewise as ``"folder/"``: a
    new file in one named in NFC would make a second folder that looks the same (QA s53
    helper-221, 225)."""
    names = [path for path in paths if not path.isascii()]
    present = set(names)
    spelled = {name[:cut] for name in names for cut in _slashes(name)}
    for folder in folders:
        if not folder.isascii():
            spelled.add(folder)
            spelled.update(folder[:cut] for cut in _slashes(folder))
    out: dict[str, str] = {}
    for name in names:
        composed = _nfc(name)
        if composed != name and composed not in present:
            out[composed] = name
    for folder in spelled:
        composed = _nfc(folder)
        if composed != folder and composed not in spelled:
            out[composed + "/"] = folder + "/"
    return out


def _slashes(path: str) -> list[int]:
    """The offset of each "/" in ``path``."""
    return [k for k, char in enumerate(path) if char == "/"]


def _nfc(text: str) -> str:
    """``unicodedata.normalize("NFC", text)``: ASCII text is already NFC."""
    if text.isascii():
        return text
    import unicodedata

    return unicodedata.normalize("NFC", text)


def _check_characters(raw: str, path: str) -> None:
    """Refusals that look at the text as written, before any component is resolved."""
    if not path:
        raise _refuse(raw, "empty-path", "it is empty", "name a file relative to the root")
    if _has_control(path):
        raise _refuse(raw, "control-character", "it contains a NUL or control character",
                      "rename it without invisible characters")
    if "\\" in path:
        raise _refuse(raw, "backslash", "it contains a backslash",
                      'use "/" between directories, e.g. "src/app.js"')
    if path.startswith("/"):
        raise _refuse(raw, "absolute-path", "it is absolute",
                      'write it relative to the project root, e.g. "src/app.js"')


def _check_first_component(raw: str, first: str) -> None:
    """Checked after resolving, so "./C:" or "a/../~" cannot slip past them."""
    if _DRIVE_RE.match(first):
        raise _refuse(raw, "drive-letter", "it starts with a Windows drive letter",
                      "write it relative to the project root")
    if first.startswith("~"):
        raise _refuse(raw, "home-path", 'it starts with "~" (a home directory)',
                      "write it relative to the project root")


def _short(raw: str) -> str:
    """``raw`` for a message: a refused path can be thousands of characters long."""
    return raw if len(raw) <= 80 else f"{raw[:50]}...{raw[-20:]}"


def _check_size(raw: str, parts: list[str]) -> None:
    """Refuse a path no file system can hold, or deeper than the tree walks."""
    def refuse(rule: str, why: str, fix: str) -> PathRefused:
        return PathRefused(raw, rule, f"path {_short(raw)!r} is refused: {why}; {fix}")

    if len(parts) > MAX_PATH_DEPTH:
        raise refuse("path-too-deep", f"it has {len(parts):,} components (at most "
                     f"{MAX_PATH_DEPTH})", "name a file fewer folders deep")
    sizes = [len(part.encode("utf-8", "surrogatepass")) for part in parts]
    for part, size in zip(parts, sizes, strict=True):
        if size > MAX_NAME_BYTES:
            raise refuse("name-too-long", f"the name {_short(part)!r} is {size:,} bytes "
                         f"(a file system holds at most {MAX_NAME_BYTES})",
                         "use a shorter file or folder name")
    total = sum(sizes) + len(parts) - 1
    if total > MAX_PATH_BYTES:
        raise refuse("path-too-long", f"it is {total:,} bytes (a file system holds at most "
                     f"{MAX_PATH_BYTES})", "use a shorter path")


def _resolve_components(raw: str, path: str) -> list[str]:
    """Drop ``.`` and empty parts, fold ``..`` into its parent; refuse leaving the root."""
    parts: list[str] = []
    for part in path.split("/"):
        part = part.strip(" ")
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                raise _refuse(raw, "parent-escape", '".." leaves the project root',
                              "name a path inside the project")
            parts.pop()
            continue
        parts.append(part)
    return parts


def normalize_path(raw: str) -> str:
    """The canonical relative POSIX form of ``raw``, or :class:`PathRefused`.

    ``./src//a.js`` becomes ``src/a.js``, ``a/../b`` becomes ``b`` and text is NFC, so two
    spellings of one file compare equal. Spaces around each component are dropped: a
    parser artefact far more often than part of a real name, and Windows ignores trailing
    ones anyway (so ".git " would reach the git directory there).
    """
    path = _nfc(raw.strip(" "))
    _check_characters(raw, path)
    parts = _resolve_components(raw, path)
    if not parts:
        raise _refuse(raw, "empty-path", "it names the project root, not a file",
                      "name a file relative to the root")
    _check_first_component(raw, parts[0])
    _check_size(raw, parts)
    # casefold: on macOS and Windows ".GIT/config" is the same file as ".git/config"; so
    # are the names git itself refuses as its directory's aliases there (QA s53 helper-221).
    if any(part.casefold() == _GIT_DIR or _git_alias(part) for part in parts):
        raise _refuse(raw, "git-dir", "it is inside the .git directory",
                      "repository internals are never written; name a project file")
    return "/".join(parts)


# Code points HFS+ ignores in a name (git's is_hfs_dotgit): ".git\u200c" is ".git" there.
_HFS_IGNORED = re.compile("[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]")


def _git_alias(part: str) -> bool:
    """Whether a path part names the git directory on a file system that folds names:
    HFS+ ignoring some code points, NTFS dropping trailing dots and spaces, reading
    ``name:stream`` as ``name`` and ``GIT~1`` as the short name of ``.git``."""
    folded = _HFS_IGNORED.sub("", part).casefold()
    return folded.split(":", 1)[0].rstrip(". ") in (_GIT_DIR, "git~1")  # (s53 helper-225)


def respelled(raw: str) -> str | None:
    """The spelling :func:`normalize_path` gives ``raw`` when it names another file than
    ``raw`` does on disk, else None. A byte-exact source (a git diff) names files exactly:
    spaces around a part, a decomposed Unicode spelling or a ``..`` part are then part of
    the name, and writing the canonical spelling would write (or overwrite) another file.
    A ``./`` part or a doubled ``/`` names the same file (None); so does a path the engine
    refuses anyway (its own rule then speaks)."""
    try:
        canonical = normalize_path(raw)
    except PathRefused:
        return None
    as_named = "/".join(part for part in raw.split("/") if part not in ("", "."))
    return None if as_named == canonical else canonical


def spelling_refusal(raw: str) -> PathRefused | None:
    """The refusal of a path from a format that names files exactly (a tool call, a
    patch) when :func:`respelled` finds that its canonical spelling is another file's."""
    canonical = respelled(raw)
    if canonical is None:
        return None
    return _refuse(raw, "path-spelling", f"written as reviewtui spells paths it would be "
                   f"{canonical!r}, another file (spaces around a part, a decomposed Unicode "
                   "spelling or a '..' part)", "name the file exactly as it is on disk")


# --- globs ---------------------------------------------------------------------------

def is_glob(text: str) -> bool:
    """Whether ``text`` holds a wildcard. ``[`` is literal: Next.js names files ``[id].js``."""
    return "*" in text or "?" in text


def _name_matches(pattern: str, name: str) -> bool:
    """``*`` (any run) and ``?`` (one character) against one path component.

    The greedy scan with one saved star is linear in practice and never worse than
    len(pattern) * len(name); a regular expression of ``*a*a*a...`` backtracks
    exponentially, so a model's ``:rm *a*a*a*a*a*a*a*a*b`` hung on a long name.
    """
    p = n = 0
    star, resume = -1, 0
    while n < len(name):
        if p < len(pattern) and pattern[p] == "*":
            star, resume = p, n
            p += 1
        elif p < len(pattern) and pattern[p] in ("?", name[n]):
            p += 1
            n += 1
        elif star >= 0:  # let the last star take one more character
            p, resume = star + 1, resume + 1
            n = resume
        else:
            return False
    return pattern[p:].strip("*") == ""


@functools.lru_cache(maxsize=1024)
def _pattern_parts(pattern: str) -> tuple[str, ...]:
    parts = pattern.split("/")
    # Repeated "**" components match the same thing as one.
    return tuple(p for i, p in enumerate(parts)
                 if not (p == "**" and i and parts[i - 1] == "**"))


def glob_match(pattern: str, path: str) -> bool:
    """Whether normalised ``path`` matches ``pattern``.

    ``*`` and ``?`` stay within one component; a whole ``**`` component spans any number
    of directories, zero included (``**/*.pyc`` matches ``a.pyc``; ``dist/**`` matches
    everything under ``dist/``). Patterns are anchored at the project root. Matching walks
    the components with the set of positions reached, so its cost stays polynomial
    whatever the pattern.
    """
    parts = _pattern_parts(pattern)
    names = path.split("/")
    reached = {0}  # indexes into names where the next pattern part may start
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if part == "**" and last:  # the rest, whatever it is, but not nothing
            return any(at < len(names) and "/".join(names[at:]) != "" for at in reached)
        following: set[int] = set()
        if part == "**":  # zero or more whole non-empty components
            for at in sorted(reached):
                while at not in following and at < len(names):
                    following.add(at)
                    if names[at] == "":
                        break
                    at += 1
        else:
            following = {at + 1 for at in reached
                         if at < len(names) and _name_matches(part, names[at])}
            if last:
                return len(names) in following
        reached = following
        if not reached:
            return False
    return False


def expand_glob(pattern: str, paths: Iterable[str]) -> list[str]:
    """The members of ``paths`` that ``pattern`` matches, sorted."""
    return sorted(p for p in paths if glob_match(pattern, p))


# --- reserved paths ------------------------------------------------------------------

# (label shown to the user, pattern). Generated files: lock files and build output that a
# tool owns. Not refused (a real commit updates uv.lock with its pyproject.toml): writing one
# is a finding the reviewer sees, and ``apply --strict`` leaves it pending. Only the
# project's own ``[reserved] paths`` are refused.
BUILTIN_RESERVED: tuple[tuple[str, str], ...] = (
    ("package-lock.json", "**/package-lock.json"),
    ("npm-shrinkwrap.json", "**/npm-shrinkwrap.json"),
    ("yarn.lock", "**/yarn.lock"),
    ("pnpm-lock.yaml", "**/pnpm-lock.yaml"),
    ("bun.lockb", "**/bun.lockb"),
    ("poetry.lock", "**/poetry.lock"),
    ("Pipfile.lock", "**/Pipfile.lock"),
    ("uv.lock", "**/uv.lock"),
    ("Cargo.lock", "**/Cargo.lock"),
    ("composer.lock", "**/composer.lock"),
    ("Gemfile.lock", "**/Gemfile.lock"),
    ("go.sum", "**/go.sum"),
    ("*.min.js", "**/*.min.js"),
    ("*.min.css", "**/*.min.css"),
    ("*.pyc", "**/*.pyc"),
    ("__pycache__/", "**/__pycache__/**"),
    ("node_modules/", "**/node_modules/**"),
)


@functools.lru_cache(maxsize=4096)
def generated_file(path: str) -> str | None:
    """The built-in generated-file label normalised ``path`` matches (``"uv.lock"``), if any."""
    for label, pattern in BUILTIN_RESERVED:
        if glob_match(pattern, path):
            return label
    return None


@record(frozen=True, slots=True)
class ReservedRules:
    """Paths no operation may write: the project's ``[reserved] paths``.

    ``builtins`` says whether writes to built-in generated files (``generated_file``) are
    pointed out to the reviewer; they are never refused.
    """

    patterns: tuple[str, ...] = ()
    source: str = "reviewtui.toml"
    builtins: bool = True

    @classmethod
    def from_patterns(cls, patterns: Iterable[str], *, source: str = "reviewtui.toml",
                      builtins: bool = True) -> ReservedRules:
        return cls(tuple(patterns), source, builtins)

    def reserved_by(self, path: str) -> str | None:
        """What reserves normalised ``path``, in words for the user; None if nothing does.

        Only the project's own entries reserve: they are the rule the user wrote.
        """
        for pattern in self.patterns:
            if glob_match(pattern, path):
                return f'{self.source} [reserved] paths "{pattern}"'
        return None

    def generated_by(self, path: str) -> str | None:
        """The built-in generated-file label of ``path`` when built-ins are on."""
        return generated_file(path) if self.builtins else None


# --- symlinks ------------------------------------------------------------------------

def _relative_to_root(target: str, root: str | None) -> str | None:
    """An absolute symlink target as a root-relative path; None when outside the root."""
    if root is None:
        return None
    target, root = posixpath.normpath(target), posixpath.normpath(root)
    if target == root:
        return ""
    if target.startswith(root.rstrip("/") + "/"):
        return target[len(root.rstrip("/")) + 1:]
    return None


def link_target_in_root(link: str, target: str, root: str | None) -> str | None:
    """The root-relative path a link at ``link`` names ("" for the root itself), or None
    when it leads out of the root. ``target`` is as ``os.readlink`` gives it: a relative
    one is read from the link's folder, lexically (nothing is followed)."""
    if target.startswith("/"):
        return _relative_to_root(target, root)
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(link), target))
    if joined == ".." or joined.startswith("../"):
        return None
    return "" if joined == "." else joined


def link_on_path(path: str, symlinks: Mapping[str, str]) -> str | None:
    """The first of ``path`` and its folders that is a symbolic link; None when none is.

    The one rule for what may be written: a path with a link anywhere on it is not, even
    when the link stays inside the root (the disk shell never writes through a link, and
    the same file under two names would make the tree lie).
    """
    parts = path.split("/")
    for end in range(1, len(parts) + 1):
        prefix = "/".join(parts[:end])
        if prefix in symlinks:
            return prefix
    return None


def unread_dir_of(path: str) -> str | None:
    """The folder of ``path`` that the disk shell does not read, if any (e.g. ``.venv``)."""
    parts = path.split("/")
    for end, part in enumerate(parts[:-1], start=1):
        if part in UNREAD_DIRS:
            return "/".join(parts[:end])
    return None


def review_file_of(path: str, own: Mapping[str, str]) -> str | None:
    """The review's own file (a key of ``own``: the session file, its review state, the
    state's ``.written`` mark and blob folder, root-relative) that normalised ``path`` is,
    lies inside, or is named after with a dot (the state's temporary and moved-aside
    copies); None when it is none of them. Compared casefolded, as ``.git`` is: on macOS
    and Windows two spellings that differ in case are one file."""
    folded = path.casefold()
    named_after = None
    for mine in own:
        key = mine.casefold()
        if folded == key or folded.startswith(key + "/"):
            return mine
        if folded.startswith(key + ".") and len(mine) > len(named_after or ""):
            named_after = mine  # the longest: s.md.review.json.written is the state's
    return named_after


def escapes_via_symlink(path: str, symlinks: Mapping[str, str], *,
                        root: str | None = None) -> bool:
    """Whether resolving ``path`` through ``symlinks`` leads outside the project root.

    ``symlinks`` maps each symlink in the tree (normalised path) to its target exactly as
    ``os.readlink`` gives it: a relative target is relative to the link's own directory,
    as the kernel reads it; an absolute one counts as inside only when under ``root``
    (the project root's absolute path). A chain longer than the kernel would follow
    counts as escaping.
    """
    pending = [p for p in path.split("/") if p not in ("", ".")]
    resolved: list[str] = []
    hops = 0
    while pending:
        part = pending.pop(0)
        if part == "..":
            if not resolved:
                return True
            resolved.pop()
            continue
        resolved.append(part)
        target = symlinks.get("/".join(resolved))
        if target is None:
            continue
        hops += 1
        if hops > _MAX_SYMLINK_HOPS:
            return True
        if target.startswith("/"):
            inside = _relative_to_root(target, root)
            if inside is None:
                return True
            target, resolved = inside, []
        else:
            resolved.pop()  # relative targets start from the link's directory
        pending = [p for p in target.split("/") if p not in ("", ".")] + pending
    return False
