"""``reviewtui view``: numbered and id-tagged lines, ranges, and outlines of long files."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewtui.cli import main
from reviewtui.core.agent.outline import outline
from reviewtui.core.text.hashline import line_id


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str], str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def test_numbers_ids_and_ranges(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "app.py"
    source.write_text("import os\n\n\ndef main():\n    print(os.getcwd())\n")
    code, lines, _ = run(["view", str(source)], capsys)
    assert code == 0
    assert lines[0] == "1  import os"
    assert lines[3] == "4  def main():"
    _, lines, _ = run(["view", str(source), "--hash", "--range", "4-5"], capsys)
    assert lines == [f"{line_id(4, 'def main():')}  def main():",
                     f"{line_id(5, '    print(os.getcwd())')}      print(os.getcwd())"]
    code, _, err = run(["view", str(source), "--range", "x"], capsys)
    assert code == 2
    assert "--range takes A-B" in err


def test_long_file_gets_a_bounded_outline(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "big.py"
    body = "".join(f"def f{n}(x):\n    return x + {n}\n\n" for n in range(150))
    source.write_text("class Box:\n    pass\n\n" + body)
    _, lines, _ = run(["view", str(source)], capsys)
    assert lines[0].endswith("453 lines; outline below (--range A-B shows lines, --all the "
                             "whole file)")
    assert lines[1].strip() == "1  class Box:  (to 2)"
    assert lines[2].strip() == "4  def f0(x):  (to 5)"
    assert len(lines) == 1 + 151
    assert len(outline("big.py", source.read_text().splitlines(), limit=10)) == 10


@pytest.mark.parametrize(
    ("path", "text", "expected"),
    [
        ("a.md", "# Title\ntext\n## Part\n", [1, 3]),
        ("a.css", "body {\n  margin: 0;\n}\n.card .title {\n}\n", [1, 4]),
        ("a.html", '<div>\n<form id="signup">\n</form>\n', [2]),
        ("a.js", "export function go() {\n}\nconst f = (x) => x;\nclass A {\n}\n", [1, 3, 4]),
        ("a.txt", "anything\n", []),
        ("a.rb", "module M\n  class Store\n    def add(x)\n      x\n    end\n  end\nend\n",
         [1, 2, 3]),
        ("a.go", "package a\n\ntype S struct{}\n\nfunc (s S) Go() {\n}\n", [3, 5]),
        ("a.rs", "struct S;\nimpl S {\n    fn go(&self) {}\n}\n", [1, 2, 3]),
        ("a.kt", "class A {\n    fun go() {}\n}\n", [1, 2]),
        ("a.yaml", "services:\n  web:\n    image: x\n  db: {}\nname: app\n", [1, 2]),
        ("a.scss", "@mixin m($x) {\n  color: red;\n}\n@function f($a) {\n  @return $a;\n}\n",
         [1, 4]),
    ],
)
def test_outline_per_language(path: str, text: str, expected: list[int]) -> None:
    assert [e.number for e in outline(path, text.splitlines())] == expected


def test_outline_entries_carry_their_line_range() -> None:
    text = "class Store {\n  load(path) {\n    return 1;\n  }\n}\n"
    entries = outline("store.js", text.splitlines())
    assert [(e.number, e.end) for e in entries] == [(1, 5), (2, 4)]
