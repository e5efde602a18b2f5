"""A program's file whose text as read ends inside a multi-line string, comment or
here-document is held (rule ``cut-off``), in every language ``open_strings.py`` and
``open_literals.py`` read: a sample reply the file shows inside it (a ``` line, a
``--- File:`` header) closed the fence around the file early, the rest of the file was
read as another file's block (src/app.py written from it) and the file was written cut,
exit 0 (QA: JavaScript and TypeScript template literals, Go and Rust raw strings, Java
and Kotlin text blocks, TOML multi-line strings, Dockerfile heredocs, a .ksh script in
a bare fence, C and JS block comments, Ruby heredocs). And the other direction: correct
files, tricky ones, are never held for it."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewtui.cli import main
from reviewtui.core.model.records import FullFile
from reviewtui.core.protocol.open_strings import open_string
from reviewtui.core.protocol.reply import parse_reply_text

# A sample reply a file shows: its ``` line closes the fence around the file; the blank
# line keeps the header from following that fence at once (which documents are held for).
SAMPLE = "```\n\n--- File: src/app.py ---\n```\n"
# ... or one that shows a command: a console block read from it removes keep.txt.
COMMAND = "```\n```console\n:rm keep.txt\n```\n```\n"

# PHP and Perl, whose strings all span lines (fenced without a language, a sample was
# read as other blocks before they were read: src/app.py written, :rm run, exit 0)
PHP_PERL = [
    # PHP: a heredoc, an indented nowdoc, "..." and '...' over lines, a block comment
    # after HTML holding quotes, a .inc file and a script named by its #! line
    ("tool.php", "php", "<?php\n$help = <<<EOT\nUsage: {$argv[0]}\n{s}EOT;\necho $help;\n"),
    ("src/Help.php", "", "<?php\nf(<<<'EOT'\n    Usage:\n{s}    EOT, 1);\n"),
    ("help.php", "php", "<?php\n$q = \"{$a[\"k\"]}\";\n$help = \"Usage:\n{s}\";\necho $help;\n"),
    ("page.phtml", "", "<p>\"It's\"</p>\n<?= $x ?>\n<?php /* Usage:\n{s}*/ echo 1; ?>\n"),
    ("lib/help.inc", "", "<?php\n$help = 'Usage:\n{s}';\n"),
    ("bin/tool-php", "", "#!/usr/bin/env php\n<?php\necho <<<EOT\n{s}EOT;\n"),
    # Perl: each kind of here-document, several on a line, POD before __END__, qq{..}
    # nesting, "..." over lines, a script named by its #! line
    ("tool.pl", "perl", "#!/usr/bin/perl\nuse strict;\nprint <<\"EOF\";\nUsage:\n{s}EOF\n"),
    ("lib/Tool.pm", "", "package Tool;\nmy $h = <<'EOF';\n{s}EOF\n1;\n"),
    ("lib/Bare.pm", "", "package Bare;\nmy $n = 1 << 2;\nprint STDERR <<EOF;\n{s}EOF\n1;\n"),
    ("lib/Fh.pm", "", "package Fh;\nprint {$out} <<EOF;\n{s}EOF\nprint $out <<\"EOT\";\nx\nEOT\n"),
    ("t/help.t", "", "use Test::More;\nmy $h = <<~EOT;\n  Usage:\n{s}  EOT\nok($h);\n"),
    ("lib/Two.pm", "pl", "print <<A, <<B;\na\nA\n{s}B\n"),
    ("lib/Doc.pm", "", "package Doc;\n\n=head1 USAGE\n\n{s}\n=cut\n\nsub f { 1 }\n1;\n"
     "__END__\n"),
    ("lib/Q.pm", "perl", "my $h = qq{\n  {nested}\n{s}};\nprint $h;\n"),
    ("bin/perl-tool", "", "#!/usr/bin/env perl\nmy $x = $y / 2; my $h = \"\n{s}\";\n"),
]

CASES = [
    # (path, fence info, the file's text: {s} is the sample)
    ("tool.js", "js", "const help = `\nA reply:\n\n{s}`;\nconsole.log(help);\n"),
    ("src/help.ts", "ts", "export const help = (name: string): string => `\n"
     "Hello ${name.replace(/`/g, '')}, ${`nested ${name}`}!\n{s}`;\n"),
    ("lib.mjs", "javascript", "/*\nUsage, a reply:\n{s}*/\nexport const x = 1;\n"),
    ("main.go", "go", "package main\n\nconst help = `\n{s}`\n\nfunc main() { println(help) }\n"),
    ("src/main.rs", "rust", "fn main() {\n    let s = r#\"\n{s}\"#;\n"
     "    println!(\"{}\", s);\n}\n"),
    ("src/lib.rs", "rust", "pub fn f<'a>(x: &'a str) -> char {\n    let _ = \"\n{s}\";\n"
     "    '\"'\n}\n"),
    ("src/Help.java", "java", "class Help {\n  static String S = \"\"\"\n{s}\"\"\";\n}\n"),
    ("Help.kt", "kotlin", "val help = \"\"\"\n{s}\"\"\".trimIndent()\n"),
    ("Help.scala", "scala", "object Help {\n  val s = \"\"\"\n{s}\"\"\"\n}\n"),
    ("Help.swift", "swift", "let help = \"\"\"\n{s}\"\"\"\nprint(help)\n"),
    ("Help.cs", "csharp", "class Help {\n  string s = @\"\n{s}\";\n}\n"),
    ("Raw.cs", "cs", "class Raw {\n  string s = \"\"\"\"\n{s}\"\"\"\";\n}\n"),
    ("src/x.c", "c", "/*\nExample reply:\n{s}*/\nint main(void) { return 0; }\n"),
    ("src/x.cpp", "cpp", "const char *s = R\"x(\n{s})x\";\nint main() { return 0; }\n"),
    ("style.css", "css", "/*\nA reply:\n{s}*/\nbody { color: red; }\n"),
    ("pyproject.toml", "toml", "[tool.x]\ndoc = \"\"\"\n{s}\"\"\"\nname = 'x'\n"),
    ("Cargo.toml", "toml", "[package]\ndoc = '''\n{s}'''\n"),
    ("Dockerfile", "dockerfile", "FROM alpine\nRUN <<EOF\ncat > /README.md <<'X'\n{s}X\n"
     "EOF\nCMD [\"sh\"]\n"),
    ("docker/app.dockerfile", "", "FROM alpine\nLABEL note=\"it's\"\n"
     "COPY <<EOF /README.md\n{s}EOF\n"),
    ("tool.ksh", "", "cat <<EOF\n{s}EOF\necho done\n"),
    ("tool.rb", "ruby", "HELP = <<~EOS\n  A reply:\n{s}EOS\nputs HELP\n"),
    ("Rakefile", "", "=begin\n{s}=end\ntask :default\n"),
    ("bin/tool", "", "#!/usr/bin/env node\nconsole.log(`\n{s}`);\n"),
    *PHP_PERL,
]


def _reply(path: str, info: str, text: str) -> str:
    return f"--- File: {path} ---\n```{info}\n{text}```\n\n### Changed files:\n- {path}\n"


@pytest.mark.parametrize(("path", "info", "text"), CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("sample", [SAMPLE, COMMAND], ids=["header", "command"])
def test_a_sample_inside_a_string_holds_the_file_and_writes_nothing(
        tmp_path: Path, path: str, info: str, text: str, sample: str) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "keep.txt").write_text("keep\n")
    session = tmp_path / "s.md"
    session.write_text("## Turn 1\n> x\n\n" + _reply(path, info, text.replace("{s}", sample)))
    assert main(["apply", str(session), "--root", str(root), "--yes"]) == 1
    assert sorted(p.name for p in root.iterdir()) == ["keep.txt"]  # nothing else written
    assert (root / "keep.txt").read_text() == "keep\n"  # nothing run
    parsed = parse_reply_text(_reply(path, info, text.replace("{s}", sample)))
    assert parsed.ops == ()
    assert parsed.problems[0].rule == "cut-off"
    if sample == SAMPLE:  # (the command's: a bare fence left over after it may say first)
        assert "ends inside a string" in parsed.problems[0].message


@pytest.mark.parametrize(("path", "info", "text"), CASES, ids=[c[0] for c in CASES])
def test_the_same_file_fenced_longer_is_written_whole(
        path: str, info: str, text: str) -> None:
    """Fenced with a fence longer than any in it, the file whose string shows a sample (one
    with no header: a file holding one is held whatever its fence) is read whole."""
    content = text.replace("{s}", "```\nmake test\n```\n")
    reply = _reply(path, info, content).replace("```" + info + "\n", "````" + info + "\n", 1)
    reply = reply.replace("```\n\n### Changed", "````\n\n### Changed")
    parsed = parse_reply_text(reply)
    assert parsed.problems == ()
    (op,) = parsed.ops
    assert isinstance(op, FullFile)
    assert op.content == content



@pytest.mark.parametrize(("path", "info", "text"), PHP_PERL, ids=[c[0] for c in PHP_PERL])
@pytest.mark.parametrize("sample", [SAMPLE, "```\n\n```console\n:rm keep.txt\n```\n\n"
                                    "--- File: src/app.c ---\n```\n"], ids=["header", "combo"])
def test_php_and_perl_in_a_bare_fence_are_read(
        tmp_path: Path, path: str, info: str, text: str, sample: str) -> None:
    """Fenced without a language (known by the suffix or the #! line), a PHP or Perl file
    whose string shows a sample reply: the other rules let src/app.py be written, or the
    sample's :rm run and src/app.c written, exit 0, before these languages were read."""
    root = tmp_path / "root"
    root.mkdir()
    (root / "keep.txt").write_text("keep\n")
    session = tmp_path / "s.md"
    session.write_text("## Turn 1\n> x\n\n" + _reply(path, "", text.replace("{s}", sample)))
    assert main(["apply", str(session), "--root", str(root), "--yes"]) == 1
    assert sorted(p.name for p in root.iterdir()) == ["keep.txt"]
    assert (root / "keep.txt").read_text() == "keep\n"
    lines = text.split("{s}")[0].splitlines()  # (the file as the sample's fence cut it)
    assert open_string(path, "", lines) is not None

WHOLE = [
    # JavaScript: a regex holding a backtick or a quote, division, nested templates,
    # // and /* inside strings and regexes, JSX text with an apostrophe
    ("a.js", "const t = s.replace(/`/g, '').split(/'/);\nconst r = a / b / c;\n"
     "const u = `x ${`y ${z}`} ${ {a: 1}.a }`;\nconst v = '/*'; // don't /*\n"
     "const w = \"http://x/*\"; const q = /\\/*/.test(s);\nreturn <p>It's</p>;\n"),
    ("a.ts", "type T = `p-${string}`;\nif (x) { y = x / 2; } /* a\n b */\n"),
    # Go: a rune holding a backtick, raw strings closed, a string holding /*
    ("a.go", "var r = '`'\nvar s = `a\nb`\nvar c = \"/*\" // `x\n/* `*/\n"),
    # Rust: lifetimes, char literals '"' and '\'', nested comments, r##"..."#..."##
    ("a.rs", "fn f<'a>(x: &'a str) -> char { '\"' }\nconst Q: char = '\\'';\n"
     "/* a /* b */ c */\nconst R: &str = r##\"x\"#y\"##;\nconst S: &str = \"a\nb\";\n"
     "const B: &[u8] = br\"x\";\nconst U: char = '\\u{1F600}';\nlet w = bar\"x\";\n"),
    ("A.java", "class A { String s = \"\"\"\n  a \\\"\"\" b\n  \"\"\"; char c = '\"'; }\n"),
    ("A.kt", "val s = \"\"\"a\"\"\"\"\nfun `it's fine`() {}\n/* a /* b */ */\n"),
    ("A.cs", "var s = @\"a \"\"q\"\" \nb\"; var t = \"\"\"\nx \"\" y\n\"\"\";\nchar c = '\"';\n"),
    ("a.cpp", "int n = 1'000'000;\nconst char *s = R\"d(a )\" b)d\";\n// /* not a comment\n"
     "const char *t = u8R\"(x)\"; puts(DIR_SEPARATOR\"x(\");\n"),
    ("a.css", "a { background: url(http://x/y.png); content: \"/*\"; }\n"),
    ("a.toml", "a = \"\"\"x\"\"\"\"\nb = 'c:\\path\\'\nc = '''y''' # \"\"\"\nd = \"#\"\n"),
    ("Dockerfile", "FROM alpine\nLABEL who=\"O'Brien\"\nRUN <<EOF\necho hi\nEOF\n"
     "RUN echo $((1 << 2)) && cat <<-X\n\tx\n\tX\n"),
    ("a.rb", "x = a << b\nclass << self\nend\ny = c<<D\ns = <<~EOS\n  t\nEOS\n"
     "=begin\nc\n=end\nputs \"<<EOF\" # <<EOF\n"),
    # PHP: ?> ends a // comment (HTML after it: its quotes are text), "<<<" and "/*" in
    # strings, # comments and #[..] attributes, a heredoc's marker in its text and an
    # indented close, {$..} holes holding quotes, no ?> at the end, __halt_compiler
    ("a.php", "<?php // see ?> \"quoted\n<p>It's</p>\n<?php echo 1; # it's ?>\n<b>'</b>\n"
     "<?php\n$s = \"<<<EOT /*\"; $t = '/*'; // it's\n#[Route('/x')]\nfunction f() {}\n"
     "$x = <<<EOT\n  EOTX is no end\n  a \"{$a['b']}\n  EOT;\n$y = \"${a} {$b->c(\"d\")}\";\n"
     "$z = `ls '$d'`;\n"),
    ("b.php", "<p>\"it's\" /* not PHP</p>\n<?= $x ?>\n<?php\necho 1;\n__halt_compiler();\n"
     "\"'/* data\n"),
    ("c.phtml", "<?xml version=\"1.0\"?>\n<a href='x'>it's</a>\n"),
    # Perl: division, shifts, a regex after split and =~, s{a}{b}g over lines, y///,
    # tr, q/s/y as hash keys, a file test, a method and a sub's name, $#a, $' and $",
    # //=, __END__ and __DATA__ before anything, = opening a continued line, POD closed,
    # a postfix ++ before a division
    ("a.pm", "my $x = $y / 2 / 3; my $z = 1 << 2; $m = $x<<EOF;\nmy @p = split /'/, $s;\n"
     "$s =~ s{a}{b}g; $s =~ s{a}\n  {b}gx; $t =~ y///; $t =~ tr/a-z/A-Z/; s,a,b,;\n"
     "$h{q} = $h{s} + $h{y} + $o->s('x'); print -s $file; sub y { 1 }\n"
     "my %o = (q => 1, s => 2, y => 3); print $#a, $', $\"; $v //= 'w';\n"
     "my $w = 1\n  + 2\n=head1 not POD\n;\n"
     "*LIST_SEPARATOR = *\"; my $r = /a\n  b/x; $i++ / 2; print 'a/b';\n"
     "=pod\n\nit's\n\n=cut\n\nprint \"x\";\n1;\n__END__\n\"it's\n=head1 x\n"),
    ("b.pm", "use constant MASK => 1;\nmy $v = MASK<<BITS;\nformat STDOUT =\n@<<< it's\n$x\n.\n"
     "print q{it's {nested}}, qw(don't);\n__DATA__\n<<EOF \"\n"),
    ("a.pl", "/* Prolog, not Perl */\n:- module(a, []).\n% don't\nfoo(X) :- bar(X, 'it''s').\n"),
    ("a.t", "#charset \"utf-8\"\n#include <adv3.h>\nx: Thing 'it' \"<<'ERROR'>>\";\n"),
]


@pytest.mark.parametrize(("path", "text"), WHOLE, ids=[w[0] for w in WHOLE])
def test_a_correct_file_is_not_held(path: str, text: str) -> None:
    assert open_string(path, "", text.splitlines()) is None
    fence = "````"
    reply = f"--- File: {path} ---\n{fence}\n{text}{fence}\n\n### Changed files:\n- {path}\n"
    assert [op.path for op in parse_reply_text(reply).ops] == [path]  # type: ignore[union-attr]


def test_a_language_is_read_only_for_its_files() -> None:
    """A template literal left open in a Markdown file or a Python file is no JS string."""
    lines = ["const s = `", "text"]
    assert open_string("notes.md", "md", lines) is None
    assert open_string("a.py", "python", ["s = '`'", "x = 1"]) is None
    assert open_string("a.js", "", lines) == 0
    assert open_string("a.txt", "js", lines) == 0  # a fence naming the language


# QA85's shapes (helper-175): a reading that misses the string the sample stands in (a
# quote or // in JSX text, division read as a regex, a C++ digit separator read as a
# quote, url(http://..) as a comment, a Dockerfile's name not known): the command ran,
# src/app.c was written from the rest of the file and the file cut, exit 0.
COMBO = "```\n\n```console\n:rm keep.txt\n```\n\n--- File: src/app.c ---\n```\n"
QA85 = [
    # (QA's repro, path, fence info, fence, the file's text: {s} is the sample)
    ("01", "a.jsx", "jsx", "```", "export const Help = () => (\n  <pre>\n{s}  </pre>\n);\n"),
    ("02", "a.jsx", "jsx", "```", "export const P = () => <p>Don't panic</p>; /*\n{s}*/\n"),
    ("03", "a.jsx", "jsx", "```",
     "export const P = () => <p>See https://example.com</p>; /*\n{s}*/\n"),
    ("04", "a.jsx", "jsx", "```",
     "export const P = () => <p><b>Note</b>: a/b</p>; /*\n{s}*/\n"),
    ("04b", "a.js", "", "```", "export const P = () => (\n  <div className={a > b ? 'x' : \"y\"}"
     "\n    onClick={() => { f(); }}>\n    {/* it's */} Don't {x} <br/> <>a</>\n"
     "  </div>); /*\n{s}*/\n"),
    ("05", "a.ts", "ts", "```",
     "const m = new Map<string, number>();\nconst half = m.get(\"a\")! / 2; /* a/b\n{s}*/\n"),
    ("06", "a.js", "js", "~~~",
     "let i = 0;\nconst n = i++ / 2, help = `Usage: a/b\n{s}`;\nconsole.log(n, help);\n"),
    ("07", "a.js", "js", "~~~",
     "let t;\nif (true) /\"/.test('\"') && (t = `\n{s}`);\nconsole.log(t);\n"),
    ("08", "a.cpp", "cpp", "```",
     "int n = 1'000; const char *s = R\"x(\n{s})x\";\nint main() { return n + (s != 0); }\n"),
    ("09", "a.cc", "", "```",
     "unsigned m = 0xFF'FF; /* mask\n{s}*/\nint main() { return m == 0; }\n"),
    # a hole's quote closed the string (Kotlin, Scala, C#); Swift's raw strings and regexes
    ("10", "A.kt", "kotlin", "```", 'val q = "${\'"\'}"; val help = """\n{s}"""\n'),
    ("11", "A.scala", "scala", "```",
     'object A {\n  val q = s"${\'"\'}"; val help = """\n{s}"""\n}\n'),
    ("12", "A.cs", "cs", "```", 'class A { string q = $"{\'"\'}"; string h = @"\n{s}"; }\n'),
    ("13", "A.cs", "cs", "```", 'class A { static string dir = "d"; string s = $@"Path: '
     '{System.IO.Path.Combine(dir, "x")}\n{s}"; }\n'),
    ("14", "A.swift", "swift", "```", 'let sep = #"\\"#; let help = """\n{s}"""\n'),
    ("16", "A.swift", "swift", "```",
     'let help = #"""\n  Write """ to close a string.\n{s}"""#\n'),
    ("18", "A.swift", "swift", "```", 'let re = /"/; let help = """\n{s}"""\n'),
    ("19", "a.scss", "scss", "```",
     ".a { background: url(http://example.com/y.png); } /* Usage:\n{s}*/\n"),
    ("20", "a.less", "less", "```",
     ".a { background: url(//cdn.example.com/y.png); } /* Usage:\n{s}*/\n"),
    # Ruby: strings, %-literals and regexes spanning lines; what hid a here-document
    ("21", "a.rb", "ruby", "```", 'HELP = "\n{s}"\nputs HELP\n'),
    ("22", "a.rb", "ruby", "```", "HELP = %q{\n{s}}\nputs HELP\n"),
    ("23", "a.rb", "ruby", "```", "RE = %r{\n{s}}x\n"),
    ("24", "a.rb", "ruby", "```", "HELP = '\n{s}'\nputs HELP\n"),
    ("25", "a.rb", "ruby", "```", "s = 'x'\nx = s.gsub(/'/, '') + <<~EOS\n  a\n{s}EOS\nputs x\n"),
    ("26", "a.rb", "ruby", "```", "s = 'x'\nx = s.sub(/#.*/, '') + <<~EOS\n  a\n{s}EOS\nputs x\n"),
    ("27", "a.rb", "ruby", "```", "W = %w[don't] + [<<~EOS]\n  a\n{s}EOS\np W\n"),
    ("28", "a.rb", "ruby", "```", "c = ?#; h = <<~EOS\n  a\n{s}EOS\nputs c, h\n"),
    ("29", "a.rb", "ruby", "```", "x = \"#{'\"'}\" + <<~EOS\n  a\n{s}EOS\nputs x\n"),
    ("30", "a.rb", "ruby", "```", "x = %Q(it's) + <<~EOS\n  a\n{s}EOS\nputs x\n"),
    ("31", "a.rb", "ruby", "```", "x = <<~'END-OF-HELP'\n  a\n{s}END-OF-HELP\nputs x\n"),
    ("32", "a.rb", "ruby", "```", 'x = <<~"END HELP"\n  a\n{s}END HELP\nputs x\n'),
    ("33", "a.rb", "ruby", "```", "x = <<EOS\n  EOS is the end marker\n  EOS\n{s}EOS\nputs x\n"),
    ("34", "a.rb", "ruby", "```", 'x = "a\nb" + <<~EOS\n  a\n{s}EOS\nputs x\n'),
    ("35", "a.rb", "ruby", "```", "=begin\n=endless notes\n{s}=end\nputs 1\n"),
    ("ruby-cmd", "Rakefile", "", "```", "task :x do\n  module_eval %{\n{s}}\nend\n"),
    ("36", "Dockerfile-dev", "", "```", "FROM alpine\nRUN <<EOF\n{s}EOF\n"),
    ("37", "Dockerfile_prod", "", "```", "FROM alpine\nRUN <<EOF\n{s}EOF\n"),
]


@pytest.mark.parametrize(("qa", "path", "info", "fence", "text"), QA85, ids=[c[0] for c in QA85])
def test_qa85_a_misread_line_does_not_hide_the_string(
        tmp_path: Path, qa: str, path: str, info: str, fence: str, text: str) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "keep.txt").write_text("keep\n")
    content = text.replace("{s}", COMBO.replace("```", fence))
    session = tmp_path / "s.md"
    session.write_text(f"## Turn 1\n> x\n\n--- File: {path} ---\n{fence}{info}\n{content}"
                       f"{fence}\n\n### Changed files:\n- {path}\n")
    assert main(["apply", str(session), "--root", str(root), "--yes"]) == 1
    assert sorted(p.name for p in root.iterdir()) == ["keep.txt"]
    assert (root / "keep.txt").read_text() == "keep\n"
    assert open_string(path, info, content.split("\n```\n", 1)[0].split("\n~~~\n", 1)[0]
                       .splitlines()) is not None


WHOLE_QA85 = [
    # regexes and division QA85 found (H04: a regex after if (..)), JSX in .js and .tsx,
    # TypeScript's generics (no JSX in .ts), C++ digit separators, unquoted CSS urls (H13)
    ("h04.js", "if (s) /`/.test(s) && f();\nwhile (x) /'/.exec(y);\nconst a = (b) / 2 / `c`;\n"
     "const d = f(x) / 2; const e = `x/y`;\nconst g = i++ / 2 + '/'; const h = k! / 2;\n"),
    ("a.jsx", "const A = () => <a href=\"/x\" title='y'>{`t`}</a>;\nconst B = x < y && z > w;"
     "\nconst C = a << b; const D = <>{c}</>;\nconst E = <p>{/* c */}</p>; /* a */\n"),
    ("g.ts", "const f = <T>(x: T): T => x;\nconst g = <T,>(x: T) => `${x}`;\nlet y = <any>z;\n"),
    ("g.tsx", "const f = <T,>(x: T) => x;\nexport const P = ({a}: {a: string}) => <b>{a}</b>;\n"),
    ("d.cpp", "int a = 0b1010'1010; long b = 1'000'000'000L; char c = '\\'';\n"
     "auto d = u8'x'; const char *e = \"1'0\"; float f = 1'0.5e1'0f;\n"),
    ("b.rb", "x = 'a\nb' + \"c\n#{'\"'} #{%w[don't].size}\"\ny = %q{a {b}\n}; z = %r{/\n}x\n"
     "c = ?#; d = ?'; e = x.empty? ? 1 : 2\nw = a / b / c; v = s.gsub /'/, ''\n"
     "h = <<~'A-B' + <<-\"C D\"\n  '\nA-B\n  \"\n  C D\n$stderr.puts $'\n__END__\n\"\n"),
    ("h.kt", 'val a = "${\'"\'} ${"x"} $b {"; val c = "${m["k"]}"; val d = \'"\'\n'),
    ("h.scala", 's"${\'"\'}" + f"$x%d {" + raw"\\d"\n'),
    ("h.cs", 'var a = $"{\'"\'} {{ }} {x:N2}"; var b = $@"a ""{f("x")}""\nb";\n'),
    ("h07.swift", 'let a = #"\\"#; let b = ##"a"#b"##\nlet c = #"""\n  """\n  """#\n'
     'let d = x / y / z; let r = /"/\n'),
    ("h05.c", "// path C:\\temp\\\n   matches src/*.c\nint main(void) { return 0; }\n"),
    ("h08.rb", "mask = 1 <<SHIFT\nx = 0x1F <<BITS\n"),
    ("h13.css", "a { background: url(/img/*.png); }\nb { background: url( http://x/y ); }\n"
     "c { background: url(\"/*\"); } d { background: my-url(x); }\n"),
]


@pytest.mark.parametrize(("path", "text"), WHOLE_QA85, ids=[w[0] for w in WHOLE_QA85])
def test_qa85_a_correct_file_is_not_held(path: str, text: str) -> None:
    test_a_correct_file_is_not_held(path, text)


REWORK_QA88 = [
    # (QA s49 helper-180, new in the rework 87947ac: the file as read ends inside a string
    # these lines open, and the reading said it closed: a sample's :rm ran, exit 0)
    ("W01 return!/re/", "a.js", ['function q(s){return!/"/.test(s)};const help = `', "Usage:"]),
    ("W06 else!/re/", "a.js", ['if (a) x(); else!/"/.test(s) && (t = `', "Usage:"]),
    ("W02 a regex of 600 characters", "a.js",
     ["const r = /" + "a" * 300 + "`" + "b" * 300 + "/; const t = `", "Usage:"]),
    ("W05 a method named if", "a.js",
     ["const o = { if: (a) => a * 4 };", "const y = o.if(3) / 2; const h = `a/` + `", "Usage:"]),
    ("W09 url() holding a quoted )", "a.scss",
     ['$x: "/img";', 'a { b: url($x + ")"); } /* example reply:', "Usage:"]),
]


@pytest.mark.parametrize(("qa", "path", "lines"), REWORK_QA88, ids=[c[0] for c in REWORK_QA88])
def test_qa88_the_string_a_misread_hid_is_said_open(qa: str, path: str, lines: list[str]) -> None:
    assert open_string(path, "", lines) is not None, qa


def test_qa88_a_line_of_failed_regex_looks_is_held_not_read_for_ever() -> None:
    """``x=/a[`` repeated (invalid JS): every / looked to the line's end for the regex's
    close (quadratic, QA s49 helper-175 S02); past four times the text's size in such
    looks (and 100,000 characters) the file is held."""
    lines = ["x=/a[" * 40_000]
    assert open_string("a.js", "", lines) == 0
    assert open_string("a.js", "", ["const r = a / b / c; // x=/a["]) is None


RUBY_QA88 = [
    # (QA s49 helper-180: the new Ruby reading took a / for a regex's start, which ran on
    # across lines and swallowed the quote opening a multi-line string: W03, W04, W08)
    ("W03 a block's end, then division", ["n = sizes.sum { |s| s } / sizes.size",
                                          'HELP = "Usage: tool ~/.toolrc', "sample"]),
    ("W04 the symbol :/", ["r = [8, 2].inject(:/)", 'HELP = "Usage: a/b', "sample"]),
    ("W08 a variable divided", ["h = @w /2", 'HELP = "Usage: a/b', "sample"]),
]


@pytest.mark.parametrize(("qa", "lines"), RUBY_QA88, ids=[c[0] for c in RUBY_QA88])
def test_qa88_ruby_division_is_no_regex(qa: str, lines: list[str]) -> None:
    assert open_string("lib/tool.rb", "", lines) == 1, qa
    closed = [*lines[:-1], 'and more"', "x = 1"]
    assert open_string("lib/tool.rb", "", closed) is None, qa  # (H01, H02, H04)
    assert open_string("lib/vec.rb", "", ["def /(other)", "  x / other", "end"]) is None  # H03


def test_a_command_sample_in_a_language_not_read_runs_no_command(tmp_path: Path) -> None:
    """A Julia string (a language no reader knows; QA's was a PHP here-document, read since)
    showing a console block: its fence closed the file's, the sample's :rm ran and the
    file was written cut; exit 1 only for the text left over (QA s49 helper-175, "damage
    with exit 1"). A console block and then a bare fence that may close the file, left
    over before the footer, hold the file and what follows it."""
    root = tmp_path / "root"
    root.mkdir()
    (root / "keep.txt").write_text("keep\n")
    text = 'help = """\nUsage:\n' + COMMAND + '"""\nprintln(help)\n'
    session = tmp_path / "s.md"
    session.write_text("## Turn 1\n> x\n\n" + _reply("tool.jl", "julia", text))
    assert main(["apply", str(session), "--root", str(root), "--yes"]) == 1
    assert sorted(p.name for p in root.iterdir()) == ["keep.txt"]
    assert (root / "keep.txt").read_text() == "keep\n"
    problems = parse_reply_text(_reply("tool.jl", "julia", text)).problems
    assert any(p.rule == "cut-off" and "a console block and then a bare fence" in p.message
               for p in problems)


def test_a_reply_sample_in_a_language_not_read_writes_no_file(tmp_path: Path) -> None:
    """The same string showing a reply: its closing fence opened src/app.py, written
    from the rest of the file, exit 0. The block right after a fenced file, of a file the
    footer does not list and opened by a fence without a language, holds both; listed in
    the footer, or fenced with its language, it is an ordinary next file."""
    root = tmp_path / "root"
    root.mkdir()
    text = 'help = """\nUsage:\n' + SAMPLE + '"""\nprintln(help)\n'
    session = tmp_path / "s.md"
    session.write_text("## Turn 1\n> x\n\n" + _reply("tool.jl", "julia", text))
    assert main(["apply", str(session), "--root", str(root), "--yes"]) == 1
    assert list(root.iterdir()) == []
    plain = ("--- File: a.php ---\n```php\n<?php echo 1;\n```\n\n--- File: b.txt ---\n```\nb\n"
             "```\n\n### Changed files:\n")
    assert [op.path for op in parse_reply_text(plain + "- a.php\n- b.txt\n").ops] == [
        "a.php", "b.txt"]  # type: ignore[union-attr]
    assert parse_reply_text(plain + "- a.php\n").ops == ()


@pytest.mark.parametrize(("header", "footer"), [
    ("./Makefile", "- Makefile\n"), ("Makefile", "| file | what |\n|---|---|\n|a.php|x|\n"
                                                "|Makefile|new|\n"),
    ("docs/my notes.txt", "- docs/my notes.txt\n"),
], ids=["dot-slash", "table", "space"])
def test_a_bare_fenced_next_file_the_footer_lists_is_written(header: str, footer: str) -> None:
    """The footer lists the next file however it spells it (QA s49 helper-184 b5, b7, b8:
    both files were held)."""
    reply = (f"--- File: a.php ---\n```php\n<?php echo 1;\n```\n\n--- File: {header} ---\n"
             f"```\nx\n```\n\n### Changed files:\n"
             + ("" if footer.startswith("|") else "- a.php\n") + footer)
    assert len(parse_reply_text(reply).ops) == 2


@pytest.mark.parametrize("footer", [
    "- tool.jl\n- src/app.py.bak\n", "- tool.jl\n- tests/src/app.py\n",
    "- tool.jl\n\nNote: src/app.py is generated.\n", "- tool.jl (see src/app.pyc cache)\n",
], ids=["longer-name", "longer-path", "prose-after", "inside-a-word"])
def test_a_path_inside_a_longer_word_is_not_listed(tmp_path: Path, footer: str) -> None:
    """The footer names the sample's file only inside a longer word, or in prose after its
    list (QA s49 helper-185: a substring check let src/app.py be written from the rest of
    tool.php, exit 0)."""
    root = tmp_path / "root"
    root.mkdir()
    text = 'help = """\nUsage:\n' + SAMPLE + '"""\nprintln(help)\n'
    reply = ("--- File: tool.jl ---\n```julia\n" + text + "```\n\n### Changed files:\n"
             + footer)
    session = tmp_path / "s.md"
    session.write_text("## Turn 1\n> x\n\n" + reply)
    assert main(["apply", str(session), "--root", str(root), "--yes"]) == 1
    assert list(root.iterdir()) == []


@pytest.mark.parametrize("footer", [
    "- tool.jl\n\n| Not changed | why |\n|---|---|\n| src/app.py | shown |\n",
    "- tool.jl\n- ~src/app.py\n", "- tool.jl\n> src/app.py stays\n",
], ids=["a-later-table", "a-longer-word", "a-quote-after"])
def test_only_the_footers_own_list_lists(tmp_path: Path, footer: str) -> None:
    """A table after the list, a word holding the path, a quote after the list (QA s49
    helper-186 A1, A2): the sample's src/app.py was written from the rest of tool.php."""
    root = tmp_path / "root"
    root.mkdir()
    text = 'help = """\nUsage:\n' + SAMPLE + '"""\nprintln(help)\n'
    reply = "--- File: tool.jl ---\n```julia\n" + text + "```\n\n### Changed files:\n" + footer
    session = tmp_path / "s.md"
    session.write_text("## Turn 1\n> x\n\n" + reply)
    assert main(["apply", str(session), "--root", str(root), "--yes"]) == 1
    assert list(root.iterdir()) == []


def test_a_sample_naming_the_file_itself_is_held() -> None:
    """The sample's header names the file it stands in, ./ before it or not (QA s49
    helper-186 A4): the file's tail was written over it."""
    text = 'help = """\nUsage:\n' + SAMPLE.replace("src/app.py", "./tool.jl")
    reply = _reply("tool.jl", "julia", text + '"""\nprintln(help)\n')
    assert parse_reply_text(reply).ops == ()


@pytest.mark.parametrize("footer", [
    "1. a.php\n2. Makefile\n", "a.php, Makefile\n", "\n- a.php\n\n- Makefile\n",
    "- a.php\n- build/\n",
], ids=["numbered", "one-plain-line", "loose", "its-folder"])
def test_a_next_file_the_list_names_its_own_way_is_written(footer: str) -> None:
    """helper-186 B1: a numbered list, one plain line, a loose list, the folder listed."""
    path = "build/Makefile" if "build/" in footer else "Makefile"
    reply = (f"--- File: a.php ---\n```php\n<?php echo 1;\n```\n\n--- File: {path} ---\n"
             f"```\nx\n```\n\n### Changed files:\n{footer}")
    assert len(parse_reply_text(reply).ops) == 2


@pytest.mark.parametrize("footer", [
    "Edited tool.jl; its usage text shows a reply editing src/app.py.\n",
    "Not src/app.py:\n- tool.jl\n", "- tool.jl (nothing under src/ changed)\n",
], ids=["a-sentence", "a-lead-in", "a-folder-in-prose"])
def test_a_sentence_lists_nothing(tmp_path: Path, footer: str) -> None:
    """QA s49 helper-187 (new in f729e8a): a plain line read as the list, prose and all;
    a folder named in an item's prose listing every file under it."""
    root = tmp_path / "root"
    root.mkdir()
    text = 'help = """\nUsage:\n' + SAMPLE + '"""\nprintln(help)\n'
    reply = "--- File: tool.jl ---\n```julia\n" + text + "```\n\n### Changed files:\n" + footer
    session = tmp_path / "s.md"
    session.write_text("## Turn 1\n> x\n\n" + reply)
    assert main(["apply", str(session), "--root", str(root), "--yes"]) == 1
    assert list(root.iterdir()) == []


@pytest.mark.parametrize(("path", "footer"), [
    ("__init__.py", "- a.php\n- __init__.py\n"), ("_config.yml", "- a.php\n- _config.yml (new)\n"),
    ("notes(1).txt", "- a.php\n- `notes(1).txt` (new)\n"), ("Makefile", "- a.php\n- Makefile!\n"),
    ("Makefile", "These files:\n- a.php\n- Makefile\n"),
], ids=["dunder", "leading-underscore", "a-bracket-in-the-name", "a-mark-after", "a-lead-in"])
def test_names_the_list_holds_are_listed(path: str, footer: str) -> None:
    """QA s49 helper-187's needless holds (__init__.py: new in f729e8a)."""
    reply = (f"--- File: a.php ---\n```php\n<?php echo 1;\n```\n\n--- File: {path} ---\n"
             f"```\nx\n```\n\n### Changed files:\n{footer}")
    assert len(parse_reply_text(reply).ops) == 2


def test_php_and_perl_are_read_only_for_their_files() -> None:
    """.inc is PHP only when it opens with <?php; a .pl file in Prolog is read for its block
    comments only, one of text (Vim's Polish tutor, tutor.pl) not at all; Raku's #! line
    (perl6) is no Perl; a PHP file in HTML with no PHP tag is all text."""
    php = ["$s = <<<EOT", "text"]
    assert open_string("a.inc", "", ["<?php", *php]) == 1
    assert open_string("a.inc", "", ["; an assembler include", *php]) is None
    assert open_string("a.php", "", ["<p>", "\"it's", "</p>"]) is None
    assert open_string("a.pl", "", ["foo(X) :- bar(X).", "/* a", "b"]) == 1
    assert open_string("a.pl", "", ["foo(X) :- bar(X).", "% it's"]) is None
    assert open_string("tutor.pl", "", ["Ten tutorial, Ware'a", "x"]) is None
    assert open_string("x", "", ["#!/usr/bin/env perl6", "my $s = 'it's"]) is None
    assert open_string("x", "", ["#!/usr/bin/perl -w", "my $s = 'it", "x"]) == 1


def test_perl_pod_left_open_is_held_but_data_after_end_is_not() -> None:
    """POD with no =cut to the end of the file is open (perl reads it, but a file cut
    inside its POD looks the same: held, the cheaper mistake); after __END__ or __DATA__
    nothing is open, POD or quote."""
    assert open_string("A.pm", "", ["sub f { 1 }", "1;", "", "=head1 NAME", "", "A"]) == 3
    assert open_string("A.pm", "", ["1;", "__END__", "", "=head1 NAME", "it's"]) is None
    assert open_string("A.pm", "", ["1;", "__DATA__", "<<EOF \"", "q{"]) is None


@pytest.mark.parametrize("line", [
    "a b c " * 17_000, "x / y / " * 12_500, "(/ab" * 25_000, "$x << 2; " * 11_000,
    "f(<<EOF) " * 11_000, "q{a} s/a/b/ y " * 7_000, "$' $\" $# " * 10_000, "=~ /a" * 20_000,
], ids=["words", "divisions", "regexes", "shifts", "heredocs", "quote-ops", "vars", "binds"])
def test_a_100_kb_line_is_read_in_linear_time(line: str) -> None:
    """Every look is forward from the last (a / that found no regex on its line does not
    look again there): a 100 KB line of any of these reads at once (no clock is asserted:
    a quadratic reading would not finish), open at that line or not."""
    for path, text in (("a.pm", line), ("a.php", "<?php " + line + " \"{$a[\"" * 5_000)):
        assert open_string(path, "", [text]) in (None, 0), path


@pytest.mark.parametrize("line", [
    "$i++ / 2; print 'a/b';", "$h{x}-- / 2; print 'a/b';", "$v //= 'a/b'; print 'c/d';",
    "my $n = shift // 'a/b';", "print $#a / 2, 'a/b';",
], ids=["postfix", "postfix-key", "defined-or-assign", "defined-or", "last-index"])
def test_perl_division_is_no_regex(line: str) -> None:
    """A / after an operand divides: read as a regex it swallowed a quote, and the one after
    it opened a string to the end of the file (held for nothing)."""
    assert open_string("a.pm", "", [line, "x"]) is None


def test_a_perl_file_quoting_prolog_is_read_as_perl() -> None:
    """A Prolog clause in a Perl here-document took the whole .pl file for Prolog, its
    strings unread: a sample in that here-document was written past, exit 0 (QA s50
    helper-191 w7). A file with signs no Prolog shows (use strict; my $x) is Perl; a
    Prolog file is still read as Prolog."""
    perl = ["use strict;", "my $h = <<EOF;", "parent(X, Y) :- child(Y, X).", "```"]
    assert open_string("x.pl", "", perl) == 1
    assert open_string("x.pl", "", ["parent(X, Y) :- child(Y, X).", "print('it''s')."]) is None


def test_a_test_mores_ok_takes_a_regex() -> None:
    """``ok /it's/, 'name';``: ok's argument is a regex, not a division (QA s50 helper-191
    n8: its quote opened a string to the end, a correct test file held)."""
    assert open_string("t/a.t", "", ["use Test::More;", "ok /it's/, 'name';",
                                     "like $x, qr/a/;", "done_testing;"]) is None


def test_a_methods_name_is_no_function_taking_a_regex() -> None:
    """``$post->like / $n`` divides (QA s50 helper-193 T2-5: read as a regex, a sample in
    the string after it was missed, exit 0); Perl files with other signs than the first
    reading knew (use v5.36, use utf8, a BOM before #!, local $|) are Perl whatever Prolog
    they quote; ``my(X) :- ..`` is a Prolog clause."""
    sample = ["```", "", "--- File: src/app.c ---", "```"]
    assert open_string("bin/x.pl", "", ["use strict;", "my $r = $post->like / $n; my $u = 'a/b';",
                                        "my $help = 'Reply like this:", *sample]) == 2
    quoting = ["print <<EOF;", "a :- b.", *sample]
    for head in (["use v5.36;", "use utf8;"], ["\ufeff#!/usr/bin/perl"], ["local $| = 1;"]):
        assert open_string("x.pl", "", [*head, *quoting]) == len(head), head
    assert open_string("p.pl", "", ["my(X) :- member(X, [a,b]).", "% don't do this"]) is None


def test_my_with_a_parenthesis_is_perl() -> None:
    """``my($out) = @ARGV;`` is Perl (QA s50 helper-195: the sign was narrowed to ``my ($``
    and a script quoting Prolog in a here-document was read as Prolog, its sample written
    past, exit 0)."""
    lines = ["my($out) = @ARGV;", "print <<EOF;", "a(X) :- b(X).", "EOF", "print <<HELP;",
             "A reply:", "```"]
    assert open_string("x.pl", "", lines) == 4
