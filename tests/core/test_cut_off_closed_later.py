"""A file leaving a template block open whose end tag stands later in the reply: held
(rule ``cut-off``, ``closed_later.py``). A block of a name no reader knows (Eleventy's
``{% markdown %}``, a Jekyll site's own ``{% tip %}``), a Go ``{{ define }}`` in a page, a
Svelte ``{#if}``, a Handlebars block outside a ``.hbs`` file, a ``{#`` comment in a
document: a sample inside it closed the file's fence, the rest of the file ran on as
other blocks, keep.txt removed or src/app.c written, exit 0 (known since s50; QA s52
helper-213's nested Liquid comments, an escaped Handlebars triple-stash). The rest of a
file cut so holds the block's end, and it follows in the reply."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cutkit import COMBO, LISTED, assert_fenced_longer_whole, assert_reply_held
from reviewtui.cli import main
from reviewtui.core.protocol.closed_later import LaterEnds, closed_later, open_blocks

CASES = [
    ("eleventy markdown", "src/page.njk", "---\nlayout: base\n---\n{% markdown %}\n# Setup\n"
     "{s}{% endmarkdown %}\n"),
    ("jekyll custom block", "_layouts/help.html", "---\n---\n<main>\n{% tip %}\nRun:\n{s}"
     "{% endtip %}\n</main>\n"),
    ("go define in a template", "templates/base.tmpl", '{{ define "help" }}\n<p>Run:</p>\n'
     "{s}{{ end }}\n"),
    ("hugo range in a page", "layouts/index.html", "<ul>\n{{- range .Pages }}\n<li>\n{s}"
     "</li>\n{{- end }}\n</ul>\n"),
    ("svelte if", "src/App.svelte", "<script>let open = true;</script>\n{#if open}\n<p>Run:"
     "</p>\n{s}{/if}\n"),
    ("handlebars block in a page", "public/index.html", "<script id='t' type='text/x-"
     "handlebars'>\n{{#each steps}}\n{s}{{/each}}\n</script>\n"),
    ("jinja comment in a document", "docs/notes.md", "# Notes\n{# draft (not shown)\n{s}#}\n"),
    ("jekyll highlight in a post", "_posts/2026-01-01-x.md", "---\n---\nRun:\n"
     "{% highlight shell %}\n{s}{% endhighlight %}\n"),
    ("liquid nested comment", "templates/t.liquid", "{% comment %}{% comment %}"
     "{% endcomment %}\n{s}{% endcomment %}\n"),
    ("hbs escaped triple-stash comment", "templates/t.hbs", "\\{{{!--{{#each a}}--}}\n{s}"
     "{{/each}}\n"),
]


def _held(tmp_path: Path, path: str, text: str, sample: str) -> str:
    return assert_reply_held(tmp_path, path, path, "", text, sample)


@pytest.mark.parametrize(("case", "path", "text"), CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("sample", [COMBO, LISTED], ids=["combo", "listed"])
def test_a_block_whose_end_stands_later_holds_the_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str, path: str,
        text: str, sample: str) -> None:
    _held(tmp_path, path, text, sample)
    out = capsys.readouterr().out
    assert "cut-off" in out, case
    assert "stands later in the reply" in out or "ends inside" in out, case


def test_the_message_names_the_opener_and_the_end(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, text = CASES[1][1], CASES[1][2]
    reply = _held(tmp_path, path, text, COMBO).splitlines()
    out = capsys.readouterr().out
    tip = reply.index("{% tip %}") + 1
    end = reply.index("{% endtip %}") + 1
    assert (f"leaves a template block open (line {tip}) whose end, {{% endtip %}}, stands "
            f"later in the reply (line {end})") in out


@pytest.mark.parametrize(("case", "path", "text"), CASES, ids=[c[0] for c in CASES])
def test_the_same_file_fenced_longer_is_written_whole(case: str, path: str,
                                                      text: str) -> None:
    assert_fenced_longer_whole(case, path, "", text)


def test_whole_templates_with_tags_that_stand_alone_are_written(tmp_path: Path) -> None:
    """Tags that look like openers but stand alone (a site's own ``{% icon %}``, ``{% set
    x = 1 %}``, Twig's ``{% block title 'x' %}``, Django's ``{% trans "x" %}``), in one
    file, and the block forms of the same names in the next: both written."""
    first = ("{% set x = 1 %}{% block title 'Home' %}{% trans \"Hi\" %}{% icon name='w' %}\n"
             "{% include 'nav.html' %}<p>{{ x }}</p>\n")
    second = ("{% set body %}<b>b</b>{% endset %}{% block title %}T{% endblock %}\n"
              "{% trans %}Hello{% endtrans %}{% if x %}y{% endif %}\n")
    reply = (f"--- File: a.html ---\n```\n{first}```\n\n--- File: b.html ---\n```\n"
             f"{second}```\n\n### Changed files:\n- a.html\n- b.html\n")
    (tmp_path / "s.md").write_text(reply)
    root = tmp_path / "root"
    root.mkdir()
    assert main(["apply", str(tmp_path / "s.md"), "--root", str(root), "--yes"]) == 0
    assert (root / "a.html").read_text() == first
    assert (root / "b.html").read_text() == second


# --- property: a whole text of blocks leaves none open; cut inside one, its end follows --

_BLOCKS = [("{% tip %}", "{% endtip %}"), ("{%- markdown -%}", "{% endmarkdown %}"),
           ('{{ define "x" }}', "{{ end }}"), ("{{- range .Pages }}", "{{- end }}"),
           ("{{#each list}}", "{{/each}}"), ("{{~#if a}}", "{{~/if~}}"),
           ("{#if x}", "{/if}"), ("{#each xs as x}", "{/each}")]


@st.composite
def _body(draw: st.DrawFn, depth: int = 0) -> list[tuple[str, bool]]:
    """Pieces of text, each with whether a cut after it lies inside a block."""
    pieces: list[tuple[str, bool]] = []
    for _ in range(draw(st.integers(0, 3))):
        if depth < 3 and draw(st.booleans()):
            opener, end = draw(st.sampled_from(_BLOCKS))
            pieces.append((opener + "\n", True))
            pieces += [(text, True) for text, _ in draw(_body(depth + 1))]
            pieces.append((end + "\n", depth > 0))
        else:
            pieces.append((draw(st.sampled_from(["<p>text</p>\n", "{{ x }}\n", "plain {\n",
                                                 "{% include 'a' %}\n", "}\n"])), depth > 0))
    return pieces


@given(_body(), st.data())
def test_blocks_closed_are_not_open_and_a_cut_inside_one_is_closed_later(
        pieces: list[tuple[str, bool]], data: st.DataObject) -> None:
    whole = "".join(text for text, _ in pieces)
    assert open_blocks(whole) == []
    inside = [k for k, (_, flag) in enumerate(pieces) if flag]
    if not inside:
        return
    k = data.draw(st.sampled_from(inside))
    cut = "".join(text for text, _ in pieces[:k + 1])
    rest = "".join(text for text, _ in pieces[k + 1:])
    lines = ["--- File: t ---", "```", *cut.splitlines(), "```", *rest.splitlines()]
    found = closed_later(cut.splitlines(), LaterEnds(lines), len(cut.splitlines()) + 2)
    assert found is not None, (cut, rest)


def test_tags_shown_in_raw_blocks_comments_and_samples_are_not_blocks(tmp_path: Path) -> None:
    """A page documenting Liquid shows ``{% if %}`` in a raw block, a comment, a code
    sample or a code span: no block of its own, whatever end tags the next file holds."""
    doc = ("# Conditions\n\nWrite `{% if page.x %}` then:\n\n```liquid\n{% for a in b %}\n"
           "```\n\n{% raw %}{% unless x %}{% endraw %} {# {% tip %} #}\n"
           "{{!-- {{#each xs}} --}} {{/* {{ range . }} */}} {{{{raw}}}}{{#if a}}{{{{/raw}}}}\n")
    layout = ("{% if a %}{% for b in c %}{% unless d %}{% tip %}x{% endtip %}{% endunless %}"
              "{% endfor %}{% endif %}\n{{#each xs}}{{#if a}}y{{/if}}{{/each}}\n"
              "{{ range .Pages }}z{{ end }}\n")
    reply = (f"--- File: docs/conditions.md ---\n````markdown\n{doc}````\n\n"
             f"--- File: _layouts/page.html ---\n```html\n{layout}```\n\n"
             "### Changed files:\n- docs/conditions.md\n- _layouts/page.html\n")
    (tmp_path / "s.md").write_text(reply)
    root = tmp_path / "root"
    root.mkdir()
    assert main(["apply", str(tmp_path / "s.md"), "--root", str(root), "--yes"]) == 0
    assert (root / "docs/conditions.md").read_text() == doc
    assert (root / "_layouts/page.html").read_text() == layout
    assert open_blocks(doc, document=True) == []
    # (read as no document, its sample and span count: the safe side)
    assert [key for key, _ in open_blocks(doc)] == [("%", "if"), ("%", "for")]


def test_an_opener_whose_end_never_comes_is_looked_for_once() -> None:
    """Linear: 20,000 raw blocks, comments and raw tags with no end (no clock asserted: a
    quadratic reading would not finish)."""
    text = "{% raw %}\n{# \n{{!-- \n{{{{x}}}}\n" * 20_000
    assert {key for key, _ in open_blocks(text)} == {("%", "raw"), ("--}}", "")}
    # (a document: its {# comments too)
    assert {key for key, _ in open_blocks(text, document=True)} == {("%", "raw"), ("#}", ""),
                                                                    ("--}}", "")}


def test_a_variable_named_like_a_go_action_opens_nothing() -> None:
    """Django's ``{{ block.super }}`` is no Go ``{{ block "x" . }}`` (89 of 20,868 real
    templates in fetched repositories were counted open so, each held beside a Hugo file
    of the same reply)."""
    assert open_blocks("{% block a %}{{ block.super }}{% endblock %}{{ with_x }}{{if.y}}") == []
    assert [key for key, _ in open_blocks('{{ block "main" . }}')] == [("go", "")]


# QA s52 helper-214: openers and ends the counting misread (all older: written cut, exit 0)
MISREAD = [
    ("a % in a tag's arguments", "_posts/2026-01-01-x.md", '---\n---\n{% if page.discount '
     'contains "%" %}\nRun:\n{s}{% endif %}\n'),
    ("a go end in a string", "templates/a.tmpl", '{{ define "help" }}\n{{ $x := "{{ end }}" }}'
     "\n{s}{{ end }}\n"),
    ("a svelte end in a string", "src/App.svelte", "{#if open}\n<p>Close with {'{/if}'}</p>\n"
     "{s}{/if}\n"),
    ("a svelte end in a comment", "src/App.svelte", "{#if open}\n<!-- {/if} -->\n{s}{/if}\n"),
    ("a svelte end with a blank", "src/App.svelte", "{#if open}\n<p>x</p>\n{s}{/if }\n"),
    ("a named endblock", "templates/emails/welcome.txt", "{% extends 'base.txt' %}\n"
     "{% block body %}\nRun:\n{s}{% endblock body %}\n"),
    ("jinja trans with arguments", "docs/a.md", "# A\n{% trans user=name %}\nHello\n{s}"
     "{% endtrans %}\n"),
    ("a scoped block", "docs/a.md", "# A\n{% block body scoped %}\nHello\n{s}{% endblock %}\n"),
    ("a comment, then {#if} in it", "docs/a.md", "# A\n{# draft: use {#if} here\n{s}#}\n"),
    ("an empty-looking comment", "docs/a.md", "# A\n{#}\n{s}#}\n"),
    # helper-216: templates by a document's name (Helm's NOTES.txt, a Hugo archetype)
    ("helm notes", "chart/templates/NOTES.txt", "Thank you for installing {{ .Chart.Name }}.\n"
     "{{- if .Values.ingress.enabled }}\nRun:\n{s}Visit http://x\n{{- end }}\n"),
    ("hugo archetype", "archetypes/default.md", '---\ntitle: "{{ .Name }}"\n---\n'
     "{{ with .Site.Params.intro }}\nIntro:\n{s}{{ . }}\n{{ end }}\n"),
    # helper-217: a setext heading's underlines, rules, an admonition's indented body,
    # {#TODO, a Handlebars price ${{#if}}: each a real block, escaped in fb843a72
    ("setext underlines", "docs/install.md", "---\nlayout: page\n---\nInstall\n-------\n"
     "{% if site.beta %}\nBeta builds are here.\n\nUpgrade\n-------\nRun:\n{s}{% endif %}\n"),
    ("rules", "docs/install.md", "---\nlayout: page\n---\n# Install\n\n-----\n{% if site.beta %}"
     "\nBeta builds.\n\n-----\nRun:\n{s}{% endif %}\n"),
    ("an admonition", "docs/index.md", "# Home\n\n!!! note\n\n    {% if config.extra.beta %}\n"
     "    Beta feature. Example:\n{s}    {% endif %}\n"),
    ("a jinja comment with no blank", "docs/index.md", "# Home\n\n{#TODO: rewrite\nExample:\n"
     "{s}#}\n"),
    ("a handlebars price", "templates/receipt.html", "<p>Total: ${{#if discount}}\n  "
     "{{discounted}}\n  Example:\n{s}{{else}}{{total}}{{/if}}</p>\n"),
    # (helper-218: an end tag shown in a document's <pre>, indented or Org sample closes
    # nothing there: both readings of its samples are counted)
    ("a go end in a pre", "docs/t.md", "{{ if .A }}\n<pre>\n{{ end }}\n</pre>\nRun:\n{s}"
     "{{ end }}\n"),
    ("a go end indented", "docs/t.md", "{{ if .A }}\n\n    {{ end }}\n\nRun:\n{s}{{ end }}\n"),
    ("handlebars in a readme", "templates/README.md", "# {{name}}\n\n{{#each features}}\n"
     "- {{this}}\n{s}{{/each}}\n"),
]


@pytest.mark.parametrize(("case", "path", "text"), MISREAD, ids=[c[0] for c in MISREAD])
@pytest.mark.parametrize("sample", [COMBO, LISTED], ids=["combo", "listed"])
def test_openers_and_ends_read_as_their_engines_read_them(
        tmp_path: Path, case: str, path: str, text: str, sample: str) -> None:
    _held(tmp_path, path, text, sample)


VALID = [
    ("a heading id and a jinja comment", [("README.md", "# Site\n\n## Install {#install}\n\n"
                                            "Run it.\n"),
                                           ("templates/base.html.j2", "{# the base #}\n"
                                            "<html>{{ body }}</html>\n")]),
    ("pandoc attributes and a nunjucks comment",
     [("docs/guide.md", "## Usage {#usage .unnumbered}\n\n[x]{#here}\n"),
      ("src/_includes/base.njk", "{# layout #}\n<main>{{ content | safe }}</main>\n")]),
    ("a python string and a template", [("app/render.py", "HEAD = '{% block content %}'\n"),
                                        ("templates/a.j2", "{% block content %}x"
                                         "{% endblock %}\n")]),
    ("a shell length and a template comment", [("scripts/run.sh", "#!/bin/bash\n"
                                                "echo ${#args[@]}\nx={#\n"),
                                               ("t.j2", "{# c #}\n")]),
    ("a mention in a code span and a template", [("docs/t.md", "Wrap it in "
                                                  "`{% if user %}`.\n"),
                                                 ("templates/page.j2", "{% if user %}Hi"
                                                  "{% endif %}\n")]),
]


@pytest.mark.parametrize(("case", "files"), VALID, ids=[c[0] for c in VALID])
def test_whole_files_beside_a_later_end_tag_are_written(
        tmp_path: Path, case: str, files: list[tuple[str, str]]) -> None:
    """A file that only shows an opener (a heading's id, a program's string, a code span)
    and a later file of the reply closing a block of that name: both written (QA s52
    helper-214: held, exit 1, nothing written)."""
    reply = "## Turn 1\n> x\n\n" + "".join(f"--- File: {p} ---\n```\n{c}```\n\n"
                                          for p, c in files)
    reply += "### Changed files:\n" + "".join(f"- {p}\n" for p, _ in files)
    (tmp_path / "s.md").write_text(reply)
    root = tmp_path / "root"
    root.mkdir()
    assert main(["apply", str(tmp_path / "s.md"), "--root", str(root), "--yes"]) == 0, case
    for path, content in files:
        assert (root / path).read_text() == content


# QA s52 helper-215: new in s52 (a Svelte tag with braces in it, a Go rune '"' lost their
# openers), and older (an end tag in an output's string counted)
READ_WHOLE = [
    ("a svelte each destructuring", "src/App.svelte", "{#each items as { id, name } (id)}\n"
     "<p>{name}</p>\nRun:\n{s}{/each}\n"),
    ("a svelte if with an object", "src/App.svelte", "{#if check({ strict: true })}\n<p>ok"
     "</p>\nRun:\n{s}{/if}\n"),
    ("a go rune quote", "layouts/partials/csv.html", '{{ define "csv" }}\n{{ if eq .Sep \'"\' }}'
     "quoted{{ end }}\n Run:\n{s}{{ end }}\n"),
    ("an end tag in an output's string", "_posts/2026-01-01-a.md", '---\n---\n{% tip %}'
     '{{ "{% endtip %}" }}\nRun:\n{s}{% endtip %}\n'),
    ("a handlebars end in a helper's string", "views/list.html", '<ul>{{#each items}}'
     '{{t "{{/each}}"}}\nRun:\n{s}{{/each}}</ul>\n'),
]


@pytest.mark.parametrize(("case", "path", "text"), READ_WHOLE, ids=[c[0] for c in READ_WHOLE])
@pytest.mark.parametrize("sample", [COMBO, LISTED], ids=["combo", "listed"])
def test_tags_read_whole_with_their_strings(tmp_path: Path, case: str, path: str, text: str,
                                            sample: str) -> None:
    _held(tmp_path, path, text, sample)


VALID_MORE = [
    # helper-216: a URL or an inch mark in a Razor block's markup, a script's '{' in a
    # Svelte component, Azure's ${{ if }}, code samples of other document formats, a Quarto
    # attribute list holding a "#"
    ("a razor url", [("Views/Home/Help.cshtml", "@if (Model.ShowHelp)\n{\n    <p>Docs: "
                                                 "https://docs.example.com</p>\n}\n"),
                     ("Controllers/Help.cs", "class H { }\n")]),
    ("a razor inch mark", [("Views/Home/Tv.cshtml", '@if (x) {\n<p>Screen: 15.6"</p> <b class="'
                                                    'tag">New</b>\n}\n')]),
    ("a svelte script brace", [("src/A.svelte", "<script>\n  const open = '{';\n</script>\n\n"
                                                "{#if shown}<p>It's fine</p>{/if}\n"),
                               ("src/B.svelte", "{#if x}<p>x</p>{/if}\n")]),
    ("azure pipelines beside helm", [("azure-pipelines.yml", "steps:\n- ${{ if eq(parameters.env,"
                                                             " 'prod') }}:\n  - script: a\n"),
                                     ("chart/templates/d.yaml", "{{ if .Values.on }}a: 1\n"
                                                                "{{ end }}\n")]),
    ("a document's fenced samples and spans", [("docs/d.md", "Use `{% block x %}`:\n\n"
                                                              "~~~html\n{% block content %}\n"
                                                              "~~~\n"),
                                                ("templates/page.html", "{% block content %}x"
                                                                        "{% endblock %}\n")]),
    # (RST's ::, AsciiDoc's ----, Org's #+BEGIN_SRC, indented and <pre> samples are not
    # blanked: a setext underline, a rule, a list item's indented text read the same and
    # may hold a real block, QA s52 helper-217; such a sample beside a file closing its
    # block is held, the safe side)
    ("a quarto attribute list", [("r.qmd", '## Results {#results style="color: #333"}\n'),
                                 ("t.j2", "{# c #}\n")]),
    ("a handlebars unless beside a jinja comment", [("views/a.hbs", "{{#unless x}}y{{/unless}}\n"),
                                                    ("t.j2", "{# c #}\n")]),
    ("a latex parameter beside a shell length", [("doc/macros.tex",
                                                  "\\newcommand{\\x}[1]{#1}\n"),
                                                 ("run.sh", "echo ${#a[@]}\n")]),
    ("rst literals beside a template", [("docs/t.rst", "Use ``{% block content %}`` there.\n"),
                                        ("t.j2", "{% block content %}x{% endblock %}\n")]),
    ("a crossref label beside a jinja comment", [("paper.md", "# Results {#sec:results}\n"),
                                                 ("t.j2", "{# c #}\n")]),
    ("an ember inline if beside a helm chart", [("app/a.hbs",
                                                 "<p class={{if on 'a'}}>x</p>\n"),
                                                ("app/b.gjs",
                                                 "<template>{{if on 'b'}}</template>\n"),
                                                ("chart/templates/d.yaml",
                                                 "{{ if .Values.on }}a: 1\n{{ end }}\n")]),
    ("a svelte mention in code beside a component", [("README.md", "Use `{#if cond}` blocks.\n"),
                                                     ("src/App.svelte", "{#if on}x{/if}\n")]),
    # (QA s53 helper-220: a Markdown page's ---- rule, ~ text and :: are no samples there;
    # AsciiDoc's, Org's and RST's forms are read in other documents alone)
    *((name, [("docs/beta.md", page), ("_layouts/default.html", "<body>{% if page.beta %}b"
                                                                 "{% endif %}</body>\n")])
      for name, page in (
          ("a jekyll rule before an end", "{% if site.beta %}\nBeta\n\n----\n\n{% endif %}\n"
                                          "\n----\n"),
          ("a jekyll tilde", "{% if site.beta %}\nVersion ~1.2 or ~{% endif %}~\n"),
          ("a jekyll double colon", "{% if site.beta %}\nNote::\n\n  {% endif %}\n"))),
]


@pytest.mark.parametrize(("case", "files"), VALID_MORE, ids=[c[0] for c in VALID_MORE])
def test_more_whole_files_beside_a_later_end_tag_are_written(
        tmp_path: Path, case: str, files: list[tuple[str, str]]) -> None:
    test_whole_files_beside_a_later_end_tag_are_written(tmp_path, case, files)


def test_hostile_tag_openers_are_read_in_linear_time() -> None:
    """QA s52 helper-215: 100 KB of "{{ ", "{% a ", '{{ "a' or "{{!-- " took 27-54 s (no
    clock asserted: a quadratic reading would not finish)."""
    for text, document in (("{{ " * 33_000, False), ("{% a " * 20_000, True),
                           ('{{ "a' * 25_000, False), ("{{!-- " * 16_000, False),
                           ("{#if a}{'x" * 10_000, False), ("{#" * 50_000, True)):
        assert isinstance(open_blocks(text, document), list)
