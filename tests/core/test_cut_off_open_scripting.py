"""Lua, Dart, Groovy, Elixir and SQL files whose text as read ends inside a multi-line
string or comment are held (rule ``cut-off``, ``open_scripting.py``): before they were read,
a sample reply such a file showed (a Lua ``[[..]]`` string, a Dart ``'''``, an Elixir
heredoc, a PostgreSQL ``$$`` body) closed the fence around the file; the sample's console
block removed keep.txt and src/app.c was written from the rest of the file, exit 0. And
correct files, tricky ones, are never held for it."""

from __future__ import annotations

from pathlib import Path

import pytest

from cutkit import COMBO, LISTED, assert_fenced_longer_whole, assert_held, assert_not_held
from reviewtui.core.protocol.open_strings import open_string, program_language

CASES = [
    # (case, path, fence info, the file's text: {s} is the sample)
    ("lua long string", "tool.lua", "lua", "local help = [[\n{s}]]\nprint(help)\n"),
    ("lua level", "tool.lua", "", "local help = [==[\nA ]] is text here\n{s}]==]\n"),
    ("lua long comment", "init.lua", "lua", "--[[\nUsage:\n{s}]]\nreturn {}\n"),
    ("lua comment level", "x.lua", "", "--[=[\n]]\n{s}]=]\nreturn 1\n"),
    ("lua #!", "bin/tool", "", "#!/usr/bin/env lua\nprint([[\n{s}]])\n"),
    ("lua \\z", "z.lua", "lua", 'local s = "Usage: \\z\n{s}"\nprint(s)\n'),
    ("lua quotes", "q.lua", "", "local a = \"[[\" -- '\nlocal b = '--[[' .. [[\n{s}]]\n"),
    ("dart '''", "lib/help.dart", "dart", "const help = '''\n{s}''';\n"),
    ("dart hole", "lib/h.dart", "", 'final s = """\nHi ${name.replaceAll(\'"\', "")}\n{s}""";\n'),
    ("dart raw", "lib/r.dart", "dart", "final s = r'''\nC:\\\n{s}''';\n"),
    ("dart nested comment", "lib/c.dart", "dart", "/* a /* b */\n{s}*/\nvoid main() {}\n"),
    ("dart quote in hole", "lib/q.dart", "", "final q = '${\"'\"}'; final help = '''\n{s}''';\n"),
    ("groovy '''", "Help.groovy", "groovy", "def help = '''\n{s}'''\nprintln help\n"),
    ("gradle \"\"\"", "build.gradle", "", 'def help = """\nVersion ${project.version}\n{s}"""\n'),
    ("groovy slashy", "re.groovy", "groovy", "def re = /\nfoo\n{s}/\n"),
    ("groovy dollar slashy", "d.gvy", "", "def s = $/\nA $/ is a slash\n{s}/$\n"),
    ("jenkinsfile", "Jenkinsfile", "", "pipeline {\n  stages { stage('x') { steps {\n"
     "    sh '''\n{s}'''\n  } } }\n}\n"),
    ("groovy #! and comment", "tool", "", "#!/usr/bin/env groovy\n/*\n{s}*/\nprintln 1\n"),
    ("groovy division", "w.groovy", "gradle", "def x = a / b / c\ndef help = '''\n{s}'''\n"),
    ("elixir @moduledoc", "lib/help.ex", "elixir",
     'defmodule Help do\n  @moduledoc """\n{s}"""\nend\n'),
    ("elixir ~S heredoc", "lib/s.ex", "", 'defmodule S do\n  def help, do: ~S"""\n{s}"""\nend\n'),
    ("elixir sigil", "t.exs", "ex", "x = ~s(\n{s})\nIO.puts(x)\n"),
    ("elixir string", "u.exs", "", 'c = ?"; s = "\n{s}"\nIO.puts(s)\n'),
    ("elixir hole", "lib/w.ex", "", 'x = "#{"}"}"; help = """\n{s}"""\n'),
    ("elixir regex", "lib/r.ex", "", 'r = ~r/"/; h = \'\'\'\n{s}\'\'\'\n'),
    ("sql $$", "db/fn.sql", "sql",
     "CREATE FUNCTION help() RETURNS text AS $$\n{s}$$ LANGUAGE sql;\n"),
    ("sql $tag$", "db/t.sql", "", "DO $body$\nBEGIN RAISE NOTICE $$x$$; END\n{s}$body$;\n"),
    ("sql string", "db/s.sql", "plpgsql", "INSERT INTO docs VALUES ('it''s\n{s}');\n"),
    ("sql nested comment", "db/c.sql", "postgresql", "/* a /* b */\n{s}*/\nSELECT 1;\n"),
    ("sql E''", "db/e.sql", "", "SELECT E'\\'', 'x\n{s}';\n"),
    ("sql $1", "db/p.sql", "", "-- it's $1\nSELECT $1; CREATE FUNCTION g() RETURNS int AS $fn$\n"
     "{s}$fn$ LANGUAGE sql;\n"),
    ("mysql", "dump.sql", "mysql", "INSERT INTO t VALUES ('it\\'s'); # it's\n/* note\n{s}*/\n"),
    # The dialect a file shows, and lines no SQL string spans (QA s50 helper-190: each left
    # one quote over, the real open string read as closed: written cut, exit 0)
    ("mysql sign", "db/seed.sql", "sql", "INSERT INTO users VALUES (1, 'O\\'Brien');\n"
     "INSERT INTO docs VALUES ('Reply format:\n{s}');\n"),
    ("sqlplus prompt", "db/help.sql", "", "PROMPT Loading the user's help\n"
     "INSERT INTO docs VALUES ('\n{s}');\n"),
    ("psql meta", "db/e.sql", "", "\\echo Don't forget\nINSERT INTO docs VALUES ('\n{s}');\n"),
    ("hash line", "db/h.sql", "", "# it's a note\nINSERT INTO docs VALUES ('\n{s}');\n"),
    ("oracle q-quote", "db/q.sql", "", "BEGIN PUT_LINE(q'[It's done]'); END;\n"
     "INSERT INTO docs VALUES ('\n{s}');\n"),
    ("tsql brackets", "db/t.sql", "tsql", "SELECT [Customer's Name] FROM t;\n"
     "INSERT INTO docs VALUES ('\n{s}');\n"),
    ("backquoted name", "db/b.sql", "", "CREATE TABLE `it's` (a int);\n"
     "INSERT INTO docs VALUES ('\n{s}');\n"),
    ("copy data", "db/dump.sql", "", "COPY public.authors (id, name) FROM stdin;\n"
     "1\tO'Brien\n\\.\nINSERT INTO docs VALUES ('\n{s}');\n"),
    ("mysql delimiter", "db/p.sql", "", "DELIMITER $$\nCREATE PROCEDURE a() BEGIN SELECT 1; "
     "END $$\nDELIMITER ;\nINSERT INTO docs VALUES ('\n{s}');\n"),
    # ... and no MySQL where PostgreSQL shows the same marks (QA s50 helper-191: read as
    # MySQL, the $tpl$ string was missed; "prompt = '" skipped as SQL*Plus: exit 0)
    ("copy options", "db/load.sql", "sql", "COPY staging FROM '/data/in.csv' WITH (\n"
     "    FORMAT csv,\n    DELIMITER ';',\n    HEADER true\n);\n"
     "INSERT INTO templates VALUES ('review', $tpl$\nReply like this:\n{s}$tpl$);\n"),
    ("E-string \\'", "db/e2.sql", "", "SELECT E'O\\'Brien';\nINSERT INTO t VALUES ($h$\n"
     "{s}$h$);\n"),
    ("plpython \\'", "db/py.sql", "", "CREATE FUNCTION f() RETURNS text AS $$ return "
     "'it\\'s me' $$ LANGUAGE plpython3u;\nINSERT INTO t VALUES ($h$\n{s}$h$);\n"),
    ("comment \\'", "db/c2.sql", "", "-- MySQL writes 'it\\'s'\nINSERT INTO t VALUES ($h$\n"
     "{s}$h$);\n"),
    ("prompt column", "db/u.sql", "", "UPDATE prompts SET\nprompt = 'You are a reviewer. "
     "Answer like this:\n{s}' WHERE id = 1;\n"),
    # (QA s50 helper-193: a dump whose first \' stood before a space was read as standard
    # SQL, a later one then read as an opener; a REM banner's "==" read as an assignment)
    ("height", "db/dump.sql", "", "INSERT INTO players VALUES (1,'5\\' 10','O\\'Neil');\n"
     "INSERT INTO docs VALUES (1,'Reply like this:\n{s}');\n"),
    ("rem banner", "db/r.sql", "", "REM == Don't run this twice ==\n"
     "INSERT INTO docs VALUES ('\n{s}');\n"),
    ("remark column", "db/c.sql", "", "CREATE TABLE t (\nremark text DEFAULT 'Reply:\n{s}');\n"),
    ("rockspec", "tool-1.0-1.rockspec", "", "description = { detailed = [[\n{s}]] }\n"),
    ("jenkinsfile.prod", "ci/Jenkinsfile.prod", "", 'node { sh """\n{s}""" }\n'),
    ("nextflow", "main.nf", "", "process A {\n  script:\n  '''\n{s}'''\n}\n"),
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
    # Lua: nested indexing, a long string as an index, -- and [[ inside strings, #t,
    # a \ continuing a string, long strings of other levels inside one, ---[[ toggles
    ("a.lua", "local x = a[b[1]]\nlocal y = t[ [[s]] ]\nlocal s = \"-- no comment\" .. '[['\n"
     "print(#t, 'it''s')\nlocal c = \"a\\\nb\"\nlocal d = [==[ ]] ]=] ]==]\n---[[ on\nf()\n--]]\n"
     "local e = \"\\\"\" -- [[ x\nlocal f = '\\z\n   y'\n"),
    ("b.lua", "#!/usr/bin/lua\n# not lua but a #! line\n"),
    # Dart: a hole's quotes and braces, raw strings' backslashes, nested comments, '' '' adjacent
    ("a.dart", "var a = '${\"}\"}';\nvar b = \"${m['k']} ${ {1: 2}[1] } $c\";\n"
     "var d = r'C:\\'; var e = r\"\"\"\\\"\"\";\n/* a /* b */ c */\n// it's\n"
     "var f = '''it's ${'\"'}''';\nvar g = 'a' 'b';\n"),
    # Groovy: division, =~ /re/, ==~ /re/, // and /* inside strings, slashy holding quotes,
    # dollar slashy, a GString hole with quotes, i++ / 2, gradle paths in strings
    ("a.groovy", "def x = a / b / c\nassert s =~ /it's/\nassert t ==~ /\"/\n"
     "def u = \"http://x/*y\" // it's\ndef v = $/a/b $$ '\"/$\ndef w = \"${m['k']}\"\n"
     "def n = i++ / 2\ndef r = [/x/, /y/]\ndef q = (a) / 2 + list[1] / 3\n"),
    ("build.gradle", "plugins { id 'java' }\ndependencies { implementation files('libs/a.jar') }\n"
     "task hi { doLast { println \"${project.name}/x\" } }\n"),
    ("build.gradle.kts", "val s = \"\"\"a\"\"\"\n"),
    # Elixir: ?" and ?', ~r/"/, a hole holding a string holding }, a pipe, # inside a
    # string, a name's ?, sigils of every delimiter, a heredoc whose """ is not alone
    ("a.ex", "c = ?\"\nd = ?'\ne = ?\\\"\nr = ~r/\"/\ns = \"#{\"}\"}\"\nx |> f()\n"
     "t = \"# no comment\" # it's\nok = valid?(x) and empty?\"x\"\n"
     "w = ~w[a' b\"] ++ ~s{a} ++ ~S<#{> ++ ~c|'| ++ ~s'\"'\n"
     "h = \"\"\"\n  a \"\"\" in the text\n  \"\"\"\n"
     "m = ~S\"\"\"\n#{not a hole\n\"\"\"\n@doc \"it's\"\n"),
    # SQL: '' escapes, -- inside a string, $1 parameters, E'\'', a name with $, nested
    # comments, "quoted" identifiers, a dollar-quoted body holding quotes and $$
    ("a.sql", "SELECT 'it''s', '-- no comment', $1, $2 FROM t WHERE a$b$ = 1; -- it's\n"
     "SELECT E'\\'', e'a\\\\' FROM \"it's\";\n/* a /* b */ c */\n"
     "CREATE FUNCTION f() RETURNS text AS $fn$ SELECT 'a $$ b'; $fn$ LANGUAGE sql;\n"
     "CREATE FUNCTION g() RETURNS text AS $$\n  SELECT 'x';\n$$ LANGUAGE sql;\n"),
]


@pytest.mark.parametrize(("path", "text"), WHOLE, ids=[w[0] for w in WHOLE])
def test_a_correct_file_is_not_held(path: str, text: str) -> None:
    assert_not_held(path, text)


def test_mysql_reads_backslash_escapes_and_hash_comments() -> None:
    text = ["INSERT INTO t VALUES ('it\\'s', \"a\\\"b\"); # it's", "/* a /* b */", "SELECT 1;"]
    assert open_string("dump.sql", "mysql", text) is None
    assert open_string("dump.sql", "", text) is None  # (its \'s shows the dialect)
    nested = ["SELECT 'it''s';", "/* a /* b */", "SELECT 1;"]
    assert open_string("dump.sql", "mysql", nested) is None
    assert open_string("a.sql", "", nested) == 1  # (standard SQL: nested, held)
    assert open_string("a.sql", "sqlite", nested) is None


DIALECTS = [
    # (path, fence info, a correct file of a dialect: QA s50 helper-190 H1-H3 and more)
    ("dump.sql", "", "INSERT INTO `users` VALUES (1,'O\\'Brien','o@example.com');\n"),
    ("procs.sql", "", "DELIMITER $$\nCREATE PROCEDURE a() BEGIN SELECT 1; END $$\n"
     "CREATE PROCEDURE b() BEGIN SELECT 2; END $$\nDELIMITER ;\n"),
    ("pg.sql", "", "COPY public.authors (id, name) FROM stdin;\n1\tO'Brien\n\\.\nSELECT 1;\n"),
    ("a.sql", "", "# Don't run this twice\nSELECT 1;\n"),
    ("o.sql", "", "BEGIN DBMS_OUTPUT.PUT_LINE(q'[It's done]'); END;\n/\n"),
    ("o2.sql", "plsql", "PROMPT Loading the user's help\nREM it's old\n"
     "SELECT q'!a'b!' FROM dual;\n"),
    ("t.sql", "tsql", "SELECT [Customer's Name], [a]]b] FROM t;\n"),
    ("l.sql", "sqlite", "/* cleanup of /tmp/*.db files */\nCREATE TABLE `it's` (a);\n"),
    ("p.sql", "", "\\echo Don't forget to vacuum\nSELECT 1;\n"),
    ("arr.sql", "postgresql", "SELECT ARRAY['it''s', 'b'][1], '{\"a\"}'::jsonb;\n"),
    ("remark.sql", "", "UPDATE notes SET\nremark = 'Checked by ops.\nSecond line.'\n"
     "WHERE id = 1;\n"),
    ("copy.sql", "", "COPY t FROM '/x' WITH (\n    DELIMITER ';'\n);\nSELECT 'C:\\';\n"),
    ("col.sql", "", "CREATE TABLE t (\ndelimiter char(1),\npath text DEFAULT 'C:\\'\n);\n"),
    ("heights.sql", "", "INSERT INTO players VALUES (1,'5\\' 10','O\\'Neil'),(2,'6\\' 1','Bo');\n"),
    ("banner.sql", "", "REM ==== it's a banner ====\nSELECT 1 FROM dual;\n"),
    ("procs2.sql", "", "  DELIMITER $$\nCREATE PROCEDURE a() BEGIN SELECT 1; END $$\n"
     "CREATE PROCEDURE b() BEGIN SELECT 2; END $$\n  DELIMITER ;\n"),
    ("escape.sql", "", "SELECT * FROM t WHERE a LIKE 'x' ESCAPE '\\';\n"
     "SELECT replace(p, '\\', '/') FROM t;\n"),
]


@pytest.mark.parametrize(("path", "info", "text"), DIALECTS, ids=[d[0] for d in DIALECTS])
def test_a_correct_file_of_any_dialect_is_not_held(path: str, info: str, text: str) -> None:
    assert open_string(path, info, text.splitlines()) is None


def test_the_languages_are_known_by_suffix_name_info_and_program() -> None:
    known = {
        ("a.lua", ""): "lua", ("x", "lua"): "lua", ("a.dart", ""): "dart",
        ("a.groovy", ""): "groovy", ("build.gradle", ""): "groovy", ("a.gvy", ""): "groovy",
        ("ci/Jenkinsfile", ""): "groovy", ("x.jenkinsfile", ""): "groovy",
        ("x", "gradle"): "groovy", ("build.gradle.kts", ""): "kotlin",
        ("a.ex", ""): "elixir", ("a.exs", ""): "elixir", ("x", "ex"): "elixir",
        ("a.sql", ""): "sql", ("x", "plpgsql"): "sql", ("x", "postgresql"): "sql",
        ("x", "mysql"): "sql", ("a.rockspec", ""): "lua", (".luacheckrc", ""): "lua",
        ("a.luau", ""): "lua", ("ci/Jenkinsfile.prod", ""): "groovy", ("main.nf", ""): "groovy",
        ("a.gsh", ""): "groovy", ("a.pgsql", ""): "sql", ("a.ddl", ""): "sql",
    }
    for (path, info), language in known.items():
        assert program_language(path, info, ["x"]) == language, (path, info)
    for line, language in [("#!/usr/bin/env lua", "lua"), ("#!/usr/bin/luajit", "lua"),
                           ("#!/usr/bin/env lua5.4", "lua"), ("#!/usr/bin/env groovy", "groovy"),
                           ("#!/usr/bin/env elixir", "elixir"), ("#!/usr/bin/env dart", "dart"),
                           ("#!/usr/bin/env resty", "lua")]:
        assert program_language("tool", "", [line]) == language, line


LONG_LINES = [
    ("a.lua", "x = '[[' " * 12_500), ("a.lua", "--[=" * 25_000), ("a.dart", "'${\"" * 25_000),
    ("a.groovy", "x = /a" * 16_000), ("a.groovy", "$/${'" * 20_000),
    ("a.ex", "~s(#{\"" * 16_000), ("a.ex", "?\"#" * 33_000), ("a.sql", "$a$ '" * 20_000),
    ("a.sql", "/*" * 50_000), ("a.groovy", "(/" * 50_000),
]


@pytest.mark.parametrize(("path", "line"), LONG_LINES,
                         ids=[f"{path}-{k}" for k, (path, _) in enumerate(LONG_LINES)])
def test_a_line_of_100_kb_is_read_in_linear_time(path: str, line: str) -> None:
    """Every look goes on from the last one: a line of 100 KB of openers is read at once
    (no clock is asserted: a quadratic reading would not finish), whatever it says: open
    at that line, or not."""
    assert open_string(path, "", [line, "x"]) in (None, 0)


def test_mixed_dialects_and_sqlplus_words() -> None:
    """QA s50 helper-195: a MySQL \\' in a file with PostgreSQL's $$ (read as MySQL alone,
    the $$ string holding a sample was missed, exit 0); a column named prompt of a type the
    list lacked, or a PL/SQL ``rem :=``, skipped as SQL*Plus lines."""
    sample = ["```", "", "--- File: src/app.c ---", "```"]
    assert open_string("a.sql", "", ["INSERT INTO t VALUES ('Bob', '5\\' 10');",
                                     "INSERT INTO d VALUES ('reply', $$A reply:", *sample]) == 1
    assert open_string("a.sql", "", ["CREATE TABLE p (", "prompt LONGTEXT NOT NULL DEFAULT 'You:",
                                     *sample]) == 1
    assert open_string("a.sql", "", ["BEGIN", "rem := 'Reply like:", *sample]) == 1
