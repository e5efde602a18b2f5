"""Terraform/HCL, PowerShell, Makefile, R, Julia, Haskell, Clojure, Erlang, Nim and OCaml files
whose text as read ends inside a multi-line string, comment, here-document or ``define``
are held (rule ``cut-off``, ``open_scripting.py``): before they were read, a sample reply
such a file showed (a Terraform heredoc, a PowerShell here-string, a Makefile ``define``)
closed the fence around the file; the sample's console block removed keep.txt and
src/app.c was written from the rest of the file, exit 0. And correct files, tricky ones,
are never held for it."""

from __future__ import annotations

from pathlib import Path

import pytest

from cutkit import COMBO, LISTED, assert_fenced_longer_whole, assert_held, assert_not_held
from reviewtui.core.protocol.open_strings import open_string, program_language

CASES = [
    # (case, path, fence info, the file's text: {s} is the sample)
    ("tf heredoc", "main.tf", "", 'resource "x" "y" {\n  user_data = <<EOF\n{s}EOF\n}\n'),
    ("tf indented heredoc", "modules/a/main.tf", "terraform",
     "locals {\n  help = <<-EOT\n    Usage:\n{s}    EOT\n}\n"),
    ("tf heredoc after a string", "vars.tf", "", 'variable "a" { default = "<<EOF" }\n'
     "output \"help\" {\n  value = <<HELP\n{s}HELP\n}\n"),
    ("tf heredoc after a template", "t.tf", "", 'x = "${jsonencode({a = "}"})}"\n'
     "y = <<EOF\n{s}EOF\n"),
    ("tf block comment", "c.tf", "hcl", "/*\n  Example:\n{s}*/\nlocals {}\n"),
    ("tfvars", "prod.tfvars", "", 'motd = <<-EOF\n{s}  EOF\n'),
    ("hcl", "config.hcl", "", "# it's\njob \"a\" {\n  template {\n    data = <<EOH\n{s}EOH\n"
     "  }\n}\n"),
    ("ps here-string", "tool.ps1", "powershell", '$help = @"\nUsage: $($args[0])\n{s}"@\n'),
    # (QA s50 helper-194: an indented '@ is the here-string's text; OCaml's quoted
    # extensions; a Haskell quasi-quote ending its line; a bash #! naming pwsh in a comment)
    ("ps indented footer", "tools/notes.ps1", "powershell", "$notes = @'\ncatalog:\n"
     "  '@types/node': 20.11.0\n\nDon't bump them by hand:\n{s}'@\nSet-Content a $notes\n"),
    ("ocaml quoted extension", "bin/usage.ml", "", "let usage name =\n  {%string|Usage: "
     "%{name}\n{s}|}\n"),
    ("haskell quasi-quote", "app/Help.hs", "", "import Text.RawString.QQ (r)\nhelpText = [r|\n"
     "Usage:\n{s}|]\n"),
    ("bash #! naming pwsh", "tools/run", "", "#!/usr/bin/env bash  # kept apart from the pwsh "
     "port\ncat <<EOF\n{s}EOF\n"),
    ("ps literal here-string", "m.psm1", "", "$help = @'\n{s}'@\nWrite-Output $help\n"),
    ("ps string", "a.ps1", "", "$x = \"it's `\"quoted`\" $(\"a\" + ')')\n{s}\"\n"),
    ("ps single", "b.ps1", "pwsh", "$x = 'it''s\n{s}'\n"),
    ("ps block comment", "c.ps1", "", "<#\n.SYNOPSIS\n  Shows help.\n{s}#>\nparam()\n"),
    ("ps nested here-strings", "d.ps1", "", '$a = @"\n$(\n@\'\ninner\n\'@\n)\n{s}"@\n'),
    ("ps #!", "tool", "", "#!/usr/bin/env pwsh\n$h = @'\n{s}'@\n"),
    ("make define", "Makefile", "", "define HELP\nUsage:\n{s}endef\nexport HELP\n"),
    ("make nested define", "build/rules.mk", "make",
     "define OUTER\n  define INNER\n  endef\n{s}endef\n"),
    ("make override define", "GNUmakefile", "",
     "all:\n\t@echo hi\noverride define MSG =\n{s}endef\n"),
    ("make.am", "Makefile.am", "", "export define SCRIPT\n{s}endef\n"),
    ("r string", "R/help.R", "", "help <- \"Usage:\n{s}\"\ncat(help)\n"),
    ("r single", "x.r", "r", "# it's\nhelp <- 'it\\'s\n{s}'\n"),
    ("r raw", "raw.R", "", 'x <- r"(\n"quoted"\n{s})"\n'),
    ("r raw dashes", "raw2.R", "", 'x <- r"-[\n]"\n{s}]-"\n'),
    ("julia docstring", "src/A.jl", "julia", 'x = \'"\'\n"""\n    f(x)\n{s}"""\nf(x) = 1\n'),
    ("julia string", "b.jl", "", "y = a'\ns = \"$(f(\")\"))\n{s}\"\n"),
    ("julia comment", "c.jl", "", "#= a #= b =#\n{s}=#\nx = 1\n"),
    ("julia raw", "d.jl", "", 'p = raw"C:\\\\"\ns = raw"""\n{s}"""\n'),
    ("haskell comment", "src/Main.hs", "", "{-# LANGUAGE X #-}\nf don' x' = '\"'\n{- a {- b -}\n"
     "{s}-}\nmain = pure ()\n"),
    ("haskell quasi", "Q.hs", "haskell", "{-# LANGUAGE QuasiQuotes #-}\nhelp = [r|\n{s}|]\n"),
    ("clojure", "src/a/core.clj", "", "(def c \\\") ; it's\n(def help \"\n{s}\")\n"),
    ("clojurescript", "a.cljs", "clojure", '(def r #"a\\"b")\n(def s "\n{s}")\n'),
    ("erlang", "src/a.erl", "", "-module(a).\nc() -> $\". % it's\nh() -> \"\n{s}\".\n"),
    ("erlang triple", "b.erl", "erlang", 'h() -> """\n  Usage:\n{s}  """.\n'),
    ("nim triple", "a.nim", "", "let c = '\"'\nlet help = \"\"\"\n{s}\"\"\"\n"),
    ("nim comment", "b.nim", "nim", "#[ a #[ b ]#\n{s}]#\necho 1\n"),
    ("nim doc comment", "c.nim", "", "##[ a #[ b\n{s}]##\necho 1\n"),
    ("ocaml comment", "src/a.ml", "", "let c = '\"'\n(* a (* b *)\n{s}*)\nlet x = 1\n"),
    ("ocaml string in comment", "b.mli", "ocaml", '(* "*)" is no close\n{s}*)\nval x : int\n'),
    ("ocaml string", "c.ml", "", 'let help = "Usage:\n{s}"\n'),
    ("ocaml quoted", "d.ml", "", "let help = {id|\n|} is text\n{s}|id}\n"),
]


@pytest.mark.parametrize(("case", "path", "info", "text"), CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("sample", [COMBO, LISTED], ids=["command", "listed"])
def test_a_sample_inside_a_string_holds_the_file_and_writes_nothing(
        tmp_path: Path, case: str, path: str, info: str, text: str, sample: str) -> None:
    assert_held(tmp_path, case, path, info, text, sample)


@pytest.mark.parametrize(("case", "path", "info", "text"), CASES, ids=[c[0] for c in CASES])
def test_the_same_file_fenced_longer_is_written_whole(
        case: str, path: str, info: str, text: str) -> None:
    assert_fenced_longer_whole(case, path, info, text)


WHOLE = [
    # HCL: a template's quotes and braces, %{ } directives, escapes $${ and %%{, << inside
    # a string, // and # in strings, heredocs of both forms, a template spanning lines
    ("main.tf", 'a = "${var.a["k"]}" # it\'s\nb = "%{ if var.x }\\"on\\"%{ else }off%{ endif }"\n'
     'c = "$${literal} %%{x} <<EOF"\nd = "http://x/*y" // it\'s\n'
     "e = <<EOF\n  x = \"\n  EOF\nf = <<-EOT\n    ${jsonencode({a = \"}\"})}\n  EOT\n"
     'g = "${join(",",\n  var.list)}"\nh = { for k, v in var.m : k => "${v}" }\n'),
    ("prod.tfvars", "tags = {\n  Name = \"it's\"\n}\n"),
    # PowerShell: quotes of every escape, a hole with quotes, a hashtable @{ } and array @( ),
    # a word holding #, <# in a string, a backtick before a quote in code, ' in a comment
    ("a.ps1", "$a = \"it's\"; $b = 'a''b'; $c = \"`\"quoted`\"\"; $d = \"$(\"x\")\"\n"
     "$e = \"say \"\"hi\"\"\"; $h = @{ a = 'x'; b = @(1, 2) }\nWrite-Host foo#bar\n"
     "$f = \"<# not a comment\" # it's\nWrite-Host `\"not a string\n"
     "$g = @\"\n  a \"@ in the text\n\"@\n<# a\n'b #>\n$i = '@\"'\n"),
    # (a pwsh script is no shell script: a backtick in its ".." opens no substitution)
    ("bin/tool", "#!/usr/bin/env pwsh\n$q = \"`\"quoted`\"\"; $s = \"`$HOME\"\n"),
    ("m.psd1", "@{\n  ModuleVersion = '1.0'\n  Description = 'It''s'\n}\n"),
    # Makefile: a recipe's define, endef with a comment, nested defines, a continued
    # comment's define, $(define) words
    ("Makefile", "all:\n\tdefine x\n\t@echo \"it's\n\ndefine A\n  define B\n  endef\nendef # done\n"
     "override define C =\nx\nendef\n# a note \\\ndefine D\nX = $(call define,y)\n"),
    ("rules.mk", "undefine X\nDEFINES := -DX\nendef\n"),
    # R: quotes, a # in a string, backquoted names, %in%, raw strings holding quotes
    ("a.R", "x <- \"# no comment\"; y <- 'it\\'s' # it's\n`my var` <- 1\nz <- a %in% b\n"
     "r <- r\"(it's \"quoted\")\"; q <- R\"--[a]\"]--\"\n"),
    # Julia: transposes, characters, holes holding quotes, nested comments, raw strings
    ("a.jl", "a = x'; b = '\"'; c = '\\''; d = A'*B'\ne = \"$(f(\")\"))\" # it's\n"
     "#= a #= b =# c =#\nf = raw\"C:\\\\\"; g = r\"\\\"\"; h = `echo \"$x\"`\n"
     "i = \"\"\"\n  \"quoted\"\n  \"\"\"\n"),
    # Haskell: primes in names, characters, pragmas, operators of dashes, gaps
    ("a.hs", "{-# LANGUAGE OverloadedStrings #-}\nmodule A where\nf don' x' = '\\'' : '\"' : []\n"
     "x --> y = y <-- x\n-- it's\ns = \"a\\\n   \\b\" ++ \"{- not -}\"\nt = 'a' : x'' : []\n"
     "g [x|x<-xs] = x\ndata P = P 'True\n"),
    # Clojure: characters, regexes, ; inside strings
    ("a.clj", "(def a \\\") (def b \\;) ; it's\n(re-find #\"a\\\"b;\" s)\n(def c \"x;y\")\n"),
    ("a.edn", "{:a \"it's\" :b #{1 2}}\n"),
    # Erlang: characters, % in strings and atoms
    ("a.erl", "-module(a).\nf() -> {$\", $%, $', \"100%\", 'it''s'}. % it's\n"
     "g() -> \"\"\"\n  a \"\"\" b\n  \"\"\".\n"),
    # Nim: characters, raw strings' "", runs of quotes, doc comments holding #[
    ("a.nim", "let a = '\"'\nlet b = r\"a\"\"b\"\nlet c = \"\"\"\"\"\"\"\"\"\"\n"
     "##[ doc #[ x\n]##\nlet d = \"\"\" \"\"\n\"\"\"\n#[ a #[ b ]# ]#\n{.error: \"x\".}\n"),
    # OCaml: characters, type variables, primes, a comment's strings and characters, quoted
    # strings of both forms, an apostrophe in a comment
    ("notes.ps1", "$notes = @'\ncatalog:\n  '@types/node': 20.11.0\n\nDon't bump them.\n'@\n"
     "Set-Content a $notes\n"),
    ("ext.ml", "(* {%foo|\"|} *)\nlet a = {%%m.ext x1|it's|x1}\n"),
    ("list.hs", "xs = [x|x<-ys, x /= 'a']\nys = [y | y <- zs]\n"),
    ("a.ml", "let c = '\"' and d = '\\'' and e = '\\n'\ntype ('a, 'b) t = 'a * 'b\n"
     "let x' = x'' + 1\n(* it's \"*)\" and '\"' and {|*)|} *)\nlet s = {|a \" b|} ^ {x|y|}|x}\n"
     "let m = \"a\\\"b\nc\"\n(* a (* b *) c *)\n"),
]


@pytest.mark.parametrize(("path", "text"), WHOLE, ids=[w[0] for w in WHOLE])
def test_a_correct_file_is_not_held(path: str, text: str) -> None:
    assert_not_held(path, text)


def test_the_languages_are_known_by_suffix_name_info_and_program() -> None:
    known = {
        ("main.tf", ""): "hcl", ("a.tfvars", ""): "hcl", ("a.hcl", ""): "hcl",
        (".terraformrc", ""): "hcl", ("x", "terraform"): "hcl", ("x", "hcl"): "hcl",
        ("x", "tf"): "hcl", ("a.ps1", ""): "powershell", ("a.psm1", ""): "powershell",
        ("a.psd1", ""): "powershell", ("x", "powershell"): "powershell",
        ("x", "pwsh"): "powershell", ("x", "ps1"): "powershell",
        ("Makefile", ""): "make", ("src/GNUmakefile", ""): "make", ("makefile", ""): "make",
        ("Makefile.am", ""): "make", ("a.mk", ""): "make", ("a.mak", ""): "make",
        ("x", "make"): "make", ("x", "makefile"): "make", ("a.R", ""): "r", ("a.r", ""): "r",
        ("x", "r"): "r", ("a.jl", ""): "julia", ("x", "julia"): "julia",
        ("a.hs", ""): "haskell", ("x", "haskell"): "haskell", ("a.clj", ""): "clojure",
        ("a.cljs", ""): "clojure", ("a.cljc", ""): "clojure", ("a.edn", ""): "clojure",
        ("x", "clojure"): "clojure", ("a.erl", ""): "erlang", ("a.hrl", ""): "erlang",
        ("x", "erlang"): "erlang", ("a.nim", ""): "nim", ("x", "nim"): "nim",
        ("a.ml", ""): "ocaml", ("a.mli", ""): "ocaml", ("x", "ocaml"): "ocaml",
    }
    for (path, info), language in known.items():
        assert program_language(path, info, ["x"]) == language, (path, info)
    for line, language in [("#!/usr/bin/env pwsh", "powershell"),
                           ("#!/usr/bin/make -f", "make"), ("#!/usr/bin/env Rscript", "r"),
                           ("#!/usr/bin/env julia", "julia"),
                           ("#!/usr/bin/env runghc", "haskell"),
                           ("#!/usr/bin/env escript", "erlang")]:
        assert program_language("tool", "", [line]) == language, line
    assert program_language("a.r", "", ["REBOL [Title: \"it's\"]"]) is None  # (Rebol's .r)
    assert program_language("a.tf.json", "", ["{"]) is None


LONG_LINES = [
    ("a.tf", 'x = "${"' * 12_500), ("a.tf", "<<" * 50_000), ("a.tf", "/*" * 50_000),
    ("a.ps1", "@\"$(" * 25_000), ("a.ps1", " <#" * 33_000), ("a.ps1", "`" * 100_000),
    ("Makefile", "define " * 14_000), ("a.R", 'r"-(' * 25_000), ("a.jl", "'\\" * 50_000),
    ("a.jl", 'a"""' * 25_000), ("a.jl", "#=" * 50_000), ("a.hs", "-" * 100_000 + ">"),
    ("a.hs", '"\\ ' * 33_000), ("a.clj", "\\" * 100_000), ("a.erl", "$" * 100_000),
    ("a.nim", '"' * 100_000), ("a.nim", "##[" * 33_000), ("a.nim", "x" * 100_000 + '"'),
    ("a.ml", '(*"' * 33_000), ("a.ml", "{|" * 50_000), ("a.ml", "'\\" * 50_000),
    ("a.ml", '"\\' * 50_000),
]


@pytest.mark.parametrize(("path", "line"), LONG_LINES,
                         ids=[f"{path}-{k}" for k, (path, _) in enumerate(LONG_LINES)])
def test_a_line_of_100_kb_is_read_in_linear_time(path: str, line: str) -> None:
    """Every look goes on from the last one: a line of 100 KB of openers is read at once
    (no clock is asserted: a quadratic reading would not finish), whatever it says."""
    assert open_string(path, "", [line, "x"]) in (None, 0)
