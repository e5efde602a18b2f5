"""Git's binary patches (``git diff --binary``): base85 lines, zlib, and the delta format.

A ``GIT binary patch`` section holds a forward hunk and a reverse one, each ``literal N``
(the new bytes) or ``delta N`` (instructions that rebuild the new bytes from the old),
``N`` being the inflated size, then base85 lines and a blank line. Each data line starts
with its decoded length (``A``-``Z``: 1-26, ``a``-``z``: 27-52). Pure.
"""

from __future__ import annotations

import base64
import binascii
import zlib
from collections.abc import Sequence

from reviewtui.core.record import record


class BinaryPatchError(ValueError):
    """A binary hunk that cannot be read or does not fit the bytes it is applied to."""


@record(frozen=True, slots=True)
class BinaryHunk:
    kind: str  # "literal" or "delta"
    data: bytes  # inflated: the new bytes, or the delta
    end: int  # index of the line after the hunk's blank line


def _line_length(char: str) -> int:
    if "A" <= char <= "Z":
        return ord(char) - ord("A") + 1
    if "a" <= char <= "z":
        return ord(char) - ord("a") + 27
    raise BinaryPatchError(f"{char!r} is not a base85 line length")


def read_hunk(lines: Sequence[str], i: int, stop: int | None = None) -> BinaryHunk:
    """The hunk whose ``literal N``/``delta N`` line is ``lines[i]``, read no further than
    ``lines[stop]`` (its section's end: a slice per hunk made a commit of 20,000 binary
    files quadratic, 26 s to read; helper-103, QA s35)."""
    end = len(lines) if stop is None else min(stop, len(lines))
    kind, _, size_text = lines[i].partition(" ")
    digits = size_text.strip()
    if kind not in ("literal", "delta") or not digits.isdigit() or len(digits) > 12:
        raise BinaryPatchError(f"{lines[i]!r} is not 'literal N' or 'delta N'")
    size = int(digits)
    packed = bytearray()
    i += 1
    while i < end and lines[i]:
        line = lines[i]
        length = _line_length(line[0])
        body = line[1:]
        if len(body) % 5 or len(body) // 5 * 4 < length:
            raise BinaryPatchError(f"line {line[:20]!r}... has a bad base85 length")
        try:
            packed += base64.b85decode(body)[:length]
        except (ValueError, binascii.Error) as err:
            raise BinaryPatchError(f"bad base85 data: {err}") from None
        i += 1
    try:
        data = zlib.decompress(bytes(packed))
    except zlib.error as err:
        raise BinaryPatchError(f"the data does not inflate: {err}") from None
    if len(data) != size:
        raise BinaryPatchError(f"the data inflates to {len(data)} bytes, not {size}")
    return BinaryHunk(kind, data, i + 1 if i < end else i)


def _varint(delta: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if at >= len(delta):
            raise BinaryPatchError("the delta ends inside its header")
        byte = delta[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, at


def apply_delta(source: bytes, delta: bytes) -> bytes:
    """Git's delta: copy ranges of ``source`` and insert literal bytes, sizes checked."""
    expected_source, at = _varint(delta, 0)
    target_size, at = _varint(delta, at)
    if expected_source != len(source):
        raise BinaryPatchError(f"the delta is for {expected_source} bytes, the file has "
                               f"{len(source)}")
    out = bytearray()
    try:
        _run_delta(source, delta, at, out)
    except IndexError:
        raise BinaryPatchError("the delta ends inside an instruction") from None
    if len(out) != target_size:
        raise BinaryPatchError(f"the delta built {len(out)} bytes, not {target_size}")
    return bytes(out)


def _run_delta(source: bytes, delta: bytes, at: int, out: bytearray) -> None:
    while at < len(delta):
        op = delta[at]
        at += 1
        if op & 0x80:
            offset = size = 0
            for bit in range(4):
                if op & (1 << bit):
                    offset |= delta[at] << (8 * bit)
                    at += 1
            for bit in range(3):
                if op & (0x10 << bit):
                    size |= delta[at] << (8 * bit)
                    at += 1
            size = size or 0x10000
            if offset + size > len(source):
                raise BinaryPatchError("the delta copies past the end of the file")
            out += source[offset : offset + size]
        elif op:
            if at + op > len(delta):
                raise BinaryPatchError("the delta's insert runs past its end")
            out += delta[at : at + op]
            at += op
        else:
            raise BinaryPatchError("the delta holds a zero opcode")


def blob_id(data: bytes) -> str:
    """Git's object id of a blob holding ``data`` (SHA-1)."""
    import hashlib  # here: a diff without binary patches needs none (OpenSSL: ~2 ms to load)

    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def stored_as(data: bytes, wanted: str, *, text: bool = True) -> bool:
    """Whether git's id of ``data`` starts with ``wanted`` (an id, maybe abbreviated), or,
    for ``text``, that of its LF form: a text file checked out with CRLF (``eol=crlf``,
    ``core.autocrlf``) is stored as its LF text (git's clean filter)."""
    if blob_id(data).startswith(wanted):
        return True
    return text and b"\r\n" in data and blob_id(data.replace(b"\r\n", b"\n")).startswith(wanted)


def _length_char(n: int) -> str:
    return chr(ord("A") + n - 1) if n <= 26 else chr(ord("a") + n - 27)


def write_literal(data: bytes) -> list[str]:
    """``data`` as a ``literal`` hunk: the header, base85 lines of zlib'd bytes, a blank line
    (what ``read_hunk`` reads back, and what ``git apply`` reads)."""
    packed = zlib.compress(data, 9)
    out = [f"literal {len(data)}"]
    for at in range(0, len(packed), 52):
        chunk = packed[at:at + 52]
        out.append(_length_char(len(chunk)) + base64.b85encode(chunk, pad=True).decode("ascii"))
    out.append("")
    return out
