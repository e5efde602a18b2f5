"""A shell script is read as bash's parser reads it to tell whether its text, as the reply
gives it, ends inside a here-document, a quoted string or a substitution: a sample reply
the script shows (its own ``` line) may have closed the fence around it, and the rest of
it have been read as other blocks (rule ``cut-off``).

QA s48 helper-173 found the line-by-line scanner wrong 16 ways (W*: src/app.py written
from the script's tail, the script cut, exit 0) and holding 4 correct scripts (H*); each
class is a case below, and a seeded differential against ``bash -n`` covers their mixes.
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from reviewtui.cli import main
from reviewtui.core.protocol.open_shell import open_heredoc
from reviewtui.core.protocol.open_strings import open_string
from reviewtui.core.protocol.reply import parse_reply_text

_TAIL = "A reply:\n\n```\n\n--- File: src/app.py ---\n```\nEOF\necho done\n"


def _cut(script: str, path: str = "tool.sh", info: str = "bash") -> str:
    """A reply whose script shows a sample reply that closes its fence early."""
    return (f"--- File: {path} ---\n```{info}\n{script}\n{_TAIL}```\n\n"
            f"### Changed files:\n- {path}\n")


def _whole(script: str, path: str = "tool.sh") -> str:
    return f"--- File: {path} ---\n```bash\n{script}```\n\n### Changed files:\n- {path}\n"


@pytest.mark.parametrize("script", [
    # W1: a quote nested in "$( )" flipped the quote state
    'x="$(printf "%s" "don\'t")"\ncat <<EOF',
    'echo "$(gettext "Can\'t open file")"\ncat <<EOF',
    # W11, W14: quotes nest in "${x:-..}" ('"' inside "..")
    "echo \"${x:-\"'\"}\"; cat <<EOF",
    "echo \"${x:-'\"'}\"; cat <<EOF",
    # W12: a backquote substitution in ".."
    "echo \"`echo \"'\"`\"; cat <<EOF",
    # W3: # after a substitution's ) is part of the word, no comment
    "echo $(date +%F)#tag; cat <<EOF",
    # W4: (( in a [[ =~ ]] regex; W5: (( of two subshells, not arithmetic
    "[[ $v =~ ((a)b) ]] && echo match\ncat <<EOF",
    "[[ $1 =~ ^((https?|ftp)://)?([^/]+) ]] || exit 1\ncat <<EOF",
    "((cd /tmp && ls) )\ncat <<EOF",
    # W6: $[1<<2] is arithmetic; the next line's "2]" ends no heredoc
    "echo $[1<<2]\ncat <<EOF\n2]",
    # W8: \$ before '..': no $'..' (whose \' would not close it)
    "printf '%s\\n' \\$'a\\' <<EOF #'",
    # W9: git's sharness shape, a test body in a multi-line '..'; W2: a multi-line ".."
    "#!/bin/sh\ntest_description='apply'\n. ./test-lib.sh\n\n"
    "test_expect_success 'a reply is applied' '\n\tcat >reply.md <<\\EOF &&",
    'usage="Usage: tool [file]',
    # W13, W16: a heredoc inside "$( )" or "` `"
    '#!/bin/bash\nusage="$(cat <<EOF\nUsage: tool REPLY',
    'x="`cat <<EOF',
    # W7: "EOF " is no delimiter line
    "cat <<EOF\nEOF \nmore text",
    # W10: the body starts after the command's newline, past a multi-line '..'
    "cat <<EOF; echo 'x\nEOF\n'",
    # W15: <<'' is closed by a blank line: the one before the sample's fence
    "cat <<''",
    # $$ before '..' (no $'..'); a heredoc of a $( ) closed on its line reads on after it
    "echo $$'a\\' <<EOF #'",
    "echo $(cat <<EOF)",
    # QA s86 W1: [[ as a case pattern is no [[ ]] command (no << after it was read)
    'case "$tok" in\n  [[) depth=$((depth + 1)) ;;\n  *) : ;;\nesac\ncat <<EOF',
    # W5: a word "in" (for's, an argument) puts no command after it
    "for op in [[ '(' ; do echo \"$op\"; done\ncat <<EOF",
    "echo in [[ a; cat <<EOF",
    # W2: a case pattern's ) in a subshell in "$( )" closes neither
    'notes="$(\n  (cd "$repo" && case $mode in\n    full) git log --oneline ;;\n'
    '    *) git log -1 ;;\n  esac)\n  echo "Don\'t edit by hand"\n)"\n'
    "cat <<'EOF'\nHere's the reply format:",
    # W3: # right after a process substitution is part of the word
    "diff <(sort a)#sorted <<EOF",
    # W4: << (and <<-) split by a line continuation
    "cat <\\\n<EOF",
    "cat <\\\n<\\\n-EOF\n\tx",
    'echo "$\\\n(cat <<EOF)"',
])
def test_a_script_cut_inside_a_string_or_heredoc_is_held(script: str) -> None:
    parsed = parse_reply_text(_cut(script))
    assert parsed.ops == (), script
    first = parsed.problems[0]
    assert first.rule == "cut-off", script
    assert first.span.start == 1
    assert "ends inside a string, comment or element opened at line" in first.message, script


def test_a_bats_file_is_a_shell_script() -> None:
    """W21: a .bats file, or one whose #! names bats, in a bare fence."""
    script = '#!/usr/bin/env bats\n@test "a reply is applied" {\n  cat >reply.md <<\'EOF\''
    for path, info in (("test/apply.bats", ""), ("test/apply", "")):
        assert parse_reply_text(_cut(script, path, info)).ops == (), path


def test_a_pwsh_script_is_no_shell_script() -> None:
    """A #! line naming pwsh holds "sh" but names PowerShell: read as shell, its
    backquoted escapes ("`"a`"") opened a substitution and a correct script was held."""
    from reviewtui.core.protocol.open_shell import is_shell

    for line in ("#!/usr/bin/env pwsh", "#!/usr/bin/pwsh -NoProfile", "#!/usr/bin/env -S pwsh"):
        assert not is_shell("tool", "", [line, "x"]), line
    assert is_shell("tool", "", ["#!/usr/bin/env bash", "x"])


@pytest.mark.parametrize("script", [
    # H1: a delimiter line ending in the backquote closing `cat <<EOF`
    "#!/bin/sh\nusage=`cat <<EOF\nUsage: tool [file]\nEOF`\necho \"$usage\"\n",
    # H3: <<$'EOF'; H4: a delimiter split by backslash-newline
    "cat <<$'EOF'\nhi\nEOF\necho ok\n",
    "cat <<EO\\\nF\nhi\nEOF\necho ok\n",
    # H5: $[1<<2]; H6: a nested quote, then '<<X' in quotes
    "echo $[1<<2]\n",
    "echo \"$(printf \"don't\")\" '<<X'\n",
    # an unquoted body's backslash-newline joins the delimiter's halves
    "cat <<EOF\nx\nE\\\nOF\necho ok\n",
    # case patterns inside $( ), esac after esac
    ": $(case x in (x) case y in (y) echo a;; esac esac)\ncat <<EOF\nx\nEOF\n",
    # a comment inside $( ) hides its )
    "x=$( (echo a # )\n) )\necho \"$x\"\n",
    # QA s86 H1, H1b: "in case" inside $( ) starts no case
    'words=$(for w in case esac; do echo "$w"; done)\necho "$words"\n',
    "msg=$(echo signed in case you wonder)\necho \"$msg\"\n",
    # W2 whole; case patterns in a subshell in $( ), with ( and |
    'x="$( (case $m in full) echo a ;; *) echo b ;; esac) )"\ncat <<EOF\nx\nEOF\n',
    "x=$( (case $m in (a|b) (echo a) ;& c) echo ;;& esac) )\ncat <<E\nE\n",
])
def test_a_correct_script_is_read_whole(script: str) -> None:
    assert [op.path for op in parse_reply_text(_whole(script)).ops] == ["tool.sh"], script  # type: ignore[union-attr]


def test_apply_does_not_write_a_script_cut_inside_a_dq_heredoc(tmp_path: Path) -> None:
    """W13 end to end: exit 1, nothing written (src/app.py was written from the tail)."""
    root = tmp_path / "root"
    root.mkdir()
    session = tmp_path / "s.md"
    session.write_text("## Turn 1\n\n" + _cut('#!/bin/bash\nusage="$(cat <<EOF\nUsage: tool',
                                              "bin/tool.sh"))
    assert main(["apply", str(session), "--root", str(root), "--yes"]) == 1
    assert list(root.rglob("*")) == []


def test_deep_nesting_is_held_not_read_past() -> None:
    """Nesting deeper than the scanner reads is taken for open: held, never written."""
    assert open_heredoc("x.sh", "", ["echo " + "$(" * 400 + ")" * 400]) == 0
    assert open_heredoc("x.sh", "", ["echo " + "$(" * 40 + "x" + ")" * 40]) is None
    assert open_heredoc("x.txt", "", ["cat <<EOF"]) is None
    assert open_heredoc("x.sh", "", ["echo " + "((" * 50_000]) == 0


def test_many_failing_double_parentheses_are_read() -> None:
    """QA s86 H4: ((..) ) read again as two subshells is budgeted per construct (the
    budget was the whole text's: 3,000 such lines were held from line 2188)."""
    assert open_heredoc("x.sh", "", ["((((((true) ) ) ) ) )"] * 3000) is None
    assert open_heredoc("x.sh", "", ["((((((true) ) ) ) ) )"] * 3000 + ["cat <<E"]) == 3000


_ATOMS = ["a", "'it'\\''s'", '"x y"', "$'a\\'b'", '"$(echo "q")"', '"${v:-"d"}"',
          "`echo b`", '"`echo c`"', "${v#*/}", "$((1<<2))", "$(( (1)+2 ))", "a#b", "\\'",
          '\\"', "$$", "${v//\\'/x}", '"it\'s"', "'say \"hi\"'", '"$(echo \'x\')"', "$'\\''",
          "\\$", "'<<X'", '"<<X"', "$[1+1]", "$(echo ')')", '"a\\"b"', "'#'", "${v:-'#'}",
          "$(:)#c", '"${x:-\'"\'}"', "$(case a in a) echo;; esac)", "\"'\"", "'\n'",
          '"\n"', "\\\n", "$(echo 'x\ny')", "in [[", "$(: in case)", "<(echo p)#c",
          '"$( (case a in (a|[[) echo;; esac) )"']
_DELIMS = ["H", '"H"', "\\H", "-H", "'H'", "$'H'", "''"]


def _snippet(rng: random.Random) -> str:
    def command() -> str:
        words = " ".join(rng.choice(_ATOMS) for _ in range(rng.randint(0, 3)))
        pick = rng.random()
        if pick < 0.08:
            return f"(( i = {rng.choice(['1<<2', 'a', '(b)'])} ))"
        if pick < 0.14:
            return f"[[ $x =~ {rng.choice(['^((a|b)c)$', '(a)', '((a))', 'a|b'])} ]]"
        if pick < 0.18:
            return f"( (echo {words}) )"
        if pick < 0.3:
            return "cat <<" + rng.choice(_DELIMS) + rng.choice(["", " | tr a b", "; echo " + words])
        if pick < 0.33:
            return f"case a in [[) {rng.choice(['', 'echo a'])} ;; *) echo {words};; esac"
        if pick < 0.36:
            return f"echo {words} # {rng.choice(_ATOMS)}"
        return f"{rng.choice(['echo', 'printf %s', ':'])} {words}"

    lines: list[str] = []
    for _ in range(rng.randint(1, 4)):
        lines.append(rng.choice([" ; ", " && ", " | "]).join(
            command() for _ in range(rng.randint(1, 2))))
        if "<<" in lines[-1] and rng.random() < 0.8:
            lines += ["body 'q\" #", rng.choice(["H", "\tH", "H ", ""])]
    lines += [rng.choice(["cat <<EOF", "echo end", "x='", 'y="$(cat <<EOF']), "A reply:"]
    return "\n".join(lines) + "\n"


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash: the differential "
                    "against bash -n cannot run")
def test_generated_scripts_agree_with_bash() -> None:
    """Generated snippets: held exactly when bash -n says the text ends inside a
    here-document, a quote or a backquote; snippets bash rejects otherwise are skipped."""
    rng = random.Random(173)
    checked = 0
    for _ in range(400):
        text = _snippet(rng)
        run = subprocess.run(["bash", "-n"], input=text.encode(), capture_output=True,
                             timeout=10, check=False)
        err = run.stderr.decode()
        opened = bool(re.search(r"here-document at line \d+ delimited|matching `['\"`]'",
                                err))
        if not opened and (run.returncode or "warning" in err):
            continue
        lines = text.split("\n")[:-1]
        assert (open_heredoc("x.sh", "bash", lines) is not None) == opened, (text, err)
        checked += 1
    assert checked > 150


@pytest.mark.parametrize(("text", "want"), [
    ("FROM a\nRUN <<EOF\necho hi\nEOF\nCMD x", None),
    ("FROM a\nRUN <<EOF\necho hi\n```", 1),
    ("FROM a\nLABEL d=It's\nRUN <<EOF\nx", 2),  # (the apostrophe ends with its line)
    ("FROM a\nLABEL d=It's\nRUN <<EOF\nx\nEOF", None),
    ("RUN <<A <<B\na\nA\nb\nB\nCMD", None),
    ("RUN <<A <<B\na\nA\nb", 0),
    ("RUN apt-get \\\n  install <<EOF\nx\nEOF", None),
    ("RUN apt-get \\\n  install <<EOF\nx", 1),
    ("COPY <<'EOF' /x\n$HOME\nEOF", None),
    ('RUN echo "a << b"\nCMD x', None),
    ("RUN echo 'x\nRUN cat <<E\nE", None),
    ("RUN <<-EOF\n\tx\n\tEOF", None),
], ids=["closed", "open", "label-then-open", "label-then-closed", "two", "two-open",
        "continued", "continued-open", "quoted", "in-a-string", "quote-left-open", "dash"])
def test_a_dockerfile_is_read_an_instruction_at_a_time(text: str, want: int | None) -> None:
    """Each instruction holding << is read as one command line and its here-documents'
    bodies, the next afresh (what a LABEL's apostrophe leaves open ends with its line)."""
    from reviewtui.core.protocol.open_shell import open_dockerfile_heredoc

    assert open_dockerfile_heredoc(text.split("\n")) == want


@pytest.mark.parametrize("line", [
    "#!/usr/bin/with-contenv bash", "#!/usr/bin/sudo bash",
    "#!/usr/bin/env -S sudo bash", "#!/usr/bin/env -u FOO bash", "#!/bin/bash-5.2",
    "#!/usr/bin/env bash  # kept apart from the pwsh port", "#! /bin/bash", "#!/bin/bash\r",
])
def test_a_shell_is_known_by_any_program_its_hash_bang_line_names(line: str) -> None:
    """A wrapper (s6's with-contenv, sudo, env with options) runs the shell it names, and a
    comment naming pwsh makes no PowerShell script (QA s50 helper-194, 197: a here-document
    holding a sample in such a script was written past, exit 0)."""
    lines = [line, "echo start", "cat <<EOF", "```", "", "--- File: src/app.py ---", "```"]
    assert open_string("run", "", lines) == 2
    assert open_string("run", "", ["#!/usr/bin/env pwsh", "cat <<EOF", "```"]) is None


def test_a_nix_shell_script_runs_what_its_second_line_names() -> None:
    """``#!/usr/bin/env nix-shell`` then ``#!nix-shell -i python3``: Python, whose
    ``1 << 4`` is no here-document (QA s50 helper-198: held for nothing); an option's value
    is no program (``env -C /opt/sh python3``)."""
    for first in ("#!/usr/bin/env nix-shell", "#!/usr/bin/env -C /opt/sh python3"):
        assert open_string("scripts/flags.py", "", [first, "#!nix-shell -i python3",
                                                    "FLAG_A = 1 << 0"]) is None, first
    # (and one naming bash there, or nothing: nix-shell's default, QA s50 helper-199)
    assert open_string("update", "", ["#!/usr/bin/env nix-shell", "#!nix-shell -i bash -p jq",
                                      "cat <<EOF", "Reply:"]) == 2
    assert open_string("update", "", ["#! /usr/bin/env nix-shell", "cat <<EOF", "Reply:"]) == 1
    # (its -i on the first line, and not the -i of a package's name: QA s50 helper-200)
    assert open_string("u.py", "", ["#!/usr/bin/env -S nix-shell -i python3 -p python3",
                                    "FLAG = 1<<bit"]) is None
    assert open_string("s", "", ["#!/usr/bin/env nix-shell", "#!nix-shell -p nix-init -i bash",
                                 "cat > notes.md <<EOF", "x"]) == 2


def test_nix_shell_reads_its_own_i_and_not_its_packages() -> None:
    """QA s50 helper-201: env's own -i taken for nix-shell's (a bash script not read, exit
    0); a package named bash made a Python script shell (held for nothing)."""
    assert open_string("u", "", ["#!/usr/bin/env -S -i nix-shell", "#!nix-shell -i bash -p jq",
                                 "cat > notes.md <<EOF", "Reply:"]) == 2
    assert open_string("x", "", ["#!/usr/bin/env -S nix-shell -p bash -i python3",
                                 "FLAG = 1<<bit"]) is None
