"""Where a program's text ends inside a string: a code sample in a docstring or a
here-document may have closed the fence around the file (``cut.py``, rule ``cut-off``).

A reply fences a full file; a sample the file itself shows (a docstring or heredoc
quoting a reply, its own ``` line) closes that fence early, and the rest of the file is
read as other blocks (QA s48 helper-165 #4, helper-167 #2, helper-168: src/app.py written
from the rest of tool.py, exit 0). The file as read then ends inside the string the
sample stood in: Python's tokenizer says so, and a shell script's or a Dockerfile's
here-document has no delimiter line after it; the other languages read (JavaScript and
TypeScript, Go, Rust, Java, Kotlin, Scala, Swift, C#, C and C++, CSS, TOML, Ruby) are read
by open_literals.py, only for a file in one of them. Pure.
"""

from __future__ import annotations

from collections.abc import Sequence


def open_string(path: str, info: str, lines: Sequence[str]) -> int | None:
    """The index of the line opening a multi-line string, comment or here-document
    ``lines`` leave open, for a program in a language read here (known by ``path``'s
    suffix or name, else the fence's ``info``, else a ``#!`` line; Python and shell by
    any of them); None for any other file, or when every string closes."""
    opened = _open_python_string(path, info, lines)
    if opened is None:
        opened = _open_heredoc(path, info, lines)
    if opened is None and (language := program_language(path, info, lines)) is not None:
        if language == "dockerfile":
            opened = _heredocs(lines, per_instruction=True)
        else:
            from reviewtui.core.protocol.open_literals import open_literal

            opened = open_literal(language, lines)
    return opened


# The languages open_literals.py reads (and Dockerfiles, read here), by suffix, file name,
# the fence's info string, or the program a #! line names.
_BY_SUFFIX = {
    **dict.fromkeys((".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".mts", ".cts"), "js"),
    ".go": "go", ".rs": "rust", ".java": "java", ".kt": "kotlin", ".kts": "kotlin",
    ".scala": "scala", ".sc": "scala", ".swift": "swift", ".cs": "csharp",
    **dict.fromkeys((".c", ".h", ".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx",
                     ".h++", ".ino", ".cu", ".cuh", ".mm"), "c"),
    ".css": "css", ".scss": "scss", ".less": "scss", ".toml": "toml",
    **dict.fromkeys((".rb", ".rake", ".gemspec", ".ru"), "ruby"),
    ".dockerfile": "dockerfile", ".containerfile": "dockerfile",
}
_BY_NAME = {
    **dict.fromkeys(("dockerfile", "containerfile"), "dockerfile"),
    **dict.fromkeys(("rakefile", "gemfile", "vagrantfile", "guardfile", "podfile",
                     "brewfile", "fastfile"), "ruby"),
}
_BY_INFO = {
    **dict.fromkeys(("js", "javascript", "jsx", "ts", "typescript", "tsx", "mjs", "cjs",
                     "node"), "js"),
    "go": "go", "golang": "go", "rust": "rust", "rs": "rust", "java": "java",
    "kotlin": "kotlin", "kt": "kotlin", "kts": "kotlin", "scala": "scala",
    "swift": "swift", "csharp": "csharp", "cs": "csharp", "c#": "csharp",
    **dict.fromkeys(("c", "cpp", "c++", "cxx", "cc", "h", "hpp", "objc", "objective-c",
                     "objectivec", "cuda"), "c"),
    "css": "css", "scss": "scss", "less": "scss", "toml": "toml", "ruby": "ruby",
    "rb": "ruby", "dockerfile": "dockerfile", "docker": "dockerfile",
    "containerfile": "dockerfile",
}
_BY_PROGRAM = {"node": "js", "nodejs": "js", "deno": "js", "bun": "js", "ts-node": "js",
               "tsx": "js", "ruby": "ruby"}


def program_language(path: str, info: str, lines: Sequence[str]) -> str | None:
    """The language of open_literals.py (or ``dockerfile``) a file is in, or None."""
    name = path.rsplit("/", 1)[-1].lower()
    suffix = name[name.rfind("."):] if "." in name.lstrip(".") else ""
    found = _BY_SUFFIX.get(suffix) or _BY_NAME.get(name) or (
        "dockerfile" if name.split(".")[0] in ("dockerfile", "containerfile") else None)
    if found is None:
        found = _BY_INFO.get(info)
    if found is None and lines and lines[0].startswith("#!"):
        words = lines[0][2:].split()
        program = words[0].rsplit("/", 1)[-1] if words else ""
        if program == "env" and len(words) > 1:
            program = next((w for w in words[1:] if not w.startswith("-")), "")
        found = _BY_PROGRAM.get(program)
    return found


_PYTHON = frozenset({"python", "py", "python3", "py3"})


def _open_python_string(path: str, info: str, lines: Sequence[str]) -> int | None:
    """For a Python file, the index of the line opening a string its content leaves open
    (a triple-quoted one: the text ends inside it), or None (QA s48 helper-165 #4,
    helper-167 #2: a docstring showing a sample reply closed a ```python fence at the
    sample's opening fence; the rest of the file was written over src/app.py, exit 0)."""
    if not (path.endswith((".py", ".pyi", ".pyw")) or info in _PYTHON
            or (lines and lines[0].startswith("#!") and "python" in lines[0])):
        return None  # (a script without a suffix named by its #! line too: helper-168)
    import io
    import tokenize

    text = "".join(line + "\n" for line in lines)
    try:
        for _ in tokenize.generate_tokens(io.StringIO(text).readline):
            pass
    except tokenize.TokenError as error:
        where = error.args[1] if len(error.args) > 1 else None
        if "multi-line string" in str(error.args[0]) and isinstance(where, tuple):
            return max(int(where[0]) - 1, 0)
    except (SyntaxError, ValueError):  # (an indentation error, a null byte: not ours)
        return None
    return None


_SHELL = frozenset({"sh", "bash", "zsh", "shell", "console", "ksh", "mksh", "bats"})
_SHELL_SUFFIXES = (".sh", ".bash", ".zsh", ".ksh", ".mksh", ".bats")
_SHELL_NAMES = frozenset({".bashrc", ".bash_profile", ".bash_aliases", ".bash_login",
                          ".bash_logout", ".zshrc", ".zprofile", ".zshenv", ".zlogin",
                          ".profile", ".kshrc", ".envrc"})


def _open_heredoc(path: str, info: str, lines: Sequence[str]) -> int | None:
    """For a shell script, the index of the line opening a here-document its text leaves
    open (no line is its delimiter after it), or None (QA s48 helper-168: a heredoc
    showing a sample reply closed a ```bash fence; src/app.py was written from the rest,
    exit 0)."""
    if not (path.endswith(_SHELL_SUFFIXES) or info in _SHELL
            or path.rsplit("/", 1)[-1] in _SHELL_NAMES
            or (lines and lines[0].startswith("#!") and "sh" in lines[0].rsplit("/", 1)[-1])):
        return None
    return _heredocs(lines, per_instruction=False)


def _heredocs(lines: Sequence[str], per_instruction: bool) -> int | None:
    """The index of the line opening a here-document ``lines`` leave open, or None. The
    script is read as the shell reads it: quotes (``$'..'`` too) and ``(( ))`` carried
    across lines, ``#`` comments at a word's start, every heredoc of a line, whose bodies
    follow it in order (helper-169, helper-170). In a Dockerfile (``per_instruction``)
    each instruction is read afresh: what one leaves open (an apostrophe in a LABEL's
    text) ends with it (a line not continued by a backslash)."""
    state = _Shell()
    k = 0
    while k < len(lines):
        if per_instruction and not (k and lines[k - 1].endswith("\\")):
            state = _Shell()
        opened = state.heredocs(lines[k])
        at, k = k, k + 1
        for strip, word in opened:
            end = next((n for n in range(k, len(lines))
                        if (lines[n].lstrip("\t") if strip else lines[n]).rstrip() == word),
                       None)
            if end is None:
                return at
            k = end + 1
    return None


class _Shell:
    """What a shell has open at the end of the lines read so far: a quoted string (single,
    double, ``$'..'``) or arithmetic."""

    def __init__(self) -> None:
        self.quote = ""  # "'", '"' or "$'"
        self.depth = 0

    def heredocs(self, line: str) -> list[tuple[bool, str]]:
        """The here-documents ``line`` opens, in order: (``<<-``, the delimiter)."""
        found: list[tuple[bool, str]] = []
        i, n = 0, len(line)
        while i < n:
            char = line[i]
            if self.quote == "'":
                self.quote = "" if char == "'" else self.quote
            elif char == "\\":
                i += 2
                continue
            elif self.quote:
                if char == self.quote[-1]:
                    self.quote = ""
            elif char in "'\"":
                self.quote = "$'" if char == "'" and line[i - 1:i] == "$" else char
            elif char == "#" and (i == 0 or line[i - 1] in " \t;|&()"):
                break  # (a comment, to the line's end)
            elif line.startswith("((", i) or (line.startswith("))", i) and self.depth):
                self.depth += 1 if char == "(" else -1
                i += 2
                continue
            elif line.startswith("<<<", i):  # (a here-string, whole: not "<" and "<<")
                i += 3
                continue
            elif line.startswith("<<", i) and not self.depth:
                i += 2
                strip = line[i:i + 1] == "-"
                i += strip
                while line[i:i + 1] in (" ", "\t"):
                    i += 1
                word, i = _shell_word(line, i)
                if word:
                    found.append((strip, word))
                continue
            i += 1
        return found


def _shell_word(line: str, i: int) -> tuple[str, int]:
    """The word at ``line[i]`` with its quotes and backslashes taken off (a heredoc's
    delimiter: ``"E"OF`` is EOF), and where it ends."""
    out: list[str] = []
    while i < len(line) and line[i] not in " \t;|&<>()":
        char = line[i]
        if char in "'\"":
            close = line.find(char, i + 1)
            close = len(line) if close < 0 else close
            out.append(line[i + 1:close])
            i = close + 1
        elif char == "\\":
            out.append(line[i + 1:i + 2])
            i += 2
        else:
            out.append(char)
            i += 1
    return "".join(out), i
