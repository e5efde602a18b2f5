"""A ``git format-patch`` mail is its message, a ``---`` line and its diffstat, then its
patch: what the message quotes is text, never a change (QA s46 helper-142 H3: a hunk
quoted in a commit message rewrote a file the commit never touched, exit 0; H4b: a Codex
patch or a File Ops turn quoted there made the whole mail read as that format).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gitkit import clone_at, commit_all, disk_of, git, new_repo, tree_of
from reviewtui.cli import main
from reviewtui.core.importers import detect_format, import_session
from reviewtui.core.importers.mails import COMMIT
from reviewtui.core.model.records import ConsoleCommand

QUOTES = {
    "index": ("Index: other.txt\n" + "=" * 67 + "\n--- other.txt\n+++ other.txt\n"
              "@@ -1 +1 @@\n-keep\n+CLOBBERED\n"),
    "git": ("diff --git a/other.txt b/other.txt\n--- a/other.txt\n+++ b/other.txt\n"
            "@@ -1 +1 @@\n-keep\n+CLOBBERED\n"),
    "plain": "--- a/other.txt\n+++ b/other.txt\n@@ -1 +1 @@\n-keep\n+CLOBBERED\n",
    "codex": "*** Begin Patch\n*** Delete File: other.txt\n*** End Patch\n",
    "fileops": "## Turn 1\n\n```console\n:rm other.txt\n```\n",
    # A markdown rule in the message is no end of it: the stat under the last one is.
    "rule": "---\n\n--- a/other.txt\n+++ b/other.txt\n@@ -1 +1 @@\n-keep\n+CLOBBERED\n",
}


def _mail(tmp_path: Path, message: str, *extra: str,
          new: bool = False) -> tuple[Path, str, str]:
    """A repository of other.txt and f.txt, a commit with ``message`` changing f.txt (and
    adding new.txt), and its format-patch mail."""
    repo = new_repo(tmp_path / "repo")
    (repo / "other.txt").write_text("keep\n")
    (repo / "f.txt").write_text("a\n")
    base = commit_all(repo, "base")
    (repo / "f.txt").write_text("a\nb\n")
    if new:
        (repo / "new.txt").write_text("new\n")
    head = commit_all(repo, message)
    text = git(repo, "format-patch", "--stdout", *extra, f"{base}..{head}")
    return repo, base, text


@pytest.mark.parametrize("quoted", sorted(QUOTES))
def test_a_mail_replays_its_commit_whatever_its_message_quotes(
        tmp_path: Path, quoted: str, capsys: pytest.CaptureFixture[str]) -> None:
    repo, base, text = _mail(
        tmp_path, f"Fix the thing\n\nWhat was tried:\n\n{QUOTES[quoted]}\nDone.", new=True)
    head = git(repo, "rev-parse", "HEAD").strip()
    mail = tmp_path / "s.patch"
    mail.write_bytes(text.encode())
    assert "\n---\n f.txt" in mail.read_text()  # (the separator and the stat under it)
    session = import_session(mail.read_text(), str(mail))
    assert sorted(op.path for turn in session.turns for op in turn.reply.ops) == [
        "f.txt", "new.txt"]
    root = clone_at(repo, tmp_path / "root", base)
    assert main(["apply", str(mail), "--root", str(root), "--yes"]) == 0
    assert "2 of 2 operations applied" in capsys.readouterr().out
    assert disk_of(root) == tree_of(repo, head)


def test_a_series_reads_each_mail_after_its_own_stat(tmp_path: Path) -> None:
    """Three mails, the second quoting a diff of a file the third really changes: each
    mail's operations are its own commit's."""
    repo = new_repo(tmp_path / "repo")
    for name in ("a.txt", "b.txt", "c.txt"):
        (repo / name).write_text(f"{name}\n")
    base = commit_all(repo, "base")
    (repo / "a.txt").write_text("A\n")
    commit_all(repo, "one")
    (repo / "b.txt").write_text("B\n")
    commit_all(repo, "two\n\n" + QUOTES["git"].replace("other.txt", "c.txt"))
    (repo / "c.txt").write_text("C\n")
    head = commit_all(repo, "three")
    text = git(repo, "format-patch", "--stdout", f"{base}..{head}")
    session = import_session(text, "s.patch")
    assert [[op.path for op in turn.reply.ops] for turn in session.turns] == [
        ["a.txt"], ["b.txt"], ["c.txt"]]
    assert [turn.reply.problems for turn in session.turns] == [(), (), ()]


@pytest.mark.parametrize("shape", ["blank-line-first", "headers-first", "no-from-line"])
def test_a_mail_that_does_not_start_with_gits_from_line_is_still_a_mail(
        tmp_path: Path, shape: str) -> None:
    """QA s46 helper-143 F2: a leading blank line, a saved mail's headers, or no From
    line (git am takes all three) let a quoted Codex patch decide the format again."""
    repo, base, text = _mail(tmp_path, f"Fix\n\n{QUOTES['codex']}")
    if shape == "blank-line-first":
        text = "\n" + text
    elif shape == "headers-first":
        text = "Return-Path: <a@b>\nReceived: by x; Mon, 1 Jan 2024\n" + text.split("\n", 1)[1]
    else:
        text = text.split("\n", 1)[1]
    session = import_session(text, "m.eml")
    assert session.format == "unified"
    assert [op.path for turn in session.turns for op in turn.reply.ops] == ["f.txt"]


def test_a_no_stat_mail_is_read_whole_and_a_diffs_own_lines_are_no_stat(
        tmp_path: Path) -> None:
    """QA s46 helper-143 F1: with --no-stat there is no separator, and a removed "--" line
    with context lines looking like a stat was taken for one: the first file's change was
    dropped as message, exit 0."""
    repo = new_repo(tmp_path / "repo")
    (repo / "A.md").write_text("a\n--\nx | 2\n1 file changed\nb\n")
    (repo / "B.txt").write_text("one\n")
    base = commit_all(repo, "base")
    (repo / "A.md").write_text("a\nx | 2\n1 file changed\nB\n")
    (repo / "B.txt").write_text("two\n")
    head = commit_all(repo, "change")
    for extra in (["--no-stat"], []):
        text = git(repo, "format-patch", "--stdout", *extra, f"{base}..{head}")
        session = import_session(text, "m.patch")
        assert sorted(op.path for turn in session.turns for op in turn.reply.ops) == [
            "A.md", "B.txt"], extra


def test_a_stat_made_up_in_the_message_is_message(tmp_path: Path) -> None:
    """QA s46 helper-143 F3: a message holding "---", a made-up stat and a quoted diff had
    that diff read as the patch (the first such run was taken)."""
    fake = ("---\n other.txt | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n\n"
            + QUOTES["git"])
    _, _, text = _mail(tmp_path, f"Fix\n\n{fake}")
    session = import_session(text, "m.patch")
    assert [op.path for turn in session.turns for op in turn.reply.ops] == ["f.txt"]


def test_a_message_line_starting_from_and_digits_starts_no_mail(tmp_path: Path) -> None:
    """QA s46 helper-143 F3b: "From 20240101 onwards" in a message was read as the start of
    a new mail: the part above it was read whole, its quoted diff a change."""
    _, _, text = _mail(tmp_path, f"Fix\n\n{QUOTES['git']}\nFrom 20240101 onwards it is fixed.")
    session = import_session(text, "m.patch")
    assert [op.path for turn in session.turns for op in turn.reply.ops] == ["f.txt"]


def test_a_diffs_own_lines_never_read_as_its_stat(tmp_path: Path) -> None:
    """QA s46 helper-144 F2: in a mail whose blank context line lost its space (mailers do
    this; git am takes it), a removed "--" line, context lines like a stat, the blank line
    and a removed "-- a/B.md" line read as the LAST separator run: two files' changes were
    dropped, exit 0. A run counts only when its stat names the diff that follows it."""
    repo = new_repo(tmp_path / "repo")
    (repo / "A.md").write_text("one\n")
    (repo / "B.md").write_text("head\n--\nx | 2 +-\n1 file changed\n\n-- a/B.md\n")
    (repo / "C.md").write_text("three\n")
    base = commit_all(repo, "base")
    (repo / "A.md").write_text("ONE\n")
    (repo / "B.md").write_text("head\nx | 2 +-\n1 file changed\n\n++ b/B.md\n")
    (repo / "C.md").write_text("THREE\n")
    head = commit_all(repo, "change")
    text = git(repo, "format-patch", "--stdout", f"{base}..{head}")
    damaged = text.replace("\n \n", "\n\n")  # (the blank context line's space stripped)
    assert damaged != text
    for mail in (text, damaged):
        session = import_session(mail, "m.patch")
        assert sorted({op.path for turn in session.turns for op in turn.reply.ops}) == [
            "A.md", "B.md", "C.md"]


def test_front_matter_with_a_subject_is_no_mail() -> None:
    """QA s46 helper-144 F1: a File Ops session whose front matter held a Subject was read
    as a mail, and the diff its turn writes into a file was applied to the project."""
    session = ("Subject: fix the app\nModel: m\n\n## Turn 1\n> write the patch\n\n"
               "--- File: docs/fix.patch ---\n```diff\n"
               "diff --git a/src/app.py b/src/app.py\n--- a/src/app.py\n+++ b/src/app.py\n"
               "@@ -1 +1 @@\n-x = 1\n+x = 2\n```\n")
    assert detect_format(session, "s.md") == "fileops"


def test_an_encoded_mail_is_refused_not_read_as_it_is() -> None:
    """QA s46 helper-144 F8: a quoted-printable mail (a saved .eml) was read as it is:
    `x =3D "caf=C3=A9"` written, exit 0 (git am decodes it); helper-145 F3, F8: read whole
    it was not held, and a base64 mail of a series went unread without a word while the
    next mail's change landed on its file. A mail saying so in its headers refuses the
    whole diff; one saying so in its message does not (helper-145 F4)."""
    from reviewtui.core.errors import SessionFormatError

    body = ("diff --git a/f.py b/f.py\n--- a/f.py\n+++ b/f.py\n@@ -1 +1 @@\n"
            "-x =3D 1\n+x =3D \"caf=C3=A9\"\n")
    first = "From 1111111111111111111111111111111111111111 Mon Sep 17 00:00:00 2001\n"
    for stat in (True, False):
        mail = ("From: A <a@b>\nSubject: [PATCH] fix\n"
                "Content-Transfer-Encoding: quoted-printable\n\nfix\n"
                + ("---\n f.py | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n\n"
                   if stat else "\n") + body)
        with pytest.raises(SessionFormatError) as info:
            import_session(first + mail, "m.mbox")
        assert info.value.rule == "mail-encoded"
    said = ("From: A <a@b>\nSubject: [PATCH] fix\n\nWe no longer send\n"
            "Content-Transfer-Encoding: base64\n---\n f.py | 2 +-\n"
            " 1 file changed, 1 insertion(+), 1 deletion(-)\n\n" + body.replace("=3D", "="))
    session = import_session(first + said, "m.mbox")
    assert [op.path for turn in session.turns for op in turn.reply.ops] == ["f.py"]
    # A base64 mail shows no diff header at all: it was read as a File Ops session of no
    # turns, exit 0 (helper-145); a mail is a diff, and this one is refused, said.
    import base64

    encoded = base64.encodebytes(body.encode()).decode()
    for head in ("", first):
        with pytest.raises(SessionFormatError) as info:
            import_session(head + "From: A <a@b>\nSubject: [PATCH] fix\n"
                           "Content-Transfer-Encoding: base64\n\n" + encoded, "m.eml")
        assert info.value.rule == "mail-encoded"


def test_real_mail_shapes_keep_their_message_out(tmp_path: Path) -> None:
    """QA s46 helper-145 F1: a check of the stat's names against the diff read these real
    mails whole (a name git quotes, --compact-summary), and the diff quoted in their
    message was applied."""
    repo = new_repo(tmp_path / "repo")
    (repo / "café.txt").write_text("a\n")
    (repo / "m.sh").write_text("echo\n")
    (repo / "other.txt").write_text("keep\n")
    base = commit_all(repo, "base")
    (repo / "café.txt").write_text("a\nb\n")
    (repo / "m.sh").chmod(0o755)
    head = commit_all(repo, f"Fix\n\n{QUOTES['git']}")
    for extra in ([], ["--compact-summary"]):
        text = git(repo, "format-patch", "--stdout", *extra, f"{base}..{head}")
        session = import_session(text, "m.patch")
        paths = sorted(op.path for turn in session.turns for op in turn.reply.ops
                       if not isinstance(op, ConsoleCommand))
        assert "other.txt" not in paths, (extra, paths)
        assert "café.txt" in paths, (extra, paths)


def test_front_matter_with_from_and_subject_is_no_mail_either() -> None:
    """QA s46 helper-145 F9."""
    session = ("From: me\nSubject: fix the app\n\n## Turn 1\n> write the patch\n\n"
               "--- File: docs/fix.patch ---\n```diff\n"
               "diff --git a/src/app.py b/src/app.py\n--- a/src/app.py\n+++ b/src/app.py\n"
               "@@ -1 +1 @@\n-x = 1\n+x = 2\n```\n")
    assert detect_format(session, "s.md") == "fileops"


@pytest.mark.parametrize("header", ["@@ -1 +1,2 @@", "@@ -1,3 +1,3 @@"])
def test_a_quoted_excerpt_with_lines_left_out_keeps_the_separator(
        tmp_path: Path, header: str) -> None:
    """QA s46 helper-146 F1: a diff excerpt in a message whose hunk header counts more
    lines than it shows was read as a hunk that swallowed the separator: the mail was read
    whole and the excerpt applied, exit 0."""
    excerpt = ("diff --git a/other.txt b/other.txt\n--- a/other.txt\n+++ b/other.txt\n"
               f"{header}\n-keep\n+CLOBBERED\n")
    _, _, text = _mail(tmp_path, f"Fix\n\n{excerpt}")
    session = import_session(text, "m.patch")
    assert [op.path for turn in session.turns for op in turn.reply.ops] == ["f.txt"]


def test_a_multipart_mail_with_an_encoded_patch_part_is_refused(tmp_path: Path) -> None:
    """QA s46 helper-146 F5: format-patch --attach's patch part, quoted-printable (as a
    mail client re-encodes it), was read as it is: =3D written, exit 0."""
    from reviewtui.core.errors import SessionFormatError

    repo, base, text = _mail(tmp_path, "Fix", "--attach")
    head = text.split("\n\n", 1)[0]
    assert "multipart/mixed" in head
    encoded = text.replace("Content-Transfer-Encoding: 8bit",
                           "Content-Transfer-Encoding: quoted-printable")
    assert encoded.count("quoted-printable") >= 1
    with pytest.raises(SessionFormatError) as info:
        import_session(encoded, "m.patch")
    assert info.value.rule == "mail-encoded"
    session = import_session(text, "m.patch")  # (8bit: read)
    assert [op.path for turn in session.turns for op in turn.reply.ops] == ["f.txt"]


@pytest.mark.parametrize("extra", [
    ["--stat-count=1"], ["--stat", "--numstat"], ["--raw", "--stat"], ["--stat", "--dirstat"],
    ["--stat", "--summary", "--dirstat", "--numstat", "--raw"], ["--stat-count=1", "--numstat"],
])
def test_every_stat_shape_under_the_separator_keeps_the_message_out(
        tmp_path: Path, extra: list[str]) -> None:
    """QA s46 helper-146 F4: git writes its --raw, --numstat, --dirstat lines and
    --stat-count's " ..." around the stat; such a mail was read whole and the diff its
    message quotes was applied (other.txt CLOBBERED, exit 0)."""
    repo = new_repo(tmp_path / "repo")
    (repo / "other.txt").write_text("keep\n")
    (repo / "d" / "e").mkdir(parents=True)
    for name in ("f1", "f2", "f3"):
        (repo / "d" / "e" / f"{name}.txt").write_text("a\n")
    base = commit_all(repo, "base")
    for name in ("f1", "f2", "f3"):
        (repo / "d" / "e" / f"{name}.txt").write_text("a\nb\n")
    (repo / "g.txt").write_text("new\n")
    head = commit_all(repo, f"Fix\n\nWhat was tried:\n\n{QUOTES['git']}\nDone.")
    text = git(repo, "format-patch", "--stdout", *extra, f"{base}..{head}")
    assert "\n---\n" in text
    session = import_session(text, "m.patch")
    paths = sorted(op.path or "" for turn in session.turns for op in turn.reply.ops)
    assert paths == ["d/e/f1.txt", "d/e/f2.txt", "d/e/f3.txt", "g.txt"], (extra, text)


def test_a_cover_letters_interdiff_is_no_change(tmp_path: Path) -> None:
    """QA s46 helper-145 F10: ``--cover-letter --interdiff=v1`` puts the series' change
    since v1 in mail 0/n as a diff; it was replayed as one more patch over the series (its
    hunk of g.txt landed, then the series' own change of f.txt was held)."""
    repo = new_repo(tmp_path / "repo")
    (repo / "f.txt").write_text("alpha\nbeta\n")
    (repo / "g.txt").write_text("one\n")
    base = commit_all(repo, "base")
    git(repo, "checkout", "-q", "-b", "v1")
    (repo / "f.txt").write_text("alpha\nBETA\n")
    commit_all(repo, "v1")
    git(repo, "checkout", "-q", "-b", "v2", base)
    (repo / "f.txt").write_text("alpha\nBeta\n")
    (repo / "g.txt").write_text("ONE\n")
    head = commit_all(repo, "v2")
    texts: list[str] = []
    for extra in (["--interdiff=v1"], ["--range-diff=v1"]):
        text = git(repo, "format-patch", "--stdout", "--cover-letter", *extra,
                   f"{base}..{head}")
        cover = text.split("[PATCH 1/1]")[0]
        assert "[PATCH 0/1]" in cover
        assert ("diff --git" in cover) == ("interdiff" in extra[0])
        session = import_session(text, "s.mbox")
        assert [sorted(op.path or "" for op in t.reply.ops) for t in session.turns] == [
            ["f.txt", "g.txt"]], extra
        root = clone_at(repo, tmp_path / f"root{extra[0][2:7]}", base)
        mail = tmp_path / "s.mbox"
        mail.write_text(text)
        assert main(["apply", str(mail), "--root", str(root), "--yes"]) == 0
        assert disk_of(root) == tree_of(repo, head)
        texts.append(text)
    with pytest.raises(Exception, match=r"cover letter \(\[PATCH 0/n\]\) and no patch"):
        import_session(texts[0].split("\nFrom ")[0] + "\n", "c.mbox")


def test_an_mbox_a_mail_client_saved_is_read_mail_by_mail(tmp_path: Path) -> None:
    """QA s46 helper-145: a mail client's mbox starts each mail with its postmark
    ("From alice@example.com Sat Jan  1 00:00:00 2022"), not git's From line: the mbox was
    read whole, as one turn, and the diff a message quotes was applied."""
    repo, base, text = _mail(tmp_path, f"Fix\n\nEarlier:\n\n{QUOTES['git']}\nDone.", new=True)
    mails = ["From alice@example.com Sat Jan  1 00:00:00 2022\nReturn-Path: <a@b>\n"
             + part.split("\n", 1)[1] for part in text.split("\nFrom ")[:1]]
    second = mails[0].replace("Subject: [PATCH] Fix", "Subject: [PATCH] Again").replace(
        "From alice@example.com Sat Jan  1", "From bob@example.org Sun Jan  2")
    session = import_session(mails[0] + "\n" + second.replace("f.txt", "g.txt").replace(
        "new.txt", "h.txt"), "inbox.mbox")
    assert [(t.request, sorted(op.path or "" for op in t.reply.ops))
            for t in session.turns] == [("Fix", ["f.txt", "new.txt"]),
                                        ("Again", ["g.txt", "h.txt"])]
    # A message line that reads like a postmark but is no line of its own starts nothing.
    assert COMMIT.match("From alice Sat Jan  1 00:00:00 2022 and on") is None


def test_a_patch_numbered_0_is_no_cover_letter(tmp_path: Path) -> None:
    """QA s47 helper-149 H6: `format-patch -n --start-number=0` numbers the first patch
    [PATCH 0/1]; it was skipped as a cover letter, its change not made, exit 0. A cover
    letter has no '---' and stat before its diff; a patch has."""
    repo, base, _ = _mail(tmp_path, "Fix")
    (repo / "other.txt").write_text("keep\nmore\n")
    head = commit_all(repo, "More")
    text = git(repo, "format-patch", "--stdout", "-n", "--start-number=0", f"{base}..{head}")
    assert "[PATCH 0/1]" in text  # (and [PATCH 1/1]: git counts from the start number)
    session = import_session(text, "s.mbox")
    assert [op.path for t in session.turns for op in t.reply.ops] == ["f.txt", "other.txt"]


def test_a_separator_after_the_signature_moves_no_patch_start(tmp_path: Path) -> None:
    """QA s47 helper-149 H7: text after the mail's signature holding a '---', a stat and a
    diff was taken for the last separator: the mail's own diff was dropped, exit 0."""
    repo, base, text = _mail(tmp_path, "Fix")
    trailer = ("\n---\n1\t1\tother.txt\n 1 file changed, 1 insertion(+), 1 deletion(-)\n\n"
               + QUOTES["git"])
    assert "\n-- \n" in text
    session = import_session(text + trailer, "s.mbox")
    assert "f.txt" in [op.path for t in session.turns for op in t.reply.ops]


def test_a_codex_patch_under_mail_headers_is_still_a_codex_patch() -> None:
    """QA s47 helper-149 L1: since a mail with no diff header was read as a diff, a Codex
    patch saved under mail headers (or after a 'commit 1a2b3c4 ...' line) was refused."""
    patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-hello\n+hello world\n*** End Patch\n"
    for head in ("From: Alice <a@example.com>\nSubject: the fix\n\n",
                 "commit 1a2b3c4 broke the greeting; this restores it.\n\n"):
        assert detect_format(head + patch, "s.patch") == "apply_patch"
    # A mail with nothing else to read is a diff: refused as one, saying why.
    assert detect_format("From: A <a@b>\nSubject: x\n\nhello\n", "m.eml") == "unified"
