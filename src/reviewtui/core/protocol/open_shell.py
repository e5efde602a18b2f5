"""Where a shell script's text ends inside a here-document or a quoted string: a sample
reply the script shows (its own ``` line) may have closed the fence around it
(``open_strings``, ``cut.py``, rule ``cut-off``).

The script is read as bash's parser reads it (parse.y: read_token, parse_matched_pair,
parse_comsub), in one pass: quotes (``'..'``, ``".."``, ``$'..'``) and what nests in them
(``$( )`` with its own commands, here-documents and comments, ``${ }`` whose quotes nest
even inside ``".."``, backquotes read to the next unescaped one, ``$(( ))``, ``$[ ]``);
``((`` arithmetic or two subshells as bash decides; ``[[ ]]`` (a regex's parentheses, no
redirection); ``#`` at a token's start; ``case`` statements (a pattern's words are no
command's, its ``)`` closes no subshell); here-document bodies from the line after the
command's newline, in order, each up to the line that is exactly its delimiter (quotes
and backslashes taken off it; ``<<-`` strips tabs; an unquoted body's backslash-newline
joins lines first). QA s48 helper-173 found the former line-by-line scanner wrong 16
ways (src/app.py written from the script's tail, exit 0) and holding 4 correct scripts;
QA s86 helper-176 this reader wrong 5 ways (case patterns, a word ``in``, ``<(..)#``,
``<\\``-newline-``<``) and holding 2 (``in case`` in ``$( )``, many ``((..) )``). Pure;
linear in the text.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

_SHELL = frozenset({"sh", "bash", "zsh", "shell", "console", "ksh", "mksh", "bats"})
_SHELL_PROGRAMS = frozenset({"sh", "bash", "zsh", "ksh", "mksh", "pdksh", "dash", "ash",
                             "yash", "rbash", "csh", "tcsh", "bats", "busybox"})
# (nix-shell runs what its -i names: a Python or Node script is none, QA s50 helper-198)
# (the -i after nix-shell's name: not env's -i, nor the -i of nix-init)
_NIX_INTERPRETER = re.compile(r"nix-shell\b.*?\s-i\s+(\S+)")
_VALUE_OPTIONS = frozenset({"-u", "--unset", "-C", "--chdir", "-g", "--group", "--user",
                            "-I", "--with", "--spec"})
_SHELL_SUFFIXES = (".sh", ".bash", ".zsh", ".ksh", ".mksh", ".bats")
_SHELL_NAMES = frozenset({".bashrc", ".bash_profile", ".bash_aliases", ".bash_login",
                          ".bash_logout", ".zshrc", ".zprofile", ".zshenv", ".zlogin",
                          ".profile", ".kshrc", ".envrc"})


def is_shell(path: str, info: str, lines: Sequence[str]) -> bool:
    """A shell script: by suffix, a shell's start-up file name, the fence's info string or
    a ``#!`` line (a bats test file too: its ``@test`` blocks are shell)."""
    if (path.endswith(_SHELL_SUFFIXES) or info in _SHELL
            or path.rsplit("/", 1)[-1] in _SHELL_NAMES):
        return True
    if not (lines and lines[0].startswith("#!")):
        return False
    # The programs the #! line names (a wrapper's too: env, with-contenv, sudo, nix-shell):
    # a shell's name among them, versioned or not, and no PowerShell (QA s50 helper-194:
    # "pwsh" anywhere in the line's last word decided; helper-197: env's first word alone
    # missed with-contenv bash, env -u NAME bash, bash-5.2)
    words = lines[0][2:].split(" #", 1)[0].split()
    names = {re.sub(r"[-\d.]+$", "", word.rsplit("/", 1)[-1])
             for k, word in enumerate(words)
             if not word.startswith("-") and "=" not in word
             and not (k and words[k - 1] in _VALUE_OPTIONS)}  # (env -C /opt/sh, sudo -u ash)
    if "nix-shell" in names:  # (it runs what its "-i X" names, on its #! lines, else bash;
        # its -p packages are no programs: -p bash -i python3 is Python, QA s50 helper-201)
        given = [found.group(1) for line in lines[:8]
                 if line.startswith("#!") and "nix-shell" in line
                 and (found := _NIX_INTERPRETER.search(line)) is not None]
        names = {given[0].strip("'\"").rsplit("/", 1)[-1] if given else "bash"}
    return "pwsh" not in names and not names.isdisjoint(_SHELL_PROGRAMS)


def open_heredoc(path: str, info: str, lines: Sequence[str]) -> int | None:
    """For a shell script, the index of the line opening the here-document, quoted string
    or substitution its text ends inside (the innermost), or None (QA s48 helper-168, 173:
    a heredoc or a multi-line '..' showing a sample reply closed a ```bash fence; the
    script was written cut and src/app.py from the rest of it, exit 0)."""
    if not is_shell(path, info, lines):
        return None
    text = "".join(line + "\n" for line in lines)
    scan = _Scan(text)
    try:
        scan.commands(None)
    except _Open:
        at = scan.opened[-1] if scan.opened else 0
        return text.count("\n", 0, at)
    return None


def open_dockerfile_heredoc(lines: Sequence[str]) -> int | None:
    """For a Dockerfile, the index of the line whose ``<<`` opens a here-document (``RUN
    <<EOF``, ``COPY <<EOF /x``) with no delimiter line after it, or None. Each
    instruction holding ``<<`` (its lines joined by trailing backslashes) is read as the
    shell reads one command line, then its here-documents' bodies; the next instruction
    is read afresh: a quote an instruction leaves open (an apostrophe in a LABEL's text)
    ends with it, as Docker reads lines."""
    from bisect import bisect_right

    text = "".join(line + "\n" for line in lines)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    k = 0
    while k < len(lines):
        first = k
        while k < len(lines) - 1 and lines[k].endswith("\\"):
            k += 1
        k += 1
        if not any("<<" in line for line in lines[first:k]):
            continue
        scan = _Scan(text)
        scan.i = starts[first]
        try:
            scan.commands(None, one_line=True)
        except _Open:
            at = scan.opened[-1] if scan.opened else starts[first]
            if text.startswith("<<", at):
                return bisect_right(starts, at) - 1
            continue  # (a quote left open: it ends with its instruction)
        k = max(k, bisect_right(starts, scan.i - 1))
    return None


_Heredoc = tuple[bool, str, bool, int]  # <<-, delimiter, quoted, where its << is


class _Open(Exception):
    """The text ends inside what ``_Scan.opened`` holds (or nests too deep to read)."""


_DEPTH = 150  # nestings read; deeper is taken for open (held, never written wrong)
_WORD_BREAK = frozenset(" \t\n;&|()<>")
_PLAIN = re.compile(r"[^\s;&|()<>\\'\"`$@!?*+]+")
_RESERVED = frozenset({"if", "then", "else", "elif", "do", "while", "until", "!", "time",
                       "{", "}", "fi", "done", "esac"})
# A commands() frame: a subshell; a case before its word, before its in, at a pattern's
# start (esac ends it), in a pattern (to its ")"), in a clause's commands.
_SUB, _CASE_WORD, _CASE_IN, _CASE_PAT, _CASE_PATTERN, _CASE_BODY = range(6)


class _Scan:
    """bash's lexer over ``text``: ``i`` the position, ``opened`` the start offsets of the
    constructs open around it (a here-document's operator while its body is read)."""

    def __init__(self, text: str) -> None:
        self.s = text
        self.n = len(text)
        self.i = 0
        self.opened: list[int] = []
        self.retried = 0  # text read again after a (( that was two subshells: nested
        self.region = self.budget = 0  # ones inside the first's text share its budget
        self.carried: list[_Heredoc] = []  # left pending by a $( ) closed on their line

    def _enter(self, start: int) -> None:
        self.opened.append(start)
        if len(self.opened) > _DEPTH:
            raise _Open

    def _eof(self) -> None:
        if self.i >= self.n:
            raise _Open

    def commands(self, closer: str | None, *, one_line: bool = False) -> None:
        """Commands up to the ``)`` closing a ``$(`` (``closer``) or the end of the text
        (``one_line``: of the command line at ``i`` and its here-documents' bodies)."""
        s = self.s
        pending: list[_Heredoc] = []
        frames: list[int] = []  # the subshells and cases open around i (_SUB, _CASE_*)
        command = True  # at a command's first word
        cond = False  # inside [[ ]]
        while True:
            if self.carried:  # (bash reads their bodies after this line, as its own)
                pending += self.carried
                self.carried = []
            if self.i >= self.n:
                if closer is not None:
                    raise _Open
                return
            i = self.i
            char = s[i]
            top = frames[-1] if frames else _SUB
            if char == "\n":
                self.i += 1
                if pending:
                    self._bodies(pending)
                    pending = []
                if one_line and not frames:
                    return
                command = True
            elif char in " \t":
                self.i += 1
            elif char == "\\" and s.startswith("\n", i + 1):
                self.i += 2  # (a line continued)
            elif char == "#":
                end = s.find("\n", i)
                self.i = self.n if end < 0 else end
            elif cond and char in "()<>|&;":
                self.i += 1
            elif char == ")":
                self.i += 1
                command = True
                if top in (_CASE_PAT, _CASE_PATTERN):
                    frames[-1] = _CASE_BODY  # (a case pattern's end: no subshell's)
                elif frames and top == _SUB:
                    frames.pop()
                elif closer is not None and not frames:
                    self.carried = pending
                    return
            elif char in "<>":
                if self._angle(pending):
                    command = False
            elif char == "(":
                if top == _CASE_PAT:
                    self.i += 1  # (a pattern's optional opening parenthesis)
                elif not (s.startswith("((", i) and self._arithmetic()):
                    self.i = i + 1
                    frames.append(_SUB)
                    command = True
                else:
                    command = False
            elif char in ";&|":
                if top == _CASE_BODY and s.startswith((";;", ";&"), i):
                    frames[-1] = _CASE_PAT  # (;; ;& ;;& end a case clause)
                    self.i += 2 + s.startswith(";;&", i)
                else:
                    self.i += 1
                command = True
            else:
                self.word()
                word = s[i:self.i]
                if cond:
                    if word == "]]":
                        cond = command = False
                    elif word == "=~":
                        self._regex()
                    continue
                if _CASE_WORD <= top <= _CASE_PATTERN:  # (no command's words)
                    if top == _CASE_PAT and word == "esac":
                        frames.pop()
                    elif top != _CASE_IN or word == "in":  # (else bash: a syntax error)
                        frames[-1] = min(top + 1, _CASE_PATTERN)
                    continue
                if command and word == "[[":
                    cond = True
                    continue
                if command and word == "case":
                    frames.append(_CASE_WORD)
                elif command and word == "esac" and top == _CASE_BODY:
                    frames.pop()
                command = command and word in _RESERVED

    def _angle(self, pending: list[_Heredoc]) -> bool:
        """At ``<`` or ``>``: a redirection's operator, a here-document's (the word after
        it its delimiter) or a process substitution with the rest of the word it starts
        (``<(sort a)#x``: no comment; then True). Line continuations inside are joined
        (``<\\``, newline, ``<EOF``)."""
        s = self.s
        start = self.i
        at = [start]  # the operator's first three characters, line continuations out
        k = start + 1
        while len(at) < 3:
            while s.startswith("\\\n", k):
                k += 2
            if k >= self.n:
                break
            at.append(k)
            k += 1
        op = "".join(s[j] for j in at)
        if op.startswith("<<<"):
            self.i = at[2] + 1
        elif op.startswith("<<"):
            strip = op.startswith("<<-")
            self.i = at[1 + strip] + 1
            self._heredoc(pending, strip, start)
        elif op[1:2] == "(":
            self._enter(start)
            self.i = at[1] + 1
            self.commands(")")
            self.opened.pop()
            self.word()
            return True
        else:
            self.i += 1
        return False

    def _heredoc(self, pending: list[_Heredoc], strip: bool, start: int) -> None:
        s = self.s
        while s.startswith((" ", "\t"), self.i):
            self.i += 1
        at = self.i
        if at < self.n and s[at] not in _WORD_BREAK:
            self.word()
            word, quoted = _delimiter(s[at:self.i])
            pending.append((strip, word, quoted, start))

    def _bodies(self, pending: list[_Heredoc]) -> None:
        """Each pending here-document's body, up to its delimiter line, in order."""
        for strip, word, quoted, start in pending:
            self._enter(start)
            while True:
                self._eof()
                line = self._line(quoted)
                if (line.lstrip("\t") if strip else line) == word:
                    if not word and self.i >= self.n:
                        raise _Open  # (<<'' closed by the text's last, blank, line:
                    break            # the blank line before a sample's fence, cut there)
            self.opened.pop()

    def _line(self, quoted: bool) -> str:
        """The body line at ``self.i``; in an unquoted body a line ending in an unescaped
        backslash is joined with the next, the backslash-newline taken off (bash joins
        them before it compares the line with the delimiter)."""
        s = self.s
        parts: list[str] = []
        while True:
            end = s.index("\n", self.i)
            part = s[self.i:end]
            self.i = end + 1
            if quoted or (len(part) - len(part.rstrip("\\"))) % 2 == 0 or self.i >= self.n:
                parts.append(part)
                return "".join(parts)
            parts.append(part[:-1])

    def _arithmetic(self) -> bool:
        """At ``((``: read ``(( .. ))`` arithmetic, or, when the parenthesis balancing the
        second is not followed by ``)``, read nothing (two subshells: bash's own test)."""
        start = self.i
        carried = len(self.carried)
        self._enter(start)
        self.i += 2
        self.matched("(", ")")
        self.opened.pop()
        if self.s.startswith(")", self.i):
            self.i += 1
            return True
        if start >= self.region:  # (a (( that was two subshells, outside another's text)
            self.region = self.i
            self.budget = 8 * (self.i - start) + 2_000
            self.retried = 0
        self.retried += self.i - start
        if self.retried > self.budget:  # (nested failing (( read again and again)
            self.opened.append(start)
            raise _Open
        self.i = start
        del self.carried[carried:]
        return False

    def word(self) -> None:
        """A word: up to an unquoted blank or operator character."""
        s = self.s
        start = self.i
        while self.i < self.n:
            plain = _PLAIN.match(s, self.i)
            if plain:
                self.i = plain.end()
                continue
            char = s[self.i]
            if char == "(" and self.i > start and s[self.i - 1] in "@!?*+":
                self._group(self.i, "(", ")")  # (an extglob pattern's group)
            elif char in _WORD_BREAK:
                return
            else:
                self._quoted_or_dollar(char)

    def _regex(self) -> None:
        """The word after ``=~``: its parentheses group (blanks and ``|`` inside)."""
        s = self.s
        while s.startswith((" ", "\t"), self.i):
            self.i += 1
        while self.i < self.n and s[self.i] not in " \t\n":
            char = s[self.i]
            if char == "(":
                self._group(self.i, "(", ")")
            elif char in "\\'\"`$":
                self._quoted_or_dollar(char)
            else:
                self.i += 1

    def _quoted_or_dollar(self, char: str) -> None:
        if char == "\\":
            self.i += 2
        elif char == "'":
            self._single(self.i, escapes=False)
        elif char == '"':
            self._double()
        elif char == "`":
            self._backquote()
        elif char == "$":
            self._dollar(in_double=False)
        else:
            self.i += 1

    def _single(self, start: int, *, escapes: bool) -> None:
        """``'..'`` (``$'..'``: backslashes escape) from ``self.i`` at its quote."""
        self._enter(start)
        s = self.s
        self.i += 1
        while True:
            self._eof()
            char = s[self.i]
            if char == "'":
                self.i += 1
                break
            self.i += 2 if char == "\\" and escapes else 1
        self.opened.pop()

    def _double(self) -> None:
        self._enter(self.i)
        s = self.s
        self.i += 1
        while True:
            self._eof()
            char = s[self.i]
            if char == '"':
                self.i += 1
                break
            if char == "\\":
                self.i += 2
            elif char == "`":
                self._backquote()
            elif char == "$":
                self._dollar(in_double=True)
            else:
                self.i += 1
        self.opened.pop()

    def _backquote(self) -> None:
        """```..```: read to the next unescaped backquote (bash parses it later)."""
        self._enter(self.i)
        s = self.s
        self.i += 1
        while True:
            self._eof()
            char = s[self.i]
            if char == "`":
                self.i += 1
                break
            self.i += 2 if char == "\\" else 1
        self.opened.pop()

    def _dollar(self, *, in_double: bool) -> None:
        s = self.s
        start = self.i
        at = start + 1  # (past line continuations: "$\\", newline, "(" is a "$(")
        while s.startswith("\\\n", at):
            at += 2
        after = s[at:at + 1]
        if after == "$":
            self.i = at + 1  # ($$: not a $ before what follows)
        elif after == "(" and not s.startswith("((", at):
            self._enter(start)
            self.i = at + 1
            self.commands(")")
            self.opened.pop()
        elif after in ("(", "{", "["):
            self.i = at
            self._group(start, after, {"(": ")", "{": "}", "[": "]"}[after])
        elif after == "'" and not in_double:
            self.i = at
            self._single(start, escapes=True)
        else:
            self.i += 1  # ($" is read as " next)

    def _group(self, start: int, open_: str, close: str) -> None:
        """From ``self.i`` at ``open_``: to the ``close`` balancing it (parse_matched_pair:
        quotes and $-constructs nest; ``${`` counts only nested ``${``)."""
        self._enter(start)
        self.i += 1
        self.matched(open_, close)
        self.opened.pop()

    def matched(self, open_: str, close: str) -> None:
        s = self.s
        count = 1
        while True:
            self._eof()
            char = s[self.i]
            if char == "\\":
                self.i += 2
            elif char == close:
                self.i += 1
                count -= 1
                if not count:
                    return
            elif char == "$" and s[self.i + 1:self.i + 2] in ("(", "{", "[", "'", "$"):
                self._dollar(in_double=False)
            elif char == open_ and open_ != "{":
                self.i += 1
                count += 1
            elif char == "'":
                self._single(self.i, escapes=False)
            elif char == '"':
                self._double()
            elif char == "`":
                self._backquote()
            else:
                self.i += 1


def _delimiter(raw: str) -> tuple[str, bool]:
    """A here-document's delimiter word with its quotes and backslashes taken off (bash
    compares lines with that), and whether it was quoted (then the body is read as is)."""
    out: list[str] = []
    quoted = False
    k = 0
    while k < len(raw):
        char = raw[k]
        if char == "\\":
            if raw.startswith("\n", k + 1):
                k += 2  # (a line continued inside the word: not a quote)
                continue
            quoted = True
            out.append(raw[k + 1:k + 2])
            k += 2
        elif char == "$" and raw[k + 1:k + 2] in ("'", '"'):
            k += 1
        elif char in "'\"":
            quoted = True
            close = raw.find(char, k + 1)
            close = len(raw) if close < 0 else close
            out.append(raw[k + 1:close])
            k = close + 1
        else:
            out.append(char)
            k += 1
    return "".join(out), quoted
