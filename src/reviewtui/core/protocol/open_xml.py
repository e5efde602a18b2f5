"""Where an XML document's text ends with an element still open (rule ``cut-off``).

HTML lets a page leave end tags out, so ``open_markup.py`` holds a page only for the
elements whose end tag HTML requires. XML lets nothing be left out: a well-formed document
closes every element it opens, its root last. A file of an XML kind (a Maven ``pom.xml``,
an SVG, a project file, a feed, XHTML) whose text stops with an element open did not end
where its author meant: a sample reply it shows (in a ``<description>``, a comment)
closed the fence around the file at the sample's own fence line, and the rest of the file
was read as other blocks (``:rm`` run, another file written, exit 0). Such a file is held
at the innermost element left open, where the sample stood.

The reading is XML's own: comments, CDATA sections, processing instructions and the
document type declaration (its internal subset in ``[..]``) hold no elements; a tag's
attribute values are quoted and may hold ``>``; ``<x/>`` is empty; an end tag closes the
nearest open element of its name (names are case-sensitive). A document that is not well
formed (an end tag of nothing open) is read on as far as it goes: what it leaves open is
held. One forward pass: linear. Pure.
"""

from __future__ import annotations

import re

# Files that are XML documents by their name: what must close, closes.
XML_SUFFIXES = (".xml", ".xsd", ".xsl", ".xslt", ".svg", ".xhtml", ".jspx", ".xaml",
                ".csproj", ".fsproj", ".vbproj", ".vcxproj", ".props", ".targets",
                ".plist", ".resx", ".wsdl", ".rss", ".atom", ".kml", ".gpx", ".tld",
                ".nuspec", ".xib", ".storyboard", ".xul", ".mxml", ".fxml", ".wxs",
                ".pom", ".iml", ".xlf", ".xliff", ".ui", ".launch", ".runsettings",
                ".xml.dist", ".xml.in", ".xml.template", "web.config", "app.config",
                # (QA s53 helper-220: Avalonia, MSIX, Xamarin, GTK, JasperReports,
                # DocBook, DITA, TEI, OPML, RDF, flat OpenDocument, VSIX)
                ".axaml", ".appxmanifest", ".axml", ".glade", ".jrxml", ".dbk", ".docbook",
                ".dita", ".ditamap", ".tei", ".opml", ".rdf", ".fodt", ".fods", ".fodp",
                ".vsixmanifest")
# (names other files share too, .NET's nuget.config, Web.Debug.config, app.manifest: XML
# when the text starts with a tag)
MAYBE_XML = (".config", ".manifest")

# what opens a piece of markup: a comment, a CDATA section, a processing instruction or
# the XML declaration, a declaration (<!DOCTYPE, <!ENTITY), an end tag, a start tag
_OPENER = re.compile(r"<(?:(!--)|(!\[CDATA\[)|(\?)|(!)|(/)?((?:[^\W\d]|:)[\w.:-]*))")
# the rest of a tag after its name: attributes with quoted values, then its > (after a
# "/" of its own: an empty element)
_TAG_REST = re.compile(r"(?:[^\"'<>]++|\"[^\"]*+\"|'[^']*+')*+>")
# a declaration's body up to its > (quoted literals and an internal subset's [..] held;
# the subset's comments and instructions may hold quotes and brackets)
_DECLARATION = re.compile(r"(?:[^\"'\[\]>]++|\"[^\"]*+\"|'[^']*+'"
                          r"|\[(?:<!--.*?-->|<\?.*?\?>|[^\"'\]<]++|<(?!!--|\?)"
                          r"|\"[^\"]*+\"|'[^']*+')*+\])*+>", re.S)


def is_xml(path: str, text: str = "") -> bool:
    """Whether ``path`` names a file of an XML kind (by its suffix; one of ``MAYBE_XML``
    when ``text`` starts with a tag)."""
    lowered = path.lower()
    return lowered.endswith(XML_SUFFIXES) or (
        lowered.endswith(MAYBE_XML) and text.lstrip("\ufeff \t\r\n").startswith("<"))


def open_xml_element(text: str) -> int | None:
    """The offset of the innermost element ``text`` (an XML document) leaves open, or of
    the comment, section, instruction, declaration or tag it ends inside; None when all
    close."""
    opened: list[tuple[str, int]] = []  # (name, offset) of each element open
    counts: dict[str, int] = {}  # (an end tag of nothing open costs no search)
    pos = 0
    while (m := _OPENER.search(text, pos)) is not None:
        start = m.start()
        if m.group(1):  # a comment
            end = text.find("-->", m.end())
            pos = end + 3
        elif m.group(2):  # a CDATA section
            end = text.find("]]>", m.end())
            pos = end + 3
        elif m.group(3):  # a processing instruction, the XML declaration
            end = text.find("?>", m.end())
            pos = end + 2
        elif m.group(4):  # <!DOCTYPE ..>, <!ENTITY ..>
            found = _DECLARATION.match(text, m.end())
            end = -1 if found is None else found.end()
            pos = end
        else:
            rest = _TAG_REST.match(text, m.end())
            end = -1 if rest is None else rest.end()
            pos = end
            if end >= 0:
                name = m.group(6)
                if m.group(5):  # an end tag: closes the nearest open element of its name
                    if counts.get(name):
                        at = next(k for k in range(len(opened) - 1, -1, -1)
                                  if opened[k][0] == name)
                        for gone, _ in opened[at:]:
                            counts[gone] -= 1
                        del opened[at:]
                elif text[end - 2] != "/":
                    opened.append((name, start))
                    counts[name] = counts.get(name, 0) + 1
        if end < 0:
            return start  # (the text ends inside it)
    return opened[-1][1] if opened else None
