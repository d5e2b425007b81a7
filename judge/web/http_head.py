"""uvicorn's httptools protocol with a bound on a request's head.

httptools parses HTTP in C, a third cheaper a page than h11
(bench/README.md), but unlike h11 it takes a request line and headers of
any length: five megabytes of one header were read whole. A request whose
head (everything before its body) passes ``MAX_HEAD`` bytes is answered 431
and its connection closed, as h11's ``h11_max_incomplete_event_size`` does.
A body is bounded apart, by judge.web.guard.
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

MAX_HEAD = 16 * 1024
_TOO_LARGE = (b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
              b"content-type: text/plain; charset=utf-8\r\nconnection: close\r\n"
              b"content-length: 31\r\n\r\nThe request's head is too long.")


class BoundedHead(HttpToolsProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._in_head = True
        self._head_bytes = 0  # of the head parsed so far: its URL and whole headers
        self._received = 0  # bytes received while the head is still coming

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._in_head = True
        self._head_bytes = 0
        self._received = 0

    def on_url(self, url: bytes) -> None:
        self._head_bytes += len(url)
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._head_bytes += len(name) + len(value) + 4  # ': ' and the line's end
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._in_head = False
        if self._head_bytes > MAX_HEAD:  # the whole head came in one piece
            self._refuse()
            return
        super().on_headers_complete()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        # a head still coming, however small its pieces: all it has sent so
        # far counts against it, so that one that never ends is not read for ever
        if self._in_head and not self.transport.is_closing():
            self._received += len(data)
            if self._received > MAX_HEAD:
                self._refuse()

    def _refuse(self) -> None:
        if not self.transport.is_closing():
            self.transport.write(_TOO_LARGE)
            self.transport.close()
