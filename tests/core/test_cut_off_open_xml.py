"""XML documents (a Maven ``pom.xml``, an SVG, a project file, JSPX) whose sample reply,
shown in an element's text or a comment, closed the fence around the file: held, at the
innermost element left open (rule ``cut-off``, ``open_xml.py``). Before, only the elements
HTML requires an end tag of were read, so a sample in a ``<description>`` ran on as other
blocks: keep.txt removed or src/app.c written, exit 0 (known since s50, QA's "XML root
element open"). XML closes every element: a whole document is never held for it."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cutkit import COMBO, LISTED, assert_fenced_longer_whole, assert_held, assert_not_held
from reviewtui.core.protocol.open_xml import open_xml_element

CASES = [
    ("maven description", "pom.xml", '<?xml version="1.0"?>\n<project>\n  <modelVersion>'
     "4.0.0</modelVersion>\n  <description>\nHow a reply looks:\n{s}  </description>\n"
     "</project>\n"),
    ("svg desc", "docs/diagram.svg", '<svg xmlns="http://www.w3.org/2000/svg">\n<desc>\n'
     "{s}</desc>\n<rect width='1' height='1'/>\n</svg>\n"),
    ("csproj property", "src/App/App.csproj", '<Project Sdk="Microsoft.NET.Sdk">\n'
     "  <PropertyGroup>\n    <Description>\n{s}</Description>\n  </PropertyGroup>\n"
     "</Project>\n"),
    ("jspx comment", "WEB-INF/page.jspx", '<jsp:root xmlns:jsp="http://java.sun.com/JSP/Page">'
     "\n<!-- note\n{s}-->\n</jsp:root>\n"),
    ("plist string", "Info.plist", '<?xml version="1.0" encoding="UTF-8"?>\n<plist '
     'version="1.0">\n<dict>\n<key>Help</key>\n<string>\n{s}</string>\n</dict>\n</plist>\n'),
    ("xsd documentation", "schema/config.xsd", '<xs:schema xmlns:xs="http://www.w3.org/2001/'
     'XMLSchema">\n<xs:annotation><xs:documentation>\n{s}</xs:documentation>'
     "</xs:annotation>\n</xs:schema>\n"),
    ("web.config", "web.config", "<configuration>\n<appSettings>\n<!-- keys\n{s}-->\n"
     "</appSettings>\n</configuration>\n"),
    ("phpunit dist", "phpunit.xml.dist", "<phpunit>\n<testsuites>\n{s}</testsuites>\n"
     "</phpunit>\n"),
    ("names in any script", "config/settings.xml", "<設定>\n<説明>\n{s}</説明>\n</設定>\n"),
    ("element after a doctype subset", "data/feed.xml", '<!DOCTYPE feed [\n<!-- the "main" '
     "feed's [entities] -->\n<!ENTITY who \"me\">\n]>\n<feed>\n<entry>\n{s}</entry>\n"
     "</feed>\n"),
    # (QA s53 helper-220: XML by other names; .config and .manifest when a tag starts them)
    ("nuget.config", "nuget.config", '<?xml version="1.0"?>\n<configuration>\n'
     "<packageSources>\n<!-- feeds\n{s}-->\n</packageSources>\n</configuration>\n"),
    ("web transform", "src/Web.Debug.config", "<configuration>\n<appSettings>\n{s}"
     "</appSettings>\n</configuration>\n"),
    ("config with a byte order mark", "nuget.config", "\ufeff<configuration>\n"
     "<packageSources>\n{s}</packageSources>\n</configuration>\n"),
    ("app manifest", "src/app.manifest", "<assembly>\n<description>\n{s}</description>\n"
     "</assembly>\n"),
    ("avalonia view", "Views/Main.axaml", "<Window>\n<TextBlock>\n{s}</TextBlock>\n</Window>\n"),
    ("docbook", "doc/guide.dbk", "<article>\n<programlisting>\n{s}</programlisting>\n"
     "</article>\n"),
]


@pytest.mark.parametrize(("case", "path", "text"), CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("sample", [COMBO, LISTED], ids=["combo", "listed"])
def test_a_sample_in_an_xml_document_holds_it_and_writes_nothing(
        tmp_path: Path, case: str, path: str, text: str, sample: str) -> None:
    assert_held(tmp_path, case, path, "", text, sample)


@pytest.mark.parametrize(("case", "path", "text"), CASES, ids=[c[0] for c in CASES])
def test_the_same_document_fenced_longer_is_written_whole(case: str, path: str,
                                                          text: str) -> None:
    assert_fenced_longer_whole(case, path, "", text)


WHOLE = [
    # (a .config or .manifest that is no XML: its text is not read as XML)
    ("tools/deploy.config", "[server]\nhost = <your host>\n"),
    ("gcloud/core.manifest", "lib/<name>.py\nbin/<tool>\n"),
    ("pom.xml", '<?xml version="1.0"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0">\n'
     "  <dependencies><dependency><scope>test</scope></dependency></dependencies>\n"
     "</project>\n"),
    ("config/services.xml", '<container>\n<alias service="a" public="true"/>\n'
     "<service id='b' class=\"C\" />\n</container>\n"),
    ("app/icon.svg", '<svg viewBox="0 0 1 1"><path d="M0 0 L1 1" title="a > b"/>'
     "<![CDATA[ <not> <an> element ]]><!-- <g> --></svg>\n"),
    ("data/db.xml", '<?xml version="1.0"?>\n<!DOCTYPE set SYSTEM\n"x.dtd" [\n<!--\n  a '
     "note's 'quote' and a ] bracket\n-->\n<?pi [ ?>\n<!ENTITY e \"<x>\">\n]>\n<set>&e;"
     "</set>\n<!-- trailing -->\n"),
    ("build/Directory.Build.props", "<Project>\n  <PropertyGroup>\n    <Nullable>enable"
     "</Nullable>\n  </PropertyGroup>\n</Project>\n"),
]


@pytest.mark.parametrize(("path", "text"), WHOLE, ids=[w[0] for w in WHOLE])
def test_a_whole_xml_document_is_read_whole(path: str, text: str) -> None:
    assert_not_held(path, text)


def test_held_at_the_innermost_element_left_open() -> None:
    text = "<project>\n  <build>\n    <description>\n      text\n"
    assert open_xml_element(text) == text.index("<description>")
    # (a tag, comment or declaration the text ends inside: held at it)
    for cut in ('<a>\n<b x="1>2', "<a><!-- x", "<a><![CDATA[ x", "<?xml x", "<!DOCTYPE a ["):
        assert open_xml_element(cut) is not None, cut
    # an end tag of nothing open is stray; names are case-sensitive
    assert open_xml_element("</x><a></a>") is None
    assert open_xml_element("<A></a>") == 0


# --- every prefix of a well-formed document that stops inside its root is held ----------

_NAMES = st.sampled_from(["a", "b", "dependency", "xs:element", "w:t", "Item_1"])
_TEXT = st.text(alphabet="xyz 'q\"\n]>-", max_size=6).map(
    lambda t: t.replace("]]>", "").replace("--", "-"))


@st.composite
def _element(draw: st.DrawFn, depth: int = 0) -> str:
    name = draw(_NAMES)
    value = draw(_TEXT).replace('"', "'")
    attrs = draw(st.sampled_from(["", f' v="{value}"', f" w='{value.replace(chr(39), '')}'"]))
    if depth > 2 or draw(st.booleans()) and depth:
        return f"<{name}{attrs}/>" if draw(st.booleans()) else f"<{name}{attrs}></{name}>"
    parts = draw(st.lists(st.one_of(
        _TEXT.map(lambda t: t.replace("<", "").replace("&", "")),
        _TEXT.map(lambda t: f"<!--{t}-->"),
        _TEXT.map(lambda t: f"<![CDATA[{t}<c>]]>"),
        st.deferred(lambda: _element(depth + 1))), max_size=4))
    return f"<{name}{attrs}>" + "".join(parts) + f"</{name}>"


@given(st.sampled_from(["", '<?xml version="1.0"?>\n', "<!DOCTYPE r [ <!-- ]' --> ]>\n"]),
       _element(), st.data())
def test_a_well_formed_document_is_whole_and_each_prefix_inside_its_root_held(
        prolog: str, root: str, data: st.DataObject) -> None:
    document = prolog + root + "\n<!-- end -->\n"
    assert open_xml_element(document) is None
    # (from "<a": a lone "<" is no tag yet)
    cut = data.draw(st.integers(len(prolog) + 2, len(prolog) + len(root) - 1))
    assert open_xml_element(document[:cut]) is not None, document[:cut]
