"""Rule ``cut-off``: a Blade or EJS view whose sample cut it inside a block its engine
closes in the same file (``core/protocol/view_blocks.py``; QA s53 helper-220: each was
written cut, exit 0, the rest of it read as other blocks)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cutkit import COMBO, LISTED, assert_fenced_longer_whole, assert_held, assert_not_held
from reviewtui.core.protocol.view_blocks import open_blade_block, open_ejs_block

B = "resources/views/help.blade.php"
CASES = [
    ("blade if", B, "@if ($show)\n<p>Run:</p>\n{s}@endif\n"),
    ("blade foreach", B, "@foreach ($steps as $step)\n<p>{{ $step }}</p>\n{s}@endforeach\n"),
    ("blade section", B, "@extends('layouts.app')\n@section('title', 'Help')\n"
     "@section('content')\n<p>Run:</p>\n{s}@endsection\n"),
    ("blade push", B, "@push('scripts')\n<p>Run:</p>\n{s}@endpush\n"),
    ("blade forelse", B, "@forelse ($steps as $step)\n<p>x</p>\n@empty\n<p>Run:</p>\n"
     "{s}@endforelse\n"),
    ("blade auth", B, "@auth\n<p>Run:</p>\n{s}@endauth\n"),
    ("blade has section", B, "@hasSection('nav')\n<p>Run:</p>\n{s}@endif\n"),
    ("blade markdown mail", "resources/views/mail/welcome.blade.php",
     "<x-mail::message>\n# Welcome\n\nInstall the CLI:\n\n{s}\nThanks,<br>\n"
     "{{ config('app.name') }}\n</x-mail::message>\n"),
    ("blade mail component", "resources/views/emails/welcome.blade.php",
     "@component('mail::message')\n# Welcome\n\nInstall the CLI:\n\n{s}\n@endcomponent\n"),
    ("blade slot", B, "<x-alert>\n<x-slot:title>Run</x-slot>\n{s}</x-alert>\n"),
    ("blade component over lines", B, "<x-card\n    :title=\"$t\"\n    @class(['a' => $b])\n>\n"
     "{s}</x-card>\n"),
    # (helper-224: Livewire's and @componentFirst's blocks; an EJS regex holding a brace)
    ("blade persist", B, "@persist('player')\nRun:\n{s}@endpersist\n"),
    ("blade teleport", B, "@teleport('body')\n<div>Run:</div>\n{s}@endteleport\n"),
    ("blade component first", B, "@componentFirst(['a', 'b'])\nRun:\n{s}@endcomponentFirst\n"),
    ("ejs regex closing nothing", "views/a.ejs", "<% if (a) { %>\n<% var r = /}/g; %>\n"
     "<p>Run:</p>\n{s}<% } %>\n"),
    ("ejs if", "views/help.ejs", "<% if (user) { %>\n<h1>Hi</h1>\n<p>Run:</p>\n{s}<% } %>\n"),
    ("ejs each", "views/help.ejs", "<% steps.forEach(function (s) { %>\n<p><%= s %></p>\n"
     "{s}<% }) %>\n"),
]


@pytest.mark.parametrize(("case", "path", "text"), CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("sample", [COMBO, LISTED], ids=["command", "listed"])
def test_a_sample_in_a_views_block_holds_it(tmp_path: Path, case: str, path: str, text: str,
                                            sample: str) -> None:
    assert_held(tmp_path, case, path, "", text, sample)


@pytest.mark.parametrize(("case", "path", "text"), CASES, ids=[c[0] for c in CASES])
def test_the_same_view_fenced_longer_is_written_whole(case: str, path: str, text: str) -> None:
    assert_fenced_longer_whole(case, path, "", text)


WHOLE = [
    # (one-line forms, escapes, directives in echoes, comments, verbatim and php blocks;
    # self-closing components, PHP's => in a component's tag: filament's summary row)
    (B, "@section('title', 'Home')\n@slot('footer', 'x')\n<p>Mail me@if.com, @@if</p>\n"
     "{{-- @if ($x) --}}\n{{ '@foreach' }}\n{!! '@auth' !!}\n@verbatim\n@if (a)\n"
     "@endverbatim\n@php\n$a = '@push';\n@endphp\n@php($b = 1)\n"
     "<x-input-label for=\"e\" :value=\"__('Email')\" />\n"
     "<x-row\n    @class(['a' => ! $b])\n/>\n@forelse ($a as $b)\n{{ $b }}\n@empty\nnone\n"
     "@endforelse\n@section('x')\nA\n@show\n@isset($a)\n@endisset\n"),
    # (helper-224: PHP's > in a component's @class([..]) or echo; EJS regex literals)
    ("resources/views/components/nav.blade.php", "<nav>\n<x-badge @class(['hidden' => "
     "$count > 0]) />\n<x-badge class=\"x\" {{ $attributes->merge(['n' => $n >= 1]) }}/>\n"
     "</nav>\n"),
    ("views/regex.ejs", "<% var r = /\\{/g; if (/\\{\\s*$/.test(line)) { %>\n<p>x</p>\n"
     "<% } var half = total / 2 / 3; %>\n"),
    ("views/page.ejs", "<%# a { comment %>\n<%= items.map(i => { return i; }) %>\n"
     "<% const s = '{'; /* } */ %>\n<%- include('x', { a: 1 }) %>\n<%% literal { %>\n"
     "<% if (a) { -%>\n<p>a</p>\n<%_ } else { _%>\n<p>b</p>\n<% } %>\n"),
]


@pytest.mark.parametrize(("path", "text"), WHOLE, ids=[w[0] for w in WHOLE])
def test_a_valid_view_is_read_whole(path: str, text: str) -> None:
    assert_not_held(path, text)


def test_held_at_the_outermost_block_left_open() -> None:
    text = "<p>a</p>\n@if ($a)\n@foreach ($b as $c)\n@endforeach\n@auth\n"
    assert open_blade_block(text) == text.index("@if")
    assert open_blade_block("@if ($a)\n@auth\n@endif\n") is None  # (an end closes inside)
    text = "<p><%= a %></p>\n<% if (a) { %>\n<% for (;;) { %>\n"
    assert open_ejs_block(text) == text.index("<% if")


def test_views_of_100_kb_are_read_in_linear_time() -> None:
    """Stray ends, openers with no end, tags with no close (no clock asserted)."""
    for text in ("@if(" * 20_000, "@if($a)\n" * 20_000, "@endif\n" * 20_000,
                 '<x-a "' * 20_000, "<x-a>" * 20_000 + "</x-b>" * 20_000,
                 "@section('a', 'b')\n" * 20_000, "<% { %>" * 20_000, "<% '" * 20_000):
        assert open_blade_block(text) in (None, 0)
        assert open_ejs_block(text) in (None, 0)
