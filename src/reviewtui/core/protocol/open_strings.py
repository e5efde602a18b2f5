"""Where a program's text ends inside a string: a code sample in a docstring or a
here-document may have closed the fence around the file (``cut.py``, rule ``cut-off``).

A reply fences a full file; a sample the file itself shows (a docstring or heredoc
quoting a reply, its own ``` line) closes that fence early, and the rest of the file is
read as other blocks (QA s48 helper-165 #4, helper-167 #2, helper-168: src/app.py written
from the rest of tool.py, exit 0). The file as read then ends inside the string the
sample stood in: Python's tokenizer says so, and a shell script's or a Dockerfile's
here-document has no delimiter line after it; the other languages read (JavaScript and
TypeScript, Go, Rust, Java, Kotlin, Scala, Swift, C#, C and C++, CSS, TOML, Ruby) are read
by open_literals.py (and open_ruby.py), and Lua, Dart, Groovy, Elixir, SQL, HCL
(Terraform), PowerShell, R, Julia, Haskell, Clojure, Erlang and Nim, whose strings open
code again or have delimiters of their own, by open_scripting.py (and OCaml, whose
comments hold strings, and a Makefile's ``define``, which a file may end inside); PHP by
open_php.py and Perl by open_perl.py, where every string may span lines (a heredoc, a
nowdoc, a POD block, ``qq{..}``); each only for a file in one of them. A suffix other
languages share is read with care: ``.inc`` is PHP only when it opens with ``<?php``, and a
``.pl`` or ``.t`` file that reads as Prolog, TADS or text is no Perl (open_perl.py). Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reviewtui.core.protocol.open_shell import open_dockerfile_heredoc, open_heredoc
from reviewtui.core.protocol.open_xml import is_xml


def open_string(path: str, info: str, lines: Sequence[str]) -> int | None:
    """The index of the line opening a multi-line string, comment or here-document
    ``lines`` leave open, for a program in a language read here (known by ``path``'s
    suffix or name, else the fence's ``info``, else a ``#!`` line; Python and shell by
    any of them); None for any other file, or when every string closes."""
    opened = _open_python_string(path, info, lines)
    if opened is None:
        opened = open_heredoc(path, info, lines)
    if opened is None and (language := program_language(path, info, lines)) is not None:
        if language == "dockerfile":
            opened = open_dockerfile_heredoc(lines)
        elif language in _SCRIPTS:
            from reviewtui.core.protocol.open_scripting import open_script

            opened = open_script(language, lines, info)
        elif language == "make":
            from reviewtui.core.protocol.open_scripting import open_make

            opened = open_make(lines)
        elif language == "ocaml":
            from reviewtui.core.protocol.open_scripting import open_ocaml

            opened = open_ocaml(lines)
        elif language == "php":
            from reviewtui.core.protocol.open_php import open_php

            opened = open_php(lines)
            if opened is None:  # (its HTML: a <pre> showing a reply, QA s50 helper-191)
                from reviewtui.core.protocol.open_markup import open_markup

                opened = open_markup(lines, php=True, path=path)
        elif language == "csv":
            opened = open_csv_field(lines, tabs=path.lower().endswith(".tsv"))
        elif language == "markup":
            from reviewtui.core.protocol.open_markup import open_markup

            opened = open_markup(lines, path=path)
        elif language == "perl":
            from reviewtui.core.protocol.open_perl import open_perl

            opened = open_perl(lines, ambiguous=path.lower().endswith((".pl", ".t")))
        else:
            from reviewtui.core.protocol.open_literals import open_literal

            opened = open_literal(language, lines)
    return opened


# The languages open_literals.py and open_scripting.py read (and Dockerfiles, read here; PHP
# and Perl, by their modules; Makefiles and OCaml, by open_scripting.py's open_make and
# open_ocaml), by suffix, file name, the fence's info string, or the program a #! line
# names.
_BY_SUFFIX = {
    **dict.fromkeys((".js", ".mjs", ".cjs", ".jsx", ".tsx", ".es6"), "js"),
    **dict.fromkeys((".ts", ".mts", ".cts"), "ts"),
    ".go": "go", ".rs": "rust", ".java": "java", ".kt": "kotlin", ".kts": "kotlin",
    ".scala": "scala", ".sc": "scala", ".swift": "swift", ".cs": "csharp",
    **dict.fromkeys((".c", ".h", ".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx",
                     ".h++", ".ino", ".cu", ".cuh", ".mm", ".inl", ".ipp", ".tcc"), "c"),
    ".css": "css", ".scss": "scss", ".less": "scss", ".toml": "toml",
    **dict.fromkeys((".rb", ".rake", ".gemspec", ".ru", ".podspec"), "ruby"),
    ".dockerfile": "dockerfile", ".containerfile": "dockerfile",
    ".lua": "lua", ".dart": "dart", ".sql": "sql", ".ex": "elixir", ".exs": "elixir",
    **dict.fromkeys((".groovy", ".gradle", ".gvy", ".jenkinsfile"), "groovy"),
    # (QA s50 helper-190: Lua's rockspecs, Luau, nmap's scripts; a Groovy shell script,
    # Nextflow; PostgreSQL and DDL scripts)
    **dict.fromkeys((".rockspec", ".luau", ".nse"), "lua"),
    **dict.fromkeys((".gsh", ".nf"), "groovy"),
    **dict.fromkeys((".pgsql", ".psql", ".ddl", ".mysql"), "sql"),
    **dict.fromkeys((".php", ".phtml", ".php3", ".php4", ".php5", ".php7", ".php8",
                     ".phps"), "php"),
    **dict.fromkeys((".pl", ".pm", ".t", ".psgi"), "perl"),
    # (markup and templates: an element whose end tag is required left open; .md is not:
    # a document's samples are read by its fences, cut.py)
    **dict.fromkeys((".html", ".htm", ".xhtml", ".shtml", ".vue", ".svelte", ".astro",
                     ".xml", ".svg", ".xsl", ".xslt", ".jsp", ".aspx", ".cshtml", ".razor",
                     ".erb", ".ejs", ".hbs", ".handlebars", ".mustache", ".twig", ".liquid", ".j2",
                     ".jinja", ".jinja2", ".njk"), "markup"),
    **dict.fromkeys((".tf", ".tfvars", ".hcl"), "hcl"),
    **dict.fromkeys((".csv", ".tsv"), "csv"),
    **dict.fromkeys((".ps1", ".psm1", ".psd1"), "powershell"),
    **dict.fromkeys((".mk", ".mak"), "make"), ".r": "r", ".jl": "julia", ".hs": "haskell",
    **dict.fromkeys((".clj", ".cljs", ".cljc", ".edn"), "clojure"),
    **dict.fromkeys((".erl", ".hrl", ".escript"), "erlang"),
    **dict.fromkeys((".nim", ".nims"), "nim"), **dict.fromkeys((".ml", ".mli"), "ocaml"),
}
_BY_NAME = {
    **dict.fromkeys(("dockerfile", "containerfile"), "dockerfile"),
    **dict.fromkeys(("rakefile", "gemfile", "vagrantfile", "guardfile", "podfile",
                     "brewfile", "fastfile", "capfile"), "ruby"),
    "jenkinsfile": "groovy", ".luacheckrc": "lua", ".busted": "lua",
    **dict.fromkeys(("makefile", "gnumakefile"), "make"),
    **dict.fromkeys((".terraformrc", "terraform.rc"), "hcl"),
}
_BY_INFO = {
    **dict.fromkeys(("js", "javascript", "jsx", "tsx", "mjs", "cjs", "node", "es6",
                     "ecmascript", "javascriptreact", "typescriptreact"), "js"),
    **dict.fromkeys(("ts", "typescript", "mts", "cts"), "ts"),
    "go": "go", "golang": "go", "rust": "rust", "rs": "rust", "java": "java",
    "kotlin": "kotlin", "kt": "kotlin", "kts": "kotlin", "scala": "scala",
    "swift": "swift", "csharp": "csharp", "cs": "csharp", "c#": "csharp",
    **dict.fromkeys(("c", "cpp", "c++", "cxx", "cc", "h", "hpp", "objc", "objective-c",
                     "objectivec", "cuda"), "c"),
    "css": "css", "scss": "scss", "less": "scss", "toml": "toml", "ruby": "ruby",
    "rb": "ruby", "dockerfile": "dockerfile", "docker": "dockerfile",
    "containerfile": "dockerfile",
    "lua": "lua", "dart": "dart", "groovy": "groovy", "gradle": "groovy",
    "elixir": "elixir", "ex": "elixir", "exs": "elixir",
    **dict.fromkeys(("sql", "postgresql", "postgres", "plpgsql", "pgsql", "sqlite", "tsql",
                     "plsql", "mysql", "mariadb", "sqlite3", "t-sql", "mssql", "sqlserver",
                     "transact-sql", "psql", "oracle"), "sql"),
    "php": "php", "perl": "perl", "pl": "perl",
    **dict.fromkeys(("html", "htm", "xhtml", "xml", "svg", "vue", "svelte", "astro", "erb",
                     "jinja", "jinja2", "django", "handlebars", "hbs", "twig", "liquid",
                     "jsp", "razor", "cshtml"), "markup"),
    **dict.fromkeys(("terraform", "hcl", "tf", "tfvars"), "hcl"),
    **dict.fromkeys(("powershell", "ps1", "pwsh", "posh"), "powershell"),
    **dict.fromkeys(("make", "makefile", "mk", "mf"), "make"), "r": "r", "julia": "julia",
    "jl": "julia", "haskell": "haskell", "hs": "haskell", "clojure": "clojure",
    **dict.fromkeys(("clj", "cljs", "clojurescript", "edn"), "clojure"),
    "erlang": "erlang", "erl": "erlang", "nim": "nim", "ocaml": "ocaml",
}
_BY_PROGRAM = {"node": "js", "nodejs": "js", "deno": "js", "bun": "js", "ts-node": "ts",
               "tsx": "js", "ruby": "ruby", "kotlin": "kotlin", "swift": "swift",
               "lua": "lua", "luajit": "lua", "resty": "lua", "dart": "dart", "groovy": "groovy",
               "elixir": "elixir", "php": "php", "perl": "perl", "pwsh": "powershell",
               "powershell": "powershell", "make": "make", "Rscript": "r", "julia": "julia",
               "runghc": "haskell", "runhaskell": "haskell", "escript": "erlang",
               "ocaml": "ocaml"}
# (read by open_scripting.py)
_SCRIPTS = frozenset({"lua", "dart", "groovy", "elixir", "sql", "hcl", "powershell",
                      "erlang", "clojure", "r", "julia", "nim", "haskell"})


_PHP_MAYBE = frozenset({".inc", ".module", ".install", ".theme", ".engine", ".profile"})


def program_language(path: str, info: str, lines: Sequence[str]) -> str | None:
    """The language of open_literals.py or open_scripting.py (or ``dockerfile``, ``php``,
    ``perl``, ``make``, ``ocaml``) a file is in, or None."""
    name = path.rsplit("/", 1)[-1].lower()
    suffix = name[name.rfind("."):] if "." in name.lstrip(".") else ""
    first = re.split(r"[._-]", name)[0]
    found = _BY_SUFFIX.get(suffix) or _BY_NAME.get(name) or (
        "dockerfile" if first in ("dockerfile", "containerfile")
        else "groovy" if first == "jenkinsfile"  # (Jenkinsfile.prod)
        else "make" if first in ("makefile", "gnumakefile") else None)  # (Makefile.am)
    if found is None and is_xml(name, next((line for line in lines if line.strip()), "")):
        found = "markup"  # (an XML document, by its name: open_xml.py)
    if found is None:
        found = _BY_INFO.get(info)
    if found is None and lines and lines[0].startswith("#!"):
        words = lines[0][2:].split()
        program = words[0].rsplit("/", 1)[-1] if words else ""
        if program == "env" and len(words) > 1:  # (env -S node; env -u NAME node)
            rest, program = iter(words[1:]), ""
            for word in rest:
                if word in ("-u", "--unset", "-C", "--chdir"):
                    next(rest, "")  # (the option's value)
                elif not word.startswith("-") and "=" not in word:
                    program = word
                    break
        if program.startswith("perl6"):  # (Raku, not Perl)
            program = "raku"
        program = re.sub(r"[\d.]+$", "", program) or program  # (ruby3.2, node20)
        found = _BY_PROGRAM.get(program)
    if found is None and suffix in _PHP_MAYBE and lines and lines[0].lstrip().startswith(
            ("<?php", "<?PHP")):  # (.inc: PHP's include files, or Pascal's, C's...;
        found = "php"  # Drupal's .module, .install, .theme: QA s50 helper-191)
    if found == "r" and lines and lines[0].lstrip().upper().startswith("REBOL"):
        found = None  # (.r: Rebol's too, its header first)
    return found


_QUOTED_FIELD = re.compile(r'"(?:[^"]|"")*+"')


def open_csv_field(lines: Sequence[str], *, tabs: bool = False) -> int | None:
    """The index of the line opening a quoted field ``lines`` (a CSV or TSV file's) leave
    open, as RFC 4180 reads one: a field that starts with a quote runs to the quote that
    is not doubled, over lines; a quote inside a field is a character. The delimiter is
    the first line's most used of comma, semicolon and tab (a tab in a ``tabs`` file, a
    TSV). None when all close (s52: a sample in a quoted field closed the fence around
    the file, exit 0)."""
    first = lines[0] if lines else ""
    bare = _QUOTED_FIELD.sub("", first)  # (a header's quoted names may hold commas)
    delimiter = "\t" if tabs else max(",;\t", key=bare.count)
    text = "".join(line + "\n" for line in lines)
    plain = re.compile(f"[^{re.escape(delimiter)}\n]*")
    pos = 0
    while pos < len(text):
        if text[pos] == '"':
            field = _QUOTED_FIELD.match(text, pos)
            if field is None:
                return text.count("\n", 0, pos)
            pos = field.end()
        pos = plain.match(text, pos).end() + 1  # type: ignore[union-attr]
    return None


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
