"""Rule ``cut-off`` in Razor views (``.cshtml``, ``.razor``): the blocks a sample cuts, read
as Razor reads them (QA s53 helper-220).

Written cut, exit 0, before: a comment between a block's ``}`` and its ``else`` (or
between ``else`` and ``{``) ended the chain; a ``</div>`` inside a script's string or a
Razor expression's string closed the element around a ``}``; a ``}`` in an element's text
closed an ``@{ }`` block; MVC 5's ``@helper`` was no block. Held whole, exit 1: a block's
condition whose strings (interpolated, verbatim, raw) or comments hold a parenthesis, a
comment before its ``{``, a condition over 600 characters, ``i <max`` in code read as a tag.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cutkit import COMBO, LISTED, assert_fenced_longer_whole, assert_held, assert_not_held
from reviewtui.core.protocol.open_strings import open_string

V = "Views/Home/Index.cshtml"
CASES = [
    ("comment between } and else", V,
     "@if (Model.A)\n{\n<p>a</p>\n}\n// otherwise\nelse\n{\n<p>Run:</p>\n{s}}\n"),
    ("block comment before else", V,
     "@if (Model.A) {\n<p>a</p>\n} /* x */ else {\n<p>Run:</p>\n{s}}\n"),
    ("comment after else", V,
     "@if (Model.A)\n{\n<p>a</p>\n}\nelse // fallback\n{\n<p>Run:</p>\n{s}}\n"),
    ("comment after else if", V,
     "@if (a) {\n<p>a</p>\n}\nelse if (b) // b\n{\n<p>Run:</p>\n{s}}\n"),
    ("comment before catch", V,
     "@try {\n<p>a</p>\n}\n// c\ncatch (Exception e)\n{\n<p>Run:</p>\n{s}}\n"),
    ("end tag in a script's string", V,
     "@if (Model.A)\n{\n<div>\n<script>\nfunction f() {\n  return '</div>';\n}\n</script>\n"
     "<p>Run:</p>\n{s}</div>\n}\n"),
    ("end tag in a razor call's string", V,
     "@if (Model.A)\n{\n<div>\n@Html.Raw(\"</div>\")\nClose C# blocks with } always.\n"
     "<p>Run:</p>\n{s}</div>\n}\n"),
    ("end tag in an explicit expression", V,
     "@if (Model.A)\n{\n<div>\n@(\"</div>\")\nClose C# blocks with } always.\n"
     "<p>Run:</p>\n{s}</div>\n}\n"),
    ("brace in an element of a code block", V,
     "@{\n    ViewData[\"Title\"] = \"C#\";\n    <p>End a block with <code>}</code>.</p>\n"
     "    <p>Run:</p>\n{s}}\n"),
    ("blazor code block element brace", "Pages/Help.razor",
     "<h1>Help</h1>\n@code {\n    RenderFragment f = @<p>Close with }</p>;\n    // Run:\n{s}}\n"),
    ("mvc5 helper", V, "@helper Show(string x) {\n<p>Run:</p>\n{s}}\n"),
    ("helper brace on the next line", V,
     "@helper Show(string x)\n{\n<p>@x</p>\n<p>Run:</p>\n{s}}\n"),
    ("comment before a block's brace", V,
     "@if (Model.Show) // admins only\n{\n<p>Run:</p>\n{s}}\n"),
    ("razor comment before a block's brace", V,
     "@foreach (var i in Model.Items) @* each *@\n{\n<p>Run:</p>\n{s}}\n"),
    ("condition with an interpolated string's paren", V,
     "@if (Model.S == $\"{Model.A + \")\"}\") {\n<p>Run:</p>\n{s}}\n"),
    ("condition with a verbatim backslash", V,
     "@if (Model.P == @\"C:\\\" || Model.Q == \")\") {\n<p>Run:</p>\n{s}}\n"),
    ("condition with a raw string", V,
     "@if (Model.S == \"\"\"a \" ( b\"\"\") {\n<p>Run:</p>\n{s}}\n"),
    ("condition with a comment's paren", V,
     "@if (Model.A && // first (\n     Model.B)\n{\n<p>Run:</p>\n{s}}\n"),
    ("condition over 600 characters", V,
     "@if (" + " &&\n    ".join(f"Model.Flag{i}" for i in range(60)) + ")\n{\n<p>Run:</p>\n{s}}\n"),
    ("a comparison in a code block", V,
     "@{\n    var ok = i <max && j > 0;\n    <p>Run:</p>\n{s}}\n"),
    # (QA s53 helper-224: a tag after a comment starts a statement; else /* c */ if)
    ("a tag after a comment in a block", V,
     "@if (a)\n{\n    /* note */ <p>Close with }</p>\n<p>Run</p>\n{s}}\n"),
    ("a comment between else and if", V,
     "@if (a)\n{\n<p>a</p>\n}\nelse /* y */ if (b)\n{\n<p>Run</p>\n{s}}\n"),
    ("a catch with a filter", V, "@try\n{\n<p>a</p>\n}\ncatch (Exception ex) when (ex is "
     "IOException)\n{\n<p>Run:</p>\n{s}}\nfinally\n{\n<p>c</p>\n}\n"),
    ("a block in a script", V, "<script>\n@if (Model.A)\n{\n    <text>var s = '</div>';</text>\n"
     "    <text>Run:</text>\n{s}}\n</script>\n"),
]


@pytest.mark.parametrize(("case", "path", "text"), CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("sample", [COMBO, LISTED], ids=["command", "listed"])
def test_a_sample_in_a_razor_block_holds_the_view(tmp_path: Path, case: str, path: str,
                                                  text: str, sample: str) -> None:
    assert_held(tmp_path, case, path, "", text, sample)


@pytest.mark.parametrize(("case", "path", "text"), CASES, ids=[c[0] for c in CASES])
def test_the_same_view_fenced_longer_is_written_whole(case: str, path: str, text: str) -> None:
    assert_fenced_longer_whole(case, path, "", text)


WHOLE = [
    ("Views/Home/Chain.cshtml", "@if (Model.A)\n{\n<p>a</p>\n}\n// otherwise\nelse if (b) /* b */\n"
     "{\n<p>b</p>\n}\n@* last *@\nelse\n{\n<p>c</p>\n}\n"),
    ("Views/Home/Script.cshtml", "@foreach (var i in Model.Items) {\n<li>\n<script>\n"
     "var s = '</li>'; function f() { return '}'; }\n</script>\n</li>\n}\n"),
    ("Views/Shared/Helpers.cshtml", "@helper Row(string a, int b)\n{\n<tr><td>@a</td>"
     "<td>@b</td></tr>\n}\n<table>@Row(\"x\", 1)</table>\n"),
    # (helper-224: Razor blocks in a script or style, their braces and its JS's apart)
    ("Views/Home/Alert.cshtml", "<script>\n    @if (Model.ShowAlert)\n    {\n        "
     "<text>alert('hi'); function f() { return '</div>'; }</text>\n    }\n</script>\n"),
    ("Views/Products/Index.cshtml", "@section Scripts {\n<script>\n    var items = [];\n"
     "    @foreach (var i in Model.Items)\n    {\n        @:items.push('@i');\n    }\n"
     "    $(function () { init(items); });\n</script>\n}\n"),
    ("Pages/Theme.razor", "<style>\n    @if (dark) { <text>body { color: #fff; }</text> }\n"
     "</style>\n<p>x</p>\n"),
    ("Views/Home/Prose.cshtml", "<p>Write to me@if.com or see @@if and else { this }.</p>\n"
     "<p>Something else {like this}</p>\n"),
]


@pytest.mark.parametrize(("path", "text"), WHOLE, ids=[w[0] for w in WHOLE])
def test_a_valid_view_is_read_whole(path: str, text: str) -> None:
    assert_not_held(path, text)


def test_views_of_100_kb_are_read_in_linear_time() -> None:
    """Each construct's condition is read once, forward (no clock asserted: helper-220's
    100 KB of braces took 4 s when each brace looked back at 600 characters)."""
    for text, held in (
            (("@ " + "){" * 250 + "\n") * 200 + "@if (a) {\n<p>x</p>\n}\n", False),
            ("<p>\n" + "@if (" * 20_000 + "\n</p>\n", True),  # (the text ends in one)
            ("@if (a) {\n<p>x</p>\n}\n" + "x // c\n" * 20_000 + "else {\n<p>y</p>\n}\n", False),
            ("@if (a) {\n<p>x</p>\n}" + " else /*" * 20_000, True),
            ("@{\n" + "var ok = i <max && j > 0;\n" * 20_000 + "}\n", False),
            ("@if (a) {\n<p>" + "@x(\"a\") {" * 20_000 + "</p>\n}\n", False),
            ("<p>" + "} else " * 30_000 + "</p>", False)):
        assert (open_string(V, "", text.splitlines()) is not None) == held, text[:40]
