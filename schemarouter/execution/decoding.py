"""Content-Encoding decoding that never produces more than a fixed number of bytes per step.

httpx decodes a whole network chunk at once: a few kilobytes of gzip applied twice inflate to a
gigabyte inside one ``decompress`` call, long before any size cap sees them. Here zlib's
``max_length`` bounds every call, so the caller can count decoded bytes as they come and stop at
its cap with only a small buffer ever held. gzip, x-gzip, deflate (zlib-wrapped or raw) and
identity are decoded, in any stack (``Content-Encoding: gzip, gzip``); other encodings are refused
(the client does not ask for them), since their decoders cannot be bounded the same way.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator

PIECE = 64 * 1024  # the most one decoding step yields


class EncodingError(ValueError):
    """The body's Content-Encoding is unsupported, or its compressed data is corrupt or cut short."""


class _Inflate:
    """One gzip or deflate layer, yielding at most ``piece`` bytes per step."""

    def __init__(self, encoding: str, piece: int) -> None:
        self.encoding = encoding
        self.piece = piece
        # 32 + MAX_WBITS: gzip or zlib header, detected; raw deflate is tried when neither parses.
        self.wbits = 32 + zlib.MAX_WBITS
        self.inflater = zlib.decompressobj(self.wbits)
        self.started = False  # produced output: past the header, no raw-deflate fallback
        self.fed = False

    def feed(self, data: bytes) -> Iterator[bytes]:
        self.fed = self.fed or bool(data)
        while True:
            try:
                out = self.inflater.decompress(data, self.piece)
            except zlib.error as exc:
                if self.started or self.encoding != "deflate" or self.wbits < 0:
                    raise EncodingError(f"corrupt {self.encoding} data ({exc})") from None
                self.wbits = -zlib.MAX_WBITS  # a server sending raw deflate under "deflate"
                self.inflater = zlib.decompressobj(self.wbits)
                continue
            if out:
                self.started = True
                yield out
            if self.inflater.eof:
                # A gzip body may hold several members back to back: start the next one.
                data = self.inflater.unused_data
                if not data:
                    return
                self.inflater = zlib.decompressobj(self.wbits)
                continue
            data = self.inflater.unconsumed_tail
            if not data and len(out) < self.piece:  # a full piece may leave output pending in zlib
                return

    def finish(self) -> None:
        if self.fed and not self.inflater.eof:
            raise EncodingError(f"{self.encoding} data ends before its end marker")


class BodyDecoder:
    """Decode a body under its Content-Encoding header, in bounded pieces.

    ``feed(chunk)`` yields decoded pieces of at most ``piece`` bytes; ``finish()`` checks that
    every compressed layer ended properly.
    """

    def __init__(self, content_encoding: str | None, piece: int = PIECE) -> None:
        names = [n.strip().lower() for n in (content_encoding or "").split(",") if n.strip()]
        layers: list[_Inflate] = []
        for name in reversed(names):  # the last encoding applied is the first to undo
            if name in ("identity", ""):
                continue
            if name in ("gzip", "x-gzip", "deflate"):
                layers.append(_Inflate("deflate" if name == "deflate" else "gzip", piece))
            else:
                raise EncodingError(f"unsupported Content-Encoding {name!r} (only gzip and deflate are accepted)")
        self.layers = layers

    def feed(self, chunk: bytes) -> Iterator[bytes]:
        """Decode one chunk of the body through every layer, in bounded pieces."""
        yield from self._through(chunk, 0)

    def _through(self, data: bytes, depth: int) -> Iterator[bytes]:
        if depth == len(self.layers):
            if data:
                yield data
            return
        for piece in self.layers[depth].feed(data):
            yield from self._through(piece, depth + 1)

    def finish(self) -> None:
        """Check that every compressed layer reached its end marker."""
        for layer in self.layers:
            layer.finish()
