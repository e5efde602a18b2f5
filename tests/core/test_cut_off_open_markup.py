"""Markup files (HTML pages, Vue and Svelte components, XML, templates) whose text as read
ends inside an element whose end tag is required (``pre``, ``code``, ``textarea``,
``script``, ``style``, ``template``), a comment or a CDATA section are held (rule
``cut-off``, ``open_markup.py``): a sample reply such a file shows there closed the fence
around the file, and the rest was written as another file or ran as a command, exit 0
(QA s50 helper-191: a PHP template's ``<pre>`` after ``?>``). And correct files, tricky
ones, are never held for it."""

from __future__ import annotations

from pathlib import Path

import pytest

from cutkit import COMBO, LISTED, assert_fenced_longer_whole, assert_held
from reviewtui.core.protocol.open_strings import open_string

CASES = [
    # (case, path, fence info, the file's text: {s} is the sample)
    ("pre", "docs/index.html", "html", "<html><body>\n<pre>\nA reply:\n{s}</pre>\n"
     "</body></html>\n"),
    ("code in pre", "help.htm", "", "<p>It's <b>this</b>:</p>\n<pre><code class=md>\n"
     "{s}</code></pre>\n"),
    ("vue script", "src/Help.vue", "vue", "<template><p>{{ t }}</p></template>\n<script>\n"
     "export default { data: () => ({ t: `\n{s}` }) }\n</script>\n"),
    ("svelte textarea", "src/Form.svelte", "", "<textarea>\n{s}</textarea>\n"),
    ("comment", "page.html", "", "<!--\nNotes:\n{s}-->\n<p>x</p>\n"),
    ("cdata", "feed.xml", "xml", "<feed><entry><![CDATA[\n{s}]]></entry></feed>\n"),
    ("php template", "views/help.php", "php", "<?php $title = 'Help'; ?>\n<h1><?= $title ?></h1>\n"
     "<pre>\n{s}</pre>\n"),
    ("jinja", "templates/help.html.j2", "", "{% block body %}\n<pre>\n{s}</pre>\n"
     "{% endblock %}\n"),
    ("style", "a.html", "html", "<style>\n/* it's\n{s}*/\n</style>\n"),
    # (QA s50 helper-195: a tag whose attribute holds a "<" or an expression, a Vue
    # generic, an Astro frontmatter's template literal, a Jekyll block tag)
    ("attribute <", "docs/i.html", "html", "<p>Help</p>\n<pre hidden=\"n < 1\">\n{s}</pre>\n"),
    ("vue generic", "src/List.vue", "vue", "<script setup lang=\"ts\" generic=\"T extends "
     "Record<string, unknown>\">\nconst help = `\nA reply:\n{s}`\n</script>\n"),
    ("svelte expression", "src/Help.svelte", "svelte", "<script>\n  export let step = 0;\n"
     "</script>\n\n<pre hidden={step < 1}>\n{s}</pre>\n"),
    ("astro frontmatter", "src/pages/help.astro", "astro", "---\nconst sample = `\n{s}`;\n"
     "---\n<p>{sample}</p>\n"),
    ("jekyll highlight", "_includes/help.html", "", "{% highlight markdown %}\n{s}"
     "{% endhighlight %}\n"),
    ("attribute slash", "docs/s.html", "", "<pre title=\"a/>b\">\n{s}</pre>\n"),
]


@pytest.mark.parametrize(("case", "path", "info", "text"), CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("sample", [COMBO, LISTED], ids=["command", "listed"])
def test_a_sample_inside_an_element_holds_the_file_and_writes_nothing(
        tmp_path: Path, case: str, path: str, info: str, text: str, sample: str) -> None:
    assert_held(tmp_path, case, path, info, text, sample)


@pytest.mark.parametrize(("case", "path", "info", "text"), CASES, ids=[c[0] for c in CASES])
def test_the_same_file_fenced_longer_is_written_whole(
        case: str, path: str, info: str, text: str) -> None:
    assert_fenced_longer_whole(case, path, info, text)


WHOLE = [
    # end tags HTML may leave out, a stray end tag, an empty element, a script holding
    # what looks like tags, PHP code printing a <pre> it closes elsewhere, an XML element
    # named code, a comment holding <pre>, template tags
    ("a.html", "<ul>\n<li>one\n<li>two\n</ul>\n<p>it's\n</pre>\n<code/>\n"),
    ("b.html", "<script>\nconst s = '<pre>' + \"<!--\";\n</script>\n<!-- <pre> -->\n"),
    ("c.php", "<?php echo '<pre>'; print_r($x); ?>\n<p>done</p>\n"),
    ("d.xml", "<r><code>200</code><title>a <b>x</b></title></r>\n"),
    ("e.vue", "<template>\n  <template v-if=\"a\"><pre>{{ x }}</pre></template>\n"
     "</template>\n<script setup>\nconst t = `a`\n</script>\n"),
    ("f.html.j2", "{% if x %}<pre>{{ x }}</pre>{% endif %}\n<SCRIPT src=\"a.js\"></SCRIPT>\n"),
    # template code and comments holding tags, generic types (QA s50 helper-195)
    ("show.blade.php", "@section('content')\n<div>\n  {!! str_replace('<pre>', '<pre class=\"p\">',"
     " $note->html) !!}\n</div>\n@endsection\n"),
    ("Styles.cshtml", "@model IEnumerable<Style>\n<ul>@foreach (var s in Model) "
     "{ <li>@s.Name</li> }</ul>\n"),
    ("base.html", "{# TODO: add <script> for analytics #}\n<html><body>{% block body %}"
     "{% endblock %}</body></html>\n"),
    ("List.astro", "---\ninterface Props { items: Array<Code> }\nconst { items } = Astro.props;\n"
     "---\n<ul>{items.map((c) => <li>{c.name}</li>)}</ul>\n"),
    # (a raw block's tags are text, its markup is read: QA s50 helper-204)
    ("raw.html", "{% raw %}{% if %}<pre>{% endraw %}</pre>\n{%- for x in y -%}{{ x }}"
     "{%- endfor -%}\n"),
]


@pytest.mark.parametrize(("path", "text"), WHOLE, ids=[w[0] for w in WHOLE])
def test_a_correct_file_is_not_held(path: str, text: str) -> None:
    assert open_string(path, "", text.splitlines()) is None


def test_a_line_of_100_kb_is_read_in_linear_time() -> None:
    """Every look is forward (no clock asserted: a quadratic reading would not finish; a
    stray end tag under 20,000 open ones took 7.7 s, QA s50 helper-195)."""
    for line in ("<pre>" * 20_000, "</pre><!-" * 12_000, "<?php <pre>" * 10_000,
                 "<pre>" * 20_000 + "</code>" * 20_000, "{{" * 30_000, "<pre \"" * 20_000,
                 "{% for %}" * 10_000):
        assert open_string("a.php" if "?php" in line else "a.html", "", [line]) in (None, 0)


def test_drupals_php_files_are_php_when_they_open_so() -> None:
    """A Drupal module's .module, .install or .theme file opening with <?php is PHP (QA s50
    helper-191: not read, a sample in its heredoc written past, exit 0); one that does not
    is no PHP."""
    lines = ["<?php", "$help = <<<EOT", "A reply:"]
    for path in ("my.module", "my.install", "my.theme"):
        assert open_string(path, "", lines) == 1, path
    assert open_string("my.module", "", ["name = x", "$help = <<<EOT", "A reply:"]) is None


def test_template_tags_and_attributes_of_a_third_reading() -> None:
    """QA s50 helper-196: a {{ in prose paired with the }} inside a later <pre> hid it (a
    cut file written, exit 0); an expression two braces deep, a quoted value over lines, a
    stray } in a value hid a <pre> too; Django's {% trans %}, Twig's {% block t 'x' %} and
    Tornado's {% end %} stand alone or close."""
    sample = ["```", "", "--- File: src/app.c ---", "```"]
    assert open_string("help.html", "", ["<p>Type {{ to start one.</p>", "<pre>",
                                         "Hello {{ name }}", *sample]) is not None
    assert open_string("a.astro", "", ["<pre class:list={['a', { wrap }]}>", *sample]) == 0
    assert open_string("a.html", "", ['<pre title="a', 'b">', *sample]) == 0
    assert open_string("a.html", "", ["<pre data-x=a}>", *sample]) == 0
    for lines in (["{% load i18n %}", '<p>{% trans "Welcome" %}</p>'],
                  ["{% block title 'Home' %}", "<p>x</p>"], ["{% if x %}", "x", "{% end %}"],
                  ):
        assert open_string("a.html", "", lines) is None, lines
    # (a file showing no template tag is plain markup: its "<%" and "%>" are text)
    assert open_string("a.html", "", ['<script>var s = "<%";</script>',
                                      "<p>100%> done</p>"]) is None


def test_template_block_tags_of_a_fourth_reading() -> None:
    """QA s50 helper-197: {% block content -%} and {% block body scoped %} read as Twig's
    short block, Jinja's {% trans count=n %} .. {% endtrans %} as Django's one-line tag
    (a cut file written, exit 0); a tag quoted in a template tag over lines held a correct
    file; 32,000 {{ skipped at an element took 9.6 s (linear now)."""
    sample = ["```", "", "--- File: src/app.py ---", "```"]
    for tag in ("{% block content -%}", "{% block body scoped %}", "{% trans count=n %}"):
        assert open_string("h.html", "", [tag, "<p>A reply:</p>", *sample]) == 0, tag
    # (a tag quoted in template code over lines is read as markup: held where it leaves
    # one open, the safe side of telling code's quotes from prose's, QA s50 helper-199)
    assert open_string("h.html", "", ["{% set open =", '  "<script>" %}', "<p>x</p>"]) is not None
    assert open_string("p.html", "", ["<p>use {{ x", "<pre>a</pre>"] * 32_000 + ["}}"]) is None


def test_template_tags_of_a_fifth_reading() -> None:
    """QA s50 helper-198: an apostrophe in prose made a {{ in it a template tag again, its
    end the }} inside a later <pre> (a cut file written, exit 0); Django's {% trans var %}
    stands alone (held for nothing), Jinja's {% trans %} and {% trans count=n %} open a
    block; 20,000 stray end tags under 20,000 open blocks cost no search each."""
    sample = ["```", "", "--- File: src/app.py ---", "```"]
    assert open_string("page.html", "", ["<p>Type {{ to open a tag.</p>",
                                         "<p>Here's one: <pre>", "Hello {{ name }}",
                                         *sample]) is not None
    assert open_string("t.html", "", ["{% load i18n %}", "<h1>{% trans page_title %}</h1>",
                                      '<p>{% trans "Welcome" %}</p>']) is None
    for tag in ("{% trans %}", "{% trans count=n %}"):
        assert open_string("h.html", "", [tag, "x", *sample]) == 0, tag
    assert open_string("a.html", "", ["{% for x in y %}"] * 20_000
                       + ["{% endif %}"] * 20_000) == 0


def test_template_tags_of_a_sixth_reading() -> None:
    """QA s50 helper-199: a quote right before a tag in prose made a {{ in prose a template
    tag again (a cut file written, keep.txt removed, exit 0); "endtrans" looked for in raw
    text; a count.label no count=; raw blocks between made the looks quadratic. (A {# or
    ${#} in prose still pairs with a later #}: comments are blanked whatever they hold.)"""
    sample = ["```", "", "--- File: src/app.py ---", "```"]
    for prose in ("<p>Don't type {{ here; use '<code>x</code>' instead.</p>",
                  "<p>Type {{ to open a tag.</p>"):
        assert open_string("page.html", "", [prose, "<pre>", "{{ x }} {# y #}",
                                             *sample]) is not None, prose
    assert open_string("d.html", "", ["{% load i18n %}", '<h1>{% trans "Hi" %}</h1>',
                                      "{% verbatim %}{% trans %}x{% endtrans %}"
                                      "{% endverbatim %}"]) is None
    assert open_string("d.html", "", ["{% trans count.label %}", "<p>x</p>"]) is None
    assert open_string("a.html", "", ["{% trans x %}{% raw %}a{% endraw %}"] * 40_000
                       + ["<p>x</p>"]) is None


def test_template_comments_and_marks_of_a_seventh_reading() -> None:
    """QA s50 helper-200: a multi-line comment read as prose had its words "{% raw %}" and
    "{% block title %}" taken for tags (a cut file written, exit 0; a correct one held); a
    {% highlight %} after a prose {{ was not seen (older, exit 0)."""
    sample = ["```", "", "--- File: src/app.py ---", "```"]
    assert open_string("page.html", "", ["{#", "  Samples go in <code>pre</code> blocks; wrap "
                                         "Jinja in {% raw %}.", "#}", "<pre>",
                                         "{% raw %}{{ user.name }}{% endraw %}",
                                         *sample]) is not None
    assert open_string("base.html", "", ["{#", "  Fill the <title> with {% block title %}.",
                                         "#}", "<title>{% block title %}{% endblock %}"
                                         "</title>"]) == 0  # (held: the safe side)
    assert open_string("p.html", "", ["<p>Liquid prints with {{ (double braces).</p>",
                                      "{% highlight html %}", "Hello {{ name }}",
                                      *sample]) is not None


def test_template_marks_over_lines_holding_markup_are_held() -> None:
    """QA s50 helper-201: a bash ${# in prose paired with a later #}, a quoted end tag in a
    {{ }} read as prose, each hid what the sample opened (exit 0). A tag or comment over
    lines holding an element's tag or another template mark is held at its mark; on one
    line it may quote anything; a {{ with no end after it is prose, and a later
    {% highlight %} is still seen."""
    sample = ["```", "", "--- File: src/app.py ---", "```"]
    assert open_string("p.html", "", ["<p>Count with ${#arr[@]}.</p>", "<pre>", "n=${#}",
                                      *sample]) is not None
    assert open_string("t.html", "", ["{% if a %}x{% endif %}", "<p>Count: ${#arr[@]}.</p>",
                                      "<pre>", "n=${#}", *sample]) == 1  # (a template's)
    assert open_string("s.html", "", ["{% capture sample %}", '{{ "{% endcapture %}" }}',
                                      "Reply:", *sample]) == 0
    assert open_string("q.html", "", ["<p>Write {{ '{% for x in y %}' }} to loop.</p>"]) is None
    assert open_string("h.html", "", ["<p>{{ x", "</p>", "{% highlight bash %}", *sample]) == 2


def test_template_files_known_by_more_of_their_tags() -> None:
    """QA s50 helper-202: {%~ and {%+ tags, Liquid in a feed.xml, {{ $t(..) }}, a compact
    <%=x%> did not make a file a template, its raw block or quoted </pre> not read (a cut
    file written, exit 0); a line of 40,000 "{#" is read at once."""
    sample = ["```", "", "--- File: src/app.py ---", "```"]
    assert open_string("page.twig", "", ["<p>x</p>", "{%~ verbatim ~%}", "Reply:", *sample]) == 1
    assert open_string("feed.xml", "", ["<feed>{% for p in site.posts %}{{ p.title }}"
                                        "{% endfor %}", "{% highlight text %}", *sample]) == 1
    assert open_string("page.erb", "", ["<pre>", "<%=x.sub('</pre>','')%>", *sample]) == 0
    assert open_string("page.html", "", ["<pre>", "{{ $t('</pre>') }}", *sample]) == 0
    # (a comment over lines holding markup is held when that markup leaves one open: a
    # page naming the comment's mark in prose hid its <pre>, QA s50 helper-203; blanked
    # when it closes all it opens, helper-204)
    for opener, closer in (("{{!--", "--}}"), ("<%#", "%>")):
        assert open_string("page.html", "", ["<p>{{ title }}</p>", opener,
                                             '<script src="/old.js">', closer,
                                             "<p>ok</p>"]) == 1, opener
        assert open_string("page.html", "", ["<p>{{ title }}</p>", opener,
                                             '<script src="/old.js"></script>', closer,
                                             "<p>ok</p>"]) is None, opener
    assert open_string("page.html", "", ["x{#" * 40_000]) is None


def test_comment_marks_in_prose_and_xpath_wildcards() -> None:
    """QA s50 helper-203: prose naming a comment's mark ({{!--, <%#) with its end inside a
    cut <pre> (blanked, the <pre> hidden, exit 0); XPath's @* in an XSL file read as a
    Razor comment up to an email regex's *@ (a cut file written); XSLT 3's {{ held."""
    sample = ["```", "", "--- File: src/app.py ---", "```"]
    assert open_string("doc.html", "", ["<p>ERB <%= x %>; comment tags: <%#</p>",
                                        "<pre>Reply: %>", *sample]) is not None
    assert open_string("t.xsl", "", ['<xsl:template match="@*">', "<pre>", "x*@",
                                     *sample]) == 1
    assert open_string("t.xsl", "", ['<xsl:stylesheet version="3.0" expand-text="yes">',
                                     '<xsl:template match="@*|node()">', "{{", '  "a": 1',
                                     "}}", "</xsl:template>", "</xsl:stylesheet>"]) is None
