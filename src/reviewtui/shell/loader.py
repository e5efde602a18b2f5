"""Find and read a session on disk: a session file, or a session directory."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from reviewtui.core.errors import SessionFormatError
from reviewtui.core.importers import detect_format, import_session
from reviewtui.core.model import Session

# What a session directory may hold, looked for in this order; the content decides the
# format (--format overrides), the name only breaks ties.
SESSION_NAMES = ("session.md", "session.json", "session.jsonl", "session.claude.jsonl",
                 "session.patch", "session.diff", ".aider.chat.history.md")


@dataclass(frozen=True, slots=True)
class LoadedSession:
    session: Session
    file: Path
    directory: Path | None  # set when a session directory was given
    base: Path | None  # the directory's base/: the files before turn 1
    format_note: str = ""  # the format asked for is not what the content looks like

    @property
    def config_file(self) -> Path | None:
        if self.directory is None:
            return None
        candidate = self.directory / "reviewtui.toml"
        return candidate if candidate.is_file() else None


def find_session_file(path: Path) -> tuple[Path, Path | None]:
    if path.is_dir():
        for name in SESSION_NAMES:
            if (path / name).is_file():
                return path / name, path
        raise SessionFormatError(
            f"no session file in this directory (looked for {', '.join(SESSION_NAMES)})",
            source=str(path), rule="session-dir")
    if not path.exists():
        raise SessionFormatError("no such file or directory", source=str(path), rule="missing")
    return path, None


def read_text(path: Path) -> str:
    """UTF-8 text (a BOM is dropped), or an error naming the line of the bad byte."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SessionFormatError(f"cannot read: {exc.strerror}", source=str(path),
                                 rule="unreadable") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise SessionFormatError(f"not UTF-8 text (byte {exc.start})", source=str(path),
                                 line=line, rule="encoding") from None


def load_session(path: str | Path, format: str | None = None,
                 root: str | Path | None = None) -> LoadedSession:
    """Read a session in any format (``format`` None or "auto": detected from the content).

    ``root`` is the project the session edits: absolute paths under it (Claude Code,
    apply_patch) are read as relative to it.
    """
    file, directory = find_session_file(Path(path))
    absolute = str(Path(root).absolute()) if root is not None else None
    text = read_text(file)
    session = import_session(text, str(file), format=format, root=absolute)
    base = directory / "base" if directory is not None and (directory / "base").is_dir() else None
    note = ""
    if format not in (None, "auto"):
        detected = detect_format(text, str(file))
        if detected != format:
            note = (f"{file}: read as --format {format}, but its content looks like "
                    f"{detected}: if paths or operations look wrong, try --format {detected} "
                    "(or auto)")
    return LoadedSession(session, file, directory, base, note)
