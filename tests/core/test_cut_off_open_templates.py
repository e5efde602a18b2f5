"""Template files (Jinja, Handlebars, ERB, JSP, Razor, Hugo, Blade, Liquid, Eleventy) and
components (Svelte, Astro) whose sample reply, shown in a template comment, a string of a
tag over lines, a block, a Razor code block or a JS expression, closed the fence around
the file: held (rule ``cut-off``, ``open_templates.py``, ``open_markup.py``; QA s50
helper-204, each written cut with keep.txt removed or another file written, exit 0).
And real files the reading held for nothing (a Hugo doc comment showing a shortcode,
Symfony's form layouts, Shopify's doc blocks, commented-out markup) read whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from cutkit import COMBO, LISTED, assert_fenced_longer_whole, assert_held, assert_not_held
from reviewtui.core.protocol.open_strings import open_string

CASES = [
    # (case, path, fence info, the file's text: {s} is the sample)
    # a template comment left open (QA's 1-7: a mark with no end was read as prose)
    ("jinja comment", "templates/base.html", "", "{# How a reply shows it:\n{s}#}\n"
     "<html><body>{{ content }}</body></html>\n"),
    ("handlebars comment", "views/help.hbs", "", "{{!-- A reply, for example:\n{s}--}}\n"
     '<div class="help">{{> body}}</div>\n'),
    ("erb comment", "app/views/help.html.erb", "", "<%# The help pane shows:\n{s}%>\n"
     "<div><%= yield %></div>\n"),
    ("jsp comment", "WEB-INF/help.jsp", "", '<%@ page contentType="text/html" %>\n'
     "<%-- A reply:\n{s}--%>\n<p>${msg}</p>\n"),
    ("razor comment", "Views/Help.cshtml", "", "@model HelpModel\n@* A reply:\n{s}*@\n"
     "<p>@Model.Text</p>\n"),
    ("hugo comment", "layouts/_default/single.html", "", '{{ define "main" }}\n'
     "{{/* A reply:\n{s}*/}}\n<p>{{ .Content }}</p>\n{{ end }}\n"),
    ("hugo trimmed comment", "layouts/partials/help.html", "", '{{ define "main" }}\n'
     "{{- /* A reply:\n{s}*/ -}}\n{{ end }}\n"),
    ("blade comment", "resources/views/help.blade.php", "", '@extends("layout")\n'
     '{{-- A reply:\n{s}--}}\n@section("content")\n<p>{{ $x }}</p>\n@endsection\n'),
    # a string in a tag over lines (8, 9)
    ("jinja set string", "templates/help.html", "", '{% extends "base.html" %}\n'
     '{% set sample = "\nA reply:\n{s}" %}\n<p>{{ sample }}</p>\n'),
    ("erb heredoc", "app/views/help.html.erb", "", "<% sample = <<~MD\nA reply:\n{s}MD\n%>\n"
     "<%= markdown(sample) %>\n"),
    # blocks (10-16)
    ("jinja set block", "templates/help.html", "", '{% extends "base.html" %}\n'
     "{% set sample %}\nA reply:\n{s}{% endset %}\n<div>{{ sample|markdown }}</div>\n"),
    ("django blocktranslate", "templates/help.html", "", "{% load i18n %}\n"
     "<p>{% blocktranslate %}Reply like this:\n{s}{% endblocktranslate %}</p>\n"),
    ("eleventy renderTemplate", "src/help.njk", "", "---\nlayout: base.njk\n---\n"
     '<h1>{{ title }}</h1>\n{% renderTemplate "md" %}\n# Replies\n{s}{% endrenderTemplate %}\n'),
    ("shopify doc", "snippets/help.liquid", "", "{% doc %}\n  Renders the help.\n  @example\n"
     "{s}{% enddoc %}\n<div>{{ section.settings.text }}</div>\n"),
    ("handlebars block", "views/help.hbs", "", "{{#markdown}}\nA reply:\n{s}{{/markdown}}\n"
     "<p>{{title}}</p>\n"),
    ("erb do block", "app/views/help.html.erb", "", "<h1>Help</h1>\n"
     '<%= content_tag :pre, class: "sample" do %>\nA reply:\n{s}<% end %>\n'),
    ("blade verbatim", "resources/views/help.blade.php", "", '@extends("layout")\n'
     '@section("content")\n@verbatim\n<div>A reply:\n{s}</div>\n@endverbatim\n@endsection\n'),
    # Razor code blocks read as C# (17, 18)
    ("razor code block", "Pages/Help.cshtml", "", '@{\n    ViewData["Title"] = "Help";\n'
     '    var sample = @"\nA reply:\n{s}";\n}\n<p>@sample</p>\n'),
    ("blazor code block", "Pages/Help.razor", "", '@page "/help"\n\n<h1>Help</h1>\n'
     '@code {\n    private const string Sample = """\n        A reply:\n{s}        """;\n}\n'),
    # Svelte and Astro expressions read as JS (19-21)
    ("svelte html expression", "src/Help.svelte", "", '<script>\n  import { marked } from '
     '"marked";\n</script>\n\n{@html marked(`\nA reply:\n{s}`)}\n'),
    ("svelte attribute expression", "src/Help.svelte", "", '<script>\n  import Md from '
     '"./Md.svelte";\n</script>\n\n<Md source={`\nA reply:\n{s}`} />\n'),
    ("astro code component", "src/pages/help.astro", "", '---\nimport { Code } from '
     '"astro:components";\n---\n<h1>Help</h1>\n<Code lang="md" code={`\nA reply:\n{s}`} />\n'),
    # HTML's names in any case; a tag's quoted value over lines holding ">" (22, 23)
    ("html Pre", "docs/help.html", "", "<html><body>\n<Pre>\nA reply:\n{s}</Pre>\n"
     "</body></html>\n"),
    ("quoted > over lines", "docs/help.html", "", '<h1>Help</h1>\n<pre\n  title="Shown '
     'when n > 1,\n  else hidden"\n  class="sample">\nA reply:\n{s}</pre>\n'),
    ("svelte < over lines", "src/Help.svelte", "", "<script>\n  export let wide = false;\n"
     '</script>\n\n<pre class={wide\n  ? "w" : "n"} hidden={rows < 1\n}>\nA reply:\n{s}</pre>\n'),
    # a raw block's markup is read (24)
    ("pre opened in raw", "docs/help.html", "", "---\nlayout: default\n---\n"
     "<h1>{{ page.title }}</h1>\n{% raw %}<pre>{{ site.title }}{% endraw %}\nA reply:\n"
     "{s}</pre>\n"),
    # QA s51 helper-206: W1, a tag's string holding the tag's own end mark, the tag over
    # lines blanked to that first end (new in e6cb650b, held before it)
    ("nunjucks string holding }}", "src/t.njk", "", "{{ f('\n{{ x }}\n{s}') }}\n"),
    ("twig include string", "templates/mail.html.twig", "", "{{ include('mail/body.html.twig', "
     "{\n    body: 'Hi {{ name }}, reply like this:\n{s}'}) }}\n"),
    ("handlebars partial string", "views/t.hbs", "", '{{> card body="\nUse {{name}} like '
     'this:\n{s}"}}\n'),
    ("go raw string", "layouts/partials/t.html", "", "{{ $help := `\nUse {{ .Name }} like "
     "this:\n{s}` }}\n{{ $help | markdownify }}\n"),
    ("one line, its string on", "templates/t.html.j2", "", "{{ f('{{ x }}\n{s}') }}\n"),
    # QA s51 helper-207: a tag read on past an end inside its strings, in an engine that
    # ends a tag at its first end or reads strings otherwise, swallowed the tag opening a
    # block (Liquid's '\' is a whole string, a Ruby regex's quote opens none)
    ("jekyll backslash then unless", "_includes/n.html", "", '{% assign sep = "\\" %}\n'
     '{% unless page.url contains "\\" %}\nA reply:\n{s}{% endunless %}\n'),
    ("liquid backslash then if", "snippets/help.liquid", "", "{% assign sep = '\\' %}\n"
     "{% if page.path contains '\\' %}\nA reply:\n{s}{% endif %}\n"),
    ("jekyll one-line comment block", "_layouts/doc.html", "", "{{ p | replace: '\\', '/' }} "
     "{% comment %} don't {{ x }}\nA reply:\n{s}{% endcomment %}\n"),
    ("django verbatim after a backslash", "templates/h.html", "", "{{ v|cut:'\\' }}"
     "{% verbatim %}'{{ x }}\nA reply:\n{s}{% endverbatim %}\n"),
    ("erb regex quote then if", "app/views/h.html.erb", "", "<h1>Help</h1>\n"
     "<%= name.gsub(/'/, \"&#8217;\") %>\n<% if name =~ /'/ %>\nA reply:\n{s}<% end %>\n"),
    # ERB blocks opened by a do with a comment after it, or by a brace (older)
    ("erb do with a comment", "app/views/h.html.erb", "", "<% t = %q(don't) %>\n"
     "<% t.each_line do |l| # l's %>\nA reply:\n{s}<% end %>\n"),
    ("erb brace block", "app/views/h.html.erb", "", "<% [1].each { |i| %>\nA reply:\n{s}"
     "<% } %>\n"),
    ("handlebars raw block", "views/help.hbs", "", "<h1>{{title}}</h1>\n{{{{raw}}}}\n"
     "A reply:\n{s}{{{{/raw}}}}\n"),
    # QA s51 helper-208: a tag read on past an end inside what was taken for a string (a
    # quote its engine reads as none) over another mark on its line, the mark opening a
    # block or comment blanked (new in 0be071eb)
    ("handlebars strip comment", "templates/list.hbs", "", "<h1>{{title}}</h1>\n{{~! it's "
     "the list ~}}{{!-- don't use {{name}} here:\n{s}--}}\n"),
    ("handlebars each after a comment", "templates/list.hbs", "", "<ul>\n{{~! it's the list "
     "~}}{{#each items}}<li>{{name}}</li>{{!-- don't --}}\n{s}{{/each}}\n</ul>\n"),
    ("nunjucks regex literal", "site/post.njk", "", "<h1>{{ title }}</h1>\n{{ title | "
     "replace(r/'/g, \"\u2019\") }} {% if draft %}(it's a draft: {{ note }})\n{s}{% endif %}\n"),
    ("twig interpolation", "templates/page.html.twig", "", "<h1>{{ title }}</h1>\n"
     "{{ \"#{ \"it's\" }\" }} {% if x %} don't {{ y }}\n{s}{% endif %}\n"),
    ("handlebars segment literal", "templates/t.hbs", "", "<h1>{{title}}</h1>\n{{[it's]}} "
     "{{#if a}}don't {{x}}\n{s}{{/if}}\n"),
    ("mustache key", "templates/t.mustache", "", "<h1>{{title}}</h1>\n{{ it's }} {{#items}} "
     "don't {{ x }}\n{s}{{/items}}\n"),
    # QA s51 helper-209: a Jinja comment whose first line holds a brace, Handlebars' {{~!--
    # long comment, a {{ with no end whose string opens far on its line
    ("jinja comment holding a brace", "templates/page.html", "", "<h1>{{ title }}</h1>\n"
     "<p>Hi {#if user.admin} show the panel}\n{s}#}</p>\n"),
    ("jinja comment of a css rule", "templates/page.html", "", "<h1>{{ title }}</h1>\n"
     "<p>x {#disabled color: red; }\n{s}#}</p>\n"),
    ("handlebars strip long comment", "templates/t.hbs", "", "<h1>{{title}}</h1>\n"
     "{{~!-- it's {{title}} in a card, e.g.:\n{s}--}}\n"),
    ("string far on the line", "templates/c.html", "", "<h1>{{ title }}</h1>\n{{ f("
     + "a, " * 45 + "'\n{s}') }}\n"),
    # QA s51 helper-210: Handlebars' empty long comments ({{!--}}, {{~!---}}: their end
    # looked for after the opener, a later --}} swallowed the {{#each}}), an escaped
    # \{{!--, and a block tag's strings ({{#if (eq t "{{/if}}")}})
    ("handlebars empty comment", "templates/t.hbs", "", "<ul>\n{{~!--}}{{#each items}}"
     "<li>{{name}}</li> --}}\n{s}{{/each}}\n</ul>\n"),
    ("handlebars empty comment, plain", "templates/t.hbs", "", "<ul>\n{{!--}}{{#each items}}"
     "<li>{{name}}</li> --}}\n{s}{{/each}}\n</ul>\n"),
    ("handlebars empty comment, three dashes", "templates/t.hbs", "", "<ul>\n{{~!---}}"
     "{{#each items}}<li>{{name}}</li> --}}\n{s}{{/each}}\n</ul>\n"),
    ("handlebars empty strip comment", "templates/t.hbs", "", "<ul>\n{{!--~}}{{#each items}}"
     "<li>{{name}}</li> --}}\n{s}{{/each}}\n</ul>\n"),
    ("handlebars escaped comment", "templates/t.hbs", "", "<p>\\{{~!-- a comment "
     "{{#each items}}<li>{{name}}</li> ends at --}}\n{s}{{/each}}</p>\n"),
    ("handlebars block tag's string", "templates/t.hbs", "", "<div>\n{{~#if (eq tpl "
     '"{{#if a}}{{/if}}")}}\n{s}{{/if}}\n</div>\n'),
    # QA s51 helper-211: a segment literal's quote ([it's]) read as a string's, a real
    # tag after an escaped backslash (\\{{), a Handlebars string's \\" (no escape of a
    # backslash: the string goes on)
    ("handlebars segment block", "templates/t.hbs", "", "<ul>{{#[it's]}}x'{{#each items}}\n"
     "{s}{{/each}}{{/[it's]}}</ul>\n"),
    ("handlebars inverse segment", "templates/t.hbs", "", "<ul>{{^[it's]}}x'{{#each items}}\n"
     "{s}{{/each}}{{/[it's]}}</ul>\n"),
    ("handlebars comment after a backslash", "templates/t.hbs", "", "<p>\\\\{{!-- note\n"
     "{s} --}}</p>\n"),
    ("handlebars strip comment after a backslash", "templates/t.hbs", "", "<p>\\\\{{~!-- "
     "note\n{s} --}}</p>\n"),
    ("handlebars block after a backslash", "templates/t.hbs", "", "<p>\\\\{{#each items}}\n"
     "{s}{{/each}}</p>\n"),
    ("handlebars segment's escaped bracket", "templates/t.hbs", "", "<p>{{[it's\\]}}</p>\n"
     "{s}]}}\n"),
    ("handlebars each over an escaped bracket", "templates/t.hbs", "", "<ul>{{#each [it's\\]}}"
     "x{{/each}}</ul>\n{s}]}}y{{/each}}\n"),
    ("handlebars segment holding }}", "templates/t.hbs", "", "<p>{{x '' [a\\]}}</p>\n{s}]}}\n"),
    ("handlebars open segment", "templates/t.hbs", "", "<p>{{[a}}</p>\n{s}]}}\n"),
    ("handlebars escaped triple stash", "templates/t.hbs", "", "<ul>{{#each items}}\n"
     "\\{{{/each}}}\n{s}{{/each}}</ul>\n"),
    ("handlebars string ending in a backslash", "templates/t.hbs", "", '<div>{{#if (eq p "a\\\\")}}'
     '{{/if}} ")}}\n{s}{{/if}}</div>\n'),
    ("hugo one-line comment", "layouts/partials/p.html", "", "{{ $p := replace .Path `\\` "
     '"/" }}{{/* old `\\` {{ $p }}\nA reply:\n{s}*/}}\n'),
    # W2, a {{ with no end that is a template's code (a variable, a string on its line, a
    # Handlebars comment) in a page of no engine's name (older)
    ("hugo raw string", "layouts/_default/single.html", "", '{{ define "main" }}\n'
     "{{ $s := `\nA reply:\n{s}` }}\n<pre>{{ $s }}</pre>\n{{ end }}\n"),
    ("generic string tag", "templates/page.html", "", '{% if a %}{% endif %}\n'
     '{{ "\n<p>x</p>\n{s}" }}\n'),
    ("handlebars short comment", "templates/help.html", "", "<h1>{{title}}</h1>\n"
     "{{! A reply looks like:\n{s}}}\n"),
    ("macro call string", "templates/help.html", "", "{#\n<p>{{ old }}</p>\n#}\n"
     '{{ macros.note("\nA reply:\n{s}") }}\n'),
    # W3, a Jinja comment inside a line before no braced word (older)
    ("jinja comment mid-line", "templates/help.html", "", "<h1>{{ title }}</h1>\n"
     "<p>Help</p>{#TODO show it:\n{s}#}\n"),
    ("jinja comment of markup", "templates/help.html", "", "<h1>{{ title }}</h1>\n"
     "<p>Help</p>{#<p>A reply:\n{s}</p>#}\n"),
    ("jinja comment of stars", "templates/help.html", "", "<h1>{{ title }}</h1>\n"
     "<div>{#*****\n A reply:\n{s}*****#}</div>\n"),
    # QA s52 helper-213 (all older): Handlebars' raw blocks (their content is text, a
    # {{{{ in one nests a level, {{{{/raw }}}} with a blank is text), an escaped triple
    # stash before a long comment, a block named by a segment; Jinja's and Twig's
    # brackets (an end inside them is no end); Django's named verbatim; Mustache's
    # backslash (no escape) and its parents; Nunjucks' asyncEach
    ("handlebars raw content holds a block's end", "templates/t.hbs", "",
     "{{#each a}}{{{{raw}}}}{{/each}}{{{{/raw}}}}\n{s}{{/each}}\n"),
    ("handlebars raw nests another level", "templates/t.hbs", "",
     "{{{{raw}}}}{{{{x}}}}{{{{/raw}}}}\n{s}{{{{/raw}}}}\n"),
    ("handlebars raw end with a blank", "templates/t.hbs", "",
     "{{{{raw}}}}{{{{/raw }}}}\n{s}{{{{/raw}}}}\n"),
    ("handlebars escaped triple stash comment", "templates/t.hbs", "",
     "<ul>\\{{{~!-- x {{#each items}} --}}\n{s}{{/each}}</ul>\n"),
    ("handlebars segment-named block", "templates/t.hbs", "",
     "{{#[my-list] items}}\n{s}{{/[my-list]}}\n"),
    ("jinja nested dict", "templates/t.j2", "", "{{ f({'a': {}}, '\n{s}') }}\n"),
    ("jinja nested dict in a page", "templates/page.html", "",
     "<p>{{ title }}</p>\n{{ f({'a': {'b': 1}}) ~ '\n{s}' }}\n"),
    ("twig nested hash", "templates/t.twig", "", "{{ f({a: {}}, '\n{s}') }}\n"),
    ("django named verbatim", "templates/page.html", "",
     "{% verbatim s %}{% endverbatim %}\n{s}{% endverbatim s %}\n"),
    ("mustache backslash", "templates/t.mustache", "", "\\{{#items}}\n{s}{{/items}}\n"),
    ("mustache parent", "templates/t.mustache", "", "{{<layout}}\n{s}{{/layout}}\n"),
    ("mustache block", "templates/t.mustache", "", "{{<layout}}{{$body}}\n{s}{{/body}}"
     "{{/layout}}\n"),
    ("nunjucks asyncEach", "templates/t.njk", "", "{% asyncEach x in items %}\n{s}"
     "{% endeach %}\n"),
    # (and Liquid's comments nesting, their raw blocks skipped; Mustache's own delimiters;
    # Razor's expressions, calls and control blocks; Blade's arguments over lines)
    ("liquid raw in a comment", "templates/t.liquid", "", "{% comment %}{% raw %}"
     "{% endcomment %}{% endraw %}\n{s}{% endcomment %}\n"),
    ("mustache set delimiters", "templates/t.mustache", "", "{{=<% %>=}}\n<%#items%>\n{s}"
     "<%/items%>\n"),
    ("mustache comment in its delimiters", "templates/t.mustache", "", "{{=<% %>=}}\n"
     "<%! note\n{s}%>\n"),
    ("razor expression", "Views/T.cshtml", "", '<div>@(@"\n{s}")</div>\n'),
    ("razor call", "Views/T.cshtml", "", '<div>@Html.Raw(@"\n{s}")</div>\n'),
    ("razor if block", "Views/T.cshtml", "", "@if (show) {\n<div>\n{s}</div>\n}\n"),
    ("razor else block", "Views/T.cshtml", "", "@if (show) {\n<p>a</p>\n} else {\n<div>\n"
     "{s}</div>\n}\n"),
    ("razor section", "Views/T.cshtml", "", "@section Scripts {\n<div>\n{s}</div>\n}\n"),
    ("blazor foreach", "Pages/T.razor", "", "@foreach (var x in Items) {\n<li>@x</li>\n{s}}\n"),
    ("blade arguments over lines", "resources/views/t.blade.php", "",
     "@include('code', ['text' => \"\n{s}\"])\n"),
    # QA s52 helper-214: new in s52 (a set-delimiter tag in a Mustache comment followed; a
    # prose "@name (" in Blade, a Razor delegate's markup read as code, each blanking a
    # <pre>), and older (Razor: a } in a block's markup, a string in an interpolation's
    # hole, @await; Liquid: an endcomment in an output tag's string; Django: a named
    # verbatim's end spelled otherwise)
    ("mustache set delimiters in a comment", "templates/t.mustache", "",
     "{{! use {{=<% %>=}} to switch %>\n{{#items}}\n{{! close with {{/items}}\n{s}"
     "{{/items}}\n"),
    ("blade prose at-name", "resources/views/welcome.blade.php", "",
     "<p>Follow @laravel (it's great)</p>\n<pre>\nDon't panic :)\n{s}</pre>\n"),
    ("razor delegate markup", "Views/Home/Index.cshtml", "",
     "@Html.Show(@<span>:(</span>)\n<pre>\nsmile :)\n{s}</pre>\n"),
    ("razor brace in block markup", "Views/Home/Index.cshtml", "",
     "@if (show) {\n<p>Close it with }.</p>\n<div>\n{s}</div>\n}\n"),
    ("razor interpolation hole string", "Views/Home/Index.cshtml", "",
     '<div>@($@"{F(")")}\n{s}")</div>\n'),
    ("razor await call", "Views/Home/Index.cshtml", "",
     '<div>@await Html.PartialAsync("_Code", @"\n{s}")</div>\n'),
    ("liquid endcomment in an output string", "templates/t.liquid", "",
     '{% comment %}\n{{ "{% endcomment %}" }}\n{s}{% endcomment %}\n'),
    ("django verbatim end spelled otherwise", "templates/page.html", "",
     "<main>\n{% verbatim x %}{%- endverbatim x %}\n{s}{% endverbatim x %}\n</main>\n"),
    # QA s52 helper-215 (older): Razor braces in a block's C# strings, comments, characters
    # and @: text; chained calls and indexers; Blade's @unset; a Liquid comment's output
    ("razor brace in a block's string", "Views/Home/Index.cshtml", "",
     '@if (show) {\n    var s = "}";\n    var t = @"\n{s}";\n}\n'),
    ("razor brace in a block's comment", "Views/Home/Index.cshtml", "",
     '@if (show) {\n    // }\n    var t = @"\n{s}";\n}\n'),
    ("razor brace in @: text", "Views/Home/Index.cshtml", "",
     "@if (show) {\n@:Use } to close.\n<pre>\n{s}</pre>\n}\n"),
    ("razor chained call", "Views/Home/Index.cshtml", "",
     '<p>@Model.Get("a").Format(@"\n{s}")</p>\n'),
    ("razor indexer", "Views/Home/Index.cshtml", "", '<p>@Model.Texts[@"\n{s}"]</p>\n'),
    ("blade unset", "resources/views/a.blade.php", "", '<div>\n@unset($x["\n{s}"])\n</div>\n'),
    # (helper-218: an Angular block's interpolations, @let and attribute values read with
    # their strings; a Razor interpolated string's holes)
    ("angular escaped brace", "src/app/app.component.html", "",
     "@if (open) {\n<p>Blocks:</p>\n{{ '}' }}\n<p>Run:</p>\n{s}}\n"),
    ("angular let", "src/app/app.component.html", "", "@if (user) {\n@let close = '}';\n"
     "<p>Run:</p>\n{s}}\n"),
    ("angular attribute", "src/app/app.component.html", "",
     "@if (user) {\n<input [placeholder]=\"n > 0 ? '}' : ''\">\n<p>Run:</p>\n{s}}\n"),
    ("razor interpolation's hole", "Views/Home/Index.cshtml", "",
     '<div>\n@if (Model.Ok) {\n    var s = $"{(last ? "}" : ",")}";\n<p>Run:</p>\n{s}}\n</div>\n'),
    # (helper-217: a block nested in an element reads its own code: a } in its Razor
    # comment, C# comment or string is none)
    ("razor comment brace in an element's block", "Views/Home/Index.cshtml", "",
     '<div class="card">\n@if (Model.Steps.Any())\n{\n    @* each step ends with } *@\n'
     "    <p>Steps:</p>\n{s}    <p>done</p>\n}\n</div>\n"),
    ("razor string brace in an element's block", "Views/Home/Index.cshtml", "",
     '<div>\n@if (x)\n{\n    var close = "}";\n    <p>Steps:</p>\n{s}    <p>done</p>\n}\n</div>\n'),
    # (known since s51: a {{ with no end leaving a bracket open, its string on the next
    # line, read as prose in a page)
    ("string on the line after a call", "templates/page.html", "", "<p>{{ title }}</p>\n"
     "{{ render(\n'\n{s}') }}\n"),
    ("dict over lines", "templates/page.html", "", "<p>{{ title }}</p>\n{{ {\n'a': '\n{s}'} }}\n"),
    # (known since s50: Angular's control blocks, their braces paired)
    ("angular if", "src/app/app.component.html", "", "@if (user) {\n<p>Run:</p>\n{s}}\n"),
    ("angular else", "src/app/app.component.html", "", "@if (a) {\n<p>x</p>\n} @else {\n"
     "<p>Run:</p>\n{s}}\n"),
    ("angular for", "src/app/list.component.html", "", "<ul>\n@for (item of items; track "
     "item.id) {\n<li>{{ item.name }}</li>\n{s}}\n</ul>\n"),
    ("angular placeholder", "src/app/x.component.html", "", "@defer (on viewport) {\n"
     "<big-thing />\n} @placeholder {\n<p>\n{s}</p>\n}\n"),
]


@pytest.mark.parametrize(("case", "path", "info", "text"), CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("sample", [COMBO, LISTED], ids=["command", "listed"])
def test_a_sample_in_a_template_holds_the_file_and_writes_nothing(
        tmp_path: Path, case: str, path: str, info: str, text: str, sample: str) -> None:
    assert_held(tmp_path, case, path, info, text, sample)


# A page of no engine's name may be Liquid, Django or Go: a tag over lines holding a mark
# is held when its code up to its first end leaves a string open, whole or cut (a Hugo
# layout's raw string over lines quoting {{ }} is held for nothing; read on past that end,
# a Liquid '\\' swallowed a block's tag: QA s51 helper-207).
# (a quote its engine reads as none, then another mark on the line: a Nunjucks regex, a
# Twig interpolation; Hugo's raw string is read whole since s52: its tag leaves a bracket
# open at its first }}, read on as Jinja and Go read it, past the `..` string)
HELD_EVEN_WHOLE = {"nunjucks regex literal", "twig interpolation"}
WHOLE_CASES = [c for c in CASES if c[0] not in HELD_EVEN_WHOLE]


@pytest.mark.parametrize(("case", "path", "info", "text"), WHOLE_CASES,
                         ids=[c[0] for c in WHOLE_CASES])
def test_the_same_template_fenced_longer_is_written_whole(
        case: str, path: str, info: str, text: str) -> None:
    assert_fenced_longer_whole(case, path, info, text)


def test_shapes_held_for_the_safe_side_are_held_whole_too() -> None:
    for case, path, _info, text in CASES:
        if case in HELD_EVEN_WHOLE:
            whole = text.replace("{s}", "```\nmake test\n```\n").splitlines()
            assert open_string(path, "", whole) is not None, case


WHOLE = [
    # the shapes of real files held for nothing before (QA s50 helper-204's scan)
    ("layouts/_shortcodes/hl.html", "{{/*\nReturns highlighted code.\n\n@example This is "
     "{{< hl python >}}inline{{< /hl >}} code.\n*/}}\n\n{{- $code := .Inner }}\n"
     "{{- transform.Highlight $code }}\n"),
    ("Form/form_div_layout.html.twig", '<div class="input-group">\n'
     "    {{- date_pattern|replace({\n        '{{ year }}': form_widget(form.year),\n"
     "        '{{ day }}': form_widget(form.day),\n    })|raw -}}\n</div>\n"),
    ("snippets/unit-price.liquid", "{%- doc -%}\n  Renders the unit price.\n  @example\n"
     "  {% render 'unit-price', price: line_item.unit_price }\n{%- enddoc -%}\n"
     '<small class="unit-price">{{ price }}</small>\n'),
    ("post.hbs", "{{#if @custom.show_recent_posts_footer}}\n    {{!-- The {#get} helper "
     "below fetches\n    the latest posts. --}}\n    {{#get \"posts\" limit=\"3\"}}{{/get}}\n"
     "{{/if}}\n"),
    ("themes/haiku/layout.html", '<div class="content">\n  {#{%- if display_toc %}\n'
     '  <div id="toc">\n    <h3>{{ _(\'Contents\') }}</h3>\n    {{ toc }}\n  </div>\n'
     "  {%- endif %}#}\n  {% block body %}{% endblock %}\n</div>\n"),
    ("layouts/base.njk", "<head>\n{#\n\tSee also: `<is-land import>`\n\t<!-- Web Awesome -->\n"
     '\t<script type="module" src="/webawesome.loader.js"></script>\n#}\n</head>\n'
     "<body>{{ content | safe }}</body>\n"),
    ("docs/ChangeLog.html", "<p>{{ x }}</p>\n<pre><code> ${#} is valid, but ${# } is not.\n"
     "  {{{{{{{$testing\n        }}}}}}}\n</code></pre>\n"),
    ("classLevel/classDocName.html", "<% } %>\n<!-- FIELDS -->\n<%\n"
     "def row = \"<tr><td><code>${f.name()}</code></td></tr>\"\n%>\n<table>${row}</table>\n"),
    # Jekyll's compress layout: a <pre with a template tag glued to it
    ("_layouts/compress.html", '{% capture c %}{{ content }}{% endcapture %}{% if c contains '
     '"</pre>" %}<pre{{ _pres.first }}</pre>{% endif %}\n'),
    # tags quoting markup, and Liquid's backslash strings (QA s51 helper-207: held by the
    # first reading of tags' strings)
    ("_partials/header.html", '{{- if site.Params.label.iconSVG }}\n<span>{{ x }}</span>\n'
     '{{- else if hasPrefix site.Params.label.iconSVG "<svg" }}\n<img src="a">\n{{- end }}\n'),
    ("_layouts/table_wrappers.html", "{{ content | replace: '<table', "
     "'<div class=\"table-wrapper\"><table' | replace: '</table>', '</table></div>' }}\n"),
    ("_includes/fix_linenos.html", "{%- capture c -%}{{ include.code | replace: "
     "'<pre class=\"highlight\">', '<pre>' }}{%- endcapture -%}\n{{ c }}\n"),
    ("sections/h.liquid", "{% # don't render the title here %}\n"
     "<p>{{ section.settings.text }}</p>\n"),
    ("_includes/p.html", "<a href=\"{{ page.path | replace: '\\', '/' }}\">x</a>\n"
     "<p>{{ page.title }}</p>\n"),
    ("docs/p.html", "<p>{% if x %}{% endif %}</p>\n<p>Write {{ user's name }} here.</p>\n"),
    # (QA s51 helper-208: Handlebars' strip comments)
    ("t.hbs", "{{~! don't touch ~}}\n<p>{{title}}</p>\n"),
    ("list.hbs", "{{~!-- it's {{title}} in a card --~}}\n<p>{{title}}</p>\n"),
    # an empty comment, as a browser reads it; Astro's quoted "{"
    ("empty.html", "<!--><pre>x</pre><!--->\n"),
    ("social.astro", '---\nconst a = 1;\n---\n<Fragment set:text="Array<{" />\n'),
    # (QA s52 helper-213: a Handlebars raw block's content is text, its levels nest; a
    # Django verbatim named; a Mustache parent with its blocks; Perl's braces in a <pre>)
    ("raw.hbs", "{{{{raw}}}}{{x.[0}}{{!-- {{{{/raw}}}}\n<p>{{y}}</p>\n"),
    ("nested.hbs", "{{{{raw}}}}{{{{a}}}}<pre>{{x}}</pre>{{{{/a}}}}{{{{/raw}}}}\n<p>ok</p>\n"),
    ("verbatim.html", "{% verbatim s %}{% endverbatim %}<b>x</b>{% endverbatim s %}\n"
     "<p>{{ x }}</p>\n"),
    ("page.mustache", "{{<layout}}{{$body}}<p>{{x}}</p>{{/body}}{{/layout}}\n"),
    ("docs/ChangeLog.html", "<p>{{ x }}</p>\n<pre><code>{{{{{{{$testing\n}}}}}}}\n"
     "</code></pre>\n"),
    ("delims.mustache", "{{=<% %>=}}<%#a%>x<%/a%><%={{ }}=%>{{#b}}y{{/b}}\n<p>{{c}}</p>\n"),
    ("Views/Ok.cshtml", '@model M\n@using System.Linq\n@if (Model.X("(")) {\n<p>@Model.Name'
     ' and @(1 + 2) { }</p>\n} else if (y) { <b>z</b> }\n@section Scripts {\n<script>var a'
     ' = {b: 1};</script>\n}\n<a href="mailto:me@example.com">me@example.com</a>\n'
     '@Html.Raw(@"x""y")\n'),
    ("resources/views/ok.blade.php", "@extends('layout')\n@section('title', 'Home')\n"
     "@section('content')\n@include('x', ['a' => \"b)\"])\n<style>@media (max-width: "
     "600px) { a { b: c } }</style>\n@endsection\n"),
    ("src/app/ok.component.html", "<div [ngClass]=\"{a: b}\">{{ x ? '{' : '}' }}</div>\n"
     "@if (a === ')') {\n<p>{{ a }}</p>\n} @else if (b) {\n<p>b</p>\n} @else {\n<p>c</p>\n"
     "}\n@for (i of xs; track i) {\n<li>{{i}}</li>\n} @empty {\n<li>none</li>\n}\n"
     "@switch (k) {\n@case (1) { <b>1</b> }\n@default { <b>?</b> }\n}\n"
     '<a href="mailto:me@if.com">x</a>\n'),
    # (helper-214's held: Mustache delimiters alike at both ends; braces and strings in
    # a Razor block's markup; Blade prose naming someone)
    ("same.mustache", "{{=| |=}}\n|#a|x|/a|\n{{=$ $=}}\n"),
    ("Views/Braces.cshtml", '@if (x) {\n<p>Use { to open a block.</p>\n<p>@("{")</p>\n}\n'
     '@section Scripts {\n<script>var o = "{";</script>\n}\n'),
    # (helper-218: a // line ending in an end tag; a brace in a script or an expression's
    # string; Angular's {{ '{' }})
    ("Views/Sample.cshtml", "@if (Model.ShowSample) {\n<pre><code>\nvar t = items.Sum();\n"
     "// print it</code></pre>\n}\n@section Scripts {\n<script>\n  init(\"{\");\n  // done"
     "</script>\n}\n"),
    ("src/app/esc.component.html", "@if (open) {\n{{ '{' }}\n<span>x</span>\n}\n"),
    # (helper-219: a block's condition over lines, a blank line before its brace)
    ("Pages/Index.cshtml", "@page\n@model IndexModel\n@if (Model.Items != null &&\n"
     "     Model.Items.Any())\n{\n    <ul>\n    @foreach (var i in Model.Items\n"
     "        .Where(x => x.Ok))\n    {\n        <li>@i.Name</li>\n    }\n    </ul>\n}\n"
     "else if (a &&\n    b)\n\n{\n<p>Hi</p>\n}\n"),
    # (helper-217: the top of a Razor view is markup: an inch mark, a glob, a raw string)
    ("Views/Top.cshtml", '<p>Your 15" laptop, src/*.cs</p>\n@if (x) {\n    var j = """\n{ "a": 1\n'
     '""";\n    <p>@j</p>\n}\n'),
    ("resources/views/prose.blade.php", "<p>Follow @laravel (it's great)</p>\n<pre>x</pre>\n"
     "<p>@taylor (he's around)</p>\n"),
    # (a Groovy template's closure spanning <% %> tags: no Jinja bracket reading)
    ("topLevel/list.html", "<tbody>\n<%\n  list.each { c ->\n%><tr class=\"${i%2==0?'a':'b'}"
     "\">\n<% } %>\n</tbody>\n"),
]


@pytest.mark.parametrize(("path", "text"), WHOLE, ids=[w[0] for w in WHOLE])
def test_a_real_template_held_for_nothing_before_is_read_whole(path: str, text: str) -> None:
    assert_not_held(path, text)


def test_template_tags_over_lines_blanked_for_their_text_cannot_hide_an_opener() -> None:
    """A tag over lines holding markup is blanked only when its text, read alone, closes
    all it opens; and never where its mark may be prose that hides what a browser reads:
    inside a tag's quoted value, before a one-line tag quoting an opener, or before a
    template block that hides what the plain text leaves open (found reading random texts
    against the older reading: each held)."""
    sample = ["```", "", "--- File: src/app.py ---", "```"]
    for lines in (
            # (a {{ of prose inside a value: its text leaves the tag and opens a <pre>)
            ["{% if a %}{% endif %}", '<div title="{{', '<!-- x"><pre> -->', "}}"],
            # (its text opens what it does not close)
            ["{% if a %}{% endif %}", "{#", "<pre>", "#}", "</pre>"],
            # (a one-line tag in the file quotes an opener: none is blanked for its text)
            ["{% if a %}{% endif %}", "{#", "<pre>x</pre>", "#}", "{{<style>}}"],
            # (the text read as markup alone leaves a <pre> open a comment block hides)
            ["{{", "{{ x }}{% comment %}<pre>", "{% endcomment %}"],
            # (a bogus comment read across a blanked ">" it may end at)
            ["{% if a %}{% endif %}", "<?x {#", "]]>", "#}<pre>"],
            # (<!--> is a whole comment: the <pre> after it is open)
            ["{% if a %}{% endif %}", "{{/*<!--></pre>}}}<pre>", "-->*/}}"],
    ):
        assert open_string("p.html", "", [*lines, *sample]) is not None, lines


def test_marks_with_no_end_by_file_and_place() -> None:
    """In a file known as a template by its name, any mark with no end is held; in a page
    of another name a {{ with no end is prose, and a {# too inside a line before a word
    ({#get}, ${#}); in a Handlebars file {# is no mark at all."""
    assert open_string("t.j2", "", ["<p>x</p>", "{{ x |", "  upper"]) == 1
    assert open_string("t.html", "", ["{% if a %}{% endif %}", "<p>Type {{ to start.</p>"]) is None
    assert open_string("t.html", "", ["{% if a %}{% endif %}", "<p>the {#get} helper</p>",
                                      "<p>bash: ${#arr}</p>"]) is None
    assert open_string("t.html", "", ["{% if a %}{% endif %}", "  {# a comment", "x"]) == 1
    assert open_string("t.hbs", "", ["{{!-- the {#get} helper --}}", "<p>{{x}}</p>"]) is None


def test_blocks_that_stand_alone_elsewhere() -> None:
    """{% set x = 1 %} stands alone; Shopify's blocks are blocks in a .liquid file only
    (django-pipeline's {% stylesheet 'x' %}, wagtail's {% paginate %}); a Handlebars
    block in a page of another name is prose (Cargo's changelog names "{{#options}}")."""
    for path, lines in (("t.html", ["{% set x = 1 %}", "<p>x</p>"]),
                        ("t.html", ["{% stylesheet 'home' %}", "{% paginate page %}"]),
                        ("CHANGELOG.html", ["<p>{{ x }}</p>", "<li>Fix <code>{{#options}}</code>"
                                            " block</li>"]),
                        ("t.erb", ["<% if a then b end %>", "<% x.each { |i| %><% } %>"]),
                        ("t.erb", ["<%= link_to x { y } %>", "<% h = { a: 1 } %>",
                                   "<% a.each do |x| # c %>y<% end %>"])):
        assert open_string(path, "", lines) is None, lines


def test_a_tag_reads_past_an_end_inside_its_strings() -> None:
    """A tag's end inside one of its strings is no end (``{{ f('}}') }}`` is one tag), on
    one line or over lines; one whose string never closes is held there; a comment's
    quotes are prose (``{# don't #}``); a {{ of prose with no end, and no string on its
    line, stays prose."""
    assert open_string("t.html", "", ["{% if a %}{% endif %}", "{{ f('}}') }}<p>x</p>"]) is None
    assert open_string("t.j2", "", ["{% set s = '%}", "<b>x</b>' %}", "<p>x</p>"]) is None
    assert open_string("t.j2", "", ["<p>x</p>", "{{ f('}}", "<pre>x</pre>"]) == 1
    # (a longer tag opening markup is held: prose's {{ it's }} would hide the <pre>)
    assert open_string("t.html", "", ["{% if a %}{% endif %}", "<p>{{ it's }} <pre> 'x }}",
                                      "A reply:", "```"]) == 1
    assert open_string("t.html", "", ["{% if a %}{% endif %}", "{# don't", "<b>x</b> #}"]) is None
    assert open_string("t.html", "", ["{% if a %}{% endif %}", "<p>Type {{ to start.</p>"]) is None
    assert open_string("t.html", "", ["{% if a %}{% endif %}", "<p>Type {{ to get 'x'.</p>",
                                      "<p>y</p>"]) is None


def test_lines_of_100_kb_of_new_shapes_are_read_in_linear_time() -> None:
    """Every look is forward and each tag's text is read again once at most (no clock
    asserted: a quadratic reading would not finish)."""
    for path, line in (("a.html", "{{ x }}{{/* a" * 10_000), ("a.svelte", "{(/[)}" * 15_000),
                       ("a.astro", "<p>{`${a}`}" * 10_000), ("a.html", "<pre a<" * 15_000),
                       ("a.html", "{{ x }}<!x " * 10_000), ("a.cshtml", "@{ var a = 1; }" * 7_000),
                       ("a.hbs", "{{#x}}" * 20_000), ("a.erb", "<% a do %>" * 10_000),
                       ("a.html", "<a b=\"" * 20_000), ("a.j2", "{{ a' }}" * 15_000),
                       ("a.html", "{% if a %}{{ f('" * 10_000),
                       ("a.html", "<p>{% if a %}{% endif %}</p>{{ a " * 10_000),
                       # (s52: Razor blocks, Blade arguments, Liquid comments, raw blocks,
                       # Mustache's delimiters, Jinja's brackets)
                       ("a.cshtml", "@if (x) {" * 10_000 + "}" * 10_000),
                       ("a.cshtml", "@Html.Raw(\"x\")" * 10_000),
                       ("a.blade.php", "@include('a', [\"b\"])" * 10_000),
                       ("a.liquid", "{% comment %}{% raw %}{% endraw %}" * 10_000),
                       ("a.mustache", "{{=<% %>=}}<%={{ }}=%>" * 10_000),
                       ("a.hbs", "{{{{raw}}}}{{{{x}}}}" * 10_000), ("a.j2", "{{ f({( }}'" * 10_000),
                       ("a.xml", "<a b='>'>" * 15_000),
                       # (helper-214: a set-delimiter opener each, end tags of nothing open)
                       ("a.mustache", "{{=" * 30_000), ("b.xml", "<a>" * 12_000 + "</b>" * 12_000),
                       # (helper-215: a Liquid comment's outputs with no end; Razor's
                       # interpolated strings nested 500 deep overflowed the stack)
                       ("b.liquid", "{% comment %}" + "{{ " * 33_000),
                       ("b.cshtml", "<div>@(" + '$"{' * 500),
                       # (helper-218: escaped quotes after an open one; text braces)
                       ("c.cshtml", '@if (a) {\n var s = "' + '\\"' * 50_000),
                       ("d.cshtml", "@if (x) {" + "<p>{" * 20_000)):
        assert open_string(path, "", [line]) in (None, 0), path
    many = ["{{ x }}"] + ["{#", "<p>{{ a }}</p>", "<pre></pre>", "#}"] * 10_000
    assert open_string("a.html", "", many) is None
    nested = ["{{ x }}"] + ["{#", "{{!--", "<%#", "<pre></pre>", "%>", "--}}", "#}"] * 3_000
    assert open_string("a.html", "", nested) == 1  # (a tag's text is not relaxed again)
